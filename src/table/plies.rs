//! The plies table written straight into Parquet pages ([`PliesFile`]): every column but
//! the FENs is dictionary-encoded, and a value's dictionary index is found from a number
//! the ply already has (a move's SAN packed into eight bytes, a clock's bits, a pocket's
//! counts, a ply or a role), so that no value is gathered in an Arrow builder or hashed
//! as bytes. The file has the schema of [`plies_schema`] (and Arrow's form of it in its
//! metadata), as [`PliesBuilder`](super::PliesBuilder)'s batches would have it.

use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::sync::Arc;
use std::sync::mpsc::SyncSender;
use std::thread::JoinHandle;

use bytes::Bytes;
use parquet::column::writer::ColumnCloseResult;
use parquet::schema::types::{SchemaDescPtr, SchemaDescriptor};

use parquet::arrow::{ArrowSchemaConverter, add_encoded_arrow_schema_to_metadata};
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;

use super::build::{board_name, role_letter};
use super::pages::{Column, Compressor, Stats, Values, byte_array};
use super::schema::plies_schema;
use super::write::{Codec, WriteOptions};
use crate::bughouse::BoardId;
use crate::game::{Eval, Fens, PlyRow, pocket_letters};
use crate::notation::san::San;
use crate::notation::uci::UciMove;
use crate::run::record::ExportedRecord;
use crate::types::{Color, Role};

const FILE: usize = 0;
const GAME: usize = 1;
const SITE: usize = 2;
const PLY: usize = 3;
const BOARD: usize = 4;
const MOVE_NUMBER: usize = 5;
const SIDE: usize = 6;
const SAN: usize = 7;
const UCI: usize = 8;
const IS_DROP: usize = 9;
const PIECE: usize = 10;
const CAPTURED: usize = 11;
const PROMOTION: usize = 12;
const CHECK: usize = 13;
const MATE: usize = 14;
const WHITE_POCKET: usize = 15;
const BLACK_POCKET: usize = 16;
const CLOCK: usize = 17;
const ELAPSED: usize = 18;
const EVAL_CP: usize = 19;
const EVAL_MATE: usize = 20;
const NAGS: usize = 21;
const FEN: usize = 22;

/// How each column's pages hold its values, and what statistics it keeps (the moves,
/// pockets and FENs none: every page holds the whole range of them).
const LAYOUT: [(Values, Stats); 23] = [
    (Values::Dictionary, Stats::Strings),
    (Values::Dictionary, Stats::Values),
    (Values::Dictionary, Stats::Strings),
    (Values::Dictionary, Stats::Values),
    (Values::Dictionary, Stats::None),
    (Values::Dictionary, Stats::Values),
    (Values::Dictionary, Stats::None),
    (Values::Dictionary, Stats::None),
    (Values::Dictionary, Stats::None),
    (Values::Booleans, Stats::Values),
    (Values::Dictionary, Stats::None),
    (Values::Dictionary, Stats::None),
    (Values::Dictionary, Stats::None),
    (Values::Booleans, Stats::Values),
    (Values::Booleans, Stats::Values),
    (Values::Dictionary, Stats::None),
    (Values::Dictionary, Stats::None),
    (Values::Dictionary, Stats::Values),
    (Values::Dictionary, Stats::Values),
    (Values::Dictionary, Stats::Values),
    (Values::Dictionary, Stats::Values),
    (Values::Dictionary, Stats::Values),
    (Values::Bytes, Stats::None),
];

/// A row group ends at this many bytes held, whatever its rows.
const GROUP_BYTES: usize = 128 << 20;

/// A move's SAN key: the canonical [`San`] and its suffix packed in 26 bits, one
/// number per spelling (the spelling is written only when the dictionary first meets
/// the key).
#[inline(always)]
fn san_key(p: &PlyRow) -> u64 {
    let suffix = if p.mate { 2 } else { u64::from(p.check) };
    let role = |r: Role| r as u64;
    let kind = match p.san {
        San::Normal {
            role: r,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            role(r)
                | file.map_or(8, |f| f as u64) << 3
                | rank.map_or(8, |r| r as u64) << 7
                | u64::from(capture) << 11
                | (to.index() as u64) << 12
                | promotion.map_or(7, role) << 18
        }
        San::Castle(side) => 1 << 21 | side as u64,
        San::Put { role: r, to } => 2 << 21 | role(r) | (to.index() as u64) << 3,
        San::Null => 3 << 21,
    };
    kind | suffix << 24
}

