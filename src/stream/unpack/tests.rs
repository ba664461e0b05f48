use std::io::{Read, Write};

use super::super::compression::{Compression, DamagedFrame, Peek, Trailing, TrailingNote, decode};
use super::super::frames::tests::{announced, damaged, frame, pzstd};
use super::super::open::decode_with;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Text that compresses somewhat, as PGN does.
fn text(rng: &mut Rng, len: usize) -> Vec<u8> {
    let words: [&[u8]; 8] = [
        b"e4 ",
        b"Nf3 ",
        b"{ [%clk 0:05:00] } ",
        b"1-0\n\n",
        b"[Event \"x\"]\n",
        b"Qxd5+ ",
        b"\n",
        b"P@e4 ",
    ];
    let mut out = Vec::with_capacity(len + 32);
    while out.len() < len {
        if rng.below(3) == 0 {
            out.push(b'a' + rng.below(26) as u8);
        } else {
            out.extend_from_slice(words[rng.below(words.len())]);
        }
    }
    out.truncate(len);
    out
}

fn zstd_frame(data: &[u8], level: i32, checksum: bool) -> Vec<u8> {
    let mut e = zstd::stream::Encoder::new(Vec::new(), level).unwrap();
    e.include_checksum(checksum).unwrap();
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn skippable(n: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![0x50 | n, 0x2a, 0x4d, 0x18];
    out.extend_from_slice(&(content.len() as u32).to_le_bytes());
    out.extend_from_slice(content);
    out
}

fn gzip_member(data: &[u8], bgzf: bool) -> Vec<u8> {
    if !bgzf {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).unwrap();
        return e.finish().unwrap();
    }
    let mut d = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    d.write_all(data).unwrap();
    let body = d.finish().unwrap();
    let mut out = vec![
        0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 6, 0, b'B', b'C', 2, 0,
    ];
    out.extend_from_slice(&((18 + body.len() + 8 - 1) as u16).to_le_bytes());
    out.extend_from_slice(&body);
    let mut crc = flate2::Crc::new();
    crc.update(data);
    out.extend_from_slice(&crc.sum().to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

fn bzip2_stream(data: &[u8]) -> Vec<u8> {
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::new(1));
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// A random archive of one kind: frames of random sizes (some larger than the cap),
/// skippable frames, junk between frames, trailing zeros or junk, a cut or a flipped
/// byte.
fn archive(rng: &mut Rng, kind: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let frames = 1 + rng.below(12);
    let bgzf = rng.below(4) != 0;
    for i in 0..frames {
        let len = match rng.below(4) {
            0 => rng.below(200),
            1 => rng.below(6_000),
            2 => rng.below(40_000),
            _ => rng.below(300_000),
        };
        let data = text(rng, len);
        match kind {
            0 => {
                if rng.below(2) == 0 {
                    let frame = zstd_frame(&data, 1 + rng.below(5) as i32, rng.below(2) == 0);
                    out.extend(skippable(0, &(frame.len() as u32).to_le_bytes()));
                    out.extend(frame);
                } else {
                    out.extend(zstd_frame(&data, 1, rng.below(2) == 0));
                }
                if rng.below(8) == 0 {
                    out.extend(skippable(rng.below(16) as u8, b"metadata"));
                }
            }
            1 => out.extend(gzip_member(
                &data,
                bgzf && (i < frames - 1 || rng.below(2) == 0),
            )),
            _ => out.extend(bzip2_stream(&data)),
        }
        if rng.below(40) == 0 {
            out.extend_from_slice(b"junk between frames");
        }
    }
    match rng.below(6) {
        0 => out.extend(std::iter::repeat_n(0, rng.below(3000))),
        1 => out.extend_from_slice(b"not a frame at all"),
        2 => out.extend_from_slice(&[0x28, 0xb5]),
        _ => {}
    }
    match rng.below(8) {
        0 => {
            let cut = rng.below(out.len() + 1);
            out.truncate(cut);
        }
        1 if !out.is_empty() => {
            let at = rng.below(out.len());
            out[at] ^= 1 << rng.below(8);
        }
        _ => {}
    }
    out
}

/// The damaged frames stepped over: each one's offset, the text offset it was met at,
/// and its words.
type Damages = Vec<(u64, usize, String)>;

/// What a reader of `bytes` gets, reading on past damaged frames: the text up to the
/// end or the error, the error's words, the trailing bytes noted, the damaged frames.
fn read(bytes: &[u8], jobs: usize) -> (Vec<u8>, Option<String>, Option<Trailing>, Damages) {
    let decoded = if jobs == 1 {
        decode(bytes)
    } else {
        decode_with(std::io::Cursor::new(bytes.to_vec()), jobs)
    };
    let mut d = match decoded {
        Ok(d) => d,
        Err(e) => return (Vec::new(), Some(e.to_string()), None, Vec::new()),
    };
    let (mut text, mut damages) = (Vec::new(), Vec::new());
    let mut buf = [0u8; 1000];
    let error = loop {
        match d.reader.read(&mut buf) {
            Ok(0) => break None,
            Ok(n) => text.extend_from_slice(&buf[..n]),
            Err(e) => match DamagedFrame::of(&e) {
                Some(f) => damages.push((f.offset, text.len(), e.to_string())),
                None => break Some(e.to_string()),
            },
        }
    };
    (text, error, d.trailing.get().copied(), damages)
}

/// Issue 25.1: decoding on several threads reads what one thread reads, for any
/// number of jobs: the same text and the same trailing bytes, on random zstd
/// (pzstd's layout or not), gzip (BGZF or not) and bzip2 archives with junk between
/// frames, padding, cuts and flipped bits; the same damaged frames stepped over, at the
/// same places, read on past; and damage that ends the text is an error after the same
/// text, to the decoder's last block (where a decoder stops before an error depends
/// on how its input arrives, a file's reads or a pipe's, with one thread too).
#[test]
fn every_job_count_reads_what_one_thread_reads() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut seen = [0usize; 5];
    for case in 0..240 {
        let kind = case % 3;
        let bytes = archive(&mut rng, kind);
        let one = read(&bytes, 1);
        for jobs in [2, 3] {
            let many = read(&bytes, jobs);
            assert_eq!(
                many.3, one.3,
                "case {case}, {jobs} jobs: the damaged frames"
            );
            let same = match (&one.1, &many.1) {
                (None, None) => many == one,
                (Some(_), Some(_)) => {
                    let (short, long) = if one.0.len() <= many.0.len() {
                        (&one.0, &many.0)
                    } else {
                        (&many.0, &one.0)
                    };
                    // A bzip2 block at level 1 is 100 kB of text.
                    long.starts_with(short) && long.len() - short.len() <= 128 << 10
                }
                _ => false,
            };
            assert!(
                same,
                "case {case} (kind {kind}, {} bytes), {jobs} jobs: {:?} / {:?} / {:?} against {:?} / {:?} / {:?}",
                bytes.len(),
                many.0.len(),
                many.1,
                many.2,
                one.0.len(),
                one.1,
                one.2
            );
        }
        seen[0] += usize::from(one.1.is_some());
        seen[1] += usize::from(one.2.is_some());
        seen[2] += usize::from(bytes.len() > super::CAP);
        seen[3] += usize::from(one.1.is_none() && one.2.is_none());
        seen[4] += usize::from(!one.3.is_empty());
    }
    // Errors, trailing bytes, archives longer than the cap (of many chunks, with
    // frames longer than the cap), clean ones and damaged frames stepped over all came
    // up.
    assert!(
        seen[..4].iter().all(|&n| n >= 10) && seen[4] >= 3,
        "{seen:?}"
    );
}

/// The text, the damaged frames (offsets), the error, whether read sequentially.
type ReadOn = (Vec<u8>, Vec<(u64, u64)>, Option<String>, bool);

/// What a reader of `bytes` gives: the text, the damaged frames (their offsets and the
/// text offset each was met at), the error that ended it, and, on `jobs` threads,
/// whether it ever read sequentially (one job: the sequential decoder itself).
fn read_on(bytes: &[u8], jobs: usize) -> ReadOn {
    let owned = std::io::Cursor::new(bytes.to_vec());
    if jobs == 1 {
        return drain(&mut decode(owned).unwrap().reader, |_| false);
    }
    let src = Peek::new(owned);
    let kind = Compression::detect(bytes);
    let mut r = super::parallel(src, kind, jobs, TrailingNote::default());
    drain(&mut r, |r| {
        matches!(r.source, super::Source::Sequential { .. })
    })
}

fn drain<R: std::io::BufRead>(r: &mut R, sequential: impl Fn(&R) -> bool) -> ReadOn {
    let (mut text, mut damaged, mut seq) = (Vec::new(), Vec::new(), false);
    let error = loop {
        let got = r.fill_buf().map(<[u8]>::to_vec);
        seq |= sequential(r);
        match got {
            Ok(b) if b.is_empty() => break None,
            Ok(b) => {
                text.extend_from_slice(&b);
                r.consume(b.len());
            }
            Err(e) => match DamagedFrame::of(&e) {
                Some(d) => damaged.push((d.offset, text.len() as u64)),
                None => break Some(e.to_string()),
            },
        }
    };
    (text, damaged, error, seq)
}

/// The frames of a Lichess dump: a chunk each, each announced.
fn lichess_frames(rng: &mut Rng, n: usize) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let texts: Vec<Vec<u8>> = (0..n).map(|_| text(rng, 40 << 10)).collect();
    let frames = texts.iter().map(|t| frame(t)).collect();
    (texts, frames)
}

