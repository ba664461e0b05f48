//! Attack tables, built at compile time by `const fn`.
//!
//! Knight, king and pawn attacks are plain 64-entry tables. Sliding pieces use "fancy"
//! magic bitboards: for each square a relevance mask, a multiplier and a per-square
//! shift of `64 - popcount(mask)`, with the attack sets of all squares packed into one
//! table. The multipliers are not copied from anywhere: `examples/find_magics.rs` in this
//! repository found them by a deterministic search (seed `0x706f636b657466e6`), and
//! `cargo run --release --example find_magics` prints the same numbers again. Building the
//! table at compile time also proves them: a destructive collision aborts the build.

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

/// Found by `examples/find_magics.rs` (see the module docs).
const ROOK_MAGICS: [u64; 64] = [
    0x2080008020400016,
    0x0040001000402000,
    0x0200108008402200,
    0x3d00092101100004,
    0x0200200410080200,
    0x8180040080110200,
    0x0400009811100204,
    0x0a00110044002082,
    0x8000800080204000,
    0x000080400020008c,
    0x0021001020010040,
    0xa00300100100200c,
    0xb04a800800810402,
    0x0003000802040100,
    0x0082808001000200,
    0x1002002051020084,
    0x0200808000400020,
    0x0090104000200044,
    0x0342020010402081,
    0x0040818030001801,
    0x0021818008001400,
    0x0010808004000200,
    0x18000400d0010802,
    0x0200020000804401,
    0x4000400980008060,
    0x4000400340201000,
    0x0105021100200040,
    0x0002100480080080,
    0x0000080080040081,
    0x0001004900024400,
    0x0002262400b00803,
    0x1801802080004100,
    0x8000804102002201,
    0x0010002000404004,
    0x0040104101002008,
    0x0128010b80801002,
    0x1140080080800400,
    0x0000800400800200,
    0x2008100204000801,
    0x0010228042000c11,
    0x0080400480248001,
    0x0240408102020021,
    0x0a08200041090010,
    0x2808000810008080,
    0x0818000402004040,
    0x0002020004008080,
    0x0840021001040088,
    0x00023281034a0004,
    0x0006a20501518200,
    0x8000408029020200,
    0x8120441020010100,
    0x0008100008210100,
    0x0400110004080100,
    0x022c000200048080,
    0x00000a1508508400,
    0x0010040080410200,
    0x0a0280204b001202,
    0x200081002055c001,
    0x00410040120c2001,
    0x0023012008041001,
    0x0502000820100402,
    0x0001000204000801,
    0x0030100850810204,
    0x2040122411810046,
];
/// Found by `examples/find_magics.rs` (see the module docs).
const BISHOP_MAGICS: [u64; 64] = [
    0x2008011002220220,
    0x0212042104310200,
    0x80102140410a0000,
    0x8204150210501400,
    0x8102021180000008,
    0x1008410820852000,
    0x0020410411410000,
    0x0000808808420200,
    0x0004304401441420,
    0x0c00101002208028,
    0x00800802204e0002,
    0x0042040400880080,
    0x2008020210800000,
    0x0000084110110000,
    0x0100020802080620,
    0x0800882084542000,
    0x1150824004090448,
    0x0244001021024400,
    0x0008001000802808,
    0x0088081082084026,
    0x4404000211040000,
    0x0080202110101000,
    0x2402006041046016,
    0x04814201010811a2,
    0x2445400004881800,
    0x1008088412b00120,
    0x6000500408008014,
    0x0042080004010420,
    0x0810840140802011,
    0x1118020081088200,
    0x80008088a4140421,
    0x0004008100220108,
    0x4110882020080228,
    0x00010842c0600400,
    0x8002003000120084,
    0x0030020084880080,
    0x0830008200002200,
    0x2111100100208068,
    0x0452009202410810,
    0x0204010440102420,
    0x12040228040441c4,
    0x0440484c10401404,
    0x05480a0802002408,
    0x140410a01800d100,
    0x1000101020803012,
    0x0820481000210241,
    0x0408022400440414,
    0x0008083900208040,
    0xa00100882c420680,
    0x0000320804040000,
    0x0046002084104001,
    0x2024010020a80800,
    0x9000002002540440,
    0x0100203801184000,
    0x1040900401464006,
    0x0404080801282000,
    0x0000208044202005,
    0x0501018404410480,
    0x04000c0100411000,
    0x0c0058000020a810,
    0x8880010043104102,
    0x8812005020128420,
    0x40a04032a8420090,
    0x2048089004002020,
];

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 8 && r >= 0 && r < 8
}

