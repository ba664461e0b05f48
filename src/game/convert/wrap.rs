//! Movetext written in words, its lines wrapped at a width, never inside a comment's
//! `[%…]` command.

/// Writes movetext words, wrapping lines at 80 columns.
pub(super) struct Wrap {
    pub(super) out: String,
    pub(super) col: usize,
    /// The line width (`usize::MAX`: one line).
    pub(super) width: usize,
    /// Opening parentheses waiting for the next word (they wrap together with it).
    pub(super) open: usize,
}

impl Wrap {
    pub(super) fn word(&mut self, w: &str) {
        self.parts("", w, "");
    }

    /// Writes `pre w post` as one unbreakable word.
    #[inline]
    pub(super) fn parts(&mut self, pre: &str, w: &str, post: &str) {
        let chars = if w.is_ascii() {
            w.len()
        } else {
            w.chars().count()
        };
        self.begin(pre.len() + chars + post.len());
        if !pre.is_empty() {
            self.out.push_str(pre);
        }
        self.out.push_str(w);
        if !post.is_empty() {
            self.out.push_str(post);
        }
    }

    /// Begins a word `chars` wide: the space before it (a line break if it does not
    /// fit), then the parentheses waiting for it; the column counted past it.
    #[inline(always)]
    fn begin(&mut self, chars: usize) {
        let open = std::mem::take(&mut self.open);
        let width = open + chars;
        if self.col > 0 {
            if self.col + 1 + width > self.width {
                self.out.push('\n');
                self.col = 0;
            } else {
                self.out.push(' ');
                self.col += 1;
            }
        }
        for _ in 0..open {
            self.out.push('(');
        }
        self.col += width;
    }

    /// Opens a variation: the `(` waits for the next word and wraps together with it.
    pub(super) fn open_paren(&mut self) {
        self.open += 1;
    }

    /// Takes back the `(` of a variation when it is still waiting (nothing of the
    /// variation was written): whether it was.
    pub(super) fn drop_open_paren(&mut self) -> bool {
        let waiting = self.open > 0;
        self.open -= usize::from(waiting);
        waiting
    }

    /// Closes a variation: `)` follows its word without a space, or starts a line (an
    /// empty variation's `(` still waiting goes with it).
    pub(super) fn close_paren(&mut self) {
        let open = std::mem::take(&mut self.open);
        if self.col > 0 && self.col + open + 1 > self.width {
            self.out.push('\n');
            self.col = 0;
        }
        for _ in 0..open {
            self.out.push('(');
        }
        self.out.push(')');
        self.col += open + 1;
    }

    /// Writes an ASCII word (a move number, a SAN), the space before it turned into a
    /// line break if it does not fit.
    #[inline(always)]
    pub(super) fn ascii(&mut self, w: &str) {
        debug_assert!(w.is_ascii());
        self.begin(w.len());
        self.out.push_str(w);
    }

    /// A comment, wrapped at its spaces: `{ a b c }` (`{ ` and ` }` stay with their words).
    pub(super) fn comment(&mut self, c: &str) {
        // Most comments (clocks, evals) are single-spaced and fit on the current line:
        // written at once, as the word-by-word path would write them.
        let trimmed = c.trim_ascii();
        if self.open == 0
            && !trimmed.is_empty()
            && self.col + 1 + trimmed.len() + 4 <= self.width
            && single_spaced(trimmed.as_bytes())
        {
            if self.col > 0 {
                self.out.push(' ');
                self.col += 1;
            }
            self.out.push_str("{ ");
            self.out.push_str(trimmed);
            self.out.push_str(" }");
            self.col += trimmed.len() + 4;
            return;
        }
        if !trimmed.is_empty() && single_spaced(trimmed.as_bytes()) {
            self.single_spaced_units(trimmed);
            return;
        }
        self.comment_words(c);
    }

    /// A single-spaced, non-empty comment that does not fit on the line (or follows a
    /// waiting parenthesis), written unit by unit as [`CommentWords`] cuts it: its words
    /// are the slices between single spaces, and a command runs from the word that
    /// opens it to the first that holds a `]`.
    fn single_spaced_units(&mut self, t: &str) {
        let b = t.as_bytes();
        let word_end = |from: usize| memchr::memchr(b' ', &b[from..]).map_or(b.len(), |n| from + n);
        let mut start = 0;
        loop {
            let mut end = word_end(start);
            if opens_command(&b[start..end]) {
                while end < b.len() {
                    let from = end + 1;
                    end = word_end(from);
                    if memchr::memchr(b']', &b[from..end]).is_some() {
                        break;
                    }
                }
            }
            let last = end >= b.len();
            self.parts(
                if start == 0 { "{ " } else { "" },
                &t[start..end],
                if last { " }" } else { "" },
            );
            if last {
                return;
            }
            start = end + 1;
        }
    }