/// A UCI move's key: its squares and role packed in 17 bits.
#[inline(always)]
fn uci_key(u: UciMove) -> u64 {
    match u {
        UciMove::Normal {
            from,
            to,
            promotion,
        } => (from.index() | to.index() << 6) as u64 | promotion.map_or(7, |r| r as u64) << 12,
        UciMove::Put { role, to } => 1 << 15 | to.index() as u64 | (role as u64) << 6,
        UciMove::Null => 1 << 16,
    }
}

/// A row group of the plies table being filled: its columns' pages and dictionaries,
/// and the keys of its strings.
struct Group {
    columns: Vec<Column>,
    codec: Codec,
    compressor: Compressor,
    /// Rows of a page.
    page_size: usize,
    fen: bool,
    page_rows: usize,
    rows: usize,
    /// Dictionary keys of the row group's strings met once a game (files, Sites).
    files: HashMap<String, u64>,
    sites: HashMap<String, u64>,
    /// A pocket's letters being written.
    letters: String,
}

/// A row group's column chunks, encoded: each with what its metadata says of it.
type Chunks = Vec<(Bytes, ColumnCloseResult)>;

impl Group {
    fn new(
        schema: &SchemaDescriptor,
        fen: bool,
        options: WriteOptions,
    ) -> Result<Group, ParquetError> {
        let page_size = options.batch_rows.max(1);
        // A page ends after the game that fills it: room for a little more. Pages of more
        // rows than a default page's twice (`batch_rows` is the caller's) grow as they
        // fill beyond that.
        let room = page_size.min(1 << 17);
        let mut columns: Vec<Column> = schema
            .columns()
            .iter()
            .zip(LAYOUT)
            .map(|(d, (values, stats))| {
                let mut column = Column::new(d.clone(), values, stats);
                column.reserve_page(room + room / 16);
                column
            })
            .collect();
        // The columns of a few values known beforehand: a value's index is its number.
        let roles = Role::ALL.map(role_letter);
        for (column, values) in [
            (BOARD, &[BoardId::A, BoardId::B].map(board_name)[..]),
            (SIDE, &Color::ALL.map(Color::name)[..]),
            (PIECE, &roles[..]),
            (CAPTURED, &roles[..]),
            (PROMOTION, &roles[..]),
        ] {
            columns[column].fix_dictionary(values);
        }
        Ok(Group {
            columns,
            codec: options.codec,
            compressor: Compressor::new(options.codec)?,
            page_size,
            fen,
            page_rows: 0,
            rows: 0,
            files: HashMap::new(),
            sites: HashMap::new(),
            letters: String::with_capacity(32),
        })
    }