/// `bytes` read on one thread, and on two and three, which read the same, falling back
/// to reading sequentially exactly when `falls_back`: what one thread reads.
fn same_on_threads(bytes: &[u8], falls_back: bool) -> ReadOn {
    let one = read_on(bytes, 1);
    for jobs in [2, 3] {
        let many = read_on(bytes, jobs);
        assert_eq!(many.3, falls_back, "{jobs} threads: read sequentially");
        assert_eq!(
            (&many.0, &many.1, &many.2),
            (&one.0, &one.1, &one.2),
            "{jobs} threads"
        );
    }
    one
}

/// After a damaged frame that pzstd announced, the chunks that follow are still decoded
/// on the threads: the reader never falls back to reading sequentially, and reads what
/// one thread reads.
#[test]
fn a_damaged_announced_frame_leaves_the_threads_decoding() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (texts, mut frames) = lichess_frames(&mut rng, 12);
    assert!(frames.iter().all(|f| f.len() > super::CHUNK));
    for k in [0, 3, 4, 11] {
        frames[k] = damaged(frames[k].clone());
    }
    let one = same_on_threads(&pzstd(&frames), false);
    assert_eq!(one.2, None);
    assert_eq!(one.1.len(), 4);
    // The frames between the damaged ones are whole.
    for k in [1, 2, 5, 10] {
        assert!(one.0.windows(texts[k].len()).any(|w| w == texts[k]), "{k}");
    }
}

