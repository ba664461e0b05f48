//! Parquet files as archives (the `parquet` feature): Lichess's game tables, and the games
//! tables pocketfen writes. Each row is a game: its tags come from the columns named as
//! tags (`Event`, `Site`, `White`, `WhiteElo`, `UTCDate`…, and a games table's `variant`,
//! `fen`, bughouse's `WhiteA`…), written back as PGN (`[WhiteElo "1500"]`, `[UTCDate
//! "2024.05.01"]`), its moves from `movetext`. A game is numbered by its row (from 1;
//! in a part, from the part's first) and its lines are those of its movetext: line 1 is the
//! movetext's first, line 0 the tags. A part of a split run (`--split K/N`) is the row
//! groups that start in the K-th of N equal byte ranges of the file's row groups.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Date64Type, Int8Type, Int16Type, Int32Type, Int64Type, Time32MillisecondType,
    Time32SecondType, Time64MicrosecondType, Time64NanosecondType, UInt8Type, UInt16Type,
    UInt32Type, UInt64Type,
};
use arrow_array::{Array, RecordBatch};
use arrow_schema::{DataType, TimeUnit};
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use parquet::file::metadata::ParquetMetaData;

use super::is_standard_fen;
use super::parts::Split;
use super::source::Source;
use super::split::{Games, RawGame};

/// The columns read as tags, in the order their tags are written.
const TAG_COLUMNS: [&str; 24] = [
    "Event",
    "Site",
    "Date",
    "White",
    "Black",
    "Result",
    "WhiteTitle",
    "BlackTitle",
    "WhiteElo",
    "BlackElo",
    "WhiteRatingDiff",
    "BlackRatingDiff",
    "UTCDate",
    "UTCTime",
    "ECO",
    "Opening",
    "Termination",
    "TimeControl",
    "WhiteA",
    "BlackA",
    "WhiteB",
    "BlackB",
    // A games table's columns that name the game's start.
    "variant",
    "fen",
];

/// Bughouse's ratings, after its players.
const RATING_COLUMNS: [&str; 4] = ["WhiteAElo", "BlackAElo", "WhiteBElo", "BlackBElo"];

/// Rows decoded at once.
const BATCH_ROWS: usize = 1024;

/// Whether a file starts as a Parquet file does (`PAR1`).
fn starts_as_parquet(head: &[u8]) -> bool {
    head.starts_with(b"PAR1")
}

/// Whether `source` is a Parquet file (a regular file, or a reader that can seek back;
/// a stream is read as text).
pub(crate) fn is_parquet(source: &mut Source) -> bool {
    let mut head = [0u8; 4];
    match source {
        // Only a regular file is looked at: a FIFO's or a device's bytes, once read,
        // are gone for the text reader.
        Source::Path(p) => {
            std::fs::metadata(&*p).is_ok_and(|m| m.is_file())
                && File::open(p)
                    .and_then(|mut f| f.read_exact(&mut head))
                    .is_ok_and(|()| starts_as_parquet(&head))
        }
        Source::Seekable { reader, .. } => {
            let Ok(at) = reader.stream_position() else {
                return false;
            };
            let read = reader.read_exact(&mut head).is_ok();
            let back = reader.seek(SeekFrom::Start(at)).is_ok();
            read && back && starts_as_parquet(&head)
        }
        Source::Stdin | Source::Reader { .. } => false,
    }
}

/// Where a part of a Parquet file lies, for its `split` record.
#[derive(Debug, Clone)]
pub(crate) struct ParquetPart {
    /// The file's size.
    pub(crate) size: u64,
    /// Its modification time, in nanoseconds since 1970.
    pub(crate) modified: Option<u64>,
    /// A fingerprint of its first 4 KiB.
    pub(crate) head: u64,
    /// The byte offset and a fingerprint of the part's first row group (none past the
    /// last).
    pub(crate) start: Option<(u64, u64)>,
    /// Those of the next part's first row group (none: this part reads to the end).
    pub(crate) end: Option<(u64, u64)>,
}

