//! The search for a *sync point*: a line start that the whole-file splitter is bound to
//! start a game at (see [`super::part`]), fed the text as it is read, in any pieces.

use super::token::{known_lead, starts_with_tag, trim_blank_start};

/// A tag line is looked at in its first this many bytes.
const PREFIX: usize = 1024;

/// A search for a sync point, fed the text as it is read. Lines end at LF, CRLF or a
/// lone CR, as the splitter counts them.
#[derive(Debug)]
pub(super) struct SyncScan {
    /// The search starts at the first line end at or after this offset.
    from: u64,
    armed: bool,
    /// The current line: where it starts, its first bytes, and its length so far.
    line_start: u64,
    prefix: Vec<u8>,
    prefix_done: bool,
    len: u64,
    /// The last byte read was a CR that ended a line: an LF right after it is that
    /// line's end too (a CRLF read in two pieces).
    after_cr: bool,
    /// The current line is the one a break cut: its bytes start inside some line.
    cut: bool,
    evidence: Evidence,
    found: Option<u64>,
}

/// What the lines before the current one show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Evidence {
    Nothing,
    /// The last line was movetext.
    Movetext,
    /// Blank lines after a line of movetext.
    Blank,
}

/// Where the line after the line end at `n` of `bytes` starts (after its LF, CRLF or
/// lone CR), and whether that is not yet known: a CR that is the last byte may be the
/// first half of a CRLF.
fn after_line_end(bytes: &[u8], n: usize) -> (usize, bool) {
    match (bytes[n], bytes.get(n + 1)) {
        (b'\r', Some(b'\n')) => (n + 2, false),
        (b'\r', None) => (n + 1, true),
        _ => (n + 1, false),
    }
}

impl SyncScan {
    pub(crate) fn new(from: u64) -> SyncScan {
        SyncScan {
            from,
            armed: false,
            line_start: 0,
            prefix: Vec::new(),
            prefix_done: false,
            len: 0,
            after_cr: false,
            cut: false,
            evidence: Evidence::Nothing,
            found: None,
        }
    }

    /// A search that starts where the text breaks (a damaged frame stepped over): the
    /// line the break cuts is judged by its bytes after the break, as a line of its own,
    /// save that a `%`, a `;` or a `[` that starts no tag is not taken for an escape, a
    /// line comment or a tag line there: they are bytes from inside a line (Lichess's
    /// `[%clk 0:03:00]` cut after its `[`), most likely of movetext.
    pub(crate) fn at_break(at: u64) -> SyncScan {
        let mut scan = SyncScan::new(at);
        scan.armed = true;
        scan.cut = true;
        scan.start_line(at);
        scan
    }

    /// The sync point, once found.
    pub(crate) fn found(&self) -> Option<u64> {
        self.found
    }

    /// Where the bytes that may still turn out to be the sync point start.
    pub(crate) fn hold_from(&self) -> Option<u64> {
        (self.armed && self.evidence == Evidence::Blank).then_some(self.line_start)
    }

    fn start_line(&mut self, at: u64) {
        self.line_start = at;
        self.prefix.clear();
        self.prefix_done = false;
        self.len = 0;
    }

    /// Reads `bytes`, which start at text offset `offset`; stops at the sync point.
    pub(crate) fn feed(&mut self, bytes: &[u8], offset: u64) {
        if self.found.is_some() || bytes.is_empty() {
            return;
        }
        let mut i = 0;
        if std::mem::take(&mut self.after_cr) && bytes[0] == b'\n' {
            // The LF of a CRLF whose CR ended the last piece: the line starts after it.
            i = 1;
            if self.armed {
                self.line_start = offset + 1;
            }
        }
        if !self.armed {
            let skip = (self.from.saturating_sub(offset).min(bytes.len() as u64) as usize).max(i);
            let Some(n) = memchr::memchr2(b'\n', b'\r', &bytes[skip..]) else {
                return;
            };
            let (next, open) = after_line_end(bytes, skip + n);
            self.armed = true;
            self.after_cr = open;
            i = next;
            self.start_line(offset + i as u64);
        }
        while i < bytes.len() {
            let end = memchr::memchr2(b'\n', b'\r', &bytes[i..]).map(|n| i + n);
            self.take_piece(&bytes[i..end.unwrap_or(bytes.len())], end.is_some());
            if self.decide(false) {
                return;
            }
            let Some(n) = end else { break };
            self.end_line();
            let (next, open) = after_line_end(bytes, n);
            self.after_cr = open;
            i = next;
            self.start_line(offset + i as u64);
        }
    }

