//! `net-golden`: writes the golden evaluations of a net file (`nnue/golden.tsv`), which a test
//! compares with the embedded net to catch loader, layout and endianness regressions.

use crate::flags::{Flags, output_apart};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use xq::fen;
use xq::nnue::Network;

const USAGE: &str =
    "usage: xq-tools net-golden --net FILE.nnue --fens FILE [--fens FILE...] --out FILE.tsv
  evaluates the FEN of each non-comment line (its first tab-separated field that reads as a FEN)
  with the net, up to --count positions in all (default 24)";

/// Runs the tool.
pub fn main(args: &[String]) -> Result<(), String> {
    let (mut net_path, mut out, mut fen_files, mut count) = (None, None, Vec::new(), 24usize);
    let mut flags = Flags::new(args, USAGE);
    while let Some(flag) = flags.next_flag()? {
        match flag {
            "--net" => net_path = Some(flags.value(flag)?.to_string()),
            "--out" => out = Some(flags.value(flag)?.to_string()),
            "--fens" => fen_files.push(flags.value(flag)?.to_string()),
            "--count" => count = flags.parsed(flag)?,
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    let (Some(net_path), Some(out)) = (net_path, out) else {
        return Err(USAGE.to_string());
    };
    let inputs: Vec<PathBuf> = std::iter::once(&net_path)
        .chain(&fen_files)
        .map(PathBuf::from)
        .collect();
    output_apart(Path::new(&out), &inputs)?;
    let net = Network::load(&net_path).map_err(|e| format!("{net_path}: {e}"))?;
    let mut text = format!(
        "# Golden evaluations (centipawns, side to move) of the net with payload checksum {:#018x}.\n\
         # Written by `xq-tools net-golden`; tests/nnue.rs checks the embedded net against them.\n",
        net.checksum()
    );
    let mut seen = Vec::new();
    for file in &fen_files {
        let body = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        for line in body.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') || seen.len() >= count {
                continue;
            }
            let Some((fen_text, pos)) = line
                .split('\t')
                .find_map(|f| fen::parse(f.trim()).ok().map(|p| (f.trim(), p)))
            else {
                continue;
            };
            if seen.iter().any(|s: &String| s == fen_text) {
                continue;
            }
            let _ = writeln!(text, "{fen_text}\t{}", net.evaluate_position(&pos));
            seen.push(fen_text.to_string());
        }
    }
    std::fs::write(&out, text).map_err(|e| format!("{out}: {e}"))?;
    eprintln!("wrote {} evaluations to {out}", seen.len());
    Ok(())
}

#[cfg(test)]
mod tests {
    /// The output is refused when it is one of the files read, by any name, before anything is
    /// written.
    #[cfg(unix)]
    #[test]
    fn never_writes_over_its_input() {
        let dir = std::env::temp_dir().join(format!("xq-net-golden-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let fens = dir.join("fens.txt");
        let text = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\n";
        std::fs::write(&fens, text).unwrap();
        let link = dir.join("link.tsv");
        std::fs::hard_link(&fens, &link).unwrap();
        let net = concat!(env!("CARGO_MANIFEST_DIR"), "/../nnue/default.nnue");
        for out in [&fens, &link] {
            let args: Vec<String> = ["--net", net, "--fens"]
                .iter()
                .map(|s| s.to_string())
                .chain([fens.display().to_string(), "--out".into()])
                .chain([out.display().to_string()])
                .collect();
            let e = super::main(&args).unwrap_err();
            assert!(e.contains("would write over"), "{e}");
            assert_eq!(std::fs::read_to_string(&fens).unwrap(), text);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
