//! Pictures: `fen show --svg` diagrams and the `validate --html` report. The SVGs are
//! snapshotted and parsed as XML, and what they draw is checked where it stands: pieces on
//! their squares, pockets with their counts, the marks. The report is checked against
//! `validate --json`: one card per problem, in order, at the same place.

mod common;

use std::path::Path;
use std::process::Command;

use pocketfen::Fen;
use pocketfen::draw::svg::{Marks, Style, fen_svg};
use pocketfen::notation::fen;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pocketfen"))
}

fn parse_fen(text: &str) -> Fen {
    fen::parse(text, None).expect("a test FEN").fen
}

/// The positions of the snapshot set: pockets, promotion, check, last move, flip, a pair.
const DIAGRAMS: &[(&str, &str, &[&str])] = &[
    (
        "standard",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        &["--last-move", "e2e4"],
    ),
    (
        "crazyhouse_check_promoted",
        "2r1kb1r/pp1Q~1ppp/4p3/3pP3/3P4/5N2/PPP2PPP/R3K2R/NBbpp b KQk - 0 14",
        &[],
    ),
    (
        "crazyhouse_flipped_drop",
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R[Pp] w KQkq - 0 5",
        &["--flip", "--last-move", "P@d3", "--size", "32"],
    ),
    (
        "chesscom_promoted",
        "4k3/8/8/8/8/8/8/4K2Q w - - 0 40 QRrppp h1",
        &[],
    ),
    (
        "horde",
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
        &[],
    ),
    (
        "bughouse_pair",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR/ b KQkq - 0 1 | r1bqkb1r/pppppppp/2n5/8/8/5n2/PPPPPPPP/RNBQKB1R/Pp w KQkq - 0 3",
        &["--last-move", "A:e2e4", "--last-move", "b:N@f3"],
    ),
];

fn show_svg(fen: &str, extra: &[&str]) -> String {
    let out = bin()
        .args(["fen", "show", "--svg"])
        .args(extra)
        .arg(fen)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn svg_snapshots_parse_as_xml() {
    let settings = common::snapshot_settings();
    for (name, fen, extra) in DIAGRAMS {
        let svg = show_svg(fen, extra);
        let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(doc.root_element().tag_name().name(), "svg", "{name}");
        settings.bind(|| insta::assert_snapshot!(format!("svg_{name}"), svg));
    }
}

/// Every `<use>` of a piece symbol: (symbol, x, y, size, faded).
fn uses(svg: &str) -> Vec<(String, f64, f64, f64, bool)> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("use"))
        .map(|n| {
            let num = |a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
            (
                n.attribute("href")
                    .unwrap()
                    .trim_start_matches('#')
                    .to_owned(),
                num("x"),
                num("y"),
                num("width"),
                n.attribute("opacity").is_some(),
            )
        })
        .collect()
}

/// The `<title>`s of the marks, in order.
fn titles(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("title"))
        .skip(1)
        .filter_map(|n| n.text().map(str::to_owned))
        .collect()
}

#[test]
fn pieces_stand_on_their_squares_and_flip_turns_the_board() {
    let fen = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1";
    let s = 40.0;
    // Margins are 0.45 of a square (rounded): 18 px at 40 px.
    let (left, top) = (18.0, 18.0);
    let plain = uses(&show_svg(fen, &["--size", "40"]));
    let flipped = uses(&show_svg(fen, &["--size", "40", "--flip"]));
    let at = |list: &[(String, f64, f64, f64, bool)], id: &str| {
        list.iter()
            .find(|u| u.0 == id)
            .map(|u| (u.1, u.2, u.3))
            .unwrap_or_else(|| panic!("{id} not drawn"))
    };
    // White at the bottom: e1 is file 4 from the left, rank 1 is the last row.
    assert_eq!(at(&plain, "pf-wK"), (left + 4.0 * s, top + 7.0 * s, s));
    assert_eq!(at(&plain, "pf-wR"), (left, top + 7.0 * s, s));
    assert_eq!(at(&plain, "pf-bK"), (left + 4.0 * s, top, s));
    // Flipped: h1 is top-left, so e1 is file 3 from the left of the first row.
    assert_eq!(at(&flipped, "pf-wK"), (left + 3.0 * s, top, s));
    assert_eq!(at(&flipped, "pf-wR"), (left + 7.0 * s, top, s));
    assert_eq!(at(&flipped, "pf-bK"), (left + 3.0 * s, top + 7.0 * s, s));
    // No pockets in a standard FEN: three pieces, nothing else.
    assert_eq!(plain.len(), 3);
}

