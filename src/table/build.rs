//! Rows into Arrow record batches: [`GamesBuilder`] and [`PliesBuilder`] gather the rows
//! of [`ExportedRecord`]s, column by column, and hand them out as a [`RecordBatch`].

use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Date32Builder, Float64Builder, Int16Builder, Int32Builder, Int64Builder,
    ListBuilder, StringBuilder, Time32MillisecondBuilder, UInt8Builder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, SchemaRef};

use super::schema::{games_schema, plies_schema};
use super::write::Rows;
use crate::bughouse::BoardId;
use crate::game::{Eval, pocket_letters};
use crate::run::record::ExportedRecord;
use crate::types::{Color, Role};

fn color(c: Color) -> &'static str {
    c.name()
}

/// A board's name, as the tables write it.
pub(super) fn board_name(b: BoardId) -> &'static str {
    match b {
        BoardId::A => "A",
        BoardId::B => "B",
    }
}

/// A role's letter, as the tables write it.
pub(super) fn role_letter(r: Role) -> &'static str {
    match r {
        Role::Pawn => "P",
        Role::Knight => "N",
        Role::Bishop => "B",
        Role::Rook => "R",
        Role::Queen => "Q",
        Role::King => "K",
    }
}

/// The games table's rows, gathered column by column.
pub struct GamesBuilder {
    schema: SchemaRef,
    /// Lichess's string columns, then its Int16 ones.
    strings: [StringBuilder; 7],
    ints: [Int16Builder; 4],
    utc_date: Date32Builder,
    utc_time: Time32MillisecondBuilder,
    late_strings: [StringBuilder; 4],
    movetext: StringBuilder,
    variant: StringBuilder,
    fen: StringBuilder,
    plies: Int32Builder,
    ending: StringBuilder,
    ending_board: StringBuilder,
    winner: StringBuilder,
    valid: BooleanBuilder,
    problems: Int32Builder,
    problem_kind: StringBuilder,
    problem_line: Int64Builder,
    problem_column: Int32Builder,
    problem_ply: Int32Builder,
    file: StringBuilder,
    game: Int64Builder,
    line: Int64Builder,
    players: [StringBuilder; 4],
    ratings: [Int16Builder; 4],
    date: StringBuilder,
    unfit: StringBuilder,
    opening_eco: StringBuilder,
    opening_name: StringBuilder,
    opening_ply: Int32Builder,
    rows: usize,
    bytes: usize,
}

impl std::fmt::Debug for GamesBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GamesBuilder")
            .field("rows", &self.rows)
            .finish_non_exhaustive()
    }
}

impl Default for GamesBuilder {
    fn default() -> GamesBuilder {
        GamesBuilder::new()
    }
}

impl GamesBuilder {
    /// An empty table.
    pub fn new() -> GamesBuilder {
        GamesBuilder {
            schema: games_schema(),
            strings: Default::default(),
            ints: Default::default(),
            utc_date: Date32Builder::new(),
            utc_time: Time32MillisecondBuilder::new(),
            late_strings: Default::default(),
            movetext: StringBuilder::new(),
            variant: StringBuilder::new(),
            fen: StringBuilder::new(),
            plies: Int32Builder::new(),
            ending: StringBuilder::new(),
            ending_board: StringBuilder::new(),
            winner: StringBuilder::new(),
            valid: BooleanBuilder::new(),
            problems: Int32Builder::new(),
            problem_kind: StringBuilder::new(),
            problem_line: Int64Builder::new(),
            problem_column: Int32Builder::new(),
            problem_ply: Int32Builder::new(),
            file: StringBuilder::new(),
            game: Int64Builder::new(),
            line: Int64Builder::new(),
            players: Default::default(),
            ratings: Default::default(),
            date: StringBuilder::new(),
            unfit: StringBuilder::new(),
            opening_eco: StringBuilder::new(),
            opening_name: StringBuilder::new(),
            opening_ply: Int32Builder::new(),
            rows: 0,
            bytes: 0,
        }
    }
}

