//! Tournaments of more than two engines: the pairings of a round robin (everyone against
//! everyone) or a gauntlet (the first engine against each of the others), and the table of
//! points they make. Each pairing is a match of its own, played one after the other.

use super::MatchSummary;
use super::stats::{Pentanomial, Tally, elo_from_score};
use std::fmt;

/// Who meets whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// A tournament name that names no format: the name given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownFormat(pub String);

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad tournament {:?}: expected roundrobin or gauntlet",
            self.0
        )
    }
}

impl std::error::Error for UnknownFormat {}

impl std::str::FromStr for Format {
    type Err = UnknownFormat;
    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        match s.to_ascii_lowercase().as_str() {
            "roundrobin" | "round-robin" | "rr" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            _ => Err(UnknownFormat(s.to_string())),
        }
    }
}

/// The pairings of `engines` engines, by index, in the order they are played.
pub fn pairings(format: Format, engines: usize) -> Vec<(usize, usize)> {
    match format {
        Format::Gauntlet => (1..engines).map(|j| (0, j)).collect(),
        Format::RoundRobin => (0..engines)
            .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
            .collect(),
    }
}

/// One finished pairing, from its first engine's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct PairingResult {
    /// The engines, by index.
    pub engines: (usize, usize),
    /// Games.
    pub tally: Tally,
    /// Pairs of games.
    pub pairs: Pentanomial,
}

/// One engine's line in the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The engine's index.
    pub engine: usize,
    /// Games played.
    pub games: u32,
    /// Points, in half points.
    pub half_points: u32,
}

impl Row {
    /// The engine's mean score against its opponents.
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            0.5
        } else {
            self.half_points as f64 / (2.0 * self.games as f64)
        }
    }

    /// The Elo difference its score means against the average of the opponents it met.
    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }
}

/// The results of a tournament so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// Finished pairings, in the order played.
    pub results: Vec<PairingResult>,
}

impl Table {
    /// Adds the result of the match between engines `a` (first) and `b`.
    pub fn add(&mut self, a: usize, b: usize, summary: &MatchSummary) {
        self.results.push(PairingResult {
            engines: (a, b),
            tally: summary.tally,
            pairs: summary.pairs,
        });
    }

    /// One row per engine of `engines`, best score first (ties by index).
    pub fn rows(&self, engines: usize) -> Vec<Row> {
        let mut rows: Vec<Row> = (0..engines)
            .map(|engine| Row {
                engine,
                games: 0,
                half_points: 0,
            })
            .collect();
        for r in &self.results {
            let t = r.tally;
            let (a, b) = r.engines;
            rows[a].games += t.games();
            rows[b].games += t.games();
            rows[a].half_points += 2 * t.wins + t.draws;
            rows[b].half_points += 2 * t.losses + t.draws;
        }
        rows.sort_by(|x, y| {
            y.half_points
                .cmp(&x.half_points)
                .then(x.engine.cmp(&y.engine))
        });
        rows
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::RoundRobin => "round robin",
            Format::Gauntlet => "gauntlet",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_of_each_format() {
        assert_eq!(
            pairings(Format::RoundRobin, 4),
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        assert_eq!(pairings(Format::Gauntlet, 4), [(0, 1), (0, 2), (0, 3)]);
        assert_eq!(pairings(Format::RoundRobin, 2), [(0, 1)]);
        assert_eq!("RR".parse::<Format>(), Ok(Format::RoundRobin));
        assert_eq!(
            "swiss".parse::<Format>().unwrap_err().to_string(),
            "bad tournament \"swiss\": expected roundrobin or gauntlet"
        );
    }

    #[test]
    fn the_table_adds_points_from_both_sides() {
        let summary = |wins, draws, losses| MatchSummary {
            tally: Tally {
                wins,
                draws,
                losses,
            },
            pairs: Pentanomial::default(),
            sprt: None,
            stopped: None,
        };
        let mut table = Table::default();
        table.add(0, 1, &summary(3, 1, 0));
        table.add(0, 2, &summary(0, 2, 2));
        table.add(1, 2, &summary(1, 0, 3));
        let rows = table.rows(3);
        let points: Vec<(usize, u32, u32)> = rows
            .iter()
            .map(|r| (r.engine, r.games, r.half_points))
            .collect();
        // Engine 0: 3 wins + 3 draws = 9 half points; engine 2: 2 draws + 2 wins + 3 wins = 12;
        // engine 1: 1 draw + 1 win = 3.
        assert_eq!(points, [(2, 8, 12), (0, 8, 9), (1, 8, 3)]);
        assert!((rows[0].score() - 0.75).abs() < 1e-12);
        assert!(rows[0].elo() > 0.0 && rows[2].elo() < 0.0);
    }
}
