//! The HTML report of a validation run: a summary per file, then one card per problem in
//! input order with the game's tags, the moves up to the problem, the position before it
//! drawn with the relevant squares marked, and the legal moves there.
//!
//! The page is one self-contained file (inline CSS, SVG and a few lines of script to
//! filter the cards). Only the first `max_cards` problems of each kind get a card (so that
//! a frequent warning never hides a rarer error), at most five times `max_cards` in all,
//! an error's card taking a warning's place when they are all drawn, and a rare kind's
//! the place of a frequent kind's last; the rest are counted.
//! A card is built by replaying its game once more, so only the games that get cards cost
//! anything beyond validation; memory holds the cards and nothing else.
//!
//! ```
//! use pocketfen::draw::report::{FileTotals, HtmlReport};
//! use pocketfen::stream::GameSplitter;
//! use pocketfen::game::{Options, validate_game};
//! let pgn = "[White \"Ann\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Q@e4 *\n";
//! let opts = Options::default();
//! let mut report = HtmlReport::new(1000);
//! report.begin_file("games.pgn");
//! for game in GameSplitter::new(pgn.as_bytes()) {
//!     let game = game?;
//!     let result = validate_game(&game, &opts);
//!     report.add_game(&result, Some(&game), &opts);
//! }
//! report.end_file(FileTotals::default());
//! let mut html = Vec::new();
//! report.write_to(&mut html)?;
//! let html = String::from_utf8(html)?;
//! assert!(html.contains("games.pgn:4:26"));
//! assert!(html.contains("not-in-pocket"));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write as _;
use std::io;
use std::ops::ControlFlow;

use super::page::{CSS, SCRIPT};
use super::svg::{self, Marks, Style, escape};
use crate::bitboard::Bitboard;
use crate::bughouse::{BoardId, Match};
use crate::game::convert::push_move_number;
use crate::game::header::{Boards, MoveAt, Options, unescape};
use crate::game::{GameProblem, GameProblemKind, GameReport, Totals, Visitor, visit_game};
use crate::moves::Move;
use crate::notation::fen::FenDialect;
use crate::notation::san::{DropStyle, San, SanPlus};
use crate::notation::uci::UciMove;
use crate::position::{Position, Severity};
use crate::stream::RawGame;
use crate::types::{Piece, Role, Square};

/// A file's totals, as the validation run counted them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FileTotals {
    /// The counts of its games.
    pub totals: Totals,
    /// Seconds the file took, when the run gives timings (a column then shows them).
    pub seconds: Option<f64>,
    /// `None` when the whole file was read, else why the stream ended early.
    pub stream_error: Option<String>,
    /// Whether the run was stopped (Ctrl-C) before the end of the file.
    pub interrupted: bool,
    /// Bytes after the end of the compressed data, read past (what they were).
    pub trailing: Option<String>,
}

/// The problems of one file by kind: errors, warnings, and how many of them have no card.
#[derive(Debug, Default)]
struct KindCount {
    severity: &'static str,
    count: usize,
    uncarded: usize,
}

#[derive(Debug)]
struct FileSection {
    name: String,
    totals: FileTotals,
    kinds: BTreeMap<&'static str, KindCount>,
}

/// A problem's card: its kind and severity, the file section it belongs to, its HTML.
#[derive(Debug)]
struct Card {
    kind: &'static str,
    severity: Severity,
    file: usize,
    html: String,
}

/// The HTML report being built; see the [module documentation](self).
#[derive(Debug)]
pub struct HtmlReport {
    max_cards: usize,
    /// The cards kept, in input order.
    cards: Vec<Card>,
    /// Cards drawn so far (their number, the `id` of the next one).
    carded: usize,
    /// Cards drawn of each kind.
    by_kind: BTreeMap<&'static str, usize>,
    /// The severity of each kind's last card (a kind may be both: a variation's illegal
    /// move is a warning in `pgn convert`).
    last_severity: BTreeMap<&'static str, Severity>,
    /// Kinds that have all their cards.
    full: usize,
    /// Kinds that gave a card up to another: they take no more (their cards stay the
    /// first of the kind).
    gave_up: BTreeSet<&'static str>,
    problems: usize,
    files: Vec<FileSection>,
}

