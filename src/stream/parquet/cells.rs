//! A Parquet column's cells read as tags' values, whatever type the file's writer gave
//! the column: Lichess's own types (strings, `int16`, `date32`, `time32`), and those
//! other writers give the same data (pandas' timestamps and floats, Polars'
//! Categorical and pyarrow's dictionaries, binary strings, decimals).

use std::borrow::Cow;
use std::fmt::Write as _;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    ArrowPrimitiveType, Date32Type, Date64Type, Decimal32Type, Decimal64Type, Decimal128Type,
    Decimal256Type, DecimalType, Float16Type, Float32Type, Float64Type, Int8Type, Int16Type,
    Int32Type, Int64Type, Time32MillisecondType, Time32SecondType, Time64MicrosecondType,
    Time64NanosecondType, TimestampMicrosecondType, TimestampMillisecondType,
    TimestampNanosecondType, TimestampSecondType, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{
    Array, BinaryArray, BinaryViewArray, Date32Array, Date64Array, Float16Array, Float32Array,
    Float64Array, Int8Array, Int16Array, Int32Array, Int64Array, LargeBinaryArray,
    LargeStringArray, PrimitiveArray, StringArray, StringViewArray, Time32MillisecondArray,
    Time32SecondArray, Time64MicrosecondArray, Time64NanosecondArray, UInt8Array, UInt16Array,
    UInt32Array, UInt64Array,
};
use arrow_schema::{DataType, TimeUnit};

/// How a column's value is written as its tag's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// As it is.
    Text,
    /// A rating difference: `+6` for a positive one.
    Signed,
    /// A date: a timestamp gives its day.
    Date,
    /// A time of day: a timestamp gives its time.
    Time,
}

impl Kind {
    /// How the value of column `name` is written.
    pub(super) fn of(name: &str) -> Kind {
        match name {
            _ if name.ends_with("RatingDiff") => Kind::Signed,
            "UTCDate" | "Date" => Kind::Date,
            "UTCTime" => Kind::Time,
            _ => Kind::Text,
        }
    }
}

/// Whether a column of type `t` holds text (`movetext` must): a string, binary or
/// null column, or a dictionary of these.
pub(super) fn holds_text(t: &DataType) -> bool {
    match t {
        DataType::Utf8
        | DataType::LargeUtf8
        | DataType::Utf8View
        | DataType::Binary
        | DataType::LargeBinary
        | DataType::BinaryView
        | DataType::Null => true,
        DataType::Dictionary(key, values) => {
            key.is_integer() && !matches!(**values, DataType::Dictionary(..)) && holds_text(values)
        }
        _ => false,
    }
}

/// Whether a column of type `t` can give a tag's value (what [`Cells::new`] reads).
pub(super) fn gives_values(t: &DataType) -> bool {
    match t {
        DataType::Boolean
        | DataType::Int8
        | DataType::Int16
        | DataType::Int32
        | DataType::Int64
        | DataType::UInt8
        | DataType::UInt16
        | DataType::UInt32
        | DataType::UInt64
        | DataType::Float16
        | DataType::Float32
        | DataType::Float64
        | DataType::Decimal32(..)
        | DataType::Decimal64(..)
        | DataType::Decimal128(..)
        | DataType::Decimal256(..)
        | DataType::Date32
        | DataType::Date64
        | DataType::Time32(TimeUnit::Second | TimeUnit::Millisecond)
        | DataType::Time64(TimeUnit::Microsecond | TimeUnit::Nanosecond)
        | DataType::Timestamp(..) => true,
        DataType::Dictionary(key, values) => {
            key.is_integer()
                && !matches!(**values, DataType::Dictionary(..))
                && gives_values(values)
        }
        t => holds_text(t),
    }
}

/// What the types [`gives_values`] accepts are, for a message that refuses a column.
pub(super) const READ_TYPES: &str = "strings, binaries, integers, floats, decimals, \
    booleans, dates, times, timestamps, and dictionaries (categoricals) of these";

