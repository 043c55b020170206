//! The per-diagram case files in `wxf_cases/diagrams/` match what the `wxf-cases` tool generates
//! from the case data and the current judge, so they never go stale. The generator lives in the
//! tools crate, which depends on `xq`; it is compiled here from its source file so that a plain
//! `cargo test` checks the files too.

#[allow(dead_code)]
#[path = "../tools/src/wxf_cases.rs"]
mod wxf_cases;
