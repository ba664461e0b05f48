//! The step over damaged bzip2 streams and blocks, and errors reading the file.

use std::io::Write;

use super::tests::*;
use crate::stream::{Compression, decode};

/// One bzip2 stream of `text` at `level`.
fn bzip2_stream(text: &[u8], level: u32) -> Vec<u8> {
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::new(level));
    e.write_all(text).unwrap();
    e.finish().unwrap()
}

/// pbzip2's layout, one stream after another, and where each starts.
fn streams(each: &[Vec<u8>]) -> (Vec<u8>, Vec<usize>) {
    let starts = each
        .iter()
        .scan(0, |at, s| {
            let start = *at;
            *at += s.len();
            Some(start)
        })
        .collect();
    (each.concat(), starts)
}

/// The text libbz2 gives of `stream` before it fails: more than none when only a block's
/// check at its end finds the damage.
fn text_before_failure(stream: &[u8]) -> usize {
    let mut d = bzip2::Decompress::new(false);
    let mut text = Vec::with_capacity(1 << 16);
    let mut given = 0;
    loop {
        text.clear();
        let at = d.total_in() as usize;
        match d.decompress_vec(&stream[at..], &mut text) {
            Ok(bzip2::Status::StreamEnd) => panic!("the stream is not damaged"),
            Ok(_) if text.is_empty() => panic!("the stream is cut short"),
            Ok(_) => given += text.len(),
            Err(_) => return given + text.len(),
        }
    }
}

/// A damaged stream of pbzip2's layout is stepped over wherever it lies (first, in the
/// middle, last, two side by side): its offset and length are its own, the text of
/// every other stream is read whole, and none of its own, even when libbz2 gives its
/// text before the check at its end finds the damage (text scrambled by the damage:
/// games that were never played).
#[test]
fn a_damaged_bzip2_stream_loses_only_its_own_text() {
    let texts: Vec<Vec<u8>> = (0..8).map(|k| games(k * 150, 150)).collect();
    let clean: Vec<Vec<u8>> = texts.iter().map(|t| bzip2_stream(t, 9)).collect();
    let mut before_failure = Vec::new();
    for broken in [
        vec![3],
        vec![0],
        vec![7],
        vec![2, 3],
        vec![1, 5],
        vec![4, 6],
    ] {
        let mut each = clean.clone();
        for &k in &broken {
            each[k] = damaged(each[k].clone());
            before_failure.push(text_before_failure(&each[k]));
        }
        let (bytes, starts) = streams(&each);
        let (text, gaps, error) = every_way(&bytes);
        assert_eq!(error, None, "{broken:?}");
        assert_eq!(gaps.len(), broken.len(), "{broken:?}: {gaps:?}");
        let mut expected = Vec::new();
        for (k, t) in texts.iter().enumerate() {
            match broken.iter().position(|&b| b == k) {
                Some(i) => {
                    let (at, gap) = &gaps[i];
                    assert_eq!(
                        (gap.compression, gap.offset, gap.len, gap.text, gap.read),
                        (
                            Compression::Bzip2,
                            starts[k] as u64,
                            each[k].len() as u64,
                            None,
                            0
                        ),
                        "{broken:?}: stream {k}"
                    );
                    assert!(gap.reason.contains("bzip2"), "{}", gap.reason);
                    assert_eq!(*at as usize, expected.len(), "{broken:?}: stream {k}");
                    assert_eq!(
                        gap.to_string(),
                        format!(
                            "the bzip2 stream at byte {} ({} bytes) cannot be decoded ({}): its text is lost (a bzip2 stream does not tell its size)",
                            starts[k],
                            each[k].len(),
                            gap.reason
                        )
                    );
                }
                None => expected.extend_from_slice(t),
            }
        }
        assert!(text == expected, "{broken:?}: the text read");
    }
    // Damage found before any of its text, and damage found only at its end, after
    // libbz2 gave the block's text.
    assert!(
        before_failure.contains(&0) && before_failure.iter().any(|&n| n > 0),
        "{before_failure:?}"
    );
}

