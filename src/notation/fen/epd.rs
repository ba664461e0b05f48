//! EPD: a FEN's first four fields followed by operations (`bm Nf3; id "WAC.001";`), and
//! the perft suites' form, a whole FEN followed by `;D1 20 ;D2 400`.
//!
//! ```text
//! epd        = fields [ sep clocks ] ws operations     ; a line with a `;` is EPD
//! fields     = board [pocket] sep turn sep castling sep ep
//! operations = 1*( operation ";" )                     ; EPD (the standard's form)
//!            / 1*( ";" ws operation )                  ; perft suites
//! operation  = opcode *( ws operand )
//! opcode     = ALPHA *14( ALPHA / DIGIT / "_" )
//! operand    = DQUOTE *( not DQUOTE ) DQUOTE / 1*( not ws, not ";" )
//! ```
//!
//! `hmvc` and `fmvn` give the clocks when the fields have none. Leniency: the last
//! operation's `;` may be missing at the end of the line.

use super::parse::{FieldRes, Located};
use super::{EpdOperation, FenField};
use crate::notation::nomerr::NomErr;

/// Splits an EPD line into its fields (with the clocks, if written) and its operations;
/// `None` for a line without `;` (a FEN).
pub(super) fn split(line: &str) -> Option<(&str, &str)> {
    if !line.contains(';') {
        return None;
    }
    let b = line.as_bytes();
    let is_sep = |c: u8| matches!(c, b' ' | b'\t' | b'_');
    let mut i = 0;
    for _ in 0..4 {
        let mut j = i;
        while j < b.len() && is_sep(b[j]) {
            j += 1;
        }
        if j == b.len() || b[j] == b';' {
            break;
        }
        while j < b.len() && !is_sep(b[j]) && b[j] != b';' {
            j += 1;
        }
        i = j;
    }
    // The clocks, when written: numbers ending at a space, a `;` or the end.
    for _ in 0..2 {
        let mut j = i;
        while j < b.len() && matches!(b[j], b' ' | b'\t') {
            j += 1;
        }
        let digits = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j == digits || !(j == b.len() || matches!(b[j], b' ' | b'\t' | b';')) {
            break;
        }
        i = j;
    }
    Some((&line[..i], &line[i..]))
}

/// `opcode = ALPHA *14( ALPHA / DIGIT / "_" )`
fn is_opcode(word: &str) -> bool {
    let b = word.as_bytes();
    b.first().is_some_and(u8::is_ascii_alphabetic)
        && b.len() <= 15
        && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_')
}

/// Reads the operations (either form).
pub(super) fn operations(ops: &str) -> FieldRes<'_, Vec<EpdOperation>> {
    let err = |at, expected| {
        Err(Located {
            field: FenField::Operations,
            err: NomErr::new(at, expected),
        })
    };
    let perft = ops.starts_with(';');
    let mut out = Vec::new();
    let mut i = ops;
    loop {
        i = i.trim_start_matches([' ', '\t']);
        if perft {
            // After an operation's operands stands a `;` or the end.
            match i.strip_prefix(';') {
                Some(rest) => i = rest.trim_start_matches([' ', '\t']),
                None => break,
            }
        }
        if i.is_empty() {
            break;
        }
        let word_end = i.find([' ', '\t', ';']).unwrap_or(i.len());
        let opcode = &i[..word_end];
        if opcode.starts_with('|') {
            return Err(Located {
                field: FenField::Record,
                err: NomErr::new(i, "one board in an EPD line (no bughouse pair)"),
            });
        }
        if !is_opcode(opcode) {
            return err(
                i,
                "an EPD opcode (a letter, then up to 14 letters, digits or `_`)",
            );
        }
        i = &i[word_end..];
        let mut operands = Vec::new();
        loop {
            i = i.trim_start_matches([' ', '\t']);
            if i.is_empty() || i.starts_with(';') {
                break;
            }
            let end = if let Some(quoted) = i.strip_prefix('"') {
                match quoted.find('"') {
                    Some(n) => n + 2,
                    None => return err(i, "a `\"` closing this string operand"),
                }
            } else {
                i.find([' ', '\t', ';']).unwrap_or(i.len())
            };
            operands.push(i[..end].to_owned());
            i = &i[end..];
        }
        out.push(EpdOperation {
            opcode: opcode.to_owned(),
            operands,
        });
        // The operands end at a `;` or at the end of the line (where the last
        // operation's `;` may be missing).
        if !perft {
            match i.strip_prefix(';') {
                Some(rest) => i = rest,
                None => break,
            }
        }
    }
    Ok((i, out))
}
