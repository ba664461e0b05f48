//! A tag's value read into its column's type: an Elo or rating change, a date as days
//! since 1970-01-01, a time of day as seconds; `None` for a value that does not fit.

/// A value that fits an i16 column.
pub(super) fn short(v: Option<i32>) -> Option<i16> {
    v.and_then(|v| i16::try_from(v).ok())
}

/// An Elo or rating change: `1500`, `+6`, `-13` (within an i16); one sign at most
/// (`+-3` and `--3` fit nothing).
pub(super) fn read_i16(v: &str) -> Option<i32> {
    let v = v.trim();
    let (negative, digits) = match v.as_bytes().first() {
        Some(b'+') => (false, &v[1..]),
        Some(b'-') => (true, &v[1..]),
        _ => (false, v),
    };
    let n = number(digits)?;
    let n = if negative { -n } else { n };
    i16::try_from(n).ok().map(i32::from)
}

/// A number of decimal digits only (no sign, no blank), within an i32.
fn number(digits: &str) -> Option<i32> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// `YYYY.MM.DD` as days since 1970-01-01.
pub(super) fn read_date(v: &str) -> Option<i32> {
    let mut parts = v.trim().split(['.', '-', '/']);
    let y = i64::from(number(parts.next()?)?);
    let m = number(parts.next()?)? as u32;
    let d = number(parts.next()?)? as u32;
    if parts.next().is_some() || !(1..=12).contains(&m) || d == 0 || d > days_in(y, m) {
        return None;
    }
    i32::try_from(days_from_civil(y, m, d)).ok()
}

fn days_in(y: i64, m: u32) -> u32 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
pub(crate) fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `HH:MM:SS` as seconds since midnight (a time32 column's range: a leap second
/// `23:59:60` fits nothing).
pub(super) fn read_time(v: &str) -> Option<i32> {
    let mut parts = v.trim().split(':');
    let h = number(parts.next()?)?;
    let m = number(parts.next()?)?;
    let s = number(parts.next()?)?;
    (parts.next().is_none() && (0..24).contains(&h) && (0..60).contains(&m) && (0..60).contains(&s))
        .then_some(h * 3600 + m * 60 + s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_fit_their_columns_or_nothing() {
        for (v, n) in [
            ("1500", Some(1500)),
            (" +6 ", Some(6)),
            ("-13", Some(-13)),
            ("0", Some(0)),
            ("32767", Some(32_767)),
            ("-32768", Some(-32_768)),
            ("32768", None),
            ("+-3", None),
            ("-+3", None),
            ("--3", None),
            ("++3", None),
            ("+", None),
            ("?", None),
            ("15 00", None),
            ("1500.0", None),
        ] {
            assert_eq!(read_i16(v), n, "{v:?}");
        }
        for (v, secs) in [
            ("00:00:00", Some(0)),
            ("23:59:59", Some(86_399)),
            ("8:05:03", Some(8 * 3600 + 5 * 60 + 3)),
            ("23:59:60", None),
            ("24:00:00", None),
            ("12:60:00", None),
            ("+1:00:00", None),
            ("-0:00:00", None),
            ("12:00", None),
            ("12:00:00:00", None),
            ("??:??:??", None),
        ] {
            assert_eq!(read_time(v), secs, "{v:?}");
        }
        assert_eq!(read_date("2024.02.29"), Some(19_782));
        assert_eq!(read_date("2024-02-29"), Some(19_782));
        for v in [
            "2023.02.29",
            "2024.+2.01",
            "2024.13.01",
            "2024.??.??",
            "+2024.01.01",
        ] {
            assert_eq!(read_date(v), None, "{v:?}");
        }
    }
}