/// A damaged bzip2 stream that no other follows is stepped over to its end (one stream
/// as `bzip2` writes it, or pbzip2's last); one cut short by the end of the input stays
/// an error that ends the text.
#[test]
fn bzip2_damage_to_the_end_or_cut_short() {
    let text = games(0, 400);
    let one = damaged(bzip2_stream(&text, 9));
    let (got, gaps, error) = every_way(&one);
    assert_eq!(error, None);
    let [(at, gap)] = &gaps[..] else {
        panic!("{gaps:?}")
    };
    assert_eq!((gap.offset, gap.len), (0, one.len() as u64));
    assert_eq!((*at, got.len() as u64), (gap.read, gap.read));

    let (whole, _) = streams(&[bzip2_stream(&text, 9), bzip2_stream(&text, 9)]);
    let (got, gaps, error) = every_way(&whole[..whole.len() - 50]);
    assert!(gaps.is_empty() && error.is_some(), "{gaps:?} {error:?}");
    assert_eq!(got, text, "the first stream whole, the second cut short");
}

/// A one-stream file cut short after a damaged block: the blocks after the damaged one
/// are read, and the end of the input ends the text in an error (the stream's end mark
/// never found), not as a stream that ended.
#[test]
fn a_bzip2_stream_cut_short_after_a_damaged_block_ends_in_an_error() {
    let text = letters(700_000, 13);
    let one = bzip2_stream(&text, 1);
    let blocks = blocks_of(&one);
    assert!(blocks.len() >= 7, "{} blocks", blocks.len());
    let mut bytes = one.clone();
    // The third block's start pointer set past any block's end.
    let b = blocks[2].0;
    for bit in b + 80..b + 104 {
        bytes[(bit / 8) as usize] |= 0x80 >> (bit % 8);
    }
    let (got, gaps, error) = every_way(&bytes[..(blocks[5].0 / 8) as usize]);
    assert!(error.is_some() && gaps.len() == 1, "{gaps:?} {error:?}");
    assert_eq!((gaps[0].1.offset, gaps[0].1.read), (b / 8, 0));
    let read = [&blocks[0].1[..], &blocks[1].1, &blocks[3].1].concat();
    assert!(
        got.starts_with(&read),
        "the blocks before and after the damaged one"
    );
    assert!(got.len() <= read.len() + blocks[4].1.len());
    // Cut after the fifth block's last bit: its text is read, then the error.
    let (got, _, error) = every_way(&bytes[..blocks[5].0.div_ceil(8) as usize]);
    assert!(error.is_some(), "{error:?}");
    assert!(got == [&read[..], &blocks[4].1].concat());
}

/// A reader of `bytes` whose one read at or after `at` fails (with `InvalidInput`, the
/// kind of the bzip2 decoder's own errors), and whose reads after it go on.
struct FailsOnce(std::io::Cursor<Vec<u8>>, Option<usize>);

impl std::io::Read for FailsOnce {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let pos = self.0.position() as usize;
        match self.1 {
            Some(at) if pos >= at => {
                self.1 = None;
                Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "a read that fails",
                ))
            }
            Some(at) => {
                let n = (at - pos).min(buf.len());
                std::io::Read::read(&mut self.0, &mut buf[..n])
            }
            None => std::io::Read::read(&mut self.0, buf),
        }
    }
}

