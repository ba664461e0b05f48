//! Tag pairs: `[Name "value"]` read in one pass as nearly every program writes it (the
//! value's end found eight bytes at a time), any other shape by the whole grammar.

use nom::Parser;
use nom::bytes::complete::{take_while, take_while1};
use nom::character::complete::char;

/// Where a tag's parts lie, in bytes from its `[`.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct TagSpan {
    pub(super) len: usize,
    pub(super) name: std::ops::Range<usize>,
    pub(super) value: std::ops::Range<usize>,
}

/// The bytes of a tag's name: ASCII letters and digits, `_` and `-` (one load a byte).
static NAME_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        table[c] = b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
        c += 1;
    }
    table
};

/// The bytes that end a tag value's fast scan ([`common_tag_pair`]): the closing quote,
/// and the backslash and line ends that only the full grammar reads.
const STOPS: [u8; 4] = [b'"', b'\\', b'\n', b'\r'];

/// [`STOPS`] as a table, for the last bytes of a value, read one at a time.
static VALUE_STOP: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < STOPS.len() {
        table[STOPS[i] as usize] = true;
        i += 1;
    }
    table
};

/// Eight copies of a byte.
const fn splat(b: u8) -> u64 {
    0x0101_0101_0101_0101 * b as u64
}

/// The high bit of each zero byte of `x`, and maybe of bytes above one (a borrow): the
/// lowest bit set is always that of the first zero byte.
const fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(splat(1)) & !x & splat(0x80)
}

