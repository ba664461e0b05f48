//! Shared by the benches: random games, as archives hold them.
#![allow(dead_code)]

use pocketfen::notation::san::{DropStyle, SanPlus};
use pocketfen::{Position, Variant};

#[path = "../../tests/common/rng.rs"]
mod rng;
pub use rng::Rng;

impl Rng {
    pub fn name(&mut self) -> String {
        const SYLLABLES: [&str; 16] = [
            "ka", "ro", "mi", "zen", "tal", "bo", "vi", "lu", "nor", "ex", "qua", "dri", "fe",
            "sol", "ix", "pa",
        ];
        let mut s: String = (0..2 + self.below(3))
            .map(|_| SYLLABLES[self.below(16)])
            .collect();
        if self.below(3) == 0 {
            s.push_str(&self.below(2000).to_string());
        }
        s
    }
}

/// One game played at random, with tags and a clock comment after each move: standard
/// chess, or (half the time, with `crazyhouse`) crazyhouse.
pub fn random_game(rng: &mut Rng, out: &mut String, crazyhouse: bool) {
    let crazyhouse = crazyhouse && rng.below(2) == 0;
    let variant = if crazyhouse {
        Variant::Crazyhouse
    } else {
        Variant::Chess
    };
    let mut pos = Position::start(variant);
    let (base, inc): (usize, usize) =
        [(180, 0), (180, 2), (300, 0), (300, 3), (600, 5)][rng.below(5)];
    let plies = 20 + rng.below(120);
    let mut movetext = String::new();
    let mut clocks = [base; 2];
    let mut result = "*";
    for ply in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            result = if pos.is_check() {
                if ply % 2 == 0 { "0-1" } else { "1-0" }
            } else {
                "1/2-1/2"
            };
            break;
        }
        let m = moves[rng.below(moves.len())];
        if ply % 2 == 0 {
            movetext.push_str(&format!("{}. ", ply / 2 + 1));
        } else if ply > 0 && movetext.ends_with("} ") {
            movetext.push_str(&format!("{}... ", ply / 2 + 1));
        }
        movetext.push_str(&SanPlus::from_move(&pos, m).to_string_with(DropStyle::Letter));
        let side = ply % 2;
        clocks[side] = (clocks[side] + inc).saturating_sub(rng.below(20));
        let c = clocks[side];
        movetext.push_str(&format!(
            " {{ [%clk {}:{:02}:{:02}] }} ",
            c / 3600,
            c / 60 % 60,
            c % 60
        ));
        pos.play(m).unwrap();
    }
    let site: String = (0..8)
        .map(|_| {
            char::from(b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"[rng.below(57)])
        })
        .collect();
    let tags = [
        (
            "Event",
            format!(
                "Rated {} game",
                if crazyhouse { "Crazyhouse" } else { "Blitz" }
            ),
        ),
        ("Site", format!("https://lichess.org/{site}")),
        (
            "Date",
            format!(
                "20{:02}.{:02}.{:02}",
                13 + rng.below(12),
                1 + rng.below(12),
                1 + rng.below(28)
            ),
        ),
        ("White", rng.name()),
        ("Black", rng.name()),
        ("Result", result.to_owned()),
        ("WhiteElo", (800 + rng.below(2000)).to_string()),
        ("BlackElo", (800 + rng.below(2000)).to_string()),
        ("TimeControl", format!("{base}+{inc}")),
        (
            "Termination",
            ["Normal", "Time forfeit"][rng.below(2)].to_owned(),
        ),
    ];
    for (name, value) in tags {
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    if crazyhouse {
        out.push_str("[Variant \"Crazyhouse\"]\n");
    }
    out.push('\n');
    // Wrapped at 80 columns, as exports are.
    let mut col = 0;
    for word in movetext
        .split(' ')
        .filter(|w| !w.is_empty())
        .chain([result])
    {
        if col > 0 && col + 1 + word.len() > 80 {
            out.push('\n');
            col = 0;
        } else if col > 0 {
            out.push(' ');
            col += 1;
        }
        out.push_str(word);
        col += word.len();
    }
    out.push_str("\n\n");
}
