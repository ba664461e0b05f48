use super::*;

/// A splitter of `reader` that skips games over `max` bytes.
fn limited<R: BufRead>(reader: R, max: usize) -> GameSplitter<R> {
    GameSplitter::with_options(
        reader,
        SplitOptions {
            max_game_bytes: max,
            ..SplitOptions::default()
        },
    )
}

/// A game as the tests compare them: number, line, offset, bytes, size over the limit.
type Split = (usize, usize, u64, Vec<u8>, Option<u64>);

/// The games of `text` read in blocks of `chunk` bytes, with a limit of `max`.
fn games(text: &str, chunk: usize, max: usize) -> Vec<Split> {
    let reader = io::BufReader::with_capacity(chunk, text.as_bytes());
    limited(reader, max)
        .map(Result::unwrap)
        .map(|g| (g.number, g.line, g.offset, g.bytes, g.too_large))
        .collect()
}

fn split(s: &str) -> Vec<(usize, usize, String)> {
    GameSplitter::new(s.as_bytes())
        .map(|g| {
            let g = g.unwrap();
            (g.number, g.line, String::from_utf8(g.bytes).unwrap())
        })
        .collect()
}

/// A reader that gives `text` in blocks of `block` bytes, then fails.
struct FailsAfter {
    text: Vec<u8>,
    at: usize,
    block: usize,
}

