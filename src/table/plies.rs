//! The plies table written straight into Parquet pages ([`PliesFile`]): every column but
//! the FENs is dictionary-encoded, and a value's dictionary index is found from a number
//! the ply already has (a move's SAN packed into eight bytes, a clock's bits, a pocket's
//! counts, a ply or a role), so that no value is gathered in an Arrow builder or hashed
//! as bytes. The file has the schema of [`plies_schema`] (and Arrow's form of it in its
//! metadata), as [`PliesBuilder`](super::PliesBuilder)'s batches would have it.

use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;

use parquet::arrow::{ArrowSchemaConverter, add_encoded_arrow_schema_to_metadata};
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;

use super::pages::{Column, Compressor, Stats, Values, byte_array};
use super::schema::plies_schema;
use super::write::{Codec, WriteOptions};
use crate::bughouse::BoardId;
use crate::game::{Eval, PlyRow, pocket_letters};
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

/// A role's letter.
fn letter(r: Role) -> &'static str {
    match r {
        Role::Pawn => "P",
        Role::Knight => "N",
        Role::Bishop => "B",
        Role::Rook => "R",
        Role::Queen => "Q",
        Role::King => "K",
    }
}

/// The key of a short string (a SAN, a UCI move): its bytes, when there are at most
/// seven (the top byte then is zero), else a number of its own from `long`.
fn string_key(s: &str, long: &mut HashMap<String, u64>) -> u64 {
    let b = s.as_bytes();
    if b.len() <= 7 {
        // Byte by byte: a copy of a length not known here would be a call to memcpy.
        return b.iter().rev().fold(0, |k, &c| k << 8 | u64::from(c));
    }
    let next = long.len() as u64 | (0xff << 56);
    *long.entry(s.to_owned()).or_insert(next)
}

/// The plies table of a file being written.
pub struct PliesFile<W: Write + Send> {
    file: SerializedFileWriter<W>,
    columns: Vec<Column>,
    codec: Codec,
    compressor: Compressor,
    row_group_rows: usize,
    /// Rows of a page.
    page_size: usize,
    fen: bool,
    page_rows: usize,
    group_rows: usize,
    written: usize,
    /// Dictionary keys of the row group's strings met once a game (files, Sites), and
    /// of the long SANs and UCIs.
    files: HashMap<String, u64>,
    sites: HashMap<String, u64>,
    long: HashMap<String, u64>,
    /// A pocket's letters being written.
    letters: String,
}

impl<W: Write + Send> std::fmt::Debug for PliesFile<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PliesFile")
            .field("rows", &self.rows())
            .field("fen", &self.fen)
            .finish_non_exhaustive()
    }
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
        let columns: Vec<Column> = file
            .schema_descr()
            .columns()
            .iter()
            .zip(LAYOUT)
            .map(|(d, (values, stats))| Column::new(d.clone(), values, stats))
            .collect();
        let nags = file.schema_descr().column(NAGS);
        if columns.len() != FEN + usize::from(fen)
            || nags.max_def_level() != 2
            || nags.max_rep_level() != 1
        {
            return Err(ParquetError::General(
                "the plies table's schema is not the one its pages are written for".into(),
            ));
        }
        Ok(PliesFile {
            file,
            columns,
            codec: options.codec,
            compressor: Compressor::new(options.codec)?,
            row_group_rows: options.row_group_rows.max(1),
            page_size: options.batch_rows.max(1),
            fen,
            page_rows: 0,
            group_rows: 0,
            written: 0,
            files: HashMap::new(),
            sites: HashMap::new(),
            long: HashMap::new(),
            letters: String::with_capacity(32),
        })
    }

    /// Adds a game's plies.
    pub fn push(&mut self, record: &ExportedRecord) -> Result<(), ParquetError> {
        if record.plies.is_empty() {
            return Ok(());
        }
        let c = &mut self.columns;
        let next = self.files.len() as u64;
        let key = *self.files.entry(record.file.clone()).or_insert(next);
        let file = c[FILE].index(key, |d| byte_array(d, record.file.as_bytes()));
        let game = c[GAME].index_i64(record.game as i64);
        let site = record.row.site.as_deref().map(|s| {
            let next = self.sites.len() as u64;
            let key = *self.sites.entry(s.to_owned()).or_insert(next);
            c[SITE].index(key, |d| byte_array(d, s.as_bytes()))
        });
        let n = record.plies.len();
        c[FILE].push_n(file, n);
        c[GAME].push_n(game, n);
        match site {
            Some(i) => c[SITE].push_n(i, n),
            None => c[SITE].push_nulls(n),
        }
        self.plies(&record.plies);
        self.page_rows += n;
        self.group_rows += n;
        self.written += n;
        if self.group_rows >= self.row_group_rows || self.buffered() >= GROUP_BYTES {
            self.end_row_group()?;
        } else if self.page_rows >= self.page_size {
            self.end_pages()?;
        }
        Ok(())
    }

    /// The plies' columns after the game's own, a column at a time.
    fn plies(&mut self, plies: &[PlyRow]) {
        let c = &mut self.columns;
        c[PLY].extend_i32(plies.iter().map(|p| Some(p.ply as i32)));
        c[BOARD].extend_str(plies.iter().map(|p| {
            p.board.map(|b| match b {
                BoardId::A => (0, "A"),
                BoardId::B => (1, "B"),
            })
        }));
        c[MOVE_NUMBER].extend_i32(plies.iter().map(|p| Some(p.move_number as i32)));
        c[SIDE].extend_str(plies.iter().map(|p| Some((p.side as u64, p.side.name()))));
        let long = &mut self.long;
        c[SAN].extend(
            plies.iter().map(|p| Some(p.san.as_str())),
            |s| string_key(s, long),
            |s, d, _| byte_array(d, s.as_bytes()),
        );
        c[UCI].extend(
            plies.iter().map(|p| Some(p.uci.as_str())),
            |s| string_key(s, long),
            |s, d, _| byte_array(d, s.as_bytes()),
        );
        c[IS_DROP].extend_bools(plies.iter().map(|p| p.is_drop));
        c[PIECE].extend_str(
            plies
                .iter()
                .map(|p| Some((p.piece as u64, letter(p.piece)))),
        );
        c[CAPTURED].extend_str(
            plies
                .iter()
                .map(|p| p.captured.map(|r| (r as u64, letter(r)))),
        );
        c[PROMOTION].extend_str(
            plies
                .iter()
                .map(|p| p.promotion.map(|r| (r as u64, letter(r)))),
        );
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
            for p in plies {
                c[FEN].plain(p.fen.as_deref().unwrap_or_default().as_bytes());
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

    /// Ends the row group in progress (written to the output), however few its rows.
    pub fn end_row_group(&mut self) -> Result<(), ParquetError> {
        if self.group_rows == 0 {
            return Ok(());
        }
        let mut group = self.file.next_row_group()?;
        for c in &mut self.columns {
            let (bytes, close) = c.end_chunk(&mut self.compressor, self.codec, self.group_rows)?;
            group.append_column(&bytes, close)?;
        }
        group.close()?;
        self.page_rows = 0;
        self.group_rows = 0;
        self.files.clear();
        self.sites.clear();
        self.long.clear();
        Ok(())
    }

    /// The bytes held in memory: the row group's pages and dictionaries.
    pub fn buffered(&self) -> usize {
        self.columns.iter().map(Column::size).sum()
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
