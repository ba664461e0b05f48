//! Re-exporting games for a target site: tags in the site's order and spelling, FENs in
//! its dialect, canonical SAN with its drop style, comments, NAGs and variations kept (each
//! variation replayed from its branch point), lines wrapped at 80 columns.
//!
//! Conventions per target, as implemented:
//!
//! | | Lichess | Chess.com | Xboard |
//! | --- | --- | --- | --- |
//! | `Variant` | `Crazyhouse`, `Horde`, `Loop`, `Chessgi`, `Bughouse`; `Standard` only if the input had a tag | as Lichess | `crazyhouse`, `horde`, `loop`, `chessgi`, `bughouse`; none for chess |
//! | `FEN` + `SetUp "1"` | when the start is not the variant's (Horde always) | when the start is not the standard one | when the start is not the variant's |
//! | FEN dialect | Lichess (`/pocket`) | Chess.com | Xboard (`[pocket]`) |
//! | pawn drops | `P@e4` | `@e4` | `P@e4` |
//! | `CurrentPosition` | dropped | the final position, Chess.com dialect | dropped |
//!
//! The seven-tag roster comes first (Event, Site, Date, Round, White, Black, Result), then
//! the other tags in input order.

use std::borrow::Cow;
use std::ops::ControlFlow;

use arrayvec::ArrayString;

use super::header::{Boards, MoveAt, Options, unescape};
use super::problem::{GameReport, Status};
use super::validate::{game_text, visit_text_at};
use super::visitor::{Skip, Visitor};
use crate::bughouse::BoardId;
use crate::moves::Move;
use crate::notation::fen::{self, FenDialect};
use crate::notation::push_number;
use crate::notation::san::{DropStyle, Glyph, San, SanPlus, Spell};
use crate::opening::Classifier;
use crate::position::Position;
use crate::setup::{Fen, Setup};
use crate::stream::split::RawGame;
use crate::types::Color;
use crate::variant::{Rules, Variant};
use wrap::Wrap;

/// A site to write for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// lichess.org's import.
    Lichess,
    /// Chess.com's import.
    Chesscom,
    /// Xboard/WinBoard and engines' GUIs.
    Xboard,
}

impl crate::Choice for Target {
    const WHAT: &'static str = "target";
    const NAMES: &'static [&'static str] = &crate::name::names_of!(Target::ALL);
}

impl std::str::FromStr for Target {
    type Err = crate::ParseNameError;
    /// `lichess`, `chesscom` or `xboard` (any letter case; `chess.com` and `winboard` too).
    fn from_str(s: &str) -> Result<Target, crate::ParseNameError> {
        let l = s.trim().to_ascii_lowercase();
        match l.as_str() {
            "lichess" => Ok(Target::Lichess),
            "chesscom" | "chess.com" => Ok(Target::Chesscom),
            "xboard" | "winboard" => Ok(Target::Xboard),
            _ => Err(<Target as crate::Choice>::unknown(s)),
        }
    }
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 3] = [Target::Lichess, Target::Chesscom, Target::Xboard];

    /// `lichess`, `chesscom` or `xboard`.
    pub const fn name(self) -> &'static str {
        match self {
            Target::Lichess => "lichess",
            Target::Chesscom => "chesscom",
            Target::Xboard => "xboard",
        }
    }

    fn dialect(self) -> FenDialect {
        match self {
            Target::Lichess => FenDialect::Lichess,
            Target::Chesscom => FenDialect::Chesscom,
            Target::Xboard => FenDialect::Xboard,
        }
    }

    /// The movetext's line width the target's own exports have (0: one line per game):
    /// Lichess and Chess.com write each game's movetext on one line (the bundled
    /// `samples/lichess_*` and Chess.com's exports in `grammar-tests/pgn/real/`), WinBoard
    /// breaks it at 75 columns (its `PGN_MAX_LINE`).
    pub fn line_width(self) -> usize {
        match self {
            Target::Lichess | Target::Chesscom => 0,
            Target::Xboard => 75,
        }
    }

    /// The target's own pawn-drop style.
    pub fn drop_style(self) -> DropStyle {
        match self {
            Target::Chesscom => DropStyle::Bare,
            _ => DropStyle::Letter,
        }
    }

    /// The name the target gives `variant` played from a Chess960 start: Lichess's PGN
    /// export writes the variant's name capitalised (`Chess960`), Chess.com's export
    /// `Chess960`, and Xboard/WinBoard its `VARIANT_NAMES` entry `fischerandom` (see the
    /// convert table of docs/REFERENCE.md). The pocket variants are pychess-variants'
    /// `Crazyhouse960` and `Bughouse960`, but Xboard's plain `crazyhouse` and `bughouse`
    /// (it has no 960 names for them, and reads the castling from the FEN); the other
    /// variants, which no site plays from Chess960 starts, keep their own names.
    fn chess960_name(self, variant: Variant) -> &'static str {
        match (self, variant) {
            (Target::Xboard, Variant::Chess) => "fischerandom",
            (Target::Lichess | Target::Chesscom, Variant::Chess) => "Chess960",
            (Target::Lichess | Target::Chesscom, Variant::Crazyhouse) => "Crazyhouse960",
            (Target::Lichess | Target::Chesscom, Variant::Bughouse) => "Bughouse960",
            (_, v) => self.variant_name(v).unwrap_or(v.name()),
        }
    }

    pub(crate) fn variant_name(self, v: Variant) -> Option<&'static str> {
        let capital = match v {
            Variant::Chess => "Standard",
            Variant::Crazyhouse => "Crazyhouse",
            Variant::Loop => "Loop",
            Variant::Chessgi => "Chessgi",
            Variant::Horde => "Horde",
            Variant::Bughouse => "Bughouse",
        };
        match (self, v) {
            (Target::Xboard, Variant::Chess) => None,
            (Target::Xboard, v) => Some(v.name()),
            _ => Some(capital),
        }
    }
}

