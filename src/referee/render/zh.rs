//! The referee's words in Chinese (Simplified script), in an arbiter's terms: 长将, 长捉, 闲着,
//! 根 and 假根, 判负, 作和, 必须变着. The Traditional script is derived from this table's output
//! by `hant`, never written by hand. Squares and moves stay in ICCS.

use super::verbatim;
use super::words::{Counted, HtmlLabels, PageWords, Words};
use crate::clip::quote;
use crate::judge::protection::DefenderFailure;
use crate::judge::{Verdict, Violation};
use crate::moves::RankStyle;
use crate::piece::{Piece, PieceKind};
use crate::position::Outcome;
use crate::record::encoding::Encoding;
use crate::record::notation::{MarkWarning, Notation, TokenError};
use crate::record::{ErrorKind, Format, ReaderNote};
use crate::referee::citation::RuleCase;
use crate::referee::report::Agreement;
use crate::square::{Color, Square};

/// The Chinese table (Simplified script).
pub static ZH: Words = Words {
    side,
    piece: |p| format!("{}{}", colour(p.color), piece_name(p)),
    piece_at: |p, sq| format!("{sq}的{}", (ZH.piece)(p)),
    kind,
    violation,
    reason,
    result,
    agreement,
    list_separator: "、",
    clause_separator: "；",
    abbreviated: |first, last, all, counted| {
        let things = match counted {
            Counted::Moves => "着",
            Counted::Squares => "个位置",
            Counted::Plies => "步",
        };
        format!("{first}、…、{last}（共{all}{things}）")
    },
    plies,
    move_named: |iccs, native, recorded| match (native, recorded) {
        (Some(native), Some(text)) => format!("{native}（{iccs}，记谱：{text}）"),
        (Some(native), None) => format!("{native}（{iccs}）"),
        (None, Some(text)) => format!("{iccs}（{text}）"),
        (None, None) => iccs.to_string(),
    },
    at_ply: |ply, text| format!("第{ply}步：{text}"),
    no_ruling: |result| match result {
        Some(result) => format!("未判；棋谱记载的结果：{result}"),
        None => "未判；棋谱未记载结果".to_string(),
    },
    mated: |loser, ply, how| {
        let how = match how {
            Outcome::Checkmate => "被将死（被将军且无合法着法）",
            Outcome::Stalemate => "被困毙（无合法着法，未被将军；象棋中判负）",
        };
        format!("第{ply}步{}胜：{}{how}", side(loser.flip()), side(loser))
    },
    move_limit: |ply, moves| format!("第{ply}步作和：双方各走{moves}着未吃子（自然限着）"),
    ply_limit: |ply, plies| format!("第{ply}步作和：对局达到{plies}步的上限"),
    kept_up_to_the_end: |reason, violator, told, from, text, end| {
        format!(
            "{reason}：{v}在第{told}步之后必须变着，却在别的位置继续{reason}（自第{from}步起{}），棋谱在第{end}步以此结束；{v}判负，{}胜",
            text.map_or(String::new(), |t| format!("，{t}")),
            side(violator.flip()),
            v = side(violator),
        )
    },
    repeated_again: |reason, violator, told, ply| {
        format!(
            "{reason}：{v}在第{told}步之后必须变着，却在第{ply}步再次重复；{v}判负，{}胜",
            side(violator.flip()),
            v = side(violator),
        )
    },
    ends_in_repetition: |reason, ply, violator| {
        format!(
            "第{ply}步{reason}，判{v}负：{v}必须变着，而棋谱在{v}变着之前以这一循环结束；{}胜",
            side(violator.flip()),
            v = side(violator),
        )
    },
    decided_at_first: |reason, ply, violator, past| {
        format!(
            "第{ply}步{reason}，判{v}负：{v}必须变着，以这第一次判决为结果（棋谱此后还有{past}步）；{}胜",
            side(violator.flip()),
            v = side(violator),
        )
    },
    repetition_draw: |reason, ply| format!("第{ply}步{reason}：作和"),
    rule,
    cycle: |color, v, plies, moves| {
        format!(
            "{s}：{}，{s}在{plies}的着法：{moves}",
            violation(v),
            s = side(color)
        )
    },
    piece_on: |p, squares| format!("{}{squares}", (ZH.piece)(p)),
    chased: |pieces| format!("捉{pieces}"),
    chased_in_turn: |pieces| format!("轮流捉：{pieces}（没有一子每着都被捉，不算长捉）"),
    unprotected: |ply, why| format!("第{ply}步无根：{why}"),
    repeated_position: |fen, plies| format!("重复局面 {fen}，出现的步数：{plies}"),
    reply_not_recorded: "棋谱到此结束：最后一着的应着没有记录",
    past_ruling: |n| format!("判决之后棋谱还续有{n}步"),
    on_the_way: "途中出现的循环：",
    event: |ply, kind, violator| match violator {
        Some(v) => format!("第{ply}步：{kind}；{}必须变着", side(v)),
        None => format!("第{ply}步：{kind}（允许：双方若继续重复则作和）"),
    },
    event_kept_up: |violator, kind, plies, first_move| {
        format!(
            "{}在别的位置继续{kind}，于{plies}{}",
            violator.map_or("犯规方", side),
            first_move.map_or(String::new(), |m| format!("（{m}）"))
        )
    },
    event_kept_on: |violator, ply| {
        format!("{}反而在第{ply}步再次重复", violator.map_or("犯规方", side))
    },
    event_ruled_anew: |ply| format!("自第{ply}步起，循环在新的判决下继续"),
    event_varied: |color, ply, first_move| {
        format!(
            "{}在第{ply}步变着{}",
            side(color),
            first_move.map_or(String::new(), |m| format!("，走{m}"))
        )
    },
    event_record_ends: |ply| format!("棋谱在第{ply}步以此结束"),
    attack: |attacker, from, victim, square, why| {
        format!(
            "{}{from}攻击{}{square}：{why}",
            (ZH.piece)(attacker),
            (ZH.piece)(victim)
        )
    },
    protected_by: |d| format!("有{d}的子保护（有根）"),
    worth_more: |victim, attacker| {
        format!(
            "{}的价值高于{}，无论有没有子保护都算无根",
            kind(victim),
            kind(attacker)
        )
    },
    no_defender: |color, square| format!("{}没有子能在{square}吃回", side(color)),
    defender_fails,
    game_over: |ply, color, how, next_ply, text| {
        let how = match how {
            Outcome::Checkmate => "被将死",
            Outcome::Stalemate => "被困毙",
        };
        format!(
            "对局在第{ply}步已经结束（{}{how}）；棋谱记录的第{next_ply}步（{text}）及其后的着法不予评判",
            side(color)
        )
    },
    error_line: |line| format!("第{line}行"),
    error_game: |game, ply| match ply {
        Some(ply) => format!("第{game}局第{ply}步"),
        None => format!("第{game}局"),
    },
    error_separator: "：",
    error_kind: |kind| match kind {
        ErrorKind::Io(e) => format!("无法读取：{e}"),
        ErrorKind::NoGame => "没有找到棋谱".to_string(),
        ErrorKind::Format(e) => format!("格式有误：{e}"),
        ErrorKind::BadStart(e) => format!("开局局面有误：{e}"),
        ErrorKind::Move {
            text,
            reason,
            notation: written,
        } => {
            let written = written.map_or(String::new(), |n| format!("（{}）", notation(n)));
            let why = match reason {
                TokenError::Unreadable => "不是任何已知记法的着法".to_string(),
                TokenError::NoMatch => "在此局面不合法".to_string(),
                TokenError::Ambiguous(moves) => {
                    let fits: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
                    format!("有歧义：可以是{}", fits.join("、"))
                }
            };
            format!("着法“{}”{written}{why}", verbatim(&quote(text)))
        }
    },
    mark_warning: |text, mark| {
        let what = match mark {
            MarkWarning::CaptureMarkWithoutCapture => "标有吃子记号，却没有吃子",
            MarkWarning::CaptureWithoutMark => "吃了子，却没有吃子记号",
            MarkWarning::MateMarkWithLegalMoves => "标有将死记号 #，对方却还有合法着法",
            MarkWarning::CheckMarkWithoutCheck => "标有将军记号 +，却没有将军",
        };
        format!("“{}”：{what}", verbatim(&quote(text)))
    },
    reader_note: |note| match note {
        ReaderNote::UnescapedQuotes { tags } => {
            format!(
                "{}标签的值含有未转义的引号，读到结尾的 \"] 为止",
                tags.join("、")
            )
        }
        ReaderNote::MovesAfterResult { line, text } => {
            format!("第{line}行：结果之后的着法没有读入：{text}")
        }
        ReaderNote::VariationsSkipped(n) => format!("跳过了{n}个变化分支"),
    },
    unreadable: "未评判：棋谱无法读取",
    game_title: |file, game, line, title| {
        let mut out = format!("{file} 第{game}局");
        if line > 0 {
            out.push_str(&format!("（第{line}行）"));
        }
        if let Some(title) = title {
            out.push_str(&format!("：{title}"));
        }
        out
    },
    file_error: |file, error| format!("{file}：错误：{error}"),
    ply_count: |n| format!("{n}步"),
    format: |f| match f {
        Format::MoveList => "着法列表",
        f => f.name(),
    },
    notation,
    encoding: |e| match e {
        Encoding::Binary => "二进制",
        e => e.name(),
    },
    record_says: |text, a, referee| match (a, text) {
        (Agreement::Agrees, Some(t)) => Some(format!("棋谱记载{t}：一致")),
        (Agreement::Disagrees, Some(t)) => Some(format!(
            "棋谱记载{t}：与裁判的判决（{}）不一致",
            result(referee)
        )),
        (Agreement::NoRecordResult, _) => Some(agreement(a).to_string()),
        _ => None,
    },
    note_remark: |note| format!("注：{note}"),
    warning_remark: |warning| format!("警告：{warning}"),
    summary: |games, ruled, reasons, unruled, errors, disagree| {
        let reasons = if reasons.is_empty() {
            String::new()
        } else {
            format!("（{reasons}）")
        };
        format!(
            "总计：{games}局，判决{ruled}局{reasons}，未判{unruled}局；出错{errors}局；与棋谱不一致{disagree}局"
        )
    },
    reason_count: |n, reason| format!("{reason}{n}局"),
    unreadable_files: |n| format!("；{n}个文件无法读取"),
    skipped_files: |n, named| format!("；跳过{n}个没有对局的文件（{named}）"),
    and_more: |named, more| format!("{named}等，另有{more}个"),
    pace: |plies, secs, rate| format!("；{plies}步用时{secs:.3}秒（每秒{rate:.0}局）"),
    legend: |red, black| {
        format!(
            "棋盘：红方在下。红方：{red}。黑方：{black}。绿色虚线格：走到判决局面的那一着。蓝圈：被捉的子。"
        )
    },
    legend_glyph: |glyph, k| format!("{glyph}（{}）", kind(k)),
    on_the_way_remark: |event| format!("途中的循环：{event}"),
    error_remark: |error| format!("错误：{error}"),
    past_ruling_remark: |n| format!("判决之后棋谱还续有{n}步"),
    record_result: |text, a| format!("{text}（{}）", agreement(a)),
    game_heading: |file, game, verdict, reason, ply| {
        format!("{file} 第{game}局：{}，第{ply}步{reason}", result(verdict))
    },
    headline: |verdict, reason, ply| {
        let result = result(verdict);
        match (reason, ply) {
            (None, _) => result.to_string(),
            (Some(reason), 0) => format!("{result}——{reason}"),
            (Some(reason), ply) => format!("{result}——第{ply}步{reason}"),
        }
    },
    position_status: |color, in_check, mated| match mated {
        Some(Outcome::Checkmate) => format!("将死：{}胜", side(color.flip())),
        Some(Outcome::Stalemate) => format!("困毙：{}胜", side(color.flip())),
        None if in_check => format!("轮到{}走棋，正被将军", side(color)),
        None => format!("轮到{}走棋", side(color)),
    },
    mate_score: |moves| {
        if moves < 0 {
            format!("{}着后被杀", -moves)
        } else {
            format!("{moves}着杀")
        }
    },
    centipawn_score: |cp| format!("{cp:+}分"),
    analysis: |best, score, depth, line| {
        format!(
            "最佳着法{}，走棋方{score}，深度{depth}，变例{line}",
            best.unwrap_or("—")
        )
    },
    html: HtmlLabels {
        lang: "zh-Hans",
        heading: "裁判报告",
        games_columns: [
            "文件", "对局", "棋手", "步数", "结果", "理由", "步", "棋谱", "备注",
        ],
        cycle_columns: [
            "方",
            "犯规",
            "步",
            "本方在循环中的着法（步：中文记法，坐标）",
            "被捉的子",
        ],
        show: "显示",
        row_kinds: ["全部对局", "已判对局", "与棋谱不一致", "错误"],
        containing: "包含",
        search_hint: "文件、棋手、理由…",
        games_shown: ["显示", "局，共", "局"],
    },
    page: PageWords {
        judging: "评判中…",
        no_game: "没有找到对局",
        thinking: "引擎思考中…",
        analysing: "分析中…",
        engine_move: "引擎：{move}",
        ply_of: "第{ply}步，共{plies}步",
        ply_of_move: "第{ply}步，共{plies}步（{move}）",
        game: "第{game}局",
        game_event: "第{game}局：{event}",
        refused: "服务器拒绝了请求（{status}）",
        unreadable_answer: "无法读取服务器的回答",
        with_two_repetitions: "若按 2 次重复判（WXF 案例集的计数），本局将裁定为：{ruling}",
        judge_with_two: "按 2 次重复裁判",
        full_strength: "{level}（全力）",
        seconds: "{seconds} 秒",
        heading: "WXF 裁判与引擎",
        intro: "粘贴、拖入或选择一份棋谱（裁判能读的各种格式和编码），请裁判裁决；\
            或从任一局面与引擎对弈。",
        to_start: "到开始",
        back: "后退",
        forward: "前进",
        to_end: "到最后",
        to_ruling: "裁定局面",
        judge_heading: "裁判棋谱",
        drop_file: "将文件拖到这里、粘贴在下面，或选择文件：",
        repetitions: "重复次数",
        judge: "裁判",
        games: "对局",
        play_heading: "对弈或分析",
        start_position: "开局局面",
        set_up: "摆局",
        from_board: "取自棋盘",
        level: "引擎等级",
        time: "时间",
        engine_replies: "引擎应着",
        engine_move_button: "引擎走棋",
        analyse: "分析",
        notation: "记谱法",
        chinese_notation: "中文",
        moves: "着法",
    },
};