impl HtmlReport {
    /// A report that draws at most `max_cards` problems of each kind.
    pub fn new(max_cards: usize) -> HtmlReport {
        HtmlReport {
            max_cards,
            cards: Vec::new(),
            carded: 0,
            by_kind: BTreeMap::new(),
            last_severity: BTreeMap::new(),
            full: 0,
            gave_up: BTreeSet::new(),
            problems: 0,
            files: Vec::new(),
        }
    }

    /// Whether another problem could get a card: some kind may still take one (an error
    /// may take a warning's place, a rare kind a frequent one's, after the 5 N are
    /// drawn). A caller that keeps games' bytes for [`HtmlReport::add_game`] (each until
    /// its game is added) may stop keeping them once this is false.
    pub fn wants_cards(&self) -> bool {
        self.full < GameProblemKind::all().count()
    }

    /// The most cards in all: five kinds' worth, so that a report's memory and size stay
    /// bounded by `max_cards` whatever the kinds met.
    fn most_cards(&self) -> usize {
        self.max_cards.saturating_mul(5)
    }

    /// Room for a card of `kind` and `severity` when the report holds its most cards:
    /// the last card of another kind is taken out (of the current game's `wanted`, else
    /// of the cards drawn), a warning's for an error, else one of a kind whose last card
    /// has the same severity and that has at least two cards more (the kind with the
    /// most), so that a frequent kind, a warning on every move, never keeps a rarer kind,
    /// an illegal move, out of the report. Whether there is room now.
    fn make_room(
        &mut self,
        kind: &'static str,
        severity: Severity,
        wanted: &mut Vec<&GameProblem>,
        file: usize,
    ) -> bool {
        let mine = self.by_kind.get(kind).copied().unwrap_or(0);
        // (A few dozen kinds at most: the cards are looked through only to take one out.)
        let candidate = self
            .last_severity
            .iter()
            .filter_map(|(&k, &s)| {
                let n = self.by_kind.get(k).copied().unwrap_or(0);
                let takes = (severity == Severity::Error && s == Severity::Warning)
                    || (s == severity && n >= mine + 2);
                (k != kind && takes && n > 0).then_some((s, n, k))
            })
            // A warning before an error; then the kind with the most cards.
            .min_by_key(|&(s, n, _)| (s, Reverse(n)));
        let Some((_, n, most)) = candidate else {
            return false;
        };
        let from = if let Some(i) = wanted.iter().rposition(|p| p.kind.name() == most) {
            wanted.remove(i);
            file
        } else if let Some(at) = self.cards.iter().rposition(|c| c.kind == most) {
            self.cards.remove(at).file
        } else {
            return false;
        };
        self.gave_up.insert(most);
        if n == self.max_cards {
            self.full -= 1;
        }
        self.by_kind.insert(most, n - 1);
        if let Some(k) = self.files.get_mut(from).and_then(|f| f.kinds.get_mut(most)) {
            k.uncarded += 1;
        }
        // The severity of the kind's card that is now its last.
        let last = wanted
            .iter()
            .rev()
            .find(|p| p.kind.name() == most)
            .map(|p| p.severity)
            .or_else(|| {
                let c = self.cards.iter().rev().find(|c| c.kind == most);
                c.map(|c| c.severity)
            });
        match last {
            Some(s) => self.last_severity.insert(most, s),
            None => self.last_severity.remove(most),
        };
        true
    }

    /// Starts the section of the file `name` (as reports name it).
    pub fn begin_file(&mut self, name: &str) {
        self.files.push(FileSection {
            name: name.to_owned(),
            totals: FileTotals::default(),
            kinds: BTreeMap::new(),
        });
    }

    /// Ends the current file's section with its totals.
    pub fn end_file(&mut self, totals: FileTotals) {
        if let Some(section) = self.files.last_mut() {
            section.totals = totals;
        }
    }

