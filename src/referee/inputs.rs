//! The inputs the referee judges: the files and directories named on `xq referee`'s command line
//! (or given to the Python module) and standard input, read a batch at a time (a file whole, a stream a piece of whole games at a time, as
//! `record::stream` cuts it) so that memory stays bounded however much is read.

use crate::record::files::{ReadError, directory_files, input_written_by, read_game_file};
use crate::record::stream::{GameStream, Piece};
use std::path::{Path, PathBuf};

/// What a piece of input is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A file named on the command line.
    File,
    /// A file found by walking a directory: one without any game in it is skipped, not an error.
    FoundFile,
    /// A piece of a stream (standard input is read a game at a time).
    Stream,
}

/// A piece of input: a file, or a run of games from standard input, or why it could not be read.
pub struct Input {
    /// The name reports give it: the path as given, or `-`.
    pub name: String,
    /// What it is.
    pub kind: Kind,
    /// The bytes, with their place in their stream, or why they could not be read.
    pub content: Result<Piece, ReadError>,
}

impl Input {
    /// A game file, read whole; `found` when it was found by walking a directory (then a file
    /// without any game in it is skipped, not an error).
    pub fn file(path: &Path, found: bool) -> Input {
        let kind = if found { Kind::FoundFile } else { Kind::File };
        Input::whole(path.display().to_string(), kind, read_game_file(path))
    }

    /// A file read whole.
    fn whole(name: String, kind: Kind, bytes: Result<Vec<u8>, ReadError>) -> Input {
        Input {
            name,
            kind,
            content: bytes.map(|bytes| Piece {
                bytes,
                ..Piece::default()
            }),
        }
    }

    /// The bytes read.
    pub fn bytes(&self) -> usize {
        self.content.as_ref().map_or(0, |p| p.bytes.len())
    }
}

/// Where inputs come from, before anything is read.
pub enum Source {
    /// Standard input (`-`).
    Stdin,
    /// A game file.
    File {
        /// Its path.
        path: PathBuf,
        /// Found by walking a directory.
        from_dir: bool,
    },
    /// A directory that could not be read.
    Unreadable {
        /// The directory, as named.
        name: String,
        /// Why.
        error: ReadError,
    },
}

/// The sources the command line names: standard input for `-`, a directory's game files.
pub fn collect_sources(args: &[String]) -> Vec<Source> {
    let mut out = Vec::new();
    for arg in args {
        if arg == "-" {
            out.push(Source::Stdin);
            continue;
        }
        let path = Path::new(arg);
        if path.is_dir() {
            out.extend(
                directory_files(path)
                    .into_iter()
                    .map(|(path, error)| match error {
                        None => Source::File {
                            path,
                            from_dir: true,
                        },
                        Some(error) => Source::Unreadable {
                            name: path.display().to_string(),
                            error,
                        },
                    }),
            );
        } else {
            out.push(Source::File {
                path: path.to_path_buf(),
                from_dir: false,
            });
        }
    }
    out
}

/// The size of the files among the sources, for the progress bar (unknown with standard input).
pub fn total_bytes(sources: &[Source]) -> Option<u64> {
    let reads_stdin = sources.iter().any(|s| matches!(s, Source::Stdin));
    (!reads_stdin).then(|| {
        sources
            .iter()
            .map(|s| match s {
                Source::File { path, .. } => std::fs::metadata(path).map_or(0, |m| m.len()),
                _ => 0,
            })
            .sum::<u64>()
    })
}

/// The game file that `path` is (however it is named: a link, another spelling, a file found in
/// a directory given), if it is one.
pub fn input_at(path: &Path, sources: &[Source]) -> Option<String> {
    let inputs = sources.iter().filter_map(|source| match source {
        Source::File { path, .. } => Some(path.as_path()),
        _ => None,
    });
    input_written_by(path, inputs).map(|p| p.display().to_string())
}

/// Inputs are judged in batches of about this many bytes, so memory stays bounded however much
/// is read.
const BATCH_BYTES: usize = 4 << 20;

/// The sources, read a batch at a time.
pub struct Batches {
    sources: std::vec::IntoIter<Source>,
    stdin: Option<GameStream<std::io::StdinLock<'static>>>,
}

impl Batches {
    /// Reads `sources` in order.
    pub fn new(sources: Vec<Source>) -> Batches {
        Batches {
            sources: sources.into_iter(),
            stdin: None,
        }
    }

    /// The next batch; empty when every source is read.
    pub fn next_batch(&mut self) -> Vec<Input> {
        let mut batch = Vec::new();
        let mut bytes = 0;
        while bytes < BATCH_BYTES {
            if let Some(pieces) = &mut self.stdin {
                match pieces.next() {
                    Some(content) => {
                        let input = Input {
                            name: "-".to_string(),
                            kind: Kind::Stream,
                            content,
                        };
                        bytes += input.bytes();
                        batch.push(input);
                        continue;
                    }
                    None => self.stdin = None,
                }
            }
            let Some(source) = self.sources.next() else {
                break;
            };
            let input = match source {
                Source::Stdin => {
                    self.stdin = Some(GameStream::new(std::io::stdin().lock()));
                    continue;
                }
                Source::File { path, from_dir } => Input::file(&path, from_dir),
                Source::Unreadable { name, error } => Input::whole(name, Kind::File, Err(error)),
            };
            bytes += input.bytes();
            batch.push(input);
        }
        batch
    }
}
