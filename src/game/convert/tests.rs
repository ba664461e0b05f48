use super::wrap::{CommentWords, single_spaced};

/// A comment's words as lines may break between them: a `[%…]` command is one,
/// whatever white space it holds; an unclosed one runs to the comment's end.
#[test]
fn commands_are_unbreakable_words() {
    let words =
        |c: &str| -> Vec<String> { CommentWords { rest: c }.map(|w| w.into_owned()).collect() };
    assert_eq!(
        words(" a [%clk 0:05:00] b\t[%cal  Ge2e4,\nGd2d4]c [%eval 0.1]"),
        [
            "a",
            "[%clk 0:05:00]",
            "b",
            "[%cal Ge2e4, Gd2d4]c",
            "[%eval 0.1]"
        ]
    );
    assert_eq!(words("x[%emt 0:00:01] y"), ["x[%emt 0:00:01]", "y"]);
    assert_eq!(words("[%clk 1 2 3"), ["[%clk 1 2 3"]);
    assert_eq!(words("[x] [% ] ]"), ["[x]", "[% ]", "]"]);
    // A `[` that starts no command holds no words together, closed or not.
    assert_eq!(words("a [ b ] c"), ["a", "[", "b", "]", "c"]);
    assert_eq!(words("x[ y [%z]"), ["x[", "y", "[%z]"]);
    assert_eq!(words("  "), Vec::<String>::new());
    // Borrowed when the comment has them single-spaced.
    assert!(matches!(
        CommentWords {
            rest: "[%clk 0:05:00]"
        }
        .next(),
        Some(std::borrow::Cow::Borrowed("[%clk 0:05:00]"))
    ));
}

/// The word-at-a-time check says what a byte-by-byte one says, for random strings of
/// up to 25 bytes over an alphabet of the bytes at each edge, and for a double space
/// and a bad byte at every position of every length up to 25 (so that every byte of up
/// to three chunks, of a tail read overlapping them and of a short padded rest is
/// tried).
#[test]
fn single_spaced_reads_eight_bytes_as_one_at_a_time_does() {
    fn naive(b: &[u8]) -> bool {
        b.iter().all(|&c| (b' '..0x80).contains(&c)) && !b.windows(2).any(|w| w == b"  ")
    }
    const EDGES: [u8; 8] = [b' ', b'!', 0x1f, 0x7f, 0x80, b'a', b'\t', 0x00];
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..200_000 {
        let len = (next() % 26) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| match next() % 4 {
                0 => b' ',
                1 => b'a',
                _ => EDGES[(next() % 8) as usize],
            })
            .collect();
        assert_eq!(single_spaced(&bytes), naive(&bytes), "{bytes:?}");
    }
    for len in 1..26 {
        for i in 0..len {
            // One double space at every position, and one bad byte at every position.
            let mut b = vec![b'x'; len];
            b[i] = b' ';
            if i + 1 < len {
                b[i + 1] = b' ';
                assert!(!single_spaced(&b), "{len} {i}");
                b[i + 1] = b'x';
            }
            assert!(single_spaced(&b), "{len} {i}");
            b[i] = 0x19;
            assert!(!single_spaced(&b), "{len} {i}");
            b[i] = 0xc3;
            assert!(!single_spaced(&b), "{len} {i}");
        }
    }
}

/// The longest words a ply writes fit their room whole: the largest move number (Black's,
/// with its `...`), a fully disambiguated promotion with a capture, check and a glyph,
/// a bughouse board's number.
#[test]
fn the_longest_words_are_written_whole() {
    use super::{Converted, Rewrite, Target, convert_text};
    use crate::game::header::Options;
    let convert = |text: &str| match convert_text(
        1,
        1,
        text,
        &Rewrite::to(Target::Lichess),
        &Options::default(),
    ) {
        Converted::Game(g, _) => g,
        Converted::Refused(r) => panic!("refused: {:?}", r.problems),
    };
    // Black to move at move 4294967295 (the largest fullmove number a FEN can give).
    let game = convert(
        "[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 4294967295\"]\n[SetUp \"1\"]\n\n\
         4294967295... Kd7 *\n",
    );
    assert!(game.ends_with("\n4294967295... Kd7 *\n\n"), "{game}");
    // Three white queens reach b2: the capture there needs file and rank, and it mates.
    let game =
        convert("[FEN \"7k/8/8/8/8/8/Qr6/QQ5K w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Qa1xb2!! *\n");
    assert!(game.ends_with("\n1. Qa1xb2#!! *\n\n"), "{game}");
}

/// A comment is written as the word-by-word path writes it (the shortcut for a
/// single-spaced one that fits on the line agrees): from every column of every width up
/// to 40 and at one line per game, with parentheses waiting or not, the same lines and
/// the same column after it. The comments mix commands (opened and closed in one word or
/// across several, left open, nested `[`) with plain words, single-spaced or not.
#[test]
fn a_comment_is_written_as_word_by_word_writes_it() {
    use super::wrap::Wrap;
    const COMMENTS: [&str; 12] = [
        "[%clk 0:03:00]",
        " [%eval 0.25] [%clk 0:03:00] ",
        "+2.28/27 41s",
        "x[%y a]b [%cal Ge2e4,Gd2d4]",
        "[%csl Rd4",
        "[a[%b %] ] e4",
        "{ verylongwordthatwillnotfitanywhere",
        "a  b",
        "a\tb\n[%clk\n1:00:00]",
        "",
        "   ",
        "caf\u{e9} au lait",
    ];
    let widths = (1..=40).chain([usize::MAX]);
    for width in widths {
        for col in 0..=width.min(42) {
            for open in 0..3 {
                for c in COMMENTS {
                    let fresh = || Wrap {
                        out: "x".repeat(col.min(1)),
                        col,
                        width,
                        open,
                    };
                    let mut fast = fresh();
                    fast.comment(c);
                    let mut slow = fresh();
                    slow.comment_words(c);
                    let case = format!("{c:?} at column {col} of {width}, {open} open");
                    assert_eq!(fast.out, slow.out, "{case}");
                    assert_eq!(fast.col, slow.col, "{case}");
                    assert_eq!(fast.open, slow.open, "{case}");
                }
            }
        }
    }
}

/// Random comments of command pieces, words and white space (single-spaced or not, so
/// that both shortcuts and the general path are taken) are written as the word-by-word
/// path writes them, at random columns, widths and waiting parentheses.
#[test]
fn random_comments_are_written_as_word_by_word_writes_them() {
    use super::wrap::Wrap;
    const PIECES: [&str; 12] = [
        "[%clk", "0:03:00]", "[%eval", "-1.5]", "]", "[", "%", "ab", "[%", " ", "  ", "\t",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..100_000 {
        let n = (next() % 8) as usize;
        let mut c = String::new();
        for _ in 0..n {
            c.push_str(PIECES[(next() % PIECES.len() as u64) as usize]);
            if next() % 2 == 0 {
                c.push(' ');
            }
        }
        let width = [(next() % 30 + 1) as usize, usize::MAX][(next() % 4 == 0) as usize];
        let col = (next() % 32) as usize;
        let open = (next() % 3) as usize;
        let fresh = || Wrap {
            out: "x".repeat(col.min(1)),
            col,
            width,
            open,
        };
        let mut fast = fresh();
        fast.comment(&c);
        let mut slow = fresh();
        slow.comment_words(&c);
        let case = format!("{c:?} at column {col} of {width}, {open} open");
        assert_eq!(fast.out, slow.out, "{case}");
        assert_eq!((fast.col, fast.open), (slow.col, slow.open), "{case}");
    }
}
