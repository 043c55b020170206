//! Finding and reading game files: the record files under a directory (each directory once, however
//! many links lead to it), a file's identity however it is named, and a bounded read of one file.

use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Extensions read when walking a directory.
pub const GAME_EXTENSIONS: [&str; 7] = ["pgn", "xqf", "txt", "htm", "html", "ubb", "cbl"];

/// The mark in the head of the HTML report `xq referee --html` writes, by which a directory walk
/// knows the report is no game file.
pub const REPORT_MARK: &str = r#"<meta name="generator" content="xq referee">"#;

/// How much of the head of an HTML file is searched for [`REPORT_MARK`].
const REPORT_HEAD_BYTES: u64 = 1024;

/// A file's identity: the same for every name of the file (a hard link, a symbolic link, `./`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FileId {
    #[cfg(unix)]
    device: u64,
    #[cfg(unix)]
    inode: u64,
    #[cfg(not(unix))]
    canonical: PathBuf,
}

impl FileId {
    /// The identity of the file `path` names (through symbolic links).
    pub fn of(path: &Path) -> std::io::Result<FileId> {
        #[cfg(unix)]
        {
            Ok(FileId::from_metadata(&std::fs::metadata(path)?))
        }
        #[cfg(not(unix))]
        {
            Ok(FileId {
                canonical: std::fs::canonicalize(path)?,
            })
        }
    }

    /// The identity of a directory entry that is no symbolic link, looked up beside the entry in
    /// its open directory (no walk down its whole path).
    fn of_entry(entry: &std::fs::DirEntry) -> std::io::Result<FileId> {
        #[cfg(unix)]
        {
            Ok(FileId::from_metadata(&entry.metadata()?))
        }
        #[cfg(not(unix))]
        {
            FileId::of(&entry.path())
        }
    }

    #[cfg(unix)]
    fn from_metadata(meta: &std::fs::Metadata) -> FileId {
        use std::os::unix::fs::MetadataExt;
        FileId {
            device: meta.dev(),
            inode: meta.ino(),
        }
    }
}

/// The first of `inputs` that is the very file `output` names, if any: writing `output` would
/// destroy that input. An output that does not exist yet is none of them.
pub fn input_written_by<'a>(
    output: &Path,
    inputs: impl IntoIterator<Item = &'a Path>,
) -> Option<&'a Path> {
    let target = FileId::of(output).ok()?;
    inputs
        .into_iter()
        .find(|input| FileId::of(input).is_ok_and(|id| id == target))
}

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

/// The game files under `dir`, sorted by path, with the directories that cannot be read and why.
/// Each directory is read once however many links lead to it (so a link back up the tree is no
/// loop): directories are told apart by their identity, one look-up each, so the walk takes time in
/// proportion to the entries it meets, however deep the tree. Files with a game extension are
/// taken, except the referee's own HTML reports.
pub fn directory_files(dir: &Path) -> Vec<(PathBuf, Option<String>)> {
    let mut found = Vec::new();
    let mut seen: HashSet<FileId> = HashSet::new();
    // Each directory to read with its identity (looked up when it was met as an entry).
    let mut pending = vec![(dir.to_path_buf(), FileId::of(dir))];
    while let Some((dir, id)) = pending.pop() {
        let entries = id.and_then(|id| {
            if seen.insert(id) {
                std::fs::read_dir(&dir).map(Some)
            } else {
                Ok(None)
            }
        });
        let entries = match entries {
            Ok(Some(entries)) => entries,
            Ok(None) => continue,
            Err(e) => {
                found.push((dir, Some(format!("cannot read directory: {e}"))));
                continue;
            }
        };
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    found.push((dir.clone(), Some(format!("cannot list directory: {e}"))));
                    continue;
                }
            };
            let path = entry.path();
            // The entry's own type needs no look-up; a link is followed to what it names.
            let own = entry.file_type().ok().filter(|t| !t.is_symlink());
            let kind = own.or_else(|| std::fs::metadata(&path).ok().map(|m| m.file_type()));
            if kind.is_some_and(|t| t.is_dir()) {
                let id = match own {
                    Some(_) => FileId::of_entry(&entry),
                    None => FileId::of(&path),
                };
                pending.push((path, id));
            } else if has_game_extension(&path)
                && !(kind.is_some_and(|t| t.is_file()) && is_referee_report(&path))
            {
                found.push((path, None));
            }
        }
    }
    found.sort();
    found
}

fn has_game_extension(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| GAME_EXTENSIONS.iter().any(|g| g.eq_ignore_ascii_case(e)))
}

/// Whether the regular file at `path` is an HTML report of `xq referee` (its head carries
/// [`REPORT_MARK`]).
fn is_referee_report(path: &Path) -> bool {
    let html = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"));
    if !html {
        return false;
    }
    let mut head = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(REPORT_HEAD_BYTES).read_to_end(&mut head))
        .is_ok_and(|_| {
            head.windows(REPORT_MARK.len())
                .any(|w| w == REPORT_MARK.as_bytes())
        })
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
