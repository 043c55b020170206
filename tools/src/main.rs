//! `xq-tools`: developer tools that build on the `xq` library (never the reverse).

fn main() {
    eprintln!("usage: xq-tools <tool> [args]; no tools yet");
}
