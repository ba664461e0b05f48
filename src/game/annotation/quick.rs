//! The in-place readings of the comments Lichess writes after almost every move (a
//! clock alone, an evaluation and a clock), and of the common shapes of a clock's and
//! an evaluation's value: each gives exactly what the general reading
//! ([`read_annotations`](super::read_annotations) and its grammar) gives, or `None` and
//! leaves the text to it.

use std::time::Duration;

use super::Eval;

/// ` H:MM:SS`, ` M:SS` or ` S`: digits only, one blank before (as Lichess writes a
/// clock); `None` for anything else, which the grammar reads.
pub(super) fn quick_time(value: &str) -> Option<Duration> {
    let v = value.as_bytes().strip_prefix(b" ")?;
    let (mut secs, mut field, mut digits, mut fields) = (0u64, 0u64, 0, 1);
    for &b in v {
        match b {
            b'0'..=b'9' if digits < 6 => {
                field = field * 10 + u64::from(b - b'0');
                digits += 1;
            }
            // Minutes after the hours below 60 (the first field is unbounded).
            b':' if digits > 0 && fields < 3 && (fields == 1 || field < 60) => {
                secs = secs * 60 + field;
                (field, digits, fields) = (0, 0, fields + 1);
            }
            _ => return None,
        }
    }
    (digits > 0 && (fields == 1 || field < 60)).then(|| Duration::from_secs(secs * 60 + field))
}

/// The clock of a comment that is nothing but one (` [%clk 0:03:00] `, as Lichess
/// writes one after every move), read without the general walk over its commands; `None`
/// for any other comment, which [`read_annotations`](super::read_annotations) reads.
/// When it gives a clock, that clock is all the general reading finds there.
pub(crate) fn lone_clock(comment: &str) -> Option<Duration> {
    if let Some(secs) = lichess_clock(comment.as_bytes()) {
        return Some(Duration::from_secs(secs));
    }
    let command = comment.trim_ascii().strip_prefix("[%clk")?;
    quick_time(command.strip_suffix(']')?)
}

/// The seconds of a comment that is Lichess's clock to the byte: ` [%clk H:MM:SS] `,
/// sixteen bytes whose digits sit in known places (what [`quick_time`] makes of them);
/// `None` for anything else.
#[inline]
fn lichess_clock(comment: &[u8]) -> Option<u64> {
    let b: &[u8; 16] = comment.try_into().ok()?;
    if b[..7] != *b" [%clk " || b[8] != b':' || b[11] != b':' || b[14..] != *b"] " {
        return None;
    }
    let digit = |i: usize| {
        let d = b[i].wrapping_sub(b'0');
        (d < 10).then_some(u64::from(d))
    };
    let (h, m, s) = (
        digit(7)?,
        digit(9)? * 10 + digit(10)?,
        digit(12)? * 10 + digit(13)?,
    );
    (m < 60 && s < 60).then_some((h * 60 + m) * 60 + s)
}

/// The evaluation and clock of a comment that is Lichess's analysed move to the byte,
/// ` [%eval V] [%clk H:MM:SS] ` (V as [`quick_eval`] takes it, the clock as
/// [`lichess_clock`] reads it), without the general walk over its commands; `None` for
/// any other comment, which [`read_annotations`](super::read_annotations) reads. When
/// it gives them, they are all that the general reading finds there.
pub(crate) fn lichess_eval_clock(comment: &str) -> Option<(Eval, Duration)> {
    let cut = comment.len().checked_sub(16)?;
    let secs = lichess_clock(comment.as_bytes().get(cut..)?)?;
    let value = comment
        .get(..cut)?
        .strip_prefix(" [%eval")?
        .strip_suffix(']')?;
    let (eval, _) = quick_eval(value)?;
    Some((eval, Duration::from_secs(secs)))
}

/// ` [-]D[.D]` or ` #[-]D`; `None` for anything else.
pub(super) fn quick_eval(value: &str) -> Option<(Eval, Option<u32>)> {
    let v = value.strip_prefix(' ')?;
    let (mate, number) = match v.strip_prefix('#') {
        Some(n) => (true, n),
        None => (false, v),
    };
    let digits = number.strip_prefix('-').unwrap_or(number);
    // (The point found a byte at a time: a string search costs more on four bytes.)
    let (int, fraction) = match digits.bytes().position(|b| b == b'.') {
        Some(at) => (&digits[..at], Some(&digits[at + 1..])),
        None => (digits, None),
    };
    let all_digits =
        |s: &str| !s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(int) || fraction.is_some_and(|f| mate || !all_digits(f)) {
        return None;
    }
    // At most nine digits each: their number fits an i32.
    let value = |s: &str| s.bytes().fold(0i64, |n, b| n * 10 + i64::from(b - b'0'));
    let sign = if number.starts_with('-') { -1 } else { 1 };
    if mate {
        return Some((Eval::Mate((sign * value(int)) as i32), None));
    }
    // Up to two decimals (Lichess writes two) the centipawns are the digits themselves,
    // which is what rounding the pawns' hundredfold gives: no number read as a float.
    let centipawns = match fraction.map_or(0, str::len) {
        0..=2 => {
            let hundredths = fraction.map_or(0, |f| value(f) * if f.len() == 1 { 10 } else { 1 });
            sign * (value(int) * 100 + hundredths).min(1_000_000_000)
        }
        _ => {
            let pawns: f64 = number.parse().ok()?;
            (pawns * 100.0).round().clamp(-1e9, 1e9) as i64
        }
    };
    Some((Eval::Centipawns(centipawns as i32), None))
}

