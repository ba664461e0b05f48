//! Parquet's RLE / bit-packing hybrid, the encoding of a data page's dictionary indices
//! and of its definition and repetition levels: runs of a value as one, the rest
//! bit-packed eight values at a time; and booleans bit-packed as plain values.

/// Writes `v` as an unsigned LEB128 varint.
fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The bits that hold every value up to `max` (at least one).
pub(super) fn bit_width(max: u32) -> u8 {
    (32 - max.leading_zeros()).max(1) as u8
}

/// Whether the eight values of `group` all equal `v`: each one XOR-ed with it and the
/// results OR-ed together, with no branch between them, so that the compiler tests them
/// as vectors.
#[inline(always)]
fn all_equal(group: &[u32], v: u32) -> bool {
    group.iter().fold(0, |acc, &x| acc | (x ^ v)) == 0
}

/// How many of `values` from `at` on equal `values[at]`: eight at a time while they do
/// (a long run, such as a column's definition levels without nulls, costs about an
/// instruction for eight values), then one at a time.
fn run_at(values: &[u32], at: usize) -> usize {
    let v = values[at];
    let rest = &values[at..];
    let whole = rest
        .chunks_exact(8)
        .take_while(|group| all_equal(group, v))
        .count()
        * 8;
    whole + rest[whole..].iter().take_while(|&&x| x == v).count()
}

/// Whether the eight values from `at` are one value.
fn run_of_eight(values: &[u32], at: usize) -> bool {
    values.get(at..at + 8).is_some_and(|w| all_equal(w, w[0]))
}

/// `values` (each below `2^width`) in Parquet's RLE / bit-packing hybrid: a run of eight
/// or more equal values as one repeated value, the others bit-packed eight at a time,
/// least significant bit first (the last group padded with zeros).
pub(super) fn hybrid(out: &mut Vec<u8>, values: &[u32], width: u8) {
    let bytes = usize::from(width).div_ceil(8);
    let mut i = 0;
    while i < values.len() {
        let run = run_at(values, i);
        if run >= 8 {
            varint(out, (run as u64) << 1);
            out.extend_from_slice(&values[i].to_le_bytes()[..bytes]);
            i += run;
            continue;
        }
        // Groups of eight, until a run of eight starts a group or the values end.
        let start = i;
        let mut groups = 0u64;
        loop {
            i += 8;
            groups += 1;
            if i >= values.len() || run_of_eight(values, i) {
                break;
            }
        }
        varint(out, (groups << 1) | 1);
        let end = i.min(values.len());
        // (The groups hold every value from `start` to `end`: the last one, cut by the
        // end of the values, is padded by `pack`.)
        pack(out, &values[start..end], width);
    }
}

/// `values` bit-packed at `width` bits each, padded with zeros to a multiple of eight
/// values: eight at a time into one word when they fit in it (up to 16 bits).
fn pack(out: &mut Vec<u8>, values: &[u32], width: u8) {
    // Up to 16 bits, eight values fit one u128: packed with the width known when the
    // code is compiled, so that every shift is a constant one.
    match width {
        1 => return pack_fixed::<1>(out, values),
        2 => return pack_fixed::<2>(out, values),
        3 => return pack_fixed::<3>(out, values),
        4 => return pack_fixed::<4>(out, values),
        5 => return pack_fixed::<5>(out, values),
        6 => return pack_fixed::<6>(out, values),
        7 => return pack_fixed::<7>(out, values),
        8 => return pack_fixed::<8>(out, values),
        9 => return pack_fixed::<9>(out, values),
        10 => return pack_fixed::<10>(out, values),
        11 => return pack_fixed::<11>(out, values),
        12 => return pack_fixed::<12>(out, values),
        13 => return pack_fixed::<13>(out, values),
        14 => return pack_fixed::<14>(out, values),
        15 => return pack_fixed::<15>(out, values),
        16 => return pack_fixed::<16>(out, values),
        _ => {}
    }
    let mut acc = 0u64;
    let mut bits = 0u32;
    let padding = std::iter::repeat_n(0, values.len().div_ceil(8) * 8 - values.len());
    for v in values.iter().copied().chain(padding) {
        acc |= u64::from(v) << bits;
        bits += u32::from(width);
        while bits >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            bits -= 8;
        }
    }
}

/// `values` bit-packed at `W` bits each (at most 16), eight to a word, the last group
/// padded with zeros.
fn pack_fixed<const W: usize>(out: &mut Vec<u8>, values: &[u32]) {
    // Eight values of at most eight bits fit a u64, cheaper than a u128.
    let word = |group: &[u32]| -> [u8; 16] {
        if W <= 8 {
            let w = group
                .iter()
                .enumerate()
                .fold(0u64, |acc, (i, &v)| acc | u64::from(v) << (i * W));
            u128::from(w).to_le_bytes()
        } else {
            group
                .iter()
                .enumerate()
                .fold(0u128, |acc, (i, &v)| acc | u128::from(v) << (i * W))
                .to_le_bytes()
        }
    };
    let mut groups = values.chunks_exact(8);
    for group in &mut groups {
        out.extend_from_slice(&word(group)[..W]);
    }
    let rest = groups.remainder();
    if !rest.is_empty() {
        out.extend_from_slice(&word(rest)[..W]);
    }
}

