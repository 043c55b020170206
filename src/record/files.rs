//! Finding and reading game files: the record files under a directory (each directory once, however
//! many links lead to it), a file's identity however it is named, and a bounded read of one file;
//! and why game input could not be read ([`ReadError`]).

use std::collections::HashSet;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Extensions read when walking a directory.
pub const GAME_EXTENSIONS: [&str; 7] = ["pgn", "xqf", "txt", "htm", "html", "ubb", "cbl"];

/// The mark in the head of the HTML report `xq referee --html` writes, by which a directory walk
/// knows the report is no game file.
pub const REPORT_MARK: &str = r#"<meta name="generator" content="xq referee">"#;

/// How much of the head of an HTML file is searched for [`REPORT_MARK`].
const REPORT_HEAD_BYTES: u64 = 1024;

/// Why game input could not be read: a file, a directory, or a stream of records.
#[derive(Clone, Debug)]
pub enum ReadError {
    /// The file could not be examined or read.
    Io(Arc<std::io::Error>),
    /// Not a regular file.
    NotRegular,
    /// A file of more than [`MAX_FILE_BYTES`]: its size in bytes.
    TooLarge(u64),
    /// A directory that could not be read.
    Directory(Arc<std::io::Error>),
    /// A directory whose listing broke off.
    Listing(Arc<std::io::Error>),
    /// A stream that could not be read on.
    Stream {
        /// The line, 1-based, that was being read (`None`: a binary or UTF-16 stream, read whole).
        line: Option<u32>,
        /// Why.
        error: Arc<std::io::Error>,
    },
    /// A binary or UTF-16 stream of more than [`MAX_FILE_BYTES`].
    StreamTooLarge,
    /// A stream that went on for more than a piece's limit without the start of a new game.
    NoGameStart {
        /// The line, 1-based, where the limit was passed.
        line: u32,
        /// The limit, in bytes.
        limit: usize,
    },
}

impl ReadError {
    /// An error of reading a file.
    fn io(error: std::io::Error) -> ReadError {
        ReadError::Io(Arc::new(error))
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::NotRegular => f.write_str("not a regular file (a FIFO, socket or device)"),
            ReadError::TooLarge(bytes) => write!(
                f,
                "{bytes} bytes, more than the {} MiB a game file may have; pipe it in (`xq referee - < FILE`) to read it a game at a time",
                MAX_FILE_BYTES >> 20
            ),
            ReadError::Directory(e) => write!(f, "cannot read directory: {e}"),
            ReadError::Listing(e) => write!(f, "cannot list directory: {e}"),
            ReadError::Stream { line: None, error } => write!(f, "cannot read: {error}"),
            ReadError::Stream {
                line: Some(line),
                error,
            } => write!(f, "line {line}: cannot read: {error}"),
            ReadError::StreamTooLarge => write!(
                f,
                "more than the {} MiB a game file may have",
                MAX_FILE_BYTES >> 20
            ),
            ReadError::NoGameStart { line, limit } => write!(
                f,
                "line {line}: more than {} MiB without the start of a new game; reading stopped",
                limit >> 20
            ),
        }
    }
}

impl std::error::Error for ReadError {}

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
pub fn expand(inputs: &[PathBuf]) -> Vec<(PathBuf, Option<ReadError>)> {
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
pub fn directory_files(dir: &Path) -> Vec<(PathBuf, Option<ReadError>)> {
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
                found.push((dir, Some(ReadError::Directory(Arc::new(e)))));
                continue;
            }
        };
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    found.push((dir.clone(), Some(ReadError::Listing(Arc::new(e)))));
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
    // By path, then by error text (a directory may fail more than once).
    let text = |e: &Option<ReadError>| e.as_ref().map(ToString::to_string);
    found.sort_by(|(a, x), (b, y)| a.cmp(b).then_with(|| text(x).cmp(&text(y))));
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
pub fn read_game_file(path: &Path) -> Result<Vec<u8>, ReadError> {
    let meta = std::fs::metadata(path).map_err(ReadError::io)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular);
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge(meta.len()));
    }
    std::fs::read(path).map_err(ReadError::io)
}
