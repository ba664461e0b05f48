//! The arguments of `pgn convert`, `select`, `dedupe` and `split`, the archive tools.

use clap::{Args, Subcommand};

use pocketfen::Variant;
use pocketfen::game::{Format, Target};
use pocketfen::notation::san::DropStyle;

use super::{Auto, GameArgs, auto, named, parse_bytes, parse_jobs};

#[derive(Debug, Subcommand)]
pub enum PgnCommand {
    /// Re-export games in a target site's conventions (tags, FEN dialect, drop style).
    Convert(PgnConvertArgs),
    /// Write the games that meet every criterion, each exactly as it was in the input, in
    /// input order (exit 1 when none does).
    Select(SelectArgs),
    /// Keep the first of every set of games with the same start position and main line;
    /// count the duplicates (-v names each).
    Dedupe(DedupeArgs),
    /// Split archives into files of N games, or one file per value of a tag.
    Split(SplitArgs),
    /// Repair the known faults of archives (results that disagree with the board,
    /// moves after the end, impossible castling rights, a missing or unknown Date when
    /// UTCDate knows it, missing Round and Variant tags, unescaped quotes), every other
    /// game written byte for byte as it was.
    Fix(FixArgs),
}

/// The archives read by `pgn select`, `dedupe` and `split` (their `--variant` is a
/// criterion: `--read-as` reads every game as a variant).
#[derive(Debug, Args)]
pub struct ToolInput {
    /// PGN or BPGN files, directories of them, or `-` for stdin (compressed or not).
    /// Without any, stdin is read.
    pub files: Vec<std::path::PathBuf>,
    /// Read every game as this variant, whatever its `[Variant]` tag says (a bughouse
    /// match of two boards stays one, with a `variant-not-applied` warning).
    #[arg(long, value_name = "VARIANT", value_parser = auto::<Variant>(), default_value = "auto")]
    pub read_as: Auto<Variant>,
    /// Forbid drops that checkmate.
    #[arg(long)]
    pub no_drop_mate: bool,
    /// The archive format (`auto`: as `validate` tells it).
    #[arg(long, value_parser = named::<Format>(), default_value = "auto")]
    pub format: Format,
    /// The largest game read, in bytes, with an optional suffix K, M or G.
    #[arg(long, value_name = "BYTES", default_value = "32M", value_parser = parse_bytes)]
    pub max_game_bytes: usize,
    /// Worker threads, 1 to 256; 0 or none: every core. The output is the same for any
    /// number.
    #[arg(long, short = 'j', value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    /// No summary and no progress line on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Give the seconds each file took in the summaries.
    #[arg(long)]
    pub timings: bool,
}

impl ToolInput {
    /// The options of `validate` these stand for.
    pub fn games(&self) -> GameArgs {
        GameArgs {
            files: self.files.clone(),
            variant: self.read_as,
            no_drop_mate: self.no_drop_mate,
            format: self.format,
            max_game_bytes: self.max_game_bytes,
            split: None,
            quiet: self.quiet,
            timings: self.timings,
            line_buffered: false,
        }
    }
}

const RESULTS: &[&str] = &["1-0", "0-1", "1/2-1/2", "*"];

