//! The pieces, drawn for this project: one outline per role on a 100 × 100 grid, filled
//! light for White and dark for Black, with detail lines in the contrasting colour. Strokes
//! are 3 units wide, so a piece stays crisp at 40 px.

use crate::types::{Color, Piece, Role};

/// The outline of a role (filled), then its detail lines (stroked only).
fn shape(role: Role) -> (&'static str, &'static str) {
    match role {
        Role::Pawn => (
            "M50 16A13 13 0 0 1 58.5 38.8c5 3 8 7.5 8 12.2h-7c1.5 10 6 17 13 22.5V84H27.5V73.5\
             c7-5.5 11.5-12.5 13-22.5h-7c0-4.7 3-9.2 8-12.2A13 13 0 0 1 50 16z",
            "M40.5 51h19",
        ),
        Role::Knight => (
            "M30 86H77C78 66 75 44 65 32 59 24 51 20 45 18l-2 8-6-4 1 9C29 38 21 50 19 58\
             c-1 5 3 8 7 6 4-2 6-6 11-8 4-1 8-4 10-8 2 8-6 16-12 22-4 4-5 10-4 16z",
            "M40 33.5a2.5 2.5 0 1 0 .1 0zM60 30c7 10 9 26 8 48",
        ),
        Role::Bishop => (
            "M50 10a6 6 0 1 1-.1 0zM50 21C38 30 32 42 34 54c1 6 6 10 8 12H58c2-2 7-6 8-12\
             C68 42 62 30 50 21zM38 66h24v7H38zM24 87c6-8 18-11 26-11s20 3 26 11z",
            "M54 34 45 46M38 73h24",
        ),
        Role::Rook => (
            "M27 16h10v7h7.5v-7h11v7h7.5v-7h10v17l-7 6v27l7 6v6h4v8H23v-8h4v-6l7-6V39l-7-6z",
            "M27 33h46M27 72h46M34 39h32M34 66h32",
        ),
        Role::Queen => (
            "M24 72 14 34 32 54 33 26 44 52 50 22 56 52 67 26 68 54 86 34 76 72zM24 72h52l4 14\
             H20zM14 26.5a4.5 4.5 0 1 1-.1 0zM33 18.5a4.5 4.5 0 1 1-.1 0zM50 14.5a4.5 4.5 0 1 1\
             -.1 0zM67 18.5a4.5 4.5 0 1 1-.1 0zM86 26.5a4.5 4.5 0 1 1-.1 0z",
            "M22 79h56",
        ),
        Role::King => (
            "M47 6h6v6h6v6h-6v9h-6v-9h-6v-6h6zM50 30c-6 0-10 6-8 14-12-10-28-4-24 12 2 8 8 12 10 16\
             H72c2-4 8-8 10-16 4-16-12-22-24-12 2-8-2-14-8-14zM28 72h44l3 14H25z",
            "M50 44v28M27 79h46",
        ),
    }
}

/// A side's colours: fill, outline and detail lines.
pub(crate) fn colours(color: Color) -> (&'static str, &'static str, &'static str) {
    match color {
        Color::White => ("#fbfaf6", "#1c1c1c", "#1c1c1c"),
        Color::Black => ("#2a2a2e", "#0c0c0c", "#e8e6df"),
    }
}

/// The symbol id of a piece: `pf-wK`, `pf-bp`, …
pub(crate) fn symbol_id(piece: Piece) -> String {
    let side = match piece.color {
        Color::White => 'w',
        Color::Black => 'b',
    };
    format!("pf-{side}{}", piece.role.upper_char())
}

/// `<symbol>` definitions of the twelve pieces, for `<use href="#pf-wK">`.
pub(crate) fn symbols(out: &mut String) {
    for color in [Color::White, Color::Black] {
        let (fill, stroke, detail) = colours(color);
        for role in Role::ALL {
            let (outline, details) = shape(role);
            let id = symbol_id(Piece { color, role });
            out.push_str(&format!(
                "<symbol id=\"{id}\" viewBox=\"0 0 100 100\"><g stroke-width=\"3\" \
                 stroke-linejoin=\"round\" stroke-linecap=\"round\"><path d=\"{outline}\" \
                 fill=\"{fill}\" stroke=\"{stroke}\"/><path d=\"{details}\" fill=\"none\" \
                 stroke=\"{detail}\"/></g></symbol>"
            ));
        }
    }
}
