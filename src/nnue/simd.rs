//! The vector kernels of the net: accumulator updates and the SCReLU output dot product, in AVX2
//! where the processor has it and in plain integers otherwise, with identical results. This is
//! one of the crate's two places with `unsafe` code (the other is the transposition table's
//! prefetch hint).
//!
//! All arithmetic wraps exactly as the AVX2 instructions do (16-bit lanes for the accumulator,
//! 32-bit sums, a 16-bit product of clamped activation and weight), so both versions agree on
//! every input, not only on the ranges a trained net produces.
#![allow(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]

use super::format::{HIDDEN, QA};

/// One perspective's vector of hidden values (or one row of weights).
pub type Lanes = [i16; HIDDEN];

/// Which implementation of the kernels runs. The AVX2 choice can only be made on a processor
/// that has AVX2, which is what makes calling it sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel(Choice);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Kernel {
    /// The plain-integer kernels, available everywhere.
    pub const fn scalar() -> Kernel {
        Kernel(Choice::Scalar)
    }

    /// The AVX2 kernels, if this processor has AVX2.
    pub fn avx2() -> Option<Kernel> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Some(Kernel(Choice::Avx2));
        }
        None
    }

    /// The fastest kernels this processor runs.
    pub fn best() -> Kernel {
        Kernel::avx2().unwrap_or(Kernel::scalar())
    }

    /// A short name for reports: `avx2` or `scalar`.
    pub const fn name(self) -> &'static str {
        match self.0 {
            Choice::Scalar => "scalar",
            #[cfg(target_arch = "x86_64")]
            Choice::Avx2 => "avx2",
        }
    }

    /// `dst = src + add − sub`, lane by lane (a quiet move for one perspective).
    #[inline]
    pub fn add_sub(self, dst: &mut Lanes, src: &Lanes, add: &Lanes, sub: &Lanes) {
        match self.0 {
            Choice::Scalar => scalar::add_sub(dst, src, add, sub),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Choice::Avx2` is only built by `Kernel::avx2`, after the processor was
            // found to support AVX2, the one requirement of this `#[target_feature]` function.
            Choice::Avx2 => unsafe { avx2::add_sub(dst, src, add, sub) },
        }
    }

    /// `dst = src + add − sub1 − sub2`, lane by lane (a capture for one perspective).
    #[inline]
    pub fn add_sub_sub(
        self,
        dst: &mut Lanes,
        src: &Lanes,
        add: &Lanes,
        sub1: &Lanes,
        sub2: &Lanes,
    ) {
        match self.0 {
            Choice::Scalar => scalar::add_sub_sub(dst, src, add, sub1, sub2),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `add_sub`, AVX2 was detected before this choice was made.
            Choice::Avx2 => unsafe { avx2::add_sub_sub(dst, src, add, sub1, sub2) },
        }
    }

    /// `Σᵢ clamp(us_i, 0, QA)² · w_us_i + Σᵢ clamp(them_i, 0, QA)² · w_them_i`, where each
    /// product `clamp(x) · w` is taken in 16 bits and the sum in wrapping 32 bits.
    #[inline]
    pub fn screlu_dot(self, us: &Lanes, them: &Lanes, w_us: &Lanes, w_them: &Lanes) -> i32 {
        match self.0 {
            Choice::Scalar => scalar::screlu_dot(us, them, w_us, w_them),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `add_sub`, AVX2 was detected before this choice was made.
            Choice::Avx2 => unsafe { avx2::screlu_dot(us, them, w_us, w_them) },
        }
    }
}

/// The reference versions, in plain integers.
mod scalar {
    use super::{HIDDEN, Lanes, QA};

    pub(super) fn add_sub(dst: &mut Lanes, src: &Lanes, add: &Lanes, sub: &Lanes) {
        for i in 0..HIDDEN {
            dst[i] = src[i].wrapping_add(add[i]).wrapping_sub(sub[i]);
        }
    }

    pub(super) fn add_sub_sub(
        dst: &mut Lanes,
        src: &Lanes,
        add: &Lanes,
        sub1: &Lanes,
        sub2: &Lanes,
    ) {
        for i in 0..HIDDEN {
            dst[i] = src[i]
                .wrapping_add(add[i])
                .wrapping_sub(sub1[i])
                .wrapping_sub(sub2[i]);
        }
    }

    fn half(acc: &Lanes, w: &Lanes) -> i32 {
        let mut sum = 0i32;
        for i in 0..HIDDEN {
            let c = acc[i].clamp(0, QA as i16);
            // The 16-bit product, as the vector multiply keeps only the low half.
            let t = c.wrapping_mul(w[i]);
            sum = sum.wrapping_add(i32::from(t) * i32::from(c));
        }
        sum
    }

    pub(super) fn screlu_dot(us: &Lanes, them: &Lanes, w_us: &Lanes, w_them: &Lanes) -> i32 {
        half(us, w_us).wrapping_add(half(them, w_them))
    }
}