/// A damaged bzip2 stream of pbzip2's layout is stepped over in its chunk wherever it
/// lies there, the last of a chunk among them (its chunk's bytes end where the next
/// stream starts): the reader reads what one thread reads, and the chunks after it are
/// still decoded on the threads.
#[test]
fn a_damaged_bzip2_stream_leaves_the_threads_decoding() {
    let mut rng = Rng(0x6a09_e667_f3bc_c908);
    let texts: Vec<Vec<u8>> = (0..20).map(|_| text(&mut rng, 6 << 10)).collect();
    let streams: Vec<Vec<u8>> = texts.iter().map(|t| bzip2_stream(t)).collect();
    // The scanner ends a chunk with the first stream that brings it to CHUNK bytes.
    let (mut last_of_chunk, mut size) = (Vec::new(), 0);
    for (k, s) in streams.iter().enumerate() {
        size += s.len();
        if size >= super::CHUNK {
            last_of_chunk.push(k);
            size = 0;
        }
    }
    assert!(last_of_chunk.len() >= 4, "{last_of_chunk:?}");
    let mut on_threads = Vec::new();
    for k in 0..streams.len() {
        let mut each = streams.clone();
        each[k] = damaged(each[k].clone());
        let bytes = each.concat();
        let one = read_on(&bytes, 1);
        assert_eq!((one.1.len(), &one.2), (1, &None), "stream {k}");
        for jobs in [2, 3] {
            let many = read_on(&bytes, jobs);
            assert_eq!(
                (&many.0, &many.1, &many.2),
                (&one.0, &one.1, &one.2),
                "stream {k}, {jobs} threads"
            );
            if !many.3 {
                on_threads.push(k);
            }
        }
        // The streams after it are whole.
        for t in &texts[k + 1..] {
            assert!(one.0.windows(t.len()).any(|w| w == &t[..]), "stream {k}");
        }
    }
    // A damaged stream is stepped over on the threads (only a decoder that wanted bytes
    // past its chunk's end falls back to one), those that end a chunk too.
    assert!(on_threads.len() >= 30, "{on_threads:?}");
    let ends = last_of_chunk
        .iter()
        .filter(|k| on_threads.contains(k))
        .count();
    assert_eq!(
        ends,
        last_of_chunk.len(),
        "{last_of_chunk:?}: {on_threads:?}"
    );
}