#[derive(Debug, Args)]
pub struct SelectArgs {
    /// A tag criterion: `NAME=VALUE` (exact), `NAME~REGEX`, `NAME>=N` (also `>`, `<`,
    /// `<=`; numbers compare as numbers, `YYYY.MM.DD` dates as dates, a month `YYYY.MM`
    /// with a date's month, a date with `?` never matches a comparison). The same tag named twice: its values (`=`, `~`) are
    /// alternatives, its bounds all hold (`WhiteElo>=2000` and `WhiteElo<2200`: a range).
    #[arg(long = "tag", value_name = "CRITERION", value_parser = parse_tag)]
    pub tags: Vec<pocketfen::game::TagCriterion>,
    /// The variant the game is read as (every name a `[Variant]` tag may give).
    #[arg(long, value_parser = named::<Variant>())]
    pub variant: Option<Variant>,
    /// A player in any seat (all four in bughouse), case-insensitive; repeat for games
    /// that all of them play in.
    #[arg(long, value_name = "NAME")]
    pub player: Vec<String>,
    /// The `Result` tag: 1-0, 0-1, 1/2-1/2 or * (repeat for either).
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(RESULTS))]
    pub result: Vec<String>,
    /// At least this many mainline plies.
    #[arg(long, value_name = "N")]
    pub min_plies: Option<usize>,
    /// At most this many mainline plies.
    #[arg(long, value_name = "N")]
    pub max_plies: Option<usize>,
    /// The main line reaches this position (any dialect, a Lichess URL too): board,
    /// side to move and pockets.
    #[arg(long, value_name = "FEN")]
    pub position: Option<String>,
    /// With `--position`, compare the board alone.
    #[arg(long, requires = "position")]
    pub board_only: bool,
    /// How the game ends: mate, stalemate or drop-mate.
    #[arg(long, value_name = "END", value_parser = parse_ending)]
    pub ends_in: Option<pocketfen::game::Ending>,
    /// Games whose opening, named from the moves as Lichess names it, has one of these
    /// ECO codes: a code, a range, or a list (`A00-B99`, `C50,C55`).
    #[arg(long, value_name = "CODES", value_parser = parse_eco)]
    pub eco: Option<pocketfen::game::EcoSet>,
    /// Games whose opening, named from the moves, matches this pattern (`*` any text, `?`
    /// one character, case ignored: `'Sicilian Defense*'`); given again, any of them.
    #[arg(long, value_name = "PATTERN")]
    pub opening: Vec<String>,
    /// The games `validate` (with the same options) accepts.
    #[arg(long, conflicts_with = "invalid")]
    pub valid: bool,
    /// The games `validate` (with the same options) rejects: with `-o` and `--rest`, an
    /// archive split into what needs repair and what does not.
    #[arg(long)]
    pub invalid: bool,
    /// With `--valid`/`--invalid`: judge as `validate --strict` (warnings reject).
    #[arg(long)]
    pub strict: bool,
    /// Write the chosen games to this file (default stdout); `.zst`, `.gz` and `.bz2`
    /// are compressed.
    #[arg(long, short = 'o')]
    pub output: Option<std::path::PathBuf>,
    /// Write every other game to this file.
    #[arg(long, value_name = "REST")]
    pub rest: Option<std::path::PathBuf>,
    /// Print only the number of chosen games.
    #[arg(long, conflicts_with_all = ["output", "rest"])]
    pub count: bool,
    /// Rewrite the chosen games for this site (lichess, chesscom, xboard), as `pgn
    /// convert` does, instead of copying them; `--strip`, `--tags`, `-w` and
    /// `--ply-limit` need it. A game that does not replay is copied as it was.
    #[arg(long, value_parser = named::<Target>())]
    pub to: Option<Target>,
    #[command(flatten)]
    pub layout: LayoutArgs,
    #[command(flatten)]
    pub input: ToolInput,
}

#[derive(Debug, Args)]
pub struct DedupeArgs {
    /// What makes two games the same: their start position and main line (`moves`), or
    /// those and the seven-tag roster (`moves-and-tags`).
    #[arg(long, value_name = "BY", default_value = "moves", value_parser = parse_dedupe_by)]
    pub by: pocketfen::game::DedupeBy,
    /// Write the kept games to this file (default stdout).
    #[arg(long, short = 'o')]
    pub output: Option<std::path::PathBuf>,
    /// Write the duplicates to this file.
    #[arg(long, value_name = "FILE")]
    pub duplicates: Option<std::path::PathBuf>,
    /// Name each duplicate on stderr (`FILE:LINE: game N duplicates game M
    /// (FILE:LINE)`); without it, the summary counts them.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    #[command(flatten)]
    pub input: ToolInput,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("how").required(true).args(["every", "by_tag", "by"])))]
