//! Playing below full strength (UCI `Skill Level`, `UCI_LimitStrength` + `UCI_Elo`) in the ways a
//! weaker player is weaker: a shallower search with fewer nodes, and now and then a move a little
//! worse than the best of a few candidate lines — never a move chosen at random from all moves.
//!
//! Level 20 is the full engine. Below it the search is capped at depth `1 + level / 2` and at
//! `1000 · 1.5^level` nodes (1,000 at level 0, about 58,000 at 10, 2.2 million at 19): in a
//! typical middle-game position the depth is the cap that binds, so each two levels search one
//! ply deeper, and the node cap only stops a search that grows unusually large. It runs
//! [`Skill::lines`] lines (four, two from level [`FEW_LINES_FROM`] on), and the move is drawn
//! from the lines scoring within a margin of the best, each weighted by how far it stands above
//! that floor. The margin is `6 · (20 − level)` centipawns, and below level 8 grows by
//! `10 · (8 − level)²` more (760 at level 0), so that the lowest levels also differ in how
//! often they give material away. A mate found is always played, and a line that is mated is
//! never chosen while another is not.

use super::SearchInfo;
use super::time::Limits;
use rand::Rng;

/// The strongest level: the engine unchanged.
pub const MAX_LEVEL: u32 = 20;
/// The levels below this one give material away more often (a wider margin).
const LOW_LEVELS: u32 = 8;
/// Lines searched below full strength to choose from.
const LINES: usize = 4;
/// From this level on only two lines are searched: the top levels' margins (24 cp and less) make
/// the third and fourth line matter little, and at a fast clock their cost kept those levels from
/// reaching their depth caps, so that neighbouring top levels played alike.
pub const FEW_LINES_FROM: u32 = 16;

/// The measured strength of the even levels (the level table of docs/players.md): `(level, Elo)`
/// on a scale where Debian's Fairy-Stockfish 11.1 at full strength is 2500, at 2 s + 0.02 s a
/// game. Each level played the next even one 60 games (levels 16 and 18 played the next level
/// 200 games), and level 20 played Fairy-Stockfish 60 games (`tools/ladder.py`, seed 72,
/// generation-10 net); every step's 95 % interval excludes zero.
pub const ELO_OF_LEVEL: &[(u32, i32)] = &[
    (0, 549),
    (2, 809),
    (4, 1160),
    (6, 1672),
    (8, 1973),
    (10, 2156),
    (12, 2347),
    (14, 2508),
    (16, 2622),
    (18, 2770),
    (20, 3085),
];

/// A strength level, 0 to [`MAX_LEVEL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    level: u32,
}

impl Default for Skill {
    fn default() -> Skill {
        Skill { level: MAX_LEVEL }
    }
}

impl Skill {
    /// The skill of `level` (levels above the top are the top).
    pub fn new(level: u32) -> Skill {
        Skill {
            level: level.min(MAX_LEVEL),
        }
    }

    /// The level whose measured strength is the highest not above `elo` (the lowest level below
    /// the table).
    pub fn for_elo(elo: i32) -> Skill {
        let level = ELO_OF_LEVEL
            .iter()
            .rev()
            .find(|&&(_, e)| e <= elo)
            .map_or(0, |&(level, _)| level);
        Skill::new(level)
    }

    /// The level.
    pub fn level(self) -> u32 {
        self.level
    }

    /// Whether this is the full engine.
    pub fn is_full(self) -> bool {
        self.level >= MAX_LEVEL
    }

    /// The deepest search at this level.
    pub fn max_depth(self) -> u32 {
        1 + self.level / 2
    }

    /// How many lines to search at this level to choose among (1 at full strength).
    pub fn lines(self) -> usize {
        match self.level {
            MAX_LEVEL.. => 1,
            FEW_LINES_FROM.. => 2,
            _ => LINES,
        }
    }

    /// The most nodes searched at this level.
    pub fn max_nodes(self) -> u64 {
        (1000.0 * 1.5f64.powi(self.level as i32)) as u64
    }

    /// How far below the best line, in centipawns, a line may score and still be played.
    pub fn margin(self) -> i32 {
        let below_eight = LOW_LEVELS.saturating_sub(self.level) as i32;
        6 * (MAX_LEVEL - self.level) as i32 + 10 * below_eight * below_eight
    }

    /// `limits` capped for this level (unchanged at full strength).
    pub fn limit(self, mut limits: Limits) -> Limits {
        if self.is_full() {
            return limits;
        }
        limits.depth = Some(
            limits
                .depth
                .map_or(self.max_depth(), |d| d.min(self.max_depth())),
        );
        limits.nodes = Some(
            limits
                .nodes
                .map_or(self.max_nodes(), |n| n.min(self.max_nodes())),
        );
        limits
    }

