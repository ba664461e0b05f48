//! Command-line arguments (clap derive).

use std::ffi::OsStr;
use std::marker::PhantomData;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Args, Parser, Subcommand, ValueEnum};

use pocketfen::game::{Format, PlyText};
use pocketfen::notation::fen::FenDialect;
use pocketfen::notation::san::DropStyle;
use pocketfen::run::MAX_JOBS;
use pocketfen::{Choice, ParseNameError, Variant};

mod pgn;
pub use pgn::{DedupeArgs, FixArgs, PgnCommand, PgnConvertArgs, SelectArgs, SplitArgs};

/// Notation and rules for pocket chess variants: convert FENs between sites, check
/// positions, count moves.
#[derive(Debug, Parser)]
#[command(name = "pocketfen", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Read, convert, check and show FEN positions.
    #[command(subcommand)]
    Fen(FenCommand),
    /// Count the leaf nodes of the legal-move tree (move generator test).
    Perft(PerftArgs),
    /// Play moves (SAN, UCI or long algebraic, mixed) from a position: prints each move converted, then
    /// the final FEN.
    Moves(MovesArgs),
    /// List every legal move of a position, sorted.
    Legal(LegalArgs),
    /// Name the opening of a move list, as Lichess does (its opening list, compiled in):
    /// the deepest named position of a chess or crazyhouse game from the standard start.
    Opening(OpeningArgs),
    /// Validate PGN archives (plain, .zst, .gz, .bz2 or stdin): replay every game and report
    /// each problem with file:line:column, game, ply and token.
    Validate(ValidateArgs),
    /// Replay PGN games and print, per ply, the FEN after it, the SAN or the UCI.
    Replay(ReplayArgs),
    /// Write games as Parquet tables for DuckDB, Polars, pandas or Spark: a row per game
    /// (Lichess's columns first, then what the replay found) and a row per ply.
    Export(ExportArgs),
    /// PGN archives: re-export for a site, select, deduplicate and split.
    #[command(subcommand)]
    Pgn(Box<PgnCommand>),
    /// Join the `--json` outputs of the parts of a split run (`--split K/N`), given in
    /// any order (each says its number), into what one run over the whole file writes:
    /// records renumbered,
    /// summaries summed; the parts are checked to be of one unchanged file, read with
    /// the same options, each ending where the next begins.
    Merge(MergeArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish or powershell) on stdout.
    Completions(CompletionsArgs),
    /// Print the manual page (roff) on stdout, or write every page (one per command and
    /// subcommand: pocketfen-validate.1, pocketfen-fen-convert.1…) into a directory.
    Manpage(ManpageArgs),
}

/// Arguments of `manpage`.
#[derive(Debug, Args)]
pub struct ManpageArgs {
    /// Write every page into this directory (created when missing) instead of printing
    /// pocketfen(1).
    #[arg(value_name = "DIR")]
    pub dir: Option<std::path::PathBuf>,
}

/// Arguments of `merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The parts' JSON Lines files, parts 1 to N in any order (a pipe is read once).
    #[arg(required = true, value_name = "PART")]
    pub parts: Vec<std::path::PathBuf>,
    /// Write the text the command prints without `--json` instead of JSON Lines.
    #[arg(long)]
    pub text: bool,
}

/// Arguments of `completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Subcommand)]
pub enum FenCommand {
    /// Convert FENs to another site's dialect: one output line per input line.
    Convert(ConvertArgs),
    /// Check that positions are legal; prints every problem of every position.
    Check(CheckArgs),
    /// Draw a position: board, pockets, promoted pieces, side to move, castling, e.p.
    Show(ShowArgs),
    /// Write the analysis-board URL of positions on a site: one URL per input line.
    Url(UrlArgs),
}

/// A site with an analysis board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Site {
    /// lichess.org: `https://lichess.org/analysis/<variant>/<fen>`, the FEN in Lichess's
    /// dialect with `_` for spaces (chess, chess960, crazyhouse and horde).
    Lichess,
}