impl io::Read for FailsAfter {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.text.len() {
            return Err(io::Error::other("the reader failed"));
        }
        let n = self.block.min(buf.len()).min(self.text.len() - self.at);
        buf[..n].copy_from_slice(&self.text[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The games handed out before the error, and whether the error came.
fn split_failing(text: &str, block: usize) -> (Vec<String>, bool) {
    let reader = io::BufReader::with_capacity(
        block,
        FailsAfter {
            text: text.as_bytes().to_vec(),
            at: 0,
            block,
        },
    );
    let mut games = GameSplitter::new(reader);
    let mut out = Vec::new();
    loop {
        match games.next_game() {
            Ok(Some(g)) => out.push(String::from_utf8(g.bytes).unwrap()),
            Ok(None) => return (out, false),
            Err(e) => {
                assert_eq!(e.to_string(), "the reader failed");
                return (out, true);
            }
        }
    }
}

#[test]
fn a_game_whose_result_was_read_comes_before_the_error() {
    for block in [1, 7, 1 << 16] {
        let (games, failed) = split_failing("[A \"1\"]\n\n1. e4 e5 1-0\n\n", block);
        assert_eq!(games, ["[A \"1\"]\n\n1. e4 e5 1-0\n\n"], "block {block}");
        assert!(failed);
        // The start of the next game's line is dropped with the error.
        let (games, failed) = split_failing("[A \"1\"]\n1. e4 1/2-1/2\n[B \"", block);
        assert_eq!(games, ["[A \"1\"]\n1. e4 1/2-1/2\n"], "block {block}");
        assert!(failed);
        // Two games, the first handed out at the second's tags.
        let (games, _) = split_failing("[A \"1\"]\n1. d4 *\n[B \"2\"]\n1. e4 0-1\n", block);
        assert_eq!(games.len(), 2, "block {block}");
    }
}

#[test]
fn a_game_cut_before_its_result_is_lost_to_the_error() {
    for text in [
        "[A \"1\"]\n\n1. e4 e5",
        "[A \"1\"]\n\n1. e4 e5 {1-0\n",
        "[A \"1\"]\n\n1. e4 e5 21-0\n",
        "[A \"1\"]\n",
    ] {
        let (games, failed) = split_failing(text, 5);
        assert!(games.is_empty() && failed, "{text:?}: {games:?}");
    }
}

#[test]
fn splits_on_tags_after_movetext() {
    let games = split("[A \"1\"]\n\n1. e4 e5 1-0\n\n[B \"2\"]\n[C \"3\"]\n1. d4 *\n");
    assert_eq!(games.len(), 2);
    assert_eq!((games[0].0, games[0].1), (1, 1));
    assert_eq!((games[1].0, games[1].1), (2, 5));
    assert!(games[1].2.starts_with("[B"));
}

#[test]
fn comments_spanning_lines_hide_brackets() {
    let games =
        split("[A \"1\"]\n1. e4 {a comment\n[not a tag] still comment} e5 *\n[B \"2\"]\n1. d4 *\n");
    assert_eq!(games.len(), 2);
    assert!(games[0].2.contains("[not a tag]"));
}

#[test]
fn an_unclosed_comment_ends_at_a_blank_line_and_a_tag() {
    let games =
        split("[A \"1\"]\n\n1. e4 {never closed\n\n[B \"2\"]\n\n1. d4 *\n\n[C \"3\"]\n\n1. c4 *\n");
    assert_eq!(games.len(), 3);
    assert_eq!(games[1].1, 5);
    // Inside a comment, a blank line before text that is no tag changes nothing.
    let games = split("[A \"1\"]\n\n1. e4 {open\n\n[not a tag] }\n1-0\n");
    assert_eq!(games.len(), 1);
}

#[test]
fn movetext_only_and_empty_games() {
    assert_eq!(split("1. e4 e5 *\n").len(), 1);
    assert_eq!(split("\n\n").len(), 0);
    // A tag section, a blank line and no movetext is a game of its own when the next
    // tags repeat one of its names.
    assert_eq!(split("[A \"1\"]\n\n[A \"2\"]\n1. e4 *\n").len(), 2);
    assert_eq!(
        split("[A \"1\"]\n[B \"1\"]\n\n[C \"2\"] [b \"2\"]\n1. e4 *\n").len(),
        2
    );
    // Without the blank line the tag sections run together into one game.
    assert_eq!(split("[A \"1\"]\n[B \"2\"]\n1. e4 *\n").len(), 1);
}

/// Issue 23.5: tags after a blank line, before any movetext, are the same game's (the
/// blank line is kept in its bytes); new names only, or a repeated name starts a game.
#[test]
fn a_blank_line_inside_the_tag_section_keeps_one_game() {
    let one = "[Event \"e\"]\n\n[Variant \"Crazyhouse\"]\n\n1. e4 e5 *\n";
    let games = split(&format!("{one}\n{one}"));
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].2, format!("{one}\n"));
    assert_eq!((games[1].0, games[1].1), (2, 7));
    // Several blank lines and a comment line between the tags change nothing.
    let games = split("[Event \"e\"]\n\n\n; note\n[Site \"s\"]\n1. e4 *\n");
    assert_eq!(games.len(), 1);
}

/// The tag section's names are gathered line by line as it grows (each line read
/// once), and give what reading the whole section at once gives: a name repeated
/// after a blank line starts the next game, names after the section's end (a token
/// that is no tag) do not count, and the read sizes change nothing.
#[test]
fn tag_names_gathered_in_pieces_decide_as_the_whole_section() {
    let cases: &[(&str, usize)] = &[
        ("[A \"1\"]\n\n[B \"2\"]\n\n[A \"3\"]\n\n1. e4 *\n", 2),
        ("[A \"1\"]\n\n[B \"2\"]\n\n[C \"3\"]\n\n1. e4 *\n", 1),
        // The section ends at the comment: `B` after it is no name of the section, so
        // the second `B` repeats nothing.
        ("[A \"1\"] {c}\n\n[B \"2\"]\n\n[B \"3\"]\n1. e4 *\n", 1),
        ("[A \"1\"] {c}\n\n[B \"2\"]\n\n[A \"3\"]\n1. e4 *\n", 2),
        // Comment lines go on with the section; names compare in any case.
        (
            "[A \"1\"]\n; x\n\n[B \"2\"]\n% y\n\n[b \"3\"]\n1. e4 *\n",
            2,
        ),
        // Two tags on one line, the second repeated later.
        (
            "[A \"1\"] [B \"2\"]\n\n[C \"3\"]\n\n[B \"4\"]\n1. e4 *\n",
            2,
        ),
    ];
    for &(text, want) in cases {
        for capacity in [1, 3, 7, 64, 4096] {
            let reader = io::BufReader::with_capacity(capacity, text.as_bytes());
            let games: Vec<RawGame> = GameSplitter::new(reader).map(Result::unwrap).collect();
            assert_eq!(games.len(), want, "{text:?}, reads of {capacity}");
            let joined: Vec<u8> = games.iter().flat_map(|g| g.bytes.clone()).collect();
            assert_eq!(joined, text.as_bytes(), "{text:?}: no byte lost");
        }
    }
    // Thousands of tags, each after a blank line, are one game; one repeat at the end
    // starts the next.
    let many: String = (0..5000).map(|i| format!("[T{i} \"v\"]\n\n")).collect();
    assert_eq!(split(&format!("{many}1. e4 *\n")).len(), 1);
    assert_eq!(split(&format!("{many}[T17 \"w\"]\n1. e4 *\n")).len(), 2);
}

/// A stop flag ends the splitting inside a game (here, a line of white space with no
/// end): the game being read is dropped and no game follows.
#[test]
fn a_stop_ends_the_splitting_inside_a_game() {
    struct Spaces(Arc<AtomicBool>, usize);
    impl io::Read for Spaces {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.1 += buf.len();
            if self.1 > 5 << 20 {
                self.0.store(true, Ordering::Relaxed);
            }
            assert!(self.1 < 100 << 20, "the stop was not honoured");
            buf.fill(b' ');
            Ok(buf.len())
        }
    }
    let stop = Arc::new(AtomicBool::new(false));
    let reader = io::BufReader::new(Spaces(Arc::clone(&stop), 0));
    let mut games = GameSplitter::new(reader);
    games.stop_on(stop);
    assert!(games.next_game().unwrap().is_none());
    assert!(games.stopped());
    assert!(games.next_game().unwrap().is_none());
}

