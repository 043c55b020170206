//! The HTML report of `xq referee --html`: a summary table of every game (ruled games first, with a
//! filter), then for each ruled game an SVG board of the ruled position (last move and chased pieces
//! marked), the explanation and the cycle's moves. One self-contained file: the board glyphs are
//! embedded, nothing is fetched.

use super::glyphs;
use super::render::words::HtmlLabels;
use super::render::{self, Lang};
use super::{Agreement, GameReport};
use crate::moves::Move;
use crate::piece::{Piece, PieceKind};
use crate::position::Position;
use crate::square::{Color, File, Square};
use std::fmt::Write as _;

/// Escapes text for HTML.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const CELL: i32 = 44;
const MARGIN: i32 = 34;

fn point(sq: Square) -> (i32, i32) {
    let x = MARGIN + i32::from(sq.file().index()) * CELL;
    let y = MARGIN + (9 - i32::from(sq.rank().index())) * CELL;
    (x, y)
}

/// The glyph a Xiangqi board shows for a piece: Red's 帥仕相傌俥炮兵, Black's 將士象馬車砲卒.
fn glyph(piece: Piece) -> char {
    match (piece.color, piece.kind) {
        (Color::Red, PieceKind::King) => '帥',
        (Color::Red, PieceKind::Advisor) => '仕',
        (Color::Red, PieceKind::Elephant) => '相',
        (Color::Red, PieceKind::Horse) => '傌',
        (Color::Red, PieceKind::Rook) => '俥',
        (Color::Red, PieceKind::Cannon) => '炮',
        (Color::Red, PieceKind::Pawn) => '兵',
        (Color::Black, PieceKind::King) => '將',
        (Color::Black, PieceKind::Advisor) => '士',
        (Color::Black, PieceKind::Elephant) => '象',
        (Color::Black, PieceKind::Horse) => '馬',
        (Color::Black, PieceKind::Rook) => '車',
        (Color::Black, PieceKind::Cannon) => '砲',
        (Color::Black, PieceKind::Pawn) => '卒',
    }
}

