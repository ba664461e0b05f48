//! Whether a `{…}` comment is open at a line's end, and whether a game's text ends with
//! its result: what the splitter reads of a line besides its first byte.

/// Whether a `{…}` comment is open, read a line at a time or a piece of one at a time
/// (`;` comments and quoted tag values open none). Jumps between interesting bytes.
#[derive(Debug, Clone, Copy)]
pub(super) struct CommentScan {
    pub(super) in_comment: bool,
    in_string: bool,
    /// A `;` outside comments and strings: the rest of the line is a comment.
    rest_of_line: bool,
}

impl CommentScan {
    /// The state at a line's start.
    pub(super) fn line(in_comment: bool) -> CommentScan {
        CommentScan {
            in_comment,
            in_string: false,
            rest_of_line: false,
        }
    }

    /// Whether what comes next is outside comments (`{…}` and `;`) and quoted text.
    pub(super) fn in_text(&self) -> bool {
        !self.in_comment && !self.in_string && !self.rest_of_line
    }

    /// Reads the next piece of the line; `last` when the line ends with it (then only the
    /// comment state matters afterwards, and a piece without braces cannot change it).
    pub(super) fn feed(&mut self, line: &[u8], last: bool) {
        if self.rest_of_line {
            return;
        }
        let braces = memchr::memchr2(b'{', b'}', line).is_some();
        if !braces && (last || self.in_comment) {
            return;
        }
        let quotes_or_semicolon = memchr::memchr2(b'"', b';', line).is_some();
        if !self.in_string && !quotes_or_semicolon {
            // Comments do not nest, so the last brace decides: after a `}` no comment is
            // open, after a `{` one is (opened there or earlier).
            if let Some(n) = memchr::memrchr2(b'{', b'}', line) {
                self.in_comment = line[n] == b'{';
            }
            return;
        }
        let mut at = 0;
        while at < line.len() {
            if self.in_comment {
                match memchr::memchr(b'}', &line[at..]) {
                    Some(n) => {
                        self.in_comment = false;
                        at += n + 1;
                    }
                    None => return,
                }
            } else {
                let hit = if self.in_string {
                    memchr::memchr(b'"', &line[at..])
                } else {
                    memchr::memchr3(b'{', b'"', b';', &line[at..])
                };
                let Some(n) = hit else { return };
                at += n;
                match line[at] {
                    b'"' => self.in_string = !self.in_string,
                    b'{' => self.in_comment = true,
                    _ => {
                        self.rest_of_line = true;
                        return;
                    }
                }
                at += 1;
            }
        }
    }
}

/// Whether `text`, but for the white space after it, ends with a result (`1-0`, `0-1`,
/// `1/2-1/2`, `*`) written as a token of its own: after white space, a move number's
/// `.`, a comment's `}` or a variation's `)`, or at the start. Whether it stands in a
/// comment is the caller's question.
pub(crate) fn ends_with_result(text: &[u8]) -> bool {
    let text = text.trim_ascii_end();
    [&b"1-0"[..], b"0-1", b"1/2-1/2", b"*"].iter().any(|r| {
        text.ends_with(r)
            && text[..text.len() - r.len()]
                .last()
                .is_none_or(|b| b.is_ascii_whitespace() || matches!(b, b'.' | b'}' | b')'))
    })
}

/// Whether a `{…}` comment is open at the end of `line`, given whether one was open at its
/// start.
pub(super) fn scan_comments(in_comment: bool, line: &[u8]) -> bool {
    let mut scan = CommentScan::line(in_comment);
    scan.feed(line, true);
    scan.in_comment
}
