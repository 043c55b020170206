//! `xq referee`: the front end that reads game files and directories, judges every game on all
//! cores, and prints text or JSON lines (and optionally an HTML report), a progress line on a
//! terminal and a summary. Exit status: 0 all fine, 1 some game or file had an error, 2 bad usage.

mod bench;

use super::inputs::{collect_sources, input_at, total_bytes};
use super::json::report_json_in;
use super::progress::Progress;
use super::render::Lang;
use super::text::{Tally, report_text_in};
use super::{GameReport, Judging, Rules, html};
use bench::bench;
use std::io::{IsTerminal, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `xq referee`.
#[derive(clap::Args, Debug, Clone)]
pub struct RefereeArgs {
    /// Game files (PGN in any notation, DhtmlXQ/HTML, XQF) or directories, searched recursively;
    /// `-` reads standard input.
    #[arg(value_name = "FILE|DIR|-", required = true)]
    pub inputs: Vec<String>,
    /// How many occurrences of a position make a repetition (2 reproduces the WXF cases'
    /// convention).
    #[arg(long, value_name = "N", default_value_t = Rules::DEFAULT.repetitions, value_parser = clap::value_parser!(u32).range(i64::from(*super::REPETITIONS_RANGE.start())..=i64::from(*super::REPETITIONS_RANGE.end())))]
    pub repetitions: u32,
    /// Take the first ruling as the game's result, as the WXF case suite does (with
    /// `--repetitions 2`). Without it, a forbidden repetition obliges the violator to change moves
    /// and ends the game only if the violator repeats again or the record ends in it.
    #[arg(long)]
    pub first_decision: bool,
    /// The move-count rule: moves by each side without a capture that draw the game (0: none).
    /// 60 by default, the Chinese Xiangqi Association's natural limit; the Asian rules use 50.
    /// Not applied with `--first-decision`.
    #[arg(long, value_name = "MOVES", default_value_t = super::DEFAULT_MOVE_LIMIT)]
    pub move_limit: u32,
    /// The language of the reports' words (the text, the HTML report, and the JSON's
    /// explanation, notes, warnings, descriptions and rule): en, zh-Hans or zh-Hant. The JSON's
    /// other fields are the same in every language.
    #[arg(long, value_name = "LANG", default_value_t = Lang::En)]
    pub lang: Lang,
    /// Write one JSON object per game per line instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also write an HTML report with a board of each ruled position and the cycle's moves.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Worker threads (default and most: every core).
    #[arg(long, value_name = "N")]
    pub threads: Option<NonZeroUsize>,
    /// Measure throughput instead of reporting: judge the inputs over and over for SECONDS (3 by
    /// default, `--bench=SECONDS` for another) on one thread and on all, and print games/s and
    /// plies/s.
    #[arg(
        long,
        value_name = "SECONDS",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "3"
    )]
    pub bench: Option<f64>,
}

/// Where reports are written, and how.
struct Output<W> {
    writer: W,
    json: bool,
    lang: Lang,
}

/// Writes reports, counts them, and keeps them when `kept` asks; false when standard output was
/// closed (a pager quit), so there is nothing more to say.
fn write_reports<W: Write>(
    reports: Vec<GameReport>,
    out: &mut Output<W>,
    tally: &mut Tally,
    kept: &mut Option<Vec<GameReport>>,
) -> bool {
    for r in reports {
        let text = if out.json {
            report_json_in(&r, out.lang).to_string()
        } else {
            report_text_in(&r, out.lang)
        };
        if writeln!(out.writer, "{text}").is_err() {
            return false;
        }
        tally.add(&r);
        if let Some(kept) = kept {
            kept.push(r);
        }
    }
    true
}