/// An SVG drawing of `pos` with `last` marked and `marked` squares ringed.
pub fn board_svg(pos: &Position, last: Option<Move>, marked: &[Square], lang: Lang) -> String {
    let w = MARGIN * 2 + CELL * 8;
    let h = MARGIN * 2 + CELL * 9;
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img"><rect width="{w}" height="{h}" fill="#f2d9a6"/>"##
    );
    let (left, right) = (MARGIN, MARGIN + 8 * CELL);
    let (top, bottom) = (MARGIN, MARGIN + 9 * CELL);
    for r in 0..10 {
        let y = MARGIN + r * CELL;
        let _ = write!(
            s,
            r##"<line x1="{left}" y1="{y}" x2="{right}" y2="{y}" stroke="#5a3d1e" stroke-width="1.2"/>"##
        );
    }
    for f in 0..9 {
        let x = MARGIN + f * CELL;
        if f == 0 || f == 8 {
            let _ = write!(
                s,
                r##"<line x1="{x}" y1="{top}" x2="{x}" y2="{bottom}" stroke="#5a3d1e" stroke-width="1.2"/>"##
            );
        } else {
            let river_top = MARGIN + 4 * CELL;
            let river_bottom = MARGIN + 5 * CELL;
            let _ = write!(
                s,
                r##"<line x1="{x}" y1="{top}" x2="{x}" y2="{river_top}" stroke="#5a3d1e" stroke-width="1.2"/><line x1="{x}" y1="{river_bottom}" x2="{x}" y2="{bottom}" stroke="#5a3d1e" stroke-width="1.2"/>"##
            );
        }
    }
    for (y0, y1) in [(0, 2), (7, 9)] {
        let (xa, xb) = (MARGIN + 3 * CELL, MARGIN + 5 * CELL);
        let (ya, yb) = (MARGIN + y0 * CELL, MARGIN + y1 * CELL);
        let _ = write!(
            s,
            r##"<line x1="{xa}" y1="{ya}" x2="{xb}" y2="{yb}" stroke="#5a3d1e"/><line x1="{xb}" y1="{ya}" x2="{xa}" y2="{yb}" stroke="#5a3d1e"/>"##
        );
    }
    let river_y = MARGIN + 4 * CELL + CELL / 2 + 5;
    let _ = write!(
        s,
        r##"<text x="{}" y="{river_y}" font-family="{}" font-weight="bold" font-size="18" fill="#7a5a30" text-anchor="middle">楚 河</text><text x="{}" y="{river_y}" font-family="{}" font-weight="bold" font-size="18" fill="#7a5a30" text-anchor="middle">漢 界</text>"##,
        MARGIN + 2 * CELL,
        glyphs::FONT_STACK,
        MARGIN + 6 * CELL,
        glyphs::FONT_STACK
    );
    for f in 0..9u8 {
        let x = MARGIN + i32::from(f) * CELL;
        let c = File::new(f).map_or('?', File::char);
        let _ = write!(
            s,
            r##"<text x="{x}" y="{}" font-family="sans-serif" font-size="12" fill="#5a3d1e" text-anchor="middle">{c}</text>"##,
            h - 8
        );
    }
    for r in 0..10u8 {
        let y = MARGIN + (9 - i32::from(r)) * CELL + 4;
        let _ = write!(
            s,
            r##"<text x="10" y="{y}" font-family="sans-serif" font-size="12" fill="#5a3d1e" text-anchor="middle">{r}</text>"##
        );
    }
    if let Some(m) = last {
        for sq in [m.from(), m.to()] {
            let (x, y) = point(sq);
            let half = CELL / 2 - 1;
            let _ = write!(
                s,
                r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#1f7a1f" stroke-width="2.5" stroke-dasharray="5,3"/>"##,
                x - half,
                y - half,
                2 * half,
                2 * half
            );
        }
    }
    for sq in (0..90u8).filter_map(Square::new) {
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        let (x, y) = point(sq);
        let color = match piece.color {
            Color::Red => "#b3141b",
            Color::Black => "#1a1a1a",
        };
        let _ = write!(
            s,
            r##"<g><title>{}</title><circle cx="{x}" cy="{y}" r="18" fill="#fbeed0" stroke="{color}" stroke-width="2"/><circle cx="{x}" cy="{y}" r="14.5" fill="none" stroke="{color}" stroke-width="0.8"/><text x="{x}" y="{}" font-family="{}" font-weight="bold" font-size="20" fill="{color}" text-anchor="middle">{}</text></g>"##,
            render::piece_at(piece, sq, lang),
            y + 7,
            glyphs::FONT_STACK,
            glyph(piece)
        );
    }
    for &sq in marked {
        let (x, y) = point(sq);
        let _ = write!(
            s,
            r##"<circle cx="{x}" cy="{y}" r="21" fill="none" stroke="#1d5fd1" stroke-width="3"/>"##
        );
    }
    s.push_str("</svg>");
    s
}

fn result_class(r: &GameReport) -> &'static str {
    if r.error().is_some() {
        "error"
    } else if r.agreement() == Agreement::Disagrees {
        "disagree"
    } else {
        ""
    }
}

/// Text with each board glyph set in the board font (the page's own font may have none).
fn glyph_spans(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "帥仕相傌俥炮兵將士象馬車砲卒".contains(c) {
            let _ = write!(out, "<span class=\"glyph\">{c}</span>");
        } else {
            out.push(c);
        }
    }
    out
}

/// The kinds of row a reader can filter the table to.
fn row_kinds(r: &GameReport) -> String {
    let mut kinds = vec!["all"];
    if r.decision().is_some() {
        kinds.push("ruled");
    }
    if r.agreement() == Agreement::Disagrees {
        kinds.push("disagree");
    }
    if r.error().is_some() {
        kinds.push("error");
    }
    kinds.join(" ")
}

/// The kinds of row the filter offers, as `row_kinds` names them.
const ROW_KINDS: [&str; 4] = ["all", "ruled", "disagree", "error"];

