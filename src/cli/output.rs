//! Output formats: the JSON Lines records (schema version 1, documented in the README).

use serde::Serialize;

use pocketfen::Problem;
use pocketfen::notation::fen::ParseFenError;

/// A parse error as JSON.
#[derive(Debug, Serialize)]
pub struct FenErrorDto {
    pub column: usize,
    pub field: &'static str,
    pub expected: &'static str,
    pub found: String,
    pub message: String,
}

impl From<&ParseFenError> for FenErrorDto {
    fn from(e: &ParseFenError) -> FenErrorDto {
        FenErrorDto {
            column: e.column,
            field: e.field.name(),
            expected: e.expected,
            found: e.found.clone(),
            message: e.to_string(),
        }
    }
}

/// One line of `fen convert --json`.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ConvertRecord<'a> {
    Converted {
        line: usize,
        input: &'a str,
        dialect: &'static str,
        output: &'a str,
    },
    Error {
        line: usize,
        input: &'a str,
        error: FenErrorDto,
    },
}

/// A setup problem as JSON.
#[derive(Debug, Serialize)]
pub struct ProblemDto {
    pub board: Option<&'static str>,
    pub severity: &'static str,
    pub kind: &'static str,
    pub message: String,
}

impl ProblemDto {
    pub fn new(board: Option<&'static str>, p: &Problem) -> ProblemDto {
        ProblemDto {
            board,
            severity: p.severity.name(),
            kind: p.kind.name(),
            message: p.message.clone(),
        }
    }
}

/// One line of `fen check --json`.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CheckRecord<'a> {
    Checked {
        line: usize,
        input: &'a str,
        variant: &'static str,
        valid: bool,
        problems: Vec<ProblemDto>,
    },
    Error {
        line: usize,
        input: &'a str,
        error: FenErrorDto,
    },
}

/// One line of `moves --json`.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum MoveRecord<'a> {
    Move {
        index: usize,
        token: &'a str,
        san: String,
        uci: String,
        fen: String,
        defects: Vec<String>,
    },
    Error {
        index: usize,
        token: &'a str,
        kind: &'static str,
        message: String,
        fen: String,
    },
    End {
        plies: usize,
        fen: String,
        outcome: Option<&'static str>,
    },
}
