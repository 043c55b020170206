//! The inputs the referee judges: the files and directories named on `xq referee`'s command line
//! (or given to the Python module), standard input or record text held in memory read as a
//! stream, a request's bytes, and a game's moves from a position; read a batch at a time (a file
//! whole, a stream a piece of whole games at a time, as `record::stream` cuts it) so that memory
//! stays bounded however much is read.

use crate::game::Game;
use crate::record::files::{ReadError, directory_files, input_written_by, read_game_file};
use crate::record::stream::{GameStream, MAX_GAME_BYTES, Piece};
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// What a piece of input is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A file named on the command line, or bytes given whole.
    File,
    /// A file found by walking a directory: one without any game in it is skipped, not an error.
    FoundFile,
    /// A piece of a stream (standard input and record text are read a piece of games at a time).
    Stream,
}

/// What an input holds.
pub enum Content {
    /// Record bytes, with their place in their stream, or why they could not be read.
    Bytes(Result<Piece, ReadError>),
    /// A game already played (its moves checked): one game, judged as its record would be.
    Game(Box<Game>),
}

/// A piece of input: a file, a run of games from a stream, or a game, or why it could not be read.
pub struct Input {
    /// The name reports give it: the path as given, `-`, or the name its source was given.
    pub name: String,
    /// What it is.
    pub kind: Kind,
    /// What it holds.
    pub content: Content,
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
            content: Content::Bytes(bytes.map(|bytes| Piece {
                bytes,
                ..Piece::default()
            })),
        }
    }

    /// The bytes read.
    pub fn bytes(&self) -> usize {
        match &self.content {
            Content::Bytes(Ok(piece)) => piece.bytes.len(),
            Content::Bytes(Err(_)) | Content::Game(_) => 0,
        }
    }
}

/// Record text read as a stream, a piece of whole games at a time.
pub type Reader = Box<dyn BufRead + Send + Sync>;

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
    /// The bytes of a record file held in memory (a request's body), read as a file is.
    Bytes {
        /// The name reports give it.
        name: String,
        /// The bytes.
        bytes: Vec<u8>,
    },
    /// Record text read as standard input is: a piece of whole games at a time, the games
    /// numbered through the stream.
    Stream {
        /// The name reports give it.
        name: String,
        /// The text.
        reader: Reader,
        /// The most bytes a piece may have (text already in memory needs none: `usize::MAX`).
        limit: usize,
    },
    /// A game played from a position, judged as the record of its moves would be.
    Game {
        /// The name reports give it.
        name: String,
        /// The game.
        game: Box<Game>,
    },
}

impl Source {
    /// Record text held in memory, read as a stream is.
    pub fn text(name: &str, text: Vec<u8>) -> Source {
        Source::Stream {
            name: name.to_string(),
            reader: Box::new(std::io::Cursor::new(text)),
            limit: usize::MAX,
        }
    }
}

/// The sources a command line's arguments name: standard input for `-`, a directory's game
/// files, a file as given.
pub fn collect_sources(args: &[String]) -> Vec<Source> {
    let mut out = Vec::new();
    for arg in args {
        if arg == "-" {
            out.push(Source::Stdin);
        } else {
            out.extend(sources_at(Path::new(arg)));
        }
    }
    out
}

/// The sources a path names: a directory's game files in name order (its own HTML reports left
/// out), each that cannot be read as such; a file as given.
pub fn sources_at(path: &Path) -> Vec<Source> {
    if !path.is_dir() {
        return vec![Source::File {
            path: path.to_path_buf(),
            from_dir: false,
        }];
    }
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
        })
        .collect()
}

/// The size of the files among the sources, for the progress bar (unknown with a stream).
pub fn total_bytes(sources: &[Source]) -> Option<u64> {
    let streams = sources
        .iter()
        .any(|s| matches!(s, Source::Stdin | Source::Stream { .. }));
    (!streams).then(|| {
        sources
            .iter()
            .map(|s| match s {
                Source::File { path, .. } => std::fs::metadata(path).map_or(0, |m| m.len()),
                Source::Bytes { bytes, .. } => bytes.len() as u64,
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

/// A stream being read, numbered among the streams of the sources.
struct OpenStream {
    name: String,
    pieces: GameStream<Reader>,
    index: usize,
}

/// The sources, read a batch at a time.
pub struct Batches {
    sources: std::vec::IntoIter<Source>,
    stream: Option<OpenStream>,
    /// The names of the streams opened so far.
    streams: Vec<String>,
}

impl Batches {
    /// Reads `sources` in order.
    pub fn new(sources: Vec<Source>) -> Batches {
        Batches {
            sources: sources.into_iter(),
            stream: None,
            streams: Vec::new(),
        }
    }

    /// The names of the streams opened so far, in order (an input's `stream` indexes it).
    pub fn streams(&self) -> &[String] {
        &self.streams
    }

    /// The next batch, each input with the index of the stream it is a piece of; empty when every
    /// source is read.
    pub fn next_batch(&mut self) -> Vec<(Input, Option<usize>)> {
        let mut batch = Vec::new();
        let mut bytes = 0;
        while bytes < BATCH_BYTES {
            if let Some(open) = &mut self.stream {
                match open.pieces.next() {
                    Some(content) => {
                        let input = Input {
                            name: open.name.clone(),
                            kind: Kind::Stream,
                            content: Content::Bytes(content),
                        };
                        bytes += input.bytes();
                        batch.push((input, Some(open.index)));
                        continue;
                    }
                    None => self.stream = None,
                }
            }
            let Some(source) = self.sources.next() else {
                break;
            };
            let input = match source {
                Source::Stdin => {
                    let stdin = std::io::BufReader::new(std::io::stdin());
                    self.open("-".to_string(), Box::new(stdin), MAX_GAME_BYTES);
                    continue;
                }
                Source::Stream {
                    name,
                    reader,
                    limit,
                } => {
                    self.open(name, reader, limit);
                    continue;
                }
                Source::File { path, from_dir } => Input::file(&path, from_dir),
                Source::Unreadable { name, error } => Input::whole(name, Kind::File, Err(error)),
                Source::Bytes { name, bytes } => Input::whole(name, Kind::File, Ok(bytes)),
                Source::Game { name, game } => Input {
                    name,
                    kind: Kind::File,
                    content: Content::Game(game),
                },
            };
            bytes += input.bytes();
            batch.push((input, None));
        }
        batch
    }

    /// Starts reading a stream.
    fn open(&mut self, name: String, reader: Reader, limit: usize) {
        self.streams.push(name.clone());
        self.stream = Some(OpenStream {
            name,
            pieces: GameStream::with_limit(reader, limit),
            index: self.streams.len() - 1,
        });
    }
}
