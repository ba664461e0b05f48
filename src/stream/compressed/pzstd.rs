//! pzstd's announcements read as the sequential reader, the parallel scanner and a
//! `--split` part's start all read them: a damaged one, and a stream whose start is
//! damaged.

use std::io::{self, Read};

use super::{Compression, Peek};
#[cfg(feature = "compression")]
use std::io::BufRead;

#[cfg(feature = "compression")]
/// pzstd's announcement of a frame at the start of a zstd stream's bytes `head` (16 of
/// them, fewer at its end), a skippable frame of four bytes that hold the next frame's
/// size: `None` when there is none, else the size when it can be trusted. A damaged one
/// is told by the zstd frame's magic number twelve bytes on, where pzstd puts it:
/// - its magic number damaged (`damaged`: the bytes start no frame), its size field
///   (`04 00 00 00`) whole: its size stands;
/// - its size field damaged, its magic number pzstd's (`50 2A 4D 18`), where a skippable
///   frame of the size it reads would not end at a frame: its size stands. Where it
///   would end is looked at only within [`SKIPPABLE_LOOK`] bytes of its start (beyond,
///   it is taken as not ending at a frame): `starts_frame_at(end)` tells whether the
///   bytes `end` on from `head`'s start begin a frame ([`starts_frame`]);
/// - both damaged: no size (its frame is read, but not stepped over if damaged).
///
/// Such an announcement holds no text: nothing is lost. (The sequential reader and a
/// `--split` part's start judge it alike.)
pub(in crate::stream) fn announcement(
    head: &[u8],
    damaged: bool,
    starts_frame_at: impl FnOnce(usize) -> io::Result<bool>,
) -> io::Result<Option<Option<u64>>> {
    let field = |at: usize| {
        head.get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let (Some(magic), Some(size_field), Some(size)) = (field(0), field(4), field(8)) else {
        return Ok(None);
    };
    let size = Some(u64::from(size));
    if magic & 0xffff_fff0 == 0x184d_2a50 && size_field == 4 {
        return Ok(Some(size));
    }
    if head.get(12..16) != Some(&ZSTD_MAGIC[..]) {
        return Ok(None);
    }
    if damaged {
        return Ok(Some(size.filter(|_| size_field == 4)));
    }
    let end = 8 + size_field as usize;
    let read = magic == 0x184d_2a50 && !(end + 4 <= SKIPPABLE_LOOK && starts_frame_at(end)?);
    Ok(read.then_some(size))
}

/// A zstd frame's magic number, as its first four bytes.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

#[cfg(feature = "compression")]
/// Whether `b` starts a zstd frame or a skippable one (pzstd's announcement), by its
/// first four bytes: fewer start none.
pub(in crate::stream) fn starts_frame(b: &[u8]) -> bool {
    matches!(
        b,
        [0x28, 0xb5, 0x2f, 0xfd, ..] | [0x50..=0x5f, 0x2a, 0x4d, 0x18, ..]
    )
}

#[cfg(feature = "compression")]
/// How far ahead of a skippable frame's start [`announcement`] looks for its end, and
/// a frame that ended short for its announced end: what a reader can look ahead.
pub(in crate::stream) const SKIPPABLE_LOOK: usize = 1 << 16;

/// Where pzstd's announcement of a frame first starts in `b`, with the frame's magic
/// number after it: the 16 bytes `5X 2A 4D 18  04 00 00 00  (size)  28 B5 2F FD`.
pub(in crate::stream) fn announcement_in(b: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(j) = memchr::memmem::find(&b[from..], &[0x2a, 0x4d, 0x18, 4, 0, 0, 0]) {
        let j = from + j;
        if j >= 1
            && (0x50..=0x5f).contains(&b[j - 1])
            && b.get(j + 11..j + 15) == Some(&ZSTD_MAGIC[..])
        {
            return Some(j - 1);
        }
        from = j + 1;
    }
    None
}

/// Whether a stream whose first bytes (`head`, up to [`LOOK_FOR_PZSTD`]) start no frame
/// is pzstd's output with its start damaged: binary data ([`looks_binary`]), and pzstd's
/// announcement of a frame in it. Its reader steps over the damaged bytes to that frame.
pub(in crate::stream) fn starts_as_damaged_pzstd(head: &[u8]) -> bool {
    looks_binary(head) && announcement_in(head).is_some()
}

/// The control bytes among the first 4096 of `head` (those no text holds, but for a
/// stray one in a damaged archive), and how many were looked at.
pub(in crate::stream) fn control_bytes(head: &[u8]) -> (usize, usize) {
    let head = &head[..head.len().min(4096)];
    let control = head
        .iter()
        .filter(|&&b| matches!(b, 0..=8 | 0x0e..=0x1a | 0x1c..=0x1f | 0x7f))
        .count();
    (control, head.len())
}

/// Whether `head` is binary data, not text: of its first 4096 bytes (at least 16), more
/// than one in sixteen are control bytes.
pub(in crate::stream) fn looks_binary(head: &[u8]) -> bool {
    mostly_control(control_bytes(head))
}

/// Whether [`control_bytes`]' count, of so many bytes looked at, makes them binary data.
pub(in crate::stream) fn mostly_control((control, looked): (usize, usize)) -> bool {
    looked >= 16 && control * 16 > looked
}

/// The compression of the stream `src` starts ([`Compression::detect`]), or zstd for
/// pzstd's output whose start is damaged (binary data with pzstd's announcement in its
/// first [`LOOK_FOR_PZSTD`] bytes).
pub(in crate::stream) fn detect_in<R: Read>(src: &mut Peek<R>) -> io::Result<Compression> {
    // Four bytes are waited for, as ever; beyond them only the bytes already read are
    // looked at (a file's first read gives 128 KiB), so that a live stream of text is
    // never held back until more of it comes.
    src.peek(4)?;
    let found = Compression::detect(src.buffered());
    if found != Compression::None || !looks_binary(src.buffered()) {
        return Ok(found);
    }
    #[cfg(feature = "compression")]
    if pzstd_follows(src)? {
        return Ok(Compression::Zstd);
    }
    Ok(Compression::None)
}

/// Whether pzstd's announcement of a frame starts in the first [`LOOK_FOR_PZSTD`] bytes
/// of `src`, which are read and handed back.
#[cfg(feature = "compression")]
fn pzstd_follows<R: Read>(src: &mut Peek<R>) -> io::Result<bool> {
    let mut seen = Vec::new();
    let found = loop {
        let b = src.fill_buf()?;
        if b.is_empty() || seen.len() >= LOOK_FOR_PZSTD {
            break false;
        }
        let n = b.len().min(LOOK_FOR_PZSTD - seen.len());
        seen.extend_from_slice(&b[..n]);
        src.consume(n);
        // (An announcement may have begun in the last 15 bytes seen before.)
        let from = (seen.len() - n).saturating_sub(15);
        if announcement_in(&seen[from..]).is_some() {
            break true;
        }
    };
    src.unread(&seen);
    Ok(found)
}

/// How far into binary data that starts no frame pzstd's announcement is looked for:
/// more than a frame of pzstd's at level 19 (four windows of 8 MiB of text, the
/// Lichess database's) compresses to.
pub(in crate::stream) const LOOK_FOR_PZSTD: usize = 16 << 20;