/// The filter above the table: a kind of row and a text to look for (a few lines of script; the
/// table reads the same without it).
fn filter(labels: &HtmlLabels) -> String {
    let options: String = ROW_KINDS
        .iter()
        .zip(labels.row_kinds)
        .map(|(value, words)| format!("<option value=\"{value}\">{}</option>", esc(words)))
        .collect();
    format!(
        "<p><label>{} <select id=\"kind\">{options}</select></label>\n<label>{} <input id=\"text\" type=\"search\" placeholder=\"{}\"></label> <span id=\"shown\"></span></p>\n",
        esc(labels.show),
        esc(labels.containing),
        esc(labels.search_hint)
    )
}

/// Text as a string in the page's script (quoted, with what would end the string or the script
/// escaped).
fn script_string(text: &str) -> String {
    let mut out = String::from("'");
    for c in text.chars() {
        match c {
            '\\' | '\'' => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("\\x3c"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// The filter's script, at the end of the page (it reads the table's rows).
fn filter_script(labels: &HtmlLabels) -> String {
    let [before, between, after] = labels.games_shown;
    let shown: Vec<String> = [
        (!before.is_empty()).then(|| script_string(before)),
        Some("n".to_string()),
        Some(script_string(between)),
        Some("rows.length".to_string()),
        (!after.is_empty()).then(|| script_string(after)),
    ]
    .into_iter()
    .flatten()
    .collect();
    format!(
        r#"<script>
(function () {{
  var kind = document.getElementById('kind'), text = document.getElementById('text');
  var shown = document.getElementById('shown');
  function apply() {{
    var k = kind.value, t = text.value.toLowerCase(), n = 0;
    var rows = document.querySelectorAll('tr[data-kinds]');
    rows.forEach(function (row) {{
      var show = row.getAttribute('data-kinds').split(' ').indexOf(k) >= 0 &&
        (t === '' || row.textContent.toLowerCase().indexOf(t) >= 0);
      row.style.display = show ? '' : 'none';
      if (show) {{ n++; }}
    }});
    shown.textContent = {};
  }}
  kind.addEventListener('change', apply);
  text.addEventListener('input', apply);
  apply();
}})();
</script>
"#,
        shown.join(" + ")
    )
}

/// A table's header row.
fn header_row(columns: &[&str]) -> String {
    let cells: String = columns
        .iter()
        .map(|c| format!("<th>{}</th>", esc(c)))
        .collect();
    format!("<tr>{cells}</tr>")
}

/// The whole report page.
pub fn report(title: &str, reports: &[GameReport], summary: &str, lang: Lang) -> String {
    let labels = &render::html_labels(lang);
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<!DOCTYPE html>
<html lang="{}"><head><meta charset="utf-8">{}<title>{}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1.5em; color: #222; max-width: 1100px; }}
table {{ border-collapse: collapse; margin: 1em 0; font-size: 0.92em; width: 100%; }}
td.file {{ word-break: break-all; max-width: 16em; }}
th, td {{ border: 1px solid #ccc; padding: 3px 7px; text-align: left; vertical-align: top; }}
th {{ background: #eee; }}
tr.error td {{ background: #fde2e2; }}
tr.disagree td {{ background: #fff3cd; }}
.game {{ display: flex; gap: 1.5em; border-top: 2px solid #bbb; padding: 1em 0; }}
.game > div:last-child {{ flex: 1; min-width: 0; }}
.game h3 {{ word-break: break-all; }}
.game pre {{ white-space: pre-wrap; font-size: 0.9em; background: #f7f7f7; padding: 0.6em; }}
.legend {{ font-size: 0.85em; color: #555; }}
.glyph {{ font-family: {}; font-weight: bold; }}
{}
</style></head><body>
<h1>{}</h1>
<p>{}</p>
<p>{}</p>
"#,
        labels.lang,
        crate::record::files::REPORT_MARK,
        esc(title),
        glyphs::FONT_STACK,
        glyphs::font_face(),
        esc(labels.heading),
        esc(title),
        esc(summary)
    );
    s.push_str(&filter(labels));
    // Ruled games first, then the rest, each in the order read.
    let mut rows: Vec<&GameReport> = reports.iter().collect();
    rows.sort_by_key(|r| r.decision().is_none());
    let _ = writeln!(s, "<table>{}", header_row(&labels.games_columns));
    for r in rows {
        let facts = r.facts();
        let players = match facts.map(|f| (&f.red, &f.black)) {
            Some((Some(a), Some(b))) => format!("{a} – {b}"),
            _ => facts.and_then(|f| f.event.clone()).unwrap_or_default(),
        };
        let link = if r.decision().is_some() {
            format!(
                "<a href=\"#g{}-{}\">{}</a>",
                anchor(&r.file),
                r.game,
                r.game
            )
        } else {
            r.game.to_string()
        };
        let remarks = render::remarks(r, lang);
        let record = render::record_result(r, lang).unwrap_or_else(|| "—".to_string());
        let _ = writeln!(
            s,
            "<tr class=\"{}\" data-kinds=\"{}\"><td class=\"file\">{}</td><td>{link}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            result_class(r),
            row_kinds(r),
            esc(&r.file),
            esc(&players),
            r.moves().len(),
            render::result(r.result(), lang),
            render::reason(r.reason(), lang),
            r.decision().map_or(String::new(), |d| d.ply.to_string()),
            esc(&record),
            esc(&render::clauses(&remarks, lang))
        );
    }
    let _ = writeln!(
        s,
        "</table>\n<p class=\"legend\">{}</p>",
        glyph_spans(&esc(&render::legend(glyph, lang)))
    );
    for r in reports {
        let Some(ruling) = r.ruling() else {
            continue;
        };
        let (d, pos) = (&ruling.decision, &ruling.ruled);
        let last = d.ply.checked_sub(1).and_then(|i| r.moves().get(i)).copied();
        let marked: Vec<Square> = ruling
            .cycles
            .iter()
            .flat_map(|c| &c.chased)
            .filter_map(|(_, squares)| squares.last().copied())
            .filter(|&sq| pos.piece_at(sq).is_some())
            .collect();
        let _ = write!(
            s,
            "<div class=\"game\" id=\"g{}-{}\"><div>{}</div><div><h3>{}</h3>",
            anchor(&r.file),
            r.game,
            board_svg(pos, last, &marked, lang),
            esc(&render::game_heading(r, d, lang)),
        );
        if let Some((Some(a), Some(b))) = r.facts().map(|f| (&f.red, &f.black)) {
            let _ = write!(s, "<p>{} – {}</p>", esc(a), esc(b));
        }
        let _ = write!(s, "<pre>{}</pre>", esc(&render::explanation(r, lang)));
        if !ruling.cycles.is_empty() {
            let _ = write!(s, "<table>{}", header_row(&labels.cycle_columns));
            let names = render::MoveNames::of_report(r, lang);
            for c in &ruling.cycles {
                // The side's own moves and their plies, as the explanation above gives them.
                let (plies, moves) = render::cycle_row(&names, c, lang);
                let moves: Vec<String> = moves.iter().map(|m| esc(m)).collect();
                let _ = write!(
                    s,
                    "<tr><td>{}</td><td>{}</td><td>{plies}</td><td>{}</td><td>{}</td></tr>",
                    render::side(c.color, lang),
                    render::violation(c.violation, lang),
                    moves.join("<br>"),
                    esc(&render::pieces_on(&c.chased, lang))
                );
            }
            s.push_str("</table>");
        }
        let _ = writeln!(
            s,
            "<p class=\"legend\">FEN {}</p></div></div>",
            esc(&pos.to_string())
        );
    }
    s.push_str(&filter_script(labels));
    s.push_str("</body></html>\n");
    s
}

fn anchor(file: &str) -> String {
    file.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::Rank;

    #[test]
    fn board_has_every_piece() {
        let pos = Position::startpos();
        let svg = board_svg(
            &pos,
            "h2e2".parse().ok(),
            &[Square::at(File::new(0).unwrap(), Rank::new(0).unwrap())],
            Lang::En,
        );
        assert_eq!(svg.matches("<g>").count(), 32);
        for (glyph, count) in [
            ('帥', 1),
            ('將', 1),
            ('俥', 2),
            ('車', 2),
            ('砲', 2),
            ('兵', 5),
        ] {
            assert_eq!(svg.matches(glyph).count(), count, "{glyph}");
        }
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert_eq!(esc("<a&\"b\">"), "&lt;a&amp;&quot;b&quot;&gt;");
    }

    #[test]
    fn legend_names_every_glyph() {
        let legend = render::legend(glyph, Lang::En);
        for glyph in "帥仕相傌俥炮兵將士象馬車砲卒".chars() {
            assert_eq!(legend.matches(glyph).count(), 1, "{glyph} in {legend}");
        }
        assert!(legend.contains("俥 rook (R)"), "{legend}");
    }

    /// Two games judged: a quiet one, and one Red loses by perpetual check.
    fn two_games() -> Vec<GameReport> {
        let games = "[Event \"quiet\"]\n\n1. h2e2 h9g7 *\n\n[Event \"checks\"]\n[FEN \"c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w - - 0 1\"]\n\nh8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 *\n";
        crate::referee::judge_bytes(
            "games.pgn",
            games.as_bytes(),
            crate::referee::Rules::arbiter(2),
        )
    }

    #[test]
    fn the_page_speaks_as_an_arbiter_and_carries_its_glyphs() {
        let reports = two_games();
        let page = report("games.pgn", &reports, "two games", Lang::En);
        for word in [
            "red_wins",
            "black_wins",
            "undecided",
            "no_ruling",
            "no_record_result",
        ] {
            assert!(!page.contains(word), "{word} in the page");
        }
        assert!(page.contains("<td>Black wins</td>") && page.contains("<td>no ruling</td>"));
        assert!(page.contains("楚 河") && page.contains("漢 界"));
        assert!(page.contains("@font-face") && page.contains("data:font/woff2;base64,d09GM"));
        // Nothing is fetched from elsewhere.
        for fetch in ["src=\"http", "href=\"http", "url(http"] {
            assert!(!page.contains(fetch), "{fetch}");
        }
        // The ruled game comes first in the table, though it is second in the file.
        let ruled = page.find("data-kinds=\"all ruled\"").expect("a ruled row");
        let quiet = page.find("data-kinds=\"all\"").expect("an unruled row");
        assert!(ruled < quiet);
        assert!(page.contains("<span class=\"glyph\">俥</span>"));
    }

    #[test]
    fn the_page_in_chinese_has_its_tag_labels_and_tooltips() {
        let reports = two_games();
        let hans = report("games.pgn", &reports, "", Lang::ZhHans);
        assert!(hans.contains("<html lang=\"zh-Hans\">"));
        assert!(hans.contains("裁判报告") && hans.contains("<td>黑方胜</td>"));
        assert!(hans.contains("<title>h9的红车</title>"), "a tooltip");
        let hant = report("games.pgn", &reports, "", Lang::ZhHant);
        assert!(hant.contains("<html lang=\"zh-Hant\">"));
        assert!(hant.contains("裁判報告") && hant.contains("<td>黑方勝</td>"));
        assert!(hant.contains("長將"), "the ruling");
    }

    #[test]
    fn a_cycle_row_gives_the_plies_and_moves_the_explanation_gives() {
        let reports = two_games();
        let checks = &reports[1];
        let text = render::explanation(checks, Lang::En);
        let page = report("games.pgn", &reports, "", Lang::En);
        // Red's cycle: its own moves at plies 3 and 5, in the text and in the row alike.
        assert!(
            text.contains("Red's moves at plies 3-5: h9h8, h8h9"),
            "{text}"
        );
        assert!(
            page.contains("<td>3–5</td><td>3: h9h8<br>5: h8h9</td>"),
            "{page}"
        );
        // Black's row lists Black's moves only.
        assert!(
            page.contains("<td>2–4</td><td>2: f9f8<br>4: f8f9</td>"),
            "{page}"
        );
        // In Chinese, each move in Chinese notation beside its ICCS, in the script's characters.
        let hans = report("games.pgn", &reports, "", Lang::ZhHans);
        assert!(hans.contains("3: 车二退一（h9h8）"), "{hans}");
        let hant = report("games.pgn", &reports, "", Lang::ZhHant);
        assert!(
            hant.contains("3: 車二退一（h9h8）<br>5: 車二進一（h8h9）"),
            "{hant}"
        );
    }
}
