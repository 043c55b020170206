//! The referee's words in English: names and sentence templates for every report.

use super::words::{Counted, HtmlLabels, PageWords, Words};
use crate::judge::protection::DefenderFailure;
use crate::judge::{Verdict, Violation};
use crate::piece::PieceKind;
use crate::position::Outcome;
use crate::record::Format;
use crate::record::describe::wxf_letter;
use crate::record::encoding::Encoding;
use crate::record::notation::Notation;
use crate::referee::citation::RuleCase;
use crate::referee::report::Agreement;
use crate::square::{Color, Square};

/// The English table.
pub static EN: Words = Words {
    side,
    piece: |p| format!("{} {}", colour(p.color), kind(p.kind)),
    piece_at: |p, sq| format!("{} on {sq}", (EN.piece)(p)),
    kind,
    violation,
    reason: |name| name,
    result,
    agreement,
    list_separator: ", ",
    clause_separator: "; ",
    abbreviated: |first, last, all, counted| {
        let things = match counted {
            Counted::Moves => "moves",
            Counted::Squares => "squares",
            Counted::Plies => "plies",
        };
        format!("{first}, …, {last} ({all} {things} in all)")
    },
    plies,
    move_named: |iccs, _, recorded| match recorded {
        Some(text) => format!("{iccs} ({text})"),
        None => iccs.to_string(),
    },
    at_ply: |ply, text| format!("ply {ply}: {text}"),
    no_ruling: |result| match result {
        Some(result) => format!("no ruling; result from the record: {result}"),
        None => "no ruling; the record gives no result".to_string(),
    },
    mated: |loser, ply, how| {
        let how = match how {
            Outcome::Checkmate => "is checkmated: in check with no legal move",
            Outcome::Stalemate => "is stalemated: no legal move, not in check (a loss in Xiangqi)",
        };
        format!(
            "{} wins at ply {ply}: {} {how}",
            side(loser.flip()),
            side(loser)
        )
    },
    move_limit: |ply, moves| {
        format!(
            "draw at ply {ply}: {moves} moves by each side without a capture (the move-count rule)"
        )
    },
    ply_limit: |ply, plies| format!("draw at ply {ply}: the game reached the cap of {plies} plies"),
    kept_up_to_the_end: |reason, violator, told, from, text, end| {
        format!(
            "{reason}: {} had to change moves after ply {told}, kept the {reason} up on other squares instead (from ply {from}{}), and the record ends in it at ply {end}; {} wins",
            side(violator),
            text.map_or(String::new(), |t| format!(", {t}")),
            side(violator.flip())
        )
    },
    repeated_again: |reason, violator, told, ply| {
        format!(
            "{reason}: {} had to change moves after ply {told} and repeated again at ply {ply}; {} wins",
            side(violator),
            side(violator.flip())
        )
    },
    ends_in_repetition: |reason, ply, violator| {
        format!(
            "{reason} at ply {ply}, ruled against {v}: {v} had to change moves, and the record ends in the repetition before {v} did; {} wins",
            side(violator.flip()),
            v = side(violator),
        )
    },
    decided_at_first: |reason, ply, violator, past| {
        format!(
            "{reason} at ply {ply}, ruled against {v}: {v} had to change moves, and this first decision is taken as the result, with the record going on {} after it; {} wins",
            counted(past, "ply", "plies"),
            side(violator.flip()),
            v = side(violator),
        )
    },
    repetition_draw: |reason, ply| format!("{reason} at ply {ply}: a draw"),
    rule,
    cycle: |color, v, plies, moves| {
        format!(
            "{}: {} with {}'s moves at {plies}: {moves}",
            side(color),
            violation(v),
            side(color)
        )
    },
    piece_on: |p, squares| format!("{} {squares}", (EN.piece)(p)),
    chased: |pieces| format!("chased {pieces}"),
    chased_in_turn: |pieces| {
        format!("chased in turn: {pieces} (no single piece on every move: no perpetual chase)")
    },
    unprotected: |ply, why| format!("unprotected at ply {ply}: {why}"),
    repeated_position: |fen, plies| format!("repeated position {fen} at plies {plies}"),
    reply_not_recorded: "the record ends here: the last move's reply is not recorded",
    past_ruling: |n| {
        format!(
            "the record continues {} past the ruling",
            counted(n, "ply", "plies")
        )
    },
    on_the_way: "repetitions on the way:",
    event: |ply, kind, violator| match violator {
        Some(v) => format!("ply {ply}: {kind}; {} must change moves", side(v)),
        None => format!("ply {ply}: {kind} (allowed: a draw if the players go on repeating)"),
    },
    event_kept_up: |violator, kind, plies, first_move| {
        format!(
            "{} kept up the {kind} on other squares at {plies}{}",
            violator.map_or("the violator", side),
            first_move.map_or(String::new(), |m| format!(" ({m})"))
        )
    },
    event_kept_on: |violator, ply| {
        format!(
            "{} repeated again at ply {ply} instead",
            violator.map_or("the violator", side)
        )
    },
    event_ruled_anew: |ply| format!("from ply {ply} the repetition goes on under a new ruling"),
    event_varied: |color, ply, first_move| {
        format!(
            "{} varied at ply {ply}{}",
            side(color),
            first_move.map_or(String::new(), |m| format!(" with {m}"))
        )
    },
    event_record_ends: |ply| format!("the record ends in it at ply {ply}"),
    attack: |attacker, from, victim, square, why| {
        format!(
            "{} {from} attacks {} {square}: {why}",
            (EN.piece)(attacker),
            (EN.piece)(victim)
        )
    },
    protected_by: |d| format!("protected by the piece on {d}"),
    worth_more: |victim, attacker| {
        format!(
            "a {} is worth more than a {}, so it counts as unprotected whatever defends it",
            kind(victim),
            kind(attacker)
        )
    },
    no_defender: |color, square| format!("no {} piece can take back on {square}", colour(color)),
    defender_fails,
    game_over: |ply, color, how, next_ply, text| {
        let how = match how {
            Outcome::Checkmate => "checkmated",
            Outcome::Stalemate => "stalemated",
        };
        format!(
            "the game was already over at ply {ply} ({} {how}); the recorded move {next_ply} ({text}) and any after it are not judged",
            side(color)
        )
    },
    mark_warning: |text, mark| format!("{text:?}: {mark}"),
    reader_note: |note| note.to_string(),
    error_line: |line| format!(":{line}"),
    error_game: |game, ply| match ply {
        Some(ply) => format!("game {game}, ply {ply}"),
        None => format!("game {game}"),
    },
    error_separator: ": ",
    error_kind: |kind| kind.to_string(),
    unreadable: "not judged: the record could not be read",
    game_title: |file, game, line, title| {
        let mut out = format!("{file} game {game}");
        if line > 0 {
            out.push_str(&format!(" (line {line})"));
        }
        if let Some(title) = title {
            out.push_str(&format!(": {title}"));
        }
        out
    },
    file_error: |file, error| format!("{file}: error: {error}"),
    ply_count: |n| counted(n, "ply", "plies"),
    format: Format::name,
    notation: Notation::name,
    encoding: Encoding::name,
    record_says: |text, a, referee| match (a, text) {
        (Agreement::Agrees, Some(t)) => Some(format!("record says {t}: agrees")),
        (Agreement::Disagrees, Some(t)) => Some(format!(
            "record says {t}: DISAGREES with the referee ({referee})"
        )),
        (Agreement::NoRecordResult, _) => Some(agreement(a).to_string()),
        _ => None,
    },
    note_remark: |note| format!("note: {note}"),
    warning_remark: |warning| format!("warning: {warning}"),
    summary: |games, ruled, reasons, unruled, errors, disagree| {
        let reasons = if reasons.is_empty() {
            String::new()
        } else {
            format!(" ({reasons})")
        };
        let games = counted(games, "game", "games");
        format!(
            "summary: {games}, {ruled} ruled{reasons}, {unruled} without a ruling; {errors} with errors; {disagree} disagree with the record"
        )
    },
    reason_count: |n, reason| format!("{n} {reason}"),
    unreadable_files: |n| format!("; {}", counted(n, "unreadable file", "unreadable files")),
    skipped_files: |n, named| {
        let files = counted(n, "file without games", "files without games");
        format!("; {files} skipped ({named})")
    },
    and_more: |named, more| format!("{named} and {more} more"),
    pace: |plies, secs, rate| format!("; {plies} plies in {secs:.3} s ({rate:.0} games/s)"),
    legend: |red, black| {
        format!(
            "Boards: Red at the bottom. Red: {red}. Black: {black}. Dashed green squares: the move that reached the ruled position. Blue rings: the chased pieces."
        )
    },
    legend_glyph: |glyph, k| format!("{glyph} {} ({})", kind(k), wxf_letter(k)),
    on_the_way_remark: |event| format!("repetition on the way: {event}"),
    error_remark: |error| format!("error: {error}"),
    past_ruling_remark: |n| {
        format!(
            "record continues {} past the ruling",
            counted(n, "ply", "plies")
        )
    },
    record_result: |text, a| format!("{text} ({})", agreement(a)),
    game_heading: |file, game, verdict, reason, ply| {
        format!(
            "{file} game {game}: {}, by {reason} at ply {ply}",
            result(verdict)
        )
    },
    headline: |verdict, reason, ply| {
        let result = match verdict {
            Verdict::Draw => "Draw",
            Verdict::Undecided => "No ruling",
            won => result(won),
        };
        match (reason, ply) {
            (None, _) => result.to_string(),
            (Some(reason), 0) => format!("{result} — {reason}"),
            (Some(reason), ply) => format!("{result} — {reason} at ply {ply}"),
        }
    },
    position_status: |color, in_check, mated| match mated {
        Some(Outcome::Checkmate) => format!("checkmate: {} wins", side(color.flip())),
        Some(Outcome::Stalemate) => format!("stalemate: {} wins", side(color.flip())),
        None if in_check => format!("{} to move, in check", side(color)),
        None => format!("{} to move", side(color)),
    },
    mate_score: |moves| format!("mate {moves}"),
    centipawn_score: |cp| format!("{cp:+} cp"),
    analysis: |best, score, depth, line| {
        format!(
            "best {}, {score} for the side to move, depth {depth}, line {line}",
            best.unwrap_or("—")
        )
    },
    html: HtmlLabels {
        lang: "en",
        heading: "Referee report",
        games_columns: [
            "file", "game", "players", "plies", "result", "reason", "ply", "record", "remarks",
        ],
        cycle_columns: [
            "side",
            "violation",
            "plies",
            "the side's moves in the cycle (ply: ICCS, as recorded)",
            "chased",
        ],
        show: "Show",
        row_kinds: [
            "all games",
            "ruled games",
            "disagreements with the record",
            "errors",
        ],
        containing: "containing",
        search_hint: "file, player, reason…",
        games_shown: ["", " of ", " games shown"],
    },
    page: PageWords {
        judging: "judging…",
        no_game: "no game found",
        thinking: "the engine is thinking…",
        analysing: "analysing…",
        engine_move: "engine: {move}",
        ply_of: "ply {ply} of {plies}",
        ply_of_move: "ply {ply} of {plies} ({move})",
        game: "game {game}",
        game_event: "game {game}: {event}",
        refused: "the server refused the request ({status})",
        unreadable_answer: "the server's answer could not be read",
        with_two_repetitions: "With 2 repetitions (the WXF case suite's count) this game would \
            be ruled: {ruling}",
        judge_with_two: "Judge with 2",
        full_strength: "{level} (full strength)",
        seconds: "{seconds} s",
        heading: "WXF referee and engine",
        intro: "Paste, drop or choose a game record (PGN with coordinate, WXF or Chinese moves, \
            DhtmlXQ, XQF; any encoding the referee reads) and ask for the ruling, or play against \
            the engine from any position.",
        to_start: "to the start",
        back: "back",
        forward: "forward",
        to_end: "to the end",
        to_ruling: "ruled position",
        judge_heading: "Judge a record",
        drop_file: "Drop a file here, paste below, or choose one:",
        repetitions: "repetitions",
        judge: "Judge",
        games: "game",
        play_heading: "Play or analyse",
        start_position: "start position",
        set_up: "Set up",
        from_board: "From the board",
        level: "Engine level",
        time: "time",
        engine_replies: "engine replies",
        engine_move_button: "Engine move",
        analyse: "Analyse",
        notation: "notation",
        chinese_notation: "Chinese",
        moves: "Moves",
    },
};

