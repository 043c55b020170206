//! The WXF repetition case suite: every case of `wxf_cases/cases.tsv` and every principle test of
//! `wxf_cases/principles.tsv` as its own test, in its given form and left-right mirrored,
//! colour-swapped, and both, once more through the referee's move-by-move path (first decision),
//! and in every form again as a whole game record read by `xq referee` as it reads any game.

use libtest_mimic::{Arguments, Failed, Trial};
use std::collections::HashMap;
use xq::fen;
use xq::judge::{History, ProtectionPolicy, Rules, judge_before_reply};
use xq::moves::Move;
use xq::position::Position;
use xq::referee::{self, Adjudicator, judge_bytes};

struct Case {
    id: String,
    diagram: String,
    fen: String,
    moves: Vec<String>,
    result: String,
    /// For whole-record principle tests: the repetitions met, `PLY:VERDICT:OUTCOME` each.
    events: Option<String>,
}

/// Reads `wxf_cases/NAME`: `case`, a second column (the diagram, or the principle tested), `fen`,
/// `moves`, `result`, then `columns - 5` more columns (a principle's reasoning; before it, in
/// `records.tsv`, the repetitions met).
fn load_cases(name: &str, columns: usize) -> Vec<Case> {
    let path = format!("{}/wxf_cases/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(cols.len(), columns, "{columns} columns in {name}: {line:?}");
            Case {
                id: cols[0].to_string(),
                diagram: cols[1].to_string(),
                fen: cols[2].to_string(),
                moves: cols[3].split_whitespace().map(str::to_string).collect(),
                result: cols[4].to_string(),
                events: (columns == 7).then(|| cols[5].to_string()),
            }
        })
        .collect()
}

fn load_rules() -> HashMap<String, String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/wxf_cases/diagrams.tsv");
    let text = std::fs::read_to_string(path).expect("wxf_cases/diagrams.tsv is readable");
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            Some((cols.first()?.to_string(), cols.get(1)?.to_string()))
        })
        .collect()
}

#[derive(Clone, Copy)]
enum Form {
    AsGiven,
    Mirror,
    ColorSwap,
    Both,
}

impl Form {
    fn suffix(self) -> &'static str {
        match self {
            Form::AsGiven => "",
            Form::Mirror => "_mirror",
            Form::ColorSwap => "_colour_swap",
            Form::Both => "_mirror_colour_swap",
        }
    }

    fn position(self, pos: &Position) -> Position {
        match self {
            Form::AsGiven => pos.clone(),
            Form::Mirror => pos.mirror(),
            Form::ColorSwap => pos.color_swap(),
            Form::Both => pos.mirror().color_swap(),
        }
    }

    fn mv(self, m: Move) -> Move {
        match self {
            Form::AsGiven => m,
            Form::Mirror => m.mirror(),
            Form::ColorSwap => m.flip(),
            Form::Both => m.mirror().flip(),
        }
    }

    /// `red` and `black` swapped in a colour-swapped form.
    fn swap_names(self, text: &str) -> String {
        if matches!(self, Form::ColorSwap | Form::Both) {
            text.replace("red", "\u{0}")
                .replace("black", "red")
                .replace('\u{0}', "black")
        } else {
            text.to_string()
        }
    }

    fn expected(self, result: &str) -> String {
        let swap = matches!(self, Form::ColorSwap | Form::Both);
        match (result, swap) {
            ("red_wins", true) => "black_wins".into(),
            ("black_wins", true) => "red_wins".into(),
            (r, _) => r.into(),
        }
    }
}

