//! The `xq` command line: with no subcommand the engine (UCCI or UCI on standard input), otherwise
//! `referee`, `match`, `book`, `serve`, `bench` and `perft`.

use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::time::Instant;
use xq::fen;
use xq::perft;

#[derive(Parser)]
#[command(
    name = "xq",
    version,
    about = "Xiangqi engine and WXF repetition referee",
    long_about = "Xiangqi engine and WXF repetition referee.\n\n\
        Without a subcommand, xq is an engine for Xiangqi GUIs and match runners: it reads \
        commands on standard input and answers on standard output. The first line picks the \
        protocol: `ucci` for UCCI 3.0, `uci` for UCI (Pikafish dialect), or a bare `fen ...` or \
        `startpos ...` line for the Cyclone form of UCI that UCI2WB sends."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Search the bench positions to a fixed depth on one thread; prints the node signature.
    Bench {
        /// Depth in plies.
        depth: Option<u32>,
        /// Use the "perpetual check loses, all else draws" rule instead of the full WXF rules.
        #[arg(long)]
        checks_only: bool,
        /// The evaluation to search with (default: the engine's, the net).
        #[arg(long, value_parser = ["handcrafted", "nnue"])]
        eval: Option<String>,
        /// The net file for `--eval nnue` (default: the embedded net).
        #[arg(long, value_name = "FILE")]
        evalfile: Option<String>,
    },
    /// Judge game records: replay each game, rule mate, stalemate and WXF repetitions, explain.
    Referee(xq::referee::cli::RefereeArgs),
    /// Play engine-vs-engine games adjudicated by the WXF referee.
    Match(Box<xq::arena::cli::MatchArgs>),
    /// Build an opening book from game records, or show a position's book moves.
    #[command(subcommand)]
    Book(xq::book::cli::BookCommand),
    /// Serve the referee and the engine over HTTP: a page at / and a JSON API (see docs/sites.md).
    #[cfg(feature = "serve")]
    Serve {
        /// The address to listen on (loopback unless asked otherwise, e.g. 0.0.0.0).
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// The port (0: any free port; the one taken is printed).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// A host name the server is reached by, besides IP addresses and localhost (repeat for
        /// more); requests naming any other host are refused.
        #[arg(long = "allowed-host", value_name = "NAME")]
        allowed_hosts: Vec<String>,
        /// An origin (https://site.example) whose pages may call the API (repeat for more);
        /// requests from pages elsewhere are refused.
        #[arg(long, value_name = "ORIGIN")]
        cors: Vec<String>,
    },
    /// Count the leaf nodes of the legal move tree to DEPTH plies.
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Start from this FEN instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Print one `move: count` line per root move.
        #[arg(long)]
        divide: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => {
            // A person at a terminal gets a hint; a GUI (a pipe) sees nothing it did not ask for,
            // and standard error never mixes with the protocol's output.
            if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                eprintln!(
                    "xq {}: an engine waiting for `ucci` or `uci` on standard input (`xq --help` for the rest)",
                    env!("CARGO_PKG_VERSION")
                );
            }
            xq::protocol::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout())
        }
        Some(Command::Referee(args)) => xq::referee::cli::run_cli(args),
        Some(Command::Match(args)) => xq::arena::cli::run_cli(*args),
        Some(Command::Book(command)) => xq::book::cli::run_cli(command),
        #[cfg(feature = "serve")]
        Some(Command::Serve {
            host,
            port,
            allowed_hosts,
            cors,
        }) => {
            let policy = xq::serve::Policy {
                allowed_hosts: allowed_hosts
                    .iter()
                    .map(|h| h.to_ascii_lowercase())
                    .collect(),
                cors,
            };
            let ready = |address| {
                println!("xq serve: listening on http://{address}/");
            };
            match xq::serve::run(&host, port, policy, ready) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("xq serve: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Some(Command::Bench {
            depth,
            checks_only,
            eval,
            evalfile,
        }) => {
            let depth = depth.unwrap_or(xq::bench::DEFAULT_DEPTH);
            let mut options: Vec<(&str, &str)> = Vec::new();
            if checks_only {
                options.push(("RepetitionRule", "check-only"));
            }
            if let Some(path) = &evalfile {
                if let Err(e) = xq::nnue::Network::load(path) {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
                options.push(("EvalFile", path));
            }
            if let Some(eval) = &eval {
                options.push(("Evaluation", eval));
            }
            let result = xq::bench::run_with(depth, &options);
            for (i, n) in result.per_position.iter().enumerate() {
                println!("Position {}: {n} nodes", i + 1);
            }
            let nps = result.nodes as u128 * 1000 / result.millis.max(1);
            println!("Nodes searched: {}", result.nodes);
            println!("{} nodes {nps} nps", result.nodes);
            ExitCode::SUCCESS
        }
        Some(Command::Perft {
            depth,
            fen: fen_text,
            divide,
        }) => {
            let text = fen_text.as_deref().unwrap_or(fen::START_FEN);
            let pos = match fen::parse_lenient(text) {
                Ok((pos, warnings)) => {
                    for w in warnings {
                        eprintln!("warning: {w}");
                    }
                    pos
                }
                Err(e) => {
                    eprintln!("error: bad FEN {:?}: {e}", xq::clip::quote(text));
                    return ExitCode::from(2);
                }
            };
            let start = Instant::now();
            let nodes = if divide {
                let mut total = 0;
                for (m, n) in perft::divide(&pos, depth) {
                    println!("{m}: {n}");
                    total += n;
                }
                total
            } else {
                perft::perft(&pos, depth)
            };
            let elapsed = start.elapsed();
            let ms = elapsed.as_millis();
            let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
            println!("nodes {nodes} time {ms} nps {nps}");
            ExitCode::SUCCESS
        }
    }
}