    /// A comment written word by word ([`CommentWords`]), whatever its white space: the
    /// general path, which [`Wrap::comment`]'s shortcut must agree with.
    pub(super) fn comment_words(&mut self, c: &str) {
        let mut words = CommentWords { rest: c }.peekable();
        let mut first = true;
        if words.peek().is_none() {
            self.word("{}");
            return;
        }
        while let Some(w) = words.next() {
            let last = words.peek().is_none();
            self.parts(
                if first { "{ " } else { "" },
                &w,
                if last { " }" } else { "" },
            );
            first = false;
        }
    }
}

/// The words of a comment as lines may break between them: a command (`[%clk 0:05:00]`,
/// `[%cal Ge2e4,Gd2d4]`) is one, its words joined by single spaces (borrowed from the
/// comment when they are single-spaced there).
pub(super) struct CommentWords<'a> {
    pub(super) rest: &'a str,
}

impl<'a> Iterator for CommentWords<'a> {
    type Item = std::borrow::Cow<'a, str>;

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.rest.as_bytes();
        let word_end = |from: usize| {
            b[from..]
                .iter()
                .position(u8::is_ascii_whitespace)
                .map_or(b.len(), |n| from + n)
        };
        let start = b.iter().position(|c| !c.is_ascii_whitespace())?;
        let mut end = word_end(start);
        let mut single = true;
        if opens_command(&b[start..end]) {
            while end < b.len() {
                let Some(next) = b[end..].iter().position(|c| !c.is_ascii_whitespace()) else {
                    break;
                };
                single &= next == 1 && b[end] == b' ';
                let from = end + next;
                end = word_end(from);
                if memchr::memchr(b']', &b[from..end]).is_some() {
                    break;
                }
            }
        }
        let unit = &self.rest[start..end];
        self.rest = &self.rest[end..];
        Some(if single {
            std::borrow::Cow::Borrowed(unit)
        } else {
            std::borrow::Cow::Owned(unit.split_ascii_whitespace().collect::<Vec<_>>().join(" "))
        })
    }
}

/// Whether a comment's word opens a command that it does not close: its last `[` starts
/// `[%` and no `]` follows (a command runs from its `[%` to the `]` that closes it).
#[inline]
fn opens_command(w: &[u8]) -> bool {
    memchr::memrchr(b'[', w)
        .is_some_and(|i| w.get(i + 1) == Some(&b'%') && memchr::memchr(b']', &w[i..]).is_none())
}

/// Whether `b` is ASCII without control characters but DEL, its spaces single: then its
/// words are what `split_ascii_whitespace` finds, and it is written as they would be.
///
/// Eight bytes at a time (a comment is read once per ply of most archives): a byte's high
/// bit in a word's masks says whether it is at least 0x80, below a space, or a space.
#[inline]
pub(super) fn single_spaced(b: &[u8]) -> bool {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = !LOW;
    const SPACES: u64 = 0x2020_2020_2020_2020;
    // Whether eight bytes are fine, given whether the byte before them was a space (bit
    // 63, as a word's last byte); and whether their last byte is one.
    let ok = |x: u64, space_before: u64| {
        // With every byte below 0x80, adding 0x60 carries into its high bit exactly for
        // the bytes from 0x20 up; and a space's XOR with 0x20 is zero.
        let below_space = !((x & LOW) + (LOW - SPACES + 0x0101_0101_0101_0101)) & HIGH;
        let y = x ^ SPACES;
        let spaces = !(((y & LOW) + LOW) | y) & HIGH;
        let bad = x & HIGH | below_space | spaces & (spaces << 8 | space_before >> 56);
        (bad == 0, spaces & (1 << 63))
    };
    let mut space_before = 0;
    let mut chunks = b.chunks_exact(8);
    for chunk in &mut chunks {
        let fine;
        (fine, space_before) = ok(
            u64::from_le_bytes(chunk.try_into().expect("eight bytes")),
            space_before,
        );
        if !fine {
            return false;
        }
    }
    if chunks.remainder().is_empty() {
        return true;
    }
    if let Some(tail) = b.last_chunk::<8>() {
        // The last eight bytes, overlapping those read (not copied out to a padded word):
        // the pair across the overlap was read with the chunks, so no space is carried.
        return ok(u64::from_le_bytes(*tail), 0).0;
    }
    // Fewer than eight bytes, padded with a letter.
    let rest = chunks.remainder();
    let mut last = [b'x'; 8];
    last[..rest.len()].copy_from_slice(rest);
    ok(u64::from_le_bytes(last), 0).0
}
