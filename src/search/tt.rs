//! The transposition table: a fixed-size, lock-free table shared by all search threads. Each entry
//! is two atomic words, the key stored xor-ed with the data so a torn write is detected as a miss.

use super::score::Score;
use crate::moves::Move;
use crate::square::Square;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at least this (a beta cutoff).
    Lower,
    /// The true value is at most this (no move reached alpha).
    Upper,
    /// The true value.
    Exact,
}

impl Bound {
    /// What a search result `best` says about the true value, for the window it was searched
    /// with (`alpha`, `beta`).
    #[inline]
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One probed entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Best or refuting move found, if any.
    pub mv: Option<Move>,
    /// Score, mate scores relative to the node (see `Score::to_tt`).
    pub score: i32,
    /// Static evaluation of the node.
    pub eval: i32,
    /// Remaining depth searched.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
}

impl Entry {
    /// The stored score read back at `ply` (mate scores counted from the root again).
    #[inline]
    pub fn score_at(&self, ply: usize) -> i32 {
        Score::from_tt(self.score, ply as u32).0
    }

    /// The stored score read back at `ply`, if its bound settles the window `alpha..beta`.
    #[inline]
    pub fn cutoff(&self, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
        let v = self.score_at(ply);
        let settles = match self.bound {
            Bound::Exact => true,
            Bound::Lower => v >= beta,
            Bound::Upper => v <= alpha,
        };
        settles.then_some(v)
    }
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const WAYS: usize = 4;

/// The entries one key may occupy: one cache line, aligned to it, so a probe and its prefetch
/// touch a single line.
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    slots: [Slot; WAYS],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64 && std::mem::align_of::<Bucket>() == 64);

/// The table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: AtomicU8,
}

fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    let m = mv.map_or(0u64, |m| {
        (m.from().index() as u64) << 7 | m.to().index() as u64 | 1 << 15
    });
    let b = match bound {
        Bound::Lower => 1u64,
        Bound::Upper => 2,
        Bound::Exact => 3,
    };
    m | (score as i16 as u16 as u64) << 16
        | (eval as i16 as u16 as u64) << 32
        | ((depth.clamp(-1, 254) + 1) as u64) << 48
        | b << 56
        | ((age & 63) as u64) << 58
}

fn unpack(data: u64) -> (Entry, u8) {
    let m = data & 0xffff;
    let mv = (m & 1 << 15 != 0)
        .then(|| {
            let from = Square::new(((m >> 7) & 0x7f) as u8)?;
            let to = Square::new((m & 0x7f) as u8)?;
            Some(Move::new(from, to))
        })
        .flatten();
    let bound = match (data >> 56) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        _ => Bound::Exact,
    };
    let entry = Entry {
        mv,
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xff) as i32 - 1,
        bound,
    };
    (entry, ((data >> 58) & 63) as u8)
}

/// The memory for a table of this many megabytes could not be had (a memory or address-space
/// limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableTooLarge {
    /// The size asked for, in megabytes.
    pub mb: usize,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes, for sizes known to fit (an allocation that fails ends the
    /// process); sizes a user chooses go through [`TranspositionTable::try_new`].
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb)
            .unwrap_or_else(|_| std::alloc::handle_alloc_error(std::alloc::Layout::new::<Slot>()))
    }

    /// A table of about `mb` megabytes, or why not: the memory is asked for in one piece and a
    /// refusal is an error, not the end of the process.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, TableTooLarge> {
        let too_large = TableTooLarge { mb };
        let bytes = mb.max(1).checked_mul(1024 * 1024).ok_or(too_large)?;
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(count).map_err(|_| too_large)?;
        buckets.resize_with(count, Bucket::default);
        Ok(TranspositionTable {
            buckets,
            age: AtomicU8::new(0),
        })
    }

    /// The table's size in megabytes.
    pub fn megabytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Empties the table.
    pub fn clear(&self) {
        for b in &self.buckets {
            for s in &b.slots {
                s.check.store(0, Ordering::Relaxed);
                s.data.store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Slot; WAYS] {
        let b = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[b].slots
    }

    /// Asks the processor to bring `key`'s bucket into the cache ahead of its probe.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.bucket(key).as_ptr();
            #[allow(unsafe_code)]
            // SAFETY: a prefetch reads nothing the program sees and cannot fault; SSE, which it
            // needs, is part of every x86-64 processor.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast());
            }
        }
    }

    /// Looks up `key`.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for slot in self.bucket(key) {
            let data = slot.data.load(Ordering::Relaxed);
            if data != 0 && slot.check.load(Ordering::Relaxed) ^ data == key {
                return Some(unpack(data).0);
            }
        }
        None
    }

    /// Stores a result, replacing the same key, else the shallowest or oldest entry.
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let bucket = self.bucket(key);
        let mut victim = &bucket[0];
        let mut worst = i32::MAX;
        for slot in bucket {
            let data = slot.data.load(Ordering::Relaxed);
            if data == 0 || slot.check.load(Ordering::Relaxed) ^ data == key {
                if data != 0 {
                    let (old, _) = unpack(data);
                    // Keep a deeper entry for the same position unless this one is exact.
                    if bound != Bound::Exact && old.depth > depth + 2 {
                        return;
                    }
                    // Keep the old move if the new result has none.
                    let mv = mv.or(old.mv);
                    let new = pack(mv, score, eval, depth, bound, age);
                    slot.check.store(key ^ new, Ordering::Relaxed);
                    slot.data.store(new, Ordering::Relaxed);
                    return;
                }
                victim = slot;
                break;
            }
            let (old, old_age) = unpack(data);
            let stale = (age.wrapping_sub(old_age) & 63) as i32;
            let value = old.depth - 8 * stale;
            if value < worst {
                worst = value;
                victim = slot;
            }
        }
        let new = pack(mv, score, eval, depth, bound, age);
        victim.check.store(key ^ new, Ordering::Relaxed);
        victim.data.store(new, Ordering::Relaxed);
    }

    /// Permille of sampled entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let n = (self.buckets.len() * WAYS).min(1000);
        let used = self
            .buckets
            .iter()
            .flat_map(|b| &b.slots)
            .take(n)
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && unpack(d).1 == age
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        let m = Move::new(Square::new(10).unwrap(), Square::new(19).unwrap());
        tt.store(0xdead_beef, Some(m), -123, 45, 7, Bound::Lower);
        let e = tt.probe(0xdead_beef).unwrap();
        assert_eq!(
            e,
            Entry {
                mv: Some(m),
                score: -123,
                eval: 45,
                depth: 7,
                bound: Bound::Lower
            }
        );
        assert!(tt.probe(0xdead_beee).is_none());
        tt.store(0xdead_beef, None, 29_000, 0, 9, Bound::Exact);
        let e = tt.probe(0xdead_beef).unwrap();
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (Some(m), 29_000, 9, Bound::Exact)
        );
        tt.clear();
        assert!(tt.probe(0xdead_beef).is_none());
    }

    #[test]
    fn a_table_too_large_for_memory_is_an_error() {
        assert_eq!(
            TranspositionTable::try_new(usize::MAX).err(),
            Some(TableTooLarge { mb: usize::MAX })
        );
        // Larger than any address space: the allocator refuses it.
        assert!(TranspositionTable::try_new(1 << 40).is_err());
        assert_eq!(TranspositionTable::try_new(2).unwrap().megabytes(), 2);
    }
}
