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

use super::split::RawGame;
use super::token::{TokenKind, Tokenizer};
use crate::notation::fen::{self, FenDialect};
use crate::notation::san::{DropStyle, SanPlus};
use crate::position::Position;
use crate::setup::Setup;
use crate::variant::{Rules, Variant};

/// A site to write for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    Lichess,
    Chesscom,
    Xboard,
}

impl Target {
    fn dialect(self) -> FenDialect {
        match self {
            Target::Lichess => FenDialect::Lichess,
            Target::Chesscom => FenDialect::Chesscom,
            Target::Xboard => FenDialect::Xboard,
        }
    }

    /// The target's own pawn-drop style.
    pub fn drop_style(self) -> DropStyle {
        match self {
            Target::Chesscom => DropStyle::Bare,
            _ => DropStyle::Letter,
        }
    }

    fn variant_name(self, v: Variant) -> Option<&'static str> {
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

/// A move in the tree of a game, with what is written after it.
#[derive(Debug, Default)]
struct Node<'t> {
    san: &'t str,
    /// The first comment after the move (almost every Lichess move has a clock comment),
    /// kept inline to spare an allocation per move.
    comment: Option<&'t str>,
    /// What few moves have, boxed to keep nodes small.
    extra: Option<Box<Extra<'t>>>,
}

/// The rarer annotations of a move.
#[derive(Debug, Default)]
struct Extra<'t> {
    nags: Vec<&'t str>,
    /// Comments after the first.
    more_comments: Vec<&'t str>,
    /// Alternatives to this move, each a line from the position before it.
    variations: Vec<Line<'t>>,
}

impl<'t> Node<'t> {
    fn extra(&mut self) -> &mut Extra<'t> {
        self.extra.get_or_insert_with(Box::default)
    }
}

/// A sequence of moves, with the comments before its first move.
#[derive(Debug, Default)]
struct Line<'t> {
    leading: Vec<&'t str>,
    moves: Vec<Node<'t>>,
}