/// Runs `xq referee`.
pub fn run_cli(args: RefereeArgs) -> ExitCode {
    let config = Rules::chosen(args.repetitions, args.first_decision, args.move_limit);
    // Judging is bound by the processor: more threads than cores only cost memory.
    let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    let threads = args.threads.map_or(cores, |t| t.get().min(cores));
    let sources = collect_sources(&args.inputs);
    if sources.is_empty() {
        eprintln!(
            "xq referee: no game files found in {}",
            args.inputs.join(", ")
        );
        return ExitCode::from(2);
    }
    if let Some(path) = &args.html
        && let Some(input) = input_at(path, &sources)
    {
        eprintln!(
            "xq referee: --html {} would write over the game file {input}",
            path.display()
        );
        return ExitCode::from(2);
    }
    let total_bytes = total_bytes(&sources);
    let mut judging = Judging::new(sources, config).threads(threads);
    if let Some(seconds) = args.bench {
        return bench(&judging.read_all(), config, threads, seconds);
    }
    let start = Instant::now();
    let stdout = std::io::stdout();
    let mut out = Output {
        writer: std::io::BufWriter::new(stdout.lock()),
        json: args.json,
        lang: args.lang,
    };
    let mut tally = Tally::default();
    // Kept only for the HTML report, which lists every game.
    let mut kept = args.html.is_some().then(Vec::new);
    let progress = Progress::new(total_bytes);
    let completed = std::thread::scope(|s| {
        if std::io::stderr().is_terminal() {
            // Without a thread for it, there is just no progress line.
            let _ = std::thread::Builder::new().spawn_scoped(s, || progress.run());
        }
        let completed = loop {
            let Some(batch) = judging.next_batch(&progress) else {
                break true;
            };
            tally.skipped.extend(batch.skipped);
            let _screen = progress.pause();
            if !write_reports(batch.reports, &mut out, &mut tally, &mut kept) {
                break false;
            }
            // What is written shows before the progress line comes back.
            if out.writer.flush().is_err() {
                break false;
            }
        };
        progress.finish();
        completed
    });
    if !completed {
        return ExitCode::from(1);
    }
    let summary = tally.summary(start.elapsed(), args.lang);
    let _ = if args.json {
        writeln!(std::io::stderr(), "{summary}")
    } else {
        writeln!(out.writer, "{summary}")
    };
    let _ = out.writer.flush();
    let mut status = u8::from(tally.has_errors());
    if let Some(path) = &args.html {
        let title = format!("xq referee: {}", args.inputs.join(" "));
        if let Err(e) = std::fs::write(
            path,
            html::report(
                &title,
                kept.as_deref().unwrap_or_default(),
                &summary,
                args.lang,
            ),
        ) {
            eprintln!("xq referee: cannot write {}: {e}", path.display());
            status = 1;
        }
    }
    ExitCode::from(status)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Command {
        #[command(flatten)]
        args: RefereeArgs,
    }

    fn parse(words: &[&str]) -> RefereeArgs {
        let words = std::iter::once("referee").chain(words.iter().copied());
        Command::try_parse_from(words).expect("arguments read").args
    }

    #[test]
    fn bench_takes_a_time_only_after_an_equals_sign() {
        // A directory after `--bench` is an input, not a time it fails to read.
        let args = parse(&["--bench", "../shared/games/ccpd/"]);
        assert_eq!(
            (args.bench, &args.inputs[..]),
            (Some(3.0), &["../shared/games/ccpd/".to_string()][..])
        );
        let args = parse(&["--bench=5", "games.pgn"]);
        assert_eq!(
            (args.bench, &args.inputs[..]),
            (Some(5.0), &["games.pgn".to_string()][..])
        );
        assert_eq!(parse(&["games.pgn"]).bench, None);
    }

    #[test]
    fn the_language_is_named_by_its_tag() {
        assert_eq!(parse(&["games.pgn"]).lang, Lang::En);
        assert_eq!(parse(&["--lang", "zh-Hans", "g.pgn"]).lang, Lang::ZhHans);
        assert_eq!(parse(&["--lang=zh-Hant", "g.pgn"]).lang, Lang::ZhHant);
        let words = std::iter::once("referee").chain(["--lang", "fr", "g.pgn"]);
        let error = Command::try_parse_from(words).err().expect("fr refused");
        assert!(
            error.to_string().contains("en, zh-Hans, zh-Hant"),
            "{error}"
        );
    }
}