    /// Adds a validated game: its problems are counted, and those within the card limit get
    /// a card, drawn by replaying `game` (the game's bytes; without them a card has no
    /// diagram). Call in input order.
    pub fn add_game(&mut self, report: &GameReport, game: Option<&RawGame>, opts: &Options) {
        if report.problems.is_empty() {
            return;
        }
        if self.files.is_empty() {
            self.begin_file("<input>");
        }
        let most = self.most_cards();
        let file = self.files.len() - 1;
        let mut wanted = Vec::new();
        for p in &report.problems {
            let kind = p.kind.name();
            let drawn = self.by_kind.get(kind).copied().unwrap_or(0);
            let room = drawn < self.max_cards
                && !self.gave_up.contains(kind)
                && (self.cards.len() + wanted.len() < most
                    || self.make_room(kind, p.severity, &mut wanted, file));
            let section = &mut self.files[file];
            let k = section.kinds.entry(kind).or_default();
            k.severity = p.severity.name();
            k.count += 1;
            if room {
                self.last_severity.insert(kind, p.severity);
                let drawn = self.by_kind.entry(kind).or_default();
                *drawn += 1;
                self.full += usize::from(*drawn == self.max_cards);
                wanted.push(p);
            } else {
                k.uncarded += 1;
            }
        }
        self.problems += report.problems.len();
        if wanted.is_empty() {
            return;
        }
        let name = self.files[file].name.clone();
        let replay = game.map(|g| Replay::of(g, &wanted, opts));
        for p in wanted {
            self.carded += 1;
            let mut html = String::new();
            card(&mut html, self.carded, &name, report, p, replay.as_ref());
            self.cards.push(Card {
                kind: p.kind.name(),
                severity: p.severity,
                file,
                html,
            });
        }
    }