pub struct SplitArgs {
    /// Files of N games each.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub every: Option<u64>,
    /// One file per value of this tag.
    #[arg(long, value_name = "NAME")]
    pub by_tag: Option<String>,
    /// One file per opening, named from the moves as Lichess names it: by its ECO code
    /// (`eco`) or its name (`opening`); games with no named opening in one file of their
    /// own (%none).
    #[arg(long, value_name = "WHAT",
          value_parser = clap::builder::PossibleValuesParser::new(["eco", "opening"]))]
    pub by: Option<String>,
    /// The files' names. With `--every`, the pattern holds the file's number, written
    /// {N} (or in lowercase), zero-padded to 6 digits ({N:W}: to W), as part-{N}.pgn. With
    /// `--by-tag` or `--by`, it holds {value}, the tag's value (the ECO or name) made safe for a file name (other
    /// characters written %XX, so that two values never share a file; %none for a game
    /// without the tag).
    #[arg(long, short = 'o', value_name = "PATTERN")]
    pub output: String,
    #[command(flatten)]
    pub input: ToolInput,
}

/// What a rewritten game keeps, and how its lines are laid out.
#[derive(Debug, Args)]
pub struct LayoutArgs {
    /// Leave out of each game (separated by commas): comments, nags, variations, clocks
    /// (the `[%clk …]`, `[%clkc …]` and `[%emt …]` commands of comments; the rest of a
    /// comment stays), evals (`[%eval …]`), arrows (`[%cal …]` and `[%csl …]`).
    #[arg(long, value_name = "WHAT", value_delimiter = ',',
          value_parser = clap::builder::PossibleValuesParser::new(["comments", "nags", "variations", "clocks", "evals", "arrows"]))]
    pub strip: Vec<String>,
    /// The tags kept: all (the default), roster (the seven-tag roster, and those the
    /// game needs: Variant, FEN, SetUp, CurrentPosition), or NAME,NAME… (the roster and
    /// those).
    #[arg(long = "tags", id = "keep_tags", value_name = "TAGS", value_parser = parse_kept_tags)]
    pub keep_tags: Option<pocketfen::game::KeptTags>,
    /// The movetext's line width (0: one line per game). Default: the target's own, as
    /// its exports lay games out: one line for Lichess and Chess.com, 75 columns for
    /// XBoard.
    #[arg(long = "width", short = 'w', value_name = "WIDTH")]
    pub width: Option<usize>,
    /// Write at most N mainline plies of each game (the rest is still validated).
    #[arg(long, value_name = "N")]
    pub ply_limit: Option<usize>,
    /// Write or replace these tags from the game's moves (separated by commas): eco,
    /// opening. The opening is named as Lichess names it (its list, compiled in; the
    /// deepest named position), `?` when none is; games of variants or starts Lichess
    /// names no opening of (Chess960, Horde, Bughouse, a FEN) keep their tags.
    #[arg(long, value_name = "TAGS", value_delimiter = ',',
          value_parser = clap::builder::PossibleValuesParser::new(["eco", "opening"]))]
    pub add_tags: Vec<String>,
}

impl LayoutArgs {
    /// The layout these ask for.
    pub fn layout(&self) -> pocketfen::game::Layout {
        let has = |w: &str| self.strip.iter().any(|s| s == w);
        pocketfen::game::Layout {
            strip_comments: has("comments"),
            strip_nags: has("nags"),
            strip_variations: has("variations"),
            strip_clocks: has("clocks"),
            strip_evals: has("evals"),
            strip_arrows: has("arrows"),
            tags: self.keep_tags.clone().unwrap_or_default(),
            width: self.width,
            ply_limit: self.ply_limit,
            add_eco: self.add_tags.iter().any(|t| t == "eco"),
            add_opening: self.add_tags.iter().any(|t| t == "opening"),
        }
    }

    /// Whether any of them is given.
    pub fn any(&self) -> bool {
        !self.strip.is_empty()
            || self.keep_tags.is_some()
            || self.width.is_some()
            || self.ply_limit.is_some()
            || !self.add_tags.is_empty()
    }
}