/// Booleans bit-packed, least significant bit first (a page's plain values).
pub(super) fn pack_bools(out: &mut Vec<u8>, values: &[bool]) {
    for chunk in values.chunks(8) {
        let byte = chunk
            .iter()
            .enumerate()
            .fold(0u8, |b, (i, &v)| b | (u8::from(v) << i));
        out.push(byte);
    }
}

/// Levels of a version-1 data page: their length in four bytes, then the hybrid.
pub(super) fn levels(out: &mut Vec<u8>, levels: &[u32], max: i16) {
    let at = out.len();
    out.extend_from_slice(&[0; 4]);
    hybrid(out, levels, bit_width(max as u32));
    let len = (out.len() - at - 4) as u32;
    out[at..at + 4].copy_from_slice(&len.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hybrid read back as the format describes it.
    fn unhybrid(mut data: &[u8], width: u8, count: usize) -> Vec<u32> {
        let mut out = Vec::new();
        let bytes = usize::from(width).div_ceil(8);
        while out.len() < count {
            let mut header = 0u64;
            let mut shift = 0;
            loop {
                let b = data[0];
                data = &data[1..];
                header |= u64::from(b & 0x7f) << shift;
                shift += 7;
                if b < 0x80 {
                    break;
                }
            }
            if header & 1 == 0 {
                let mut v = [0u8; 4];
                v[..bytes].copy_from_slice(&data[..bytes]);
                data = &data[bytes..];
                out.extend(std::iter::repeat_n(
                    u32::from_le_bytes(v),
                    (header >> 1) as usize,
                ));
            } else {
                let n = (header >> 1) as usize * 8;
                let mut bit = 0usize;
                for _ in 0..n {
                    let mut v = 0u32;
                    for b in 0..usize::from(width) {
                        let at = bit + b;
                        v |= u32::from((data[at / 8] >> (at % 8)) & 1) << b;
                    }
                    bit += usize::from(width);
                    out.push(v);
                }
                data = &data[n * usize::from(width) / 8..];
            }
        }
        assert!(data.is_empty(), "{} bytes left over", data.len());
        out.truncate(count);
        out
    }

    #[test]
    fn the_hybrid_reads_back_for_runs_and_mixed_values() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut random = move |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % u64::from(n)) as u32
        };
        for width in 1u8..=32 {
            let top = if width == 32 {
                u32::MAX
            } else {
                (1 << width) - 1
            };
            for len in [0usize, 1, 7, 8, 9, 15, 16, 17, 100, 1000] {
                let mut values = Vec::new();
                while values.len() < len {
                    // Runs of every length, and single values.
                    let v = random(top.max(1)) & top;
                    let run = [1, 1, 2, 7, 8, 9, 30][random(7) as usize] as usize;
                    values.extend(std::iter::repeat_n(v, run.min(len - values.len())));
                }
                // Each run's length, counted eight at a time, is the one counted a
                // value at a time (a run counted short would still read back).
                for at in 0..len {
                    let one_by_one = values[at..].iter().take_while(|&&x| x == values[at]);
                    assert_eq!(
                        run_at(&values, at),
                        one_by_one.count(),
                        "{width} {len} {at}"
                    );
                }
                let mut out = Vec::new();
                hybrid(&mut out, &values, width);
                assert_eq!(
                    unhybrid(&out, width, len),
                    values,
                    "width {width}, {len} values"
                );
            }
        }
        // A long run is one header and one value.
        let mut out = Vec::new();
        hybrid(&mut out, &[5; 1000], 3);
        assert_eq!(out, [0xd0, 0x0f, 5]);
        // Eight mixed values are one bit-packed group, and the run of eight or more
        // after them ends it (a run not found there would be packed with them).
        let mut values = vec![1, 2, 3, 4, 5, 6, 7, 0];
        values.extend([9; 16]);
        let mut out = Vec::new();
        hybrid(&mut out, &values, 4);
        assert_eq!(out, [0x03, 0x21, 0x43, 0x65, 0x07, 0x20, 0x09]);
    }

    #[test]
    fn widths_and_booleans() {
        assert_eq!(bit_width(0), 1);
        assert_eq!(bit_width(1), 1);
        assert_eq!(bit_width(2), 2);
        assert_eq!(bit_width(255), 8);
        assert_eq!(bit_width(256), 9);
        assert_eq!(bit_width(u32::MAX), 32);
        let mut out = Vec::new();
        pack_bools(
            &mut out,
            &[true, false, true, true, false, false, false, false, true],
        );
        assert_eq!(out, [0b0000_1101, 1]);
    }
}