    /// Writes the page.
    ///
    /// # Errors
    ///
    /// Those of `out`.
    pub fn write_to(&self, out: &mut dyn io::Write) -> io::Result<()> {
        let mut head = String::with_capacity(16384);
        head.push_str(
            "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head>\
             <meta charset=\"utf-8\"/><meta name=\"viewport\" content=\"width=device-width\"/>\
             <title>pocketfen validation report</title><style>",
        );
        head.push_str(CSS);
        head.push_str("</style></head><body><h1>pocketfen validation report</h1>");
        head.push_str(
            "<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\">",
        );
        head.push_str(&svg::defs());
        head.push_str("</svg>");
        head.push_str("<h2>Files</h2>");
        summary(&mut head, &self.files);
        let shown = self.cards.len();
        let _ = write!(
            head,
            "<h2>Problems</h2><p class=\"count\">{} problem{} in all; {} shown{}.</p>",
            self.problems,
            plural(self.problems),
            shown,
            if shown < self.problems {
                format!(
                    " (the first {} of each kind, {} at most in all: the most frequent kinds' later problems, and warnings, give way to rarer kinds' and errors; raise --html-max to see more)",
                    self.max_cards,
                    self.most_cards()
                )
            } else {
                String::new()
            }
        );
        if shown > 0 {
            filters(&mut head, &self.files);
        }
        out.write_all(head.as_bytes())?;
        for c in &self.cards {
            out.write_all(c.html.as_bytes())?;
        }
        out.write_all(SCRIPT.as_bytes())?;
        out.write_all(b"</body></html>\n")
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// One row per file, a total row when there are several, then the problems by kind.
fn summary(out: &mut String, files: &[FileSection]) {
    // The time column only when every file has a time (`--timings`).
    let timed: Option<f64> = files.iter().map(|f| f.totals.seconds).sum();
    let time_cell = |s: Option<f64>| match (timed, s) {
        (Some(_), Some(s)) => format!("<td class=\"time\">{s:.2} s</td>"),
        _ => String::new(),
    };
    let _ = write!(
        out,
        "<table class=\"totals\"><tr><th>file</th><th>games</th><th>plies</th>\
         <th>illegal</th><th>unreadable</th><th>warnings</th>{}\
         <th>problems by kind</th></tr>",
        if timed.is_some() { "<th>time</th>" } else { "" }
    );
    let mut all = Totals::default();
    let mut kinds: BTreeMap<&str, KindCount> = BTreeMap::new();
    for f in files {
        let t = &f.totals.totals;
        let _ = write!(out, "<tr><td class=\"loc\">{}", escape(&f.name));
        if f.totals.interrupted {
            out.push_str(
                "<br/><span class=\"broken\">interrupted: the run was stopped before the end of the file</span>",
            );
        }
        if let Some(e) = &f.totals.stream_error {
            let _ = write!(
                out,
                "<br/><span class=\"broken\">incomplete: {}</span>",
                escape(e)
            );
        }
        if let Some(t) = &f.totals.trailing {
            let _ = write!(
                out,
                "<br/><span class=\"warning\">warning: {}</span>",
                escape(t)
            );
        }
        let _ = write!(
            out,
            "</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>{}<td>",
            t.games,
            t.plies,
            t.illegal_games,
            t.error_games,
            t.warnings,
            time_cell(f.totals.seconds)
        );
        for (i, (kind, k)) in f.kinds.iter().enumerate() {
            let sep = if i > 0 { ", " } else { "" };
            let _ = write!(
                out,
                "{sep}<span class=\"{}\">{kind}</span> {}",
                k.severity, k.count
            );
            let total = kinds.entry(kind).or_default();
            total.severity = k.severity;
            total.count += k.count;
            total.uncarded += k.uncarded;
        }
        out.push_str("</td></tr>");
        all.merge(t);
    }
    if files.len() > 1 {
        let _ = write!(
            out,
            "<tr class=\"sum\"><td>{} files</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td>{}<td></td></tr>",
            files.len(),
            all.games,
            all.plies,
            all.illegal_games,
            all.error_games,
            all.warnings,
            time_cell(timed)
        );
    }
    out.push_str("</table>");
    if !kinds.is_empty() {
        out.push_str(
            "<table class=\"kinds\"><tr><th>kind</th><th>severity</th><th>problems</th>\
             <th>without a card</th></tr>",
        );
        for (kind, k) in &kinds {
            let _ = write!(
                out,
                "<tr><td>{kind}</td><td class=\"{s}\">{s}</td><td>{}</td><td>{}</td></tr>",
                k.count,
                k.uncarded,
                s = k.severity
            );
        }
        out.push_str("</table>");
    }
}

fn filters(out: &mut String, files: &[FileSection]) {
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for f in files {
        for (kind, k) in &f.kinds {
            *kinds.entry(kind).or_default() += k.count - k.uncarded;
        }
    }
    out.push_str(
        "<form class=\"filters\" id=\"filters\"><label><input type=\"checkbox\" \
         name=\"severity\" value=\"error\" checked=\"checked\"/> errors</label> <label><input \
         type=\"checkbox\" name=\"severity\" value=\"warning\" checked=\"checked\"/> \
         warnings</label> · kind: <select name=\"kind\"><option value=\"\">all</option>",
    );
    for (kind, n) in kinds.iter().filter(|(_, n)| **n > 0) {
        let _ = write!(out, "<option value=\"{kind}\">{kind} ({n})</option>");
    }
    out.push_str("</select> <span id=\"shown\"></span></form>");
}

/// The positions at a game's problems and the moves just before them, from a second
/// replay. It holds what its cards show, not the game: a card's cost does not grow with
/// the length of its game.
struct Replay {
    tags: Tags,
    /// The boards before each carded problem's ply, by ply, and at the end of the replay.
    snapshots: BTreeMap<usize, Snapshot>,
    end: Snapshot,
}

/// The boards at a point of the replay, the last move played on each, and the moves
/// before it that a card lists.
struct Snapshot {
    boards: Vec<Position>,
    last: [Option<Move>; 2],
    /// The last [`CARD_MOVES`] moves of the mainline before this point…
    recent: Vec<Played>,
    /// …and how many moves came before them.
    earlier: usize,
    /// The board of the move played at this point (`Some(None)`: the one board; `None`:
    /// no move was played here).
    moving: Option<Option<BoardId>>,
}

/// The most moves a card lists: those just before its problem (the earlier ones are
/// counted), so that a card costs the same however long its game.
const CARD_MOVES: usize = 40;

#[derive(Default)]
struct Tags {
    white: Option<String>,
    black: Option<String>,
    event: Option<String>,
    site: Option<String>,
}

#[derive(Clone)]
struct Played {
    ply: usize,
    board: Option<BoardId>,
    /// `12.`, `12...`, `12A.`, `12b.`.
    number: String,
    san: String,
}

/// The live boards of the replay.
enum Live {
    None,
    One(Position),
    Two(Box<Match>),
}

impl Live {
    fn boards(&self) -> Vec<Position> {
        match self {
            Live::None => Vec::new(),
            Live::One(p) => vec![p.clone()],
            Live::Two(m) => vec![m.board(BoardId::A).clone(), m.board(BoardId::B).clone()],
        }
    }
}

struct Recorder {
    tags: Tags,
    live: Live,
    /// The plies of the carded problems.
    wanted: BTreeSet<usize>,
    /// The last [`CARD_MOVES`] moves of the mainline…
    recent: VecDeque<Played>,
    /// …and how many moves were played before them.
    earlier: usize,
    snapshots: BTreeMap<usize, Snapshot>,
    /// The last move played on each board (A, or the one board; B).
    last: [Option<Move>; 2],
}

impl Recorder {
    fn snapshot(&self, moving: Option<Option<BoardId>>) -> Snapshot {
        Snapshot {
            boards: self.live.boards(),
            last: self.last,
            recent: self.recent.iter().cloned().collect(),
            earlier: self.earlier,
            moving,
        }
    }
}

impl Visitor<'_> for Recorder {
    fn tag(&mut self, name: &str, value: &str) -> ControlFlow<()> {
        let slot = match name {
            "White" => &mut self.tags.white,
            "Black" => &mut self.tags.black,
            "Event" => &mut self.tags.event,
            "Site" => &mut self.tags.site,
            _ => return ControlFlow::Continue(()),
        };
        if slot.is_none() {
            *slot = Some(unescape(value).into_owned());
        }
        ControlFlow::Continue(())
    }

    fn start(&mut self, boards: Boards<'_>) -> ControlFlow<()> {
        self.live = match boards {
            Boards::One(p) => Live::One(p.clone()),
            Boards::Two(m) => Live::Two(Box::new(m.clone())),
        };
        ControlFlow::Continue(())
    }

    fn san(&mut self, before: &Position, _: &SanPlus, m: Move, at: MoveAt) -> ControlFlow<()> {
        if !at.is_mainline() {
            return ControlFlow::Continue(());
        }
        if self.wanted.contains(&at.ply) {
            let snapshot = self.snapshot(Some(at.board));
            self.snapshots.insert(at.ply, snapshot);
        }
        let mut number = String::new();
        push_move_number(&mut number, before, at.board);
        if self.recent.len() == CARD_MOVES {
            self.recent.pop_front();
            self.earlier += 1;
        }
        self.recent.push_back(Played {
            ply: at.ply,
            board: at.board,
            number,
            san: SanPlus::from_move(before, m).to_string_with(DropStyle::Letter),
        });
        self.last[at.board.map_or(0, BoardId::index)] = Some(m);
        match &mut self.live {
            Live::One(p) => {
                p.play_unchecked(m);
            }
            Live::Two(mat) => {
                if let Some(id) = at.board {
                    mat.play_unchecked(id, m);
                }
            }
            Live::None => {}
        }
        ControlFlow::Continue(())
    }
}

impl Replay {
    /// The replay of `game`, with the boards before each of `problems`.
    fn of(game: &RawGame, problems: &[&GameProblem], opts: &Options) -> Replay {
        let mut rec = Recorder {
            tags: Tags::default(),
            live: Live::None,
            wanted: problems.iter().filter_map(|p| p.ply).collect(),
            recent: VecDeque::with_capacity(CARD_MOVES),
            earlier: 0,
            snapshots: BTreeMap::new(),
            last: [None; 2],
        };
        // The replay needs only the mainline; variations add nothing to a card.
        let opts = Options {
            variations: false,
            ..*opts
        };
        visit_game(game, &opts, &mut rec);
        // Problems at a ply the replay never reached (an illegal move) and those without a
        // ply see the boards as the replay left them.
        let end = rec.snapshot(None);
        Replay {
            tags: rec.tags,
            snapshots: rec.snapshots,
            end,
        }
    }

