//! The WXF repetition case suite (placeholder until the judge lands).
fn main() {}
