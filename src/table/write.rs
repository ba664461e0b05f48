//! Tables into Parquet files: a [`TableWriter`] gathers rows in a builder and hands them
//! a batch at a time to the column writers of Parquet's Arrow writer, which encode them
//! (pages compressed by a [`Codec`], row groups of a bounded number of rows), on the
//! caller's thread or on threads of their own, and ends the file with its footer.
//! [`Partition`] names the file of a game in Lichess's layout (`year=YYYY/month=MM`).

use std::collections::VecDeque;
use std::io::Write;
use std::sync::mpsc::SyncSender;
use std::thread::JoinHandle;

use arrow_array::RecordBatch;
use arrow_schema::{ArrowError, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_writer::{
    ArrowColumnChunk, ArrowColumnWriter, ArrowRowGroupWriterFactory, compute_leaves,
};
use parquet::basic::{Compression, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
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
    /// Threads that encode and compress row groups while the rows of the next come in
    /// (0: the caller's thread does). A row group is encoded by one thread, its batches
    /// in order, so the file is byte for byte the same for any number.
    pub encoders: usize,
}

impl WriteOptions {
    /// The games table's: row groups of 65,536 games.
    pub const GAMES: WriteOptions = WriteOptions {
        codec: Codec::Zstd(1),
        row_group_rows: 1 << 16,
        batch_rows: 8192,
        batch_bytes: 16 << 20,
        dictionary: true,
        encoders: 0,
    };
    /// The plies table's: row groups of a million plies.
    pub const PLIES: WriteOptions = WriteOptions {
        codec: Codec::Zstd(1),
        row_group_rows: 1 << 20,
        batch_rows: 1 << 16,
        batch_bytes: 16 << 20,
        dictionary: true,
        encoders: 0,
    };
}

/// The writer properties of a table of `rows` written with `options`.
fn properties<R: Rows>(rows: &R, options: WriteOptions) -> Result<WriterProperties, ParquetError> {
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
        props =
            props.set_column_statistics_enabled(ColumnPath::from(column), EnabledStatistics::None);
    }
    Ok(props.build())
}

/// A table being written to a Parquet file.
///
/// Its rows are gathered in `rows` and handed over a batch at a time to the row group
/// being filled, whose column writers (Arrow's, from Parquet's writer) encode and
/// compress them: on the caller's thread, or with [`WriteOptions::encoders`] on a thread
/// of the row group's own, so that the caller goes on gathering. Row groups are appended
/// to the file in order, at most `encoders` of them being encoded at once.
pub struct TableWriter<R: Rows, W: Write + Send> {
    rows: R,
    file: SerializedFileWriter<W>,
    factory: ArrowRowGroupWriterFactory,
    schema: SchemaRef,
    options: WriteOptions,
    /// The row group being filled.
    group: Option<Group>,
    /// Row groups filled and still being encoded, oldest first.
    encoding: VecDeque<Encoder>,
    /// Row groups begun.
    groups: usize,
    written: usize,
}

/// A row group's column writers, and the rows written to them.
struct Columns {
    writers: Vec<ArrowColumnWriter>,
    schema: SchemaRef,
}

impl Columns {
    /// Writes a batch, a leaf column to each writer (as Arrow's writer does).
    fn write(&mut self, batch: &RecordBatch) -> Result<(), ParquetError> {
        let mut writers = self.writers.iter_mut();
        for (field, column) in self.schema.fields().iter().zip(batch.columns()) {
            for leaf in compute_leaves(field, column)? {
                let Some(writer) = writers.next() else {
                    return Err(ParquetError::General(
                        "a batch with more columns than the table".to_owned(),
                    ));
                };
                writer.write(&leaf)?;
            }
        }
        Ok(())
    }

    fn memory_size(&self) -> usize {
        self.writers
            .iter()
            .map(ArrowColumnWriter::memory_size)
            .sum()
    }

    fn close(self) -> Result<Vec<ArrowColumnChunk>, ParquetError> {
        self.writers
            .into_iter()
            .map(ArrowColumnWriter::close)
            .collect()
    }
}

/// A row group encoded on a thread of its own: its batches go there in order, its
/// column chunks come back when the batches end.
struct Encoder {
    batches: Option<SyncSender<RecordBatch>>,
    done: JoinHandle<Result<Vec<ArrowColumnChunk>, ParquetError>>,
    /// Arrow's size of the batches sent (a rough measure of what it holds: a batch cut
    /// between two row groups counts its whole size in each).
    sent: usize,
}

