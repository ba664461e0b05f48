//! Damaged BGZF blocks: each stepped over by the size its header gives, its text told by
//! its trailer.

use std::io::Write;

use super::{damaged, every_way, games, read_on};
use crate::stream::{FrameText, decode, decode_with};

/// A BGZF block of `text`: a gzip member whose `BC` extra field gives its size less one
/// (made here with flate2's gzip writer, its field patched once the size is known).
pub(in crate::stream) fn block(text: &[u8]) -> Vec<u8> {
    let mut e = flate2::GzBuilder::new()
        .extra(vec![b'B', b'C', 2, 0, 0, 0])
        .write(Vec::new(), flate2::Compression::new(6));
    e.write_all(text).unwrap();
    let mut b = e.finish().unwrap();
    let size = u16::try_from(b.len() - 1).expect("a block under 64 KiB");
    b[16..18].copy_from_slice(&size.to_le_bytes());
    b
}

/// The texts of `n` blocks, and the blocks.
fn blocks(n: usize) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let texts: Vec<Vec<u8>> = (0..n).map(|k| games(k * 250, 250)).collect();
    assert!(texts.iter().all(|t| t.len() < 0xff00));
    let blocks = texts.iter().map(|t| block(t)).collect();
    (texts, blocks)
}

/// Each block in turn damaged (in its middle, and 12 and 40 bytes before its end: deflate
/// data that may lead the decoder to want more than its block, or to give more text
/// than it held), on 1, 2, 3 and 5 threads: the blocks before and after it are read
/// whole, and none of its text (handed out only once its check passes); the break names
/// the block and its text.
#[test]
fn a_damaged_bgzf_block_loses_only_its_own_text() {
    let (texts, blocks) = blocks(8);
    for k in 0..blocks.len() {
        for back in [None, Some(12), Some(40)] {
            let mut all = blocks.clone();
            all[k] = match back {
                None => damaged(all[k].clone()),
                Some(back) => {
                    let mut b = all[k].clone();
                    let at = b.len() - back;
                    b[at] ^= 0xa5;
                    b[at + 1] ^= 0x3c;
                    b
                }
            };
            let (text, gaps, error) = every_way(&all.concat());
            let case = format!("block {k}, {back:?}");
            assert_eq!(error, None, "{case}");
            let [(at, gap)] = &gaps[..] else {
                panic!("{case}: one damaged block: {gaps:?}")
            };
            let offset: usize = blocks[..k].iter().map(Vec::len).sum();
            let held = texts[k].len() as u64;
            assert_eq!(
                (gap.offset, gap.len, gap.stream, gap.read, gap.text),
                (
                    offset as u64,
                    blocks[k].len() as u64,
                    None,
                    0,
                    Some(FrameText::Trailer(held))
                ),
                "{case}"
            );
            let before = texts[..k].concat();
            assert_eq!(*at, before.len() as u64, "{case}");
            assert_eq!(text, [before, texts[k + 1..].concat()].concat(), "{case}");
            assert_eq!(
                gap.to_string(),
                format!(
                    "the gzip member at byte {offset} ({} bytes) cannot be decoded ({}): its text is lost ({held} bytes, as its trailer says)",
                    blocks[k].len(),
                    gap.reason
                ),
                "{case}"
            );
        }
    }
}

/// Damage that only the trailer's check finds (its CRC): none of the block's text is
/// handed out, though all of it was decoded.
#[test]
fn a_bgzf_block_whose_check_fails_gives_none_of_its_text() {
    let (texts, mut blocks) = blocks(3);
    let crc = blocks[1].len() - 8;
    blocks[1][crc] ^= 1;
    let (text, gaps, error) = every_way(&blocks.concat());
    assert_eq!(error, None);
    let [(at, gap)] = &gaps[..] else {
        panic!("one damaged block: {gaps:?}")
    };
    assert_eq!((*at, gap.read), (texts[0].len() as u64, 0));
    assert_eq!(text, [&texts[0][..], &texts[2][..]].concat());
    assert!(gap.reason.contains("checksum"), "{gap}");
    // Its CRC whole again, the size in its trailer one less, or one more, than the text:
    // the same.
    for change in [-1i64, 1] {
        let mut blocks = blocks.clone();
        blocks[1][crc] ^= 1;
        let end = blocks[1].len();
        let size = u32::try_from(texts[1].len() as i64 + change).unwrap();
        blocks[1][end - 4..].copy_from_slice(&size.to_le_bytes());
        let (text, gaps, error) = every_way(&blocks.concat());
        assert_eq!(error, None);
        let [(_, gap)] = &gaps[..] else {
            panic!("one damaged block: {gaps:?}")
        };
        assert_eq!(text, [&texts[0][..], &texts[2][..]].concat());
        assert_eq!(gap.text, Some(FrameText::Trailer(u64::from(size))));
    }
}

