use std::io::{self, BufRead};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::stream::split::{Damage, Games, PartEnd};
use crate::stream::{Compression, DamagedFrame, FrameText, GameSplitter};

/// Text given in blocks of `block` bytes, broken where `None` stands: one read there
/// fails with a damaged frame, and the text goes on after it.
struct Breaks {
    pieces: Vec<Option<Vec<u8>>>,
    piece: usize,
    at: usize,
    block: usize,
    /// Set once the reader reaches this piece.
    stop_at: Option<(usize, Arc<AtomicBool>)>,
}

impl io::Read for Breaks {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let b = self.fill_buf()?;
        let n = b.len().min(buf.len());
        buf[..n].copy_from_slice(&b[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Breaks {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if let Some((piece, stop)) = &self.stop_at
            && self.piece >= *piece
        {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        loop {
            match self.pieces.get(self.piece) {
                None => return Ok(&[]),
                Some(None) => {
                    self.piece += 1;
                    let frame = DamagedFrame {
                        compression: Compression::Zstd,
                        offset: 1000,
                        len: 50,
                        stream: None,
                        reason: "Data corruption detected".to_owned(),
                        read: 300,
                        text: Some(FrameText::Pzstd(4096)),
                    };
                    return Err(io::Error::new(io::ErrorKind::InvalidData, frame));
                }
                Some(Some(t)) if self.at == t.len() => {
                    self.piece += 1;
                    self.at = 0;
                }
                Some(Some(_)) => break,
            }
        }
        let Some(Some(t)) = &self.pieces[self.piece..].first() else {
            unreachable!()
        };
        let end = t.len().min(self.at + self.block);
        Ok(&t[self.at..end])
    }

    fn consume(&mut self, n: usize) {
        self.at += n;
    }
}

/// A reader of `pieces` (text, or a break where `None` stands) in blocks of `block`.
fn breaks(pieces: &[Option<&str>], block: usize) -> Breaks {
    Breaks {
        pieces: pieces
            .iter()
            .map(|p| p.map(|t| t.as_bytes().to_vec()))
            .collect(),
        piece: 0,
        at: 0,
        block,
        stop_at: None,
    }
}

/// Each game handed out (number, line, offset, its `Event`), and the damage told.
type Seen = (Vec<(usize, usize, u64, String)>, Option<Damage>);

fn split(pieces: &[Option<&str>], block: usize) -> Seen {
    let reader = breaks(pieces, block);
    let mut games = GameSplitter::new(reader);
    let mut seen = Vec::new();
    while let Some(g) = games.next_game().unwrap() {
        let text = String::from_utf8(g.bytes).unwrap();
        let event = text.split('"').nth(1).unwrap_or("").to_owned();
        seen.push((g.number, g.line, g.offset, event));
    }
    (seen, games.take_damage())
}

/// The numbers of the games a part whose end is at offset `end_at` hands out, read in
/// one block; the part's end as it stopped, and the damage told.
fn split_ending_at(
    pieces: &[Option<&str>],
    end_at: u64,
) -> (Vec<usize>, Arc<PartEnd>, Option<Damage>) {
    let end = Arc::new(PartEnd::new());
    end.at.store(end_at, Ordering::Release);
    let mut games = GameSplitter::new(breaks(pieces, 1 << 16));
    games.end_at(Arc::clone(&end));
    let mut seen = Vec::new();
    while let Some(g) = games.next_game().unwrap() {
        seen.push(g.number);
    }
    (seen, end, games.take_damage())
}

/// The same in blocks of every size from 1 byte up: where the blocks fall changes
/// nothing.
fn split_any_way(pieces: &[Option<&str>]) -> Seen {
    let whole = split(pieces, 1 << 16);
    for block in 1..40 {
        assert_eq!(split(pieces, block), whole, "blocks of {block}");
    }
    whole
}

fn game(n: usize) -> String {
    format!("[Event \"{n}\"]\n[Site \"x\"]\n\n1. e4 e5 2. Nf3 {{ a comment }} Nc6 1-0\n\n")
}

/// A break's frame, as `Breaks` gives it.
const FRAME: &str = "the zstd frame at byte 1000 (50 bytes) cannot be decoded (Data corruption detected): the rest of its text is lost (up to 3796 bytes: pzstd writes at most 4096 bytes of text in a frame)";

#[test]
fn a_break_inside_a_game_leaves_out_that_game_and_the_text_to_the_next() {
    // Games 1 and 2 whole, game 3 cut in its movetext; after the break, the end of some
    // game, then games 10 and 11.
    let before = format!("{}{}[Event \"3\"]\n\n1. d4 d", game(1), game(2));
    let after = format!(
        "5 2. c4 {{ x }}\n3. Nc3 1/2-1/2\n\n{}{}",
        game(10),
        game(11)
    );
    let (seen, damage) = split_any_way(&[Some(&before), None, Some(&after)]);
    let offset = |text: &str, from: &str| (text.find(from).unwrap()) as u64;
    let joined = format!("{before}{after}");
    assert_eq!(
        seen,
        vec![
            (1, 1, 0, "1".to_owned()),
            (2, 6, offset(&joined, "[Event \"2\"]"), "2".to_owned()),
            // Game 3 (line 11) and the text after the break (lines 13 and 14) are lost:
            // game 10 is number 5, at line 16 of the text read.
            (5, 16, offset(&joined, "[Event \"10\"]"), "10".to_owned()),
            (6, 21, offset(&joined, "[Event \"11\"]"), "11".to_owned()),
        ]
    );
    let damage = damage.expect("the break is told");
    assert_eq!(damage.games, 2);
    assert_eq!(
        damage.message,
        format!(
            "{FRAME}; the text breaks at line 13, left out: game 3 (from line 11, cut short) and lines 13 to 15 (the rest of a game: game 4)"
        )
    );
}

/// A break right after the line end of a game's last line keeps that game, whatever the
/// line ends: a CR before the break ends its line (no LF can follow it across the
/// break), and an LF after it joins that CR as the lines are counted.
#[test]
fn a_break_right_after_a_line_end_keeps_the_game_before_it() {
    let before = format!("{}{}[Event \"3\"]\n\n1. d4 1-0\n", game(1), game(2));
    let after = format!("x\n\n{}{}", game(10), game(11));
    let lf = split_any_way(&[Some(&before), None, Some(&after)]);
    let events: Vec<&str> = lf.0.iter().map(|g| g.3.as_str()).collect();
    assert_eq!(events, ["1", "2", "3", "10", "11"], "{lf:?}");
    for eol in ["\r\n", "\r"] {
        let (before, after) = (before.replace('\n', eol), after.replace('\n', eol));
        let seen = split_any_way(&[Some(&before), None, Some(&after)]);
        let strip = |s: &Seen| {
            s.0.iter()
                .map(|g| (g.0, g.1, g.3.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(strip(&seen), strip(&lf), "{eol:?}");
        assert_eq!(seen.1, lf.1, "{eol:?}");
    }
    // A CRLF that the break cuts between its CR and its LF: one line end.
    let (before, after) = (before.replace('\n', "\r\n"), after.replace('\n', "\r\n"));
    let cut = before.len() - 1;
    let (head, tail) = (&before[..cut], format!("\n{after}"));
    let seen = split_any_way(&[Some(head), None, Some(&tail)]);
    let strip = |s: &Seen| {
        s.0.iter()
            .map(|g| (g.0, g.1, g.3.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&seen), strip(&lf));
    assert_eq!(seen.1, lf.1);
}

/// The same break in text whose lines end at CRLF or a lone CR (old Mac files): the same
/// games are read after it, at the same lines, and the same is left out.
#[test]
fn a_break_in_text_of_any_line_ends_leaves_out_the_same() {
    let before = format!("{}{}[Event \"3\"]\n\n1. d4 d", game(1), game(2));
    let after = format!(
        "5 2. c4 {{ x }}\n3. Nc3 1/2-1/2\n\n{}{}\n%x\n\n{}",
        game(10),
        game(11),
        game(12)
    );
    let lf = split_any_way(&[Some(&before), None, Some(&after)]);
    assert_eq!(lf.0.len(), 5, "{lf:?}");
    for eol in ["\r\n", "\r"] {
        let (before, after) = (before.replace('\n', eol), after.replace('\n', eol));
        let (seen, damage) = split_any_way(&[Some(&before), None, Some(&after)]);
        let joined = format!("{before}{after}");
        let expected: Vec<_> =
            lf.0.iter()
                .map(|(n, line, _, event)| {
                    let at = joined.find(&format!("[Event \"{event}\"]")).unwrap() as u64;
                    (*n, *line, at, event.clone())
                })
                .collect();
        assert_eq!(seen, expected, "{eol:?}");
        assert_eq!(damage, lf.1, "{eol:?}");
    }
}

#[test]
fn a_game_whose_result_was_read_is_whole() {
    let before = format!("{}{}", game(1), &game(2)[..game(2).len() - 1]);
    let after = format!("Event \"7\"]\n\n1. e4 *\n\n{}", game(8));
    let (seen, damage) = split_any_way(&[Some(&before), None, Some(&after)]);
    let events: Vec<(usize, &str)> = seen.iter().map(|g| (g.0, g.3.as_str())).collect();
    // The text after the break is the rest of a game whose first line was lost.
    assert_eq!(events, [(1, "1"), (2, "2"), (4, "8")]);
    let damage = damage.unwrap();
    assert_eq!(damage.games, 1);
    assert_eq!(
        damage.message,
        format!(
            "{FRAME}; the text breaks at line 10, left out: lines 10 to 13 (the rest of a game: game 3)"
        )
    );
}

#[test]
fn breaks_at_the_start_at_the_end_and_one_after_another() {
    // The first frame lost before any text, then the tail of a game.
    let (seen, damage) = split_any_way(&[None, Some("Nf3 1-0\n\n"), Some(&game(5))]);
    assert_eq!(seen, vec![(2, 3, 9, "5".to_owned())]);
    let damage = damage.unwrap();
    assert_eq!(damage.games, 1);
    assert_eq!(damage.breaks[0].text_lost(), Some((3796, false)));
    // The last frame damaged: the game it cuts is lost, nothing follows.
    let (seen, damage) = split_any_way(&[Some(&game(1)), Some("[Event \"2\"]\n"), None]);
    assert_eq!(seen.len(), 1);
    let damage = damage.unwrap();
    assert_eq!(damage.games, 1);
    assert_eq!(
        damage.message,
        format!("{FRAME}; the text breaks at line 7, left out: game 2 (from line 6, cut short)")
    );
    assert_eq!(damage.breaks[0].text_lost(), Some((3796, false)));
    // Two breaks before a sync point: each is told; the game after both is read.
    let (seen, damage) = split_any_way(&[
        Some(&game(1)[..20]),
        None,
        Some("Nc6 1-0\n\n[Ev"),
        None,
        Some("ent \"4\"]\n\n1. e4 0-1\n\n"),
        Some(&game(6)),
    ]);
    let events: Vec<(usize, &str)> = seen.iter().map(|g| (g.0, g.3.as_str())).collect();
    assert_eq!(events, [(4, "6")]);
    let damage = damage.unwrap();
    assert_eq!(damage.games, 3);
    assert_eq!(damage.message.matches(FRAME).count(), 2);
    // A break between games, the text after it starting at a game: that game is
    // left out too (the text after a break is read from a sync point).
    let (seen, damage) = split_any_way(&[Some(&game(1)), None, Some(&game(2)), Some(&game(3))]);
    let events: Vec<(usize, &str)> = seen.iter().map(|g| (g.0, g.3.as_str())).collect();
    assert_eq!(events, [(1, "1"), (3, "3")]);
    assert_eq!(damage.unwrap().games, 1);
}

/// A part whose end (the next part's first game) lies in the line a break cuts, found
/// from that line's first bytes: the part stops there, tells where, and leaves the text
/// after the break, and the break itself, to the next part, but for a game it cut short.
/// (A line whose CR came before the break is not cut: the game before it ended there.)
#[test]
fn a_part_whose_end_is_in_the_line_a_break_cuts() {
    for (tail, cut, cr) in [
        ("1. e4 e5 1-0\r\n\r\n", false, ""),
        ("1. e4 e5\r\n\r\n", true, ""),
        ("1. e4 e5\r\n\r\n", false, "\r"),
    ] {
        let before = format!("{}[Event \"2\"]\r\n\r\n{tail}[Event \"3\"]{cr}", game(1));
        let end_at = before.rfind("[Event \"3\"]").unwrap() as u64;
        let after = if cr.is_empty() {
            "\r\n\r\n1. d4 *\r\n"
        } else {
            "\n\r\n1. d4 *\r\n"
        };
        let pieces = [Some(before.as_str()), None, Some(after)];
        let (seen, end, damage) = split_ending_at(&pieces, end_at);
        assert_eq!(end.stop(), Some((end_at, 10)), "{tail:?}");
        if cut {
            // Game 2 had no result: cut short here, told here.
            assert_eq!(seen, [1]);
            let d = damage.expect("the game cut is told");
            assert_eq!(d.games, 1);
            assert_eq!(d.breaks[0].cut.map(|c| c.game), Some(2));
            assert_eq!(d.breaks[0].rest, None);
        } else {
            // Game 2 ended: handed out, and the break is the next part's to tell.
            assert_eq!(seen, [1, 2]);
            assert_eq!(damage, None);
        }
    }
}

/// A stop is honoured while the text after a break is looked through for a game's
/// start, however long that text: the reader is not read to its end.
#[test]
fn a_stop_is_honoured_after_a_break() {
    // Text with no point at which a game surely starts (no blank lines).
    let endless = "1. e4 e5 2. Nf3 Nc6\n[Event \"x\"]\n".repeat(100);
    let mut pieces = vec![Some(game(1)), None];
    pieces.extend((0..50).map(|_| Some(endless.clone())));
    let stop = Arc::new(AtomicBool::new(false));
    let pieces: Vec<Option<&str>> = pieces.iter().map(Option::as_deref).collect();
    let mut reader = breaks(&pieces, 4096);
    reader.stop_at = Some((5, Arc::clone(&stop)));
    let mut games = GameSplitter::new(reader);
    games.stop_on(Arc::clone(&stop));
    let mut seen = Vec::new();
    while let Some(g) = games.next_game().unwrap() {
        seen.push(g.number);
    }
    assert!(games.stopped());
    assert!(
        games.reader.piece < 10,
        "read on to piece {}",
        games.reader.piece
    );
    let damage = games.take_damage().expect("the break is told");
    assert!(damage.breaks[0].rest.is_some());
}

/// A break as its summary tells it, and as `merge` renumbers a part's: every field moves
/// by the part's games and lines but where the frame lies and why.
#[test]
fn a_break_is_told_and_renumbered() {
    use crate::stream::{CutGame, RestOfGame, TextBreak};
    let b = TextBreak {
        compression: Compression::Zstd,
        offset: 1000,
        length: 50,
        stream: None,
        reason: "Data corruption detected".to_owned(),
        text_read: 300,
        text: Some(FrameText::Pzstd(4096)),
        line: 13,
        cut: Some(CutGame { game: 3, line: 11 }),
        rest: Some(RestOfGame {
            game: 4,
            line: 13,
            last_line: 15,
        }),
    };
    assert_eq!(
        b.to_string(),
        format!(
            "{FRAME}; the text breaks at line 13, left out: game 3 (from line 11, cut short) and lines 13 to 15 (the rest of a game: game 4)"
        )
    );
    let shifted = b.shifted(100, 1000);
    assert_eq!(
        shifted,
        TextBreak {
            line: 1013,
            cut: Some(CutGame {
                game: 103,
                line: 1011
            }),
            rest: Some(RestOfGame {
                game: 104,
                line: 1013,
                last_line: 1015
            }),
            ..b.clone()
        }
    );
    let one_line = TextBreak {
        cut: None,
        rest: Some(RestOfGame {
            game: 4,
            line: 13,
            last_line: 13,
        }),
        ..b.clone()
    };
    assert!(
        one_line
            .to_string()
            .ends_with("left out: line 13 (the rest of a game: game 4)")
    );
    // The text lost: as the frame's header gives it, untold, or told less than was
    // read (the header itself damaged).
    let exact = TextBreak {
        text: Some(FrameText::Header(1000)),
        ..b.clone()
    };
    assert!(
        exact.to_string().contains(
            "the rest of its text is lost (700 of its 1000 bytes, as its header says); the text breaks"
        ),
        "{exact}"
    );
    assert_eq!(exact.text_lost(), Some((700, true)));
    for text in [
        None,
        Some(FrameText::Header(200)),
        Some(FrameText::Pzstd(299)),
    ] {
        let untold = TextBreak { text, ..b.clone() };
        assert!(
            untold
                .to_string()
                .contains("the rest of its text is lost; the text breaks"),
            "{untold}"
        );
        assert_eq!(untold.text_lost(), None);
    }
    let nothing = TextBreak {
        cut: None,
        rest: None,
        ..b
    };
    assert!(
        nothing
            .to_string()
            .ends_with("the text breaks at line 13, nothing else is left out")
    );
}

/// The lines left out after a break are counted as the splitter counts lines: at LF,
/// CRLF and a lone CR, a CRLF cut between two pieces once.
#[test]
fn line_ends_are_counted_as_the_splitter_counts_them() {
    use super::line_ends;
    let count = |pieces: &[&str]| {
        let mut cr = false;
        pieces
            .iter()
            .map(|p| line_ends(p.as_bytes(), &mut cr))
            .sum::<usize>()
    };
    assert_eq!(count(&["a\nb\n"]), 2);
    assert_eq!(count(&["a\r\nb\r\n"]), 2);
    assert_eq!(count(&["a\rb\r"]), 2);
    assert_eq!(count(&["a\r\rb\n"]), 3);
    assert_eq!(count(&["\n\n"]), 2);
    assert_eq!(count(&["a\r", "\nb\n"]), 2);
    assert_eq!(count(&["a\r", "", "\nb"]), 1);
    assert_eq!(count(&["a\n", "\r", "\r\n"]), 3);
}

/// A part's game that starts at or after its end and is cut by a break is the next
/// part's: handed out to be stopped at, the break left to that part.
#[test]
fn a_break_in_the_next_parts_first_game_is_that_parts() {
    let before = format!("{}{}[Event \"3\"]\n\n1. d4 d", game(1), game(2));
    let end_at = before.rfind("[Event \"3\"]").unwrap() as u64;
    let pieces = [
        Some(before.as_str()),
        None,
        Some("5 *\n\n[Event \"4\"]\n\n1. c4 *\n"),
    ];
    let (seen, end, damage) = split_ending_at(&pieces, end_at);
    assert_eq!(seen, [1, 2]);
    assert_eq!(end.stop(), Some((end_at, 11)));
    assert_eq!(damage, None);
}

/// White space over the size limit just before a break, where no game has begun,
/// belongs to no game: the first game after the break is not taken for one over the
/// limit. (After a game, such a line is that game's: the game is over the limit, and cut.)
#[test]
fn white_space_over_the_limit_before_a_break_is_forgotten() {
    use crate::stream::SplitOptions;
    let short = "[Event \"5\"]\n\n1. e4 *\n\n";
    let spaces = " ".repeat(200);
    for (before, expected) in [
        (spaces.clone(), vec![(2, false)]),
        (format!("{short}{spaces}"), vec![(3, false)]),
    ] {
        let pieces = [Some(before.as_str()), None, Some("x\n\n"), Some(short)];
        for block in [7, 64, 1 << 16] {
            let reader = breaks(&pieces, block);
            let mut games = GameSplitter::with_options(
                reader,
                SplitOptions {
                    max_game_bytes: 60,
                    ..SplitOptions::default()
                },
            );
            let mut seen = Vec::new();
            while let Some(g) = games.next_game().unwrap() {
                seen.push((g.number, g.too_large.is_some()));
            }
            assert_eq!(seen, expected, "blocks of {block}");
        }
    }
}