/// A column's cells, their type resolved once a batch: a cell is then read without a
/// dynamic call or a downcast (a row's tags are read for every game).
#[derive(Debug)]
pub(super) enum Cells {
    Utf8(StringArray),
    LargeUtf8(LargeStringArray),
    View(StringViewArray),
    Binary(BinaryArray),
    LargeBinary(LargeBinaryArray),
    BinaryView(BinaryViewArray),
    /// A dictionary's (a categorical's): each row's index into its values, `None` when
    /// the row is null.
    Dict {
        keys: Vec<Option<usize>>,
        values: Box<Cells>,
    },
    I8(Int8Array),
    I16(Int16Array),
    I32(Int32Array),
    I64(Int64Array),
    U8(UInt8Array),
    U16(UInt16Array),
    U32(UInt32Array),
    U64(UInt64Array),
    F16(Float16Array),
    F32(Float32Array),
    F64(Float64Array),
    Date32(Date32Array),
    Date64(Date64Array),
    Time32S(Time32SecondArray),
    Time32Ms(Time32MillisecondArray),
    Time64Us(Time64MicrosecondArray),
    Time64Ns(Time64NanosecondArray),
    /// A timestamp's seconds since 1970-01-01 00:00:00 UTC (its day and time are UTC's,
    /// whatever its time zone).
    Seconds(Vec<Option<i64>>),
    /// Values written once a batch, as a decimal or a boolean is (rare types).
    Texts(Vec<Option<String>>),
    /// No values: a null column, or one of a type [`gives_values`] refuses.
    Nothing,
}

/// A primitive cell, `None` when null.
#[inline]
fn cell<T: ArrowPrimitiveType>(a: &PrimitiveArray<T>, i: usize) -> Option<T::Native> {
    (!a.is_null(i)).then(|| a.value(i))
}

/// A timestamp column's seconds, from its ticks of `per_second`.
fn seconds<T: ArrowPrimitiveType<Native = i64>>(a: &PrimitiveArray<T>, per_second: i64) -> Cells {
    Cells::Seconds(
        (0..a.len())
            .map(|i| cell(a, i).map(|t| t.div_euclid(per_second)))
            .collect(),
    )
}

/// A decimal column's values, written without trailing zeros (`1500.00` is `1500`).
fn decimals<T: DecimalType>(a: &PrimitiveArray<T>, precision: u8, scale: i8) -> Cells {
    Cells::Texts(
        (0..a.len())
            .map(|i| {
                cell(a, i).map(|v| {
                    let mut text = T::format_decimal(v, precision, scale);
                    if text.contains('.') {
                        let kept = text.trim_end_matches('0').trim_end_matches('.').len();
                        text.truncate(kept);
                    }
                    text
                })
            })
            .collect(),
    )
}

impl Cells {
    /// The cells of `column` (its arrays' buffers shared, not copied, but for rare
    /// types).
    pub(super) fn new(column: &dyn Array) -> Cells {
        match column.data_type() {
            DataType::Utf8 => Cells::Utf8(column.as_string::<i32>().clone()),
            DataType::LargeUtf8 => Cells::LargeUtf8(column.as_string::<i64>().clone()),
            DataType::Utf8View => Cells::View(column.as_string_view().clone()),
            DataType::Binary => Cells::Binary(column.as_binary::<i32>().clone()),
            DataType::LargeBinary => Cells::LargeBinary(column.as_binary::<i64>().clone()),
            DataType::BinaryView => Cells::BinaryView(column.as_binary_view().clone()),
            DataType::Dictionary(..) if gives_values(column.data_type()) => {
                let Some(d) = column.as_any_dictionary_opt() else {
                    return Cells::Nothing;
                };
                if d.values().is_empty() {
                    // Every row null (a dictionary without values has no key to give).
                    return Cells::Nothing;
                }
                let keys = d
                    .normalized_keys()
                    .into_iter()
                    .enumerate()
                    .map(|(i, k)| (!column.is_null(i)).then_some(k))
                    .collect();
                Cells::Dict {
                    keys,
                    values: Box::new(Cells::new(d.values().as_ref())),
                }
            }
            DataType::Boolean => {
                let a = column.as_boolean();
                Cells::Texts(
                    (0..a.len())
                        .map(|i| (!a.is_null(i)).then(|| a.value(i).to_string()))
                        .collect(),
                )
            }
            DataType::Int8 => Cells::I8(column.as_primitive::<Int8Type>().clone()),
            DataType::Int16 => Cells::I16(column.as_primitive::<Int16Type>().clone()),
            DataType::Int32 => Cells::I32(column.as_primitive::<Int32Type>().clone()),
            DataType::Int64 => Cells::I64(column.as_primitive::<Int64Type>().clone()),
            DataType::UInt8 => Cells::U8(column.as_primitive::<UInt8Type>().clone()),
            DataType::UInt16 => Cells::U16(column.as_primitive::<UInt16Type>().clone()),
            DataType::UInt32 => Cells::U32(column.as_primitive::<UInt32Type>().clone()),
            DataType::UInt64 => Cells::U64(column.as_primitive::<UInt64Type>().clone()),
            DataType::Float16 => Cells::F16(column.as_primitive::<Float16Type>().clone()),
            DataType::Float32 => Cells::F32(column.as_primitive::<Float32Type>().clone()),
            DataType::Float64 => Cells::F64(column.as_primitive::<Float64Type>().clone()),
            &DataType::Decimal32(p, s) => decimals(column.as_primitive::<Decimal32Type>(), p, s),
            &DataType::Decimal64(p, s) => decimals(column.as_primitive::<Decimal64Type>(), p, s),
            &DataType::Decimal128(p, s) => decimals(column.as_primitive::<Decimal128Type>(), p, s),
            &DataType::Decimal256(p, s) => decimals(column.as_primitive::<Decimal256Type>(), p, s),
            DataType::Date32 => Cells::Date32(column.as_primitive::<Date32Type>().clone()),
            DataType::Date64 => Cells::Date64(column.as_primitive::<Date64Type>().clone()),
            DataType::Time32(TimeUnit::Second) => {
                Cells::Time32S(column.as_primitive::<Time32SecondType>().clone())
            }
            DataType::Time32(TimeUnit::Millisecond) => {
                Cells::Time32Ms(column.as_primitive::<Time32MillisecondType>().clone())
            }
            DataType::Time64(TimeUnit::Microsecond) => {
                Cells::Time64Us(column.as_primitive::<Time64MicrosecondType>().clone())
            }
            DataType::Time64(TimeUnit::Nanosecond) => {
                Cells::Time64Ns(column.as_primitive::<Time64NanosecondType>().clone())
            }
            DataType::Timestamp(TimeUnit::Second, _) => {
                seconds(column.as_primitive::<TimestampSecondType>(), 1)
            }
            DataType::Timestamp(TimeUnit::Millisecond, _) => {
                seconds(column.as_primitive::<TimestampMillisecondType>(), 1_000)
            }
            DataType::Timestamp(TimeUnit::Microsecond, _) => {
                seconds(column.as_primitive::<TimestampMicrosecondType>(), 1_000_000)
            }
            DataType::Timestamp(TimeUnit::Nanosecond, _) => seconds(
                column.as_primitive::<TimestampNanosecondType>(),
                1_000_000_000,
            ),
            _ => Cells::Nothing,
        }
    }