/// An error reading the file is no damage of a frame, even when the reads after it
/// would go on: it ends the text, and nothing is stepped over (a bzip2 stream of
/// pbzip2's, a zstd frame of pzstd's, a BGZF block, at its start or inside it).
#[test]
fn an_error_reading_the_file_is_not_damage() {
    let texts: Vec<Vec<u8>> = (0..4).map(|k| games(k * 150, 150)).collect();
    let (bz2, starts) = streams(&texts.iter().map(|t| bzip2_stream(t, 9)).collect::<Vec<_>>());
    let zst = pzstd(&texts.iter().map(|t| frame(t)).collect::<Vec<_>>());
    let bgzf: Vec<Vec<u8>> = texts.iter().map(|t| super::tests::bgzf::block(t)).collect();
    let third = bgzf[..2].iter().map(Vec::len).sum::<usize>();
    for (name, bytes, at) in [
        ("bzip2", bz2, starts[2] + 100),
        ("zstd", zst.clone(), zst.len() / 2),
        ("bgzf", bgzf.concat(), third),
        ("bgzf", bgzf.concat(), third + 100),
    ] {
        let reader = decode(FailsOnce(std::io::Cursor::new(bytes), Some(at)))
            .unwrap()
            .reader;
        let (text, gaps, error) = read_on(reader);
        assert!(gaps.is_empty(), "{name}: {gaps:?}");
        assert_eq!(error.as_deref(), Some("a read that fails"), "{name}");
        assert!(
            texts.concat().starts_with(&text),
            "{name}: the text read before it"
        );
    }
}

/// Lines of random letters, `n` bytes or a little more: text that bzip2 compresses to
/// about three quarters, so that a few megabytes make a stream longer than the bytes a
/// decoder keeps.
fn letters(n: usize, seed: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(n + 80);
    let mut x = seed | 1;
    while out.len() < n {
        for _ in 0..70 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            out.push(b'a' + (x % 26) as u8);
        }
        out.push(b'\n');
    }
    out
}

/// The blocks of a bzip2 stream: where each starts (in bits), and its text, found by
/// decoding each alone.
fn blocks_of(stream: &[u8]) -> Vec<(u64, Vec<u8>)> {
    use crate::stream::blocks::{Mark, lone_block, next_mark};
    let mut starts = vec![32];
    let mut from = 33;
    let end = loop {
        match next_mark(stream, from, 0) {
            Some(Mark::Block(b)) => {
                starts.push(b);
                from = b + 1;
            }
            Some(Mark::End(e)) => break e,
            m => panic!("{m:?}"),
        }
    };
    starts.push(end);
    starts
        .windows(2)
        .map(|w| {
            let mut text = Vec::new();
            std::io::Read::read_to_end(
                &mut bzip2::read::BzDecoder::new(&lone_block(stream, w[0], w[1])[..]),
                &mut text,
            )
            .unwrap();
            (w[0], text)
        })
        .collect()
}