fn side(color: Color) -> &'static str {
    match color {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

/// A side as the adjective of a piece ("red"): its English name.
fn colour(color: Color) -> &'static str {
    color.name()
}

/// A kind of piece: its English name, as the piece module gives it.
fn kind(kind: PieceKind) -> &'static str {
    kind.name()
}

fn violation(v: Violation) -> &'static str {
    match v {
        Violation::Idle => "idle",
        Violation::PerpetualChase => "perpetual chase",
        Violation::PerpetualCheck => "perpetual check",
    }
}

fn result(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Win(Color::Red) => "Red wins",
        Verdict::Win(Color::Black) => "Black wins",
        Verdict::Draw => "draw",
        Verdict::Undecided => "no ruling",
    }
}

fn agreement(a: Agreement) -> &'static str {
    match a {
        Agreement::Agrees => "agrees",
        Agreement::Disagrees => "disagrees",
        Agreement::NoRuling => "no ruling to compare",
        Agreement::NoRecordResult => "the record gives no result",
    }
}

fn plies(first: usize, last: usize) -> String {
    if first == last {
        format!("ply {first}")
    } else {
        format!("plies {first}-{last}")
    }
}

fn rule(case: RuleCase) -> String {
    let says = match case {
        RuleCase::PerpetualCheckLoses => "perpetual check loses",
        RuleCase::MutualCheck => "both sides checking perpetually is a draw",
        RuleCase::CheckAgainstChase => "one side checking and the other chasing is a draw",
        RuleCase::RookChased => "a rook may not be perpetually chased",
        RuleCase::CannonChased => "an unprotected cannon may not be perpetually chased",
        RuleCase::HorseChased => "an unprotected horse may not be perpetually chased",
        RuleCase::PieceChased => "an unprotected piece may not be perpetually chased",
        RuleCase::MutualChase => "both sides chasing perpetually is a draw",
        RuleCase::ChaseInTurn => {
            "one piece chasing two pieces in turn, or two chasing two, is not a perpetual chase"
        }
        RuleCase::NoViolation => "a repetition in which neither side violates is a draw",
    };
    let rules = match case.rules() {
        [] => "WXF rules".to_string(),
        [one] => format!("WXF rule {one}"),
        [init @ .., last] => {
            let init: Vec<String> = init.iter().map(u32::to_string).collect();
            format!("WXF rules {} and {last}", init.join(", "))
        }
    };
    let diagrams = match case.diagrams() {
        None => String::new(),
        Some((one, last)) if one == last => format!(" (manual diagram {one})"),
        Some((first, last)) => format!(" (manual diagrams {first}-{last})"),
    };
    format!("{rules}: {says}{diagrams}")
}

fn defender_fails(
    defender: Option<PieceKind>,
    d: Square,
    failure: DefenderFailure,
    attacker: PieceKind,
) -> String {
    let piece = defender.map_or("piece", kind);
    let attacker = kind(attacker);
    match failure {
        DefenderFailure::ScreenIsAttacker => format!(
            "the {piece} on {d} would take back over the {attacker} as its screen, which the capture removes (a false root)"
        ),
        DefenderFailure::AttackerIsSecondScreen => format!(
            "the {piece} on {d} would take back only once the capture takes the {attacker} out of its line, where it is a second screen (a root that depends on the attacker's own square)"
        ),
        DefenderFailure::ExposesKing => {
            format!("the {piece} on {d} cannot take back without exposing its king")
        }
    }
}

/// A count with its noun, singular for one: "1 game", "3 games".
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