    /// The boards before the problem at `ply`, and the last move on each.
    fn at(&self, ply: Option<usize>) -> &Snapshot {
        ply.and_then(|p| self.snapshots.get(&p))
            .unwrap_or(&self.end)
    }

    /// The last moves before `ply` (before the replay's end without one, or when the
    /// replay never reached it), at most [`CARD_MOVES`], and how many came before them.
    fn moves_before(&self, ply: Option<usize>) -> (&[Played], usize) {
        let at = self.at(ply);
        let n = ply.map_or(at.recent.len(), |ply| {
            at.recent.partition_point(|m| m.ply < ply)
        });
        (&at.recent[..n], at.earlier)
    }
}

/// Which of `boards` the problem's move is on: the board of the move at its ply when it
/// was played, else the board whose position is the problem's `fen_before`.
fn moving_board(replay: &Replay, boards: &[Position], p: &GameProblem) -> Option<usize> {
    if boards.len() == 1 {
        return p.ply.map(|_| 0);
    }
    if let Some(board) = p.ply.and_then(|ply| replay.snapshots.get(&ply)?.moving) {
        return board.map(BoardId::index);
    }
    p.ply?;
    let before = p.fen_before.as_deref()?;
    boards
        .iter()
        .position(|b| b.to_setup().display(FenDialect::Lichess).to_string() == before)
}

/// The piece a drop of `role` lacks, when the side to move has none in its pocket.
fn missing(pos: &Position, role: Role) -> Option<Piece> {
    let color = pos.turn();
    (pos.pockets().get(color).get(role) == 0).then_some(Piece { color, role })
}

/// The marks of a problem's token on the board it was played on.
fn token_marks(pos: &Position, token: &str) -> Marks {
    let mut marks = Marks::default();
    let token = token.trim_end_matches('…');
    if let Ok(san) = SanPlus::from_ascii(token.as_bytes()) {
        match san.san {
            San::Normal {
                role,
                file,
                rank,
                to,
                ..
            } => {
                marks.targets = Bitboard::from_square(to);
                let fits = |sq: Square| {
                    file.is_none_or(|f| sq.file() == f) && rank.is_none_or(|r| sq.rank() == r)
                };
                let legal: Bitboard = pos
                    .legal_moves_to(role, to)
                    .iter()
                    .filter_map(|m| m.from())
                    .filter(|&sq| fits(sq))
                    .collect();
                marks.candidates = if legal.any() {
                    legal
                } else {
                    pos.pseudo_origins(role, to)
                        .filter(|&sq| fits(sq))
                        .collect()
                };
            }
            San::Put { role, to } => {
                marks.targets = Bitboard::from_square(to);
                marks.pocket = missing(pos, role);
            }
            San::Castle(_) => {
                if let Some(king) = pos.board().king_of(pos.turn()) {
                    marks.candidates = Bitboard::from_square(king);
                }
            }
            San::Null => {}
        }
    } else if let Ok(uci) = UciMove::from_ascii(token.as_bytes()) {
        match uci {
            UciMove::Normal { from, to, .. } => {
                marks.candidates = Bitboard::from_square(from);
                marks.targets = Bitboard::from_square(to);
            }
            UciMove::Put { role, to } => {
                marks.targets = Bitboard::from_square(to);
                marks.pocket = missing(pos, role);
            }
            UciMove::Null => {}
        }
    }
    marks
}

/// The squares a move leaves and reaches, for the last-move mark.
fn move_squares(m: Move) -> (Option<Square>, Square) {
    match m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (Some(from), to),
        Move::Castle { king, rook } => (Some(king), rook),
        Move::Put { to, .. } => (None, to),
    }
}