impl Rows for GamesBuilder {
    /// Adds a game's row.
    fn push(&mut self, record: &ExportedRecord) {
        let r = &record.row;
        let strings = [
            &r.event,
            &r.site,
            &r.white,
            &r.black,
            &r.result,
            &r.white_title,
            &r.black_title,
        ];
        for (b, v) in self.strings.iter_mut().zip(strings) {
            b.append_option(v.as_deref());
        }
        let ints = [
            r.white_elo,
            r.black_elo,
            r.white_rating_diff,
            r.black_rating_diff,
        ];
        for (b, v) in self.ints.iter_mut().zip(ints) {
            b.append_option(v);
        }
        self.utc_date.append_option(r.utc_date);
        self.utc_time.append_option(r.utc_time.map(|s| s * 1000));
        let late = [&r.eco, &r.opening, &r.termination, &r.time_control];
        for (b, v) in self.late_strings.iter_mut().zip(late) {
            b.append_option(v.as_deref());
        }
        self.movetext.append_value(&r.movetext);
        self.variant.append_option(r.variant.as_deref());
        self.fen.append_option(r.fen.as_deref());
        self.plies.append_value(r.plies as i32);
        self.ending.append_option(r.end.map(|e| e.name()));
        self.ending_board.append_option(r.end_board.map(board_name));
        self.winner.append_option(r.winner.map(color));
        self.valid.append_value(r.valid);
        self.problems.append_value(r.problems as i32);
        let p = r.first_problem.as_ref();
        self.problem_kind.append_option(p.map(|p| p.kind));
        self.problem_line.append_option(p.map(|p| p.line as i64));
        self.problem_column
            .append_option(p.map(|p| p.column as i32));
        self.problem_ply
            .append_option(p.and_then(|p| p.ply).map(|n| n as i32));
        self.file.append_value(&record.file);
        self.game.append_value(record.game as i64);
        self.line.append_value(record.line as i64);
        for (b, v) in self.players.iter_mut().zip(&r.players) {
            b.append_option(v.as_deref());
        }
        for (b, v) in self.ratings.iter_mut().zip(r.ratings) {
            b.append_option(v);
        }
        self.date.append_option(r.date.as_deref());
        if r.unfit.is_empty() {
            self.unfit.append_null();
        } else {
            self.unfit.append_value(r.unfit.join(","));
        }
        self.opening_eco
            .append_option(r.named_opening.map(|n| n.eco));
        self.opening_name
            .append_option(r.named_opening.map(|n| n.name));
        self.opening_ply.append_option(
            r.named_opening
                .map(|n| i32::try_from(n.ply).unwrap_or(i32::MAX)),
        );
        self.rows += 1;
        self.bytes += r.movetext.len() + 256;
    }

    /// Rows gathered.
    fn len(&self) -> usize {
        self.rows
    }

    /// A rough size of the rows gathered, in bytes.
    fn size(&self) -> usize {
        self.bytes
    }

    /// The rows gathered as a batch; the builder starts again empty.
    fn finish(&mut self) -> Result<RecordBatch, ArrowError> {
        let mut columns: Vec<ArrayRef> = Vec::with_capacity(self.schema.fields().len());
        for b in &mut self.strings {
            columns.push(Arc::new(b.finish()));
        }
        for b in &mut self.ints {
            columns.push(Arc::new(b.finish()));
        }
        columns.push(Arc::new(self.utc_date.finish()));
        columns.push(Arc::new(self.utc_time.finish()));
        for b in &mut self.late_strings {
            columns.push(Arc::new(b.finish()));
        }
        columns.push(Arc::new(self.movetext.finish()));
        columns.push(Arc::new(self.variant.finish()));
        columns.push(Arc::new(self.fen.finish()));
        columns.push(Arc::new(self.plies.finish()));
        columns.push(Arc::new(self.ending.finish()));
        columns.push(Arc::new(self.ending_board.finish()));
        columns.push(Arc::new(self.winner.finish()));
        columns.push(Arc::new(self.valid.finish()));
        columns.push(Arc::new(self.problems.finish()));
        columns.push(Arc::new(self.problem_kind.finish()));
        columns.push(Arc::new(self.problem_line.finish()));
        columns.push(Arc::new(self.problem_column.finish()));
        columns.push(Arc::new(self.problem_ply.finish()));
        columns.push(Arc::new(self.file.finish()));
        columns.push(Arc::new(self.game.finish()));
        columns.push(Arc::new(self.line.finish()));
        for b in &mut self.players {
            columns.push(Arc::new(b.finish()));
        }
        for b in &mut self.ratings {
            columns.push(Arc::new(b.finish()));
        }
        columns.push(Arc::new(self.date.finish()));
        columns.push(Arc::new(self.unfit.finish()));
        columns.push(Arc::new(self.opening_eco.finish()));
        columns.push(Arc::new(self.opening_name.finish()));
        columns.push(Arc::new(self.opening_ply.finish()));
        self.rows = 0;
        self.bytes = 0;
        RecordBatch::try_new(Arc::clone(&self.schema), columns)
    }