fn side(color: Color) -> &'static str {
    match color {
        Color::Red => "红方",
        Color::Black => "黑方",
    }
}

/// A side as the first character of a piece's name ("红车").
fn colour(color: Color) -> &'static str {
    match color {
        Color::Red => "红",
        Color::Black => "黑",
    }
}

/// A piece by its side's name for it, as Chinese boards name them: 帅仕相兵 for Red, 将士象卒
/// for Black, 车马炮 for both.
fn piece_name(p: Piece) -> &'static str {
    match (p.color, p.kind) {
        (Color::Red, PieceKind::King) => "帅",
        (Color::Red, PieceKind::Advisor) => "仕",
        (Color::Red, PieceKind::Elephant) => "相",
        (Color::Red, PieceKind::Pawn) => "兵",
        (Color::Black, PieceKind::King) => "将",
        (Color::Black, PieceKind::Advisor) => "士",
        (Color::Black, PieceKind::Elephant) => "象",
        (Color::Black, PieceKind::Pawn) => "卒",
        (_, kind) => self::kind(kind),
    }
}

/// A kind of piece without its side: Black's names, which the rules use for either side.
fn kind(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::King => "将",
        PieceKind::Advisor => "士",
        PieceKind::Elephant => "象",
        PieceKind::Horse => "马",
        PieceKind::Rook => "车",
        PieceKind::Cannon => "炮",
        PieceKind::Pawn => "兵",
    }
}

