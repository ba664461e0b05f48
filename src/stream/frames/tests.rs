use std::io::{BufRead, Write};

use crate::stream::{Compression, DamagedFrame, decode, decode_with};

/// The text of `n` short games, numbered from `from`.
fn games(from: usize, n: usize) -> Vec<u8> {
    (from..from + n)
        .flat_map(|i| {
            format!("[Event \"{i}\"]\n\n1. e4 e5 2. Nf3 Nc6 {{ game {i} }} 1-0\n\n").into_bytes()
        })
        .collect()
}

/// One zstd frame of `text`, with its content checksum.
pub(in crate::stream) fn frame(text: &[u8]) -> Vec<u8> {
    let mut e = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
    e.include_checksum(true).unwrap();
    e.write_all(text).unwrap();
    e.finish().unwrap()
}

/// pzstd's layout: each frame announced by a skippable frame that holds its size.
pub(in crate::stream) fn pzstd(frames: &[Vec<u8>]) -> Vec<u8> {
    announced(frames, &vec![None; frames.len()])
}

/// pzstd's layout, each frame's size announced as given (`None`: its own).
pub(in crate::stream) fn announced(frames: &[Vec<u8>], sizes: &[Option<usize>]) -> Vec<u8> {
    let mut out = Vec::new();
    for (f, size) in frames.iter().zip(sizes) {
        out.extend_from_slice(&[0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0]);
        out.extend_from_slice(&(size.unwrap_or(f.len()) as u32).to_le_bytes());
        out.extend_from_slice(f);
    }
    out
}

/// `f` with bytes in its middle overwritten: a frame that does not decode.
pub(in crate::stream) fn damaged(mut f: Vec<u8>) -> Vec<u8> {
    let mid = f.len() / 2;
    for b in &mut f[mid..mid + 16] {
        *b ^= 0x5a;
    }
    f
}

/// Everything a reader gives, read on past damaged frames: the text, the damaged
/// frames with the text offset each was met at, and the error that ended it.
type Read = (Vec<u8>, Vec<(u64, DamagedFrame)>, Option<String>);

fn read_on(mut r: Box<dyn BufRead + Send>) -> Read {
    let (mut text, mut gaps) = (Vec::new(), Vec::new());
    loop {
        match r.fill_buf() {
            Ok([]) => return (text, gaps, None),
            Ok(b) => {
                let n = b.len();
                text.extend_from_slice(b);
                r.consume(n);
            }
            Err(e) => match DamagedFrame::of(&e) {
                Some(d) => gaps.push((text.len() as u64, d.clone())),
                None => return (text, gaps, Some(e.to_string())),
            },
        }
    }
}

fn every_way(bytes: &[u8]) -> Read {
    let owned = |b: &[u8]| std::io::Cursor::new(b.to_vec());
    let first = read_on(decode(owned(bytes)).unwrap().reader);
    for jobs in [2, 3, 5] {
        let got = read_on(decode_with(owned(bytes), jobs).unwrap().reader);
        assert_eq!(got, first, "{jobs} threads");
    }
    first
}

#[test]
fn a_damaged_announced_frame_loses_only_its_own_text() {
    let texts: Vec<Vec<u8>> = (0..8).map(|k| games(k * 300, 300)).collect();
    let mut frames: Vec<Vec<u8>> = texts.iter().map(|t| frame(t)).collect();
    frames[3] = damaged(frames[3].clone());
    let bytes = pzstd(&frames);
    let (text, gaps, error) = every_way(&bytes);
    assert_eq!(error, None);
    let [(at, gap)] = &gaps[..] else {
        panic!("one damaged frame: {gaps:?}")
    };
    let offset = 12 * 4 + frames[..3].iter().map(Vec::len).sum::<usize>();
    assert_eq!(
        (gap.offset, gap.len),
        (offset as u64, frames[3].len() as u64)
    );
    assert!(gap.to_string().starts_with(&format!(
        "the zstd frame at byte {offset} ({} bytes) cannot be decoded (",
        frames[3].len()
    )));
    // The three frames before, what the damaged one gave before its damage was found
    // (here by its checksum, at its end: its text, altered), then the four after it,
    // whole.
    let before = texts[..3].concat();
    let after = texts[4..].concat();
    assert_eq!(*at as usize, text.len() - after.len());
    assert!(text.starts_with(&before) && text.ends_with(&after));
    assert_ne!(&text[before.len()..text.len() - after.len()], &texts[3][..]);
}

