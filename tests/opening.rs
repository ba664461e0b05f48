//! Opening names against Lichess's own `[ECO]` and `[Opening]` tags, on the real Lichess
//! games of `samples/` (standard, May 2025; crazyhouse, 2018 and 2022 to 2025). With the
//! list Lichess had when it tagged them (`grammar-tests/openings/`), the classification
//! must give Lichess's ECO and name for at least 99.5 % of the games; with the newer list
//! compiled in, each game where it does not is listed, with the list's change that explains
//! it, in `docs/OPENINGS.md`.

mod common;

use std::io::Read;

use pocketfen::game::{OpeningWatch, Options, Status, classify_game, visit_game};
use pocketfen::opening::Book;
use pocketfen::stream::{GameSplitter, RawGame};

const LICHESS: [&str; 3] = [
    "samples/lichess_standard_2025-05_sample438.pgn",
    "samples/lichess_zh_2022-2025_bots75.pgn.zst",
    "samples/lichess_zh_2018_JannLee-CrazyAra.pgn",
];

fn games(path: &str) -> Vec<RawGame> {
    let mut bytes = Vec::new();
    pocketfen::stream::open(path)
        .unwrap()
        .reader
        .read_to_end(&mut bytes)
        .unwrap();
    GameSplitter::new(&bytes[..]).map(Result::unwrap).collect()
}

fn tag<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let start = text.find(&format!("[{name} \""))? + name.len() + 3;
    let end = text[start..].find("\"]")?;
    Some(&text[start..start + end])
}

/// The games Lichess tagged, and where pocketfen's name (by `book`) is not Lichess's: the
/// count and the disagreements, as `FILE game N: Lichess ECO NAME; pocketfen …`.
fn compare(book: Option<&'static Book>) -> (usize, Vec<String>) {
    let mut tagged = 0;
    let mut disagree = Vec::new();
    for path in LICHESS {
        for game in games(path) {
            let text = String::from_utf8_lossy(&game.bytes).into_owned();
            // Lichess's API exports an `[ECO]` without an `[Opening]`: its ECO is compared.
            let Some(eco) = tag(&text, "ECO").filter(|&e| e != "?") else {
                continue;
            };
            let name = tag(&text, "Opening");
            tagged += 1;
            let mut watch = OpeningWatch::new(book, false);
            let report = visit_game(&game, &Options::default(), &mut watch);
            assert_eq!(report.status, Status::Ok, "{path} game {}", game.number);
            let ours = watch.opening();
            let same = ours.is_some_and(|n| n.eco == eco && name.is_none_or(|name| n.name == name));
            if !same {
                let ours = ours.map_or("none".to_owned(), |n| format!("{} {}", n.eco, n.name));
                disagree.push(format!(
                    "{path} game {}: Lichess {eco} {}; pocketfen {ours}",
                    game.number,
                    name.unwrap_or("(no name)")
                ));
            }
        }
    }
    (tagged, disagree)
}

#[test]
fn with_the_list_lichess_had_names_agree_with_its_tags() {
    let files: Vec<&'static str> = ["a", "b", "c", "d", "e"]
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(format!(
                "grammar-tests/openings/lichess-2025-04-13/{f}.tsv"
            ))
            .unwrap();
            &*Box::leak(text.into_boxed_str())
        })
        .collect();
    let book: &'static Book = Box::leak(Box::new(Book::from_tsv(&files)));
    assert_eq!(book.lines().len(), 3_517);
    let (tagged, disagree) = compare(Some(book));
    assert!(tagged >= 500, "{tagged}");
    assert!(
        (tagged - disagree.len()) * 1000 >= tagged * 995,
        "{} of {tagged} agree: {disagree:#?}",
        tagged - disagree.len()
    );
}

#[test]
fn with_the_newer_list_each_disagreement_is_documented() {
    let (tagged, disagree) = compare(None);
    assert!(tagged >= 500, "{tagged}");
    let doc = std::fs::read_to_string("docs/OPENINGS.md").unwrap();
    let agree = tagged - disagree.len();
    assert!(
        doc.contains(&format!("{agree} of {tagged}")),
        "docs/OPENINGS.md does not give the count {agree} of {tagged}"
    );
    for d in &disagree {
        let game = d.split(':').next().unwrap();
        assert!(
            doc.contains(&format!("`{game}`")),
            "not in docs/OPENINGS.md: {d}"
        );
    }
}