fn run_case(case: &Case, form: Form, rule: &str) -> Result<(), Failed> {
    let (start, _warnings) =
        fen::parse_lenient(&case.fen).map_err(|e| format!("case {}: bad FEN: {e}", case.id))?;
    let start = form.position(&start);
    let mut history = History::new(start, rules());
    for (i, text) in case.moves.iter().enumerate() {
        let m: Move = text
            .parse()
            .map_err(|e| format!("case {} ply {}: {e}", case.id, i + 1))?;
        history
            .push(form.mv(m))
            .map_err(|e| format!("case {}: {e}", case.id))?;
    }
    let ruling = judge_before_reply(&history, 2);
    let expected = form.expected(&case.result);
    let got = ruling.verdict.to_string();
    if got == expected {
        Ok(())
    } else {
        let statuses: Vec<String> = (1..=history.plies())
            .map(|ply| {
                let (s, c) = history.status(ply);
                let mv = history.records()[ply]
                    .mv
                    .map(|m| m.to_string())
                    .unwrap_or_default();
                format!(
                    "{mv}:{s:?}{}",
                    if c != 0 {
                        format!("{c:#x}")
                    } else {
                        String::new()
                    }
                )
            })
            .collect();
        Err(format!(
            "case {} (diagram {}, rule {rule}): got {got}, expected {expected}\n  {:?}\n  statuses: {}",
            case.id,
            case.diagram,
            ruling.cycles,
            statuses.join(" ")
        )
        .into())
    }
}

/// The same case through the referee's move-by-move path: the first decision must be the
/// expected result (a game is ruled as soon as both sides' cycles exist).
fn run_referee(case: &Case) -> Result<(), Failed> {
    let (start, _) =
        fen::parse_lenient(&case.fen).map_err(|e| format!("case {}: bad FEN: {e}", case.id))?;
    let mut game = Adjudicator::new(start, referee_rules(referee::Rules::first_decision(2)));
    for text in &case.moves {
        let m: Move = text.parse().map_err(|e| format!("case {}: {e}", case.id))?;
        game.play(m).map_err(|e| format!("case {}: {e}", case.id))?;
    }
    let got = game
        .decision()
        .map_or("undecided".to_string(), |d| d.verdict.to_string());
    if got == case.result {
        Ok(())
    } else {
        Err(format!(
            "case {}: referee says {got} ({:?}), expected {}",
            case.id,
            game.decision(),
            case.result
        )
        .into())
    }
}

/// The same case as a whole game record: written out as PGN (a `FEN` tag and the moves) and read
/// by the referee as `xq referee --repetitions 2` reads any game, the ending judged over the whole
/// record (a forbidden repetition ends the game only if the violator keeps on or the record ends
/// in it).
fn run_record(case: &Case, form: Form) -> Result<(), Failed> {
    let (start, _) =
        fen::parse_lenient(&case.fen).map_err(|e| format!("case {}: bad FEN: {e}", case.id))?;
    let start = form.position(&start);
    let mut moves = Vec::new();
    for text in &case.moves {
        let m: Move = text.parse().map_err(|e| format!("case {}: {e}", case.id))?;
        moves.push(form.mv(m).to_string());
    }
    let pgn = format!(
        "[Event \"case {}\"]\n[FEN \"{start}\"]\n[Result \"*\"]\n\n{} *\n",
        case.id,
        moves.join(" ")
    );
    let config = referee_rules(referee::Rules::arbiter(2));
    let reports = judge_bytes("case.pgn", pgn.as_bytes(), config);
    let [report] = reports.as_slice() else {
        return Err(format!(
            "case {}: {} games read from one record",
            case.id,
            reports.len()
        )
        .into());
    };
    if let Some(e) = report.error() {
        return Err(format!("case {}: {e}", case.id).into());
    }
    let got = report.result().to_string();
    let expected = form.expected(&case.result);
    let events = report.judged().map_or(String::new(), |g| {
        g.events
            .iter()
            .map(event_summary)
            .collect::<Vec<_>>()
            .join(" ")
    });
    if let Some(want) = &case.events {
        let want: Vec<String> = want
            .split_whitespace()
            .map(|e| form.swap_names(e))
            .collect();
        if events != want.join(" ") {
            return Err(format!(
                "case {}: repetitions met {events:?}, expected {:?}\n{}",
                case.id,
                want.join(" "),
                referee::render::explanation(report, referee::render::Lang::En)
            )
            .into());
        }
    }
    if got == expected {
        Ok(())
    } else {
        Err(format!(
            "case {} as a whole record: got {got}, expected {expected}\n{}",
            case.id,
            referee::render::explanation(report, referee::render::Lang::En)
        )
        .into())
    }
}