#[test]
fn damaged_frames_first_and_last_and_side_by_side() {
    let texts: Vec<Vec<u8>> = (0..5).map(|k| games(k * 200, 200)).collect();
    let mut frames: Vec<Vec<u8>> = texts.iter().map(|t| frame(t)).collect();
    for k in [0, 2, 3, 4] {
        frames[k] = damaged(frames[k].clone());
    }
    let (text, gaps, error) = every_way(&pzstd(&frames));
    assert_eq!(error, None);
    assert_eq!(gaps.len(), 4);
    assert!(text.windows(texts[1].len()).any(|w| w == texts[1]));
}

#[test]
fn damage_that_cannot_be_stepped_over_stays_an_error() {
    let texts: Vec<Vec<u8>> = (0..3).map(|k| games(k * 200, 200)).collect();
    let frames: Vec<Vec<u8>> = texts.iter().map(|t| frame(t)).collect();
    // Frames without pzstd's announcements.
    let plain = [
        frames[0].clone(),
        damaged(frames[1].clone()),
        frames[2].clone(),
    ]
    .concat();
    let (text, gaps, error) = every_way(&plain);
    assert!(gaps.is_empty() && error.is_some());
    assert!(text.starts_with(&texts[0]) && text.len() < 2 * texts[0].len());
    // The last frame cut short by the end of the file: truncated, not damaged.
    let bytes = pzstd(&frames);
    let (text, gaps, error) = every_way(&bytes[..bytes.len() - 100]);
    assert!(gaps.is_empty() && error.is_some());
    let whole = texts.concat();
    assert!(
        whole.starts_with(&text),
        "the text read before it, as it is"
    );
}

/// `f` with the size of its first block (after its header) set to `size`.
fn block_size_set(mut f: Vec<u8>, size: u32) -> Vec<u8> {
    let fhd = f[4];
    let single = fhd >> 5 & 1 == 1;
    let fcs = match fhd >> 6 {
        0 => usize::from(single),
        1 => 2,
        2 => 4,
        _ => 8,
    };
    let at = 5 + usize::from(!single) + [0, 1, 2, 4][usize::from(fhd & 3)] + fcs;
    let header = u32::from_le_bytes([f[at], f[at + 1], f[at + 2], 0]);
    let header = (header & 0b111) | size << 3;
    f[at..at + 3].copy_from_slice(&header.to_le_bytes()[..3]);
    f
}

/// A damaged block size that makes an announced frame's decoder want more bytes than
/// the frame has: the decoder reads on into the frames after it (to the end of the
/// stream, or until those bytes make no block), and the frame is stepped over all the
/// same, at its announced end, the frames after it read whole, on any number of
/// threads. Before, the stream ended there in an error (`incomplete frame`), every
/// later frame lost.
#[test]
fn a_frame_whose_damaged_block_size_wants_more_bytes_is_stepped_over() {
    let texts: Vec<Vec<u8>> = (0..6).map(|k| games(k * 40, 40)).collect();
    let frames: Vec<Vec<u8>> = texts.iter().map(|t| frame(t)).collect();
    let whole: usize = frames.iter().map(Vec::len).sum();
    // Past the stream's end from frame 2 on; within the stream; zstd's largest block.
    for size in [whole as u32 * 2, frames[2].len() as u32 * 3, 128 << 10] {
        for k in [0, 2, 5] {
            let mut damaged = frames.clone();
            damaged[k] = block_size_set(frames[k].clone(), size);
            let (text, gaps, error) = every_way(&pzstd(&damaged));
            assert_eq!(error, None, "frame {k}, block of {size}");
            let [(at, gap)] = &gaps[..] else {
                panic!("frame {k}, block of {size}: one damaged frame: {gaps:?}")
            };
            let offset = 12 * (k + 1) + frames[..k].iter().map(Vec::len).sum::<usize>();
            assert_eq!(
                (gap.offset, gap.len),
                (offset as u64, frames[k].len() as u64)
            );
            let (before, after) = (texts[..k].concat(), texts[k + 1..].concat());
            assert_eq!(
                text,
                [before.clone(), after].concat(),
                "frame {k}, block of {size}"
            );
            assert_eq!(*at as usize, before.len());
        }
    }
}

/// A zstd frame of `text` in a raw block (not compressed), then an empty last one;
/// without a checksum.
fn raw_frame(text: &[u8]) -> Vec<u8> {
    let mut f = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38];
    f.extend_from_slice(&((text.len() as u32) << 3).to_le_bytes()[..3]);
    f.extend_from_slice(text);
    f.extend_from_slice(&[0x01, 0x00, 0x00]);
    f
}