    /// Adds a game's plies (it has some).
    fn push(&mut self, record: &ExportedRecord) -> Result<(), ParquetError> {
        let c = &mut self.columns;
        let next = self.files.len() as u64;
        let key = match self.files.get(&record.file) {
            Some(&key) => key,
            None => *self.files.entry(record.file.clone()).or_insert(next),
        };
        let file = c[FILE].index(key, |d| byte_array(d, record.file.as_bytes()));
        let game = c[GAME].index_i64(record.game as i64);
        let site = record.row.site.as_deref().map(|s| {
            let next = self.sites.len() as u64;
            let key = match self.sites.get(s) {
                Some(&key) => key,
                None => *self.sites.entry(s.to_owned()).or_insert(next),
            };
            c[SITE].index(key, |d| byte_array(d, s.as_bytes()))
        });
        let n = record.plies.len();
        c[FILE].push_n(file, n);
        c[GAME].push_n(game, n);
        match site {
            Some(i) => c[SITE].push_n(i, n),
            None => c[SITE].push_nulls(n),
        }
        self.plies(&record.plies, &record.fens);
        self.page_rows += n;
        self.rows += n;
        if self.page_rows >= self.page_size {
            self.end_pages()?;
        }
        Ok(())
    }
    /// The plies' columns after the game's own, a column at a time.
    fn plies(&mut self, plies: &[PlyRow], fens: &Fens) {
        let c = &mut self.columns;
        c[PLY].extend_i32(plies.iter().map(|p| Some(p.ply as i32)));
        c[BOARD].extend_fixed(plies.iter().map(|p| p.board.map(|b| b as u32)));
        c[MOVE_NUMBER].extend_i32(plies.iter().map(|p| Some(p.move_number as i32)));
        c[SIDE].extend_fixed(plies.iter().map(|p| Some(p.side as u32)));
        c[SAN].extend(plies.iter().map(Some), san_key, |p, d, _| {
            byte_array(d, p.san_text().as_bytes())
        });
        c[UCI].extend(
            plies.iter().map(Some),
            |p| uci_key(p.uci),
            |p, d, _| byte_array(d, p.uci_text().as_bytes()),
        );
        c[IS_DROP].extend_bools(plies.iter().map(|p| p.is_drop));
        c[PIECE].extend_fixed(plies.iter().map(|p| Some(p.piece as u32)));
        c[CAPTURED].extend_fixed(plies.iter().map(|p| p.captured.map(|r| r as u32)));
        c[PROMOTION].extend_fixed(plies.iter().map(|p| p.promotion.map(|r| r as u32)));
        c[CHECK].extend_bools(plies.iter().map(|p| p.check));
        c[MATE].extend_bools(plies.iter().map(|p| p.mate));
        for (color, column) in [(Color::White, WHITE_POCKET), (Color::Black, BLACK_POCKET)] {
            let letters = &mut self.letters;
            c[column].extend(
                plies.iter().map(|p| p.pockets.as_ref().map(|p| &p[color])),
                |pocket| {
                    Role::POCKET
                        .iter()
                        .enumerate()
                        .fold(0u64, |k, (i, &r)| k | u64::from(pocket.get(r)) << (8 * i))
                },
                |pocket, d, _| {
                    letters.clear();
                    pocket_letters(letters, pocket, color);
                    byte_array(d, letters.as_bytes());
                },
            );
        }
        c[CLOCK].extend_f64(plies.iter().map(|p| p.clock));
        c[ELAPSED].extend_f64(plies.iter().map(|p| p.elapsed));
        c[EVAL_CP].extend_i32(plies.iter().map(|p| match p.eval {
            Some(Eval::Centipawns(n)) => Some(n),
            _ => None,
        }));
        c[EVAL_MATE].extend_i32(plies.iter().map(|p| match p.eval {
            Some(Eval::Mate(n)) => Some(n.clamp(-32768, 32767)),
            _ => None,
        }));
        let nags = &mut c[NAGS];
        for p in plies {
            if p.nags.is_empty() {
                nags.push_level(0, 0, None);
            }
            for (i, &nag) in p.nags.iter().enumerate() {
                let index = nags.index(u64::from(nag), |d| {
                    d.extend_from_slice(&i32::from(nag).to_le_bytes())
                });
                nags.push_level(u32::from(i > 0), 2, Some(index));
                nags.note_i32(i32::from(nag));
            }
        }
        if self.fen {
            let mut fens = fens.iter();
            for _ in plies {
                c[FEN].plain(fens.next().unwrap_or_default().as_bytes());
            }
        }
    }

    fn end_pages(&mut self) -> Result<(), ParquetError> {
        for c in &mut self.columns {
            c.end_page(&mut self.compressor)?;
        }
        self.page_rows = 0;
        Ok(())
    }

    /// The bytes held: the pages and dictionaries.
    fn size(&self) -> usize {
        self.columns.iter().map(Column::size).sum()
    }

    /// The row group's column chunks, its last pages ended.
    fn close(mut self) -> Result<Chunks, ParquetError> {
        let rows = self.rows;
        self.columns
            .iter_mut()
            .map(|c| c.end_chunk(&mut self.compressor, self.codec, rows))
            .collect()
    }
}

/// A row group encoded on a thread of its own: its games go there in order (a few at a
/// time), its column chunks come back when they end.
struct Encoder {
    games: Option<SyncSender<Vec<ExportedRecord>>>,
    /// Games not sent yet.
    waiting: Vec<ExportedRecord>,
    /// Games could not be sent: the thread had stopped.
    lost: bool,
    done: JoinHandle<Result<Chunks, ParquetError>>,
}