const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Which tags a rewritten game keeps.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum KeptTags {
    /// Every tag (the default).
    #[default]
    All,
    /// The seven-tag roster, and the tags the game needs to be read (`Variant`, `FEN`,
    /// `SetUp`, `CurrentPosition`).
    Roster,
    /// The roster, those needed to read the game, and these.
    These(Vec<String>),
}

impl std::str::FromStr for KeptTags {
    type Err = crate::ParseValueError;
    fn from_str(s: &str) -> Result<KeptTags, crate::ParseValueError> {
        match s.trim() {
            "all" => Ok(KeptTags::All),
            "roster" => Ok(KeptTags::Roster),
            list => {
                let names: Vec<String> = list.split(',').map(|n| n.trim().to_owned()).collect();
                if names.iter().any(|n| {
                    n.is_empty() || !n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                }) {
                    return Err(crate::ParseValueError::new(
                        "tags to keep",
                        format!(
                            "`{s}`: expected roster, all or tag names separated by commas (WhiteElo,BlackElo)"
                        ),
                    ));
                }
                Ok(KeptTags::These(names))
            }
        }
    }
}

/// How a rewritten game is laid out, and what it leaves out (`--strip`, `--tags`, `-w`,
/// `--ply-limit`). The default keeps everything, its lines as the target's exports lay
/// them out ([`Target::line_width`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Leave out comments.
    pub strip_comments: bool,
    /// Leave out NAGs (`$1`; a move's own `!?` stays).
    pub strip_nags: bool,
    /// Leave out variations.
    pub strip_variations: bool,
    /// Leave out the `[%clk …]`, `[%clkc …]` and `[%emt …]` commands of comments (the
    /// rest of a comment stays; a comment left empty goes).
    pub strip_clocks: bool,
    /// Leave out the `[%eval …]` commands of comments.
    pub strip_evals: bool,
    /// Leave out the `[%cal …]` and `[%csl …]` commands of comments (arrows and marked
    /// squares).
    pub strip_arrows: bool,
    /// The tags kept.
    pub tags: KeptTags,
    /// The line width of the movetext (0: one line per game; `None`: the target's own,
    /// [`Target::line_width`]).
    pub width: Option<usize>,
    /// The most mainline plies written (the rest of the game is validated but left out,
    /// as are the `CurrentPosition` it would give).
    pub ply_limit: Option<usize>,
    /// Write (or replace) `[ECO]` and `[Opening]` from the game's moves, as Lichess names
    /// openings ([`crate::opening`]): `?` when no position is named; untouched in a game
    /// of a variant or start Lichess names no opening of.
    pub add_eco: bool,
    /// See [`Layout::add_eco`].
    pub add_opening: bool,
}