/// A repetition met, as `PLY:VERDICT:OUTCOME` (`PLY:VERDICT:kept-up@F-L:OUTCOME` when the violator
/// kept its violation up on other squares at plies F to L): how the run ended (`kept-on@N`,
/// `varied-SIDE@N`, `anew@N` when it was ruled anew, `end` when the record ends in it).
fn event_summary(e: &xq::referee::RepetitionEvent) -> String {
    let outcome = match (&e.kept_on, e.varied, e.ruled_anew) {
        (Some(kept), ..) => format!("kept-on@{}", kept.ply),
        (None, Some((side, ply)), _) => format!("varied-{}@{ply}", side.name()),
        (None, None, Some(ply)) => format!("anew@{ply}"),
        (None, None, None) => "end".to_string(),
    };
    let kept_up = e.kept_up.map_or(String::new(), |(first, last)| {
        format!(":kept-up@{first}-{last}")
    });
    format!("{}:{}{kept_up}:{outcome}", e.first_ply(), e.ruling.verdict)
}

/// The trials of one case: the judge in each form, the referee's first decision, and the whole
/// record in each form.
fn case_trials(case: Case, name: &str, rule: String, trials: &mut Vec<Trial>) {
    let case = std::sync::Arc::new(case);
    for form in [Form::AsGiven, Form::Mirror, Form::ColorSwap, Form::Both] {
        let (c, r) = (case.clone(), rule.clone());
        trials.push(Trial::test(format!("{name}{}", form.suffix()), move || {
            run_case(&c, form, &r)
        }));
        let c = case.clone();
        trials.push(Trial::test(
            format!("{name}_record{}", form.suffix()),
            move || run_record(&c, form),
        ));
    }
    trials.push(Trial::test(format!("{name}_referee"), move || {
        run_referee(&case)
    }));
}

fn main() {
    let args = Arguments::from_args();
    let rules = load_rules();
    let cases = load_cases("cases.tsv", 5);
    assert_eq!(cases.len(), 173, "the suite has 173 cases");
    let principles = load_cases("principles.tsv", 6);
    let mut trials = Vec::new();
    for case in principles {
        let name = format!("principle_{}_{}", case.diagram, case.id);
        let rule = case.diagram.clone();
        case_trials(case, &name, rule, &mut trials);
    }
    for case in load_cases("records.tsv", 7) {
        let case = std::sync::Arc::new(case);
        for form in [Form::AsGiven, Form::Mirror, Form::ColorSwap, Form::Both] {
            let name = format!("record_{}_{}{}", case.diagram, case.id, form.suffix());
            let c = case.clone();
            trials.push(Trial::test(name, move || run_record(&c, form)));
        }
    }
    for case in cases {
        let rule = rules
            .get(&case.diagram)
            .cloned()
            .unwrap_or_else(|| "-".into());
        let diagram = match case.diagram.as_str() {
            "" => "extra".to_string(),
            d => format!(
                "diagram_{}",
                d.replace('?', "_unverified").replace('-', "_")
            ),
        };
        let name = format!("{diagram}_case_{}", case.id);
        case_trials(case, &name, rule, &mut trials);
    }
    libtest_mimic::run(&args, trials).exit();
}

/// The rules under test: the default, or another protection policy named by `XQ_PROTECTION`
/// (`before`, `after`) to compare readings.
/// The referee's rules `base` with the protection policy of [`rules`].
fn referee_rules(base: referee::Rules) -> referee::Rules {
    let judge = rules();
    referee::Rules {
        set: judge.set,
        protection: judge.protection,
        ..base
    }
}

fn rules() -> Rules {
    let protection = match std::env::var("XQ_PROTECTION") {
        Ok(name) if !name.is_empty() => name
            .parse::<ProtectionPolicy>()
            .unwrap_or_else(|e| panic!("XQ_PROTECTION: {e}")),
        _ => ProtectionPolicy::default(),
    };
    Rules {
        protection,
        ..Rules::default()
    }
}