#[derive(Debug, Args)]
pub struct UrlArgs {
    /// The site whose analysis board to open.
    #[arg(long, value_enum, default_value = "lichess")]
    pub site: Site,
    /// The variant of the positions; `auto` reads it off each FEN, as `fen check` does.
    /// The URL names it: Lichess reads a crazyhouse FEN as chess without it (lila#16886).
    #[arg(long, value_parser = auto::<Variant>(), default_value = "auto")]
    pub variant: Auto<Variant>,
    #[command(flatten)]
    pub input: FenInput,
}

/// A value the library names ([`Choice`]): its names complete and show in `--help`, and
/// every alias the library reads is accepted.
#[derive(Clone)]
pub struct Named<T> {
    _of: PhantomData<fn() -> T>,
}

/// A value named by the library's `FromStr`, one of its [`Choice::NAMES`].
fn named<T>() -> Named<T> {
    Named { _of: PhantomData }
}

/// A choice that may be `auto` (`None`). An alias, so that clap's derive takes the whole
/// `Option` as the value (it unwraps a literal `Option` into an optional argument).
pub type Auto<T> = Option<T>;

/// `auto` or a value named by the library: `None` for `auto`.
#[derive(Clone)]
pub struct AutoNamed<T> {
    _of: PhantomData<fn() -> T>,
}

/// `auto` or a value named by the library.
fn auto<T>() -> AutoNamed<T> {
    AutoNamed { _of: PhantomData }
}

/// `auto`, then the names of `T`.
fn with_auto<T: Choice>() -> impl Iterator<Item = &'static str> {
    std::iter::once("auto").chain(T::NAMES.iter().copied())
}

/// Reads `value` with `parse`, or says which values are valid as clap says it.
fn read_named<V>(
    cmd: &clap::Command,
    arg: Option<&clap::Arg>,
    value: &OsStr,
    names: impl Iterator<Item = &'static str>,
    parse: impl FnOnce(&str) -> Result<V, ParseNameError>,
) -> Result<V, clap::Error> {
    let text = value.to_string_lossy();
    parse(&text).map_err(|_| {
        let mut err = clap::Error::new(ErrorKind::InvalidValue).with_cmd(cmd);
        if let Some(arg) = arg {
            err.insert(
                ContextKind::InvalidArg,
                ContextValue::String(arg.to_string()),
            );
        }
        err.insert(
            ContextKind::InvalidValue,
            ContextValue::String(text.into_owned()),
        );
        err.insert(
            ContextKind::ValidValue,
            ContextValue::Strings(names.map(str::to_owned).collect()),
        );
        err
    })
}

impl<T: Choice> TypedValueParser for Named<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        read_named(cmd, arg, value, T::NAMES.iter().copied(), str::parse)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(T::NAMES.iter().map(|n| PossibleValue::new(*n))))
    }
}