/// Issue 23.4: a lone CR ends a line like LF and CRLF (old Mac files): games split and
/// lines count, also when a CRLF straddles two reads.
#[test]
fn lone_carriage_returns_end_lines() {
    let game = "[Event \"a\"]\r\r1. e4 e5 *\r\r";
    let text = game.repeat(3);
    let games = split(&text);
    let lines: Vec<usize> = games.iter().map(|g| g.1).collect();
    assert_eq!(lines, [1, 5, 9]);
    for eol in ["\r", "\r\n", "\n"] {
        let text = format!("[A \"1\"]{eol}{eol}1. e4 *{eol}{eol}[A \"2\"]{eol}{eol}1. d4 *{eol}");
        for block in [1, 2, 3, 7, 64] {
            let reader = io::BufReader::with_capacity(block, text.as_bytes());
            let got: Vec<(usize, usize)> = GameSplitter::new(reader)
                .map(|g| g.map(|g| (g.number, g.line)).unwrap())
                .collect();
            assert_eq!(got, [(1, 1), (2, 5)], "{eol:?} in blocks of {block}");
        }
    }
}

/// Issue 23.3: a BOM before a game (two BOM-prefixed files joined with `cat`) or on a
/// blank line is white space: it neither swallows the game after it nor makes one.
#[test]
fn byte_order_marks_between_games_are_white_space() {
    let game = "\u{feff}[Event \"a\"]\n\n1. e4 e5 *\n\n";
    let games = split(&format!("{game}{game}\u{feff}\n{game}"));
    let lines: Vec<usize> = games.iter().map(|g| g.1).collect();
    assert_eq!(lines, [1, 5, 10]);
    assert!(games[1].2.starts_with("\u{feff}[Event"));
    assert!(split("\u{feff}\n\u{feff}  \n").is_empty());
}