/// Lichess names no opening for Horde, Chess960 or bughouse games, nor for a game from
/// another start; a standard game transposed into a named position gets that name.
#[test]
fn variants_and_starts_without_names_and_transpositions() {
    let (_, none) = classify_game(
        &games("samples/lichess_horde_2022_Daymon_Rivera-pripredi.pgn")[0],
        &Options::default(),
    );
    assert_eq!(none, None);
    for pgn in [
        "[Variant \"Chess960\"]\n[FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1\"]\n\n1. e4 e5 *\n",
        "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n\n1... c5 *\n",
        "[WhiteA \"a\"]\n\n1A. e4 1a. c5 *\n",
    ] {
        let game = RawGame::new(pgn.as_bytes().to_vec());
        let (report, named) = classify_game(&game, &Options::default());
        assert_eq!((report.status, named), (Status::Ok, None), "{pgn}");
    }
    // 1. Nf3 d5 2. d4 reaches the position of 1. d4 d5 2. Nf3.
    let game = RawGame::new(b"1. Nf3 d5 2. d4 *\n".to_vec());
    let named = classify_game(&game, &Options::default()).1.unwrap();
    let direct = classify_game(
        &RawGame::new(b"1. d4 d5 2. Nf3 *\n".to_vec()),
        &Options::default(),
    )
    .1
    .unwrap();
    assert_eq!(
        (named.eco, named.name, named.ply),
        (direct.eco, direct.name, 3)
    );
    assert_eq!(named.name, "Queen's Pawn Game: Zukertort Variation");
    // Crazyhouse: the pockets do not count.
    let zh = b"[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 *\n".to_vec();
    let named = classify_game(&RawGame::new(zh), &Options::default())
        .1
        .unwrap();
    assert_eq!(named.name, "Scandinavian Defense: Main Line");
}

/// `pocketfen opening`: a move list from the arguments (SAN, UCI, move numbers) or one
/// per line of stdin; a line whose move does not play is `?`, named on stderr, exit 1.
#[test]
fn the_opening_command_names_move_lists() {
    let run = common::piped;
    let (out, _, code) = run(&["opening", "1.", "e4", "c5", "2.", "Nf3", "d6"], "");
    assert_eq!(
        (out.as_str(), code),
        ("B50\tSicilian Defense: Modern Variations\t4\n", Some(0))
    );
    let (out, _, _) = run(&["opening", "--json", "d2d4", "g8f6", "c1f4"], "");
    assert_eq!(
        out,
        "{\"eco\":\"A45\",\"name\":\"Indian Defense: Accelerated London System\",\"ply\":3}\n"
    );
    let (out, err, code) = run(&["opening"], "1. Nf3 d5 2. d4\ne4 e5 Ke3\nh4\n");
    assert_eq!(
        out,
        "D02\tQueen's Pawn Game: Zukertort Variation\t3\n?\nA00\tKádas Opening\t1\n"
    );
    assert_eq!(code, Some(1));
    assert!(err.contains("line 2: ply 3 (Ke3): no-such-piece"), "{err}");
    let (out, _, code) = run(
        &[
            "opening",
            "--variant",
            "crazyhouse",
            "e4",
            "d5",
            "exd5",
            "Qxd5",
            "Nc3",
            "Qa5",
            "P@e4",
        ],
        "",
    );
    assert_eq!(
        (out.as_str(), code),
        ("B01\tScandinavian Defense: Main Line\t6\n", Some(0))
    );
    let (_, err, code) = run(&["opening", "--variant", "horde", "e4"], "");
    assert_eq!(code, Some(2));
    assert!(err.contains("not of horde"), "{err}");
}

/// Runs the binary with `args` and nothing on stdin: stdout, stderr, exit code.
fn run_cli(args: &[&str]) -> (String, String, Option<i32>) {
    common::piped(args, "")
}

/// The names the library gives the games of `path`, in order.
fn names_of(path: &str) -> Vec<Option<(String, String)>> {
    games(path)
        .iter()
        .map(|g| {
            classify_game(g, &Options::default())
                .1
                .map(|n| (n.eco.to_owned(), n.name.to_owned()))
        })
        .collect()
}