/// AVX2 versions: 16 lanes of i16 per 256-bit register.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{HIDDEN, Lanes, QA};
    use std::arch::x86_64::{
        __m256i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_shuffle_epi32, _mm256_add_epi16,
        _mm256_add_epi32, _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu_si256,
        _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16, _mm256_mullo_epi16,
        _mm256_set1_epi16, _mm256_setzero_si256, _mm256_storeu_si256, _mm256_sub_epi16,
    };

    /// i16 lanes per register.
    const WIDTH: usize = 16;
    /// Registers per vector of hidden values.
    const CHUNKS: usize = HIDDEN / WIDTH;
    const _: () = assert!(HIDDEN.is_multiple_of(WIDTH));

    /// One register's worth of lanes.
    type Chunk = [i16; WIDTH];

    /// Chunk `j` of `a`.
    #[inline]
    fn chunk(a: &Lanes, j: usize) -> &Chunk {
        &a.as_chunks::<WIDTH>().0[j]
    }

    /// Loads the 16 lanes of `c`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn load(c: &Chunk) -> __m256i {
        // SAFETY: `c` is exactly 32 readable bytes; the unaligned load needs no alignment.
        unsafe { _mm256_loadu_si256(c.as_ptr().cast()) }
    }

    /// Stores `v` into the 16 lanes of `c`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn store(c: &mut Chunk, v: __m256i) {
        // SAFETY: `c` is exactly 32 writable bytes, borrowed mutably; the unaligned store needs
        // no alignment.
        unsafe { _mm256_storeu_si256(c.as_mut_ptr().cast(), v) }
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn add_sub(dst: &mut Lanes, src: &Lanes, add: &Lanes, sub: &Lanes) {
        for (j, out) in dst.as_chunks_mut::<WIDTH>().0.iter_mut().enumerate() {
            let v = _mm256_add_epi16(load(chunk(src, j)), load(chunk(add, j)));
            store(out, _mm256_sub_epi16(v, load(chunk(sub, j))));
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn add_sub_sub(
        dst: &mut Lanes,
        src: &Lanes,
        add: &Lanes,
        sub1: &Lanes,
        sub2: &Lanes,
    ) {
        for (j, out) in dst.as_chunks_mut::<WIDTH>().0.iter_mut().enumerate() {
            let v = _mm256_add_epi16(load(chunk(src, j)), load(chunk(add, j)));
            let v = _mm256_sub_epi16(v, load(chunk(sub1, j)));
            store(out, _mm256_sub_epi16(v, load(chunk(sub2, j))));
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn screlu_dot(us: &Lanes, them: &Lanes, w_us: &Lanes, w_them: &Lanes) -> i32 {
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for (acc, w) in [(us, w_us), (them, w_them)] {
            for j in 0..CHUNKS {
                let c = _mm256_min_epi16(_mm256_max_epi16(load(chunk(acc, j)), zero), top);
                // c · w fits 16 bits for |w| ≤ 127; then c · (c · w), summed in pairs into i32.
                let t = _mm256_mullo_epi16(c, load(chunk(w, j)));
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(t, c));
            }
        }
        let s = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SplitMix64, for test data.
    struct Mix(u64);

    impl Mix {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }

        /// Lanes spread over `-bound..=bound`, or the whole i16 range when `bound` is `None`.
        fn lanes(&mut self, bound: Option<i16>) -> Lanes {
            std::array::from_fn(|_| match bound {
                Some(b) => ((self.next() % (2 * b as u64 + 1)) as i32 - i32::from(b)) as i16,
                None => self.next() as i16,
            })
        }
    }

    #[test]
    fn avx2_equals_scalar() {
        let Some(fast) = Kernel::avx2() else {
            eprintln!("no AVX2 on this processor: nothing to compare");
            return;
        };
        let slow = Kernel::scalar();
        let mut rng = Mix(11);
        for round in 0..2_000 {
            // Realistic ranges most of the time, the whole i16 range now and then.
            let (acc_bound, w_bound) = match round % 4 {
                0 => (None, None),
                1 => (Some(600), Some(127)),
                _ => (Some(20_000), Some(127)),
            };
            let [a, b, c, d, e] = std::array::from_fn(|_| rng.lanes(acc_bound));
            let [w, x] = std::array::from_fn(|_| rng.lanes(w_bound));
            let (mut out_fast, mut out_slow) = ([0; HIDDEN], [0; HIDDEN]);
            fast.add_sub(&mut out_fast, &a, &b, &c);
            slow.add_sub(&mut out_slow, &a, &b, &c);
            assert_eq!(out_fast, out_slow);
            fast.add_sub_sub(&mut out_fast, &a, &b, &c, &d);
            slow.add_sub_sub(&mut out_slow, &a, &b, &c, &d);
            assert_eq!(out_fast, out_slow);
            assert_eq!(
                fast.screlu_dot(&a, &e, &w, &x),
                slow.screlu_dot(&a, &e, &w, &x),
                "round {round}"
            );
        }
    }

    #[test]
    fn screlu_dot_by_hand() {
        let k = Kernel::best();
        let mut us = [0i16; HIDDEN];
        let mut them = [0i16; HIDDEN];
        let mut w_us = [0i16; HIDDEN];
        let mut w_them = [0i16; HIDDEN];
        us[0] = 10; // 100 · 3
        w_us[0] = 3;
        us[5] = 1_000; // clamped to 255: 65025 · −2
        w_us[5] = -2;
        us[7] = -50; // clamped to 0
        w_us[7] = 100;
        them[127] = 255; // 65025 · 127
        w_them[127] = 127;
        assert_eq!(
            k.screlu_dot(&us, &them, &w_us, &w_them),
            300 - 2 * 65_025 + 127 * 65_025
        );
    }
}