/// Issue 14.2: a game over the limit is skipped in constant memory (long lines and
/// many lines alike, comments kept track of) and handed out with its size; the games
/// around it are intact.
#[test]
fn games_over_the_limit_are_skipped_with_their_size() {
    let ok = "[Event \"ok\"]\n\n1. d4 d5 *\n\n";
    let long_line = format!(
        "[Event \"line\"]\n\n1. e4 {{{}}} e5 *\n\n",
        "x".repeat(300_000)
    );
    let many_lines = format!(
        "[Event \"lines\"]\n\n1. e4 {}*\n\n",
        "{ [not a tag]\n[Event \"inside\"] }\n".repeat(10_000)
    );
    let text = format!("{ok}{long_line}{ok}{many_lines}{ok}");
    // Small blocks: the long line is read in many pieces.
    let reader = io::BufReader::with_capacity(4096, text.as_bytes());
    let games: Vec<RawGame> = limited(reader, 50_000).map(Result::unwrap).collect();
    let sizes: Vec<Option<u64>> = games.iter().map(|g| g.too_large).collect();
    assert_eq!(
        sizes,
        [
            None,
            Some(long_line.len() as u64),
            None,
            Some(many_lines.len() as u64),
            None
        ]
    );
    let lines: Vec<usize> = games.iter().map(|g| g.line).collect();
    assert_eq!(lines, [1, 5, 9, 13, 13 + 4 + 20_000]);
    for g in [&games[0], &games[2], &games[4]] {
        assert_eq!(g.bytes, ok.as_bytes());
    }
    assert!(games[1].bytes.is_empty() && games[3].bytes.is_empty());
    // Under a limit they fit, the same games come out whole.
    let whole: Vec<RawGame> = GameSplitter::new(text.as_bytes())
        .map(Result::unwrap)
        .collect();
    assert_eq!(whole.len(), 5);
    assert_eq!(whole[3].bytes, many_lines.as_bytes());
    assert!(whole.iter().all(|g| g.too_large.is_none()));
}

/// Whether a game is over the limit does not depend on where the stream's reads end
/// (issue 25.3: the parts of a split file read from other offsets than one run):
/// games just under the limit, each followed by a tag line read in pieces, stay whole,
/// and those over it are skipped, for every read size.
#[test]
fn the_size_limit_does_not_depend_on_the_read_sizes() {
    let game =
        |i: usize, pad: usize| format!("[Event \"{i}\"]\n\n1. e4 {{{}}} e5 *\n\n", "x".repeat(pad));
    let max = 120;
    let mut text = String::new();
    for i in 0..40 {
        // Sizes around the limit: 115 to 124 bytes.
        let pad = 115 - game(i, 0).len() + i % 10;
        text.push_str(&game(i, pad));
    }
    // A tag line over the limit after movetext: the game before it stays whole.
    text.push_str(&format!("[Event \"{}\"]\n\n1. d4 *\n\n", "t".repeat(300)));
    text.push_str(&game(99, 10));
    let read = |chunk: usize| -> Vec<(usize, usize, Option<u64>, usize)> {
        let reader = io::BufReader::with_capacity(chunk, text.as_bytes());
        limited(reader, max)
            .map(Result::unwrap)
            .map(|g| (g.number, g.line, g.too_large, g.bytes.len()))
            .collect()
    };
    let whole = read(1 << 20);
    assert_eq!(whole.len(), 42);
    for (i, g) in whole.iter().take(40).enumerate() {
        let len = game(i, 115 - game(i, 0).len() + i % 10).len();
        let expected = if len > max {
            (Some(len as u64), 0)
        } else {
            (None, len)
        };
        assert_eq!((g.2, g.3), expected, "game {}", i + 1);
    }
    assert!(whole[40].2.is_some() && whole[41].2.is_none());
    for chunk in 1..200 {
        assert_eq!(read(chunk), whole, "reads of {chunk} bytes");
    }
}

/// A game whose first line alone is over the limit, and which ends with that line at
/// the end of the stream, is skipped too (found by the fuzz target that splits with
/// every read size).
#[test]
fn a_first_line_over_the_limit_is_skipped() {
    let long = format!("[White {} *\n", "B6b. N@d4 {171}".repeat(5));
    let text = format!("[Event \"a\"]\n\n1. e4 *\n{long}");
    for cap in 1..120 {
        let reader = io::BufReader::with_capacity(cap, text.as_bytes());
        let games: Vec<_> = limited(reader, 40)
            .map(Result::unwrap)
            .map(|g| (g.number, g.line, g.too_large))
            .collect();
        assert_eq!(
            games,
            [(1, 1, None), (2, 4, Some(long.len() as u64))],
            "reads of {cap}"
        );
    }
}

