//! Parquet files as archives (the `parquet` feature): Lichess's game tables, and the games
//! tables pocketfen writes. Each row is a game: its tags come from the columns named as
//! tags (`Event`, `Site`, `White`, `WhiteElo`, `UTCDate`…, and a games table's `variant`,
//! `fen`, bughouse's `WhiteA`…), written back as PGN (`[WhiteElo "1500"]`, `[UTCDate
//! "2024.05.01"]`), its moves from `movetext`. A game is numbered by its row (from 1;
//! in a part, from the part's first) and its lines are those of its movetext: line 1 is the
//! movetext's first, line 0 the tags. A part of a split run (`--split K/N`) is the row
//! groups that start in the K-th of N equal byte ranges of the file's row groups.
//!
//! Row groups are read one after the other, each by a reader of its own: a row group
//! that cannot be read (a damaged page, a column chunk cut short) loses its own rows, not
//! those of the groups after it. The rows lost and where they are are told once the
//! file is read ([`Games::take_damage`]), and the games keep their rows' numbers.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use arrow_array::RecordBatch;
use arrow_buffer::NullBuffer;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder,
};
use parquet::errors::ParquetError;
use parquet::file::metadata::ParquetMetaData;

use super::is_standard_fen;
use super::parts::Split;
use super::source::Source;
use super::split::{Damage, Games, RawGame};

mod cells;

pub(crate) use cells::civil_from_days;
use cells::{Cells, Kind};

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

/// Whether `path` is a Parquet file: a regular file that starts as one does. Only a
/// regular file is looked at: a FIFO's or a device's bytes, once read, are gone for the
/// text reader.
pub fn is_parquet_file(path: &Path) -> bool {
    let mut head = [0u8; 4];
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
        && File::open(path)
            .and_then(|mut f| f.read_exact(&mut head))
            .is_ok_and(|()| starts_as_parquet(&head))
}

/// Whether `source` is a Parquet file (a regular file, or a reader that can seek back;
/// a stream is read as text).
pub(crate) fn is_parquet(source: &mut Source) -> bool {
    let mut head = [0u8; 4];
    match source {
        Source::Path(p) => is_parquet_file(p),
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

/// Opens the reader of one row group (by its index in the file).
type OpenGroup = Box<dyn FnMut(usize) -> Result<ParquetRecordBatchReader, ParquetError> + Send>;

/// The row group being read.
#[derive(Debug, Clone, Copy)]
struct GroupAt {
    /// Its index in the file.
    index: usize,
    /// Its rows, and how many of them have been handed out.
    rows: usize,
    read: usize,
}

/// The games of a Parquet file's rows.
pub(crate) struct ParquetGames {
    open: OpenGroup,
    meta: Arc<ParquetMetaData>,
    /// The row groups not yet begun (the part's), in file order.
    groups: std::ops::Range<usize>,
    /// The reader of the row group being read, and where it stands.
    reading: Option<(ParquetRecordBatchReader, GroupAt)>,
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
    /// Where each row group that could not be read failed, and the rows it lost.
    damaged: Vec<String>,
    lost: usize,
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
                let meta = metadata(&file)?;
                let reopen = move || {
                    file.try_clone()
                        .map_err(|e| ParquetError::External(Box::new(e)))
                };
                Self::with_metadata(meta, reopen, &facts, split, max_game_bytes)
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
                let meta = metadata(&input)?;
                let reopen = move || Ok(input.clone());
                Self::with_metadata(meta, reopen, &file, split, max_game_bytes)
            }
        }
    }

    /// The games of the file whose metadata is `arrow_meta`, each row group read from
    /// what `reopen` gives.
    fn with_metadata<T: parquet::file::reader::ChunkReader + 'static>(
        arrow_meta: ArrowReaderMetadata,
        mut reopen: impl FnMut() -> Result<T, ParquetError> + Send + 'static,
        file: &Facts,
        split: Option<Split>,
        max_game_bytes: usize,
    ) -> io::Result<(ParquetGames, Option<ParquetPart>)> {
        let (modified, file_size) = (file.modified, file.size);
        let meta = Arc::clone(arrow_meta.metadata());
        let schema = arrow_meta.parquet_schema();
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
        // A column whose values cannot be read would make every game's moves, or its
        // tag, silently empty: the file is refused, the column and its type named.
        for field in arrow_meta.schema().fields() {
            let (name, t) = (field.name().as_str(), field.data_type());
            let refused = if name == "movetext" {
                (!cells::holds_text(t)).then_some("strings, binaries, or dictionaries of these")
            } else if wanted.contains(&name) {
                (!cells::gives_values(t)).then_some(cells::READ_TYPES)
            } else {
                None
            };
            if let Some(read) = refused {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "the Parquet column `{name}` is of type {t}, which pocketfen cannot read \
                         as {}: it reads {read}",
                        if name == "movetext" {
                            "a game's moves"
                        } else {
                            "a tag's values"
                        }
                    ),
                ));
            }
        }
        let mask = ProjectionMask::columns(schema, wanted.iter().copied());
        let open: OpenGroup = Box::new(move |group| {
            ParquetRecordBatchReaderBuilder::new_with_metadata(reopen()?, arrow_meta.clone())
                .with_projection(mask.clone())
                .with_row_groups(vec![group])
                .with_batch_size(BATCH_ROWS)
                .build()
        });
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
        let games = ParquetGames {
            open,
            meta,
            groups: range,
            reading: None,
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
            damaged: Vec::new(),
            lost: 0,
        };
        Ok((games, part))
    }

    /// Calls `progress` with the bytes of text handed out and the games, after each
    /// batch of rows.
    pub(crate) fn on_progress(&mut self, progress: impl Fn(u64, usize) + Send + Sync + 'static) {
        self.progress = Some(Arc::new(progress));
    }
}

