//! Attack tables, built at compile time by `const fn`.
//!
//! Knight, king and pawn attacks are plain 64-entry tables. A rook's rank and its file
//! are looked up apart: a line's six inner squares, masked and multiplied onto a word's
//! top six bits, index that square's 64 attack sets along the line (two tables of 32 KB).
//! One table indexed by both lines at once (a rook's "magic bitboards", 800 KB) missed
//! the processor's caches when validating archives, whose text pushes the tables out.
//! Bishops use "fancy" magic bitboards (42 KB): for each square a relevance mask, a
//! multiplier and a per-square shift of `64 - popcount(mask)`, with the attack sets of
//! all squares packed into one table. The multipliers are not copied from anywhere:
//! `examples/find_magics.rs` in this repository found them by a deterministic search
//! (seed `0x706f636b657466e6`), and `cargo run --release --example find_magics` prints
//! the same numbers again. Building the table at compile time also proves them: a
//! destructive collision aborts the build.

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

/// Found by `examples/find_magics.rs` (see the module docs).
const BISHOP_MAGICS: [u64; 64] = [
    0x0828025802202200,
    0x101808010422e188,
    0x00500c0040420480,
    0x0144042088000812,
    0x0041104081500000,
    0x4011012091200008,
    0x0781041002088080,
    0x0509004c44200801,
    0x0010900248210409,
    0x0000208101090100,
    0x400810044c404080,
    0x2000110502000104,
    0x6002020210800400,
    0x000000821140a020,
    0x0e00008208424000,
    0x0200031400820800,
    0x0840201010020090,
    0x4008206042040841,
    0x4806043008220024,
    0x0304242202060000,
    0x0b1284a400a00028,
    0x4101000200610405,
    0xd8008014020110e1,
    0x0445000024020203,
    0x9008450040040800,
    0x800442002008090c,
    0x0808080005084300,
    0x0484080000220040,
    0x4125010100104004,
    0x0088002001100800,
    0x400804800100c808,
    0x0002008480440080,
    0x11013010840a200d,
    0x204208021020a200,
    0x4e92048201700028,
    0x1200202020080080,
    0x0284200200002080,
    0x8020080045808040,
    0x0d0494084804010a,
    0x2204008620020330,
    0x0001410840002000,
    0x4004882430400240,
    0x0800082088001000,
    0x0004104010448200,
    0x5008281010401c02,
    0x2001020820400601,
    0x0002540424005098,
    0x0242428420800304,
    0x0400410420a00020,
    0x2104208210b01006,
    0x0404044c04040400,
    0x8000000042020802,
    0x02180029f0241040,
    0x9000200202021000,
    0x1805281007420000,
    0x8010440800882115,
    0x0005808c09014000,
    0x41200102a8140e00,
    0x0590990203f20800,
    0x40441001242a0800,
    0x0000200040528201,
    0x000c024090828080,
    0x010148481040c200,
    0x00042048010c2481,
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

const fn magics(factors: &[u64; 64], dirs: &[(i32, i32); 4]) -> [Magic; 64] {
    let mut out = [Magic {
        mask: 0,
        factor: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = 0;
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

const TABLE_SIZE: usize = 5_248;

static BISHOP: [Magic; 64] = magics(&BISHOP_MAGICS, &BISHOP_DIRS);

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
    fill(
        &mut table,
        &magics(&BISHOP_MAGICS, &BISHOP_DIRS),
        &BISHOP_DIRS,
    );
    table
}

static BISHOP_ATTACKS: [u64; TABLE_SIZE] = slider_table();

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
    Bitboard(BISHOP_ATTACKS[idx])
}

/// The a-file's inner squares, a2 to a7.
const A_FILE_INNER: u64 = 0x0001_0101_0101_0100;

/// Multiplies the a-file's inner squares (bit `8k`, k = 1..6) onto the top six bits (bit
/// `57 + k`): each lands alone, so no sum carries, and the products of the other pairs
/// fall off the word's top or below bit 58. Shifted right by a file, it does the same
/// for that file's inner squares.
const A_FILE_TO_TOP: u64 = (1 << 50) | (1 << 43) | (1 << 36) | (1 << 29) | (1 << 22) | (1 << 15);

/// A rook's square, its rank and its file each read apart: a line's six inner squares
/// masked and multiplied onto the top six bits index that line's 64 attack sets.
#[derive(Clone, Copy)]
struct RookLines {
    rank_mask: u64,
    rank_factor: u64,
    file_mask: u64,
    file_factor: u64,
}

const fn rook_lines() -> [RookLines; 64] {
    let mut out = [RookLines {
        rank_mask: 0,
        rank_factor: 0,
        file_mask: 0,
        file_factor: 0,
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        out[sq] = RookLines {
            // b to g of the rank: bits 8r+1 to 8r+6, moved up onto bits 58 to 63.
            rank_mask: 0x7e << (8 * rank),
            rank_factor: 1 << (57 - 8 * rank),
            file_mask: A_FILE_INNER << file,
            file_factor: A_FILE_TO_TOP >> file,
        };
        sq += 1;
    }
    out
}

/// The inner squares of a line as a bitboard, from the six bits of `index`: `mask`'s
/// squares in order (the multiplication's inverse).
const fn spread(index: usize, mask: u64) -> u64 {
    let mut occ = 0;
    let mut m = mask;
    let mut k = 0;
    while m != 0 {
        let low = m & m.wrapping_neg();
        if index & (1 << k) != 0 {
            occ |= low;
        }
        m &= m - 1;
        k += 1;
    }
    occ
}

/// `(rank, file)`: for each square and each index of its rank's (file's) inner
/// occupancy, the squares a rook there attacks along it.
const fn rook_line_tables() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut ranks = [[0; 64]; 64];
    let mut files = [[0; 64]; 64];
    let lines = rook_lines();
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        let rank_bits = 0xff << (8 * rank);
        let file_bits = 0x0101_0101_0101_0101 << file;
        let mut index = 0;
        while index < 64 {
            ranks[sq][index] =
                slide(sq, spread(index, lines[sq].rank_mask), &ROOK_DIRS) & rank_bits;
            files[sq][index] =
                slide(sq, spread(index, lines[sq].file_mask), &ROOK_DIRS) & file_bits;
            index += 1;
        }
        sq += 1;
    }
    (ranks, files)
}

static ROOK_LINES: [RookLines; 64] = rook_lines();
static ROOK_LINE_ATTACKS: ([[u64; 64]; 64], [[u64; 64]; 64]) = rook_line_tables();

/// Rook attacks from `sq` with blockers `occupied`: its rank and its file each looked up
/// by their six inner squares (64 KB of tables, which stay in the cache where one
/// table indexed by both lines, 800 KB, does not).
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let l = &ROOK_LINES[sq.index()];
    let rank = ((occupied.0 & l.rank_mask).wrapping_mul(l.rank_factor) >> 58) as usize;
    let file = ((occupied.0 & l.file_mask).wrapping_mul(l.file_factor) >> 58) as usize;
    Bitboard(ROOK_LINE_ATTACKS.0[sq.index()][rank] | ROOK_LINE_ATTACKS.1[sq.index()][file])
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

    /// Every occupancy of a rook's rank and file (their edge squares and the squares off
    /// both lines occupied at random too) gives the attacks of the ray walk.
    #[test]
    fn rooks_match_the_ray_walk_for_every_occupancy_of_their_lines() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for s in Square::all() {
            let lines = &ROOK_LINES[s.index()];
            for rank in 0..64 {
                for file in 0..64 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let off_lines = x & !(lines.rank_mask | lines.file_mask);
                    let occ = spread(rank, lines.rank_mask) | spread(file, lines.file_mask);
                    let occ = occ | off_lines;
                    assert_eq!(
                        rook_attacks(s, Bitboard(occ)).0,
                        slide(s.index(), occ, &ROOK_DIRS),
                        "{s} {occ:#x}"
                    );
                }
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
