//! Finds the fixed magic multipliers used by `src/attacks.rs`.
//!
//! Run `cargo run --release --example find_magics` to regenerate the tables that
//! `src/attacks.rs` cites. The search is deterministic: a xorshift64* generator seeded
//! with `SEED` draws sparse candidates (the AND of three random words), and the first
//! candidate per square that maps every occupancy subset of the relevance mask to an
//! index without a destructive collision is kept. The table size per square is
//! `1 << popcount(mask)` ("plain" per-square shift, packed consecutively).

const SEED: u64 = 0x706f_636b_6574_66e6; // "pocketf" + 0xe6

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

fn slide(sq: i32, occ: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut att = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            let s = r * 8 + f;
            att |= 1u64 << s;
            if occ & (1u64 << s) != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    att
}

fn mask(sq: i32, dirs: &[(i32, i32)]) -> u64 {
    let mut m = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
        while (0..8).contains(&(f + df)) && (0..8).contains(&(r + dr)) {
            m |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    m
}

fn find(rng: &mut Rng, sq: i32, dirs: &[(i32, i32)]) -> u64 {
    let m = mask(sq, dirs);
    let bits = m.count_ones();
    let mut subsets = Vec::new();
    let mut sub = 0u64;
    loop {
        subsets.push((sub, slide(sq, sub, dirs)));
        sub = sub.wrapping_sub(m) & m;
        if sub == 0 {
            break;
        }
    }
    let mut table = vec![0u64; 1 << bits];
    let mut used = vec![0u32; 1 << bits];
    let mut epoch = 0;
    loop {
        let magic = rng.sparse();
        if (m.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        epoch += 1;
        let ok = subsets.iter().all(|&(occ, att)| {
            let idx = (occ.wrapping_mul(magic) >> (64 - bits)) as usize;
            if used[idx] != epoch {
                used[idx] = epoch;
                table[idx] = att;
                true
            } else {
                table[idx] == att
            }
        });
        if ok {
            return magic;
        }
    }
}

fn main() {
    let bishop = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let mut rng = Rng(SEED);
    println!("const BISHOP_MAGICS: [u64; 64] = [");
    for sq in 0..64 {
        println!("    0x{:016x},", find(&mut rng, sq, &bishop));
    }
    println!("];");
}
