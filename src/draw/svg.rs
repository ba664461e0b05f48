//! SVG diagrams: a board with coordinates, its pockets beside it (each player's pocket on
//! that player's side), promoted pieces marked, the king in check, the last move and other
//! marked squares; a bughouse pair as two boards seated as the players sit.
//!
//! ```
//! use pocketfen::Fen;
//! use pocketfen::draw::svg::{Marks, Style, fen_svg};
//! use pocketfen::notation::fen;
//! let parsed = fen::parse("4k3/8/8/8/8/8/8/4K2Q~/Pn w - - 0 1", None)?;
//! let svg = fen_svg(&parsed.fen, Style::default(), &[Marks::default()]);
//! assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
//! assert!(svg.contains("href=\"#pf-wQ\""));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::fmt::Write as _;

use super::pieces;
use crate::bitboard::Bitboard;
use crate::setup::{Fen, Pocket, Setup};
use crate::types::{Color, File, Piece, Rank, Role, Square};

/// How a diagram is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// Black at the bottom (in a bughouse pair: board A turned, and B the other way).
    pub flip: bool,
    /// The side of one square in pixels (at least 16).
    pub square: u32,
}

impl Default for Style {
    fn default() -> Style {
        Style {
            flip: false,
            square: 45,
        }
    }
}

/// What a diagram marks besides the pieces, the side to move and a king in check.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Marks {
    /// The last move: its origin (none for a drop) and destination.
    pub last_move: Option<(Option<Square>, Square)>,
    /// Squares ringed in orange: the pieces a move could mean (an ambiguous move's
    /// candidates, a pinned piece).
    pub candidates: Bitboard,
    /// Squares ringed in blue: where a move goes (a drop square, a destination).
    pub targets: Bitboard,
    /// A pocket piece ringed in red: the piece a drop lacked.
    pub pocket: Option<Piece>,
}

/// Colours of the board and its marks.
const LIGHT: &str = "#ecdcbf";
const DARK: &str = "#b08d6c";
const LAST_MOVE: &str = "#d9d04a";
const CANDIDATE: &str = "#e8730c";
const TARGET: &str = "#1f6fd1";
const MISSING: &str = "#d11f1f";
const PROMOTED: &str = "#7a3fc0";
const TEXT: &str = "#4a4036";

/// A number in SVG, with at most two decimals and no trailing zeros.
struct N(f64);

impl std::fmt::Display for N {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let scaled = (self.0 * 100.0).round() as i64;
        let (whole, frac) = (scaled / 100, (scaled % 100).abs());
        if scaled < 0 && whole == 0 {
            f.write_str("-")?;
        }
        match frac {
            0 => write!(f, "{whole}"),
            _ if frac % 10 == 0 => write!(f, "{whole}.{}", frac / 10),
            _ => write!(f, "{whole}.{frac:02}"),
        }
    }
}

/// The geometry of one board's drawing, in pixels.
#[derive(Debug, Clone, Copy)]
struct Layout {
    s: f64,
    /// Left margin (rank numbers), top margin (label, side-to-move mark), bottom margin
    /// (file letters).
    left: f64,
    top: f64,
    bottom: f64,
    /// The pocket column's width (0 without pockets), and the gap before it.
    pocket: f64,
    gap: f64,
}

impl Layout {
    fn new(square: u32, pockets: bool) -> Layout {
        let s = f64::from(square.max(16));
        Layout {
            s,
            left: (s * 0.45).round(),
            top: (s * 0.45).round(),
            bottom: (s * 0.45).round(),
            pocket: if pockets { (s * 1.25).round() } else { 0.0 },
            gap: (s * 0.2).round(),
        }
    }

    fn width(&self) -> f64 {
        self.left
            + 8.0 * self.s
            + self.gap
            + self.pocket
            + if self.pocket > 0.0 { self.gap } else { 0.0 }
    }

    fn height(&self) -> f64 {
        self.top + 8.0 * self.s + self.bottom
    }
}

/// The square of the side to move's king when it is attacked.
fn checked_king(setup: &Setup) -> Option<Square> {
    let king = setup.board.king_of(setup.turn)?;
    let occupied = setup.board.occupied();
    setup
        .board
        .attackers_to(king, !setup.turn, occupied)
        .any()
        .then_some(king)
}