#[cfg(test)]
mod tests {
    use super::super::{Annotations, eval, read_annotations, read_eval, read_time, time, whole};
    use super::*;

    /// The quick readings of clocks and evaluations give what the grammar gives, on
    /// every value they take, and leave the others to it.
    #[test]
    fn quick_readings_agree_with_the_grammar() {
        let mut times = vec![
            " 0:03:00", " 1:00:00", " 59", " 1:2:3", " 0:00:30", " 10:00", " 123456",
        ];
        let odd = [
            " 1:00:00:00",
            " 0:00:01.5",
            "0:01",
            " 0:01 ",
            " :01",
            " 1::2",
            " x",
            " 1234567",
            // Past u64: the grammar refuses it, the quick reading must not overflow.
            " 99999999999999999999999",
            // Minutes and seconds of 60 and more, hours of 24 after days: no time.
            " 0:75:99",
            " 0:60:00",
            " 1:00:60",
            " 5:60",
            " 1:24:00:00",
        ];
        times.extend(odd);
        for v in [" 0:75:99", " 0:60:00", " 1:00:60", " 5:60", " 1:24:00:00"] {
            assert_eq!(whole(v, time), None, "{v:?}");
        }
        assert_eq!(lichess_clock(b" [%clk 0:75:99] "), None);
        assert_eq!(
            lone_clock(" [%clk 0:59:59] "),
            Some(Duration::from_secs(3599))
        );
        assert_eq!(
            lone_clock(" [%clk 99:59] "),
            Some(Duration::from_secs(99 * 60 + 59))
        );
        for v in times {
            let grammar = whole(v, time);
            match quick_time(v) {
                Some(t) => assert_eq!(Some(t), grammar, "{v:?}"),
                None => assert!(odd.contains(&v), "{v:?} left to the grammar"),
            }
            assert_eq!(read_time(v), grammar, "{v:?}");
        }
        let mut evals = vec![
            " 0.25", " -1.3", " 12", " -0.05", " #3", " #-12", " 0.005", " 3.14159",
        ];
        let odd = [
            " 0.25,18",
            " +0.3",
            " 1.",
            " .5",
            " #1.5",
            " 1e5",
            "0.3",
            " #",
            " -",
            " 1234567890",
        ];
        evals.extend(odd);
        // Every count of decimals around the two read without a float, both signs, up
        // to the nine digits the quick reading takes.
        let mut numbers = Vec::new();
        for int in ["0", "1", "7", "12", "99", "12345", "9999999", "999999999"] {
            for fraction in ["", ".0", ".5", ".05", ".29", ".99", ".995", ".125", ".01"] {
                for sign in ["", "-"] {
                    numbers.push(format!(" {sign}{int}{fraction}"));
                }
            }
        }
        numbers.extend([" 007.5", " -00.25", " #000000001"].map(String::from));
        for n in ["0", "1", "12", "999999999"] {
            for sign in ["", "-"] {
                numbers.push(format!(" #{sign}{n}"));
            }
        }
        evals.extend(numbers.iter().map(String::as_str));
        for v in evals {
            let grammar = whole(v, eval);
            match quick_eval(v) {
                Some(e) => assert_eq!(Some(e), grammar, "{v:?}"),
                None => assert!(odd.contains(&v), "{v:?} left to the grammar"),
            }
            assert_eq!(read_eval(v), grammar, "{v:?}");
        }
    }