#[test]
fn pockets_show_counts_and_fade_empty_slots() {
    // White holds N, N, P; Black holds q.
    let svg = show_svg("4k3/8/8/8/8/8/8/4K3/NNPq w - - 0 1", &[]);
    let list = uses(&svg);
    // 2 kings + 10 pocket slots.
    assert_eq!(list.len(), 12);
    let slot = |id: &str| {
        list.iter()
            .find(|u| u.0 == id && u.3 < 45.0)
            .unwrap()
            .clone()
    };
    assert!(!slot("pf-wN").4 && !slot("pf-wP").4 && !slot("pf-bQ").4);
    assert!(slot("pf-wQ").4 && slot("pf-bN").4, "empty slots are faded");
    // White's pocket is at the bottom, Black's at the top.
    assert!(slot("pf-wN").2 > slot("pf-bQ").2);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let counts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("font-weight") == Some("bold"))
        .filter_map(|n| n.text())
        .collect();
    // In drawing order, queen to pawn: black q; white N N, P.
    assert_eq!(counts, ["1", "2", "1"]);
}

#[test]
fn marks_check_promotion_last_move_and_side_to_move() {
    let svg = show_svg(
        "2r1kb1r/pp1Q~1ppp/4p3/3pP3/3P4/5N2/PPP2PPP/R3K2R/NBbp b KQk - 0 14",
        &["--last-move", "d1d7"],
    );
    let t = titles(&svg);
    assert_eq!(t.iter().filter(|t| *t == "last move").count(), 2);
    assert_eq!(t.iter().filter(|t| *t == "in check").count(), 1);
    assert_eq!(t.iter().filter(|t| *t == "promoted").count(), 1);
    assert!(t.contains(&"black to move".to_owned()));
    // No check, no promoted piece, a drop's last move marks one square.
    let quiet = titles(&show_svg(
        "4k3/8/8/8/8/8/8/4K3/Q w - - 0 1",
        &["--last-move", "Q@a5"],
    ));
    assert!(!quiet.contains(&"in check".to_owned()));
    assert!(!quiet.contains(&"promoted".to_owned()));
    assert_eq!(quiet.iter().filter(|t| *t == "last move").count(), 1);
    assert!(quiet.contains(&"white to move".to_owned()));
}

#[test]
fn a_pair_seats_partners_side_by_side() {
    let fen = "4k3/8/8/8/8/8/8/4K3/ w - - 0 1 | 4k3/8/8/8/8/8/8/4K3/ w - - 0 1";
    let list = uses(&show_svg(fen, &["--size", "40"]));
    let kings: Vec<_> = list
        .iter()
        .filter(|u| u.0 == "pf-wK" && u.3 == 40.0)
        .collect();
    assert_eq!(kings.len(), 2);
    // Board A: White at the bottom; board B is turned, its white king at the top.
    assert!(kings[0].2 > kings[1].2);
    assert!(
        kings[1].1 > kings[0].1 + 8.0 * 40.0,
        "board B is right of board A"
    );
    // --flip turns both.
    let flipped = uses(&show_svg(fen, &["--size", "40", "--flip"]));
    let kings: Vec<_> = flipped
        .iter()
        .filter(|u| u.0 == "pf-wK" && u.3 == 40.0)
        .collect();
    assert!(kings[0].2 < kings[1].2);
}