/// What a part's record says of its file.
struct Facts {
    modified: Option<u64>,
    head: Vec<u8>,
    size: u64,
}

/// The games of a Parquet file's rows.
pub(crate) struct ParquetGames {
    reader: Option<ParquetRecordBatchReader>,
    batch: Option<RecordBatch>,
    /// The batch's columns that give tags, and its movetext's.
    columns: RowColumns,
    row: usize,
    /// The number the next game gets (its row, from 1).
    number: usize,
    max_game_bytes: usize,
    bytes: u64,
    stop: Option<Arc<AtomicBool>>,
    stopped: bool,
    progress: Option<Arc<dyn Fn(u64, usize) + Send + Sync>>,
    games: usize,
}

/// A row group's place and fingerprint.
fn row_group_point(meta: &ParquetMetaData, i: usize) -> (u64, u64) {
    let rg = meta.row_group(i);
    let offset = rg
        .file_offset()
        .or_else(|| (rg.num_columns() > 0).then(|| rg.column(0).data_page_offset()))
        .unwrap_or(0)
        .max(0) as u64;
    let print = super::fingerprint(
        format!("{} {} {}", offset, rg.num_rows(), rg.compressed_size()).as_bytes(),
    );
    (offset, print)
}

impl ParquetGames {
    /// Opens `source`'s rows (those of part `split`'s row groups), games over
    /// `max_game_bytes` skipped unread.
    ///
    /// # Errors
    ///
    /// A file that cannot be read or is not Parquet, or one without a `movetext`
    /// column (the message names the columns it has).
    pub(crate) fn open(
        source: Source,
        split: Option<Split>,
        max_game_bytes: usize,
    ) -> io::Result<(ParquetGames, Option<ParquetPart>)> {
        let name = source.name();
        match source {
            Source::Path(p) => {
                let mut file = File::open(&p)?;
                let modified = file
                    .metadata()
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map(|d| d.as_nanos() as u64);
                let mut head = vec![0u8; 4096];
                let n = read_up_to(&mut file, &mut head)?;
                head.truncate(n);
                file.seek(SeekFrom::Start(0))?;
                let size = file.metadata()?.len();
                let facts = Facts {
                    modified,
                    head,
                    size,
                };
                Self::from_builder(builder(file, &name)?, &facts, split, max_game_bytes)
            }
            other => {
                let mut bytes = Vec::new();
                match other {
                    Source::Seekable { mut reader, .. } => {
                        reader.read_to_end(&mut bytes)?;
                    }
                    Source::Reader { mut reader, .. } => {
                        reader.read_to_end(&mut bytes)?;
                    }
                    _ => {
                        io::stdin().lock().read_to_end(&mut bytes)?;
                    }
                }
                let file = Facts {
                    modified: None,
                    head: bytes[..bytes.len().min(4096)].to_vec(),
                    size: bytes.len() as u64,
                };
                let input = bytes::Bytes::from(bytes);
                Self::from_builder(builder(input, &name)?, &file, split, max_game_bytes)
            }
        }
    }