    /// Row `i`'s text, if the column holds text and the cell is not null: a binary
    /// cell's bytes as UTF-8 (bytes that are not UTF-8 as U+FFFD, as a text file's
    /// are read).
    #[inline]
    pub(super) fn str(&self, i: usize) -> Option<Cow<'_, str>> {
        match self {
            Cells::Utf8(a) => (!a.is_null(i)).then(|| Cow::Borrowed(a.value(i))),
            Cells::LargeUtf8(a) => (!a.is_null(i)).then(|| Cow::Borrowed(a.value(i))),
            Cells::View(a) => (!a.is_null(i)).then(|| Cow::Borrowed(a.value(i))),
            Cells::Binary(a) => (!a.is_null(i)).then(|| String::from_utf8_lossy(a.value(i))),
            Cells::LargeBinary(a) => (!a.is_null(i)).then(|| String::from_utf8_lossy(a.value(i))),
            Cells::BinaryView(a) => (!a.is_null(i)).then(|| String::from_utf8_lossy(a.value(i))),
            Cells::Dict { keys, values } => {
                keys.get(i).copied().flatten().and_then(|k| values.str(k))
            }
            _ => None,
        }
    }

    /// Appends row `i`'s cell as a tag's value, written as `kind` says: a string
    /// escaped, a number (an integral float as an integer), a date `YYYY.MM.DD` or a
    /// time `HH:MM:SS`. `false` (nothing appended): null, or a type no tag is written
    /// from.
    pub(super) fn push(&self, out: &mut String, i: usize, kind: Kind) -> bool {
        let number = |out: &mut String, n: i64| {
            if n < 0 {
                out.push('-');
            } else if kind == Kind::Signed && n > 0 {
                out.push('+');
            }
            push_digits(out, n.unsigned_abs());
        };
        // NaN is a missing value (as pandas and Polars write one): no tag.
        let float = |out: &mut String, f: f64, text: &dyn std::fmt::Display| {
            // Integral and within i64 (2^63 is the first float outside it).
            if f.is_finite() && f.fract() == 0.0 && f.abs() < 9_223_372_036_854_775_808.0 {
                number(out, f as i64);
            } else {
                let _ = write!(out, "{text}");
            }
        };
        let written = match self {
            Cells::Utf8(_)
            | Cells::LargeUtf8(_)
            | Cells::View(_)
            | Cells::Binary(_)
            | Cells::LargeBinary(_)
            | Cells::BinaryView(_) => self.str(i).map(|text| push_value(out, &text)),
            Cells::Dict { keys, values } => {
                return keys
                    .get(i)
                    .copied()
                    .flatten()
                    .is_some_and(|k| values.push(out, k, kind));
            }
            Cells::I8(a) => cell(a, i).map(|n| number(out, n.into())),
            Cells::I16(a) => cell(a, i).map(|n| number(out, n.into())),
            Cells::I32(a) => cell(a, i).map(|n| number(out, n.into())),
            Cells::I64(a) => cell(a, i).map(|n| number(out, n)),
            Cells::U8(a) => cell(a, i).map(|n| number(out, n.into())),
            Cells::U16(a) => cell(a, i).map(|n| number(out, n.into())),
            Cells::U32(a) => cell(a, i).map(|n| number(out, n.into())),
            Cells::U64(a) => cell(a, i).map(|n| {
                if kind == Kind::Signed && n > 0 {
                    out.push('+');
                }
                push_digits(out, n);
            }),
            Cells::F16(a) => cell(a, i)
                .filter(|f| !f.is_nan())
                .map(|f| float(out, f64::from(f), &f)),
            Cells::F32(a) => cell(a, i)
                .filter(|f| !f.is_nan())
                .map(|f| float(out, f.into(), &f)),
            Cells::F64(a) => cell(a, i)
                .filter(|f| !f.is_nan())
                .map(|f| float(out, f, &f)),
            Cells::Date32(a) => cell(a, i).map(|d| push_date(out, d.into())),
            Cells::Date64(a) => cell(a, i).map(|ms| push_date(out, ms.div_euclid(86_400_000))),
            Cells::Time32S(a) => cell(a, i).map(|s| push_time(out, s.into())),
            Cells::Time32Ms(a) => {
                cell(a, i).map(|ms| push_time(out, i64::from(ms).div_euclid(1000)))
            }
            Cells::Time64Us(a) => cell(a, i).map(|us| push_time(out, us.div_euclid(1_000_000))),
            Cells::Time64Ns(a) => cell(a, i).map(|ns| push_time(out, ns.div_euclid(1_000_000_000))),
            Cells::Seconds(s) => s.get(i).copied().flatten().map(|secs| match kind {
                Kind::Time => push_time(out, secs),
                Kind::Date => push_date(out, secs.div_euclid(86_400)),
                Kind::Text | Kind::Signed => {
                    push_date(out, secs.div_euclid(86_400));
                    out.push(' ');
                    push_time(out, secs);
                }
            }),
            Cells::Texts(t) => t
                .get(i)
                .and_then(Option::as_deref)
                .map(|text| push_value(out, text)),
            Cells::Nothing => None,
        };
        written.is_some()
    }
}