/// Attacks of a slider on `sq` along `dirs`, stopping at (and including) blockers in `occ`.
const fn slide(sq: usize, occ: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let mut att = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq % 8) as i32 + df;
        let mut r = (sq / 8) as i32 + dr;
        while on_board(f, r) {
            let s = (r * 8 + f) as u64;
            att |= 1 << s;
            if occ & (1 << s) != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    att
}

/// Squares whose occupancy matters for a slider on `sq`: the rays without their last square.
const fn relevance(sq: usize, dirs: &[(i32, i32); 4]) -> u64 {
    let mut m = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq % 8) as i32 + df;
        let mut r = (sq / 8) as i32 + dr;
        while on_board(f + df, r + dr) {
            m |= 1 << (r * 8 + f);
            f += df;
            r += dr;
        }
        d += 1;
    }
    m
}

#[derive(Clone, Copy)]
struct Magic {
    mask: u64,
    factor: u64,
    shift: u32,
    offset: usize,
}

const fn magics(factors: &[u64; 64], dirs: &[(i32, i32); 4], start: usize) -> [Magic; 64] {
    let mut out = [Magic {
        mask: 0,
        factor: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = start;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevance(sq, dirs);
        let bits = mask.count_ones();
        out[sq] = Magic {
            mask,
            factor: factors[sq],
            shift: 64 - bits,
            offset,
        };
        offset += 1 << bits;
        sq += 1;
    }
    out
}

const ROOK_TABLE_SIZE: usize = 102_400;
const BISHOP_TABLE_SIZE: usize = 5_248;
const TABLE_SIZE: usize = ROOK_TABLE_SIZE + BISHOP_TABLE_SIZE;

static ROOK: [Magic; 64] = magics(&ROOK_MAGICS, &ROOK_DIRS, 0);
static BISHOP: [Magic; 64] = magics(&BISHOP_MAGICS, &BISHOP_DIRS, ROOK_TABLE_SIZE);

const fn fill(table: &mut [u64; TABLE_SIZE], magics: &[Magic; 64], dirs: &[(i32, i32); 4]) {
    let mut sq = 0;
    while sq < 64 {
        let m = magics[sq];
        // Carry-Rippler enumeration of every subset of the mask.
        let mut sub: u64 = 0;
        loop {
            let att = slide(sq, sub, dirs);
            let idx = m.offset + (sub.wrapping_mul(m.factor) >> m.shift) as usize;
            assert!(
                table[idx] == 0 || table[idx] == att,
                "destructive magic collision"
            );
            table[idx] = att;
            sub = sub.wrapping_sub(m.mask) & m.mask;
            if sub == 0 {
                break;
            }
        }
        sq += 1;
    }
}

const fn slider_table() -> [u64; TABLE_SIZE] {
    let mut table = [0; TABLE_SIZE];
    fill(&mut table, &magics(&ROOK_MAGICS, &ROOK_DIRS, 0), &ROOK_DIRS);
    fill(
        &mut table,
        &magics(&BISHOP_MAGICS, &BISHOP_DIRS, ROOK_TABLE_SIZE),
        &BISHOP_DIRS,
    );
    table
}

static SLIDERS: [u64; TABLE_SIZE] = slider_table();

const fn stepper(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < deltas.len() {
            let f = (sq % 8) as i32 + deltas[i].0;
            let r = (sq / 8) as i32 + deltas[i].1;
            if on_board(f, r) {
                table[sq] |= 1 << (r * 8 + f);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = stepper(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = stepper(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static WHITE_PAWN: [u64; 64] = stepper(&[(-1, 1), (1, 1)]);

const fn rays(dirs: &[(i32, i32); 4]) -> [u64; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = slide(sq, 0, dirs);
        sq += 1;
    }
    table
}

static ROOK_RAYS: [u64; 64] = rays(&ROOK_DIRS);
static BISHOP_RAYS: [u64; 64] = rays(&BISHOP_DIRS);
static BLACK_PAWN: [u64; 64] = stepper(&[(-1, -1), (1, -1)]);

/// `.0[a][b]`: the squares strictly between `a` and `b` on a line, else empty.
/// `.1[a][b]`: the whole line through `a` and `b` (edge to edge), else empty.
const fn line_tables() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    const DIRS: [(i32, i32); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    let mut between = [[0; 64]; 64];
    let mut line = [[0; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRS[d];
            let forward = slide(a, 0, &[(df, dr); 4]);
            let backward = slide(a, 0, &[(-df, -dr); 4]);
            let mut gap = 0;
            let mut f = (a % 8) as i32 + df;
            let mut r = (a / 8) as i32 + dr;
            while on_board(f, r) {
                let b = (r * 8 + f) as usize;
                between[a][b] = gap;
                line[a][b] = forward | backward | (1 << a);
                gap |= 1 << b;
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static LINES: ([[u64; 64]; 64], [[u64; 64]; 64]) = line_tables();

#[inline]
fn magic_lookup(m: &Magic, occupied: Bitboard) -> Bitboard {
    let idx = m.offset + ((occupied.0 & m.mask).wrapping_mul(m.factor) >> m.shift) as usize;
    // SAFETY-free: the index is in bounds by construction (offset + 2^bits ≤ TABLE_SIZE).
    Bitboard(SLIDERS[idx])
}

/// Rook attacks from `sq` with blockers `occupied`.
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&ROOK[sq.index()], occupied)
}

/// Bishop attacks from `sq` with blockers `occupied`.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&BISHOP[sq.index()], occupied)
}

/// Rook attacks from `sq` on an empty board: its rank and file.
#[inline]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(ROOK_RAYS[sq.index()])
}

/// Bishop attacks from `sq` on an empty board: its two diagonals.
#[inline]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(BISHOP_RAYS[sq.index()])
}

/// Queen attacks from `sq` with blockers `occupied`.
#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// The squares a pawn of `color` on `sq` attacks.
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(match color {
        Color::White => WHITE_PAWN[sq.index()],
        Color::Black => BLACK_PAWN[sq.index()],
    })
}

/// The squares strictly between `a` and `b` if they share a line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.0[a.index()][b.index()])
}

/// The full line (edge to edge) through `a` and `b`, or empty if they share none.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.1[a.index()][b.index()])
}

/// Whether `a`, `b` and `c` lie on one line.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rook_stops_at_the_first_blocker() {
        let a = rook_attacks(Square::A1, Bitboard::from_square(Square::new(24)));
        assert!(a.contains(Square::new(24)) && !a.contains(Square::new(32)));
    }

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn sliders_match_the_slow_reference() {
        let mut x: u64 = 0x1234_5678_9abc_def1;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = Bitboard(x & (x >> 3));
            for s in Square::all() {
                assert_eq!(rook_attacks(s, occ).0, slide(s.index(), occ.0, &ROOK_DIRS));
                assert_eq!(
                    bishop_attacks(s, occ).0,
                    slide(s.index(), occ.0, &BISHOP_DIRS)
                );
            }
        }
    }

    #[test]
    fn rays_are_the_attacks_on_an_empty_board() {
        for i in 0..64 {
            let sq = Square::new(i);
            assert_eq!(rook_rays(sq), rook_attacks(sq, Bitboard::EMPTY), "{sq}");
            assert_eq!(bishop_rays(sq), bishop_attacks(sq, Bitboard::EMPTY), "{sq}");
        }
        assert_eq!(rook_rays(sq("a1")).count(), 14);
        assert_eq!(bishop_rays(sq("d4")).count(), 13);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(
            between(sq("a1"), sq("d4")),
            Bitboard::from_square(sq("b2")) | sq("c3")
        );
        assert_eq!(between(sq("a1"), sq("b3")), Bitboard::EMPTY);
        assert_eq!(between(sq("e1"), sq("e2")), Bitboard::EMPTY);
        assert_eq!(line(sq("e1"), sq("e4")).count(), 8);
        assert_eq!(line(sq("b2"), sq("d4")).count(), 8);
        assert!(line(sq("a1"), sq("b3")).is_empty());
        assert!(aligned(sq("a1"), sq("h8"), sq("d4")));
    }

    #[test]
    fn steppers() {
        assert_eq!(knight_attacks(sq("a1")).count(), 2);
        assert_eq!(king_attacks(sq("e4")).count(), 8);
        assert_eq!(
            pawn_attacks(Color::White, sq("e4")),
            Bitboard::from_square(sq("d5")) | sq("f5")
        );
        assert_eq!(pawn_attacks(Color::Black, sq("a1")), Bitboard::EMPTY);
    }
}