/// `pgn convert --add-tags eco,opening` writes each game's classification in place of its
/// own tags (`?` when none is named), and leaves the tags of a game Lichess names no
/// opening of; `pgn select --eco/--opening` and `pgn split --by eco` choose and file the
/// games by it.
#[test]
fn tags_selection_and_split_by_opening() {
    let sample = "samples/lichess_standard_2025-05_sample438.pgn";
    let expected = names_of(sample);
    let dir = common::scratch_dir("opening");
    let added = dir.join("added.pgn");
    let (_, err, code) = run_cli(&[
        "pgn",
        "convert",
        "-q",
        "--to",
        "lichess",
        "--add-tags",
        "eco,opening",
        "-o",
        added.to_str().unwrap(),
        sample,
    ]);
    assert_eq!(code, Some(0), "{err}");
    let written = games(added.to_str().unwrap());
    assert_eq!(written.len(), expected.len());
    let mut named = 0;
    for (game, want) in written.iter().zip(&expected) {
        let text = String::from_utf8_lossy(&game.bytes).into_owned();
        assert_eq!(text.matches("[ECO ").count(), 1, "{text}");
        assert_eq!(text.matches("[Opening ").count(), 1, "{text}");
        let got = (tag(&text, "ECO").unwrap(), tag(&text, "Opening").unwrap());
        match want {
            Some((eco, name)) => {
                named += 1;
                assert_eq!(got, (eco.as_str(), name.as_str()));
            }
            None => assert_eq!(got, ("?", "?")),
        }
        // In place: ECO before Termination, as Lichess writes it.
        assert!(text.find("[ECO ").unwrap() < text.find("[Termination ").unwrap());
    }
    assert!(named >= 430, "{named}");
    // A Horde game's tags stay as they were; a game without them gets them.
    let other =
        "[Variant \"Horde\"]\n[ECO \"?\"]\n\n1. e5 d6 *\n\n[Event \"x\"]\n\n1. e4 c5 2. Nf3 d6 *\n";
    let path = dir.join("other.pgn");
    std::fs::write(&path, other).unwrap();
    let (out, _, _) = run_cli(&[
        "pgn",
        "convert",
        "-q",
        "--to",
        "lichess",
        "--add-tags",
        "opening",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.matches("[ECO \"?\"]").count(), 1, "{out}");
    assert_eq!(out.matches("[Opening ").count(), 1, "{out}");
    assert!(
        out.contains("[Opening \"Sicilian Defense: Modern Variations\"]\n"),
        "{out}"
    );
    // Selection by ECO range and by name pattern.
    let count = |args: &[&str]| {
        let mut all = vec!["pgn", "select", "--count"];
        all.extend(args);
        all.push(sample);
        let (out, err, code) = run_cli(&all);
        assert_eq!(code, Some(0), "{err}");
        out.trim().parse::<usize>().unwrap()
    };
    // How many of the library's names meet `test`.
    let named_if = |test: &dyn Fn(&str, &str) -> bool| {
        expected
            .iter()
            .filter(|n| n.as_ref().is_some_and(|(e, n)| test(e, n)))
            .count()
    };
    let in_b = named_if(&|e, _| e.starts_with('B'));
    assert_eq!(count(&["--eco", "B00-B99"]), in_b);
    let c50_or_c55 = named_if(&|e, _| e == "C50" || e == "C55");
    assert!(c50_or_c55 > 5);
    assert_eq!(count(&["--eco", "C50,C55"]), c50_or_c55);
    let sicilian = named_if(&|_, n| n.starts_with("Sicilian Defense"));
    assert!(sicilian > 20);
    assert_eq!(count(&["--opening", "SICILIAN defense*"]), sicilian);
    // Split by ECO: every game in the file of its code, none lost.
    let pattern = dir.join("{value}.pgn");
    let (_, err, code) = run_cli(&[
        "pgn",
        "split",
        "-q",
        "--by",
        "eco",
        "-o",
        pattern.to_str().unwrap(),
        sample,
    ]);
    assert_eq!(code, Some(0), "{err}");
    let mut total = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_str().unwrap().to_owned();
        if stem == "added" || stem == "other" {
            continue;
        }
        for name in names_of(path.to_str().unwrap()) {
            total += 1;
            match name {
                Some((eco, _)) => assert_eq!(eco, stem),
                None => assert_eq!(stem, "%none"),
            }
        }
    }
    assert_eq!(total, expected.len());
    let _ = std::fs::remove_dir_all(&dir);
}

/// An `[ECO]` or `[Opening]` tag that does not know (`?`, `-`, empty) claims nothing:
/// `--strict` checks only a tag that names an opening (it warned "the ECO tag says ?").
#[test]
fn unknown_opening_tags_are_not_checked() {
    use pocketfen::game::{GameProblemKind, validate_str};
    let strict = Options {
        strict: true,
        ..Options::default()
    };
    let mismatches = |tags: &str| {
        let pgn = format!("{tags}\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n");
        validate_str(&pgn, &strict)[0]
            .problems
            .iter()
            .filter(|p| p.kind == GameProblemKind::OpeningMismatch)
            .count()
    };
    assert_eq!(mismatches("[ECO \"?\"]\n[Opening \"?\"]"), 0);
    assert_eq!(mismatches("[ECO \"-\"]\n[Opening \"\"]"), 0);
    assert_eq!(mismatches("[ECO \"C60\"]\n[Opening \"Ruy Lopez\"]"), 0);
    assert_eq!(mismatches("[ECO \"B00\"]\n[Opening \"?\"]"), 1);
}