    fn from_builder<T: parquet::file::reader::ChunkReader + 'static>(
        builder: ParquetRecordBatchReaderBuilder<T>,
        file: &Facts,
        split: Option<Split>,
        max_game_bytes: usize,
    ) -> io::Result<(ParquetGames, Option<ParquetPart>)> {
        let (modified, file_size) = (file.modified, file.size);
        let meta = Arc::clone(builder.metadata());
        let schema = builder.parquet_schema();
        let names: Vec<String> = schema
            .root_schema()
            .get_fields()
            .iter()
            .map(|f| f.name().to_owned())
            .collect();
        if !names.iter().any(|n| n == "movetext") {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "a Parquet file without a `movetext` column, so without games: its columns are {}",
                    names.join(", ")
                ),
            ));
        }
        let wanted: Vec<&str> = TAG_COLUMNS
            .iter()
            .chain(&RATING_COLUMNS)
            .chain(&["movetext"])
            .copied()
            .filter(|c| names.iter().any(|n| n == c))
            .collect();
        let mask = ProjectionMask::columns(schema, wanted.iter().copied());
        let groups = meta.num_row_groups();
        // The row groups' bytes, without the footer, are divided among the parts.
        let data_end = (0..groups)
            .map(|i| {
                row_group_point(&meta, i).0 + meta.row_group(i).compressed_size().max(0) as u64
            })
            .max()
            .unwrap_or(0);
        let (range, part) = match split {
            None => (0..groups, None),
            Some(split) => {
                let part_of = |i: usize| -> usize {
                    let offset = row_group_point(&meta, i).0;
                    ((offset as u128 * split.of as u128) / data_end.max(1) as u128) as usize + 1
                };
                let lo = (0..groups)
                    .find(|&i| part_of(i) >= split.part)
                    .unwrap_or(groups);
                let hi = (lo..groups)
                    .find(|&i| part_of(i) > split.part)
                    .unwrap_or(groups);
                let point = |i: usize| (i < groups).then(|| row_group_point(&meta, i));
                let part = ParquetPart {
                    size: file_size,
                    modified,
                    head: super::fingerprint(&file.head),
                    start: point(lo),
                    end: point(hi),
                };
                (lo..hi, Some(part))
            }
        };
        let reader = builder
            .with_projection(mask)
            .with_row_groups(range.collect())
            .with_batch_size(BATCH_ROWS)
            .build()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
        let games = ParquetGames {
            reader: Some(reader),
            batch: None,
            columns: RowColumns::default(),
            row: 0,
            // As a part of a text file does, a part numbers its games from 1 (`merge`
            // makes them the whole file's).
            number: 1,
            max_game_bytes: max_game_bytes.max(1),
            bytes: 0,
            stop: None,
            stopped: false,
            progress: None,
            games: 0,
        };
        Ok((games, part))
    }

    /// Calls `progress` with the bytes of text handed out and the games, after each
    /// batch of rows.
    pub(crate) fn on_progress(&mut self, progress: impl Fn(u64, usize) + Send + Sync + 'static) {
        self.progress = Some(Arc::new(progress));
    }
}

fn builder<T: parquet::file::reader::ChunkReader + 'static>(
    input: T,
    name: &str,
) -> io::Result<ParquetRecordBatchReaderBuilder<T>> {
    ParquetRecordBatchReaderBuilder::try_new(input).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{name}: not a Parquet file that can be read: {e}"),
        )
    })
}

fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
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

/// A string cell's text (`None`: null, or not a string column).
fn str_cell(column: &dyn Array, i: usize) -> Option<&str> {
    if column.is_null(i) {
        return None;
    }
    match column.data_type() {
        DataType::Utf8 => Some(column.as_string::<i32>().value(i)),
        DataType::LargeUtf8 => Some(column.as_string::<i64>().value(i)),
        DataType::Utf8View => Some(column.as_string_view().value(i)),
        _ => None,
    }
}

