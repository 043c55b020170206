//! `xq-tools`: developer tools that build on the `xq` library (never the reverse).

mod data;
mod datagen;
mod flags;
mod net_golden;
mod serve_attack;
mod serve_load;
mod train;
mod wxf_cases;

const USAGE: &str = "usage: xq-tools <tool> [args]
tools:
  wxf-cases [DIR]   write the per-diagram case files into DIR/diagrams (DIR: the wxf_cases folder)
  datagen [ARGS]    self-play training data (datagen --help)
  train [ARGS]      train the NNUE net on record files (train --help)
  quantise [ARGS]   export a float checkpoint as a .nnue net file (quantise --help)
  net-check [ARGS]  float vs quantised evaluation on validation positions (net-check --help)
  net-loss [ARGS]   the training loss of a net file on record files (net-loss --help)
  fit-scale [ARGS]  fit the score-to-result SCALE on record files (fit-scale --help)
  tune-hce [ARGS]   tune the handcrafted evaluation's weights (tune-hce --help)
  net-golden [ARGS] golden evaluations of a net file for the tests (net-golden --help)
  serve-load [ARGS] a bounded load test of `xq serve` on loopback (serve-load --help)
  serve-attack [ARGS] a bounded attack on `xq serve` on loopback, with its bar (serve-attack --help)";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("wxf-cases") => wxf_cases::main(&args[1..]),
        Some("datagen") => datagen::main(&args[1..]),
        Some("train") => train::main(&args[1..]),
        Some("quantise") => train::quantise_main(&args[1..]),
        Some("net-check") => train::net_check_main(&args[1..]),
        Some("net-loss") => train::net_loss_main(&args[1..]),
        Some("fit-scale") => train::fit_scale_main(&args[1..]),
        Some("tune-hce") => train::tune_hce_main(&args[1..]),
        Some("net-golden") => net_golden::main(&args[1..]),
        Some("serve-load") => serve_load::main(&args[1..]),
        Some("serve-attack") => serve_attack::main(&args[1..]),
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