impl Default for Layout {
    fn default() -> Layout {
        Layout {
            strip_comments: false,
            strip_nags: false,
            strip_variations: false,
            strip_clocks: false,
            strip_evals: false,
            strip_arrows: false,
            tags: KeptTags::All,
            width: None,
            ply_limit: None,
            add_eco: false,
            add_opening: false,
        }
    }
}

impl Layout {
    /// The comment commands left out (`clk`, `eval` …).
    fn stripped_commands(&self) -> arrayvec::ArrayVec<&'static str, 6> {
        let mut names = arrayvec::ArrayVec::new();
        if self.strip_clocks {
            names.extend(["clk", "clkc", "emt"]);
        }
        if self.strip_evals {
            names.push("eval");
        }
        if self.strip_arrows {
            names.extend(["cal", "csl"]);
        }
        names
    }
}

/// `text` without its `[%NAME …]` commands of these names (`None`: nothing is left
/// once they are out). A comment without such a command is kept as it is, an empty one
/// too.
fn without_commands<'a>(text: &'a str, names: &[&str]) -> Option<std::borrow::Cow<'a, str>> {
    if names.is_empty() || !text.contains("[%") {
        return Some(std::borrow::Cow::Borrowed(text));
    }
    let mut removed = false;
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("[%") {
        let cmd = &rest[at + 2..];
        // `[%clk …]`, not `[%clkx …]`.
        let clock = names.iter().any(|c| {
            cmd.strip_prefix(c)
                .is_some_and(|r| r.starts_with(|ch: char| ch.is_ascii_whitespace() || ch == ']'))
        });
        let end = cmd.find(']').map(|e| at + 2 + e + 1);
        out.push_str(&rest[..at]);
        match end {
            Some(end) if clock => {
                removed = true;
                rest = &rest[end..];
            }
            Some(end) => {
                out.push_str(&rest[at..end]);
                rest = &rest[end..];
            }
            None => {
                out.push_str(&rest[at..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    if !removed {
        return Some(std::borrow::Cow::Borrowed(text));
    }
    let words: Vec<&str> = out.split_ascii_whitespace().collect();
    (!words.is_empty()).then(|| std::borrow::Cow::Owned(words.join(" ")))
}

/// The visitor that writes a game for a target while the walk validates it.
struct Writer<'t> {
    layout: &'t Layout,
    /// The comment commands left out ([`Layout::stripped_commands`], read once a game).
    stripped: arrayvec::ArrayVec<&'static str, 6>,
    /// The main line went past the ply limit: nothing more is written.
    cut: bool,
    /// The variation being written met an illegal move: it is written up to it, and
    /// left out when that was its first.
    broken: bool,
    target: Target,
    style: DropStyle,
    tags: Vec<(&'t str, Cow<'t, str>)>,
    /// `Variant`, `FEN` and `SetUp` as the target writes them.
    head: Vec<(&'static str, String)>,
    w: Wrap,
    /// A move number is due before the next black move (after a comment, NAG or
    /// variation, and at the start of a line).
    need_number: bool,
    /// The canonical SAN of the move being played, written once its check is known.
    pending: Option<(San, Option<Glyph>)>,
    depth: usize,
    /// The main line's result marker.
    marker: Option<&'t str>,
    current: Option<String>,
    /// The main line's plies written: a kept `[PlyCount]` says this many.
    plies: usize,
    /// The game's opening, when `[ECO]` or `[Opening]` is to be written.
    opening: Option<Classifier>,
}

impl<'t> Writer<'t> {
    /// A comment whose text is not the game's (a `;` comment rewritten).
    fn comment_owned(&mut self, text: &str) -> ControlFlow<()> {
        if self.cut || self.layout.strip_comments {
            return ControlFlow::Continue(());
        }
        let text = match without_commands(text, &self.stripped) {
            Some(t) => t.into_owned(),
            None => return ControlFlow::Continue(()),
        };
        self.w.comment(&text);
        self.need_number = true;
        ControlFlow::Continue(())
    }

    fn tag_value(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_ref())
    }
}

impl<'t> Visitor<'t> for Writer<'t> {
    fn tag(&mut self, name: &'t str, value: &'t str) -> ControlFlow<()> {
        self.tags.push((name, unescape(value)));
        ControlFlow::Continue(())
    }

    fn start(&mut self, boards: Boards<'_>) -> ControlFlow<()> {
        if let (true, Boards::One(start)) = (self.layout.add_eco || self.layout.add_opening, boards)
        {
            self.opening = Classifier::new(start);
        }
        let has_fen = self.tag_value("FEN").is_some();
        let (variant, fen) = match boards {
            Boards::One(start)
                if start.is_chess960()
                    || self
                        .tag_value("Variant")
                        .is_some_and(|v| crate::variant::names_960(&v.to_ascii_lowercase())) =>
            {
                // Chess960 is always written with its start position, its castling
                // rights as the target's own exports write them: Chess.com by the rooks'
                // files (Shredder-FEN, `HAha`), Lichess `KQkq` for the outermost rooks
                // and files for the others (X-FEN, as chessops writes), XBoard (which
                // reads both) the letters as they were read.
                self.head.push((
                    "Variant",
                    self.target.chess960_name(start.variant()).to_owned(),
                ));
                // (Not a tag whose castling rights were dropped as impossible.)
                let setup = self
                    .tag_value("FEN")
                    .and_then(|f| f.parse::<Setup>().ok())
                    .filter(|s| {
                        self.target == Target::Xboard
                            && &s.board == start.board()
                            && Position::clean_castling(s, start.rules()).1.is_empty()
                    })
                    .unwrap_or_else(|| match self.target {
                        Target::Chesscom => start.to_shredder_setup(),
                        _ => start.to_setup(),
                    });
                self.head
                    .push(("FEN", setup.display(self.target.dialect()).to_string()));
                self.head.push(("SetUp", "1".to_owned()));
                return ControlFlow::Continue(());
            }
            Boards::One(start) => {
                let variant = start.variant();
                let setup = start.to_setup();
                (
                    variant,
                    write_fen(self.target, variant, has_fen, &setup).then_some(Fen::Single(setup)),
                )
            }
            Boards::Two(game) => {
                let pair = [BoardId::A, BoardId::B].map(|b| game.board(b).to_setup());
                if [BoardId::A, BoardId::B]
                    .iter()
                    .any(|&b| game.board(b).is_chess960())
                    || self
                        .tag_value("Variant")
                        .is_some_and(|v| crate::variant::names_960(&v.to_ascii_lowercase()))
                {
                    // As for one board: Chess.com's castling by the rooks' files.
                    let pair = match self.target {
                        Target::Chesscom => {
                            [BoardId::A, BoardId::B].map(|b| game.board(b).to_shredder_setup())
                        }
                        _ => pair,
                    };
                    self.head.push((
                        "Variant",
                        self.target.chess960_name(Variant::Bughouse).to_owned(),
                    ));
                    self.head.push((
                        "FEN",
                        Fen::Pair(Box::new(pair))
                            .display(self.target.dialect())
                            .to_string(),
                    ));
                    self.head.push(("SetUp", "1".to_owned()));
                    return ControlFlow::Continue(());
                }
                (
                    Variant::Bughouse,
                    has_fen.then(|| Fen::Pair(Box::new(pair))),
                )
            }
        };
        // A chess game's own Variant tag (`Standard`, TCEC's `normal`, `From Position`)
        // is kept as written, so that conversions compose; other variants get the
        // target's name.
        let own = self
            .tag_value("Variant")
            .filter(|v| v.parse::<Variant>() == Ok(Variant::Chess));
        match (variant, own) {
            (Variant::Chess, Some(v)) => self.head.push(("Variant", v.to_owned())),
            (Variant::Chess, None) if self.tag_value("Variant").is_none() => {}
            _ => {
                if let Some(v) = self.target.variant_name(variant) {
                    self.head.push(("Variant", v.to_owned()));
                }
            }
        }
        if let Some(fen) = fen {
            self.head
                .push(("FEN", fen.display(self.target.dialect()).to_string()));
            self.head.push(("SetUp", "1".to_owned()));
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, text: &'t str) -> ControlFlow<()> {
        if self.cut || self.layout.strip_comments {
            return ControlFlow::Continue(());
        }
        if self.stripped.is_empty() {
            self.w.comment(text);
            self.need_number = true;
            return ControlFlow::Continue(());
        }
        let text = match without_commands(text, &self.stripped) {
            Some(t) => t,
            None => return ControlFlow::Continue(()),
        };
        self.w.comment(&text);
        self.need_number = true;
        ControlFlow::Continue(())
    }

    /// A `;` comment is kept as a `{…}` one (it cannot stay a `;` comment: the line it
    /// ends is rewrapped); a `}` in it, which would end a brace comment, is written `)`.
    fn line_comment(&mut self, text: &'t str) -> ControlFlow<()> {
        let text = text.trim_end_matches('\r');
        if text.contains('}') {
            let text = text.replace('}', ")");
            self.comment_owned(&text)
        } else {
            self.comment(text)
        }
    }

    fn nag(&mut self, nag: &'t str) -> ControlFlow<()> {
        if self.cut || self.layout.strip_nags {
            return ControlFlow::Continue(());
        }
        self.w.word(nag);
        self.need_number = true;
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self) -> ControlFlow<(), Skip> {
        if self.cut || self.layout.strip_variations {
            return ControlFlow::Continue(Skip(true));
        }
        self.depth += 1;
        self.w.open_paren();
        self.need_number = true;
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self) -> ControlFlow<()> {
        self.depth = self.depth.saturating_sub(1);
        // A variation whose first move was illegal: nothing of it is written.
        if !(std::mem::take(&mut self.broken) && self.w.drop_open_paren()) {
            self.w.close_paren();
        }
        self.need_number = true;
        ControlFlow::Continue(())
    }

    fn variation_broken(&mut self) -> bool {
        self.broken = true;
        true
    }

    fn san(&mut self, before: &Position, san: &SanPlus, m: Move, at: MoveAt) -> ControlFlow<()> {
        if let Some(limit) = self.layout.ply_limit
            && self.depth == 0
            && at.ply > limit
        {
            self.cut = true;
        }
        if self.cut {
            return ControlFlow::Continue(());
        }
        if self.depth == 0 {
            self.plies += 1;
        }
        // Black's moves on one board are numbered only after a break (a comment, a
        // variation, the start).
        if at.board.is_some() || before.turn() == Color::White || self.need_number {
            let mut number = ArrayString::<16>::new();
            push_move_number(&mut number, before, at.board);
            self.w.ascii(&number);
        }
        self.pending = Some((san.san.canonical(before, m), san.glyph));
        ControlFlow::Continue(())
    }

    fn played(&mut self, after: &Position) -> ControlFlow<()> {
        if let (0, Some(c)) = (self.depth, &mut self.opening) {
            c.push(after);
        }
        let Some((canonical, glyph)) = self.pending.take() else {
            return ControlFlow::Continue(());
        };
        // In check: mate when no legal move is left (a side in check has pieces, so no
        // variant end comes first).
        let suffix = after
            .is_check()
            .then(|| if after.has_legal_moves() { '+' } else { '#' });
        // Spelled in a word of its own (a SAN is at most 9 bytes with its suffix, a
        // glyph 2), written out at once.
        let mut word = ArrayString::<16>::new();
        canonical.spell(&mut word, self.style);
        if let Some(c) = suffix {
            word.put(c);
        }
        if let Some(g) = glyph {
            word.put_str(g.as_str());
        }
        self.w.ascii(&word);
        self.need_number = false;
        ControlFlow::Continue(())
    }

    fn result(&mut self, marker: &'t str) -> ControlFlow<()> {
        if self.depth == 0 {
            self.marker = Some(marker);
        } else {
            self.w.word(marker);
            self.need_number = true;
        }
        ControlFlow::Continue(())
    }

    fn end(&mut self, boards: Boards<'_>) {
        // A game cut at the ply limit does not end where its moves do.
        if self.cut {
            return;
        }
        // Chess.com's exports write the four fields for chess and Chess960
        // (`… b - -`), and the clocks and the pocket for crazyhouse (`… w q - 0 22 QNrp`).
        if let (Target::Chesscom, Boards::One(end)) = (self.target, boards) {
            let mut current = String::with_capacity(96);
            let clocks = end.variant().has_drops();
            fen::append_fields(&mut current, &end.to_setup(), FenDialect::Chesscom, clocks);
            self.current = Some(current);
        }
    }
}

/// Whether the target writes a `FEN` tag for a game of `variant` from `start`.
fn write_fen(target: Target, variant: Variant, has_fen: bool, start: &Setup) -> bool {
    // A FEN tag may still give the variant's start (then it is not written, but for
    // Lichess's Horde games).
    let custom = has_fen && {
        let variant_start =
            Position::from_setup(&variant.start(), Rules::new(variant)).expect("start");
        *start != variant_start.to_setup() || (variant.is_horde() && target == Target::Lichess)
    };
    match target {
        Target::Lichess => custom || variant.is_horde(),
        Target::Chesscom => start.board != Setup::standard().board || custom,
        Target::Xboard => custom,
    }
}

/// The outcome of converting one game.
#[derive(Debug)]
pub enum Converted {
    /// The game in the target's conventions, and `validate`'s report on it: its
    /// warnings (what could not be kept is among them) and plies.
    Game(String, GameReport),
    /// The game does not validate: `validate`'s report, in its words. (A variation's
    /// illegal move refuses no game: the variation is written up to it, with a
    /// warning.)
    Refused(GameReport),
}

/// How a game is written for a site: the site, how pawn drops are written, and what the
/// game keeps and how its lines are laid out (`pgn convert`, `pgn select --to`). The
/// default writes for Lichess as Lichess's exports do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewrite {
    /// The site to write for.
    pub target: Target,
    /// How pawn drops are written.
    pub style: DropStyle,
    /// What the games keep, and how their lines are laid out.
    pub layout: Layout,
}

impl Rewrite {
    /// Writing for `target` as its own exports do: its drop style, everything kept.
    pub fn to(target: Target) -> Rewrite {
        Rewrite {
            target,
            style: target.drop_style(),
            layout: Layout::default(),
        }
    }
}

impl Default for Rewrite {
    fn default() -> Rewrite {
        Rewrite::to(Target::Lichess)
    }
}

/// Converts one game as `to` says: exactly the games that `validate` accepts with the
/// same options (variations are always validated here), and under `strict` only those
/// it accepts without a warning.
pub fn convert_game(game: &RawGame, to: &Rewrite, opts: &Options) -> Converted {
    let text = game_text(&game.bytes);
    if game.too_large.is_some()
        || game.bytes.starts_with(&[0xff, 0xfe])
        || game.bytes.starts_with(&[0xfe, 0xff])
    {
        return Converted::Refused(super::validate_game(game, opts));
    }
    convert_at(
        game.number,
        (game.line, game.column.max(1)),
        &text,
        to,
        opts,
    )
}

/// [`convert_game`] on a game's text, numbered `number` and starting at `line`.
pub fn convert_text(
    number: usize,
    line: usize,
    text: &str,
    to: &Rewrite,
    opts: &Options,
) -> Converted {
    convert_at(number, (line, 1), text, to, opts)
}

/// [`convert_text`] of a game whose first byte is at `(line, column)`.
fn convert_at(
    number: usize,
    at: (usize, usize),
    text: &str,
    to: &Rewrite,
    opts: &Options,
) -> Converted {
    let (target, style, layout) = (to.target, to.style, &to.layout);
    let opts = Options {
        variations: true,
        ..*opts
    };
    let mut writer = Writer {
        layout,
        stripped: layout.stripped_commands(),
        cut: false,
        broken: false,
        target,
        style,
        tags: Vec::with_capacity(24),
        head: Vec::new(),
        w: Wrap {
            // The input's size and room for tags written from the game (FEN, Variant,
            // CurrentPosition, a Result), so that `finish` seldom needs more.
            out: String::with_capacity(text.len() + 512),
            col: 0,
            width: match layout.width.unwrap_or(target.line_width()) {
                0 => usize::MAX,
                w => w,
            },
            open: 0,
        },
        need_number: true,
        pending: None,
        depth: 0,
        marker: None,
        current: None,
        plies: 0,
        opening: None,
    };
    let report = visit_text_at(number, at, text, &opts, &mut writer);
    if report.status != Status::Ok || (opts.strict && !report.problems.is_empty()) {
        return Converted::Refused(report);
    }
    Converted::Game(writer.finish(), report)
}

impl Writer<'_> {
    /// The whole game: tags, a blank line, the movetext and its result.
    fn finish(mut self) -> String {
        // The marker ends the movetext; without one, the Result tag's value when it is a
        // result (anything else stays in the tag only).
        let result = self
            .marker
            .or(self
                .tag_value("Result")
                .and_then(crate::stream::token::read_result))
            .unwrap_or("*")
            .to_owned();
        self.w.word(&result);
        self.w.out.push_str("\n\n");
        // The tags go before the movetext, in its buffer: its spare room usually holds
        // them (it was sized for the whole input game), so a long game is not copied
        // into a second buffer of its size.
        let mut out = String::with_capacity(512);
        for name in ROSTER {
            let value = match name {
                // A result spelled otherwise (`1–0`) is written as PGN spells it.
                "Result" => self
                    .tag_value(name)
                    .map(|r| crate::stream::token::read_result(r).unwrap_or(r))
                    .unwrap_or(&result),
                // An unknown date is `????.??.??` (PGN standard 8.1.1.3); Lichess's
                // study exports give `UTCDate` and no `Date`.
                "Date" => self
                    .tag_value("Date")
                    .or(self.tag_value("UTCDate"))
                    .unwrap_or("????.??.??"),
                _ => self.tag_value(name).unwrap_or("?"),
            };
            push_tag(&mut out, name, value);
        }
        let plies = self.plies.to_string();
        // `[ECO]` and `[Opening]` from the moves, in place of the game's own (where those
        // stood), else after the other tags.
        let named = self.opening.as_ref().map(Classifier::opening);
        let mut added: arrayvec::ArrayVec<(&str, &str), 2> = arrayvec::ArrayVec::new();
        if let Some(named) = named {
            if self.layout.add_eco {
                added.push(("ECO", named.map_or("?", |n| n.eco)));
            }
            if self.layout.add_opening {
                added.push(("Opening", named.map_or("?", |n| n.name)));
            }
        }
        let mut added_done = [false; 2];
        // Then every other tag in input order, a second tag of a roster name too; the
        // tags written from the game itself are not copied (a second one is warned of).
        let written_here = ["FEN", "SetUp", "Variant", "CurrentPosition"];
        let mut roster_seen = [false; ROSTER.len()];
        for (name, value) in &self.tags {
            if written_here.iter().any(|r| r.eq_ignore_ascii_case(name)) {
                continue;
            }
            if let Some(i) = added.iter().position(|(n, _)| n.eq_ignore_ascii_case(name)) {
                if !std::mem::replace(&mut added_done[i], true) {
                    push_tag(&mut out, added[i].0, added[i].1);
                }
                continue;
            }
            let kept = match &self.layout.tags {
                KeptTags::All => true,
                KeptTags::Roster => false,
                KeptTags::These(names) => names.iter().any(|n| n == name),
            };
            // A bughouse match's four players are its roster.
            let seat = ["WhiteA", "BlackA", "WhiteB", "BlackB"]
                .iter()
                .any(|r| r.eq_ignore_ascii_case(name));
            if !kept && !seat && !ROSTER.iter().any(|r| r.eq_ignore_ascii_case(name)) {
                continue;
            }
            if let Some(i) = ROSTER.iter().position(|r| r.eq_ignore_ascii_case(name))
                && !std::mem::replace(&mut roster_seen[i], true)
            {
                continue;
            }
            // The count of the plies written, whatever the game said (a wrong one is
            // warned of as `ply-count-mismatch`; `--ply-limit` writes fewer).
            if name.eq_ignore_ascii_case("PlyCount") {
                push_tag(&mut out, name, &plies);
                continue;
            }
            push_tag(&mut out, name, value);
        }
        for (&(name, value), done) in added.iter().zip(added_done) {
            if !done {
                push_tag(&mut out, name, value);
            }
        }
        for (name, value) in &self.head {
            push_tag(&mut out, name, value);
        }
        if let Some(current) = &self.current {
            push_tag(&mut out, "CurrentPosition", current);
        }
        out.push('\n');
        let mut game = self.w.out;
        game.reserve_exact(out.len());
        game.insert_str(0, &out);
        game
    }
}

/// Appends `[name "value"]` with `"` and `\` escaped.
#[inline]
fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    if memchr::memchr2(b'"', b'\\', value.as_bytes()).is_some() {
        for c in value.chars() {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
    } else {
        out.push_str(value);
    }
    out.push_str("\"]\n");
}

/// Appends a move number as PGN writes it before the move `before` is to play: `12.` for
/// White, `12...` for Black, and in a bughouse match `12A.`, `12a.`, `12B.` or `12b.`
/// (the board's letter in White's case or Black's).
pub(crate) fn push_move_number<S: Spell>(out: &mut S, before: &Position, board: Option<BoardId>) {
    let white = before.turn() == Color::White;
    push_number(out, before.fullmoves());
    out.put_str(match (board, white) {
        (None, true) => ".",
        (None, false) => "...",
        (Some(BoardId::A), true) => "A.",
        (Some(BoardId::A), false) => "a.",
        (Some(BoardId::B), true) => "B.",
        (Some(BoardId::B), false) => "b.",
    });
}

mod wrap;

#[cfg(test)]
mod tests;
