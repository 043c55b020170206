//! The result a game record gives: the PGN forms and the usual Chinese words.

use crate::square::Color;

/// A game's result as its record gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordedResult {
    /// This side won.
    Win(Color),
    /// A draw.
    Draw,
}

/// Reads a recorded result: `1-0`, `0-1`, `1/2-1/2` and the usual Chinese words; `None` for `*`
/// or anything else.
pub fn parse_result(text: &str) -> Option<RecordedResult> {
    let t = text.trim();
    match t {
        "1-0" => return Some(RecordedResult::Win(Color::Red)),
        "0-1" => return Some(RecordedResult::Win(Color::Black)),
        "1/2-1/2" | "½-½" | "1/2" => return Some(RecordedResult::Draw),
        _ => {}
    }
    let red = ["红胜", "紅勝", "红方胜", "紅方勝", "红先胜", "紅先勝"];
    let black = [
        "黑胜",
        "黑勝",
        "黑方胜",
        "黑方勝",
        "红先负",
        "紅先負",
        "红负",
        "紅負",
    ];
    let draw = ["和棋", "红先和", "紅先和", "和局", "和"];
    if red.iter().any(|w| t.contains(w)) {
        Some(RecordedResult::Win(Color::Red))
    } else if black.iter().any(|w| t.contains(w)) {
        Some(RecordedResult::Win(Color::Black))
    } else if draw.iter().any(|w| t == *w || t.starts_with(w)) {
        Some(RecordedResult::Draw)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results() {
        assert_eq!(parse_result("1-0"), Some(RecordedResult::Win(Color::Red)));
        assert_eq!(
            parse_result(" 0-1 "),
            Some(RecordedResult::Win(Color::Black))
        );
        assert_eq!(parse_result("1/2-1/2"), Some(RecordedResult::Draw));
        assert_eq!(
            parse_result("红先负"),
            Some(RecordedResult::Win(Color::Black))
        );
        assert_eq!(parse_result("和棋"), Some(RecordedResult::Draw));
        assert_eq!(parse_result("*"), None);
    }
}