/// A byte-order mark read in pieces is white space all the same: the tag line after
/// it is no movetext, whatever the read sizes (found by the fuzz target).
#[test]
fn a_byte_order_mark_read_in_pieces() {
    for n in 30..40 {
        let text = format!(
            "[Event \"{}\"]\n\n\u{feff}[Site \"b\"]\n\n[Round \"1\"]\n\n1. e4 *\n",
            "a".repeat(n)
        );
        bom_in_pieces(&text);
    }
}

/// A game at the limit before a byte-order mark and the next game's tag line: the
/// mark's first bytes, read alone, are not counted in the game.
#[test]
fn a_game_at_the_limit_before_a_byte_order_mark() {
    for n in 20..40 {
        let game = format!("[Event \"{}\"]\n\n1. e4 *\n\n", "a".repeat(n));
        let text = format!("{game}\u{feff}[Event \"b\"]\n\n1. d4 *\n");
        for cap in 1..80 {
            let reader = io::BufReader::with_capacity(cap, text.as_bytes());
            let games: Vec<_> = limited(reader, game.len())
                .map(Result::unwrap)
                .map(|g| (g.number, g.line, g.too_large))
                .collect();
            assert_eq!(games, [(1, 1, None), (2, 5, None)], "n {n}, reads of {cap}");
        }
    }
}

fn bom_in_pieces(text: &str) {
    for cap in 1..100 {
        let reader = io::BufReader::with_capacity(cap, text.as_bytes());
        let games: Vec<_> = limited(reader, 50)
            .map(Result::unwrap)
            .map(|g| (g.number, g.line, g.too_large))
            .collect();
        assert_eq!(games, [(1, 1, Some(text.len() as u64))], "reads of {cap}");
    }
}

/// A game over the limit whose last line has no line end, all read at once (found by
/// the fuzz target that splits with every read size).
#[test]
fn a_last_line_over_the_limit_without_a_line_end() {
    let body =
        b"[Ev\n\0\0\0ent \"x\"]\n[Reiult \"0\xe2\x80\x931\"]\n\n1. f3 e5 2. g4 Qh4# 0\xe2\x80\x931";
    for cap in [1, 2, 3, 5, 7, 251, 1000] {
        let reader = io::BufReader::with_capacity(cap, &body[..]);
        let games: Vec<_> = limited(reader, 40)
            .map(Result::unwrap)
            .map(|g| (g.number, g.line, g.too_large, g.bytes.len()))
            .collect();
        assert_eq!(
            games,
            [(1, 1, None, 16), (2, 3, Some(43), 0)],
            "reads of {cap}"
        );
    }
}

/// Issue 24.2: a game of `HAND_OVER` bytes or more leaves in the splitter's buffer
/// (no copy): the games and line numbers are those of copied games, whether the big
/// game ends at a tag line in the same block, at a CRLF, or at the end of the stream.
#[test]
fn big_games_take_the_buffer_and_the_games_after_them_are_intact() {
    let small = "[Event \"s\"]\n\n1. e4 e5 *\n\n";
    let big = |eol: &str, lines: usize| {
        let mut g = format!("[Event \"b\"]{eol}{eol}1. e4 e5");
        let line = format!(" {{{}}}{eol}", "c".repeat(100));
        for _ in 0..lines {
            g.push_str(&line);
        }
        g.push_str(&format!("*{eol}{eol}"));
        g
    };
    let big_lf = big("\n", HAND_OVER / 100);
    let big_crlf = big("\r\n", HAND_OVER / 50);
    let last = big("\n", HAND_OVER / 90);
    let last = last.trim_end();
    let pieces = [small, &big_lf, small, &big_crlf, &big_lf, small, last];
    assert!(big_lf.len() >= HAND_OVER && big_crlf.len() >= HAND_OVER);
    let text: String = pieces.concat();
    for capacity in [4096, 1 << 20] {
        let reader = io::BufReader::with_capacity(capacity, text.as_bytes());
        let games: Vec<RawGame> = GameSplitter::new(reader).map(Result::unwrap).collect();
        let got: Vec<&[u8]> = games.iter().map(|g| &g.bytes[..]).collect();
        let want: Vec<&[u8]> = pieces.iter().map(|p| p.as_bytes()).collect();
        assert!(got == want, "capacity {capacity}: the games differ");
        let mut line = 1;
        for (g, p) in games.iter().zip(pieces) {
            assert_eq!((g.number, g.line), (g.number, line));
            line += p.matches('\n').count();
        }
    }
}