impl Encoder {
    fn start(mut columns: Columns) -> Result<Encoder, ParquetError> {
        // Two batches waiting at most: the caller gathers while the thread encodes, and
        // memory stays bounded when the thread is the slower.
        let (batches, incoming) = std::sync::mpsc::sync_channel::<RecordBatch>(1);
        let done = std::thread::Builder::new()
            .name("pocketfen-parquet".to_owned())
            .spawn(move || {
                for batch in incoming {
                    columns.write(&batch)?;
                }
                columns.close()
            })
            .map_err(|e| ParquetError::External(Box::new(e)))?;
        Ok(Encoder {
            batches: Some(batches),
            done,
            sent: 0,
        })
    }

    /// Sends a batch; `false` when the thread has stopped (its error comes with
    /// [`Encoder::finish`]).
    fn send(&mut self, batch: RecordBatch) -> bool {
        self.sent += batch.get_array_memory_size();
        self.batches.as_ref().is_some_and(|b| b.send(batch).is_ok())
    }

    /// The row group's column chunks, once the thread has encoded every batch.
    fn finish(mut self) -> Result<Vec<ArrowColumnChunk>, ParquetError> {
        drop(self.batches.take());
        self.done.join().unwrap_or_else(|_| {
            Err(ParquetError::General(
                "the thread encoding a row group failed".to_owned(),
            ))
        })
    }
}

/// The row group being filled: encoded here or on a thread.
enum Encoding {
    Here(Columns),
    Away(Encoder),
}