/// The `<defs>` every diagram uses: the twelve pieces and the check glow. An HTML page
/// holding many diagrams writes them once ([`fen_svg_inline`]).
pub fn defs() -> String {
    let mut out = String::from("<defs>");
    pieces::symbols(&mut out);
    out.push_str(
        "<radialGradient id=\"pf-check\"><stop offset=\"0\" stop-color=\"#ff2a2a\"/>\
         <stop offset=\"0.45\" stop-color=\"#e81a1a\" stop-opacity=\"0.85\"/>\
         <stop offset=\"1\" stop-color=\"#a00\" stop-opacity=\"0\"/></radialGradient></defs>",
    );
    out
}

/// A standalone SVG of one board or a bughouse pair, with its `<defs>`. `marks` are per
/// board (missing ones mark nothing).
pub fn fen_svg(fen: &Fen, style: Style, marks: &[Marks]) -> String {
    svg(fen.boards(), style, marks, true)
}

/// An SVG of a board or pair for a page that holds the [`defs`] once, in a hidden `<svg>`.
pub fn fen_svg_inline(boards: &[Setup], style: Style, marks: &[Marks]) -> String {
    svg(boards, style, marks, false)
}

fn svg(boards: &[Setup], style: Style, marks: &[Marks], with_defs: bool) -> String {
    let pockets = boards.iter().any(|b| b.pockets.is_some());
    let layout = Layout::new(style.square, pockets);
    let pair = boards.len() > 1;
    let between = (layout.s * 0.6).round();
    let width = layout.width() * boards.len() as f64 + between * (boards.len() as f64 - 1.0);
    let height = layout.height();
    let mut out = String::with_capacity(8192);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" role=\"img\" font-family=\"sans-serif\">",
        w = N(width),
        h = N(height),
    );
    let title: Vec<String> = boards
        .iter()
        .map(|b| {
            b.display(crate::notation::fen::FenDialect::Xboard)
                .to_string()
        })
        .collect();
    let _ = write!(out, "<title>{}</title>", escape(&title.join(" | ")));
    if with_defs {
        out.push_str(&defs());
    }
    let none = Marks::default();
    for (i, setup) in boards.iter().enumerate() {
        // Partners sit side by side: White of A beside Black of B, so board B is turned.
        let flip = style.flip ^ (i == 1);
        let x = i as f64 * (layout.width() + between);
        let label = pair.then_some(if i == 0 { 'A' } else { 'B' });
        board(
            &mut out,
            setup,
            &layout,
            x,
            flip,
            marks.get(i).unwrap_or(&none),
            label,
        );
    }
    out.push_str("</svg>");
    out
}

/// Escapes text for XML content and attributes. Control characters, which XML forbids
/// and a hostile archive may hold, are written as `\u{1}` escapes, as in text reports.
pub(crate) fn escape(text: &str) -> std::borrow::Cow<'_, str> {
    let text = crate::notation::printable(text);
    if !text.contains(['<', '>', '&', '"', '\'']) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Where one board is drawn: its layout, its top-left corner, and whether Black is at
/// the bottom.
struct Frame<'l> {
    l: &'l Layout,
    /// The left edge of the board's column (its rank numbers' margin).
    x0: f64,
    /// The board's top-left corner.
    bx: f64,
    by: f64,
    flip: bool,
}

impl Frame<'_> {
    /// Where a square is drawn: its top-left corner.
    fn at(&self, sq: Square) -> (f64, f64) {
        let s = self.l.s;
        let (file, rank) = (f64::from(sq.file() as u8), f64::from(sq.rank() as u8));
        if self.flip {
            (self.bx + (7.0 - file) * s, self.by + rank * s)
        } else {
            (self.bx + file * s, self.by + (7.0 - rank) * s)
        }
    }

    /// The players at the top and at the bottom.
    fn players(&self) -> (Color, Color) {
        if self.flip {
            (Color::White, Color::Black)
        } else {
            (Color::Black, Color::White)
        }
    }
}