    /// Which of `lines` (the last completed depth's lines, best first) to play.
    pub fn choose(self, lines: &[SearchInfo], rng: &mut impl Rng) -> Option<usize> {
        let best = lines.first()?;
        if self.is_full() || best.score.is_mate() && best.score.0 > 0 {
            return Some(0);
        }
        let floor = best.score.0 - self.margin();
        let weights: Vec<i64> = lines
            .iter()
            .map(|l| {
                let mated = l.score.is_mate() && l.score.0 < 0;
                if l.pv.is_empty() || (mated && !best.score.is_mate()) || l.score.0 < floor {
                    0
                } else {
                    i64::from(l.score.0 - floor) + 1
                }
            })
            .collect();
        let total: i64 = weights.iter().sum();
        if total <= 0 {
            return Some(0);
        }
        let mut pick = rng.random_range(0..total);
        for (i, w) in weights.iter().enumerate() {
            if pick < *w {
                return Some(i);
            }
            pick -= w;
        }
        Some(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{MATE, Score};
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    use std::time::Duration;

    fn line(multipv: u32, score: i32, mv: &str) -> SearchInfo {
        SearchInfo {
            depth: 3,
            seldepth: 3,
            multipv,
            score: Score(score),
            nodes: 100,
            time: Duration::ZERO,
            hashfull: 0,
            pv: vec![mv.parse().unwrap()],
        }
    }

    #[test]
    fn caps_grow_with_the_level() {
        assert_eq!(Skill::new(0).max_depth(), 1);
        assert_eq!(Skill::new(10).max_depth(), 6);
        assert_eq!(Skill::new(19).max_depth(), 10);
        assert_eq!(Skill::new(0).max_nodes(), 1000);
        assert!(Skill::new(19).max_nodes() > Skill::new(1).max_nodes());
        assert_eq!(Skill::new(20).margin(), 0);
        assert_eq!(Skill::new(8).margin(), 72);
        assert_eq!(Skill::new(0).margin(), 760);
        assert!((0..MAX_LEVEL).all(|l| Skill::new(l).margin() > Skill::new(l + 1).margin()));
        assert_eq!(Skill::new(99), Skill::default());
        assert_eq!(Skill::new(0).lines(), LINES);
        assert_eq!(Skill::new(15).lines(), LINES);
        assert_eq!(Skill::new(16).lines(), 2);
        assert_eq!(Skill::new(19).lines(), 2);
        assert_eq!(Skill::default().lines(), 1);
        let capped = Skill::new(4).limit(Limits::to_depth(30));
        assert_eq!((capped.depth, capped.nodes), (Some(3), Some(5062)));
        let full = Skill::default().limit(Limits::to_depth(30));
        assert_eq!((full.depth, full.nodes), (Some(30), None));
    }

    #[test]
    fn weaker_levels_sometimes_play_a_worse_line_and_only_the_lowest_a_far_worse_one() {
        let lines = [
            line(1, 100, "h2e2"),
            line(2, 60, "b2e2"),
            line(3, -500, "c3c4"),
            line(4, 90, "h0g2"),
        ];
        let mut rng = SmallRng::seed_from_u64(5);
        let mut counts = [0; 4];
        for _ in 0..1000 {
            counts[Skill::new(8).choose(&lines, &mut rng).unwrap()] += 1;
        }
        // Level 8: margin 72, the floor is 28; weights 73, 33, 0, 63.
        assert_eq!(counts[2], 0, "{counts:?}");
        assert!(
            counts.iter().enumerate().all(|(i, &c)| i == 2 || c > 100),
            "{counts:?}"
        );
        // Level 0: margin 760, the floor is -660; weights 761, 721, 161, 751: the line that
        // gives 600 away is played now and then, the others far more often.
        let mut counts = [0; 4];
        for _ in 0..1000 {
            counts[Skill::new(0).choose(&lines, &mut rng).unwrap()] += 1;
        }
        assert!(
            counts[2] > 20 && counts.iter().all(|&c| c <= 400),
            "{counts:?}"
        );
        assert!(counts[2] * 2 < counts[0], "{counts:?}");
        // Level 19: margin 6, floor 94: only the best line.
        for _ in 0..200 {
            assert_eq!(Skill::new(19).choose(&lines, &mut rng), Some(0));
        }
        assert_eq!(Skill::default().choose(&lines, &mut rng), Some(0));
    }

    #[test]
    fn mates_are_played_and_mated_lines_avoided() {
        let mut rng = SmallRng::seed_from_u64(6);
        let mate = [line(1, MATE - 3, "h2e2"), line(2, 50, "b2e2")];
        for _ in 0..100 {
            assert_eq!(Skill::new(0).choose(&mate, &mut rng), Some(0));
        }
        let mated = [line(1, 20, "h2e2"), line(2, -MATE + 4, "b2e2")];
        for _ in 0..100 {
            assert_eq!(Skill::new(0).choose(&mated, &mut rng), Some(0));
        }
        assert_eq!(Skill::new(3).choose(&[], &mut rng), None);
    }

    #[test]
    fn elo_picks_the_level_below() {
        assert_eq!(Skill::for_elo(i32::MIN).level(), 0);
        let (top_level, top_elo) = *ELO_OF_LEVEL.last().unwrap();
        assert_eq!(Skill::for_elo(top_elo).level(), top_level);
        let (level, elo) = ELO_OF_LEVEL[5];
        assert_eq!(Skill::for_elo(elo).level(), level);
        assert_eq!(Skill::for_elo(elo + 1).level(), level);
        assert_eq!(Skill::for_elo(elo - 1).level(), ELO_OF_LEVEL[4].0);
        // The table rises with the level, so a higher Elo never gives a lower level.
        assert!(
            ELO_OF_LEVEL
                .windows(2)
                .all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1)
        );
    }
}