#[test]
fn show_svg_is_the_library_diagram() {
    let fen = "2r1kb1r/pp1Q~1ppp/4p3/3pP3/3P4/5N2/PPP2PPP/R3K2R/NBbp b KQk - 0 14";
    let marks = Marks {
        last_move: Some((Some("d1".parse().unwrap()), "d7".parse().unwrap())),
        ..Marks::default()
    };
    let lib = fen_svg(
        &parse_fen(fen),
        Style {
            flip: true,
            square: 30,
        },
        &[marks],
    );
    let cli = show_svg(fen, &["--flip", "--size", "30", "--last-move", "d1d7"]);
    assert_eq!(cli.trim_end(), lib);
}

#[test]
fn bad_svg_arguments_are_refused() {
    let run = |args: &[&str]| {
        let out = bin().args(args).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    // A --last-move that is not UCI, or names board B of one board: usage errors (exit 2).
    let (code, err) = run(&["fen", "show", "--svg", "--last-move", "e2e9", start]);
    assert_eq!(code, Some(2));
    assert!(err.contains("'e2e9' for '--last-move <UCI>'"), "{err}");
    let (code, err) = run(&["fen", "show", "--svg", "--last-move", "B:e2e4", start]);
    assert_eq!(code, Some(2));
    assert!(err.contains("only in a bughouse pair"), "{err}");
    // --size or --last-move without --svg (with --ascii too, which clap let through
    // before), a size out of range: usage errors.
    for args in [
        &["--size", "30"][..],
        &["--ascii", "--size", "30"],
        &["--ascii", "--last-move", "e2e4"],
        &["--last-move", "e2e4"],
    ] {
        let mut all = vec!["fen", "show"];
        all.extend_from_slice(args);
        all.push(start);
        let (code, err) = run(&all);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(err.contains("give --svg"), "{args:?}: {err}");
    }
    assert_eq!(
        run(&["fen", "show", "--svg", "--size", "8", start]).0,
        Some(2)
    );
    // A FEN that does not parse: exit 1, no SVG.
    let out = bin()
        .args(["fen", "show", "--svg", "8/8 w"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
}

// The HTML report.

fn err_files() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir("grammar-tests/pgn/err")
        .unwrap()
        .map(|e| e.unwrap().path().to_str().unwrap().to_owned())
        .collect();
    files.sort();
    files
}

/// Runs `validate` with `--html` into a temporary file; returns the exit code and the page.
fn report(args: &[&str], files: &[String]) -> (Option<i32>, String) {
    let dir = tempfile_dir();
    let path = dir.join("report.html");
    let out = bin()
        .arg("validate")
        .arg("-q")
        .args(args)
        .arg("--html")
        .arg(&path)
        .args(files)
        .output()
        .unwrap();
    let html = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    (out.status.code(), html)
}

fn tempfile_dir() -> std::path::PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    common::scratch_dir(&format!("draw-{}", N.fetch_add(1, Ordering::Relaxed)))
}

fn xml(html: &str) -> roxmltree::Document<'_> {
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    roxmltree::Document::parse_with_options(html, opts).expect("the report is well-formed")
}

/// The errors' kinds among a report's cards.
fn error_kinds(html: &str) -> std::collections::BTreeSet<String> {
    let doc = xml(html);
    doc.descendants()
        .filter(|n| n.has_tag_name("section") && n.attribute("data-severity") == Some("error"))
        .map(|n| n.attribute("data-kind").unwrap().to_owned())
        .collect()
}

/// Each card's `data-kind` and location text.
fn cards(html: &str) -> Vec<(String, String)> {
    let doc = xml(html);
    doc.descendants()
        .filter(|n| {
            n.has_tag_name("section") && n.attribute("class").is_some_and(|c| c.starts_with("card"))
        })
        .map(|n| {
            let loc = n
                .descendants()
                .find(|d| d.attribute("class") == Some("loc"))
                .and_then(|d| d.text())
                .unwrap()
                .to_owned();
            (n.attribute("data-kind").unwrap().to_owned(), loc)
        })
        .collect()
}