    /// The end of the text: its last line ends there.
    pub(crate) fn finish(&mut self) {
        if self.found.is_none() && self.armed && self.len > 0 {
            self.decide(true);
        }
    }

    /// Reads a piece of the current line (no line end in it), and whether a line end
    /// follows it.
    fn take_piece(&mut self, piece: &[u8], ends_line: bool) {
        if !self.prefix_done {
            let room = PREFIX - self.prefix.len();
            self.prefix
                .extend_from_slice(&piece[..piece.len().min(room)]);
            self.prefix_done = ends_line || self.prefix.len() == PREFIX;
        }
        self.len += piece.len() as u64;
    }

    /// Decides whether the current line is the sync point, once its prefix is read (or
    /// the text has ended); `true` when it is.
    fn decide(&mut self, at_end: bool) -> bool {
        if self.evidence != Evidence::Blank || !(self.prefix_done || at_end) {
            return false;
        }
        // The line's first byte is its `[`: a byte-order mark or blank before it would be
        // stripped by a part's splitter and kept by the whole file's.
        if self.prefix.first() == Some(&b'[') && starts_with_tag(&self.prefix) {
            self.found = Some(self.line_start);
            return true;
        }
        // Not a tag line: it is read to its end as any other.
        false
    }

    fn end_line(&mut self) {
        let whole = self.len as usize <= PREFIX;
        // A longer line's rest is not known: it is blank when the whole line was looked
        // at, and the first bytes of a byte-order mark at the prefix's end tell nothing
        // (the line's first byte is after the mark).
        let lead = match whole {
            true => trim_blank_start(&self.prefix).first().copied(),
            false => known_lead(&self.prefix),
        };
        let blank = whole && lead.is_none();
        let cut = std::mem::take(&mut self.cut);
        self.evidence = match (blank, lead) {
            (true, _) => match self.evidence {
                Evidence::Nothing => Evidence::Nothing,
                _ => Evidence::Blank,
            },
            // Inside a line a break cut, only a tag says the line is not movetext.
            (false, Some(b'[' | b'%' | b';'))
                if cut && !starts_with_tag(trim_blank_start(&self.prefix)) =>
            {
                Evidence::Movetext
            }
            (false, Some(b'[' | b'%' | b';')) | (false, None) => Evidence::Nothing,
            (false, Some(_)) => Evidence::Movetext,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::SyncScan;

    /// Where a sync point is found does not depend on how the text comes in pieces: a
    /// line end read on its own ends the line's prefix too.
    /// Lines end at LF, CRLF or a lone CR, as the splitter's do.
    #[test]
    fn a_sync_point_is_found_whatever_the_pieces() {
        let lf = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 *\n";
        let texts = [
            lf.to_owned(),
            lf.replace('\n', "\r\n"),
            lf.replace('\n', "\r"),
            // A lone CR then a CRLF: the blank line between them.
            lf.replace("*\n\n", "*\r\r\n"),
        ];
        for text in &texts {
            let at = text.find("[Event \"b\"]").unwrap() as u64;
            for name in ["new", "at_break"] {
                for piece in 1..text.len() {
                    let found = found_in(text.as_bytes(), name, piece);
                    assert_eq!(found, Some(at), "{text:?}, {name}, pieces of {piece}");
                }
            }
        }
    }

    /// Where a scan fed `text` in pieces of `piece` bytes finds its sync point.
    fn found_in(text: &[u8], name: &str, piece: usize) -> Option<u64> {
        let mut scan = match name {
            "new" => SyncScan::new(0),
            _ => SyncScan::at_break(0),
        };
        for (i, chunk) in text.chunks(piece).enumerate() {
            scan.feed(chunk, (i * piece) as u64);
        }
        scan.finish();
        scan.found()
    }

    /// No sync point where the lines as the splitter counts them show none: no blank
    /// line (a CR then an LF with a byte between them is two line ends, `\r \n` a blank
    /// line), a line after a tag line, a line of white space longer than is looked at.
    #[test]
    fn no_sync_point_without_the_evidence() {
        for (text, sync) in [
            ("1. e4 *\r[Event \"b\"]\r", false),
            ("1. e4 *\r\n[Event \"b\"]\r\n", false),
            ("1. e4 *\r \n[Event \"b\"]\n", true),
            ("[Event \"a\"]\r\r[Event \"b\"]\r", false),
            ("1. e4 *\r\r[Event \"b\"] x\r", true),
            (
                &format!("1. e4 *\r{}\r[Event \"b\"]\r", " ".repeat(1024)),
                true,
            ),
            (
                &format!("1. e4 *\r{}\r[Event \"b\"]\r", " ".repeat(1025)),
                false,
            ),
            // A tag line whose byte-order mark the prefix cuts (after 1,022 or 1,023
            // spaces) is not movetext; one whose movetext is in the prefix is.
            (&bom_line(1022, "[Site \"x\"]"), false),
            (&bom_line(1023, "[Site \"x\"]"), false),
            (&bom_line(1021, "1. e4 *"), false),
            (&bom_line(1020, "1. e4 *"), true),
        ] {
            let at = text.find("[Event \"b\"]").unwrap() as u64;
            for piece in [1, 2, 3, 1 << 12] {
                let found = found_in(text.as_bytes(), "at_break", piece);
                assert_eq!(found, sync.then_some(at), "{text:?} in pieces of {piece}");
            }
        }
    }

    /// The line a break cuts is most likely movetext when its bytes after the break
    /// start with `%`, `;` or a `[` that starts no tag (Lichess's `{ [%clk 0:03:00] }`
    /// cut after or before its `[`): the game after the blank line that ends it is the
    /// sync point, not the one after. A cut line that starts as a tag line does not
    /// count as movetext, nor does any such line after the cut one.
    #[test]
    fn the_line_a_break_cuts_is_movetext_whatever_its_first_byte() {
        let next = "\n\n[Event \"b\"]\n\n1. d4 *\n\n[Event \"c\"]\n";
        for (cut, found) in [
            ("%clk 0:02:51] } 19... Qg5 1-0", "b"),
            ("[%clk 0:02:51] } 19... Qg5 1-0", "b"),
            ("; a line comment's end", "b"),
            ("[ 0:02:51] } 1-0", "b"),
            ("Qg5 { [%clk 0:02:51] } 1-0", "b"),
            ("[Site \"x\"]", "c"),
            ("[Event \"a\"]", "c"),
            ("1-0\n%escape", "c"),
            ("1-0\n[%clk 0:02:51]", "c"),
        ] {
            let text = format!("{cut}{next}");
            let at = text.find(&format!("[Event \"{found}\"]")).unwrap() as u64;
            for piece in [1, 2, 5, 1 << 12] {
                let found = found_in(text.as_bytes(), "at_break", piece);
                assert_eq!(found, Some(at), "{text:?} in pieces of {piece}");
            }
        }
    }

    /// A line of `spaces` spaces, a byte-order mark and `rest`, then a blank line and a
    /// tag line, after a tag line.
    fn bom_line(spaces: usize, rest: &str) -> String {
        let line = format!("{}\u{feff}{rest}", " ".repeat(spaces));
        format!("[Event \"a\"]\r{line}\r\r[Event \"b\"]\r")
    }

    /// The search starts at the first line end at or after its offset: a CRLF across
    /// that offset, or across two pieces, is one line end.
    #[test]
    fn the_search_starts_after_the_first_line_end() {
        let text = b"x\r\n1. e4 *\r\n\r\n[Event \"b\"]\r\n";
        for from in 0..text.len() as u64 {
            // From the first line's end (its CR or its LF), the movetext line is read
            // whole; from further on, the blank line is not known to follow movetext.
            let expected = (from <= 2).then_some(14);
            for piece in 1..text.len() {
                let mut scan = SyncScan::new(from);
                for (i, chunk) in text.chunks(piece).enumerate() {
                    scan.feed(chunk, (i * piece) as u64);
                }
                scan.finish();
                assert_eq!(scan.found(), expected, "from {from}, pieces of {piece}");
            }
        }
    }
}