/// A notation, by its own name where it has one (WXF, SAN, DhtmlXQ).
fn notation(n: Notation) -> &'static str {
    match n {
        Notation::Coordinate(RankStyle::ZeroToNine) => "坐标（横线0–9）",
        Notation::Coordinate(RankStyle::OneToTen) => "坐标（横线1–10）",
        Notation::San(RankStyle::ZeroToNine) => "SAN（横线0–9）",
        Notation::San(RankStyle::OneToTen) => "SAN（横线1–10）",
        Notation::Wxf => "WXF 记法",
        Notation::Chinese => "中文记法",
        Notation::DhtmlXq => "DhtmlXQ 坐标",
    }
}

fn violation(v: Violation) -> &'static str {
    match v {
        Violation::Idle => "闲着",
        Violation::PerpetualChase => "长捉",
        Violation::PerpetualCheck => "长将",
    }
}

/// A reason, from its name in the JSON report.
fn reason(name: &'static str) -> &'static str {
    match name {
        "checkmate" => "将死",
        "stalemate" => "困毙",
        "move limit" => "自然限着",
        "ply limit" => "步数上限",
        "perpetual check" => "长将",
        "perpetual chase" => "长捉",
        "mutual perpetual check" => "双方长将",
        "mutual perpetual chase" => "双方长捉",
        "idle repetition" => "双方闲着",
        "repetition" => "循环重复",
        "no ruling" => "未判",
        _ => "其他理由",
    }
}

fn result(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Win(Color::Red) => "红方胜",
        Verdict::Win(Color::Black) => "黑方胜",
        Verdict::Draw => "和棋",
        Verdict::Undecided => "未判",
    }
}