/// A damaged block size that leads a frame's decoder on through the frame after it,
/// to a frame end there (the next frame's last block): a frame starts at its
/// announced end, so it is stepped over there and the frame after it is read (before,
/// that frame was taken for the damaged one's text and lost). A frame longer than its
/// announcement with no frame at the announced end is read whole (the announcement is
/// what is damaged).
#[test]
fn a_frame_that_decodes_past_its_announced_end_is_stepped_over() {
    let texts: Vec<Vec<u8>> = (0..5).map(|k| games(k * 20, 20)).collect();
    let frames: Vec<Vec<u8>> = texts.iter().map(|t| raw_frame(t)).collect();
    let mut damaged = frames.clone();
    let swallowed = texts[1].len() + 3 + 12 + frames[2].len() - 3;
    damaged[1] = block_size_set(frames[1].clone(), swallowed as u32);
    let (text, gaps, error) = every_way(&pzstd(&damaged));
    assert_eq!(error, None);
    let [(at, gap)] = &gaps[..] else {
        panic!("one damaged frame: {gaps:?}")
    };
    let offset = 12 * 2 + frames[0].len();
    assert_eq!(
        (gap.offset, gap.len),
        (offset as u64, frames[1].len() as u64)
    );
    assert!(text.starts_with(&texts[0]));
    assert!(text.ends_with(&texts[2..].concat()));
    assert_eq!(*at as usize, text.len() - texts[2..].concat().len());
    // The announcement too short, the frame whole: read as it decodes.
    let mut sizes = vec![None; frames.len()];
    sizes[1] = Some(frames[1].len() - 40);
    let (text, gaps, error) = every_way(&announced(&frames, &sizes));
    assert_eq!((text, gaps.len(), error), (texts.concat(), 0, None));
}

/// A frame that pzstd announced whose first bytes are not a zstd frame's (its magic
/// number damaged) is stepped over by its announced size, its text lost, and the frames
/// after it are read, on any number of threads (before, its bytes and all after them
/// were taken for trailing bytes and ignored), also when the damage makes it look like
/// another compression's frame. The stream cut short in such a frame is an error that
/// ends the text.
#[test]
fn an_announced_frame_whose_magic_is_damaged_is_stepped_over() {
    let texts: Vec<Vec<u8>> = (0..6).map(|k| games(k * 200, 200)).collect();
    let frames: Vec<Vec<u8>> = texts.iter().map(|t| frame(t)).collect();
    for k in [0, 2, 5] {
        for byte in 0..4 {
            let mut damaged = frames.clone();
            damaged[k][byte] ^= 0x41;
            let (text, gaps, error) = every_way(&pzstd(&damaged));
            assert_eq!(error, None, "frame {k}, byte {byte}");
            let [(at, gap)] = &gaps[..] else {
                panic!("frame {k}, byte {byte}: one damaged frame, not {gaps:?}")
            };
            let offset = 12 * (k + 1) + frames[..k].iter().map(Vec::len).sum::<usize>();
            // Its header after the magic number tells its text still.
            let told = crate::stream::FrameText::of_header(&frames[k]);
            assert!(told.is_some());
            assert_eq!(
                (gap.offset, gap.len, gap.read, gap.text),
                (offset as u64, frames[k].len() as u64, 0, told),
                "frame {k}, byte {byte}"
            );
            assert!(
                gap.to_string().starts_with(&format!(
                    "the zstd frame at byte {offset} ({} bytes) cannot be decoded (its first bytes are not a zstd frame's magic number): the rest of its text is lost (",
                    frames[k].len()
                )),
                "{gap}"
            );
            let before = texts[..k].concat();
            assert_eq!(*at as usize, before.len());
            assert_eq!(text, [before, texts[k + 1..].concat()].concat());
        }
    }
    // Damaged into another compression's magic number, and three side by side: each
    // stepped over, each told by a read of its own.
    for magic in [&[0x1f, 0x8b][..], b"BZh9", &[0x28, 0xb5, 0x2f, 0xfe]] {
        let mut damaged = frames.clone();
        for f in &mut damaged[1..4] {
            f[..magic.len()].copy_from_slice(magic);
        }
        let (text, gaps, error) = every_way(&pzstd(&damaged));
        assert_eq!(error, None, "{magic:?}");
        let told: Vec<(u64, u64)> = gaps.iter().map(|(at, g)| (*at, g.len)).collect();
        let at = texts[0].len() as u64;
        assert_eq!(
            told,
            (1..4)
                .map(|k| (at, frames[k].len() as u64))
                .collect::<Vec<_>>(),
            "{magic:?}"
        );
        assert_eq!(text, [&texts[0][..], &texts[4][..], &texts[5][..]].concat());
    }
    // An announcement of fewer bytes than any frame has (its size damaged) steps over
    // nothing, read on one thread or several (the parallel scanner cuts a chunk inside
    // such a "frame"): junk after it is trailing, a frame after it is read.
    for len in [0u32, 2, 8] {
        let mut announcement = vec![0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0];
        announcement.extend_from_slice(&len.to_le_bytes());
        let junk = [pzstd(&frames[..2]), announcement.clone(), vec![b'x'; 100]].concat();
        let (text, gaps, error) = every_way(&junk);
        assert_eq!((text, gaps, error), (texts[..2].concat(), Vec::new(), None));
        let framed = [
            pzstd(&frames[..2]),
            announcement,
            frames[2].clone(),
            pzstd(&frames[3..]),
        ]
        .concat();
        let (text, gaps, error) = every_way(&framed);
        assert_eq!((text, gaps, error), (texts.concat(), Vec::new(), None));
    }
    // The last frame's magic damaged, and the stream cut short in it: an error. Cut
    // right after its announcement, the stream ends there (a skippable frame of four
    // bytes may end a stream).
    let mut damaged = frames.clone();
    damaged[5][0] ^= 0x41;
    let bytes = pzstd(&damaged);
    let start = bytes.len() - frames[5].len();
    for cut in [start, start + 2, start + 10, bytes.len() - 1] {
        let (text, gaps, error) = every_way(&bytes[..cut]);
        assert_eq!(
            (text, gaps),
            (texts[..5].concat(), Vec::new()),
            "cut at {cut}"
        );
        let expected = (cut > start).then(|| {
            format!(
                "the stream ends {} bytes into the zstd frame at byte {start} ({} bytes, as pzstd announced it), whose first bytes are not a zstd frame's: it is cut short",
                cut - start,
                frames[5].len()
            )
        });
        assert_eq!(error, expected, "cut at {cut}");
    }
}