/// A damaged block inside a bzip2 stream loses its own text only, wherever it lies:
/// the first, one past the bytes a decoder keeps (4 MiB), the last, two side by side
/// (the second met while the blocks after the first are decoded alone), and in a
/// stream of several (pbzip2's `-1`, nine blocks a stream). Each break is the block's:
/// its stream's offset, its own, and its bytes up to the next block's magic.
#[test]
fn a_damaged_bzip2_block_loses_only_its_own_text() {
    let text = letters(7 << 20, 3);
    let one = bzip2_stream(&text, 1);
    assert!(one.len() > 4 << 20, "{} bytes", one.len());
    let blocks = blocks_of(&one);
    let n = blocks.len();
    assert!(
        blocks.iter().map(|(_, t)| t.len()).sum::<usize>() == text.len(),
        "the blocks' texts are the text"
    );
    // The byte a block starts in, the byte after its last bit.
    let span = |k: usize| {
        let to = blocks.get(k + 1).map_or(one.len() as u64 * 8, |b| b.0);
        (blocks[k].0 / 8, to.div_ceil(8))
    };
    let past_kept = (1..n).find(|&k| blocks[k].0 / 8 > 4 << 20).unwrap();
    for broken in [
        vec![0],
        vec![past_kept],
        vec![n - 2],
        vec![3, 4],
        vec![2, n - 3],
    ] {
        let mut bytes = one.clone();
        for &k in &broken {
            // Past the block's magic and CRC, its tables: found before it gives text.
            bytes[(blocks[k].0 / 8) as usize + 20] ^= 0x5a;
        }
        let (got, gaps, error) = every_way(&bytes);
        assert_eq!(error, None, "{broken:?}");
        assert_eq!(gaps.len(), broken.len(), "{broken:?}: {gaps:?}");
        let mut expected = Vec::new();
        let mut gaps = gaps.iter();
        for (k, (_, t)) in blocks.iter().enumerate() {
            if !broken.contains(&k) {
                expected.extend_from_slice(t);
                continue;
            }
            let (at, gap) = gaps.next().unwrap();
            let (from, to) = span(k);
            // The first block lost from a stream's start stands for the stream: but the
            // stream goes on after it.
            assert_eq!(
                (gap.compression, gap.offset, gap.len, gap.stream),
                (Compression::Bzip2, from, to - from, Some(0)),
                "{broken:?}: block {k}"
            );
            assert_eq!(
                (*at as usize, gap.read),
                (expected.len(), 0),
                "{broken:?}: block {k}"
            );
            assert_eq!(
                gap.to_string(),
                format!(
                    "the bzip2 block at byte {from} ({} bytes) of the stream at byte 0 cannot be decoded ({}): its text is lost (a bzip2 block does not tell its size)",
                    to - from,
                    gap.reason,
                ),
            );
        }
        assert!(got == expected, "{broken:?}: the text read");
    }

    // pbzip2's -1: streams of nine blocks; the third stream's fifth block damaged.
    let texts: Vec<Vec<u8>> = (0..4).map(|k| games(k * 12_000, 12_000)).collect();
    let each: Vec<Vec<u8>> = texts.iter().map(|t| bzip2_stream(t, 1)).collect();
    let (mut bytes, starts) = streams(&each);
    let inner = blocks_of(&each[2]);
    assert!(inner.len() >= 5, "{} blocks", inner.len());
    let block = starts[2] as u64 + inner[4].0 / 8;
    bytes[block as usize + 20] ^= 0x5a;
    let (got, gaps, error) = every_way(&bytes);
    assert_eq!(error, None);
    let [(_, gap)] = &gaps[..] else {
        panic!("{gaps:?}")
    };
    assert_eq!(
        (gap.offset, gap.stream),
        (block, Some(starts[2] as u64)),
        "{gap}"
    );
    let lost = &inner[4].1;
    let whole = texts.concat();
    let before = texts[..2].concat().len() + inner[..4].iter().map(|b| b.1.len()).sum::<usize>();
    assert!(got[..before] == whole[..before] && got[before..] == whole[before + lost.len()..]);
}

/// Damaged blocks in streams small enough to be decoded on the threads (pbzip2's `-1`
/// layout, each stream three blocks): each block of the fourth stream in turn, and the
/// fourth stream's end mark. Every `-j` reads what one thread reads; a block's break
/// loses its own text only; a damaged end mark loses nothing but is told.
#[test]
fn damaged_bzip2_blocks_on_the_threads() {
    use crate::stream::blocks::{Mark, next_mark};
    let texts: Vec<Vec<u8>> = (0..8).map(|k| games(k * 4500, 4500)).collect();
    let each: Vec<Vec<u8>> = texts.iter().map(|t| bzip2_stream(t, 1)).collect();
    assert!(
        each.iter().all(|s| s.len() < 24 << 10),
        "streams for the threads"
    );
    let (clean, starts) = streams(&each);
    let blocks = blocks_of(&each[3]);
    assert_eq!(blocks.len(), 3);
    let whole = texts.concat();
    let before = texts[..3].concat().len();
    for (k, (bit, lost)) in blocks.iter().enumerate() {
        let mut bytes = clean.clone();
        let block = starts[3] as u64 + bit / 8;
        bytes[block as usize + 20] ^= 0x5a;
        let (got, gaps, error) = every_way(&bytes);
        assert_eq!(error, None, "block {k}");
        let [(at, gap)] = &gaps[..] else {
            panic!("block {k}: {gaps:?}")
        };
        assert_eq!(
            (gap.offset, gap.stream),
            (block, Some(starts[3] as u64)),
            "block {k}: {gap}"
        );
        let from = before + blocks[..k].iter().map(|b| b.1.len()).sum::<usize>();
        assert_eq!(*at as usize, from + gap.read as usize, "block {k}");
        assert!(
            got[..from] == whole[..from] && got[*at as usize..] == whole[from + lost.len()..],
            "block {k}"
        );
    }
    // The end mark damaged: every block's text read, the break told.
    let end = match next_mark(&each[3], blocks[2].0 + 1, 0) {
        Some(Mark::End(e)) => e,
        m => panic!("{m:?}"),
    };
    let mut bytes = clean.clone();
    bytes[starts[3] + (end / 8) as usize + 2] ^= 0xff;
    let (got, gaps, error) = every_way(&bytes);
    assert_eq!(error, None);
    let [(at, gap)] = &gaps[..] else {
        panic!("{gaps:?}")
    };
    assert!(got == whole, "nothing lost");
    assert_eq!(*at as usize, before + texts[3].len());
    // The last block's text was read, checked: the note says so (not that it is lost).
    assert!(
        gap.to_string().ends_with(&format!(
            ": {} bytes of its text were read, checked by their block's CRC, before the damage was found; the rest of it is lost (a bzip2 block does not tell its text's size)",
            blocks[2].1.len()
        )),
        "{gap}"
    );
    assert_eq!(
        (gap.offset, gap.len, gap.read),
        (
            starts[3] as u64 + blocks[2].0 / 8,
            starts[4] as u64 - (starts[3] as u64 + blocks[2].0 / 8),
            blocks[2].1.len() as u64
        ),
        "{gap}"
    );
}