proptest::proptest! {
    /// Tag lines read as a run ([`GameSplitter::read_tag_run`], when the buffer holds
    /// them) split as line by line does: read a byte at a time, where the buffer never
    /// holds a line past the one being read, the games, their lines, offsets, bytes and
    /// sizes over the limit are the same as read whole or in other blocks. The text mixes
    /// tag lines (some with braces, a `;`, a `%` or white space first), blank lines,
    /// movetext with comments over lines, CRs and byte-order marks.
    #[test]
    fn tag_runs_split_as_line_by_line_does(
        pieces in proptest::collection::vec(proptest::sample::select(vec![
            "[Event \"a\"]\n", "[Site \"b\"]\n", "[White \"c { d\"]\n", "[Black \"}\"]\n",
            "[Round \"1\"] ; x\n", " [Date \"?\"]\n", "\n", "\n", "1. e4 e5 *\n",
            "1. d4 { a\n", "[Event \"in a comment\"]\n", "} 1-0\n", "% escape\n",
            "; line\n", "[Result \"*\"]\r\n", "\u{feff}[Event \"bom\"]\n", "1-0\n",
            "[Event \"a\"]\n[Site \"b\"]\n[Date \"c\"]\n", "[Event \"a\"] { open\n",
            "[Site \"b\"] } [Date \"c\"]\n", "[Event \"x\"]\r[Site \"y\"]\r",
            "\r", "\r\n", " \n", "\t\n", "{", "}", "\"", ";", "%", "[", "\u{feff}", "e4 ",
            "[A \"1\"]\n", "1. e4 {x}\n\n", "\n[B \"2\"]\n", "*\n", "[C \"\\\"\"]\n",
            "; { \n", "% }\n", "\t[D \"4\"]\n", "[E \"\u{feff}\"]\n", "{ ; }\n", "1/2-1/2\n",
            "\r\n\r\n", "[Event \"a\"]\r\n[Site \"b\"]\r\n", "0-1 ", "\u{feff}\n", "[F \"x\" ]\n",
            "1-0[Event \"c\"]\n", " *[G \"y\"]", "{ 0-1[H \"z\"] }\n",
        ]), 0..40),
        // (At least the longest tag pair's size: whether a line over the limit starts a
        // game is decided by its tag pairs, read whole. A line over the limit whose
        // deciding tag pair ends past the limit is judged on the part read, which
        // depends on the read sizes: the pieces without a line end cannot begin one.)
        max in proptest::sample::select(vec![24usize, 30, 40, 64, 100, DEFAULT_MAX_GAME_BYTES]),
    ) {
        let text: String = pieces.concat();
        let by_bytes = games(&text, 1, max);
        for chunk in [7, 64, 1 << 16] {
            proptest::prop_assert_eq!(&games(&text, chunk, max), &by_bytes, "blocks of {}", chunk);
        }
    }
}