const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Builds the move tree; `None` if the movetext is not well formed (a problem `validate`
/// reports precisely).
fn parse_tree(tokens: Tokenizer<'_>) -> Option<(Line<'_>, Option<&str>)> {
    // Room for the main line at one move per 16 bytes of movetext, to grow it rarely.
    let main = Line {
        leading: Vec::new(),
        moves: Vec::with_capacity((tokens.remaining() / 16).min(4096)),
    };
    let mut stack = vec![main];
    let mut marker = None;
    for t in tokens {
        let line = stack.last_mut()?;
        match t.kind {
            TokenKind::MoveNumber(_) | TokenKind::LineComment(_) => {}
            TokenKind::Move(san) => line.moves.push(Node {
                san,
                ..Node::default()
            }),
            TokenKind::Nag(n) => line.moves.last_mut()?.extra().nags.push(n),
            TokenKind::Comment(c) => match line.moves.last_mut() {
                Some(m) if m.comment.is_none() => m.comment = Some(c),
                Some(m) => m.extra().more_comments.push(c),
                None => line.leading.push(c),
            },
            TokenKind::VariationStart => {
                line.moves.last()?;
                if stack.len() > super::validate::MAX_VARIATION_DEPTH {
                    return None;
                }
                stack.push(Line::default());
            }
            TokenKind::VariationEnd => {
                let done = stack.pop()?;
                stack
                    .last_mut()?
                    .moves
                    .last_mut()?
                    .extra()
                    .variations
                    .push(done);
            }
            TokenKind::Result(r) => {
                if stack.len() != 1 {
                    return None;
                }
                marker = Some(r);
            }
            TokenKind::Tag { .. } | TokenKind::Unknown(..) => return None,
        }
    }
    (stack.len() == 1).then(|| (stack.pop().expect("main line"), marker))
}

/// Writes movetext words, wrapping lines at 80 columns.
struct Wrap {
    out: String,
    col: usize,
    /// Opening parentheses waiting for the next word (they wrap together with it).
    open: usize,
}

impl Wrap {
    fn word(&mut self, w: &str) {
        self.parts("", w, "");
    }

    /// Writes `pre w post` as one unbreakable word.
    #[inline]
    fn parts(&mut self, pre: &str, w: &str, post: &str) {
        let open = std::mem::take(&mut self.open);
        let chars = if w.is_ascii() {
            w.len()
        } else {
            w.chars().count()
        };
        let width = open + pre.len() + chars + post.len();
        if self.col > 0 {
            if self.col + 1 + width > 80 {
                self.out.push('\n');
                self.col = 0;
            } else {
                self.out.push(' ');
                self.col += 1;
            }
        }
        for _ in 0..open {
            self.out.push('(');
        }
        if !pre.is_empty() {
            self.out.push_str(pre);
        }
        self.out.push_str(w);
        if !post.is_empty() {
            self.out.push_str(post);
        }
        self.col += width;
    }

    /// Opens a variation: the `(` waits for the next word and wraps together with it.
    fn open_paren(&mut self) {
        self.open += 1;
    }

    /// Closes a variation: `)` follows its word without a space, or starts a line (an
    /// empty variation's `(` still waiting goes with it).
    fn close_paren(&mut self) {
        let open = std::mem::take(&mut self.open);
        if self.col > 0 && self.col + open + 1 > 80 {
            self.out.push('\n');
            self.col = 0;
        }
        for _ in 0..open {
            self.out.push('(');
        }
        self.out.push(')');
        self.col += open + 1;
    }

    /// Writes an ASCII word that `write` appends (a move number, a SAN): straight into the
    /// output, the space before it turned into a line break if it does not fit.
    #[inline]
    fn ascii_word(&mut self, write: impl FnOnce(&mut String)) {
        let open = std::mem::take(&mut self.open);
        let start = self.out.len();
        let sep = usize::from(self.col > 0);
        if sep == 1 {
            self.out.push(' ');
        }
        for _ in 0..open {
            self.out.push('(');
        }
        write(&mut self.out);
        let width = self.out.len() - start - sep;
        if sep == 1 && self.col + 1 + width > 80 {
            self.out.replace_range(start..start + 1, "\n");
            self.col = width;
        } else {
            self.col += sep + width;
        }
    }

    /// A comment, wrapped at its spaces: `{ a b c }` (`{ ` and ` }` stay with their words).
    fn comment(&mut self, c: &str) {
        // Most comments (clocks, evals) are single-spaced and fit on the current line:
        // written at once, as the word-by-word path would write them.
        let trimmed = c.trim_ascii();
        // Printable ASCII and single spaces only.
        let single_spaced = |t: &str| {
            let b = t.as_bytes();
            b.iter().all(|&c| (b' '..0x80).contains(&c)) && !b.windows(2).any(|w| w == b"  ")
        };
        if self.open == 0
            && !trimmed.is_empty()
            && self.col + 1 + trimmed.len() + 4 <= 80
            && single_spaced(trimmed)
        {
            if self.col > 0 {
                self.out.push(' ');
                self.col += 1;
            }
            self.out.push_str("{ ");
            self.out.push_str(trimmed);
            self.out.push_str(" }");
            self.col += trimmed.len() + 4;
            return;
        }
        let mut words = c.split_ascii_whitespace().peekable();
        let mut first = true;
        if words.peek().is_none() {
            self.word("{}");
            return;
        }
        while let Some(w) = words.next() {
            let last = words.peek().is_none();
            self.parts(
                if first { "{ " } else { "" },
                w,
                if last { " }" } else { "" },
            );
            first = false;
        }
    }
}

/// Appends the decimal digits of `n`.
fn push_number(out: &mut String, n: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[i..].iter().map(|&d| d as char));
}

/// Writes `line` from `pos`; `Err` carries the token that did not resolve.
fn write_line<'t>(
    w: &mut Wrap,
    line: &Line<'t>,
    mut pos: Position,
    style: DropStyle,
    mut need_number: bool,
) -> Result<Position, &'t str> {
    for c in &line.leading {
        w.comment(c);
        need_number = true;
    }
    for node in &line.moves {
        let san: SanPlus = node.san.parse().map_err(|_| node.san)?;
        let (m, _) = san.resolve(&pos, false).map_err(|_| node.san)?;
        let white = pos.turn() == crate::types::Color::White;
        if white || need_number {
            let number = pos.fullmoves();
            w.ascii_word(|out| {
                push_number(out, number);
                out.push_str(if white { "." } else { "..." });
            });
        }
        let canonical = san.san.canonical(&pos, m);
        // Variations start from the position before the move.
        let extra = node.extra.as_deref();
        let before = extra
            .is_some_and(|e| !e.variations.is_empty())
            .then(|| pos.clone());
        pos.play_unchecked(m);
        let suffix = pos
            .is_check()
            .then(|| if pos.is_checkmate() { '#' } else { '+' });
        w.ascii_word(|out| {
            canonical.append_to(out, style);
            out.extend(suffix);
            if let Some(g) = san.glyph {
                out.push_str(g.as_str());
            }
        });
        need_number = false;
        for n in extra.iter().flat_map(|e| &e.nags) {
            w.word(n);
            need_number = true;
        }
        for c in node
            .comment
            .iter()
            .chain(extra.iter().flat_map(|e| &e.more_comments))
        {
            w.comment(c);
            need_number = true;
        }
        for v in extra.iter().flat_map(|e| &e.variations) {
            w.open_paren();
            let from = before.clone().expect("kept for variations");
            write_line(w, v, from, style, true)?;
            w.close_paren();
            need_number = true;
        }
    }
    Ok(pos)
}