    /// A lone clock is read as the general walk reads it, and only where that walk
    /// finds nothing else.
    #[test]
    fn lone_clocks_read_as_the_walk_reads_them() {
        let comments = [
            " [%clk 0:03:00] ",
            "[%clk 1:02:03]",
            "\n[%clk 59]\t",
            " [%clk 0:00:09.5] ",
            " [%clk 0:03:00]x",
            " [%clk 0:03:00] [%clk 0:02:00] ",
            " [%clkc 0:03:00] ",
            " [%clk  0:03:00] ",
            " [%clk 0:03:00 ] ",
            " [%clk 1:2:3:4] ",
            " [%clk] ",
            " [%clk ] ",
            " [%eval 0.2] [%clk 0:01:00] ",
            "[%clk 0:01:00] [%eval #3]",
            " [%clk 0:0a:00] ",
            "",
        ];
        let mut lone = 0;
        for text in comments {
            let (notes, errors) = read_annotations(text);
            if let Some(clock) = lone_clock(text) {
                lone += 1;
                let alone = Annotations {
                    clock: Some(clock),
                    ..Annotations::default()
                };
                assert_eq!((notes, errors.len()), (alone, 0), "{text:?}");
            }
        }
        assert_eq!(lone, 3);
    }

    /// Lichess's clock read in place gives what the general reading gives, and nothing
    /// where a byte of its shape is off.
    #[test]
    fn lichess_clocks_read_in_place_as_quick_time_reads_them() {
        let mut read = 0;
        for secs in (0..36_000).step_by(7).chain([35_999, 59, 60, 3599, 3600]) {
            let text = format!(
                " [%clk {}:{:02}:{:02}] ",
                secs / 3600,
                secs / 60 % 60,
                secs % 60
            );
            assert_eq!(lichess_clock(text.as_bytes()), Some(secs), "{text:?}");
            assert_eq!(lone_clock(&text), Some(Duration::from_secs(secs)));
            // Any byte changed to one of a few others: the shape holds (and the clock
            // is quick_time's) or it is not read in place.
            for at in 0..text.len() {
                for with in [b'0', b'9', b':', b' ', b'a', b']', b'/'] {
                    let mut b = text.clone().into_bytes();
                    b[at] = with;
                    let changed = String::from_utf8(b).unwrap();
                    // The general reading, as `lone_clock` reads any other comment.
                    let general = changed
                        .trim_ascii()
                        .strip_prefix("[%clk")
                        .and_then(|c| c.strip_suffix(']'))
                        .and_then(quick_time);
                    if let Some(s) = lichess_clock(changed.as_bytes()) {
                        assert_eq!(Some(Duration::from_secs(s)), general, "{changed:?}");
                        read += 1;
                    }
                    assert_eq!(lone_clock(&changed), general, "{changed:?}");
                }
            }
        }
        assert!(read > 10_000);
        for other in [
            "[%clk 0:03:00]",
            " [%clk 0:03:00]  ",
            " [%clk 00:03:00] ",
            "",
        ] {
            assert_eq!(lichess_clock(other.as_bytes()), None, "{other:?}");
        }
    }

    /// Lichess's analysed move read in place gives what the general reading gives, and
    /// nothing where a byte of its shape is off.
    #[test]
    fn lichess_evals_and_clocks_read_in_place_as_the_walk_reads_them() {
        let mut read = 0;
        for value in ["0.25", "-1.3", "#3", "#-12", "0", "-0.05", "12.99", "0.125"] {
            for clock in ["0:03:00", "1:59:59", "0:00:07"] {
                let text = format!(" [%eval {value}] [%clk {clock}] ");
                let whole = read_annotations(&text);
                let (eval, clock) = lichess_eval_clock(&text).expect(&text);
                assert_eq!(whole.0.eval, Some(eval), "{text:?}");
                assert_eq!(whole.0.clock, Some(clock), "{text:?}");
                // Any byte changed to one of a few others: the shape holds and the
                // values are the walk's, which finds nothing else, or it is not read.
                for at in 0..text.len() {
                    for with in [b'0', b'9', b':', b' ', b'#', b'-', b'.', b']', b'[', b'%'] {
                        let mut b = text.clone().into_bytes();
                        b[at] = with;
                        let changed = String::from_utf8(b).unwrap();
                        if let Some((eval, clock)) = lichess_eval_clock(&changed) {
                            let want = Annotations {
                                clock: Some(clock),
                                eval: Some(eval),
                                ..Annotations::default()
                            };
                            let (notes, errors) = read_annotations(&changed);
                            assert_eq!((notes, errors.len()), (want, 0), "{changed:?}");
                            read += 1;
                        }
                    }
                }
            }
        }
        assert!(read > 500, "{read}");
        for other in [
            " [%eval 0.25] [%clk 0:03:00]",
            " [%eval 0.25,18] [%clk 0:03:00] ",
            " [%eval 0.25]  [%clk 0:03:00] ",
            "[%eval 0.25] [%clk 0:03:00] ",
            " [%eval] [%clk 0:03:00] ",
            " [%clk 0:03:00] ",
            "",
        ] {
            assert_eq!(lichess_eval_clock(other), None, "{other:?}");
        }
    }
}