/// A byte-order mark that starts the stream, read one or two bytes at a time (a pipe
/// whose writer writes that little), is dropped once whole: the bytes of it searched for
/// a line end before are not counted as searched in what follows. This panicked (a
/// search from past the buffer's end) until the refill moved the searched end back with
/// the mark. A mark after a first line `\n` is not the stream's: read a byte at a time
/// it was dropped too, and the game's offset and bytes depended on the read sizes.
#[test]
fn a_byte_order_mark_first_read_a_byte_at_a_time() {
    for text in [
        "\u{feff}[Event \"bom\"]\n",
        "\u{feff}\n[Event \"a\"]\n\n1. e4 *\n",
        // Not the stream's mark: white space at the start of the second line, which
        // stays in the game's bytes however the stream is read.
        "\n\u{feff}[Event \"bom\"]\n",
    ] {
        let whole = split(text);
        assert_eq!(whole.len(), 1, "{text:?}");
        assert!(
            whole[0]
                .2
                .trim_start_matches('\u{feff}')
                .starts_with("[Event"),
            "{text:?}"
        );
        for chunk in 1..5 {
            let reader = io::BufReader::with_capacity(chunk, text.as_bytes());
            let games: Vec<_> = GameSplitter::new(reader)
                .map(|g| {
                    let g = g.unwrap();
                    (g.number, g.line, String::from_utf8(g.bytes).unwrap())
                })
                .collect();
            assert_eq!(games, whole, "{text:?} in reads of {chunk}");
        }
    }
}

/// A tag line over the limit after a blank line starts the next game even inside a
/// comment left open, read whole or in small pieces: the game before it is handed out
/// whole, not counted over the limit with the line. Read a few bytes at a time, the
/// line was set aside as this game's (found by `tag_runs_split_as_line_by_line_does`).
#[test]
fn a_long_tag_line_after_an_open_comment_starts_the_next_game_in_any_reads() {
    let text = "1. d4 { a\n\n[Site \"b\"] } [Date \"c\"]\n";
    let expected = vec![
        (1, 1, 0, b"1. d4 { a\n\n".to_vec(), None),
        (2, 3, 11, Vec::new(), Some(24)),
    ];
    for chunk in 1..30 {
        assert_eq!(games(text, chunk, 20), expected, "reads of {chunk}");
    }
    // A line of white space over the limit after movetext stays in its game too.
    let blanks = format!("1. d4 *\n{}\n[Site \"b\"]\n\n1. e4 *\n", " ".repeat(40));
    let whole = games(&blanks, 1 << 16, 20);
    assert_eq!(whole.len(), 2);
    for chunk in 1..30 {
        assert_eq!(games(&blanks, chunk, 20), whole, "reads of {chunk}");
    }
    // And only such a line: one not after a blank line and one that is no whole tag
    // pair stay in their game (over the limit with it), read whole or in pieces.
    for text in [
        "1. d4 { a\n[Site \"b\"] } [Date \"c\"]\n",
        "1. d4 { a\n\n[no tag pair on this line] }\n",
    ] {
        let whole = games(text, 1 << 16, 20);
        assert_eq!(whole.len(), 1, "{text:?}");
        for chunk in 1..30 {
            assert_eq!(
                games(text, chunk, 20),
                whole,
                "{text:?} in reads of {chunk}"
            );
        }
    }
}

/// A run of tag lines that would take its game over the limit is not read as a run: the
/// game is skipped with its size, as when its lines come one at a time, and the game
/// after it is whole (a game of tags alone at the end of the stream too).
#[test]
fn a_tag_run_over_the_limit_skips_its_game_as_line_by_line_does() {
    for text in [
        "[Event \"a\"]\n[Site \"b\"]\n[Date \"c\"]\n\n1. e4 *\n\n[Event \"d\"]\n\n1. d4 *\n",
        "[Event \"d\"]\n\n1. d4 *\n\n[Event \"a\"]\n[Site \"b\"]\n[Date \"c\"]\n",
    ] {
        let whole = games(text, 1 << 16, 30);
        let sizes: Vec<Option<u64>> = whole.iter().map(|g| g.4).collect();
        assert_eq!(sizes.iter().filter(|s| s.is_some()).count(), 1, "{text:?}");
        for chunk in [1, 2, 5, 13] {
            assert_eq!(
                games(text, chunk, 30),
                whole,
                "{text:?} in reads of {chunk}"
            );
        }
    }
}