    /// The table's schema.
    fn schema(&self) -> SchemaRef {
        Arc::clone(&self.schema)
    }

    /// The movetext, the Site (a game's URL) and the numbers that place a game.
    fn plain_columns(&self) -> &'static [&'static str] {
        &["movetext", "Site", "game", "line", "problem_line"]
    }
}

/// The plies table's rows, gathered column by column.
pub struct PliesBuilder {
    schema: SchemaRef,
    fen: bool,
    file: StringBuilder,
    game: Int64Builder,
    site: StringBuilder,
    ply: Int32Builder,
    board: StringBuilder,
    move_number: Int32Builder,
    side: StringBuilder,
    san: StringBuilder,
    uci: StringBuilder,
    is_drop: BooleanBuilder,
    piece: StringBuilder,
    captured: StringBuilder,
    promotion: StringBuilder,
    check: BooleanBuilder,
    mate: BooleanBuilder,
    white_pocket: StringBuilder,
    black_pocket: StringBuilder,
    clock: Float64Builder,
    elapsed: Float64Builder,
    eval_cp: Int32Builder,
    eval_mate: Int16Builder,
    nags: ListBuilder<UInt8Builder>,
    fens: StringBuilder,
    /// A pocket's letters being written.
    letters: String,
    rows: usize,
    bytes: usize,
}

impl std::fmt::Debug for PliesBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PliesBuilder")
            .field("rows", &self.rows)
            .field("fen", &self.fen)
            .finish_non_exhaustive()
    }
}

impl PliesBuilder {
    /// An empty table, with a `fen` column when `fen`.
    pub fn new(fen: bool) -> PliesBuilder {
        PliesBuilder::with_capacity(fen, 0)
    }

    /// An empty table with room for `rows` plies in every column, so that a batch's
    /// columns grow without copies when it is about as large as the last one.
    fn with_capacity(fen: bool, rows: usize) -> PliesBuilder {
        let strings = |bytes: usize| StringBuilder::with_capacity(rows, rows * bytes);
        PliesBuilder {
            schema: plies_schema(fen),
            fen,
            file: strings(16),
            game: Int64Builder::with_capacity(rows),
            site: strings(32),
            ply: Int32Builder::with_capacity(rows),
            board: strings(0),
            move_number: Int32Builder::with_capacity(rows),
            side: strings(5),
            san: strings(5),
            uci: strings(4),
            is_drop: BooleanBuilder::with_capacity(rows),
            piece: strings(1),
            captured: strings(0),
            promotion: strings(0),
            check: BooleanBuilder::with_capacity(rows),
            mate: BooleanBuilder::with_capacity(rows),
            white_pocket: strings(0),
            black_pocket: strings(0),
            clock: Float64Builder::with_capacity(rows),
            elapsed: Float64Builder::with_capacity(rows),
            eval_cp: Int32Builder::with_capacity(rows),
            eval_mate: Int16Builder::with_capacity(rows),
            nags: ListBuilder::with_capacity(UInt8Builder::new(), rows),
            fens: if fen { strings(60) } else { strings(0) },
            letters: String::with_capacity(32),
            rows: 0,
            bytes: 0,
        }
    }
}