impl<T: Choice> TypedValueParser for AutoNamed<T> {
    type Value = Option<T>;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Option<T>, clap::Error> {
        read_named(cmd, arg, value, with_auto::<T>(), |s| {
            if s.eq_ignore_ascii_case("auto") {
                Ok(None)
            } else {
                s.parse().map(Some)
            }
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(with_auto::<T>().map(PossibleValue::new)))
    }
}

/// Where FENs come from.
#[derive(Debug, Args)]
pub struct FenInput {
    /// FENs to read, each quoted (the shell splits an unquoted FEN at its spaces); `-`,
    /// or none, reads one per line from stdin. A Lichess analysis URL or a `[FEN "…"]`
    /// tag line is read as the FEN it carries.
    pub fens: Vec<String>,
    /// Write JSON Lines instead of text (schema in docs/REFERENCE.md).
    #[arg(long)]
    pub json: bool,
    /// Flush the output after every line, also into a pipe (it is when stdin or stdout
    /// is a terminal), for use as a coprocess.
    #[arg(long)]
    pub line_buffered: bool,
}

#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The dialect to write: lichess (`…/RNBQKBNR/Pq`, an empty pocket a trailing `/`),
    /// xboard (`…[Pq]`, empty `[-]`), chesscom (the pocket after the full-move number,
    /// then the promoted squares) or bracket (python-chess, Fairy-Stockfish: `…[Qp]`,
    /// empty `[]`).
    #[arg(long, value_parser = named::<FenDialect>())]
    pub to: FenDialect,
    /// The dialect to read; with a dialect, a pocket spelled another way is an error.
    #[arg(long, value_parser = auto::<FenDialect>(), default_value = "auto")]
    pub from: Auto<FenDialect>,
    /// The variant of the positions: a pocket variant writes its pockets even when empty
    /// (so a FEN that says nothing of a pocket gets one); chess and horde write none.
    /// `auto` tells it from each line, as `fen check` does. Every name a `[Variant]` tag
    /// may give is taken (`zh`, `Crazyhouse`, `chess960`…).
    #[arg(long, value_parser = auto::<Variant>(), default_value = "auto")]
    pub variant: Auto<Variant>,
    #[command(flatten)]
    pub input: FenInput,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The variant whose rules apply; `auto` reads it off the FEN: a bughouse pair is bughouse, a pocket or a promoted
    /// piece crazyhouse, a black king facing no white one horde, anything else chess.
    /// Every name a `[Variant]` tag may give is taken (`zh`, `Crazyhouse`, `chess960`…).
    #[arg(long, value_parser = auto::<Variant>(), default_value = "auto")]
    pub variant: Auto<Variant>,
    #[command(flatten)]
    pub input: FenInput,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The position (any dialect; a bughouse pair shows both boards).
    pub fen: String,
    /// Letters instead of Unicode figurines.
    #[arg(long, conflicts_with = "svg")]
    pub ascii: bool,
    /// Write a standalone SVG diagram instead of text: board, coordinates, pockets,
    /// promoted pieces, check, side to move (a pair: both boards, seated as played).
    #[arg(long)]
    pub svg: bool,
    /// Black at the bottom (a pair: both boards turned), in text or SVG.
    #[arg(long)]
    pub flip: bool,
    /// With --svg: the side of a square in pixels, 16 to 400 [default: 45].
    #[arg(long, value_name = "PX", value_parser = clap::value_parser!(u32).range(16..=400))]
    pub size: Option<u32>,
    /// With --svg: highlight the last move, in UCI (`e2e4`, `N@d5`); on a pair `A:e2e4` or
    /// `B:e7e5` (repeat for both boards).
    #[arg(long, value_name = "UCI", value_parser = parse_last_move)]
    pub last_move: Vec<String>,
}

#[derive(Debug, Args)]
pub struct PerftArgs {
    /// How many plies deep to count.
    pub depth: u32,
    /// Positions to count from, each quoted, in any dialect (a Lichess URL or a `[FEN]`
    /// tag line too); `-` reads one per line from stdin, as does giving none when stdin
    /// is not a terminal. With none at all, the variant's start position. One count per
    /// position, a line each (an empty line for a position refused, with the reason on
    /// stderr).
    #[arg(value_name = "FEN", conflicts_with = "fen")]
    pub fens: Vec<String>,
    /// The variant; `auto` reads it off the FEN: a bughouse pair is bughouse, a pocket or a promoted
    /// piece crazyhouse, a black king facing no white one horde, anything else chess;
    /// without a FEN, chess.
    #[arg(long, value_parser = auto::<Variant>(), default_value = "auto")]
    pub variant: Auto<Variant>,
    /// The start position, in any dialect (as a FEN argument).
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the count below each root move (`uci: count`, sorted), then the total.
    #[arg(long)]
    pub divide: bool,
    /// Flush the output after every answer, also into a pipe (it is when stdin or stdout
    /// is a terminal), for use as a coprocess.
    #[arg(long)]
    pub line_buffered: bool,
}