/// `validate --strict` warns of an `[ECO]` or `[Opening]` tag that is not the opening the
/// moves reach, at the tag: on the samples, exactly the games whose tags disagree with
/// the compiled-in list's names; never without `--strict`.
#[test]
fn strict_validation_checks_the_opening_tags() {
    use pocketfen::game::{GameProblemKind, validate_game};
    let (_, disagree) = compare(None);
    let strict = Options {
        strict: true,
        ..Options::default()
    };
    let mut warned = Vec::new();
    for path in LICHESS {
        for game in games(path) {
            let text = String::from_utf8_lossy(&game.bytes).into_owned();
            let lax = validate_game(&game, &Options::default());
            assert!(
                lax.problems
                    .iter()
                    .all(|p| p.kind != GameProblemKind::OpeningMismatch)
            );
            let report = validate_game(&game, &strict);
            let mismatches: Vec<_> = report
                .problems
                .iter()
                .filter(|p| p.kind == GameProblemKind::OpeningMismatch)
                .collect();
            if mismatches.is_empty() {
                continue;
            }
            warned.push(format!("{path} game {}", game.number));
            for p in mismatches {
                // At the tag's own line, its value as the token.
                let line = text.lines().nth(p.line - game.line).unwrap();
                // (A token is clipped to 40 characters and `…`.)
                let token = p.token.as_deref().unwrap().trim_end_matches('…');
                assert!(
                    (line.starts_with("[ECO ") || line.starts_with("[Opening "))
                        && line.contains(&format!("\"{token}")),
                    "{line} / {p:?}"
                );
            }
        }
    }
    let expected: Vec<String> = disagree
        .iter()
        .map(|d| d.split(':').next().unwrap().to_owned())
        .collect();
    assert_eq!(warned, expected);
}

/// `validate --json --openings` names each game's opening in its record, as the library
/// classifies it; without the flag no record has one. `opening --fen` names positions.
#[test]
fn records_and_positions_carry_the_opening() {
    let sample = "samples/lichess_standard_2025-05_sample438.pgn";
    let expected = names_of(sample);
    let (out, err, code) = run_cli(&["validate", "--json", "--all", "--openings", sample]);
    assert!(code == Some(0) || code == Some(1), "{err}");
    let records: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|r: &serde_json::Value| r["type"] == "game")
        .collect();
    assert_eq!(records.len(), expected.len());
    let mut named = 0;
    for (r, want) in records.iter().zip(&expected) {
        match want {
            Some((eco, name)) => {
                named += 1;
                assert_eq!(
                    (r["opening"]["eco"].as_str(), r["opening"]["name"].as_str()),
                    (Some(eco.as_str()), Some(name.as_str()))
                );
                assert!(r["opening"]["ply"].as_u64().unwrap() > 0);
            }
            None => assert!(r.get("opening").is_none(), "{r}"),
        }
    }
    assert!(named > 400, "{named}");
    let (plain, _, _) = run_cli(&["validate", "--json", "--all", sample]);
    assert!(!plain.contains("\"opening\""));
    // Positions: the FEN of each of the first 60 lines of the list, named by the line
    // that the list names that position by (the first, for a position two lines reach).
    let mut fens = String::new();
    let mut want = Vec::new();
    for line in pocketfen::opening::all().iter().take(60) {
        let mut pos = pocketfen::Position::start(pocketfen::Variant::Chess);
        for token in line.pgn.split_whitespace().filter(|t| !t.ends_with('.')) {
            let san: pocketfen::notation::san::SanPlus = token.parse().unwrap();
            let m = san.san.to_move(&pos).unwrap();
            pos.play_unchecked(m);
        }
        fens.push_str(&format!(
            "{}\n",
            pos.to_setup()
                .display(pocketfen::notation::fen::FenDialect::Lichess)
        ));
        let named = pocketfen::opening::of_position(&pos).unwrap();
        want.push(format!("{}\t{}", named.eco, named.name));
    }
    let (out, err, code) = common::piped(&["opening", "--fen"], &fens);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.lines().collect::<Vec<_>>(), want);
    let (out, _, _) = run_cli(&[
        "opening",
        "--fen",
        "--json",
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
    ]);
    assert_eq!(out, "{\"eco\":null,\"name\":null,\"ply\":null}\n");
}