/// Where the first of [`STOPS`] is in `i`, from `at` on: eight bytes at a time (a word
/// of the value compared with each stop at once), the last few one at a time.
#[inline]
fn value_stop(i: &[u8], mut at: usize) -> Option<usize> {
    while let Some(word) = i.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        let x = u64::from_le_bytes(*word);
        let stops = STOPS
            .iter()
            .fold(0, |found, &stop| found | zero_bytes(x ^ splat(stop)));
        if stops != 0 {
            return Some(at + stops.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    let rest = i.get(at..)?;
    rest.iter()
        .position(|&c| VALUE_STOP[usize::from(c)])
        .map(|n| at + n)
}

/// The tag pair as nearly every program writes it, `[Name "value"]` (one space, no
/// backslash in the value, the `]` right after the closing quote), read in one pass
/// over its bytes; `None` for any other shape, which [`tag_pair`] then reads by the
/// whole grammar. Where it reads a tag, it reads what the grammar reads: the same
/// length, name and value. A Lichess game's tags and start are about a fifth of its
/// validation, and this read a tag in three quarters of the instructions (209 against
/// the grammar's 278) before its value's end was searched a word at a time (about 155).
#[inline]
fn common_tag_pair(i: &[u8]) -> Option<TagSpan> {
    if i.first() != Some(&b'[') {
        return None;
    }
    let name_end = 1 + i
        .get(1..)?
        .iter()
        .position(|&c| !NAME_BYTES[usize::from(c)])?;
    if name_end == 1 || i.get(name_end..name_end + 2)? != b" \"" {
        return None;
    }
    let value_start = name_end + 2;
    let value_end = value_stop(i, value_start)?;
    (i[value_end] == b'"' && i.get(value_end + 1) == Some(&b']')).then_some(TagSpan {
        len: value_end + 2,
        name: 1..name_end,
        value: value_start..value_end,
    })
}

/// `tag = "[" name ws DQUOTE value DQUOTE ws "]"`, on bytes (the name is ASCII and the
/// value ends at an ASCII quote, so both are `str` slices of the input): the length of the
/// tag, and the name and value ranges.
/// `cr`: whether the text may hold a CR (a lone CR ends a line, so a value cannot span one).
pub(super) fn tag_pair(i: &[u8], cr: bool) -> Option<TagSpan> {
    common_tag_pair(i).or_else(|| grammar_tag_pair(i, cr))
}

/// [`tag_pair`] by the whole grammar.
fn grammar_tag_pair(i: &[u8], cr: bool) -> Option<TagSpan> {
    type R<'b, T> = nom::IResult<&'b [u8], T, ()>;
    let blanks = |i| -> R<'_, &[u8]> { take_while(|c| c == b' ' || c == b'\t').parse(i) };
    let at = |rest: &[u8]| i.len() - rest.len();
    let (rest, _) = (char('['), blanks).parse(i).ok()?;
    let name_start = at(rest);
    let (rest, _) = take_while1::<_, _, ()>(|c: u8| NAME_BYTES[usize::from(c)])
        .parse(rest)
        .ok()?;
    let name = (name_start, at(rest));
    let (rest, _) = (blanks, char('"')).parse(rest).ok()?;
    // The closing quote: jump between quotes, backslashes and line ends. A backslash
    // escapes the byte after it, but never a line end: a value stays on its line (LF, or
    // a CR, checked once the value is known).
    let value_start = at(rest);
    let mut n = 0;
    let value_end = loop {
        match memchr::memchr3(b'"', b'\\', b'\n', rest.get(n..)?)? {
            q if rest[n + q] == b'"' => break value_start + n + q,
            q if rest[n + q] == b'\\' && rest.get(n + q + 1) != Some(&b'\n') => n += q + 2,
            _ => return None,
        }
    };
    if cr && memchr::memchr(b'\r', &i[value_start..value_end]).is_some() {
        return None;
    }
    let (rest, _) = (blanks, char(']')).parse(&i[value_end + 1..]).ok()?;
    Some(TagSpan {
        len: at(rest),
        name: name.0..name.1,
        value: value_start..value_end,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_common_tag_shape_reads_as_the_grammar_reads_it() {
        let lines = [
            "[Event \"Rated Blitz game\"]",
            "[A \"\"]",
            "[UTCTime \"00:00:06\"]\n[B \"x\"]",
            "[A  \"x\"]",
            "[A \"x\" ]",
            "[ A \"x\"]",
            "[A\t\"x\"]",
            "[A \"x\\\"y\"]",
            "[A \"x\\\\\"]",
            "[A \"x\"",
            "[A \"x",
            "[A \"x\ny\"]",
            "[A \"x\ry\"]",
            "[\"x\"]",
            "[A \"x\"]]",
            "[A-b_9 \"é\"] 1. e4",
            "A \"x\"]",
            "[A",
            "[",
        ];
        let mut common = 0;
        for line in lines {
            let grammar = grammar_tag_pair(line.as_bytes(), true);
            if let Some(tag) = common_tag_pair(line.as_bytes()) {
                common += 1;
                assert_eq!(Some(tag), grammar, "{line:?}");
            }
            assert_eq!(tag_pair(line.as_bytes(), true), grammar, "{line:?}");
        }
        // The fast path reads the first three and the two after `["x"]`.
        assert_eq!(common, 5);
    }

    proptest::proptest! {
        /// The word-at-a-time search of a value's end stops where a byte-at-a-time one
        /// does, wherever the stop falls in a word, whatever the bytes before it (UTF-8,
        /// bytes of 0x80 and over, zeros) and however few follow.
        #[test]
        fn a_values_end_is_found_as_byte_by_byte(
            mut bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..40),
            stop in proptest::option::of((0usize..40, proptest::sample::select(vec![
                b'"', b'\\', b'\n', b'\r',
            ]))),
            at in 0usize..41,
        ) {
            // Any byte (a stop seldom among them), and maybe a stop put anywhere.
            if let Some((place, byte)) = stop
                && let Some(b) = bytes.get_mut(place)
            {
                *b = byte;
            }
            let bytewise = bytes
                .get(at..)
                .and_then(|r| r.iter().position(|&c| VALUE_STOP[usize::from(c)]))
                .map(|n| at + n);
            proptest::prop_assert_eq!(value_stop(&bytes, at), bytewise);
        }
    }
}