/// How to write moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MoveFormat {
    San,
    Uci,
}

/// The position moves are played from.
#[derive(Debug, Args)]
pub struct PositionArgs {
    /// The variant; `auto` reads it off the FEN: a bughouse pair is bughouse, a pocket or a promoted
    /// piece crazyhouse, a black king facing no white one horde, anything else chess;
    /// without `--fen`, crazyhouse when a move is a drop, chess otherwise.
    #[arg(long, value_parser = auto::<Variant>(), default_value = "auto")]
    pub variant: Auto<Variant>,
    /// The start position, in any dialect (default: the variant's start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Forbid drops that checkmate (bughouse house rule).
    #[arg(long)]
    pub no_drop_mate: bool,
}

/// How moves are printed.
#[derive(Debug, Args)]
pub struct MoveOutputArgs {
    /// The notation to print the moves in.
    #[arg(long, value_enum, default_value = "san")]
    pub to: MoveFormat,
    /// How SAN writes pawn drops: p-at (`P@e4`: Lichess exports, Xboard, bughouse-db)
    /// or at (`@e4`: Chess.com, chessops, python-chess).
    #[arg(long, value_parser = named::<DropStyle>(), default_value = "p-at")]
    pub drop_style: DropStyle,
}

#[derive(Debug, Args)]
pub struct MovesArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub output: MoveOutputArgs,
    /// Report every non-canonical SAN spelling (over-disambiguation, missing `x`, a wrong
    /// `+`/`#`, `e8Q`, `0-0`, lowercase letters) and exit 1 if there is any.
    #[arg(long)]
    pub strict: bool,
    /// The dialect of the final FEN.
    #[arg(long, value_parser = named::<FenDialect>(), default_value = "lichess")]
    pub dialect: FenDialect,
    /// Write JSON Lines: one record per move, then the final position.
    #[arg(long)]
    pub json: bool,
    /// Flush the output after every move, also into a pipe (it is when stdin or stdout
    /// is a terminal).
    #[arg(long)]
    pub line_buffered: bool,
    /// The moves; without any, whitespace-separated moves are read from stdin.
    pub moves: Vec<String>,
}

#[derive(Debug, Args)]
pub struct OpeningArgs {
    /// The moves from the start, SAN or UCI, move numbers allowed (`1. e4 c5 2. Nf3`);
    /// without any (or `-`), each line of stdin is one move list. Prints `ECO<TAB>NAME<TAB>PLY`
    /// (the ply whose position is named), or `?` when no position is named.
    pub moves: Vec<String>,
    /// The variant: chess or crazyhouse (Lichess names no other variant's openings).
    #[arg(long, value_parser = named::<Variant>(), default_value = "chess")]
    pub variant: Variant,
    /// Write JSON Lines (`{"eco", "name", "ply"}`, null when none) instead of text.
    #[arg(long)]
    pub json: bool,
    /// The arguments (or each stdin line) are a FEN in any dialect, not moves: the
    /// opening that names exactly that position (`ECO<TAB>NAME`; its ply is unknown).
    #[arg(long)]
    pub fen: bool,
    /// Flush the output after every answer, also into a pipe (it is when stdin or stdout
    /// is a terminal), for use as a coprocess.
    #[arg(long)]
    pub line_buffered: bool,
}