/// The date of a day since 1970-01-01 (Howard Hinnant's algorithm).
pub(crate) fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Appends the decimal digits of `n`, without the formatting machinery (a row's
/// ratings, date and time are written for every game read).
fn push_digits(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
}

/// Appends `n`, which is below `10^width` (and `width` at most 4), in `width` digits,
/// zeros before.
fn push_padded(out: &mut String, n: u32, width: usize) {
    let digits = [n / 1000 % 10, n / 100 % 10, n / 10 % 10, n % 10].map(|d| b'0' + d as u8);
    out.push_str(std::str::from_utf8(&digits[4 - width.min(4)..]).unwrap_or_default());
}

/// Appends a day as `YYYY.MM.DD` (a year outside 0 to 9999 as Rust writes `{:04}`).
pub(super) fn push_date(out: &mut String, days: i64) {
    let (y, m, d) = civil_from_days(days);
    match u32::try_from(y) {
        Ok(y) if y < 10_000 => push_padded(out, y, 4),
        _ => {
            use std::fmt::Write as _;
            let _ = write!(out, "{y:04}");
        }
    }
    out.push('.');
    push_padded(out, m, 2);
    out.push('.');
    push_padded(out, d, 2);
}

/// Appends a time of day as `HH:MM:SS`.
pub(super) fn push_time(out: &mut String, secs: i64) {
    let s = secs.rem_euclid(86_400) as u32;
    push_padded(out, s / 3600, 2);
    out.push(':');
    push_padded(out, s / 60 % 60, 2);
    out.push(':');
    push_padded(out, s % 60, 2);
}

/// Appends `value` as a tag value: quotes and backslashes escaped, line ends as spaces.
fn push_value(out: &mut String, value: &str) {
    if !value
        .bytes()
        .any(|b| matches!(b, b'"' | b'\\' | b'\n' | b'\r'))
    {
        out.push_str(value);
        return;
    }
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
}