impl Rows for PliesBuilder {
    /// Adds a game's ply rows.
    fn push(&mut self, record: &ExportedRecord) {
        let site = record.row.site.as_deref();
        let mut fens = record.fens.iter();
        for p in &record.plies {
            self.file.append_value(&record.file);
            self.game.append_value(record.game as i64);
            self.site.append_option(site);
            self.ply.append_value(p.ply as i32);
            self.board.append_option(p.board.map(board_name));
            self.move_number.append_value(p.move_number as i32);
            self.side.append_value(color(p.side));
            self.san.append_value(p.san_text());
            self.uci.append_value(p.uci_text());
            self.is_drop.append_value(p.is_drop);
            self.piece.append_value(role_letter(p.piece));
            self.captured.append_option(p.captured.map(role_letter));
            self.promotion.append_option(p.promotion.map(role_letter));
            self.check.append_value(p.check);
            self.mate.append_value(p.mate);
            match &p.pockets {
                Some(pockets) => {
                    for (color, column) in [
                        (Color::White, &mut self.white_pocket),
                        (Color::Black, &mut self.black_pocket),
                    ] {
                        self.letters.clear();
                        pocket_letters(&mut self.letters, &pockets[color], color);
                        column.append_value(&self.letters);
                    }
                }
                None => {
                    self.white_pocket.append_null();
                    self.black_pocket.append_null();
                }
            }
            self.clock.append_option(p.clock);
            self.elapsed.append_option(p.elapsed);
            let (cp, mate) = match p.eval {
                Some(Eval::Centipawns(n)) => (Some(n), None),
                Some(Eval::Mate(n)) => (None, Some(n.clamp(-32768, 32767) as i16)),
                None => (None, None),
            };
            self.eval_cp.append_option(cp);
            self.eval_mate.append_option(mate);
            self.nags.values().append_slice(&p.nags);
            self.nags.append(true);
            if self.fen {
                let fen = fens.next().unwrap_or_default();
                self.fens.append_value(fen);
                self.bytes += fen.len();
            }
            self.rows += 1;
            self.bytes += 64 + record.file.len() + site.map_or(0, str::len);
        }
    }

    /// Rows gathered.
    fn len(&self) -> usize {
        self.rows
    }

    /// A rough size of the rows gathered, in bytes.
    fn size(&self) -> usize {
        self.bytes
    }

    /// The rows gathered as a batch; the builder starts again empty, with room for as
    /// many rows as this batch had.
    fn finish(&mut self) -> Result<RecordBatch, ArrowError> {
        let fresh = PliesBuilder::with_capacity(self.fen, self.rows);
        let mut full = std::mem::replace(self, fresh);
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(full.file.finish()),
            Arc::new(full.game.finish()),
            Arc::new(full.site.finish()),
            Arc::new(full.ply.finish()),
            Arc::new(full.board.finish()),
            Arc::new(full.move_number.finish()),
            Arc::new(full.side.finish()),
            Arc::new(full.san.finish()),
            Arc::new(full.uci.finish()),
            Arc::new(full.is_drop.finish()),
            Arc::new(full.piece.finish()),
            Arc::new(full.captured.finish()),
            Arc::new(full.promotion.finish()),
            Arc::new(full.check.finish()),
            Arc::new(full.mate.finish()),
            Arc::new(full.white_pocket.finish()),
            Arc::new(full.black_pocket.finish()),
            Arc::new(full.clock.finish()),
            Arc::new(full.elapsed.finish()),
            Arc::new(full.eval_cp.finish()),
            Arc::new(full.eval_mate.finish()),
            Arc::new(full.nags.finish()),
        ];
        if full.fen {
            columns.push(Arc::new(full.fens.finish()));
        }
        RecordBatch::try_new(full.schema, columns)
    }

    /// The table's schema.
    fn schema(&self) -> SchemaRef {
        Arc::clone(&self.schema)
    }

    /// The FEN after each move, since a position seldom comes back; the Site and the
    /// game's number, whose runs (one value on each of a game's plies) the codec
    /// compresses for less than a dictionary's hashing of every value. The other
    /// columns repeat (a few thousand moves, a few pockets), and their dictionary
    /// pages cost less to write than the codec's work on plain ones, and make the
    /// file smaller (callgrind, docs/PERFORMANCE.md).
    fn plain_columns(&self) -> &'static [&'static str] {
        &["fen", "Site", "game"]
    }
}
