//! A movetext and tag tokenizer for PGN and BPGN with exact positions.
//!
//! Every token keeps its byte offset in the game, so a problem can name its line and
//! column and quote the raw text. Nothing is skipped: text that is not a token of the
//! grammar comes out as [`TokenKind::Unknown`] with the reason.
//!
//! ```text
//! token       = tag / comment / line-comment / escape / nag / "(" / ")" / result
//!             / move-number / move
//! tag         = "[" name ws DQUOTE *(char / "\" DQUOTE / "\\") DQUOTE ws "]"
//! comment     = "{" *(not "}") "}"
//! line-comment= ";" *(not EOL)          escape = "%" *(not EOL)   ; at a line start
//! nag         = "$" 1*DIGIT
//! result      = "1-0" / "0-1" / "1/2-1/2" / "*"
//! move-number = 1*DIGIT [ "A" / "a" / "B" / "b" ] *"."   ; BPGN boards after the number
//! move        = 1*(not delimiter)       ; delimiters: whitespace ( ) { } [ ] ;
//! ```

mod tag;

use tag::{TagSpan, tag_pair};

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind<'a> {
    /// A tag pair; the value is raw (escapes not resolved).
    Tag {
        /// The tag's name.
        name: &'a str,
        /// The tag's value as written (escapes unresolved).
        value: &'a str,
    },
    /// `12.`, `12...`, `12A.` (BPGN).
    MoveNumber(&'a str),
    /// A move token (SAN or anything else that is not a delimiter).
    Move(&'a str),
    /// A tag line whose value holds quotes that are not escaped (`[White ""Socrates
    /// Expert""]`): read loosely, the value everything between the first quote and the
    /// last (see [`TokenKind::Tag`]).
    LooseTag {
        /// The tag's name.
        name: &'a str,
        /// The value as written, its unescaped quotes in it.
        value: &'a str,
    },
    /// A numeric annotation glyph (`$1`).
    Nag(&'a str),
    /// A `{…}` comment (inner text).
    Comment(&'a str),
    /// A `;` comment or a `%` escape line.
    LineComment(&'a str),
    /// `(`
    VariationStart,
    /// `)`
    VariationEnd,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` (the token's text may spell it otherwise: `1–0`).
    Result(&'a str),
    /// Text the grammar does not allow here, and why.
    Unknown(&'a str, &'static str),
}

/// A token and its place in the game text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    /// What the token is.
    pub kind: TokenKind<'a>,
    /// Byte offset of the token's first byte in the game text.
    pub offset: usize,
    /// The token's raw text.
    pub text: &'a str,
}

/// `bytes` without the white space at its start: ASCII white space and byte-order marks
/// (U+FEFF, `EF BB BF`), which stand between games when files are joined.
pub(crate) fn trim_blank_start(mut bytes: &[u8]) -> &[u8] {
    loop {
        bytes = bytes.trim_ascii_start();
        match bytes.strip_prefix(b"\xef\xbb\xbf") {
            Some(rest) => bytes = rest,
            None => return bytes,
        }
    }
}

/// The first byte of a line read so far that is not white space, once it is known: the
/// first bytes of a byte-order mark, at the end of what has been read, may yet be one.
pub(crate) fn known_lead(bytes: &[u8]) -> Option<u8> {
    let rest = trim_blank_start(bytes);
    if rest.len() < 3 && b"\xef\xbb\xbf".starts_with(rest) {
        return None;
    }
    rest.first().copied()
}

/// Reads whole lines of a tag section, handing each tag's name to `name`; returns whether
/// the section may go on after them (they hold nothing but tags, comment lines and
/// blanks). Lines read this way, a few at a time, give the names that the whole section
/// read at once gives.
pub(crate) fn tag_lines(text: &str, mut name: impl FnMut(&str)) -> bool {
    let mut tokens = Tokenizer::new(text);
    tokens.tag_section(|n, _, _| name(n));
    tokens.all(|t| matches!(t.kind, TokenKind::LineComment(_)))
}

/// A tag line whose value holds quotes that are not escaped (`[White ""Socrates
/// Expert""]`, as Lichess's study exports write a name in quotes): `line` (up to its end)
/// is `[`, a name and a `"`, and ends with `"` and `]`; the value is everything between
/// the first quote and the last. [`tag_pair`] tells it from a well-formed one.
fn loose_tag(line: &[u8]) -> Option<TagSpan> {
    let line = line.trim_ascii_end();
    let inner = line
        .strip_prefix(b"[")?
        .strip_suffix(b"]")?
        .trim_ascii_end();
    let name_start = 1 + inner.len() - inner.trim_ascii_start().len();
    let name_len = line[name_start..]
        .iter()
        .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
        .count();
    if name_len == 0 {
        return None;
    }
    let name = name_start..name_start + name_len;
    let after = &line[name.end..];
    let open = name.end + after.len() - after.trim_ascii_start().len();
    let close = 1 + inner.len() - 1;
    if line.get(open) != Some(&b'"') || close <= open || line[close] != b'"' {
        return None;
    }
    Some(TagSpan {
        len: line.len(),
        name,
        value: open + 1..close,
    })
}

/// Whether a tag's raw value was read by [`loose_tag`]: it holds a quote that no
/// backslash escapes, or ends in a backslash that escapes nothing (a well-formed value
/// has neither). A scan of the value alone: the tag is not parsed again.
pub(crate) fn is_loose_value(value: &str) -> bool {
    let mut escaped = false;
    for &b in value.as_bytes() {
        if escaped {
            escaped = false;
        } else if b == b'\\' {
            escaped = true;
        } else if b == b'"' {
            return true;
        }
    }
    escaped
}

/// Whether `line` begins, after blanks, with a whole tag pair.
pub(crate) fn starts_with_tag(line: &[u8]) -> bool {
    tag_pair(trim_blank_start(line), true).is_some()
}

/// The end of the `move-number` at `start`, if one stands there: digits, an optional
/// BPGN board letter, then dots (or a delimiter right after the digits).
#[inline]
fn move_number_end(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i < b.len() && matches!(b[i], b'A' | b'a' | b'B' | b'b') {
        i += 1;
    }
    let dots = i;
    while i < b.len() && b[i] == b'.' {
        i += 1;
    }
    (i > dots || i == b.len() || delimiter_at(b, i)).then_some(i)
}

/// Iterates the tokens of one game's text.
#[derive(Debug, Clone)]
pub struct Tokenizer<'a> {
    text: &'a str,
    pos: usize,
    /// Whether the text holds a CR or a byte `EF` (which may start a BOM): only then do
    /// tokens need the checks for lone CRs and BOMs (one scan of the game for both is
    /// cheaper than checking at every token).
    special: bool,
    /// Tag lines read loosely so far ([`loose_tag`]: unescaped quotes in the value).
    loose_tags: usize,
}

impl<'a> Tokenizer<'a> {
    /// How many tag lines were read loosely so far: their values hold quotes that are
    /// not escaped ([`is_loose_value`] tells which).
    pub(crate) fn loose_tags(&self) -> usize {
        self.loose_tags
    }

    /// The text not read yet.
    pub(crate) fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    /// Tokenizes `text`, a game's tags and movetext.
    pub fn new(text: &'a str) -> Tokenizer<'a> {
        let special = memchr::memchr2(b'\r', 0xef, text.as_bytes()).is_some();
        Tokenizer {
            text,
            pos: 0,
            special,
            loose_tags: 0,
        }
    }

    /// The next token if `keep` accepts it (else the tokenizer stays where it was).
    pub fn next_if(&mut self, keep: impl FnOnce(&Token<'a>) -> bool) -> Option<Token<'a>> {
        let before = self.pos;
        let t = self.next()?;
        if keep(&t) {
            Some(t)
        } else {
            self.pos = before;
            None
        }
    }

    /// Reads the tag section (tags, and `;`/`%` comment lines between them), handing each
    /// tag's name, raw value and offset to `tag`; stops before the first movetext token
    /// (the `;` comments after the last tag are movetext's).
    /// Returns the name and offset of the first tag after a blank line, if one follows a
    /// blank line inside the section.
    pub fn tag_section(
        &mut self,
        mut tag: impl FnMut(&'a str, &'a str, usize),
    ) -> Option<(&'a str, usize)> {
        let mut after_blank = None;
        // Where the previous token ended (a blank line lies between it and the next).
        let mut previous_end = None;
        // Where the `;` comments after the last tag begin: they belong to the movetext
        // (a comment before the first move), and are read again as its first tokens.
        let mut trailing = None;
        loop {
            let before = self.pos;
            let Some(t) = self.next_if(|t| match t.kind {
                TokenKind::Tag { .. } | TokenKind::LineComment(_) => true,
                // A tag line with unescaped quotes, read loosely below.
                TokenKind::Unknown(text, _) => text.starts_with('['),
                _ => false,
            }) else {
                break;
            };
            let t = match t.kind {
                TokenKind::Unknown(text, _) => match loose_tag(text.as_bytes()) {
                    Some(tag) => Token {
                        kind: TokenKind::LooseTag {
                            name: &text[tag.name],
                            value: &text[tag.value],
                        },
                        ..t
                    },
                    None => {
                        self.pos = before;
                        break;
                    }
                },
                _ => t,
            };
            if matches!(t.kind, TokenKind::LineComment(_)) {
                trailing.get_or_insert(before);
            } else {
                trailing = None;
            }
            let tag_of = match t.kind {
                TokenKind::Tag { name, value } => Some((name, value)),
                TokenKind::LooseTag { name, value } => {
                    self.loose_tags += 1;
                    Some((name, value))
                }
                _ => None,
            };
            if let Some((name, value)) = tag_of {
                if let Some(end) = previous_end
                    && after_blank.is_none()
                    && has_blank_line(&self.text.as_bytes()[end..t.offset])
                {
                    after_blank = Some((name, t.offset));
                }
                tag(name, value, t.offset);
            }
            previous_end = Some(t.offset + t.text.len());
        }
        if let Some(at) = trailing {
            self.pos = at;
        }
        after_blank
    }

    fn at_line_start(&self, offset: usize) -> bool {
        self.text[..offset]
            .chars()
            .rev()
            .take_while(|&c| c != '\n' && c != '\r')
            .all(|c| c == ' ' || c == '\t' || c == BOM)
    }
}

/// Whether `gap` (the white space between two tokens) holds a blank line: two line ends
/// (LF, CRLF or CR) with only white space between them.
fn has_blank_line(gap: &[u8]) -> bool {
    if gap.len() < 2 {
        return false;
    }
    let mut ends = 0;
    let mut i = 0;
    while i < gap.len() {
        match gap[i] {
            b'\r' if gap.get(i + 1) == Some(&b'\n') => {}
            b'\n' | b'\r' => {
                ends += 1;
                if ends == 2 {
                    return true;
                }
            }
            b' ' | b'\t' | 0x0c => {}
            _ if bom_at(gap, i) => i += 2,
            _ => ends = 0,
        }
        i += 1;
    }
    false
}

/// The byte-order mark, U+FEFF: white space between tokens and games (files joined with
/// `cat`, text pasted from an editor).
const BOM: char = '\u{feff}';

/// Whether a BOM's three bytes (`EF BB BF`) start at `i`.
#[inline]
fn bom_at(b: &[u8], i: usize) -> bool {
    i + 2 < b.len() && b[i] == 0xef && b[i + 1] == 0xbb && b[i + 2] == 0xbf
}

/// Bytes that end a move token: ASCII whitespace and `( ) { } [ ] ;`, and the first byte
/// of a BOM (a delimiter only when the whole BOM follows: see [`token_end`]).
static DELIMITER: [bool; 256] = {
    let mut t = [false; 256];
    let list = b" \t\n\r\x0c(){}[];\xef";
    let mut i = 0;
    while i < list.len() {
        t[list[i] as usize] = true;
        i += 1;
    }
    t
};

/// Whether the byte at `i` starts a delimiter.
#[inline]
fn delimiter_at(b: &[u8], i: usize) -> bool {
    DELIMITER[b[i] as usize] && (b[i] != 0xef || bom_at(b, i))
}

/// The end of the run of bytes from `from` that are not delimiters.
#[inline]
fn token_end(b: &[u8], from: usize) -> usize {
    let mut i = from;
    loop {
        while i < b.len() && !DELIMITER[b[i] as usize] {
            i += 1;
        }
        // `EF` that starts no BOM is part of the token.
        if i < b.len() && b[i] == 0xef && !bom_at(b, i) {
            i += 1;
            continue;
        }
        return i;
    }
}

/// The end of the ASCII white space at `from` (a text without BOMs).
#[inline]
fn ascii_blank_end(b: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The end of the white space at `from`: ASCII white space and BOMs.
#[inline]
fn blank_end(b: &[u8], from: usize) -> usize {
    let mut i = from;
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i < b.len() && b[i] == 0xef && bom_at(b, i) {
            i += 3;
        } else {
            return i;
        }
    }
}

/// The length of a clock comment as Lichess writes it, `{ [%clk 0:03:00] }`.
const CLOCK_COMMENT_LEN: usize = 18;

/// Whether `b[at..]` starts with a clock comment as Lichess writes it,
/// `{ [%clk H:MM:SS] }`: its first eight bytes as they are, then each of the next eight
/// as it is (`:`, `]`) or, at a digit's place, with a high half of 3 (`0` to `?`, never
/// `}`), then ` }`. The comment's first `}` is then its last byte, as a search finds it.
#[inline(always)]
fn clock_comment_at(b: &[u8], at: usize) -> bool {
    const HEAD: u64 = u64::from_le_bytes(*b"{ [%clk ");
    // `0:00:00]` with each digit's low half cleared, and the mask that clears them.
    const TIME: u64 = u64::from_le_bytes(*b"0:00:00]");
    const MASK: u64 = u64::from_le_bytes([0xf0, 0xff, 0xf0, 0xf0, 0xff, 0xf0, 0xf0, 0xff]);
    let Some(c) = b.get(at..at + CLOCK_COMMENT_LEN) else {
        return false;
    };
    let word = |i: usize| u64::from_le_bytes(c[i..i + 8].try_into().expect("eight bytes"));
    word(0) == HEAD && word(8) & MASK == TIME && c[16..] == *b" }"
}

/// `text[from..to]` without the checks of `str` slicing, for the tokenizer's hot arms:
/// its ends are always character boundaries, because each is the text's start or end,
/// the place of an ASCII byte (a delimiter, a quote, a brace, a line end), the place
/// right after one, or a byte `EF` that starts a character (see [`token_end`]), and
/// every token starts where white space or the token before it ended. The checks cost
/// about 6 % of `validate`'s instructions (two to four slices a token). Debug builds,
/// the tests and the fuzz targets (`fuzz/run`, built with debug assertions) check it.
#[inline(always)]
fn piece(text: &str, from: usize, to: usize) -> &str {
    debug_assert!(from <= to && text.is_char_boundary(from) && text.is_char_boundary(to));
    // SAFETY: `from <= to <= text.len()`, and both are character boundaries (above).
    unsafe { text.get_unchecked(from..to) }
}

impl<'a> Iterator for Tokenizer<'a> {
    type Item = Token<'a>;

    #[inline(always)]
    fn next(&mut self) -> Option<Token<'a>> {
        let b = self.text.as_bytes();
        let special = self.special;
        let start = if special {
            blank_end(b, self.pos)
        } else {
            ascii_blank_end(b, self.pos)
        };
        let Some(&first) = b.get(start) else {
            self.pos = start;
            return None;
        };
        let line_end = |from: usize| {
            let found = if special {
                memchr::memchr2(b'\n', b'\r', &b[from..])
            } else {
                memchr::memchr(b'\n', &b[from..])
            };
            found.map_or(b.len(), |n| from + n)
        };

        // The common tokens first: moves, `{…}` comments and move numbers.
        let (end, kind): (usize, TokenKind<'a>) = match first {
            b'a'..=b'z' | b'A'..=b'Z' | b'@' | b'-' => {
                let end = token_end(b, start + 1);
                (end, TokenKind::Move(piece(self.text, start, end)))
            }
            // Lichess's clock comment, `{ [%clk 0:03:00] }`, recognised by its shape
            // before a search for its `}`.
            b'{' if clock_comment_at(b, start) => (
                start + CLOCK_COMMENT_LEN,
                TokenKind::Comment(piece(self.text, start + 1, start + CLOCK_COMMENT_LEN - 1)),
            ),
            b'{' => match memchr::memchr(b'}', &b[start + 1..]) {
                Some(n) => (
                    start + n + 2,
                    TokenKind::Comment(piece(self.text, start + 1, start + 1 + n)),
                ),
                None => (
                    b.len(),
                    TokenKind::Unknown(&self.text[start..], "a `}` closing this comment"),
                ),
            },
            b'0'..=b'9' | b'*' => {
                let end = token_end(b, start + 1);
                let t = piece(self.text, start, end);
                match t {
                    "1-0" | "0-1" | "1/2-1/2" | "*" => (end, TokenKind::Result(t)),
                    // Read before move numbers, which it starts like.
                    "0.5-0.5" => (end, TokenKind::Result("1/2-1/2")),
                    _ => match move_number_end(b, start) {
                        Some(n) => (n, TokenKind::MoveNumber(piece(self.text, start, n))),
                        None => match read_result(t) {
                            // `1–0`, `0—1`, …
                            Some(r) => (end, TokenKind::Result(r)),
                            None => (end, TokenKind::Move(t)),
                        },
                    },
                }
            }
            b'}' => (
                start + 1,
                TokenKind::Unknown(
                    &self.text[start..start + 1],
                    "no `}` without an opening `{`",
                ),
            ),
            b';' => {
                let end = line_end(start);
                (end, TokenKind::LineComment(&self.text[start + 1..end]))
            }
            b'%' if self.at_line_start(start) => {
                let end = line_end(start);
                (end, TokenKind::LineComment(&self.text[start + 1..end]))
            }
            b'(' => (start + 1, TokenKind::VariationStart),
            b')' => (start + 1, TokenKind::VariationEnd),
            b'[' => match tag_pair(&b[start..], special) {
                Some(tag) => (
                    start + tag.len,
                    TokenKind::Tag {
                        name: piece(self.text, start + tag.name.start, start + tag.name.end),
                        value: piece(self.text, start + tag.value.start, start + tag.value.end),
                    },
                ),
                None => {
                    // (A tag line with unescaped quotes is read as one by the tag
                    // section, out of this hot path: `tag_section`.)
                    let end = line_end(start);
                    (
                        end,
                        TokenKind::Unknown(&self.text[start..end], "a tag `[Name \"value\"]`"),
                    )
                }
            },
            b'$' => {
                let end = token_end(b, start + 1);
                let t = &self.text[start..end];
                if end > start + 1 && b[start + 1..end].iter().all(u8::is_ascii_digit) {
                    (end, TokenKind::Nag(t))
                } else {
                    (end, TokenKind::Move(t))
                }
            }
            _ => {
                let end = token_end(b, start).max(start + first_char_len(first));
                let t = &self.text[start..end];
                match read_result(t) {
                    // `½-½`.
                    Some(r) if first == 0xc2 => (end, TokenKind::Result(r)),
                    _ => (end, TokenKind::Move(t)),
                }
            }
        };
        self.pos = end;
        Some(Token {
            kind,
            offset: start,
            text: piece(self.text, start, end),
        })
    }
}

/// The result a marker or a Result tag names: PGN's `1-0`, `0-1`, `1/2-1/2` and `*`, and
/// the spellings other programs and editors leave (an en dash, em dash or minus sign for
/// the hyphen, `½` for `1/2`: `1–0`, `½-½`, which scalachess also reads; `0.5-0.5`). The
/// one list of result spellings: the archive commands and `moves` read results by it.
///
/// ```
/// use pocketfen::game::read_result;
/// assert_eq!(read_result("½-½"), Some("1/2-1/2"));
/// assert_eq!(read_result("1–0"), Some("1-0"));
/// assert_eq!(read_result("0.5-0.5"), Some("1/2-1/2"));
/// assert_eq!(read_result("1:0"), None);
/// ```
pub fn read_result(text: &str) -> Option<&'static str> {
    let canonical = |t: &str| match t {
        "1-0" => Some("1-0"),
        "0-1" => Some("0-1"),
        "1/2-1/2" | "0.5-0.5" => Some("1/2-1/2"),
        "*" => Some("*"),
        _ => None,
    };
    if text.is_ascii() {
        return canonical(text);
    }
    let dashed = text.replace(['\u{2013}', '\u{2014}', '\u{2212}'], "-");
    canonical(&dashed.replace('\u{bd}', "1/2"))
}

/// The byte length of the UTF-8 character starting with byte `lead`.
fn first_char_len(lead: u8) -> usize {
    match lead {
        0xf0..=0xff => 4,
        0xe0..=0xef => 3,
        0xc0..=0xdf => 2,
        _ => 1,
    }
}

/// Turns byte offsets into 1-based line and column (in characters), moving forward only:
/// locating every token of a text costs time linear in the text, however long its lines.
/// Lines end at LF, CRLF or a lone CR, as the splitter counts them.
#[derive(Debug)]
pub struct LineIndex<'a> {
    text: &'a str,
    first_line: usize,
    first_column: usize,
    /// The last offset located, and its line and column.
    offset: usize,
    line: usize,
    column: usize,
}

impl<'a> LineIndex<'a> {
    /// The text's first byte is on line `first_line`, at column `first_column` (1 but
    /// for a game that begins after the last one's result on its line).
    pub fn at(text: &'a str, first_line: usize, first_column: usize) -> LineIndex<'a> {
        LineIndex {
            text,
            first_line,
            first_column,
            offset: 0,
            line: first_line,
            column: first_column,
        }
    }

    /// The text it locates offsets in.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The line and column of `offset` (cheap when offsets grow between calls).
    pub fn locate(&mut self, offset: usize) -> (usize, usize) {
        if offset < self.offset {
            *self = LineIndex::at(self.text, self.first_line, self.first_column);
        }
        let offset = offset.min(self.text.len());
        let text = self.text.as_bytes();
        let seg = &text[self.offset..offset];
        let chars = |b: &[u8]| b.iter().filter(|&&c| c & 0xc0 != 0x80).count();
        // Every LF ends a line, and every CR but the one of a CRLF.
        let mut last = None;
        for n in memchr::memchr2_iter(b'\n', b'\r', seg) {
            if seg[n] == b'\r' && text.get(self.offset + n + 1) == Some(&b'\n') {
                continue;
            }
            self.line += 1;
            last = Some(n);
        }
        match last {
            Some(last) => self.column = chars(&seg[last + 1..]) + 1,
            None => self.column += chars(seg),
        }
        self.offset = offset;
        (self.line, self.column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<TokenKind<'_>> {
        Tokenizer::new(s).map(|t| t.kind).collect()
    }

    #[test]
    fn tokens_of_real_movetext() {
        let k = kinds(
            "[Event \"a \\\"b\\\"\"]\n1. e4 { [%clk 0:05:00] } 1... P@e4?! $14 (1... e5) 2.Nf3 1-0",
        );
        assert_eq!(
            k[0],
            TokenKind::Tag {
                name: "Event",
                value: "a \\\"b\\\""
            }
        );
        assert_eq!(k[1], TokenKind::MoveNumber("1."));
        assert_eq!(k[2], TokenKind::Move("e4"));
        assert_eq!(k[3], TokenKind::Comment(" [%clk 0:05:00] "));
        assert_eq!(k[4], TokenKind::MoveNumber("1..."));
        assert_eq!(k[5], TokenKind::Move("P@e4?!"));
        assert_eq!(k[6], TokenKind::Nag("$14"));
        assert_eq!(k[7], TokenKind::VariationStart);
        assert_eq!(k[10], TokenKind::VariationEnd);
        assert_eq!(k[11], TokenKind::MoveNumber("2."));
        assert_eq!(k[12], TokenKind::Move("Nf3"));
        assert_eq!(k[13], TokenKind::Result("1-0"));
    }

    #[test]
    fn a_tag_value_stays_on_its_line() {
        // Found by the `validate` fuzz target: an escaped line end let a value run on.
        let k = kinds("[TimeControl \"\\\n240+2\"]\n");
        assert!(matches!(k[0], TokenKind::Unknown(..)), "{k:?}");
        let k = kinds("[A \"x\\\\\"] [B \"\\\"q\\\"\"]");
        assert_eq!(
            k[0],
            TokenKind::Tag {
                name: "A",
                value: "x\\\\"
            }
        );
        assert_eq!(
            k[1],
            TokenKind::Tag {
                name: "B",
                value: "\\\"q\\\""
            }
        );
    }

    #[test]
    fn bpgn_numbers_and_bad_text() {
        let k = kinds("1A. e4{298.21} 1a. e5 } {open");
        assert_eq!(k[0], TokenKind::MoveNumber("1A."));
        assert_eq!(k[2], TokenKind::Comment("298.21"));
        assert_eq!(k[3], TokenKind::MoveNumber("1a."));
        assert!(matches!(k[5], TokenKind::Unknown("}", _)));
        assert!(matches!(k[6], TokenKind::Unknown("{open", _)));
    }

    /// The strings a token kind holds.
    fn parts<'a>(k: &TokenKind<'a>) -> Vec<&'a str> {
        match *k {
            TokenKind::Tag { name, value } | TokenKind::LooseTag { name, value } => {
                vec![name, value]
            }
            TokenKind::MoveNumber(s)
            | TokenKind::Move(s)
            | TokenKind::Nag(s)
            | TokenKind::Comment(s)
            | TokenKind::LineComment(s)
            | TokenKind::Unknown(s, _) => vec![s],
            TokenKind::Result(_) | TokenKind::VariationStart | TokenKind::VariationEnd => vec![],
        }
    }

    proptest::proptest! {
        /// The tokenizer slices without `str`'s checks ([`piece`]): on text full of
        /// characters of several bytes (those that start with `EF` as a BOM does among
        /// them), every token and every string of its kind is the text at its place, and
        /// only white space lies between tokens. (Debug builds also assert each slice's
        /// ends.)
        #[test]
        fn tokens_are_the_text_at_their_places(
            pieces in proptest::collection::vec(proptest::sample::select(vec![
                "e4", "N@f3", "12.", "3A.", "1...", "{", "}", "[", "]", "\"", "(", ")", ";",
                "%", "$", "$7", "1-0", "½-½", "1–0", "*", " ", "\n", "\r", "\r\n", "\t",
                "\u{feff}", "\u{f000}", "\u{fffd}", "ï", "é", "€", "😀", "[Event \"",
                "\"]", "Qx\u{ef}", "-", "@", "0", "x",
            ]), 0..40),
        ) {
            let text: String = pieces.concat();
            let blank = |s: &str| s.chars().all(|c| c.is_ascii_whitespace() || c == BOM);
            let mut last_end = 0;
            for t in Tokenizer::new(&text) {
                let end = t.offset + t.text.len();
                proptest::prop_assert_eq!(text.get(t.offset..end), Some(t.text));
                proptest::prop_assert!(blank(&text[last_end..t.offset]));
                let range = t.text.as_ptr() as usize..=t.text.as_ptr() as usize + t.text.len();
                for part in parts(&t.kind) {
                    let at = part.as_ptr() as usize;
                    proptest::prop_assert!(
                        range.contains(&at) && range.contains(&(at + part.len())),
                        "{part:?} outside {:?}", t.text
                    );
                }
                last_end = end;
            }
            proptest::prop_assert!(blank(&text[last_end..]));
        }
    }

    /// A comment read by its shape ([`clock_comment_at`]) is the one the search for its
    /// `}` reads: for every byte at every place of a clock comment (a `}` or a digit's
    /// neighbours among them), the tokens are those of the same text read with the
    /// shortcut turned off; and the shortcut takes Lichess's clocks.
    #[test]
    fn a_clock_comment_read_by_its_shape_is_the_comment_searched() {
        let searched = |text: &str| -> Vec<(usize, String)> {
            // The comment a `{` at the start opens, to its first `}`.
            let b = text.as_bytes();
            match memchr::memchr(b'}', &b[1..]) {
                Some(n) if b[0] == b'{' => vec![(0, text[1..n + 1].to_owned())],
                _ => Vec::new(),
            }
        };
        let shaped = |text: &str| -> Vec<(usize, String)> {
            match Tokenizer::new(text).next() {
                Some(Token {
                    offset,
                    kind: TokenKind::Comment(c),
                    ..
                }) => vec![(offset, c.to_owned())],
                _ => Vec::new(),
            }
        };
        let clock = *b"{ [%clk 0:03:00] } e4";
        let mut taken = 0;
        for i in 0..CLOCK_COMMENT_LEN {
            for byte in 0..=255u8 {
                let mut text = clock;
                text[i] = byte;
                let Ok(text) = std::str::from_utf8(&text) else {
                    continue;
                };
                assert_eq!(shaped(text), searched(text), "{text:?}");
                taken += usize::from(clock_comment_at(text.as_bytes(), 0));
            }
        }
        // The digits' places take the ten digits and `:;<=>?`, the others one byte.
        assert_eq!(taken, 5 * 16 + 13);
        for c in ["{ [%clk 9:59:59] }", "{ [%clk 0:00:00] }"] {
            assert!(clock_comment_at(c.as_bytes(), 0), "{c}");
        }
        for c in [
            "{ [%clk 10:00:00] }",
            "{ [%clk 0:03:00]}",
            "{ [%clk 0:03:00] ",
            "{[%clk 0:03:00] }",
        ] {
            assert!(!clock_comment_at(c.as_bytes(), 0), "{c}");
        }
    }

    #[test]
    fn lines_and_columns() {
        let text = "ab\ncé d\n";
        let mut idx = LineIndex::at(text, 10, 1);
        assert_eq!(idx.locate(0), (10, 1));
        assert_eq!(idx.locate(3), (11, 1));
        assert_eq!(idx.locate(text.find('d').unwrap()), (11, 4));
    }
}
