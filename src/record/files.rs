//! Finding and reading game files: the record files under a directory (each directory once, however
//! many links lead to it) and a bounded read of one file.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Extensions read when walking a directory.
pub const GAME_EXTENSIONS: [&str; 7] = ["pgn", "xqf", "txt", "htm", "html", "ubb", "cbl"];

/// The game files the given paths name: a file as given, a directory's files as
/// [`directory_files`] lists them, each with why it cannot be read, if so.
pub fn expand(inputs: &[PathBuf]) -> Vec<(PathBuf, Option<String>)> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            files.extend(directory_files(input));
        } else {
            files.push((input.clone(), None));
        }
    }
    files
}

/// The game files under `dir` found by [`walk`], sorted by path, with the directories that cannot
/// be read.
pub fn directory_files(dir: &Path) -> Vec<(PathBuf, Option<String>)> {
    let mut found = Vec::new();
    walk(dir, &mut found, &mut HashSet::new());
    found.sort();
    found
}

/// Collects the game files under `dir`, each directory once however many links lead to it (so a
/// link back up the tree is no loop), and the directories that cannot be read, with why.
pub fn walk(dir: &Path, out: &mut Vec<(PathBuf, Option<String>)>, seen: &mut HashSet<PathBuf>) {
    let entries = std::fs::canonicalize(dir).and_then(|canonical| {
        if seen.insert(canonical) {
            std::fs::read_dir(dir).map(Some)
        } else {
            Ok(None)
        }
    });
    let entries = match entries {
        Ok(Some(entries)) => entries,
        Ok(None) => return,
        Err(e) => {
            out.push((
                dir.to_path_buf(),
                Some(format!("cannot read directory: {e}")),
            ));
            return;
        }
    };
    for entry in entries {
        let path = match entry {
            Ok(entry) => entry.path(),
            Err(e) => {
                out.push((
                    dir.to_path_buf(),
                    Some(format!("cannot list directory: {e}")),
                ));
                continue;
            }
        };
        if path.is_dir() {
            walk(&path, out, seen);
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| GAME_EXTENSIONS.iter().any(|g| g.eq_ignore_ascii_case(e)))
        {
            out.push((path, None));
        }
    }
}

/// The largest game file read, in bytes (a larger collection can be piped in, and is then read a
/// game at a time).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Reads a game file: only a regular file of at most `MAX_FILE_BYTES` (a FIFO or a device would
/// block or never end).
pub fn read_game_file(path: &Path) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file (a FIFO, socket or device)".into());
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "{} bytes, more than the {} MiB a game file may have; pipe it in (`xq referee - < FILE`) to read it a game at a time",
            meta.len(),
            MAX_FILE_BYTES >> 20
        ));
    }
    std::fs::read(path).map_err(|e| e.to_string())
}