/// A tag line over the limit after a blank line in a tag section starts the next game
/// when it repeats a tag name of the section, read whole or in small pieces (read a few
/// bytes at a time, it was set aside as this game's, which was then over the limit:
/// found by `tag_runs_split_as_line_by_line_does`); one that repeats none stays.
#[test]
fn a_long_tag_line_repeating_a_tag_starts_the_next_game_in_any_reads() {
    for (text, games_expected) in [
        (
            "[Event \"a\"]\n\n[Site \"s\"] [Event \"b\"] [Round \"1\"]\n1. e4 *\n",
            2,
        ),
        (
            "[Event \"a\"]\n\n[Site \"s\"] [Date \"b\"] [Round \"1\"]\n1. e4 *\n",
            1,
        ),
    ] {
        let whole = games(text, 1 << 16, 24);
        assert_eq!(whole.len(), games_expected, "{text:?}");
        for chunk in 1..40 {
            assert_eq!(
                games(text, chunk, 24),
                whole,
                "{text:?} in reads of {chunk}"
            );
        }
    }
}

/// Files joined by `cat`, the first without its last line end: the next game's tags
/// begin on the line of the last game's result. A tag there starts the next game at
/// its column, read in blocks of any size; a `[` in a comment, after a `;`, inside
/// quoted text or not after a result, and a `[%…]` command, start none.
#[test]
fn a_tag_after_a_result_on_its_line_starts_the_next_game() {
    let text = "[Event \"a\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0[Event \"b\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1 \t[Event \"é\"]\n\n1. d4 *\n";
    for chunk in [1, 2, 7, 64, 4096] {
        let reader = io::BufReader::with_capacity(chunk, text.as_bytes());
        let got: Vec<(usize, usize, usize, u64, String)> = GameSplitter::new(reader)
            .map(Result::unwrap)
            .map(|g| {
                let bytes = String::from_utf8(g.bytes).unwrap();
                (g.number, g.line, g.column, g.offset, bytes)
            })
            .collect();
        let second = text.find("[Event \"b\"]").unwrap();
        let third = text.find("[Event \"é\"]").unwrap();
        assert_eq!(
            got,
            [
                (1, 1, 1, 0, text[..second].to_owned()),
                (
                    2,
                    3,
                    text[text[..second].rfind('\n').unwrap() + 1..second]
                        .chars()
                        .count()
                        + 1,
                    second as u64,
                    text[second..third].to_owned()
                ),
                (
                    3,
                    6,
                    text[text[..third].rfind('\n').unwrap() + 1..third]
                        .chars()
                        .count()
                        + 1,
                    third as u64,
                    text[third..].to_owned()
                ),
            ],
            "blocks of {chunk}"
        );
    }
    let bom = "[Event \"a\"]\n\n1. e4 1-0\u{feff}[Event \"b\"]\n\n1. d4 *\n";
    assert_eq!(split(bom).len(), 2);
    // A tag line after blank lines that follow the result's line starts a game, as
    // after any line of movetext (the line a `--split` part may start at): the game on
    // the result's line has its tags only.
    let tags_then_blank = "1. e4 1-0[Event \"b\"]\n\n[Site \"c\"]\n\n1. d4 *\n";
    let got: Vec<String> = split(tags_then_blank).into_iter().map(|g| g.2).collect();
    assert_eq!(
        got,
        [
            "1. e4 1-0",
            "[Event \"b\"]\n\n",
            "[Site \"c\"]\n\n1. d4 *\n"
        ]
    );
    for one in [
        "[Event \"a\"]\n\n1. e4 { 1-0[Event \"x\"] } e5 *\n",
        "[Event \"a\"]\n\n1. e4 e5 ; 1-0[Event \"x\"]\n*\n",
        "[Event \"a\"]\n\n1. e4 e5 1-0 [%clk 0:01:00]\n",
        "[Event \"a\"]\n\n1. e4 e5[Event \"x\"] *\n",
        "[Event \"a\"]\n\n1. e4 {\n1-0[Event \"x\"] } e5 *\n",
        "[Event \"a\"]\n[Annotator \"1-0[Event \\\"x\\\"]\"]\n\n1. e4 *\n",
    ] {
        assert_eq!(split(one).len(), 1, "{one}");
    }
}