/// Damage anywhere in a block, its last byte too (its end-of-block code damaged, its
/// decoder reads on into the next block before it fails, and that block decodes alone):
/// the break is that block's, and only its text is lost.
#[test]
fn damage_anywhere_in_a_bzip2_block_is_that_blocks() {
    let text = letters(3 << 20, 9);
    let one = bzip2_stream(&text, 1);
    let blocks = blocks_of(&one);
    let k = 12;
    let (from, to) = (blocks[k].0 / 8, blocks[k + 1].0 / 8);
    let before: usize = blocks[..k].iter().map(|b| b.1.len()).sum();
    let lost = blocks[k].1.len();
    for (back, n) in [
        (1, 1),
        (2, 1),
        (3, 2),
        (6, 4),
        (24, 16),
        (100, 16),
        (3000, 16),
        (30_000, 16),
    ] {
        let mut bytes = one.clone();
        let at = (to - back) as usize;
        for b in &mut bytes[at..at + n] {
            *b ^= 0x5a;
        }
        let owned = std::io::Cursor::new(bytes);
        let (got, gaps, error) = read_on(decode(owned).unwrap().reader);
        assert_eq!(error, None, "{back} bytes before its end");
        let [(at, gap)] = &gaps[..] else {
            panic!("{back}: {gaps:?}")
        };
        assert_eq!((gap.offset, gap.stream), (from, Some(0)), "{back}: {gap}");
        assert_eq!(*at as usize, before + gap.read as usize, "{back}");
        assert!(
            got[..before] == text[..before] && got[*at as usize..] == text[before + lost..],
            "{back} bytes before its end"
        );
    }
}