/// A damaged frame whose decoder wanted more than its announced bytes (its size was
/// announced short): whether a sequential read steps over it depends on the bytes after
/// it, which its chunk's decoder does not have, so its chunk is read again
/// sequentially, and the text is what one thread reads.
#[test]
fn a_frame_longer_than_announced_is_read_again_sequentially() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (_, frames) = lichess_frames(&mut rng, 6);
    let mut sizes = [None; 6];
    sizes[2] = Some(frames[2].len() - 40);
    same_on_threads(&announced(&frames, &sizes), true);
}

/// The text of `n` short games, the same game with `mark` in its Event, which
/// compresses well: a chunk of a few frames holds far more text than a decoder holds
/// back.
fn games(mark: usize, n: usize) -> Vec<u8> {
    format!("[Event \"{mark}\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n")
        .repeat(n)
        .into_bytes()
}

/// A damaged frame told from a chunk's pipe, then, in the same chunk, damage that makes
/// the chunk unclean: the chunk is read again on one thread, which tells the first
/// damage once and none of the text handed out again; what follows is what one thread
/// reads.
#[test]
fn a_chunk_unclean_after_a_damage_told_reads_as_one_thread() {
    let texts: Vec<Vec<u8>> = (0..4).map(|k| games(k, 2500)).collect();
    let frames: Vec<Vec<u8>> = texts.iter().map(|t| frame(t)).collect();
    // After the told damage: more text than the decoder holds back, then a frame
    // without its size announced, damaged (not stepped over).
    let bytes = [
        pzstd(&[damaged(frames[0].clone()), frames[1].clone()]),
        damaged(frames[2].clone()),
        pzstd(&frames[3..]),
    ]
    .concat();
    assert!(bytes.len() < super::CHUNK, "one chunk: {}", bytes.len());
    assert!(texts[1].len() > (super::HOLD + 1) * super::BLOCK);
    let one = same_on_threads(&bytes, true);
    assert_eq!(one.1.len(), 1);
    assert!(one.2.is_some());
}

/// A damaged frame told from a chunk's pipe, then the chunk's last frame, cut short
/// where its announced size ends (the file's end): the chunk's decoder cannot tell
/// whether a sequential read steps over it, so the chunk is read again; that read tells
/// the first damage once, and steps over the second.
#[test]
fn a_damage_told_then_a_frame_cut_at_the_chunks_end() {
    let texts: Vec<Vec<u8>> = (0..3).map(|k| games(k, 2500)).collect();
    let frames: Vec<Vec<u8>> = texts.iter().map(|t| frame(t)).collect();
    let cut = frames[2][..frames[2].len() / 2].to_vec();
    let bytes = pzstd(&[damaged(frames[0].clone()), frames[1].clone(), cut]);
    assert!(bytes.len() < super::CHUNK, "one chunk: {}", bytes.len());
    let one = same_on_threads(&bytes, true);
    assert_eq!((one.1.len(), &one.2), (2, &None));
}