struct Group {
    encoding: Encoding,
    rows: usize,
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
        let options = WriteOptions {
            row_group_rows: options.row_group_rows.max(1),
            ..options
        };
        let props = properties(&rows, options)?;
        let schema = rows.schema();
        // Arrow's writer makes the file (its schema, with Arrow's in the metadata); its
        // row groups are then written here, by the column writers it would use.
        let (file, factory) =
            ArrowWriter::try_new(out, schema.clone(), Some(props))?.into_serialized_writer()?;
        Ok(TableWriter {
            rows,
            file,
            factory,
            schema,
            options,
            group: None,
            encoding: VecDeque::new(),
            groups: 0,
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

    /// The rows gathered, to the row groups: as many rows to each as it has room for.
    fn hand_over(&mut self) -> Result<(), ParquetError> {
        if self.rows.is_empty() {
            return Ok(());
        }
        let mut batch = self.rows.finish()?;
        self.written += batch.num_rows();
        while batch.num_rows() > 0 {
            let filled = self.group.as_ref().map_or(0, |g| g.rows);
            let room = self.options.row_group_rows - filled;
            let rest = if batch.num_rows() > room {
                let rest = batch.slice(room, batch.num_rows() - room);
                batch = batch.slice(0, room);
                Some(rest)
            } else {
                None
            };
            self.write_to_group(batch)?;
            if self
                .group
                .as_ref()
                .is_some_and(|g| g.rows >= self.options.row_group_rows)
            {
                self.end_group()?;
            }
            match rest {
                Some(rest) => batch = rest,
                None => break,
            }
        }
        Ok(())
    }

    fn write_to_group(&mut self, batch: RecordBatch) -> Result<(), ParquetError> {
        if self.group.is_none() {
            // At most `encoders` threads, this row group's among them: the oldest
            // row groups' are waited for.
            while !self.encoding.is_empty() && self.encoding.len() + 1 > self.options.encoders {
                self.append_oldest()?;
            }
            let columns = Columns {
                writers: self.factory.create_column_writers(self.groups)?,
                schema: self.schema.clone(),
            };
            self.groups += 1;
            let encoding = if self.options.encoders == 0 {
                Encoding::Here(columns)
            } else {
                Encoding::Away(Encoder::start(columns)?)
            };
            self.group = Some(Group { encoding, rows: 0 });
        }
        let Some(group) = &mut self.group else {
            return Ok(());
        };
        group.rows += batch.num_rows();
        match &mut group.encoding {
            Encoding::Here(columns) => columns.write(&batch),
            Encoding::Away(encoder) => {
                if encoder.send(batch) {
                    return Ok(());
                }
                // The thread stopped, on an error: that error.
                let error = match self.group.take().map(|g| g.encoding) {
                    Some(Encoding::Away(encoder)) => encoder.finish().err(),
                    _ => None,
                };
                Err(error.unwrap_or_else(|| {
                    ParquetError::General("the thread encoding a row group stopped".to_owned())
                }))
            }
        }
    }

    /// Ends the row group being filled: appended at once when encoded here, else once
    /// its thread is done (after those before it).
    fn end_group(&mut self) -> Result<(), ParquetError> {
        match self.group.take().map(|g| g.encoding) {
            None => Ok(()),
            Some(Encoding::Here(columns)) => {
                let chunks = columns.close()?;
                self.append(chunks)
            }
            Some(Encoding::Away(mut encoder)) => {
                // Its batches end here: the thread ends the row group's pages now,
                // while the next row group fills.
                drop(encoder.batches.take());
                self.encoding.push_back(encoder);
                Ok(())
            }
        }
    }

    fn append_oldest(&mut self) -> Result<(), ParquetError> {
        match self.encoding.pop_front() {
            Some(encoder) => {
                let chunks = encoder.finish()?;
                self.append(chunks)
            }
            None => Ok(()),
        }
    }

    fn append(&mut self, chunks: Vec<ArrowColumnChunk>) -> Result<(), ParquetError> {
        let mut group = self.file.next_row_group()?;
        for chunk in chunks {
            chunk.append_to_row_group(&mut group)?;
        }
        group.close()?;
        Ok(())
    }

    /// The bytes held in memory: rows gathered, and the row groups being encoded.
    pub fn buffered(&self) -> usize {
        let group = self.group.as_ref().map_or(0, |g| match &g.encoding {
            Encoding::Here(columns) => columns.memory_size(),
            Encoding::Away(encoder) => encoder.sent,
        });
        self.rows.size() + group + self.encoding.iter().map(|e| e.sent).sum::<usize>()
    }

    /// Ends the row group in progress (written to the output), however few its rows.
    pub fn end_row_group(&mut self) -> Result<(), ParquetError> {
        self.hand_over()?;
        self.end_group()?;
        while !self.encoding.is_empty() {
            self.append_oldest()?;
        }
        Ok(())
    }

    /// Rows written so far (handed over or gathered).
    pub fn rows(&self) -> usize {
        self.written + self.rows.len()
    }

    /// Ends the file (its last row group and its footer) and gives the output back.
    pub fn finish(mut self) -> Result<W, ParquetError> {
        self.end_row_group()?;
        self.file.into_inner()
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
    use crate::game::{Options, RowOptions, game_rows};
    use crate::stream::GameSplitter;
    use crate::table::GamesBuilder;
    use std::sync::Arc;

    /// The sample's games as an export's records.
    fn records(sample: &str) -> Vec<ExportedRecord> {
        let path = format!("{}/samples/{sample}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read(path).expect("the sample");
        GameSplitter::new(&text[..])
            .map(|game| {
                let game = game.expect("a game");
                let rows = game_rows(&game, &Options::default(), RowOptions::default());
                ExportedRecord {
                    file: sample.into(),
                    game: game.number,
                    line: game.line,
                    row: rows.game,
                    plies: rows.plies,
                    fens: rows.fens,
                    too_large: None,
                }
            })
            .collect()
    }

    /// The threads encoding row groups of `table`: the one being filled, and those
    /// waited for.
    fn threads<R: Rows, W: Write + Send>(table: &TableWriter<R, W>) -> usize {
        let filling = matches!(
            table.group,
            Some(Group {
                encoding: Encoding::Away(_),
                ..
            })
        );
        table.encoding.len() + usize::from(filling)
    }

    /// An error on a row group's thread comes back as it is (not as the thread's end
    /// alone), whichever call meets it, and the writer takes no more rows.
    #[test]
    fn an_encoding_threads_error_is_the_error_reported() {
        let records = records("lichess_standard_2025-05_sample438.pgn");
        let mut table = TableWriter::new(
            GamesBuilder::new(),
            Vec::new(),
            WriteOptions {
                row_group_rows: 1000,
                batch_rows: 17,
                encoders: 1,
                ..WriteOptions::GAMES
            },
        )
        .expect("a table");
        // The thread's columns told of a schema whose first column is not the batch's:
        // its first batch fails there.
        let mut fields: Vec<arrow_schema::Field> = table
            .schema
            .fields()
            .iter()
            .map(|f| f.as_ref().clone())
            .collect();
        fields[0] = arrow_schema::Field::new(
            fields[0].name(),
            arrow_schema::DataType::List(Arc::new(arrow_schema::Field::new(
                "item",
                arrow_schema::DataType::Int8,
                true,
            ))),
            true,
        );
        table.schema = Arc::new(arrow_schema::Schema::new(fields));
        let error = records
            .iter()
            .find_map(|r| table.push(r).err())
            .expect("an error before the last game");
        let text = error.to_string();
        assert!(!text.contains("thread encoding a row group"), "{text}");
    }

    /// Row groups encoded on threads, one or several at once, or on the caller's: the
    /// file Parquet's Arrow writer makes of the same batches, byte for byte (row groups
    /// cut at the same rows, a batch split across two, appended in order).
    #[test]
    fn encoders_write_the_file_arrows_writer_writes() {
        let records = records("lichess_standard_2025-05_sample438.pgn");
        assert_eq!(records.len(), 438);
        let options = WriteOptions {
            row_group_rows: 40,
            batch_rows: 17,
            ..WriteOptions::GAMES
        };
        let mut builder = GamesBuilder::new();
        let props = properties(&builder, options).expect("properties");
        let mut arrow =
            ArrowWriter::try_new(Vec::new(), builder.schema(), Some(props)).expect("a writer");
        for batch in records.chunks(options.batch_rows) {
            for r in batch {
                builder.push(r);
            }
            arrow
                .write(&builder.finish().expect("a batch"))
                .expect("written");
        }
        let expected = arrow.into_inner().expect("a file");
        let groups = parquet::file::metadata::ParquetMetaDataReader::new()
            .parse_and_finish(&bytes::Bytes::from(expected.clone()))
            .expect("its footer")
            .num_row_groups();
        assert_eq!(groups, 11);
        for encoders in [0, 1, 3] {
            let mut table = TableWriter::new(
                GamesBuilder::new(),
                Vec::new(),
                WriteOptions {
                    encoders,
                    ..options
                },
            )
            .expect("a table");
            let mut peak = 0;
            for r in &records {
                table.push(r).expect("pushed");
                peak = peak.max(threads(&table));
            }
            // As many threads as asked at once (the row group filling and those waited
            // for), never more; none when none are asked.
            assert_eq!(peak, encoders, "{encoders} encoders");
            assert_eq!(table.rows(), 438);
            let file = table.finish().expect("a file");
            assert!(file == expected, "{encoders} encoders: a different file");
        }
    }

    /// A row group ended early (as a partition's is, to bound memory) is written whole
    /// with every row group before it, whichever thread encodes them.
    #[test]
    fn a_row_group_ended_early_comes_after_those_before_it() {
        let mut records = records("cutechess_zh_2019_CrazyAra-vs-Stockfish.pgn");
        records.truncate(30);
        let read_back = |encoders: usize| {
            let mut table = TableWriter::new(
                GamesBuilder::new(),
                Vec::new(),
                WriteOptions {
                    row_group_rows: 4,
                    batch_rows: 3,
                    encoders,
                    ..WriteOptions::GAMES
                },
            )
            .expect("a table");
            for (i, r) in records.iter().enumerate() {
                table.push(r).expect("pushed");
                if i == 5 {
                    table.end_row_group().expect("ended");
                }
            }
            let file = bytes::Bytes::from(table.finish().expect("a file"));
            let reader =
                parquet::arrow::arrow_reader::ParquetRecordBatchReader::try_new(file, 1024)
                    .expect("a reader");
            let games: Vec<i64> = reader
                .flat_map(|b| {
                    let b = b.expect("a batch");
                    let column = b.column_by_name("game").expect("the game column").clone();
                    let column = column
                        .as_any()
                        .downcast_ref::<arrow_array::Int64Array>()
                        .expect("int64")
                        .clone();
                    column.values().to_vec()
                })
                .collect();
            games
        };
        let numbers: Vec<i64> = records.iter().map(|r| r.game as i64).collect();
        assert!(numbers.len() > 8, "{} games", numbers.len());
        for encoders in [0, 1, 2] {
            assert_eq!(read_back(encoders), numbers, "{encoders} encoders");
        }
    }

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