fn board(
    out: &mut String,
    setup: &Setup,
    l: &Layout,
    x0: f64,
    flip: bool,
    marks: &Marks,
    label: Option<char>,
) {
    let frame = Frame {
        l,
        x0,
        bx: x0 + l.left,
        by: l.top,
        flip,
    };
    out.push_str("<g>");
    squares(out, &frame, marks);
    board_pieces(out, &frame, setup, marks);
    coordinates(out, &frame, label);
    side_to_move(out, &frame, setup);
    if let Some(pockets) = &setup.pockets {
        let (top, bottom) = frame.players();
        for (color, at_top) in [(top, true), (bottom, false)] {
            pocket(
                out,
                &frame,
                color,
                pockets.get(color),
                at_top,
                setup.turn,
                marks,
            );
        }
    }
    out.push_str("</g>");
}

/// The squares, and the last move's under the pieces.
fn squares(out: &mut String, frame: &Frame<'_>, marks: &Marks) {
    let (s, bx, by) = (frame.l.s, frame.bx, frame.by);
    let at = |sq| frame.at(sq);
    let _ = write!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{LIGHT}\"/>",
        N(bx),
        N(by),
        N(8.0 * s),
        N(8.0 * s)
    );
    for sq in Square::all().filter(|sq| !sq.is_light()) {
        let (x, y) = at(sq);
        let _ = write!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{DARK}\"/>",
            N(x),
            N(y),
            N(s),
            N(s)
        );
    }
    // The last move, under the pieces.
    if let Some((from, to)) = marks.last_move {
        for sq in from.into_iter().chain([to]) {
            let (x, y) = at(sq);
            let _ = write!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{LAST_MOVE}\" \
                 fill-opacity=\"0.55\"><title>last move</title></rect>",
                N(x),
                N(y),
                N(s),
                N(s)
            );
        }
    }
}

/// The king in check, the pieces and the mark of promoted ones, and the rings of
/// candidates and targets.
fn board_pieces(out: &mut String, frame: &Frame<'_>, setup: &Setup, marks: &Marks) {
    let s = frame.l.s;
    let at = |sq| frame.at(sq);
    // The king in check glows.
    if let Some(king) = checked_king(setup) {
        let (x, y) = at(king);
        let _ = write!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"url(#pf-check)\"><title>in check</title></circle>",
            N(x + s / 2.0),
            N(y + s / 2.0),
            N(s * 0.5)
        );
    }
    // Pieces, and the mark of promoted ones.
    for (sq, piece) in setup.board.pieces() {
        let (x, y) = at(sq);
        let _ = write!(
            out,
            "<use href=\"#{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
            pieces::symbol_id(piece),
            N(x),
            N(y),
            N(s),
            N(s)
        );
        if setup.promoted.contains(sq) {
            promoted_mark(out, x + s * 0.82, y + s * 0.18, s);
        }
    }
    // Rings: candidates and targets.
    for (squares, colour, what) in [
        (marks.candidates, CANDIDATE, "candidate"),
        (marks.targets, TARGET, "target"),
    ] {
        for sq in squares {
            let (x, y) = at(sq);
            let w = (s * 0.07).max(2.0);
            let _ = write!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" \
                 stroke=\"{colour}\" stroke-width=\"{}\"><title>{what}</title></rect>",
                N(x + w / 2.0),
                N(y + w / 2.0),
                N(s - w),
                N(s - w),
                N(w)
            );
        }
    }
}

/// The files' letters and the ranks' numbers, and the board's label.
fn coordinates(out: &mut String, frame: &Frame<'_>, label: Option<char>) {
    let (l, s, x0, bx, by) = (frame.l, frame.l.s, frame.x0, frame.bx, frame.by);
    let at = |sq| frame.at(sq);
    // Coordinates.
    let font = (s * 0.28).round();
    for i in 0..8u8 {
        let file = File::new(i);
        let rank = Rank::new(i);
        let (fx, _) = at(Square::from_coords(file, Rank::First));
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{TEXT}\" text-anchor=\"middle\">{}</text>",
            N(fx + s / 2.0),
            N(by + 8.0 * s + l.bottom * 0.78),
            N(font),
            file.char()
        );
        let (_, ry) = at(Square::from_coords(File::A, rank));
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{TEXT}\" text-anchor=\"middle\">{}</text>",
            N(x0 + l.left / 2.0),
            N(ry + s / 2.0 + font * 0.35),
            N(font),
            rank.char()
        );
    }
    if let Some(label) = label {
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" fill=\"{TEXT}\">board {label}</text>",
            N(bx),
            N(l.top * 0.78),
            N(font)
        );
    }
}

