//! Reading a tool's command-line flags: `--name value...`, errors that name the flag and show the
//! usage, and an output file kept apart from the files read.

use std::path::{Path, PathBuf};

/// Command-line flags: `--name value...`, with the tool's usage text in every error.
pub struct Flags<'a> {
    args: &'a [String],
    at: usize,
    usage: &'static str,
}

impl<'a> Flags<'a> {
    pub fn new(args: &'a [String], usage: &'static str) -> Flags<'a> {
        Flags { args, at: 0, usage }
    }

    /// The next flag, or `None` at the end.
    pub fn next_flag(&mut self) -> Result<Option<&'a str>, String> {
        match self.args.get(self.at) {
            None => Ok(None),
            Some(a) if a == "-h" || a == "--help" => Err(self.usage.to_string()),
            Some(a) if a.starts_with("--") => {
                self.at += 1;
                Ok(Some(a.as_str()))
            }
            Some(a) => Err(format!("unexpected argument {a:?}\n{}", self.usage)),
        }
    }

    pub fn value(&mut self, flag: &str) -> Result<&'a str, String> {
        match self.args.get(self.at) {
            Some(v) if !v.starts_with("--") => {
                self.at += 1;
                Ok(v.as_str())
            }
            _ => Err(format!("{flag} needs a value\n{}", self.usage)),
        }
    }

    /// All values up to the next flag (at least one).
    pub fn values(&mut self, flag: &str) -> Result<Vec<&'a str>, String> {
        let mut out = vec![self.value(flag)?];
        while let Some(v) = self.args.get(self.at).filter(|v| !v.starts_with("--")) {
            out.push(v.as_str());
            self.at += 1;
        }
        Ok(out)
    }

    pub fn parsed<T: std::str::FromStr>(&mut self, flag: &str) -> Result<T, String> {
        let v = self.value(flag)?;
        v.parse()
            .map_err(|_| format!("bad value {v:?} for {flag}\n{}", self.usage))
    }
}

/// An error when the output file `out` is one of the `inputs` (however it is named: the same
/// path, a link), which writing it would destroy.
pub fn output_apart(out: &Path, inputs: &[PathBuf]) -> Result<(), String> {
    match xq::record::files::input_written_by(out, inputs.iter().map(PathBuf::as_path)) {
        Some(input) => Err(format!(
            "--out {} would write over the input {}",
            out.display(),
            input.display()
        )),
        None => Ok(()),
    }
}
