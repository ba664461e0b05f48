use std::io::{Read, Write};

use super::*;

fn compressed(text: &[u8], level: u32) -> Vec<u8> {
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::new(level));
    e.write_all(text).unwrap();
    e.finish().unwrap()
}

/// Text of many short lines, `n` bytes or a little more, that compresses.
fn text(n: usize, seed: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(n + 64);
    let mut x = seed | 1;
    while out.len() < n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.extend_from_slice(format!("[Event \"{}\"] {}\n", x % 1000, x % 97).as_bytes());
    }
    out
}

/// `b` shifted right by `k` bits, behind `k` one bits: every magic moves off its byte.
fn shifted(b: &[u8], k: u32) -> Vec<u8> {
    let mut out = Bits::with_capacity(b.len() + 1);
    out.put((1 << k) - 1, k);
    out.copy(b, 0, b.len() as u64 * 8);
    out.finish()
}

/// Every mark of `b` in order.
fn marks(b: &[u8]) -> Vec<Mark> {
    let mut all = Vec::new();
    let mut from = 0;
    while let Some(m) = next_mark(b, from, 0) {
        all.push(m);
        // Past a stream's start, its first magic too.
        from = match m {
            Mark::Stream(s) => (s + 4) * 8 + 1,
            _ => m.bit() + 1,
        };
    }
    all
}

#[test]
fn marks_are_found_at_every_bit() {
    // Level 1: blocks of 100 kB of text, so 250 kB make three.
    let one = compressed(&text(250_000, 7), 1);
    let found = marks(&one);
    let [
        Mark::Stream(0),
        Mark::Block(b1),
        Mark::Block(b2),
        Mark::End(e),
    ] = found[..]
    else {
        panic!("{found:?}")
    };
    assert!(32 < b1 && b1 < b2 && b2 < e, "{found:?}");
    assert_eq!(stream_end(e), one.len() as u64);
    for k in 1..8 {
        let moved = shifted(&one, k);
        let expected = [
            Mark::Block(32 + u64::from(k)),
            Mark::Block(b1 + u64::from(k)),
            Mark::Block(b2 + u64::from(k)),
            Mark::End(e + u64::from(k)),
        ];
        assert_eq!(marks(&moved), expected, "shifted by {k}");
    }
    // Two streams joined: the second's start is a stream's, not a block's.
    let two = [one.clone(), one.clone()].concat();
    let found = marks(&two);
    assert_eq!(found.len(), 8, "{found:?}");
    assert_eq!(found[4], Mark::Stream(one.len() as u64));
}

#[test]
fn a_block_alone_decodes_to_its_own_text() {
    let whole = text(250_000, 11);
    let one = compressed(&whole, 1);
    let found = marks(&one);
    // Each block's start and the end's.
    let bits: Vec<u64> = std::iter::once(32)
        .chain(found[1..].iter().map(|m| m.bit()))
        .collect();
    assert_eq!(bits.len(), 4, "{found:?}");
    let mut got = Vec::new();
    for w in bits.windows(2) {
        for k in [0, 3] {
            // The same block read from bytes shifted by `k` bits.
            let moved = shifted(&one, k);
            let block = lone_block(&moved, w[0] + u64::from(k), w[1] + u64::from(k));
            let mut text = Vec::new();
            bzip2::read::BzDecoder::new(&block[..])
                .read_to_end(&mut text)
                .unwrap();
            if k == 0 {
                got.extend_from_slice(&text);
            }
        }
    }
    assert!(
        got == whole,
        "the blocks' texts, one after another, are the text"
    );
    // A block whose bits are changed does not decode: its CRC is its own.
    let mut bad = one.clone();
    bad[(bits[1] / 8) as usize + 4000] ^= 0x10;
    let block = lone_block(&bad, bits[1], bits[2]);
    let mut text = Vec::new();
    assert!(
        bzip2::read::BzDecoder::new(&block[..])
            .read_to_end(&mut text)
            .is_err()
    );
}

#[test]
fn the_blocks_a_decoder_may_have_failed_in_are_those_begun() {
    let one = compressed(&text(250_000, 5), 1);
    let found = marks(&one);
    let [_, Mark::Block(b1), Mark::Block(b2), Mark::End(_)] = found[..] else {
        panic!("{found:?}")
    };
    // Failed inside the second block, at its end (its next magic's first byte read),
    // or in the first.
    assert_eq!(block_starts(&one, Some(32), b1 + 1000), [32, b1]);
    assert_eq!(block_starts(&one, Some(32), (b2 / 8 + 1) * 8), [32, b1]);
    assert_eq!(block_starts(&one, Some(32), b2 + 48), [32, b1, b2]);
    assert_eq!(block_starts(&one, Some(32), b1), [32]);
    // The first block's magic damaged: the stream's first block all the same; the
    // stream's start not kept: the blocks found.
    let mut bad = one.clone();
    bad[5] ^= 0xff;
    assert_eq!(next_mark(&bad, 32, 32), Some(Mark::Block(b1)));
    assert_eq!(block_starts(&bad, Some(32), b1 + 100), [32, b1]);
    assert_eq!(block_starts(&bad, None, b1 + 100), [b1]);
    assert!(block_starts(&bad, None, b1).is_empty());
    // A stream's start is one only from where streams are looked for.
    let two = [one.clone(), one.clone()].concat();
    let second = one.len() as u64;
    assert_eq!(next_mark(&two, second * 8, 0), Some(Mark::Stream(second)));
    assert_eq!(
        next_mark(&two, second * 8, second * 8 + 1),
        Some(Mark::Block((second + 4) * 8))
    );
}