/// The side to move: a disc in its colour at its player's corner.
fn side_to_move(out: &mut String, frame: &Frame<'_>, setup: &Setup) {
    let (l, s, x0, by) = (frame.l, frame.l.s, frame.x0, frame.by);
    let (top_player, _) = frame.players();
    let cy = if setup.turn == top_player {
        l.top / 2.0
    } else {
        by + 8.0 * s + l.bottom / 2.0
    };
    // The disc is coloured as the side's pieces.
    let (fill, stroke, _) = pieces::colours(setup.turn);
    let _ = write!(
        out,
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.5\"><title>{} to move</title></circle>",
        N(x0 + l.left / 2.0),
        N(cy),
        N((l.left * 0.3).max(4.0)),
        setup.turn.name()
    );
}

/// A player's pocket beside the board: at the top for the top player, its pieces with
/// their counts, queen nearest the board's middle, the piece a drop lacked ringed.
fn pocket(
    out: &mut String,
    frame: &Frame<'_>,
    color: Color,
    pocket: &Pocket,
    top: bool,
    turn: Color,
    marks: &Marks,
) {
    let (l, s, bx, by) = (frame.l, frame.l.s, frame.bx, frame.by);
    let px = bx + 8.0 * s + l.gap;
    let slot = s * 0.78;
    let mover = color == turn;
    let y0 = if top { by } else { by + 8.0 * s - 5.0 * slot };
    let _ = write!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"#f4efe6\" \
         stroke=\"{}\" stroke-width=\"{}\"><title>{} pocket</title></rect>",
        N(px),
        N(y0),
        N(l.pocket),
        N(5.0 * slot),
        N(s * 0.08),
        if mover { TEXT } else { "#cfc6b8" },
        if mover { "2" } else { "1" },
        color.name()
    );
    // The pocket's pieces, queen nearest the board's middle.
    let roles = [
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ];
    for (k, role) in roles.into_iter().enumerate() {
        let row = if top { 4 - k } else { k };
        let y = y0 + row as f64 * slot;
        let count = pocket.get(role);
        let piece = Piece { color, role };
        let _ = write!(
            out,
            "<use href=\"#{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"{}/>",
            pieces::symbol_id(piece),
            N(px + s * 0.04),
            N(y),
            N(slot),
            N(slot),
            if count == 0 { " opacity=\"0.22\"" } else { "" }
        );
        if count > 0 {
            let cx = px + l.pocket - s * 0.2;
            let cy = y + slot - s * 0.2;
            let _ = write!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{TEXT}\"/><text x=\"{}\" \
                 y=\"{}\" font-size=\"{}\" fill=\"#fff\" text-anchor=\"middle\" \
                 font-weight=\"bold\">{count}</text>",
                N(cx),
                N(cy),
                N(s * 0.17),
                N(cx),
                N(cy + s * 0.085),
                N((s * 0.24).round())
            );
        }
        if marks.pocket == Some(piece) {
            let w = (s * 0.06).max(2.0);
            let _ = write!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"none\" \
                 stroke=\"{MISSING}\" stroke-width=\"{}\"><title>missing from the pocket</title></rect>",
                N(px + w / 2.0),
                N(y + w / 2.0),
                N(l.pocket - w),
                N(slot - w),
                N(s * 0.08),
                N(w)
            );
        }
    }
}

/// The mark of a promoted piece: a small disc with a tilde, centred at `(cx, cy)`.
fn promoted_mark(out: &mut String, cx: f64, cy: f64, s: f64) {
    let r = s * 0.13;
    let _ = write!(
        out,
        "<g><title>promoted</title><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{PROMOTED}\"/>\
         <path d=\"M{} {}q{} {} {} 0t{} 0\" fill=\"none\" stroke=\"#fff\" stroke-width=\"{}\" \
         stroke-linecap=\"round\"/></g>",
        N(cx),
        N(cy),
        N(r),
        N(cx - r * 0.6),
        N(cy),
        N(r * 0.3),
        N(-r * 0.6),
        N(r * 0.6),
        N(r * 0.6),
        N((s * 0.035).max(1.2))
    );
}