/// pzstd's announcement of a frame whose magic number is damaged is read as one (its
/// size field and the zstd frame after it tell it): nothing is lost, on any number of
/// threads (before, its bytes and all after them were taken for trailing bytes).
#[test]
fn an_announcement_whose_magic_is_damaged_is_read_as_one() {
    let texts: Vec<Vec<u8>> = (0..6).map(|k| games(k * 200, 200)).collect();
    let frames: Vec<Vec<u8>> = texts.iter().map(|t| frame(t)).collect();
    let bytes = pzstd(&frames);
    let whole = texts.concat();
    for k in [1, 2, 5] {
        let at = 12 * k + frames[..k].iter().map(Vec::len).sum::<usize>();
        for byte in 0..4 {
            for damage in [0x01, 0x41, 0xff] {
                let mut damaged = bytes.clone();
                damaged[at + byte] ^= damage;
                let (text, gaps, error) = every_way(&damaged);
                assert_eq!(
                    (text == whole, gaps, error),
                    (true, Vec::new(), None),
                    "frame {k}, byte {byte}, damage {damage:#x}"
                );
            }
        }
    }
}

/// A damaged frame stepped over, then damage that cannot be (a frame without its size
/// announced), close enough to share a chunk on several threads: the chunk is read
/// again on one thread, and the first damage is told once.
#[test]
fn damage_stepped_over_then_damage_that_ends_the_text() {
    let texts: Vec<Vec<u8>> = (0..5).map(|k| games(k * 100, 100)).collect();
    let frames: Vec<Vec<u8>> = texts.iter().map(|t| frame(t)).collect();
    let bytes = [
        pzstd(&[
            frames[0].clone(),
            damaged(frames[1].clone()),
            frames[2].clone(),
        ]),
        damaged(frames[3].clone()),
        pzstd(&frames[4..]),
    ]
    .concat();
    let (text, gaps, error) = every_way(&bytes);
    assert_eq!(gaps.len(), 1, "{gaps:?}");
    assert!(error.is_some());
    assert!(text.starts_with(&texts[0]));
    assert!(text.windows(texts[2].len()).any(|w| w == texts[2]));
}