fn agreement(a: Agreement) -> &'static str {
    match a {
        Agreement::Agrees => "一致",
        Agreement::Disagrees => "不一致",
        Agreement::NoRuling => "没有判决可比",
        Agreement::NoRecordResult => "棋谱未记载结果",
    }
}

fn plies(first: usize, last: usize) -> String {
    if first == last {
        format!("第{first}步")
    } else {
        format!("第{first}–{last}步")
    }
}

fn rule(case: RuleCase) -> String {
    let says = match case {
        RuleCase::PerpetualCheckLoses => "长将判负",
        RuleCase::MutualCheck => "双方长将，作和",
        RuleCase::CheckAgainstChase => "一方长将、另一方长捉，作和",
        RuleCase::RookChased => "不得长捉车",
        RuleCase::CannonChased => "不得长捉无根的炮",
        RuleCase::HorseChased => "不得长捉无根的马",
        RuleCase::PieceChased => "不得长捉无根的子",
        RuleCase::MutualChase => "双方长捉，作和",
        RuleCase::ChaseInTurn => "一子轮流捉两子，或两子捉两子，不算长捉",
        RuleCase::NoViolation => "双方都不犯规的循环，作和",
    };
    let rules = match case.rules() {
        [] => "WXF 规则".to_string(),
        [one] => format!("WXF 规则第{one}条"),
        [init @ .., last] => {
            let init: Vec<String> = init.iter().map(|n| format!("第{n}条")).collect();
            format!("WXF 规则{}和第{last}条", init.join("、"))
        }
    };
    let diagrams = match case.diagrams() {
        None => String::new(),
        Some((one, last)) if one == last => format!("（手册图例{one}）"),
        Some((first, last)) => format!("（手册图例{first}–{last}）"),
    };
    format!("{rules}：{says}{diagrams}")
}

