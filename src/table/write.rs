//! Tables into Parquet files: a [`TableWriter`] gathers rows in a builder, hands them to
//! Parquet's Arrow writer a batch at a time (pages compressed by a [`Codec`], row groups
//! of a bounded number of rows), and ends the file with its footer. [`Partition`] names
//! the file of a game in Lichess's layout (`year=YYYY/month=MM`).

use std::io::Write;

use arrow_array::RecordBatch;
use arrow_schema::{ArrowError, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnPath;

use crate::game::GameRow;
use crate::run::record::ExportedRecord;
use crate::stream::parquet::civil_from_days;

/// A table's rows as they are gathered: the games table's or the plies table's.
pub trait Rows {
    /// Adds a game's rows.
    fn push(&mut self, record: &ExportedRecord);
    /// Rows gathered since the last batch.
    fn len(&self) -> usize;
    /// Whether none was.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// A rough size of them, in bytes.
    fn size(&self) -> usize;
    /// Them as a batch; the builder starts again empty.
    fn finish(&mut self) -> Result<RecordBatch, ArrowError>;
    /// The table's schema.
    fn schema(&self) -> SchemaRef;
    /// Its columns whose values seldom repeat: written in plain pages, since a
    /// dictionary would be tried on every value and dropped.
    fn plain_columns(&self) -> &'static [&'static str] {
        &[]
    }
}

/// How a table's pages are compressed. Every Parquet reader (pyarrow, Polars, DuckDB,
/// Spark) reads all three.
///
/// ```
/// use pocketfen::table::Codec;
/// assert_eq!("zstd".parse::<Codec>().unwrap(), Codec::Zstd(1));
/// assert_eq!("ZSTD:9".parse::<Codec>().unwrap(), Codec::Zstd(9));
/// assert_eq!("snappy".parse::<Codec>().unwrap().to_string(), "snappy");
/// assert!("zstd:23".parse::<Codec>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    /// zstd at a level from 1 (fastest) to 22: the smallest files.
    Zstd(i32),
    /// Snappy: files about half as large again as zstd's, written and read with less
    /// work (pyarrow's and DuckDB's default).
    Snappy,
    /// Pages as they are.
    None,
}

impl Codec {
    /// The zstd levels there are.
    pub const ZSTD_LEVELS: std::ops::RangeInclusive<i32> = 1..=22;

    fn compression(self) -> Result<Compression, ParquetError> {
        Ok(match self {
            Codec::Zstd(level) => Compression::ZSTD(ZstdLevel::try_new(level)?),
            Codec::Snappy => Compression::SNAPPY,
            Codec::None => Compression::UNCOMPRESSED,
        })
    }
}

impl std::str::FromStr for Codec {
    type Err = crate::ParseValueError;
    /// `zstd` (level 1), `zstd:LEVEL` (1 to 22), `snappy` or `none`.
    fn from_str(s: &str) -> Result<Codec, crate::ParseValueError> {
        let name = s.trim().to_ascii_lowercase();
        let wrong = |why: &str| {
            crate::ParseValueError::new(
                "compression",
                format!(
                    "compression `{}`: {why}",
                    crate::notation::printable(s.trim())
                ),
            )
        };
        match name.split_once(':') {
            None if name == "zstd" => Ok(Codec::Zstd(1)),
            None if name == "snappy" => Ok(Codec::Snappy),
            None if name == "none" || name == "uncompressed" => Ok(Codec::None),
            Some(("zstd", level)) => match level.trim().parse::<i32>() {
                Ok(n) if Codec::ZSTD_LEVELS.contains(&n) => Ok(Codec::Zstd(n)),
                _ => Err(wrong("expected a zstd level from 1 to 22 after `zstd:`")),
            },
            _ => Err(wrong("expected zstd, zstd:LEVEL (1 to 22), snappy or none")),
        }
    }
}