/// A frame's header tells its text: the content size when the compressor was told it
/// (each width of the field: one byte in a single segment, two counting from 256, four,
/// eight), else four windows (pzstd's frames but the last).
#[test]
fn a_frame_header_tells_its_text() {
    use crate::stream::FrameText;
    for size in [0, 1, 255, 256, 257, 65_791, 65_792, 200_000, 5 << 20] {
        let text = games(0, size / 40 + 10);
        let text = &text[..size];
        let mut e = zstd::stream::Encoder::new(Vec::new(), 1).unwrap();
        e.set_pledged_src_size(Some(size as u64)).unwrap();
        e.write_all(text).unwrap();
        let f = e.finish().unwrap();
        assert_eq!(
            FrameText::of_header(&f),
            Some(FrameText::Header(size as u64)),
            "{size} bytes, header {:02x?}",
            &f[..f.len().min(18)]
        );
        assert_eq!(FrameText::of_header(&f[..5]), None, "{size}: a cut header");
    }
    for log in [10, 17, 19, 23] {
        let mut e = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
        e.set_parameter(zstd::stream::raw::CParameter::WindowLog(log))
            .unwrap();
        e.write_all(&games(0, 50)).unwrap();
        let f = e.finish().unwrap();
        assert_eq!(
            FrameText::of_header(&f),
            Some(FrameText::Pzstd(4 << log)),
            "window of 2^{log}: header {:02x?}",
            &f[..6]
        );
    }
    // A window with a mantissa: 2^20 and 3/8 of it.
    let header = [0x28, 0xb5, 0x2f, 0xfd, 0x00, (10 << 3) | 3];
    assert_eq!(
        FrameText::of_header(&header),
        Some(FrameText::Pzstd(4 * ((1 << 20) + 3 * (1 << 17))))
    );
    // Hand-made headers: a dictionary ID (two bytes) before a two-byte size, which
    // counts from 256; an eight-byte size; a window too large for any pzstd (2^28).
    let magic = [0x28, 0xb5, 0x2f, 0xfd];
    let dictionary = [&magic[..], &[0x42, 0x48, 0xaa, 0xbb, 0x10, 0x02]].concat();
    assert_eq!(
        FrameText::of_header(&dictionary),
        Some(FrameText::Header(0x0210 + 256))
    );
    let eight = [&magic[..], &[0xc0, 0x48], &(5u64 << 32).to_le_bytes()].concat();
    assert_eq!(
        FrameText::of_header(&eight),
        Some(FrameText::Header(5 << 32))
    );
    assert_eq!(
        FrameText::of_header(&[0x28, 0xb5, 0x2f, 0xfd, 0x00, 18 << 3]),
        None
    );
    // The reserved bit, and no zstd magic.
    assert_eq!(
        FrameText::of_header(&[0x28, 0xb5, 0x2f, 0xfd, 0x08, 0x50]),
        None
    );
    assert_eq!(FrameText::of_header(&[0x50, 0x2a, 0x4d, 0x18, 4, 0]), None);
}

/// A damaged frame tells the text it gave before its damage (all handed out) and how
/// much its header says it held, alike on every thread count.
#[test]
fn a_damaged_frame_tells_the_text_it_lost() {
    let texts: Vec<Vec<u8>> = (0..6).map(|k| games(k * 3000, 3000)).collect();
    let frames: Vec<Vec<u8>> = texts
        .iter()
        .enumerate()
        .map(|(k, t)| {
            let mut e = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
            e.include_checksum(true).unwrap();
            // Every other frame with its size in its header.
            if k % 2 == 0 {
                e.set_pledged_src_size(Some(t.len() as u64)).unwrap();
            }
            e.write_all(t).unwrap();
            e.finish().unwrap()
        })
        .collect();
    for (k, checksum) in [(1, false), (2, false), (5, false), (4, true)] {
        let mut frames = frames.clone();
        frames[k] = if checksum {
            // Its checksum broken: its text is all read before the damage is found.
            let mut f = frames[k].clone();
            let end = f.len();
            f[end - 1] ^= 0xff;
            f
        } else {
            damaged(frames[k].clone())
        };
        let (text, gaps, error) = every_way(&pzstd(&frames));
        assert_eq!(error, None);
        let [(at, gap)] = &gaps[..] else {
            panic!("frame {k}: one damaged frame, {gaps:?}")
        };
        let before = texts[..k].concat().len() as u64;
        assert_eq!(gap.read, at - before, "frame {k}: the text it gave");
        assert_eq!(text.len() as u64, at + texts[k + 1..].concat().len() as u64);
        match gap.text {
            Some(crate::stream::FrameText::Header(n)) => {
                assert_eq!(k % 2, 0, "frame {k}");
                assert_eq!(n, texts[k].len() as u64);
                assert_eq!(gap.text_lost(), Some(n - gap.read));
                assert_eq!(checksum, gap.read == n, "frame {k}");
                if checksum {
                    assert!(
                        gap.to_string().ends_with(&format!(
                            "all its text was read before the damage was found ({n} bytes, as its header says), and may be altered"
                        )),
                        "{gap}"
                    );
                }
            }
            Some(crate::stream::FrameText::Pzstd(n)) => {
                assert_eq!(k % 2, 1, "frame {k}");
                // Level 3's window for a stream of unknown size: 2 MiB.
                assert_eq!(n, 4 << 21);
            }
            other => panic!("frame {k}: {other:?}"),
        }
    }
}

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

