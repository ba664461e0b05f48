//! Opening archives on several threads: [`decode_with`] and [`open_with`], which decode
//! the independent frames of a compressed stream side by side (`unpack.rs`) and read
//! everything else as [`decode`](super::decode) does.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

#[cfg(feature = "compression")]
use super::compression::{Compression, Peek, TrailingNote};
use super::compression::{Decoded, decode};

/// [`decode`](super::decode) on `jobs` threads: independent frames (pzstd's zstd frames, pbzip2's bzip2
/// streams, BGZF's gzip blocks) are decoded side by side and read in order; a stream that
/// is one frame, or whose frames cannot be found without decoding them (plain
/// multi-member gzip), is decoded on a thread of its own. The text read, the trailing
/// bytes noted and the errors met are those of [`decode`](super::decode), for any `jobs` (with 1, this
/// is [`decode`](super::decode)).
///
/// # Errors
///
/// As [`decode`](super::decode).
pub fn decode_with<R: Read + Send + 'static>(
    inner: R,
    jobs: usize,
) -> io::Result<Decoded<'static>> {
    #[cfg(feature = "compression")]
    if jobs > 1 {
        let mut src = Peek::new(inner);
        super::compression::refuse_unsupported(src.peek(8)?)?;
        let compression = super::compressed::detect_in(&mut src)?;
        if compression == Compression::None {
            return Ok(Decoded {
                reader: Box::new(super::compression::TextCheck::new(src)),
                compression,
                size: None,
                trailing: TrailingNote::default(),
                reached: None,
            });
        }
        let trailing = TrailingNote::default();
        let reader = super::unpack::parallel(src, compression, jobs, trailing.clone());
        let reached = Some(reader.reached());
        return Ok(Decoded {
            reader: Box::new(super::compression::TextCheck::gathered(reader)),
            compression,
            size: None,
            trailing,
            reached,
        });
    }
    let _ = jobs;
    decode(inner)
}

/// [`open`](super::open), decoding on `jobs` threads as [`decode_with`] does.
///
/// # Errors
///
/// As [`open`](super::open).
pub fn open_with(path: impl AsRef<Path>, jobs: usize) -> io::Result<Decoded<'static>> {
    let path = path.as_ref();
    if path == Path::new("-") {
        return decode_with(io::stdin(), jobs);
    }
    let file = File::open(path)?;
    let size = file.metadata().ok().map(|m| m.len());
    let mut decoded = decode_with(file, jobs)?;
    decoded.size = size;
    Ok(decoded)
}