fn parse_eco(s: &str) -> Result<pocketfen::game::EcoSet, String> {
    s.parse()
        .map_err(|e: pocketfen::ParseValueError| e.to_string())
}

fn parse_kept_tags(s: &str) -> Result<pocketfen::game::KeptTags, String> {
    s.parse()
        .map_err(|e: pocketfen::ParseValueError| e.to_string())
}

fn parse_tag(s: &str) -> Result<pocketfen::game::TagCriterion, String> {
    s.parse()
        .map_err(|e: pocketfen::ParseValueError| e.to_string())
}

fn parse_ending(s: &str) -> Result<pocketfen::game::Ending, String> {
    s.parse()
        .map_err(|e: pocketfen::ParseValueError| e.to_string())
}

fn parse_dedupe_by(s: &str) -> Result<pocketfen::game::DedupeBy, String> {
    s.parse()
        .map_err(|e: pocketfen::ParseValueError| e.to_string())
}

#[derive(Debug, Args)]
pub struct PgnConvertArgs {
    /// The site to write for: lichess, chesscom or xboard.
    #[arg(long, value_parser = named::<Target>())]
    pub to: Target,
    /// How pawn drops are written, p-at or at (default: the target's own style).
    #[arg(long, value_parser = named::<DropStyle>())]
    pub drop_style: Option<DropStyle>,
    /// Copy games that do not replay through unchanged instead of leaving them out.
    #[arg(long)]
    pub keep_broken: bool,
    /// Refuse a game `validate --strict` would warn about (non-canonical SAN, a second
    /// `FEN`, `Variant` or `Result` tag that cannot be kept, a NAG beyond $255…); without
    /// it the game is written and the warnings go to stderr.
    #[arg(long)]
    pub strict: bool,
    /// Write to this file (through a temporary file renamed at the end) instead of stdout;
    /// `FILE.zst`, `FILE.gz` and `FILE.bz2` are compressed, on the workers, in
    /// independent frames that pzstd, gzip, bzip2 and pocketfen read (zstd in pzstd's
    /// layout, gzip as BGZF, bzip2 as pbzip2 writes it).
    #[arg(long, short = 'o')]
    pub output: Option<std::path::PathBuf>,
    /// The compression level of `-o FILE.zst|.gz|.bz2`: zstd 1 to 22 (default 3), gzip
    /// and bzip2 1 to 9 (default 6 and 9).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub level: Option<i32>,
    #[command(flatten)]
    pub layout: LayoutArgs,
    #[command(flatten)]
    pub games: GameArgs,
    /// Worker threads, 1 to 256; 0 or none: every core. The output is the same for any
    /// number.
    #[arg(long, short = 'j', value_parser = parse_jobs)]
    pub jobs: Option<usize>,
}

#[derive(Debug, Args)]
pub struct FixArgs {
    /// Write the games to this file (default stdout); `.zst`, `.gz` and `.bz2` are
    /// compressed.
    #[arg(long, short = 'o')]
    pub output: Option<std::path::PathBuf>,
    /// Write the games that no repair makes valid to this file (as they were) instead
    /// of with the others.
    #[arg(long, value_name = "REST")]
    pub rest: Option<std::path::PathBuf>,
    /// List the repairs on stdout and write no game.
    #[arg(long, conflicts_with_all = ["output", "rest"])]
    pub dry_run: bool,
    /// The repairs, the games left unrepaired and the summaries as JSON Lines on stdout
    /// (the games then go to -o, or nowhere with --dry-run).
    #[arg(long)]
    pub json: bool,
    /// Leave out the games Lichess's export left unfinished: Result `*` and
    /// Termination `Abandoned`.
    #[arg(long)]
    pub drop_abandoned: bool,
    /// Add `[PlyCount]`, or correct it, to the number of mainline plies.
    #[arg(long)]
    pub plycount: bool,
    /// List each repair on stderr.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    #[command(flatten)]
    pub input: ToolInput,
}