fn defender_fails(
    defender: Option<PieceKind>,
    d: Square,
    failure: DefenderFailure,
    attacker: PieceKind,
) -> String {
    let piece = defender.map_or("子", kind);
    let attacker = kind(attacker);
    match failure {
        DefenderFailure::ScreenIsAttacker => {
            format!("{d}的{piece}要以{attacker}为炮架才能吃回，而吃子就拿走了这个炮架（假根）")
        }
        DefenderFailure::AttackerIsSecondScreen => format!(
            "{d}的{piece}要等吃子把{attacker}移出它的线路才能吃回，{attacker}在那里是第二个炮架（依赖攻击方自身位置的根，假根）"
        ),
        DefenderFailure::ExposesKing => {
            format!("{d}的{piece}吃回就会让己方的将帅被将，不能吃回（假根）")
        }
    }
}

/// The words of another language in a Chinese text: runs of two or more ASCII letters, other
/// than the ones a Chinese ruling keeps as they are: moves and squares in ICCS (`h2e2`, `h2`), a
/// FEN's placement of pieces, and the name `WXF`.
pub fn foreign_words(text: &str) -> Vec<&str> {
    let iccs = |t: &str| {
        let b = t.as_bytes();
        matches!(b.len(), 2 | 4)
            && b.chunks(2)
                .all(|sq| (b'a'..=b'i').contains(&sq[0]) && sq[1].is_ascii_digit())
    };
    let placement = |t: &str| {
        t.matches('/').count() == 9 && t.chars().all(|c| c == '/' || c.is_ascii_alphanumeric())
    };
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '/'))
        .filter(|t| !t.is_empty() && !iccs(t) && !placement(t) && *t != "WXF")
        .flat_map(|t| t.split(|c: char| !c.is_ascii_alphabetic()))
        .filter(|run| run.len() >= 2)
        .collect()
}