#[test]
fn the_report_has_one_card_per_problem_where_validate_reports_it() {
    let files = err_files();
    let json = bin()
        .args(["validate", "-q", "--json"])
        .args(&files)
        .output()
        .unwrap();
    let mut expected = Vec::new();
    for line in String::from_utf8(json.stdout).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["type"] == "game" {
            for p in v["problems"].as_array().unwrap() {
                expected.push((
                    p["kind"].as_str().unwrap().to_owned(),
                    format!(
                        "{}:{}:{}",
                        v["file"].as_str().unwrap(),
                        p["line"],
                        p["column"]
                    ),
                ));
            }
        }
    }
    assert!(expected.len() >= 14, "the err samples have problems");
    let (code, html) = report(&[], &files);
    assert_eq!(code, json.status.code(), "--html keeps the exit code");
    assert_eq!(code, Some(1));
    assert_eq!(cards(&html), expected);
    assert!(html.contains(&format!(
        "{n} problems in all; {n} shown.",
        n = expected.len()
    )));
    // Nothing is loaded from elsewhere.
    assert!(
        !html.contains("src=\"http") && !html.contains("<link"),
        "self-contained"
    );
}

#[test]
fn the_report_is_the_same_for_any_number_of_jobs() {
    let files = err_files();
    let mask = |html: String| {
        let mut out = String::new();
        let mut rest = html.as_str();
        while let Some(i) = rest.find("<td class=\"time\">") {
            out.push_str(&rest[..i]);
            let end = rest[i..].find("</td>").unwrap();
            rest = &rest[i + end..];
        }
        out.push_str(rest);
        out
    };
    let one = mask(report(&["-j", "1"], &files).1);
    let two = mask(report(&["-j", "2"], &files).1);
    let seven = mask(report(&["-j", "7"], &files).1);
    assert_eq!(one, two);
    assert_eq!(one, seven);
}