/// Appends a cell as a tag's value: a string escaped, a number (`+6` when `signed`
/// and positive), a date `YYYY.MM.DD` or a time `HH:MM:SS`. `false` (nothing appended):
/// null, or a type no tag is written from.
fn push_cell(out: &mut String, column: &dyn Array, i: usize, signed: bool) -> bool {
    if column.is_null(i) {
        return false;
    }
    if let Some(text) = str_cell(column, i) {
        push_value(out, text);
        return true;
    }
    let mut number = |n: i64| {
        if n < 0 {
            out.push('-');
        } else if signed && n > 0 {
            out.push('+');
        }
        push_digits(out, n.unsigned_abs());
    };
    match column.data_type() {
        DataType::Int8 => number(column.as_primitive::<Int8Type>().value(i).into()),
        DataType::Int16 => number(column.as_primitive::<Int16Type>().value(i).into()),
        DataType::Int32 => number(column.as_primitive::<Int32Type>().value(i).into()),
        DataType::Int64 => number(column.as_primitive::<Int64Type>().value(i)),
        DataType::UInt8 => number(column.as_primitive::<UInt8Type>().value(i).into()),
        DataType::UInt16 => number(column.as_primitive::<UInt16Type>().value(i).into()),
        DataType::UInt32 => number(column.as_primitive::<UInt32Type>().value(i).into()),
        DataType::UInt64 => {
            let n = column.as_primitive::<UInt64Type>().value(i);
            if signed && n > 0 {
                out.push('+');
            }
            push_digits(out, n);
        }
        DataType::Date32 => push_date(out, column.as_primitive::<Date32Type>().value(i).into()),
        DataType::Date64 => push_date(
            out,
            column
                .as_primitive::<Date64Type>()
                .value(i)
                .div_euclid(86_400_000),
        ),
        DataType::Time32(TimeUnit::Second) => {
            push_time(
                out,
                column.as_primitive::<Time32SecondType>().value(i).into(),
            );
        }
        DataType::Time32(_) => push_time(
            out,
            i64::from(column.as_primitive::<Time32MillisecondType>().value(i)).div_euclid(1000),
        ),
        DataType::Time64(TimeUnit::Microsecond) => push_time(
            out,
            column
                .as_primitive::<Time64MicrosecondType>()
                .value(i)
                .div_euclid(1_000_000),
        ),
        DataType::Time64(_) => push_time(
            out,
            column
                .as_primitive::<Time64NanosecondType>()
                .value(i)
                .div_euclid(1_000_000_000),
        ),
        _ => return false,
    }
    true
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
fn push_date(out: &mut String, days: i64) {
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
fn push_time(out: &mut String, secs: i64) {
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

/// A column of a batch that gives a tag.
#[derive(Debug, Clone, Copy)]
struct TagColumn {
    /// The column's index in the batch.
    index: usize,
    /// The tag it gives.
    tag: &'static str,
    /// A rating difference (`+6`).
    signed: bool,
}

/// The columns of a batch that a row's text is made of.
#[derive(Debug, Default)]
struct RowColumns {
    /// Those that give tags, in order.
    tags: Vec<TagColumn>,
    /// Its `movetext`.
    movetext: Option<usize>,
}

/// The columns of a batch's schema that give tags, in order, and its `movetext`.
fn tag_columns(batch: &RecordBatch) -> RowColumns {
    let schema = batch.schema();
    let mut tags = Vec::new();
    let mut movetext = None;
    for (index, field) in schema.fields().iter().enumerate() {
        let name = field.name().as_str();
        if name == "movetext" {
            movetext = Some(index);
            continue;
        }
        let tag = match name {
            "variant" => "Variant",
            "fen" => "FEN",
            other => match TAG_COLUMNS
                .iter()
                .chain(&RATING_COLUMNS)
                .find(|c| **c == other)
            {
                Some(c) => c,
                None => continue,
            },
        };
        tags.push(TagColumn {
            index,
            tag,
            signed: name.ends_with("RatingDiff"),
        });
    }
    RowColumns { tags, movetext }
}

impl ParquetGames {
    /// The text of row `i` of `batch`: its tags on one line, then its movetext.
    fn game_text(batch: &RecordBatch, columns: &RowColumns, i: usize) -> String {
        let movetext = columns
            .movetext
            .and_then(|m| str_cell(batch.column(m).as_ref(), i))
            .unwrap_or("*")
            .trim();
        let mut text = String::with_capacity(movetext.len() + 512);
        for c in &columns.tags {
            let column = batch.column(c.index).as_ref();
            // A games table's start: written when it is not the standard one.
            if c.tag == "FEN" && str_cell(column, i).is_none_or(is_standard_fen) {
                continue;
            }
            let mark = text.len();
            if mark > 0 {
                text.push(' ');
            }
            text.push('[');
            text.push_str(c.tag);
            text.push_str(" \"");
            if !push_cell(&mut text, column, i, c.signed) {
                text.truncate(mark);
                continue;
            }
            text.push_str("\"]");
            if c.tag == "FEN" {
                text.push_str(" [SetUp \"1\"]");
            }
        }
        text.push('\n');
        text.push_str(movetext);
        text.push('\n');
        text
    }
}

impl Games for ParquetGames {
    fn next_game(&mut self) -> io::Result<Option<RawGame>> {
        loop {
            if self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            {
                self.stopped = true;
                self.reader = None;
            }
            if let Some(batch) = &self.batch
                && self.row < batch.num_rows()
            {
                let text = Self::game_text(batch, &self.columns, self.row);
                self.row += 1;
                let number = self.number;
                self.number += 1;
                self.games += 1;
                self.bytes += text.len() as u64;
                let too_large = text.len() > self.max_game_bytes;
                return Ok(Some(RawGame {
                    number,
                    line: 0,
                    offset: 0,
                    too_large: too_large.then_some(text.len() as u64),
                    bytes: if too_large {
                        Vec::new()
                    } else {
                        text.into_bytes()
                    },
                }));
            }
            let Some(reader) = &mut self.reader else {
                return Ok(None);
            };
            match reader.next() {
                Some(Ok(batch)) => {
                    self.columns = tag_columns(&batch);
                    self.batch = Some(batch);
                    self.row = 0;
                    if let Some(progress) = &self.progress {
                        progress(self.bytes, self.games);
                    }
                }
                Some(Err(e)) => {
                    self.reader = None;
                    return Err(io::Error::new(io::ErrorKind::InvalidData, e.to_string()));
                }
                None => {
                    self.reader = None;
                    return Ok(None);
                }
            }
        }
    }

    fn bytes_read(&self) -> u64 {
        self.bytes
    }

    fn stopped(&self) -> bool {
        self.stopped
    }

    fn stop_on(&mut self, stop: Arc<AtomicBool>) {
        self.stop = Some(stop);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_read_back_as_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn numbers_dates_and_times_are_written_as_the_formatter_writes_them() {
        use arrow_array::{
            ArrayRef, Int8Array, Int16Array, Int32Array, Int64Array, UInt8Array, UInt16Array,
            UInt32Array, UInt64Array,
        };
        let mut numbers: Vec<i64> = vec![0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10_000];
        numbers.extend([i64::MIN, i64::MIN + 1, i64::MAX, -1, -10, -32_768, 32_767]);
        numbers.extend((0..2000).map(|i| (i * 7919) % 200_001 - 100_000));
        // Each integer type's cells, as tags' values: `+` before a positive rating
        // difference (`signed`), never before 0.
        let cell = |column: &ArrayRef, signed: bool| {
            let mut out = String::new();
            assert!(push_cell(&mut out, column.as_ref(), 0, signed));
            out
        };
        for n in numbers {
            let mut columns: Vec<ArrayRef> = vec![Arc::new(Int64Array::from(vec![n]))];
            if let Ok(v) = i8::try_from(n) {
                columns.push(Arc::new(Int8Array::from(vec![v])));
            }
            if let Ok(v) = i16::try_from(n) {
                columns.push(Arc::new(Int16Array::from(vec![v])));
            }
            if let Ok(v) = i32::try_from(n) {
                columns.push(Arc::new(Int32Array::from(vec![v])));
            }
            if let Ok(v) = u8::try_from(n) {
                columns.push(Arc::new(UInt8Array::from(vec![v])));
            }
            if let Ok(v) = u16::try_from(n) {
                columns.push(Arc::new(UInt16Array::from(vec![v])));
            }
            if let Ok(v) = u32::try_from(n) {
                columns.push(Arc::new(UInt32Array::from(vec![v])));
            }
            if let Ok(v) = u64::try_from(n) {
                columns.push(Arc::new(UInt64Array::from(vec![v])));
            }
            for column in &columns {
                assert_eq!(
                    cell(column, false),
                    n.to_string(),
                    "{:?}",
                    column.data_type()
                );
                let signed = if n > 0 {
                    format!("+{n}")
                } else {
                    n.to_string()
                };
                assert_eq!(cell(column, true), signed, "{:?}", column.data_type());
            }
        }
        let top: ArrayRef = Arc::new(UInt64Array::from(vec![u64::MAX]));
        assert_eq!(cell(&top, false), u64::MAX.to_string());
        // Days from before year 0 to after year 9999, and around the padding's steps.
        let mut days: Vec<i64> = (-800_000..3_000_000).step_by(997).collect();
        days.extend([-719_528, -719_162, -693_961, -1, 0, 1, 2_932_896, 2_932_897]);
        for day in days {
            let (y, m, d) = civil_from_days(day);
            let mut ours = String::new();
            push_date(&mut ours, day);
            assert_eq!(ours, format!("{y:04}.{m:02}.{d:02}"), "day {day}");
        }
        for secs in (-90_000i64..180_000)
            .step_by(37)
            .chain([0, 59, 60, 3599, 3600, 86_399])
        {
            let s = secs.rem_euclid(86_400);
            let mut ours = String::new();
            push_time(&mut ours, secs);
            assert_eq!(
                ours,
                format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
            );
        }
    }

    #[test]
    fn a_row_reads_as_tags_then_its_movetext() {
        use arrow_array::{
            ArrayRef, Date32Array, Int16Array, StringArray, Time32SecondArray, UInt64Array,
        };
        let strings = |v: [Option<&str>; 2]| Arc::new(StringArray::from(v.to_vec())) as ArrayRef;
        let chess960 = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";
        let batch = RecordBatch::try_from_iter([
            (
                "Event",
                strings([Some("Rated \"Blitz\" \\ game\r\nTwo"), None]),
            ),
            ("Site", strings([Some("https://lichess.org/x"), Some("")])),
            (
                "WhiteElo",
                Arc::new(Int16Array::from(vec![Some(1500), None])) as ArrayRef,
            ),
            (
                "WhiteRatingDiff",
                Arc::new(Int16Array::from(vec![6, -4])) as ArrayRef,
            ),
            (
                "UTCDate",
                Arc::new(Date32Array::from(vec![19_782, -1])) as ArrayRef,
            ),
            (
                "UTCTime",
                Arc::new(Time32SecondArray::from(vec![3_723, 0])) as ArrayRef,
            ),
            ("game", Arc::new(UInt64Array::from(vec![7, 8])) as ArrayRef),
            (
                "Opening",
                Arc::new(UInt64Array::from(vec![7, 8])) as ArrayRef,
            ),
            ("movetext", strings([Some("  1. e4 e5 1-0 \n"), None])),
            (
                "fen",
                strings([
                    Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
                    Some(chess960),
                ]),
            ),
        ])
        .unwrap();
        let columns = tag_columns(&batch);
        assert_eq!(columns.movetext, Some(8));
        let text = |i| ParquetGames::game_text(&batch, &columns, i);
        assert_eq!(
            text(0),
            "[Event \"Rated \\\"Blitz\\\" \\\\ game  Two\"] [Site \"https://lichess.org/x\"] \
             [WhiteElo \"1500\"] [WhiteRatingDiff \"+6\"] [UTCDate \"2024.02.29\"] \
             [UTCTime \"01:02:03\"] [Opening \"7\"]\n1. e4 e5 1-0\n"
        );
        // Nulls are no tags, `game` is not a tag, a Chess960 start is `[FEN]` and
        // `[SetUp]`, and a game without moves is `*`.
        assert_eq!(
            text(1),
            format!(
                "[Site \"\"] [WhiteRatingDiff \"-4\"] [UTCDate \"1969.12.31\"] \
                 [UTCTime \"00:00:00\"] [Opening \"8\"] [FEN \"{chess960}\"] [SetUp \"1\"]\n*\n"
            )
        );
    }
}
