//! `xq book` on the command line: its help, and a book never written over the game records it is
//! built from.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn xq(args: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xq"))
        .args(args)
        .output()
        .expect("xq runs")
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xq-book-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_help_names_each_value_as_its_text_does() {
    let out = xq(&[Path::new("book"), Path::new("build"), Path::new("--help")]);
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("--max-ply <PLIES>"), "{help}");
    assert!(help.contains("first PLIES plies"), "{help}");
    assert!(help.contains("--min-games <N>"), "{help}");
    assert!(help.contains("at least N times"), "{help}");
}

/// The output is refused when it is one of the game files, however it is named (the same path, a
/// hard link, a file found in a directory given), before anything is written.
#[cfg(unix)]
#[test]
fn the_book_never_writes_over_a_game_file() {
    let dir = fresh_dir("over");
    let game = dir.join("g.pgn");
    let text = "[Event \"A\"]\n[Result \"1-0\"]\n1. h2e2 h9g7 1-0\n";
    std::fs::write(&game, text).unwrap();
    let link = dir.join("h.pgn");
    std::fs::hard_link(&game, &link).unwrap();
    let (build, o) = (Path::new("book"), Path::new("-o"));
    let cases: [[&Path; 5]; 4] = [
        [build, Path::new("build"), &game, o, &game],
        [build, Path::new("build"), &game, o, &link],
        [build, Path::new("build"), &dir, o, &game],
        [
            build,
            Path::new("build"),
            &link,
            o,
            &dir.join(".").join("g.pgn"),
        ],
    ];
    for args in cases {
        let out = xq(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("would write over the game file"),
            "{stderr}"
        );
        assert_eq!(std::fs::read_to_string(&game).unwrap(), text);
    }
    // A new file beside them is fine.
    let book = dir.join("out.bin");
    let out = xq(&[build, Path::new("build"), &dir, o, &book]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(book.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