/// A block whose size field is damaged is not stepped over by it (the next member does
/// not start there): whole, it is read as plain gzip; damaged too, it ends the text. A
/// file cut short inside a block ends in an error.
#[test]
fn a_bgzf_block_is_stepped_over_only_to_the_next_ones_start() {
    let (texts, blocks) = blocks(4);
    let mut sized = blocks.clone();
    sized[1][16] ^= 0x10;
    let (text, gaps, error) = every_way(&sized.concat());
    assert_eq!((text, gaps.len(), error), (texts.concat(), 0, None));
    sized[1] = damaged(sized[1].clone());
    let (text, gaps, error) = every_way(&sized.concat());
    assert!(gaps.is_empty() && error.is_some(), "{gaps:?} {error:?}");
    assert!(text.starts_with(&texts[0]) && text.len() < texts[..2].concat().len());
    let bytes = blocks.concat();
    let cut = bytes.len() - blocks[3].len() / 2;
    let (text, gaps, error) = every_way(&bytes[..cut]);
    assert!(gaps.is_empty() && error.is_some(), "{gaps:?} {error:?}");
    assert!(texts.concat().starts_with(&text) && text.starts_with(&texts[..3].concat()));
}

/// A reader whose reads end at the given offsets: the parallel scanner's buffer then ends
/// right at a block's end, where it must not take the end of what it has read for the
/// end of the stream.
struct Reads {
    bytes: Vec<u8>,
    ends: Vec<usize>,
    at: usize,
}

impl std::io::Read for Reads {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let end = self.ends.iter().copied().find(|&e| e > self.at);
        let end = end
            .unwrap_or(usize::MAX)
            .min(self.bytes.len())
            .min(self.at + buf.len());
        let n = end - self.at;
        buf[..n].copy_from_slice(&self.bytes[self.at..end]);
        self.at = end;
        Ok(n)
    }
}

/// A damaged block followed by bytes that start no member (junk, or the next block's
/// magic damaged too) is not stepped over: the text ends there, on one thread and on
/// several, however the file's reads fall.
#[test]
fn a_damaged_bgzf_block_before_junk_ends_the_text() {
    let (texts, blocks) = blocks(6);
    for junk in [&b"junk after the block\n"[..], &blocks[3][1..]] {
        let mut all = blocks[..3].to_vec();
        all[2] = damaged(all[2].clone());
        all.push(junk.to_vec());
        let bytes = all.concat();
        let mut ends: Vec<usize> = all
            .iter()
            .scan(0, |at, b| {
                *at += b.len();
                Some(*at)
            })
            .collect();
        ends.extend(ends.clone().iter().map(|e| e + 1));
        ends.sort_unstable();
        let owned = std::io::Cursor::new(bytes.clone());
        let (text, gaps, error) = read_on(decode(owned).unwrap().reader);
        assert!(gaps.is_empty() && error.is_some(), "{gaps:?} {error:?}");
        assert!(text.starts_with(&texts[..2].concat()));
        for jobs in [2, 3] {
            let reads = Reads {
                bytes: bytes.clone(),
                ends: ends.clone(),
                at: 0,
            };
            let got = read_on(decode_with(reads, jobs).unwrap().reader);
            assert_eq!(
                got,
                (text.clone(), gaps.clone(), error.clone()),
                "{jobs} threads"
            );
        }
    }
}