fn card(
    out: &mut String,
    n: usize,
    file: &str,
    report: &GameReport,
    p: &GameProblem,
    replay: Option<&Replay>,
) {
    card_head(out, n, file, report, p, replay);
    if let Some(replay) = replay {
        card_moves(out, replay, p);
        card_boards(out, replay, p);
    }
    out.push_str("</section>");
}

/// A card's heading: where the problem is, its kind and severity, the game (players,
/// event, site) and what is wrong.
fn card_head(
    out: &mut String,
    n: usize,
    file: &str,
    report: &GameReport,
    p: &GameProblem,
    replay: Option<&Replay>,
) {
    let severity = p.severity.name();
    let kind = p.kind.name();
    let _ = write!(
        out,
        "<section class=\"card {severity}\" id=\"p{n}\" data-kind=\"{kind}\" \
         data-severity=\"{severity}\"><h3><span class=\"loc\">{}:{}:{}</span> \
         <span class=\"kind\">{kind}</span> <span class=\"sev\">{severity}</span></h3>",
        escape(file),
        p.line,
        p.column
    );
    let _ = write!(out, "<p class=\"game\">game {}", report.number);
    if let Some(r) = replay {
        let t = &r.tags;
        if t.white.is_some() || t.black.is_some() {
            let _ = write!(
                out,
                " · {} – {}",
                escape(t.white.as_deref().unwrap_or("?")),
                escape(t.black.as_deref().unwrap_or("?"))
            );
        }
        if let Some(event) = &t.event {
            let _ = write!(out, " · {}", escape(event));
        }
        if let Some(site) = &t.site {
            if site.starts_with("https://") || site.starts_with("http://") {
                let _ = write!(out, " · <a href=\"{0}\">{0}</a>", escape(site));
            } else {
                let _ = write!(out, " · {}", escape(site));
            }
        }
    }
    out.push_str("</p><p class=\"what\">");
    if let Some(ply) = p.ply {
        let _ = write!(out, "ply {ply}");
        if let Some(token) = &p.token {
            let _ = write!(out, ", <code>{}</code>", escape(token));
        }
        out.push_str(": ");
    } else if let Some(token) = &p.token {
        let _ = write!(out, "<code>{}</code>: ", escape(token));
    }
    let _ = write!(out, "{}</p>", escape(&p.reason));
}