#[derive(Debug, Args)]
pub struct LegalArgs {
    /// Positions, each quoted, in any dialect (a Lichess URL or a `[FEN]` tag line too);
    /// `-` reads one per line from stdin, as does giving none when stdin is not a
    /// terminal. With none at all, the variant's start position. Each position's moves
    /// are listed one per line; several positions' lists are separated by an empty line
    /// (a position refused has an empty list, the reason on stderr).
    #[arg(value_name = "FEN", conflicts_with = "fen")]
    pub fens: Vec<String>,
    /// The variant; `auto` reads it off the FEN: a bughouse pair is bughouse, a pocket or a promoted
    /// piece crazyhouse, a black king facing no white one horde, anything else chess;
    /// without a FEN, chess.
    #[arg(long, value_parser = auto::<Variant>(), default_value = "auto")]
    pub variant: Auto<Variant>,
    /// The position, in any dialect (as a FEN argument).
    #[arg(long)]
    pub fen: Option<String>,
    /// Forbid drops that checkmate (bughouse house rule): they are not listed.
    #[arg(long)]
    pub no_drop_mate: bool,
    #[command(flatten)]
    pub output: MoveOutputArgs,
    /// Flush the output after every answer, also into a pipe (it is when stdin or stdout
    /// is a terminal), for use as a coprocess.
    #[arg(long)]
    pub line_buffered: bool,
}

