//! The Chinese notation (`炮二平五`, `马８进７`, `前车平一`, `二兵平六`), simplified or traditional,
//! with Chinese or Arabic numbers.

use super::relative::{Origin, PAWN, Readings, Sign, digit, kind_bit, token_chars};
use crate::piece::PieceKind;
use crate::record::describe::Direction;

fn chinese_kinds(c: char) -> Option<u8> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => kind_bit(PieceKind::King),
        '仕' | '士' => kind_bit(PieceKind::Advisor),
        '相' | '象' => kind_bit(PieceKind::Elephant),
        '马' | '馬' | '傌' | '瑪' => kind_bit(PieceKind::Horse),
        '车' | '車' | '俥' | '伡' => kind_bit(PieceKind::Rook),
        '炮' | '砲' | '包' => kind_bit(PieceKind::Cannon),
        '兵' | '卒' => PAWN,
        _ => return None,
    })
}

fn chinese_number(c: char) -> Option<u8> {
    Some(match c {
        '一' => 1,
        '二' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        '九' => 9,
        _ => return digit(c),
    })
}

fn chinese_direction(c: char) -> Option<Direction> {
    match c {
        '进' | '進' => Some(Direction::Forward),
        '退' => Some(Direction::Backward),
        '平' => Some(Direction::Sideways),
        _ => None,
    }
}

fn chinese_sign(c: char) -> Option<Sign> {
    match c {
        '前' => Some(Sign::Front),
        '中' => Some(Sign::Middle),
        '后' | '後' => Some(Sign::Rear),
        _ => None,
    }
}

/// Reads a Chinese token: piece + file + direction + number, or a tandem position (前/中/后, or
/// 一–五 among tandem pawns) + piece + direction + number, optionally with the file after the
/// piece.
pub(super) fn parse_chinese(text: &str) -> Option<Readings> {
    let chars = token_chars(text.chars().filter(|c| !matches!(c, '+' | '#' | '!' | '?')))?;
    match *chars.as_slice() {
        [a, b, c, d] => {
            let mut readings = Readings::new(chinese_direction(c)?, chinese_number(d)?);
            if let (Some(kinds), Some(f)) = (chinese_kinds(a), chinese_number(b)) {
                readings.add(0, kinds, Origin::File(f));
            } else if let (Some(s), Some(kinds)) = (chinese_sign(a), chinese_kinds(b)) {
                readings.add(0, kinds, Origin::Sign(s));
            } else if let (Some(kinds), Some(s)) = (chinese_kinds(a), chinese_sign(b)) {
                readings.add(0, kinds, Origin::Sign(s));
            } else if let (Some(k), Some(kinds)) = (chinese_number(a), chinese_kinds(b)) {
                if k > 5 {
                    return None;
                }
                readings.add(0, kinds, Origin::Tandem(k));
            } else {
                return None;
            }
            readings.finish()
        }
        [a, b, c, d, e] => {
            let mut readings = Readings::new(chinese_direction(d)?, chinese_number(e)?);
            let s = chinese_sign(a)?;
            let kinds = chinese_kinds(b)?;
            readings.add(0, kinds, Origin::FileSign(chinese_number(c)?, s));
            readings.finish()
        }
        _ => None,
    }
}