/// The moves before the problem (the last 40).
fn card_moves(out: &mut String, replay: &Replay, p: &GameProblem) {
    let (shown, earlier) = replay.moves_before(p.ply);
    out.push_str("<p class=\"moves\"><b>moves:</b> ");
    if shown.is_empty() && earlier == 0 {
        out.push_str("(none)");
    }
    if earlier > 0 {
        let _ = write!(
            out,
            "<span class=\"elided\">({earlier} earlier {})</span> … ",
            if earlier == 1 { "move" } else { "moves" }
        );
    }
    for (i, m) in shown.iter().enumerate() {
        // One board: White's moves are numbered, and Black's first; bughouse: every move.
        let numbered = m.board.is_some() || i == 0 || !m.number.ends_with("...");
        if i > 0 {
            out.push(' ');
        }
        if numbered {
            let _ = write!(out, "{} ", m.number);
        }
        out.push_str(&escape(&m.san));
    }
    out.push_str("</p>");
}

/// The boards before the problem, with the token's and the last move's squares marked,
/// their FEN, and the legal moves of the board the move was on.
fn card_boards(out: &mut String, replay: &Replay, p: &GameProblem) {
    let snapshot = replay.at(p.ply);
    let boards = &snapshot.boards[..];
    if boards.is_empty() {
        return;
    }
    let moving = moving_board(replay, boards, p);
    let setups: Vec<_> = boards.iter().map(Position::to_setup).collect();
    let marks: Vec<Marks> = boards
        .iter()
        .enumerate()
        .map(|(i, pos)| {
            let mut marks = match (&p.token, moving) {
                (Some(token), Some(m)) if m == i => token_marks(pos, token),
                _ => Marks::default(),
            };
            // The last move played on this board before the problem.
            marks.last_move = snapshot.last[i].map(move_squares);
            marks
        })
        .collect();
    let style = Style {
        flip: false,
        square: 40,
    };
    out.push_str("<div class=\"diagram\">");
    out.push_str(&svg::fen_svg_inline(&setups, style, &marks));
    out.push_str("</div>");
    let fen: Vec<String> = setups
        .iter()
        .map(|s| s.display(FenDialect::Lichess).to_string())
        .collect();
    let _ = write!(
        out,
        "<p class=\"fen\"><code>{}</code></p>",
        escape(&fen.join(" | "))
    );
    if let Some(pos) = moving.and_then(|i| boards.get(i)) {
        let mut legal: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|&m| SanPlus::from_move(pos, m).to_string_with(DropStyle::Letter))
            .collect();
        legal.sort();
        let _ = write!(
            out,
            "<p class=\"legal\"><b>{} legal move{}{}:</b> {}</p>",
            legal.len(),
            plural(legal.len()),
            match boards.len() {
                2 => format!(" on board {}", if moving == Some(0) { 'A' } else { 'B' }),
                _ => String::new(),
            },
            escape(&legal.join(" "))
        );
    }
}