/// What to validate, and how.
#[derive(Debug, Clone, Args)]
pub struct GameArgs {
    /// PGN files (`-` for stdin; compressed files are detected by their first bytes).
    /// Without any, stdin is read.
    pub files: Vec<std::path::PathBuf>,
    /// Read every game as this variant, whatever its `[Variant]` tag says (`auto`: as the
    /// tag says); a bughouse match of two boards stays one, with a `variant-not-applied`
    /// warning.
    #[arg(long, value_parser = auto::<Variant>(), default_value = "auto")]
    pub variant: Auto<Variant>,
    /// Forbid drops that checkmate.
    #[arg(long)]
    pub no_drop_mate: bool,
    /// The archive format: `auto` reads a game as BPGN when its file ends in `.bpgn`
    /// (before any compression suffix), its tags name four players or Bughouse, or its
    /// move numbers carry board letters (`1A.`).
    #[arg(long, value_parser = named::<Format>(), default_value = "auto")]
    pub format: Format,
    /// The largest game read, in bytes, with an optional suffix K, M or G (default 32M); a
    /// larger one is skipped in constant memory and reported as `game-too-large`, and the
    /// next games go on.
    #[arg(long, value_name = "BYTES", default_value = "32M", value_parser = parse_bytes)]
    pub max_game_bytes: usize,
    /// Read only the K-th of N parts of one FILE: the games whose first line lies in
    /// the K-th of N equal byte ranges (of a compressed file: in the frames that start
    /// there; pzstd, pbzip2 and BGZF files split, one-stream files are refused). Each
    /// game is in exactly one part; records number games and lines from the part's
    /// start, and `pocketfen merge` joins the parts' `--json` into the whole file's.
    #[arg(long, value_name = "K/N")]
    pub split: Option<pocketfen::stream::Split>,
    /// Print only the problems: no summary, no total, no progress line (with `--json`
    /// the `summary` and `total` records stay: they are data, which `merge` reads).
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Give the seconds each file took, and the speed, in the summaries (text, JSON and
    /// the HTML report); without, the output is the same from run to run.
    #[arg(long)]
    pub timings: bool,
    /// Flush the output after every record, also into a pipe or a file (it is, on a
    /// terminal).
    #[arg(long)]
    pub line_buffered: bool,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    #[command(flatten)]
    pub games: GameArgs,
    /// Also report non-canonical SAN and a missing result marker, and exit 1 on warnings.
    #[arg(long)]
    pub strict: bool,
    /// Validate the moves of variations too (they are always parsed).
    #[arg(long)]
    pub variations: bool,
    /// JSON Lines output (schema in docs/REFERENCE.md).
    #[arg(long)]
    pub json: bool,
    /// Report every game, not only games with problems.
    #[arg(long)]
    pub all: bool,
    /// Name each Standard and Crazyhouse game's opening from its moves, as Lichess names
    /// it, in its JSON record (`"opening": {"eco", "name", "ply"}`; with --json).
    #[arg(long, requires = "json")]
    pub openings: bool,
    /// Worker threads, 1 to 256; 0 or none: every core. The output is the same for any
    /// number.
    #[arg(long, short = 'j', value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    /// Also write an HTML report: a summary per file and one card per problem, with the
    /// position drawn (self-contained; the exit code is unchanged). It replaces only an
    /// earlier report or an empty file, never an archive or other file.
    #[arg(long, value_name = "REPORT.html")]
    pub html: Option<std::path::PathBuf>,
    /// The most problems of each kind the HTML report draws (a frequent warning never
    /// hides a rarer error), five times as many at most in all, where an error takes a
    /// warning's place and a rare kind a frequent kind's last; the rest are counted.
    #[arg(long, value_name = "N", default_value_t = 1000, requires = "html")]
    pub html_max: usize,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub games: GameArgs,
    /// What to print per ply: fen (the position after it), san or uci.
    #[arg(long, value_parser = named::<PlyText>(), default_value = "fen")]
    pub emit: PlyText,
    /// The dialect of `--emit fen`.
    #[arg(long, value_parser = named::<FenDialect>(), default_value = "lichess")]
    pub dialect: FenDialect,
    /// How `--emit san` writes pawn drops: p-at (`P@e4`) or at (`@e4`).
    #[arg(long, value_parser = named::<DropStyle>(), default_value = "p-at")]
    pub drop_style: DropStyle,
    /// JSON Lines output: a `replayed` record per game (its plies as a list, and the
    /// annotations of their comments, `[%clk]`, `[%eval]`, `[%cal]`…, as a list beside
    /// it), then the summary.
    #[arg(long)]
    pub json: bool,
    /// Worker threads, 1 to 256; 0 or none: every core. The output is the same for any
    /// number.
    #[arg(long, short = 'j', value_parser = parse_jobs)]
    pub jobs: Option<usize>,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    #[command(flatten)]
    pub input: GameArgs,
    /// Write the games table, a row per game, to this Parquet file: Lichess's columns
    /// with Lichess's types (a tag whose value does not fit its column is null and
    /// counted), then the variant, start FEN, plies, the replayed end, validity, the
    /// first problem and where the game is (docs/REFERENCE.md).
    #[arg(long = "games", value_name = "FILE.parquet", conflicts_with = "output")]
    pub games_table: Option<std::path::PathBuf>,
    /// Write the plies table, a row per mainline ply, to this Parquet file: the move
    /// (SAN, UCI, piece, capture, promotion, check, mate), the pockets after it, its
    /// clock, move time and evaluation from the comments, its NAGs.
    #[arg(long, value_name = "FILE.parquet")]
    pub plies: Option<std::path::PathBuf>,
    /// Add the FEN after each ply to the plies table (Lichess's dialect; most of the
    /// table's size).
    #[arg(long, requires = "plies")]
    pub fen: bool,
    /// Write the games table into this folder in Lichess's layout, a file per month
    /// (`DIR/year=2024/month=05/train-00000-of-00001.parquet`; part K of `--split K/N`
    /// writes `train-{K-1}-of-{N}`, five digits each), by `[UTCDate]` or else `[Date]`;
    /// an unknown year or month is `__HIVE_DEFAULT_PARTITION__`.
    #[arg(long, short = 'o', value_name = "DIR")]
    pub output: Option<std::path::PathBuf>,
    /// How `-o` divides the games: year/month or year.
    #[arg(long, value_parser = named::<pocketfen::table::Partition>(), default_value = "year/month", requires = "output")]
    pub partition: pocketfen::table::Partition,
    /// How the files' pages are compressed: zstd (level 1), zstd:LEVEL (1 to 22; higher
    /// is smaller and slower), snappy (about half as large again as zstd, and cheaper to
    /// write and read) or none.
    #[arg(long, value_name = "CODEC", value_parser = parse_codec, default_value = "zstd")]
    pub compression: pocketfen::table::Codec,
    /// Also count non-canonical SAN, a missing result marker and malformed annotations
    /// as problems (the `problems` column and the first problem). As in `validate
    /// --strict`, a move not written in SAN (UCI's `e2e4` in PGN) is then an error: the
    /// game is not valid and its plies stop before that move.
    #[arg(long)]
    pub strict: bool,
    /// Name each Standard and Crazyhouse game's opening from its moves, as Lichess names
    /// it, in the games table's `opening_eco`, `opening_name` and `opening_ply` (null
    /// without this flag, and for a game whose positions Lichess names none of).
    #[arg(long)]
    pub openings: bool,
    /// Worker threads, 1 to 256; 0 or none: every core. The tables are the same for any
    /// number.
    #[arg(long, short = 'j', value_parser = parse_jobs)]
    pub jobs: Option<usize>,
}

fn parse_codec(s: &str) -> Result<pocketfen::table::Codec, String> {
    s.parse()
        .map_err(|e: pocketfen::ParseValueError| e.to_string())
}

/// `-j N`: a whole number from 0 (every core) to [`MAX_JOBS`].
fn parse_jobs(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n <= MAX_JOBS => Ok(n),
        _ => Err(format!(
            "expected a number of jobs from 1 to {MAX_JOBS}, or 0 for every core"
        )),
    }
}