/// The file's metadata (its footer), read once for every row group's reader.
fn metadata<T: parquet::file::reader::ChunkReader>(input: &T) -> io::Result<ArrowReaderMetadata> {
    ArrowReaderMetadata::load(input, Default::default()).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("not a Parquet file that can be read: {e}"),
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

/// A column of a batch that gives a tag.
#[derive(Debug)]
struct TagColumn {
    /// Its cells.
    cells: Cells,
    /// The tag it gives.
    tag: &'static str,
    /// How its values are written.
    kind: Kind,
    /// Which of its rows are null (`None`: none is).
    nulls: Option<NullBuffer>,
}

/// The columns of a batch that a row's text is made of.
#[derive(Debug, Default)]
struct RowColumns {
    /// Those that give tags, in order.
    tags: Vec<TagColumn>,
    /// Its `movetext`: the column's index and cells.
    movetext: Option<(usize, Cells)>,
}

/// The columns of a batch's schema that give tags, in order, and its `movetext`.
fn tag_columns(batch: &RecordBatch) -> RowColumns {
    let schema = batch.schema();
    let mut tags = Vec::new();
    let mut movetext = None;
    for (index, field) in schema.fields().iter().enumerate() {
        let name = field.name().as_str();
        if name == "movetext" {
            movetext = Some((index, Cells::new(batch.column(index).as_ref())));
            continue;
        }
        // A column null in every row of the batch gives no tag (a games table's
        // bughouse players in a batch without bughouse).
        let column = batch.column(index);
        if column.logical_null_count() == column.len() {
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
            cells: Cells::new(column.as_ref()),
            tag,
            kind: Kind::of(name),
            nulls: column.logical_nulls(),
        });
    }
    RowColumns { tags, movetext }
}