/// The outcome of converting one game.
pub enum Converted {
    /// The game in the target's conventions.
    Game(String),
    /// The game does not replay; the caller reports it (see `validate`).
    Broken,
}

/// Converts one game for `target`, pawn drops written in `style`.
pub fn convert_game(
    game: &RawGame,
    target: Target,
    style: DropStyle,
    variant_override: Option<Variant>,
) -> Converted {
    let text = match std::str::from_utf8(&game.bytes) {
        Ok(t) => std::borrow::Cow::Borrowed(t),
        Err(_) => String::from_utf8_lossy(&game.bytes),
    };
    let mut tokens = Tokenizer::new(&text);
    let mut tags: Vec<(&str, std::borrow::Cow<'_, str>)> = Vec::with_capacity(24);
    tokens.tag_section(|name, value, _| tags.push((name, super::validate::unescape(value))));
    let get = |n: &str| {
        tags.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(n))
            .map(|(_, v)| v.as_ref())
    };
    let variant = match (variant_override, get("Variant")) {
        (Some(v), _) => v,
        (None, Some(v)) => match super::validate::variant_from_tag(v) {
            Some(v) => v,
            None => return Converted::Broken,
        },
        (None, None)
            if get("Event").is_some_and(|e| e.to_ascii_lowercase().contains("crazyhouse")) =>
        {
            Variant::Crazyhouse
        }
        (None, None) => Variant::Chess,
    };
    // Bughouse matches are not converted (no site imports them).
    if super::validate::looks_like_bpgn(variant, get("WhiteA").is_some(), &tokens) {
        return Converted::Broken;
    }
    let start_setup = match get("FEN") {
        Some(f) => match f.parse::<Setup>() {
            Ok(s) if variant.is_horde() && s == Setup::standard() => Setup::horde_start(),
            Ok(s) => s,
            Err(_) => return Converted::Broken,
        },
        None => variant.start(),
    };
    let Ok(start) = Position::from_setup(&start_setup, Rules::new(variant)) else {
        return Converted::Broken;
    };
    let Some((tree, marker)) = parse_tree(tokens) else {
        return Converted::Broken;
    };
    let mut w = Wrap {
        out: String::with_capacity(game.bytes.len() + 64),
        col: 0,
        open: 0,
    };
    let Ok(end) = write_line(&mut w, &tree, start.clone(), style, true) else {
        return Converted::Broken;
    };
    // The marker ends the movetext; without one, the Result tag's value when it is a
    // result (anything else stays in the tag only).
    let result = marker
        .or(get("Result").filter(|r| matches!(*r, "1-0" | "0-1" | "1/2-1/2" | "*")))
        .unwrap_or("*");
    w.word(result);

    // Tags.
    let mut out = String::with_capacity(w.out.len() + 512);
    let mut tag = |name: &str, value: &str| {
        out.push('[');
        out.push_str(name);
        out.push_str(" \"");
        if value.contains(['"', '\\']) {
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
    };
    for name in ROSTER {
        let default = if name == "Result" { result } else { "?" };
        tag(name, get(name).unwrap_or(default));
    }
    // A FEN tag may still give the variant's start (then it is not written, but for
    // Lichess's Horde games).
    let custom = get("FEN").is_some_and(|_| {
        let variant_start =
            Position::from_setup(&variant.start(), Rules::new(variant)).expect("start");
        start.to_setup() != variant_start.to_setup()
            || (variant.is_horde() && target == Target::Lichess)
    });
    let write_fen = match target {
        Target::Lichess => custom || variant.is_horde(),
        Target::Chesscom => start.to_setup().board != Setup::standard().board || custom,
        Target::Xboard => custom,
    };
    let write_variant = variant != Variant::Chess || get("Variant").is_some();
    for (name, value) in &tags {
        let written_here = ["FEN", "SetUp", "Variant", "CurrentPosition"];
        if !ROSTER
            .iter()
            .chain(&written_here)
            .any(|r| r.eq_ignore_ascii_case(name))
        {
            tag(name, value);
        }
    }
    if write_variant && let Some(v) = target.variant_name(variant) {
        tag("Variant", v);
    }
    if write_fen {
        tag(
            "FEN",
            &fen::setup_to_string(&start.to_setup(), target.dialect()),
        );
        tag("SetUp", "1");
    }
    if target == Target::Chesscom {
        tag(
            "CurrentPosition",
            &fen::setup_to_string(&end.to_setup(), FenDialect::Chesscom),
        );
    }
    out.push('\n');
    out.push_str(&w.out);
    out.push_str("\n\n");
    Converted::Game(out)
}
