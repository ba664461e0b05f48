//! The two tables' schemas: the games table (Lichess's columns with Lichess's types
//! first, then pocketfen's) and the plies table.

use std::sync::Arc;

use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};

/// Lichess's columns, in the order and with the types of its Parquet files.
pub const LICHESS_COLUMNS: [(&str, LichessType); 18] = [
    ("Event", LichessType::String),
    ("Site", LichessType::String),
    ("White", LichessType::String),
    ("Black", LichessType::String),
    ("Result", LichessType::String),
    ("WhiteTitle", LichessType::String),
    ("BlackTitle", LichessType::String),
    ("WhiteElo", LichessType::Int16),
    ("BlackElo", LichessType::Int16),
    ("WhiteRatingDiff", LichessType::Int16),
    ("BlackRatingDiff", LichessType::Int16),
    ("UTCDate", LichessType::Date),
    ("UTCTime", LichessType::Time),
    ("ECO", LichessType::String),
    ("Opening", LichessType::String),
    ("Termination", LichessType::String),
    ("TimeControl", LichessType::String),
    ("movetext", LichessType::String),
];

/// The type of one of Lichess's columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LichessType {
    /// `string`.
    String,
    /// `int16`.
    Int16,
    /// `date32[day]`.
    Date,
    /// `time32`: seconds since midnight, stored as Parquet's `TIME(MILLIS)`, as pyarrow
    /// stores (and reads back as `time32[ms]`) the `time32[s]` of Lichess's tables.
    Time,
}

impl LichessType {
    fn data_type(self) -> DataType {
        match self {
            LichessType::String => DataType::Utf8,
            LichessType::Int16 => DataType::Int16,
            LichessType::Date => DataType::Date32,
            LichessType::Time => DataType::Time32(TimeUnit::Millisecond),
        }
    }
}

/// pocketfen's columns of the games table, after Lichess's.
const POCKETFEN_GAME_COLUMNS: [(&str, DataType, bool); 28] = [
    ("variant", DataType::Utf8, true),
    ("fen", DataType::Utf8, true),
    ("plies", DataType::Int32, false),
    ("ending", DataType::Utf8, true),
    ("ending_board", DataType::Utf8, true),
    ("winner", DataType::Utf8, true),
    ("valid", DataType::Boolean, false),
    ("problems", DataType::Int32, false),
    ("problem_kind", DataType::Utf8, true),
    ("problem_line", DataType::Int64, true),
    ("problem_column", DataType::Int32, true),
    ("problem_ply", DataType::Int32, true),
    ("file", DataType::Utf8, false),
    ("game", DataType::Int64, false),
    ("line", DataType::Int64, false),
    ("WhiteA", DataType::Utf8, true),
    ("BlackA", DataType::Utf8, true),
    ("WhiteB", DataType::Utf8, true),
    ("BlackB", DataType::Utf8, true),
    ("WhiteAElo", DataType::Int16, true),
    ("BlackAElo", DataType::Int16, true),
    ("WhiteBElo", DataType::Int16, true),
    ("BlackBElo", DataType::Int16, true),
    ("Date", DataType::Utf8, true),
    ("unfit", DataType::Utf8, true),
    ("opening_eco", DataType::Utf8, true),
    ("opening_name", DataType::Utf8, true),
    ("opening_ply", DataType::Int32, true),
];

/// The games table's schema: one row per game.
pub fn games_schema() -> SchemaRef {
    let mut fields: Vec<Field> = LICHESS_COLUMNS
        .iter()
        .map(|(name, t)| Field::new(*name, t.data_type(), true))
        .collect();
    fields.extend(
        POCKETFEN_GAME_COLUMNS
            .iter()
            .map(|(name, t, null)| Field::new(*name, t.clone(), *null)),
    );
    Arc::new(Schema::new(fields))
}

/// The field of a list's items, as Arrow's list builders name it.
fn item(t: DataType) -> Arc<Field> {
    Arc::new(Field::new("item", t, true))
}

/// The plies table's schema: one row per mainline ply (with its `fen` column when
/// `fen`).
pub fn plies_schema(fen: bool) -> SchemaRef {
    let mut fields = vec![
        Field::new("file", DataType::Utf8, false),
        Field::new("game", DataType::Int64, false),
        Field::new("Site", DataType::Utf8, true),
        Field::new("ply", DataType::Int32, false),
        Field::new("board", DataType::Utf8, true),
        Field::new("move_number", DataType::Int32, false),
        Field::new("side", DataType::Utf8, false),
        Field::new("san", DataType::Utf8, false),
        Field::new("uci", DataType::Utf8, false),
        Field::new("is_drop", DataType::Boolean, false),
        Field::new("piece", DataType::Utf8, false),
        Field::new("captured", DataType::Utf8, true),
        Field::new("promotion", DataType::Utf8, true),
        Field::new("check", DataType::Boolean, false),
        Field::new("mate", DataType::Boolean, false),
        Field::new("white_pocket", DataType::Utf8, true),
        Field::new("black_pocket", DataType::Utf8, true),
        Field::new("clock", DataType::Float64, true),
        Field::new("elapsed", DataType::Float64, true),
        Field::new("eval_cp", DataType::Int32, true),
        Field::new("eval_mate", DataType::Int16, true),
        Field::new("nags", DataType::List(item(DataType::UInt8)), false),
    ];
    if fen {
        fields.push(Field::new("fen", DataType::Utf8, false));
    }
    Arc::new(Schema::new(fields))
}