impl ParquetGames {
    /// The text of row `i` of `batch`: its tags on one line, then its movetext.
    fn game_text(columns: &RowColumns, i: usize) -> String {
        let movetext = columns.movetext.as_ref().and_then(|(_, m)| m.str(i));
        let movetext = movetext.as_deref().unwrap_or("*").trim();
        let mut text = String::with_capacity(movetext.len() + 512);
        for c in &columns.tags {
            // A games table's start: written when it is not the standard one.
            if c.nulls.as_ref().is_some_and(|n| n.is_null(i))
                || c.tag == "FEN" && c.cells.str(i).as_deref().is_none_or(is_standard_fen)
            {
                continue;
            }
            let mark = text.len();
            if mark > 0 {
                text.push(' ');
            }
            text.push('[');
            text.push_str(c.tag);
            text.push_str(" \"");
            if !c.cells.push(&mut text, i, c.kind) {
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

impl ParquetGames {
    /// Opens the next row group's reader; `false` when none is left. A row group that
    /// cannot be opened is noted as damaged and the next one tried.
    fn next_group(&mut self) -> bool {
        while let Some(index) = self.groups.next() {
            let rows = usize::try_from(self.meta.row_group(index).num_rows()).unwrap_or(0);
            let group = GroupAt {
                index,
                rows,
                read: 0,
            };
            match (self.open)(index) {
                Ok(reader) => {
                    self.reading = Some((reader, group));
                    return true;
                }
                Err(e) => self.lose(group, &e),
            }
        }
        false
    }

    /// Notes that `group` could not be read beyond its rows already handed out, and
    /// skips the others: the next games keep their rows' numbers.
    fn lose(&mut self, group: GroupAt, e: &dyn std::fmt::Display) {
        let lost = group.rows.saturating_sub(group.read);
        if lost == 0 {
            // No game lost (a group read whole, or an empty one): nothing to tell.
            return;
        }
        self.number += lost;
        self.lost += lost;
        // The file's rows, from 1, whatever part this is.
        let first = (0..group.index)
            .map(|i| self.meta.row_group(i).num_rows().max(0) as u64)
            .sum::<u64>()
            + 1;
        let last = first + group.rows as u64 - 1;
        let cut = if group.read == 0 {
            String::new()
        } else {
            format!(" after row {}", first + group.read as u64 - 1)
        };
        self.damaged.push(format!(
            "row group {} of {} (rows {first} to {last}) cannot be read{cut}: {e}",
            group.index + 1,
            self.meta.num_row_groups(),
        ));
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
                self.reading = None;
                self.groups = 0..0;
            }
            if let Some(batch) = &self.batch
                && self.row < batch.num_rows()
            {
                let text = Self::game_text(&self.columns, self.row);
                self.row += 1;
                if let Some((_, group)) = &mut self.reading {
                    group.read += 1;
                }
                let number = self.number;
                self.number += 1;
                self.games += 1;
                self.bytes += text.len() as u64;
                let too_large = text.len() > self.max_game_bytes;
                return Ok(Some(RawGame {
                    number,
                    line: 0,
                    column: 1,
                    offset: 0,
                    too_large: too_large.then_some(text.len() as u64),
                    bytes: if too_large {
                        Vec::new()
                    } else {
                        text.into_bytes()
                    },
                }));
            }
            let Some((reader, group)) = &mut self.reading else {
                if self.stopped || !self.next_group() {
                    return Ok(None);
                }
                continue;
            };
            let group = *group;
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
                    // The rest of this row group is lost, not the groups after it.
                    self.reading = None;
                    self.lose(group, &e);
                }
                None => {
                    // A group whose columns end before the rows its footer counts has
                    // lost the others (`lose` tells nothing of a group read whole).
                    self.reading = None;
                    self.lose(group, &"its columns end before its rows do");
                }
            }
        }
    }

    fn take_damage(&mut self) -> Option<Damage> {
        (!self.damaged.is_empty()).then(|| Damage {
            message: std::mem::take(&mut self.damaged).join("; "),
            games: std::mem::take(&mut self.lost),
            breaks: Vec::new(),
        })
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
mod tests;