/// `--html-max N` draws the first N problems of each kind (a frequent kind never hides a
/// rarer one: before, the first N problems of any kind took every card), at most 5 N in
/// all (where errors take the place of warnings, and a rare kind a frequent kind's
/// later cards), and counts the rest per kind.
#[test]
fn html_max_draws_the_first_problems_of_each_kind_and_counts_the_rest() {
    // Eight games of two long-algebraic moves each (warnings), then an illegal move.
    let dir = tempfile_dir();
    let file = dir.join("warnings-then-error.pgn");
    let mut pgn = "[Event \"w\"]\n\n1. e2e4 e7e5 *\n\n".repeat(8);
    pgn.push_str("[Event \"e\"]\n\n1. e4 Ke5 *\n");
    std::fs::write(&file, &pgn).unwrap();
    let (code, html) = report(&["--html-max", "3"], &[file.to_str().unwrap().to_owned()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, Some(1));
    let kinds: Vec<String> = cards(&html).into_iter().map(|(k, _)| k).collect();
    assert_eq!(
        kinds,
        [
            "non-san-move",
            "non-san-move",
            "non-san-move",
            "no-such-piece"
        ]
    );
    assert!(
        html.contains("17 problems in all; 4 shown (the first 3 of each kind, 15 at most in all:")
    );
    // The total: with N = 1, the first problem of each of the first five kinds of
    // errors (the files have more than five), warnings given way to them.
    let files = err_files();
    let (_, all) = report(&[], &files);
    let (code, few) = report(&["--html-max", "1"], &files);
    assert_eq!(code, Some(1));
    let all_cards = cards(&all);
    let errors = error_kinds(&all);
    let mut seen = std::collections::BTreeSet::new();
    let first_of_each: Vec<_> = all_cards
        .iter()
        .filter(|(kind, _)| errors.contains(kind) && seen.insert(kind.clone()))
        .cloned()
        .collect();
    assert!(first_of_each.len() > 5, "{all_cards:?}");
    assert!(
        all_cards.iter().any(|(k, _)| !errors.contains(k)),
        "warnings too"
    );
    assert_eq!(cards(&few), first_of_each[..5]);
    let rest: usize = {
        let doc = xml(&few);
        doc.descendants()
            .filter(|n| n.has_tag_name("table") && n.attribute("class") == Some("kinds"))
            .flat_map(|t| t.children().skip(1))
            .filter_map(|row| row.children().nth(3).and_then(|c| c.text()))
            .map(|n| n.parse::<usize>().unwrap())
            .sum()
    };
    assert_eq!(rest, all_cards.len() - 5);
    assert!(few.contains(&format!(
        "{} problems in all; 5 shown (the first 1 of each kind, 5 at most in all:",
        all_cards.len()
    )));
}

/// Warnings of three kinds on every game fill the cards' total before a rare error
/// comes: the error still gets its card, in the place of the most frequent kind's last
/// (a tester's report of 5,000 warning cards and none for the one `ambiguous` move).
#[test]
fn a_rare_error_takes_the_place_of_frequent_warnings() {
    let dir = tempfile_dir();
    let file = dir.join("warnings-then-errors.pgn");
    // Each game: five kinds of warnings (malformed-tag, duplicate-tag,
    // ply-count-mismatch, non-san-move, nag-out-of-range).
    let game = "[Event \"w\"]\n[White \"\"Socrates Expert\"\"]\n[Result \"*\"]\n[Result \"*\"]\n\
                [PlyCount \"9\"]\n\n1. e2e4 $300 e5 *\n\n";
    let mut pgn = game.repeat(20);
    pgn.push_str("[Event \"e\"]\n\n1. e4 Ke5 *\n\n[Event \"e\"]\n\n1. e4 e5 2. Ke3 *\n");
    std::fs::write(&file, &pgn).unwrap();
    let (code, html) = report(&["--html-max", "3"], &[file.to_str().unwrap().to_owned()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, Some(1));
    let kinds: Vec<String> = cards(&html).into_iter().map(|(k, _)| k).collect();
    assert_eq!(kinds.len(), 15, "{kinds:?}");
    let count = |k: &str| kinds.iter().filter(|c| *c == k).count();
    assert_eq!(count("no-such-piece"), 2, "both illegal moves: {kinds:?}");
    let warnings = [
        "malformed-tag",
        "duplicate-tag",
        "ply-count-mismatch",
        "non-san-move",
    ];
    let kept: usize = warnings.iter().map(|k| count(k)).sum::<usize>() + count("nag-out-of-range");
    assert_eq!(kept, 13, "{kinds:?}");
    // Two kinds gave a card each, the others kept their three.
    let all = [warnings.as_slice(), &["nag-out-of-range"]].concat();
    let mut counts: Vec<usize> = all.iter().map(|k| count(k)).collect();
    counts.sort();
    assert_eq!(counts, [2, 2, 3, 3, 3], "{kinds:?}");
    // The errors' cards are the last two (in input order).
    assert_eq!(kinds[13..], ["no-such-piece", "no-such-piece"]);
    // One game whose own warnings fill the cards before its illegal move (N = 1): the
    // error takes the place of the game's last warning still to be drawn.
    let dir = tempfile_dir();
    let file = dir.join("one-game.pgn");
    // (Six problems: the five warnings, `variant-inferred` for one of them.)
    let one = game
        .replace("[Event \"w\"]", "[Event \"Rated Crazyhouse game\"]")
        .replace("[PlyCount \"9\"]\n", "")
        .replace("1. e2e4 $300 e5 *", "1. e2e4 $300 e5 2. Ke3 *");
    std::fs::write(&file, &one).unwrap();
    let (_, html) = report(&["--html-max", "1"], &[file.to_str().unwrap().to_owned()]);
    std::fs::remove_dir_all(&dir).unwrap();
    let kinds: Vec<String> = cards(&html).into_iter().map(|(k, _)| k).collect();
    assert_eq!(kinds.len(), 5, "{kinds:?}");
    assert_eq!(
        kinds.last().map(String::as_str),
        Some("no-such-piece"),
        "{kinds:?}"
    );
    assert!(html.contains("6 problems in all; 5 shown"), "{kinds:?}");
}

/// The card of the first problem of a one-game PGN.
fn one_card(pgn: &str, ext: &str, args: &[&str]) -> String {
    let dir = tempfile_dir();
    let file = dir.join(format!("game.{ext}"));
    std::fs::write(&file, pgn).unwrap();
    let (_, html) = report(args, &[file.to_str().unwrap().to_owned()]);
    std::fs::remove_dir_all(&dir).unwrap();
    let start = html.find("<section class=\"card").expect("a card");
    let end = html[start..].find("</section>").unwrap();
    html[start..start + end + "</section>".len()].to_owned()
}

#[test]
fn an_ambiguous_move_marks_its_candidates_and_lists_the_legal_moves() {
    let card = one_card(
        "[White \"Ann <b>\"]\n[Black \"Bo\u{202e}\"]\n[Site \"https://lichess.org/abcd1234\"]\n\n1. d4 e5 2. Nf3 a6 3. Nd2 *\n",
        "pgn",
        &[],
    );
    assert!(card.contains("data-kind=\"ambiguous\""));
    assert_eq!(
        card.matches("<title>candidate</title>").count(),
        2,
        "Nb1 and Nf3"
    );
    assert_eq!(card.matches("<title>target</title>").count(), 1);
    // Tags are escaped, a bidirectional override too (it turned the rest of the line).
    assert!(card.contains("Ann &lt;b&gt; – Bo\\u{202e}"), "{card}");
    assert!(!card.contains('\u{202e}'));
    assert!(card.contains("<a href=\"https://lichess.org/abcd1234\">"));
    assert!(
        card.contains("<b>moves:</b> 1. d4 e5 2. Nf3 a6</p>"),
        "{card}"
    );
    assert!(
        card.contains("Nbd2") && card.contains("Nfd2"),
        "the legal moves in SAN"
    );
    // The last move before the problem (a7a6) is marked.
    assert_eq!(card.matches("<title>last move</title>").count(), 2);
}

#[test]
fn a_drop_without_the_piece_marks_the_pocket_slot() {
    let card = one_card(
        "[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Q@e4 *\n",
        "pgn",
        &[],
    );
    assert!(card.contains("data-kind=\"not-in-pocket\""));
    assert_eq!(card.matches("missing from the pocket").count(), 1);
    assert_eq!(card.matches("<title>target</title>").count(), 1);
    assert!(card.contains("P@"), "pawn drops are among the legal moves");
}

#[test]
fn a_bughouse_problem_shows_both_boards() {
    let bpgn = std::fs::read_to_string("grammar-tests/bpgn/err/drop-never-passed.bpgn").unwrap();
    let card = one_card(&bpgn, "bpgn", &[]);
    assert!(
        card.contains("board A") && card.contains("board B"),
        "{card}"
    );
    assert!(
        card.contains(" on board "),
        "the legal moves name their board"
    );
    let doc = xml(&card);
    assert_eq!(
        doc.descendants().filter(|n| n.has_tag_name("svg")).count(),
        1
    );
}

#[test]
fn an_input_that_cannot_be_read_is_in_the_report() {
    let (code, html) = report(&[], &["no/such/file.pgn".to_owned()]);
    assert_eq!(code, Some(2));
    assert!(html.contains("no/such/file.pgn<br/><span class=\"broken\">incomplete:"));
    assert!(cards(&html).is_empty());
}

#[test]
fn a_report_that_cannot_be_written_fails_before_any_work() {
    let out = bin()
        .args(["validate", "--html", "/no/such/dir/report.html"])
        .arg(Path::new("grammar-tests/pgn/err/illegal-drop.pgn"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "nothing was validated");
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/dir"));
}

#[test]
fn the_report_of_every_malformed_archive_is_well_formed() {
    // Control characters, Latin-1 names, broken streams: the page stays well-formed XML,
    // with a card for every problem (the default limit is not reached).
    let mut files = Vec::new();
    for dir in ["pgn", "bpgn", "compressed"] {
        for e in std::fs::read_dir(format!("grammar-tests/malformed/{dir}")).unwrap() {
            files.push(e.unwrap().path().to_str().unwrap().to_owned());
        }
    }
    files.sort();
    let (code, html) = report(&["--strict", "--variations"], &files);
    assert_eq!(code, Some(2), "some compressed streams are broken");
    let doc = xml(&html);
    let cards = doc
        .descendants()
        .filter(|n| n.has_tag_name("section") && n.attribute("data-kind").is_some())
        .count();
    assert!(cards > 100, "{cards}");
    assert!(!html.contains('\u{1}') && !html.contains('\u{1b}'));
}
