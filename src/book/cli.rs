//! `xq book`: `build` makes a book from game records, `probe` shows a position's book moves with
//! their counts and scores.

use super::build::{BuildSettings, Builder};
use super::{Book, format};
use crate::clip::printable;
use crate::fen;
use crate::game::Game;
use crate::moves::Move;
use crate::record::files::{expand, input_written_by, read_game_file};
use crate::referee::Adjudicator;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The `xq book` subcommands.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum BookCommand {
    /// Build a book from game records (files or directories of PGN, DhtmlXQ, XQF).
    Build {
        /// Game files or directories.
        #[arg(required = true)]
        games: Vec<PathBuf>,
        /// The book file to write.
        #[arg(short, long)]
        output: PathBuf,
        /// Moves from the first PLIES plies of each game.
        #[arg(long, value_name = "PLIES", default_value_t = BuildSettings::default().max_ply)]
        max_ply: usize,
        /// Keep a move only if it was played at least N times in its position.
        #[arg(long, value_name = "N", default_value_t = BuildSettings::default().min_games)]
        min_games: u32,
    },
    /// Show the book moves of a position.
    Probe {
        /// The book file (default: the book built into xq).
        #[arg(long)]
        book: Option<String>,
        /// The position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from it, in ICCS (h2e2 h9g7 ...).
        #[arg(long, num_args = 0.., value_delimiter = ' ')]
        moves: Vec<String>,
    },
}

/// Runs an `xq book` subcommand.
pub fn run_cli(command: BookCommand) -> ExitCode {
    match command {
        BookCommand::Build {
            games,
            output,
            max_ply,
            min_games,
        } => build(&games, &output, &BuildSettings { max_ply, min_games }),
        BookCommand::Probe { book, fen, moves } => probe(book.as_deref(), fen.as_deref(), &moves),
    }
}

fn build(inputs: &[PathBuf], output: &Path, settings: &BuildSettings) -> ExitCode {
    let files = expand(inputs);
    if let Some(input) = input_written_by(output, files.iter().map(|(path, _)| path.as_path())) {
        eprintln!(
            "error: -o {} would write over the game file {}",
            output.display(),
            input.display()
        );
        return ExitCode::from(2);
    }
    let mut builder = Builder::default();
    let mut unreadable = 0;
    for (path, error) in files {
        let name = path.display().to_string();
        let bytes = match error.map_or_else(|| read_game_file(&path), Err) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("error: {}: {}", printable(&name), printable(&e.to_string()));
                unreadable += 1;
                continue;
            }
        };
        builder.add_file(&name, &bytes, settings);
    }
    for e in &builder.skipped {
        eprintln!("warning: not used: {}", printable(&e.to_string()));
    }
    let (games, without_result, other_starts, distinct) = (
        builder.games,
        builder.without_result,
        builder.other_starts,
        builder.distinct(),
    );
    let skipped = builder.skipped.len();
    let book = builder.finish(settings);
    let bytes = format::encode(&book);
    if let Err(e) = std::fs::write(output, &bytes) {
        eprintln!("error: cannot write {}: {e}", output.display());
        return ExitCode::FAILURE;
    }
    let positions: HashSet<u64> = book.entries().iter().map(|e| e.key).collect();
    println!(
        "{games} games read ({without_result} without a result, {other_starts} from another start position), {skipped} not used, {unreadable} files unreadable"
    );
    println!(
        "{distinct} moves in positions of the first {} plies; {} played at least {} times kept, in {} positions",
        settings.max_ply,
        book.entries().len(),
        settings.min_games,
        positions.len()
    );
    println!("wrote {} ({} bytes)", output.display(), bytes.len());
    if unreadable > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn probe(book: Option<&str>, fen_text: Option<&str>, moves: &[String]) -> ExitCode {
    let loaded;
    let book = match book {
        Some(path) => match Book::load(path) {
            Ok(b) => {
                loaded = b;
                &loaded
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
        None => Book::embedded(),
    };
    let start = match fen_text {
        Some(text) => match fen::parse(text) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: bad FEN {:?}: {e}", crate::clip::quote(text));
                return ExitCode::from(2);
            }
        },
        None => crate::position::Position::startpos(),
    };
    let mut game = Game::new(start);
    for (i, text) in moves.iter().filter(|t| !t.is_empty()).enumerate() {
        let played = text
            .parse::<Move>()
            .map_err(|e| e.to_string())
            .and_then(|m| game.push(m).map_err(|e| e.to_string()));
        if let Err(e) = played {
            eprintln!("error: move {} ({text}): {e}", i + 1);
            return ExitCode::from(2);
        }
    }
    let pos = game.position();
    println!("position {pos}");
    let found = book.probe(pos);
    if found.is_empty() {
        println!("no book moves");
        return ExitCode::SUCCESS;
    }
    let chosen: Vec<Move> = book
        .candidates(pos, &[], &losing_moves(&game), super::DEFAULT_VARIETY)
        .iter()
        .map(|(m, _)| m.mv)
        .collect();
    let total: u32 = found.iter().map(|m| m.games).sum();
    println!("move   games  share   won  drawn  lost  score  chosen");
    for m in &found {
        println!(
            "{:<5} {:6}  {:4.1} %  {:4}  {:5}  {:4}  {:4.1} %  {}",
            m.mv.to_string(),
            m.games,
            100.0 * m.games as f64 / total as f64,
            m.wins,
            m.draws,
            m.losses,
            100.0 * m.score(),
            if chosen.contains(&m.mv) { "yes" } else { "" }
        );
    }
    ExitCode::SUCCESS
}

/// The moves of the side to move that would complete a repetition it loses, as the referee rules
/// them with its default rules ([`crate::referee::Rules::DEFAULT`]).
pub(super) fn losing_moves(game: &Game) -> Vec<Move> {
    let mut referee = Adjudicator::new(game.start().clone(), crate::referee::Rules::DEFAULT);
    for &m in game.moves() {
        if referee.play(m).is_err() {
            // A game's moves are legal; the referee plays the same moves.
            return Vec::new();
        }
    }
    referee.losing_moves()
}
