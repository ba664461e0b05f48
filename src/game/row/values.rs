//! A tag's value read into its column's type: an Elo or rating change, a date as days
//! since 1970-01-01, a time of day as seconds; `None` for a value that does not fit.

/// A value that fits an i16 column.
pub(super) fn short(v: Option<i32>) -> Option<i16> {
    v.and_then(|v| i16::try_from(v).ok())
}

/// An Elo or rating change: `1500`, `+6`, `-13` (within an i16).
pub(super) fn read_i16(v: &str) -> Option<i32> {
    let v = v.trim();
    let n: i16 = v.strip_prefix('+').unwrap_or(v).parse().ok()?;
    Some(i32::from(n))
}

/// `YYYY.MM.DD` as days since 1970-01-01.
pub(super) fn read_date(v: &str) -> Option<i32> {
    let mut parts = v.trim().split(['.', '-', '/']);
    let y: i64 = parts.next()?.parse().ok()?;
    let m: u32 = parts.next()?.parse().ok()?;
    let d: u32 = parts.next()?.parse().ok()?;
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

/// `HH:MM:SS` as seconds since midnight.
pub(super) fn read_time(v: &str) -> Option<i32> {
    let mut parts = v.trim().split(':');
    let h: i32 = parts.next()?.parse().ok()?;
    let m: i32 = parts.next()?.parse().ok()?;
    let s: i32 = parts.next()?.parse().ok()?;
    (parts.next().is_none() && (0..24).contains(&h) && (0..60).contains(&m) && (0..61).contains(&s))
        .then_some(h * 3600 + m * 60 + s)
}