impl std::fmt::Display for Codec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Codec::Zstd(level) => write!(f, "zstd:{level}"),
            Codec::Snappy => f.write_str("snappy"),
            Codec::None => f.write_str("none"),
        }
    }
}

/// How a table's Parquet file is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteOptions {
    /// How its pages are compressed.
    pub codec: Codec,
    /// The most rows of a row group.
    pub row_group_rows: usize,
    /// Rows gathered before they are handed to the writer as a batch.
    pub batch_rows: usize,
    /// Bytes gathered before they are handed over, whatever their number of rows.
    pub batch_bytes: usize,
    /// Dictionary pages for the columns whose values repeat, but for the table's
    /// [`Rows::plain_columns`] (`false`: plain pages everywhere, which the codec
    /// compresses).
    pub dictionary: bool,
}

impl WriteOptions {
    /// The games table's: row groups of 65,536 games.
    pub const GAMES: WriteOptions = WriteOptions {
        codec: Codec::Zstd(1),
        row_group_rows: 1 << 16,
        batch_rows: 8192,
        batch_bytes: 16 << 20,
        dictionary: true,
    };
    /// The plies table's: row groups of a million plies.
    pub const PLIES: WriteOptions = WriteOptions {
        codec: Codec::Zstd(1),
        row_group_rows: 1 << 20,
        batch_rows: 1 << 16,
        batch_bytes: 16 << 20,
        dictionary: true,
    };
}

/// A table being written to a Parquet file.
pub struct TableWriter<R: Rows, W: Write + Send> {
    rows: R,
    writer: ArrowWriter<W>,
    options: WriteOptions,
    written: usize,
}

impl<R: Rows, W: Write + Send> std::fmt::Debug for TableWriter<R, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableWriter")
            .field("rows", &self.rows())
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl<R: Rows, W: Write + Send> TableWriter<R, W> {
    /// A table of `rows`' schema written to `out`.
    pub fn new(rows: R, out: W, options: WriteOptions) -> Result<Self, ParquetError> {
        let mut props = WriterProperties::builder()
            .set_compression(options.codec.compression()?)
            .set_max_row_group_row_count(Some(options.row_group_rows))
            .set_dictionary_enabled(options.dictionary)
            .set_created_by(format!("pocketfen {}", env!("CARGO_PKG_VERSION")));
        for &column in rows.plain_columns() {
            props = props.set_column_dictionary_enabled(ColumnPath::from(column), false);
        }
        // Columns whose minimum and maximum tell a reader nothing (every page holds
        // moves from a1 to h8, FENs, pockets): no statistics, whose comparisons of each
        // value cost more than the rest of their writing.
        for column in [
            "movetext",
            "san",
            "uci",
            "fen",
            "white_pocket",
            "black_pocket",
            "side",
            "piece",
            "captured",
            "promotion",
            "board",
        ] {
            props = props
                .set_column_statistics_enabled(ColumnPath::from(column), EnabledStatistics::None);
        }
        let props = props.build();
        let writer = ArrowWriter::try_new(out, rows.schema(), Some(props))?;
        Ok(TableWriter {
            rows,
            writer,
            options,
            written: 0,
        })
    }

    /// Adds a game's rows.
    pub fn push(&mut self, record: &ExportedRecord) -> Result<(), ParquetError> {
        self.rows.push(record);
        if self.rows.len() >= self.options.batch_rows
            || self.rows.size() >= self.options.batch_bytes
        {
            self.hand_over()?;
        }
        Ok(())
    }

    fn hand_over(&mut self) -> Result<(), ParquetError> {
        if self.rows.is_empty() {
            return Ok(());
        }
        let batch = self.rows.finish()?;
        self.written += batch.num_rows();
        self.writer.write(&batch)
    }

    /// The bytes held in memory: rows gathered, and the row group being encoded.
    pub fn buffered(&self) -> usize {
        self.rows.size() + self.writer.memory_size()
    }

    /// Ends the row group in progress (written to the output), however few its rows.
    pub fn end_row_group(&mut self) -> Result<(), ParquetError> {
        self.hand_over()?;
        self.writer.flush()
    }

    /// Rows written so far (handed over or gathered).
    pub fn rows(&self) -> usize {
        self.written + self.rows.len()
    }

    /// Ends the file (its last row group and its footer) and gives the output back.
    pub fn finish(mut self) -> Result<W, ParquetError> {
        self.hand_over()?;
        self.writer.into_inner()
    }
}