/// A size in bytes: a whole number, with an optional suffix `K`, `M`, `G` or `T` (powers
/// of 1024; `KiB`, `MB`… are read the same), as `32M` or `1G`.
pub fn parse_bytes(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, suffix) = t.split_at(digits);
    let shift = match suffix.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => {
            return Err(format!(
                "{s:?}: expected a number of bytes, with an optional suffix K, M, G or T (as 32M)"
            ));
        }
    };
    let n: u64 = number
        .parse()
        .map_err(|_| format!("{s:?}: expected a number of bytes, as 32M or 1G"))?;
    n.checked_mul(1 << shift)
        .and_then(|n| usize::try_from(n).ok())
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("{s:?}: expected a size from 1 byte to the address space"))
}

/// A `--last-move` value: its board (0: A or the one board, 1: B) and its squares.
/// Checked as the arguments are read: a mistake is a usage error.
pub fn last_move(
    text: &str,
) -> Result<(usize, (Option<pocketfen::Square>, pocketfen::Square)), String> {
    let (board, uci) = match text.split_once(':') {
        Some((b, rest)) if b.eq_ignore_ascii_case("a") => (0, rest),
        Some((b, rest)) if b.eq_ignore_ascii_case("b") => (1, rest),
        Some(_) => return Err("a board is named A or B (`A:e2e4`)".to_owned()),
        None => (0, text),
    };
    match pocketfen::notation::uci::UciMove::from_ascii(uci.as_bytes()) {
        Ok(pocketfen::notation::uci::UciMove::Normal { from, to, .. }) => {
            Ok((board, (Some(from), to)))
        }
        Ok(pocketfen::notation::uci::UciMove::Put { to, .. }) => Ok((board, (None, to))),
        Ok(pocketfen::notation::uci::UciMove::Null) => Err("a null move moves nothing".to_owned()),
        Err(e) => Err(format!(
            "expected a move in UCI, such as d1d7 or N@d5 (on a pair A:e2e4 or B:e7e5): {e}"
        )),
    }
}

/// A `--last-move` value, checked (kept as written: the board count is known later).
fn parse_last_move(s: &str) -> Result<String, String> {
    last_move(s).map(|_| s.to_owned())
}

#[cfg(test)]
mod tests {
    /// clap's own checks of the definitions (unique names, valid defaults…), which a
    /// release build never runs.
    #[test]
    fn the_arguments_are_consistent() {
        <super::Cli as clap::CommandFactory>::command().debug_assert();
    }
}