impl Encoder {
    /// Games sent together.
    const GAMES: usize = 64;

    fn start(mut group: Group) -> Result<Encoder, ParquetError> {
        let (games, incoming) = std::sync::mpsc::sync_channel::<Vec<ExportedRecord>>(4);
        let done = std::thread::Builder::new()
            .name("pocketfen-plies".to_owned())
            .spawn(move || {
                for games in incoming {
                    for game in &games {
                        group.push(game)?;
                    }
                }
                group.close()
            })
            .map_err(|e| ParquetError::External(Box::new(e)))?;
        Ok(Encoder {
            games: Some(games),
            waiting: Vec::with_capacity(Encoder::GAMES),
            lost: false,
            done,
        })
    }

    /// Sends the games waiting; `false` when the thread has stopped (on an error, which
    /// [`Encoder::finish`] gives).
    fn send(&mut self) -> bool {
        if self.waiting.is_empty() {
            return true;
        }
        let games = std::mem::replace(&mut self.waiting, Vec::with_capacity(Encoder::GAMES));
        self.games.as_ref().is_some_and(|g| g.send(games).is_ok())
    }

    /// Sends the games waiting and ends the row group's games: the thread ends its
    /// pages now, while the next row group fills.
    fn close(&mut self) {
        self.lost |= !self.send();
        drop(self.games.take());
    }

    fn finish(mut self) -> Result<Chunks, ParquetError> {
        self.close();
        let done = self.done.join().unwrap_or_else(|_| {
            Err(ParquetError::General(
                "the thread encoding a row group failed".to_owned(),
            ))
        });
        match (self.lost, done) {
            (true, Ok(_)) => Err(ParquetError::General(
                "the thread encoding a row group stopped".to_owned(),
            )),
            (_, done) => done,
        }
    }
}

/// The row group being filled: encoded here or on a thread.
enum Filling {
    Here(Box<Group>),
    Away(Encoder),
}

/// The plies table of a file being written: row groups of [`WriteOptions::row_group_rows`]
/// plies (a game's are not divided) or about 128 MB, encoded on the caller's
/// thread or, with [`WriteOptions::encoders`], each on a thread of its own while the
/// next fills, and appended in order: the file is the same for any number.
pub struct PliesFile<W: Write + Send> {
    file: SerializedFileWriter<W>,
    schema: SchemaDescPtr,
    options: WriteOptions,
    fen: bool,
    filling: Option<Filling>,
    /// The row group's plies, and its bytes as the rows' size foretells them.
    group_rows: usize,
    group_bytes: usize,
    /// Row groups filled and still being encoded, oldest first.
    encoding: VecDeque<Encoder>,
    written: usize,
}

impl<W: Write + Send> std::fmt::Debug for PliesFile<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PliesFile")
            .field("rows", &self.rows())
            .field("fen", &self.fen)
            .finish_non_exhaustive()
    }
}

/// What a game's rows foretell of the bytes they take in a row group: its FENs' and
/// a few bytes a ply for the rest (what decides when a row group ends must be known
/// before its pages are encoded, on whichever thread).
fn foretold(record: &ExportedRecord) -> usize {
    16 * record.plies.len() + record.fens.text_len()
}

impl<W: Write + Send> PliesFile<W> {
    /// The plies table (with its `fen` column when `fen`) written to `out`, its pages
    /// compressed by `options.codec`, in row groups of `options.row_group_rows` and
    /// pages of `options.batch_rows` (a game's plies are not divided).
    pub fn new(out: W, fen: bool, options: WriteOptions) -> Result<Self, ParquetError> {
        let schema = plies_schema(fen);
        let descr = ArrowSchemaConverter::new().convert(&schema)?;
        let mut props = WriterProperties::builder()
            .set_created_by(format!("pocketfen {}", env!("CARGO_PKG_VERSION")))
            .build();
        add_encoded_arrow_schema_to_metadata(&schema, &mut props);
        let file = SerializedFileWriter::new(out, descr.root_schema_ptr(), Arc::new(props))?;
        let nags = file.schema_descr().column(NAGS);
        if file.schema_descr().num_columns() != FEN + usize::from(fen)
            || nags.max_def_level() != 2
            || nags.max_rep_level() != 1
        {
            return Err(ParquetError::General(
                "the plies table's schema is not the one its pages are written for".into(),
            ));
        }
        // The codec is tried at once, not when the first row group starts.
        Compressor::new(options.codec)?;
        Ok(PliesFile {
            schema: Arc::new(descr),
            file,
            options: WriteOptions {
                row_group_rows: options.row_group_rows.max(1),
                ..options
            },
            fen,
            filling: None,
            group_rows: 0,
            group_bytes: 0,
            encoding: VecDeque::new(),
            written: 0,
        })
    }