/// A damaged stream of pbzip2's layout is stepped over wherever it lies (first, in the
/// middle, last, two side by side): its offset and length are its own, the text of
/// every other stream is read whole, and it gives what it gave before its damage.
#[test]
fn a_damaged_bzip2_stream_loses_only_its_own_text() {
    let texts: Vec<Vec<u8>> = (0..8).map(|k| games(k * 150, 150)).collect();
    let clean: Vec<Vec<u8>> = texts.iter().map(|t| bzip2_stream(t, 9)).collect();
    let mut reads = Vec::new();
    for broken in [vec![3], vec![0], vec![7], vec![2, 3], vec![1, 5]] {
        let mut each = clean.clone();
        for &k in &broken {
            each[k] = damaged(each[k].clone());
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
                        (gap.compression, gap.offset, gap.len, gap.text),
                        (
                            Compression::Bzip2,
                            starts[k] as u64,
                            each[k].len() as u64,
                            None
                        ),
                        "{broken:?}: stream {k}"
                    );
                    assert!(gap.reason.contains("bzip2"), "{}", gap.reason);
                    // What it gave before its damage (if anything), then the break.
                    expected.extend_from_slice(&text[expected.len()..][..gap.read as usize]);
                    assert_eq!(*at as usize, expected.len(), "{broken:?}: stream {k}");
                    // Damage that only the block's check finds, at its end, gives
                    // altered text (all but the last read's; more, when the damage
                    // lengthened the block).
                    let words = match gap.read {
                        0 => "its text is lost (a bzip2 stream does not tell its size)".to_owned(),
                        n => format!(
                            "the rest of its text is lost, after {n} bytes read, of which its damaged block's may be altered (a bzip2 stream does not tell its text's size)"
                        ),
                    };
                    assert_eq!(
                        gap.to_string(),
                        format!(
                            "the bzip2 stream at byte {} ({} bytes) cannot be decoded ({}): {words}",
                            starts[k],
                            each[k].len(),
                            gap.reason
                        )
                    );
                    reads.push(gap.read);
                }
                None => expected.extend_from_slice(t),
            }
        }
        assert!(text == expected, "{broken:?}: the text read");
    }
    // Damage found before any of its text, and damage found only at its end.
    assert!(
        reads.contains(&0) && reads.iter().any(|&n| n > 0),
        "{reads:?}"
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
    let bgzf: Vec<Vec<u8>> = texts.iter().map(|t| bgzf::block(t)).collect();
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
            // Damage found only by the block's check gives its altered text first (as
            // long as the damage made it, which may be longer than the block's own):
            // what the block gives decoded alone.
            assert_eq!(
                *at as usize - expected.len(),
                gap.read as usize,
                "{broken:?}: block {k}"
            );
            expected.extend_from_slice(&got[expected.len()..*at as usize]);
            assert_eq!(
                gap.to_string(),
                format!(
                    "the bzip2 block at byte {from} ({} bytes) of the stream at byte 0 cannot be decoded ({}): {}",
                    to - from,
                    gap.reason,
                    if gap.read == 0 {
                        "its text is lost (a bzip2 block does not tell its size)".to_owned()
                    } else {
                        format!(
                            "{} bytes of its text were read before the damage was found, and may be altered; the rest of it, if any, is lost (a bzip2 block does not tell its text's size)",
                            gap.read
                        )
                    }
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

mod bgzf;