/// A damaged last block of a stream, the streams after it whole: reading goes on at the
/// next stream, wherever the search for the end's mark stopped in the bytes (the end's
/// mark and the stream's CRC are read whole first: cut at the mark, the next stream's
/// first bytes were taken for trailing bytes and every stream after it was lost).
#[test]
fn the_streams_after_a_damaged_last_block_are_read() {
    let two_blocks = letters(100_500, 5);
    let texts = [games(0, 40), two_blocks, games(40, 40), games(80, 40)];
    let each: Vec<Vec<u8>> = texts.iter().map(|t| bzip2_stream(t, 1)).collect();
    let blocks = blocks_of(&each[1]);
    assert_eq!(blocks.len(), 2, "the second stream is two blocks");
    let (mut bytes, starts) = streams(&each);
    // A byte of the last block's coded text (past its magic and CRC, before the end).
    let last = starts[1] + (blocks[1].0 / 8) as usize;
    let end = starts[2];
    assert!(end - last > 24, "{} bytes", end - last);
    let expected = [&texts[0][..], &blocks[0].1, &texts[2], &texts[3]].concat();
    for at in [last + 12, (last + 12 + end - 12) / 2, end - 13] {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x55;
        let (got, gaps, error) = every_way(&damaged);
        assert_eq!(error, None, "byte {at}");
        assert_eq!(gaps.len(), 1, "byte {at}: {gaps:?}");
        assert!(got == expected, "byte {at}: the text read");
        // Read a few bytes at a time, so that the search for the end's mark stops
        // anywhere in the bytes after it.
        for step in 1..=12 {
            let reader = decode(Trickle(std::io::Cursor::new(damaged.clone()), step))
                .unwrap()
                .reader;
            let (got, gaps, error) = read_on(reader);
            assert_eq!(
                (error, gaps.len()),
                (None, 1),
                "byte {at}, {step} at a time"
            );
            assert!(
                got == expected,
                "byte {at}, {step} at a time: the text read"
            );
        }
    }
    bytes.truncate(0);
}

/// A reader that gives at most its number of bytes a read.
struct Trickle(std::io::Cursor<Vec<u8>>, usize);

impl std::io::Read for Trickle {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.1);
        std::io::Read::read(&mut self.0, &mut buf[..n])
    }
}

/// A stream whose header (`BZh` and the level's digit) is damaged is read whole, told
/// by its first block's magic number right after it: the file's first stream (its
/// detection too) and one in the middle of pbzip2's layout (before, the rest of the
/// file was trailing bytes, all its games lost with a warning).
#[test]
fn a_stream_whose_header_is_damaged_is_read_whole() {
    let texts: Vec<Vec<u8>> = (0..4).map(|k| games(k * 60, 60)).collect();
    let each: Vec<Vec<u8>> = texts.iter().map(|t| bzip2_stream(t, 9)).collect();
    let (clean, starts) = streams(&each);
    let whole = texts.concat();
    for stream in [0, 2] {
        for byte in 0..4 {
            let mut bytes = clean.clone();
            bytes[starts[stream] + byte] ^= 0x20;
            assert_eq!(
                crate::stream::Compression::detect(&bytes[..16]),
                Compression::Bzip2,
                "stream {stream}, byte {byte}"
            );
            let (got, gaps, error) = every_way(&bytes);
            assert_eq!(
                (error, gaps.len()),
                (None, 0),
                "stream {stream}, byte {byte}"
            );
            assert!(got == whole, "stream {stream}, byte {byte}: the text read");
        }
    }
}

/// The case the test above cannot make: a damaged stream's end mark whole in one of the
/// pieces its bytes are read in (`Peek` hands a frame out in pieces of 4 KiB from its
/// start) and the stream's CRC after it in the next, so that the search for the end,
/// stopping at the piece's end, saw the mark and not the stream's last bytes. Found by trying texts until the stream's length falls there.
#[test]
fn a_stream_whose_end_mark_ends_a_piece_is_stepped_over_whole() {
    use crate::stream::blocks::{Mark, next_mark};
    const PIECE: u64 = 4 << 10;
    let stream = (6_000..9_000)
        .map(|n| bzip2_stream(&letters(n, 11), 1))
        .find(|s| {
            let Some(Mark::End(e)) = next_mark(s, 33, 0) else {
                return false;
            };
            (e + 48).div_ceil(8) <= PIECE && (s.len() as u64) > PIECE
        })
        .expect("a text whose stream's end mark ends within its first piece");
    let texts = [games(0, 40), games(40, 40), games(80, 40)];
    let mut each: Vec<Vec<u8>> = texts.iter().map(|t| bzip2_stream(t, 1)).collect();
    let mut broken = stream;
    broken[2_000] ^= 0x55;
    each.insert(1, broken);
    let (bytes, _) = streams(&each);
    let (got, gaps, error) = every_way(&bytes);
    assert_eq!(error, None);
    assert_eq!(gaps.len(), 1, "{gaps:?}");
    assert!(got == texts.concat(), "the three whole streams' text");
}