    /// Adds a game's plies.
    pub fn push(&mut self, record: &ExportedRecord) -> Result<(), ParquetError> {
        if self.options.encoders > 0 {
            return self.push_owned(record.clone());
        }
        if record.plies.is_empty() {
            return Ok(());
        }
        self.start_group()?;
        if let Some(Filling::Here(group)) = &mut self.filling {
            group.push(record)?;
        }
        self.counted(record.plies.len(), foretold(record))
    }

    /// Adds a game's plies, its record handed over: with [`WriteOptions::encoders`],
    /// sent as it is to the thread that encodes the row group.
    pub fn push_owned(&mut self, record: ExportedRecord) -> Result<(), ParquetError> {
        if record.plies.is_empty() {
            return Ok(());
        }
        let (rows, bytes) = (record.plies.len(), foretold(&record));
        self.start_group()?;
        match &mut self.filling {
            Some(Filling::Here(group)) => group.push(&record)?,
            Some(Filling::Away(encoder)) => {
                encoder.waiting.push(record);
                if encoder.waiting.len() >= Encoder::GAMES && !encoder.send() {
                    return self.stopped();
                }
            }
            None => {}
        }
        self.counted(rows, bytes)
    }

    /// Counts a game's rows in the row group, and ends it when it is full.
    fn counted(&mut self, rows: usize, bytes: usize) -> Result<(), ParquetError> {
        self.group_rows += rows;
        self.group_bytes += bytes;
        self.written += rows;
        if self.group_rows >= self.options.row_group_rows || self.group_bytes >= GROUP_BYTES {
            self.end_group()?;
        }
        Ok(())
    }

    /// A row group to fill, a thread for it free first.
    fn start_group(&mut self) -> Result<(), ParquetError> {
        if self.filling.is_some() {
            return Ok(());
        }
        // At most `encoders` threads, this row group's among them: the oldest row groups'
        // are waited for.
        while !self.encoding.is_empty() && self.encoding.len() + 1 > self.options.encoders {
            self.append_oldest()?;
        }
        let group = Group::new(&self.schema, self.fen, self.options)?;
        self.filling = Some(if self.options.encoders == 0 {
            Filling::Here(Box::new(group))
        } else {
            Filling::Away(Encoder::start(group)?)
        });
        Ok(())
    }

    /// The thread of the row group being filled stopped: its error.
    fn stopped(&mut self) -> Result<(), ParquetError> {
        let error = match self.filling.take() {
            Some(Filling::Away(encoder)) => encoder.finish().err(),
            _ => None,
        };
        Err(error.unwrap_or_else(|| {
            ParquetError::General("the thread encoding a row group stopped".to_owned())
        }))
    }

