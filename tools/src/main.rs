//! `xq-tools`: developer tools that build on the `xq` library (never the reverse).

mod wxf_cases;

const USAGE: &str = "usage: xq-tools <tool> [args]
tools:
  wxf-cases [DIR]   write the per-diagram case files into DIR/diagrams (DIR: the wxf_cases folder)";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("wxf-cases") => wxf_cases::main(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown tool {other:?}\n{USAGE}")),
        None => Err(USAGE.to_string()),
    };
    if let Err(e) = result {
        eprintln!("{e}");
        std::process::exit(2);
    }
}