/// How the games table is divided into files, as Lichess divides its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Partition {
    /// `year=YYYY/month=MM`.
    YearMonth,
    /// `year=YYYY`.
    Year,
}

impl std::str::FromStr for Partition {
    type Err = crate::ParseNameError;
    /// `year/month` or `year`.
    fn from_str(s: &str) -> Result<Partition, crate::ParseNameError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "year/month" => Ok(Partition::YearMonth),
            "year" => Ok(Partition::Year),
            _ => Err(<Partition as crate::Choice>::unknown(s)),
        }
    }
}

impl crate::Choice for Partition {
    const WHAT: &'static str = "partition";
    const NAMES: &'static [&'static str] = &["year/month", "year"];
}

/// The folder name of an unknown value, as Hive (and pyarrow, Spark, DuckDB) write it.
pub const UNKNOWN_PARTITION: &str = "__HIVE_DEFAULT_PARTITION__";

impl Partition {
    /// The folder of a game's row (`year=2024/month=05`): from its `[UTCDate]`, or its
    /// `[Date]` when it has none; [`UNKNOWN_PARTITION`] for a part that is unknown.
    pub fn folder(self, row: &GameRow) -> String {
        let (year, month) = match row.utc_date.map(|d| civil_from_days(d.into())) {
            Some((y, m, _)) => (Some(y), Some(m)),
            None => row.date.as_deref().map_or((None, None), date_parts),
        };
        let year = year.map_or(UNKNOWN_PARTITION.to_owned(), |y| format!("{y:04}"));
        let month = month.map_or(UNKNOWN_PARTITION.to_owned(), |m| format!("{m:02}"));
        match self {
            Partition::YearMonth => format!("year={year}/month={month}"),
            Partition::Year => format!("year={year}"),
        }
    }
}

/// The year and month of a `[Date]` (`2021.10.05`, `2021-10-??`), each when known.
fn date_parts(date: &str) -> (Option<i64>, Option<u32>) {
    let mut parts = date.trim().split(['.', '-', '/']);
    let year = parts.next().and_then(|y| y.parse::<i64>().ok());
    let month = parts
        .next()
        .and_then(|m| m.parse::<u32>().ok())
        .filter(|m| (1..=12).contains(m));
    (year, month)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_follow_utc_date_then_date() {
        let mut row = GameRow {
            utc_date: Some(19_000),
            ..GameRow::default()
        };
        // 19,000 days after 1970-01-01 is 2022-01-08.
        assert_eq!(Partition::YearMonth.folder(&row), "year=2022/month=01");
        assert_eq!(Partition::Year.folder(&row), "year=2022");
        row.utc_date = None;
        row.date = Some("2001.11.??".into());
        assert_eq!(Partition::YearMonth.folder(&row), "year=2001/month=11");
        row.date = Some("????.??.??".into());
        assert_eq!(
            Partition::YearMonth.folder(&row),
            "year=__HIVE_DEFAULT_PARTITION__/month=__HIVE_DEFAULT_PARTITION__"
        );
        for days in [-1_000_000, -1, 0, 59, 60, 11_016, 19_000, 2_000_000] {
            let (y, m, d) = civil_from_days(days.into());
            let back = crate::game::days_from_civil(y, m, d);
            assert_eq!(back, i64::from(days), "{y}-{m}-{d}");
        }
    }
}
