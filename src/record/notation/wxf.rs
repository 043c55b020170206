//! WXF notation in all its dialects: official WXF (`C2=5`, `C2.5`, `+R=1`, `3+.4`, `33.4`), older
//! books (`C25`, `fC+2`), xqbase (`Pb=6`, keypad digits `62.5`) and Fairy-Stockfish (`25=6`).

use super::relative::{Origin, PAWN, Readings, Sign, TokenChars, digit, kind_bit, token_chars};
use crate::piece::PieceKind;
use crate::record::describe::Direction;

fn letter_kinds(c: char) -> Option<u8> {
    Some(match c.to_ascii_uppercase() {
        'K' => kind_bit(PieceKind::King),
        'A' => kind_bit(PieceKind::Advisor),
        'E' | 'B' | 'M' => kind_bit(PieceKind::Elephant),
        'H' | 'N' => kind_bit(PieceKind::Horse),
        'R' => kind_bit(PieceKind::Rook),
        'C' => kind_bit(PieceKind::Cannon),
        'P' | 'S' => PAWN,
        'G' => kind_bit(PieceKind::Advisor) | kind_bit(PieceKind::King),
        _ => return None,
    })
}

/// xqbase's keypad digits 1–7 = K A B N R C P.
fn keypad_kinds(c: char) -> Option<u8> {
    let d = c.to_digit(10)?;
    (1..=7)
        .contains(&d)
        .then(|| kind_bit(PieceKind::ALL[d as usize - 1]))
}

fn wxf_direction(c: char) -> Option<Direction> {
    match c {
        '+' => Some(Direction::Forward),
        '-' => Some(Direction::Backward),
        '.' | '=' => Some(Direction::Sideways),
        _ => None,
    }
}

fn sign(c: char) -> Option<Sign> {
    match c {
        '+' => Some(Sign::Front),
        '-' => Some(Sign::Rear),
        '.' => Some(Sign::Middle),
        _ => None,
    }
}

/// Reads a WXF token in any of the dialects as its possible readings.
pub(super) fn parse_wxf(text: &str) -> Option<Readings> {
    let chars = move_chars(text)?;
    match *chars.as_slice() {
        // Older books: no direction means sideways (`C25`).
        [a, b, d] => {
            let mut readings = Readings::new(Direction::Sideways, digit(d)?);
            readings.add(0, letter_kinds(a)?, Origin::File(digit(b)?));
            readings.finish()
        }
        [a, b, c, d] => {
            let mut readings = Readings::new(wxf_direction(c)?, digit(d)?);
            read_piece(a, b, c, &mut readings)?;
            readings.finish()
        }
        _ => None,
    }
}

/// The token's characters without its annotations (`!`, `?`, and a check or mate mark after a
/// four-character move).
fn move_chars(text: &str) -> Option<TokenChars> {
    let mut chars = token_chars(text.chars())?;
    while chars.len() > 3 && matches!(chars.last(), Some('!' | '?')) {
        chars.pop();
    }
    if chars.len() == 5 && matches!(chars.last(), Some('+' | '#')) {
        chars.pop();
    }
    Some(chars)
}

/// Reads the two characters that name the piece of a four-character move, `a` and `b`, before its
/// direction `c`; `None` when they name none.
fn read_piece(a: char, b: char, c: char, readings: &mut Readings) -> Option<()> {
    if matches!(a, 'f' | 'r')
        && !b.is_ascii_digit()
        && let Some(kinds) = letter_kinds(b)
    {
        // `fC+2`, `rC+2`: front and rear in older English texts.
        let s = if a == 'f' { Sign::Front } else { Sign::Rear };
        readings.add(0, kinds, Origin::Sign(s));
        Some(())
    } else if let Some(kinds) = letter_kinds(a) {
        read_letter_first(kinds, b, readings)
    } else if let Some(s) = sign(a).filter(|_| a != '.') {
        read_sign_first(a, s, b, readings)
    } else if let Some(first) = digit(a) {
        read_digit_first(a, first, b, c, readings)
    } else {
        None
    }
}

/// `C2`, `C+`, `Pb`: a piece letter, then its file, its tandem sign or (xqbase) its place `a`–`e`
/// among tandem pawns.
fn read_letter_first(kinds: u8, b: char, readings: &mut Readings) -> Option<()> {
    let origin = if let Some(f) = digit(b) {
        Origin::File(f)
    } else if let Some(s) = sign(b) {
        Origin::Sign(s)
    } else if ('a'..='e').contains(&b) {
        Origin::Tandem(b as u8 - b'a' + 1)
    } else {
        return None;
    };
    readings.add(0, kinds, origin);
    Some(())
}

/// `+R`, `-R`: a tandem sign `a` (`s`), then the piece letter; `++`, `--`: the front or rear end of
/// four or more tandem pawns.
fn read_sign_first(a: char, s: Sign, b: char, readings: &mut Readings) -> Option<()> {
    if let Some(kinds) = letter_kinds(b) {
        readings.add(0, kinds, Origin::Sign(s));
    } else if b == a {
        let s = if a == '+' {
            Sign::FrontFront
        } else {
            Sign::RearRear
        };
        readings.add(0, PAWN, Origin::Sign(s));
    } else {
        return None;
    }
    Some(())
}

/// A digit `a` (`first`) before `b`, in a move with direction `c`: a pawn's file and tandem sign
/// (`3+`), the middle of three or five pawns (`33`), a pawn's place on a file (`25`), or an xqbase
/// keypad piece with its file or sign (`62`, `6+`), each in the reading its dialect gives it.
fn read_digit_first(a: char, first: u8, b: char, c: char, readings: &mut Readings) -> Option<()> {
    if let Some(s) = sign(b) {
        readings.add(0, PAWN, Origin::FileSign(first, s));
        if let Some(kinds) = keypad_kinds(a) {
            readings.add(2, kinds, Origin::Sign(s));
        }
        return Some(());
    }
    let second = digit(b)?;
    // Official `33.4` (file 3, middle pawn) against Fairy-Stockfish `25=6` (second pawn of file
    // 5): the separator says which dialect comes first.
    let (official, fairy) = if c == '=' { (1, 0) } else { (0, 1) };
    if first == second {
        readings.add(official, PAWN, Origin::FileSign(first, Sign::Middle));
    }
    if first <= 5 {
        let origin = Origin::Place {
            file: second,
            place: first,
        };
        readings.add(fairy, PAWN, origin);
    }
    if let Some(kinds) = keypad_kinds(a) {
        readings.add(2, kinds, Origin::File(second));
    }
    Some(())
}