    fn end_group(&mut self) -> Result<(), ParquetError> {
        self.group_rows = 0;
        self.group_bytes = 0;
        match self.filling.take() {
            None => Ok(()),
            Some(Filling::Here(group)) => {
                let chunks = (*group).close()?;
                self.append(chunks)
            }
            Some(Filling::Away(mut encoder)) => {
                encoder.close();
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

    fn append(&mut self, chunks: Chunks) -> Result<(), ParquetError> {
        let mut group = self.file.next_row_group()?;
        for (bytes, close) in chunks {
            group.append_column(&bytes, close)?;
        }
        group.close()?;
        Ok(())
    }

    /// Ends the row group in progress (written to the output), however few its rows,
    /// after those being encoded.
    pub fn end_row_group(&mut self) -> Result<(), ParquetError> {
        self.end_group()?;
        while !self.encoding.is_empty() {
            self.append_oldest()?;
        }
        Ok(())
    }

    /// The bytes held in memory: the row group's pages and dictionaries (as its rows
    /// foretell them while a thread encodes it; the row groups still being encoded are
    /// not counted).
    pub fn buffered(&self) -> usize {
        match &self.filling {
            Some(Filling::Here(group)) => group.size(),
            _ => self.group_bytes,
        }
    }

    /// Rows written so far.
    pub fn rows(&self) -> usize {
        self.written
    }

    /// Ends the file (its last row group and its footer) and gives the output back.
    pub fn finish(mut self) -> Result<W, ParquetError> {
        self.end_row_group()?;
        self.file.into_inner()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Options, RowOptions, game_rows};
    use crate::stream::GameSplitter;

    /// A SAN's key and a UCI move's key each stand for one spelling: two moves share a
    /// key exactly when they are spelled alike. Over a sample's plies and every legal
    /// move of positions with drops, promotions (under- and capturing), castling, and
    /// pieces that need their file, their rank or both, each with `+` and `#`.
    #[test]
    fn a_move_key_is_one_spelling() {
        use crate::position::Position;
        use crate::variant::{Rules, Variant};
        let mut rows: Vec<PlyRow> = sample_records(false)
            .into_iter()
            .flat_map(|r| r.plies)
            .collect();
        let template = rows[0].clone();
        for (fen, variant) in [
            (
                "r3k2r/pPpp1ppp/8/8/8/8/PpPP1PPP/R3K2R/QNp w KQkq - 0 1",
                Variant::Crazyhouse,
            ),
            (
                "r3k2r/pPpp1ppp/8/8/8/8/PpPP1PPP/R3K2R/QNp b KQkq - 0 1",
                Variant::Crazyhouse,
            ),
            ("Q3Q3/8/7k/8/Q3Q3/8/8/6NK w - - 0 1", Variant::Chess),
            ("3k4/8/1N3N2/8/1N3N2/8/R6R/7K w - - 0 1", Variant::Chess),
        ] {
            let setup: crate::setup::Setup = fen.parse().unwrap();
            let pos = Position::from_setup(&setup, Rules::new(variant)).unwrap();
            for m in pos.legal_moves() {
                for chess960 in [false, true] {
                    for (check, mate) in [(false, false), (true, false), (true, true)] {
                        rows.push(PlyRow {
                            san: San::from_move(&pos, m),
                            uci: m.to_uci(chess960),
                            check,
                            mate,
                            ..template.clone()
                        });
                    }
                }
            }
        }
        rows.push(PlyRow {
            san: San::Null,
            uci: UciMove::Null,
            ..template
        });
        let (mut san_keys, mut san_texts) = (HashMap::new(), HashMap::new());
        let (mut uci_keys, mut uci_texts) = (HashMap::new(), HashMap::new());
        for p in &rows {
            let (key, text) = (san_key(p), p.san_text());
            assert_eq!(
                *san_keys.entry(key).or_insert(text),
                text,
                "SAN key {key:#x}"
            );
            assert_eq!(*san_texts.entry(text).or_insert(key), key, "SAN {text}");
            let (key, text) = (uci_key(p.uci), p.uci_text());
            assert_eq!(
                *uci_keys.entry(key).or_insert(text),
                text,
                "UCI key {key:#x}"
            );
            assert_eq!(*uci_texts.entry(text).or_insert(key), key, "UCI {text}");
        }
        for text in [
            "Qa8c6", "Qa8c6+", "Qa8c6#", "Qab5", "Q8a6", "Nbd7", "Nb6d5", "Rad2", "bxa8=N",
            "O-O-O", "P@e4",
        ] {
            assert!(san_texts.contains_key(text), "{text}");
        }
        for text in ["e1g1", "e1h1", "e8h8", "b7a8n", "P@e4", "N@h1", "0000"] {
            assert!(uci_texts.contains_key(text), "{text}");
        }
        assert!(san_keys.len() > 1000 && uci_keys.len() > 500);
    }

    /// The records of a sample's 100 crazyhouse games, with their FENs when `fen`.
    fn sample_records(fen: bool) -> Vec<ExportedRecord> {
        let path = format!(
            "{}/samples/cutechess_zh_2019_CrazyAra-vs-Stockfish.pgn",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read(path).expect("the sample");
        let asked = RowOptions {
            plies: true,
            fen,
            ..RowOptions::default()
        };
        GameSplitter::new(&text[..])
            .map(|game| {
                let game = game.expect("a game");
                let rows = game_rows(&game, &Options::default(), asked);
                ExportedRecord {
                    file: "zh.pgn".into(),
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

    /// What a game's rows foretell of their bytes decides when a row group ends, before
    /// its pages are encoded: it never counts fewer bytes than the encoded pages and
    /// dictionaries take (so that a row group stays within `GROUP_BYTES`), and not
    /// eight times as many (so that row groups are not cut small), for pages
    /// compressed or not, with FENs or not.
    #[test]
    fn the_bytes_foretold_bound_the_encoded_ones() {
        for fen in [false, true] {
            let records = sample_records(fen);
            let foretold: usize = records.iter().map(foretold).sum();
            for codec in [Codec::Zstd(1), Codec::Snappy, Codec::None] {
                let options = WriteOptions {
                    row_group_rows: 1 << 30,
                    codec,
                    ..WriteOptions::PLIES
                };
                let mut file = PliesFile::new(Vec::new(), fen, options).expect("a file");
                for r in &records {
                    file.push(r).expect("pushed");
                }
                // Every page ended, as a row group's last are when it closes.
                let Some(Filling::Here(group)) = &mut file.filling else {
                    panic!("one row group, filled here");
                };
                group.end_pages().expect("pages");
                let encoded = file.buffered();
                assert!(
                    encoded <= foretold && foretold <= 8 * encoded,
                    "FENs {fen}, {codec:?}: {foretold} bytes foretold, {encoded} encoded"
                );
            }
        }
    }

    /// Row groups encoded on threads, one or several at once, or on the caller's: the
    /// same file, byte for byte, whether the records are lent or handed over.
    #[test]
    fn encoders_write_the_same_file() {
        let records = sample_records(true);
        let plies: usize = records.iter().map(|r| r.plies.len()).sum();
        assert!(plies > 5000, "{plies} plies");
        let write_pages = |group: usize, batch_rows: usize, encoders: usize, owned: bool| {
            let options = WriteOptions {
                row_group_rows: group,
                batch_rows,
                encoders,
                ..WriteOptions::PLIES
            };
            let mut file = PliesFile::new(Vec::new(), true, options).expect("a file");
            for r in &records {
                if owned {
                    file.push_owned(r.clone()).expect("pushed");
                } else {
                    file.push(r).expect("pushed");
                }
                // At most `encoders` threads: the row group filling and those waited for.
                let threads = file.encoding.len() + usize::from(file.filling.is_some());
                assert!(threads <= encoders.max(1), "{encoders} encoders");
            }
            assert_eq!(file.rows(), plies);
            file.finish().expect("written")
        };
        let write =
            |group: usize, encoders: usize, owned: bool| write_pages(group, 300, encoders, owned);
        // Pages of any number of rows, the page buffers sized for at most 2^17 rows
        // however many are asked for: the rows are all there.
        for batch_rows in [1, 1 << 17, 1 << 40, usize::MAX] {
            let file = write_pages(1 << 20, batch_rows, 0, false);
            let meta = parquet::file::metadata::ParquetMetaDataReader::new()
                .parse_and_finish(&Bytes::from(file))
                .expect("its footer");
            assert_eq!(
                meta.file_metadata().num_rows() as usize,
                plies,
                "{batch_rows}"
            );
        }
        // Row groups of about ten games, and one of all 100 (more than a send's 64).
        for (group, groups) in [(1000, 5..usize::MAX), (1 << 20, 1..2)] {
            let expected = write(group, 0, false);
            let meta = parquet::file::metadata::ParquetMetaDataReader::new()
                .parse_and_finish(&Bytes::from(expected.clone()))
                .expect("its footer");
            assert!(
                groups.contains(&meta.num_row_groups()),
                "{} row groups",
                meta.num_row_groups()
            );
            assert_eq!(meta.file_metadata().num_rows() as usize, plies);
            for (encoders, owned) in [(0, true), (1, false), (1, true), (3, true)] {
                assert!(
                    write(group, encoders, owned) == expected,
                    "row groups of {group}: {encoders} encoders, owned: {owned}"
                );
            }
        }
    }
}
