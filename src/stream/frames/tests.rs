use std::io::{BufRead, Write};

use crate::stream::{DamagedFrame, decode, decode_with};

/// The text of `n` short games, numbered from `from`.
pub(super) fn games(from: usize, n: usize) -> Vec<u8> {
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
pub(super) type Read = (Vec<u8>, Vec<(u64, DamagedFrame)>, Option<String>);

pub(super) fn read_on(mut r: Box<dyn BufRead + Send>) -> Read {
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

pub(super) fn every_way(bytes: &[u8]) -> Read {
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
pub(super) fn block_size_set(mut f: Vec<u8>, size: u32) -> Vec<u8> {
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
pub(super) fn raw_frame(text: &[u8]) -> Vec<u8> {
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

/// pzstd's announcement damaged (its magic number, its size field, or all of it), the
/// first one of the stream too: read as one, and the frame after it, by any number of
/// threads. Before, a damaged size field made a skippable frame of another size, whose
/// end fell inside the frame, and the rest of the stream was trailing bytes (exit 0);
/// the first announcement's magic damaged made the file a binary one.
#[test]
fn a_damaged_announcement_is_read_as_one() {
    let texts: Vec<Vec<u8>> = (0..6).map(|k| games(k * 200, 200)).collect();
    let frames: Vec<Vec<u8>> = texts.iter().map(|t| frame(t)).collect();
    let bytes = pzstd(&frames);
    let whole = texts.concat();
    for k in [0, 1, 2, 5] {
        let at = 12 * k + frames[..k].iter().map(Vec::len).sum::<usize>();
        // (byte, damage): sizes of 5, 69, 1028, 65284 and 16 MiB + 4 (inside the frame,
        // beyond it, beyond what is looked at); each byte of the magic number, three
        // ways; everything.
        let mut damages: Vec<Vec<(usize, u8)>> = vec![
            vec![(4, 0x01)],
            vec![(4, 0x41)],
            vec![(5, 0x04)],
            vec![(5, 0xff)],
            vec![(7, 0x01)],
            (0..12).map(|b| (b, 0xa5)).collect(),
        ];
        for byte in 0..4 {
            for with in [0x01, 0x41, 0xff] {
                damages.push(vec![(byte, with)]);
            }
        }
        for damage in damages {
            let mut damaged = bytes.clone();
            for &(byte, with) in &damage {
                damaged[at + byte] ^= with;
            }
            let (text, gaps, error) = every_way(&damaged);
            assert_eq!(
                (text == whole, gaps, error),
                (true, Vec::new(), None),
                "announcement {k}, damage {damage:?}"
            );
        }
    }
}

/// A file whose first bytes start no frame, with pzstd's announcement after them (junk
/// put before it, its first announcement and its frame's first bytes damaged): read from
/// that frame on, the bytes before it told as a damaged frame, by any number of threads.
/// Before, the file was binary data, not PGN text. Elsewhere such bytes stay trailing
/// bytes (after a frame stepped over, they may be its true end).
#[test]
fn a_file_whose_start_is_no_frame_is_read_from_the_first_announced_frame() {
    let texts: Vec<Vec<u8>> = (0..6).map(|k| games(k * 200, 200)).collect();
    let frames: Vec<Vec<u8>> = texts.iter().map(|t| frame(t)).collect();
    let at = |k: usize| 12 * k + frames[..k].iter().map(Vec::len).sum::<usize>();
    let bytes = pzstd(&frames);
    // (Lengths about the windows the bytes are searched in, 64 and 128 KiB, less the 15
    // bytes looked at again: an announcement starting at a window's last 15 bytes was
    // missed by a reader whose window was not the first.)
    let mut junks = vec![vec![0x07u8; 100], vec![0; 20], vec![0xc3, 0x01, 0x02, 0x03]];
    for n in [65_520, 65_521, 65_522, 131_056, 131_057, 131_058, 196_593] {
        junks.push(vec![0x07u8; n]);
    }
    for junk in junks {
        let joined = [&junk[..], &bytes].concat();
        let (text, gaps, error) = every_way(&joined);
        assert_eq!(
            (text == texts.concat(), error),
            (true, None),
            "{}",
            junk.len()
        );
        let [(0, gap)] = &gaps[..] else {
            panic!("{}: {gaps:?}", junk.len());
        };
        assert_eq!((gap.offset, gap.len, gap.read), (0, junk.len() as u64, 0));
        assert!(
            gap.to_string()
                .contains("its text, if it held any, is lost"),
            "{gap}"
        );
    }
    // The first announcement and its frame's magic number damaged: that frame is lost.
    let mut damaged = bytes.clone();
    for b in &mut damaged[..16] {
        *b ^= 0xa5;
    }
    let (text, gaps, error) = every_way(&damaged);
    assert_eq!((text == texts[1..].concat(), error), (true, None));
    assert_eq!(gaps.len(), 1, "{gaps:?}");
    assert_eq!((gaps[0].1.offset, gaps[0].1.len), (0, at(1) as u64));
    // The same damage to a later frame: that frame is lost too, and the frames after
    // it are read (they were trailing bytes, lost, before).
    for k in [2, 4] {
        let mut damaged = bytes.clone();
        for b in &mut damaged[at(k)..at(k) + 16] {
            *b ^= 0xa5;
        }
        let (text, gaps, error) = every_way(&damaged);
        assert_eq!(error, None);
        assert!(
            text == [texts[..k].concat(), texts[k + 1..].concat()].concat(),
            "frame {k}"
        );
        let [(broke, gap)] = &gaps[..] else {
            panic!("frame {k}: {gaps:?}");
        };
        assert_eq!(*broke as usize, texts[..k].concat().len());
        assert_eq!(
            (gap.offset, gap.len),
            (at(k) as u64, (at(k + 1) - at(k)) as u64)
        );
    }
}

/// Junk between two frames of pzstd's (bytes that start no frame and announce none) is
/// stepped over to the next announced frame: the frames after it are read, where they
/// were trailing bytes and lost before, alike at any number of threads (the parts of a
/// split file: `tests/run.rs`).
#[test]
fn junk_between_frames_is_stepped_over_to_the_next_announced_frame() {
    let texts: Vec<Vec<u8>> = (0..6).map(|k| games(k * 200, 200)).collect();
    let frames: Vec<Vec<u8>> = texts.iter().map(|t| frame(t)).collect();
    let at = |k: usize| 12 * k + frames[..k].iter().map(Vec::len).sum::<usize>();
    let bytes = pzstd(&frames);
    for (k, junk) in [
        (1, b"JUNK".repeat(30)),
        (3, vec![0u8; 7]),
        (5, vec![0x28, 0xb5, 0x2f]),
        (3, vec![0x50, 0x2a, 0x4d]),
    ] {
        let joined = [&bytes[..at(k)], &junk[..], &bytes[at(k)..]].concat();
        let (text, gaps, error) = every_way(&joined);
        assert_eq!(error, None, "junk before frame {k}");
        assert!(text == texts.concat(), "junk before frame {k}: the text");
        let [(broke, gap)] = &gaps[..] else {
            panic!("junk before frame {k}: {gaps:?}");
        };
        assert_eq!(*broke as usize, texts[..k].concat().len());
        assert_eq!((gap.offset, gap.len), (at(k) as u64, junk.len() as u64));
    }
    // A frame pzstd did not announce after the junk goes with it (the reader steps over
    // both to the next announced frame, and a part starts at an announced frame only).
    let bare = zstd::encode_all(&games(5000, 50)[..], 1).unwrap();
    let joined = [&bytes[..at(3)], b"JUNK!", &bare[..], &bytes[at(3)..]].concat();
    let (text, gaps, error) = every_way(&joined);
    assert_eq!((error, gaps.len()), (None, 1));
    assert!(text == texts.concat(), "junk and a frame not announced");
    assert_eq!(
        (gaps[0].1.offset, gaps[0].1.len),
        (at(3) as u64, 5 + bare.len() as u64)
    );
    // After a damaged frame stepped over by its announced size, an announcement (of a
    // frame too small to be one) and junk: the junk is read on from alike at any number
    // of threads (the flag that the frame before was stepped over ended at the
    // announcement for one thread, not for several: the text ended there, 300 games
    // against 899, the second reader's find).
    let small = [
        0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 4, 0, 0, 0, b'a', b'b', b'c', b'd',
    ];
    let mut broken = frames.clone();
    broken[1] = damaged(broken[1].clone());
    let joined = [
        &pzstd(&broken[..2])[..],
        &small,
        b"JUNKJUNK",
        &pzstd(&frames[2..])[..],
    ]
    .concat();
    let (text, _, error) = every_way(&joined);
    assert_eq!(error, None);
    assert!(text.starts_with(&texts[0]) && text.ends_with(&texts[2..].concat()));
    // But bytes cut out of a frame: stepped over by its announced size, it ends inside
    // the next frame, past its announcement; the text ends there (a part starting at
    // that announcement reads on, and the merge ends where this read ends), alike at
    // any number of threads (the parallel decoder reads the frame before such bytes
    // again with them, to tell the two cases apart).
    for k in [1, 3] {
        let middle = at(k) + 12 + frames[k].len() / 2;
        let cut = [&bytes[..middle], &bytes[middle + 40..]].concat();
        let (text, gaps, error) = every_way(&cut);
        assert_eq!((error, gaps.len()), (None, 1), "frame {k} cut");
        assert!(text.starts_with(&texts[..k].concat()), "frame {k} cut");
        assert!(text.len() < texts[..k + 1].concat().len(), "frame {k} cut");
    }
}

/// Latin-1 text whose bytes 12 to 15 are a zstd frame's magic number (`(µ/ý`) is text,
/// not pzstd's damaged announcement (which has `04 00 00 00` at bytes 4 to 7).
#[test]
fn latin1_text_like_a_frame_magic_is_text() {
    let text = b"[Event \"abc (\xb5/\xfd)\"]\n[Result \"*\"]\n\n1. e4 e5 *\n".to_vec();
    assert_eq!(&text[12..16], &[0x28, 0xb5, 0x2f, 0xfd]);
    let decoded = decode(std::io::Cursor::new(text.clone())).unwrap();
    assert_eq!(decoded.compression, crate::stream::Compression::None);
    let (read, gaps, error) = read_on(decoded.reader);
    assert_eq!((read.len(), gaps, error), (text.len(), Vec::new(), None));
}

/// A frame that decodes whole before the end pzstd announced for it (damage made a
/// block look like its last: here, bytes after a whole frame within its announced
/// size), where the next frame starts at the announced end: stepped over to it, the
/// text it gave kept, by any number of threads. Before, the bytes after its decoder's
/// end were trailing bytes and the text ended there. With no frame at the announced end
/// the decoder's end stands.
#[test]
fn a_frame_that_ends_before_its_announced_end_is_stepped_over() {
    let texts: Vec<Vec<u8>> = (0..5).map(|k| games(k * 100, 100)).collect();
    let frames: Vec<Vec<u8>> = texts.iter().map(|t| frame(t)).collect();
    for k in [0, 2, 4] {
        let mut bytes = Vec::new();
        let mut start = 0;
        for (i, f) in frames.iter().enumerate() {
            let pad = if i == k { 20 } else { 0 };
            bytes.extend_from_slice(&[0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0]);
            bytes.extend_from_slice(&((f.len() + pad) as u32).to_le_bytes());
            if i == k {
                start = bytes.len();
            }
            bytes.extend_from_slice(f);
            bytes.extend(std::iter::repeat_n(0x77, pad));
        }
        let (text, gaps, error) = every_way(&bytes);
        if k == 4 {
            // The last frame: nothing starts at its announced end (the stream's).
            assert_eq!(
                (text == texts.concat(), gaps, error),
                (true, Vec::new(), None)
            );
            continue;
        }
        assert_eq!((text == texts.concat(), error), (true, None), "frame {k}");
        let [(met, gap)] = &gaps[..] else {
            panic!("frame {k}: {gaps:?}");
        };
        assert_eq!(*met, texts[..=k].concat().len() as u64, "frame {k}");
        assert_eq!(
            (gap.offset, gap.len, gap.read),
            (
                start as u64,
                frames[k].len() as u64 + 20,
                texts[k].len() as u64
            )
        );
        assert!(
            gap.reason.contains("ended before the end pzstd announced"),
            "{gap}"
        );
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

pub(super) mod bgzf;
