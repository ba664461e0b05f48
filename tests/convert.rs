//! `pgn convert`: every corpus game to every target (snapshotted), round trips, and a
//! differential replay of the Lichess and Xboard output by shakmaty + pgn-reader (what
//! "imports on Lichess" means here).

mod common;

use std::fs;
use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus as PeerSan, Visitor};
use pocketfen::game::Options;
use pocketfen::game::{Converted, Rewrite, Target, convert_game};
use pocketfen::game::{PlyText, replay_game};
use pocketfen::notation::fen::FenDialect;
use pocketfen::stream::GameSplitter;
use shakmaty::fen::Fen;
use shakmaty::variant::{Crazyhouse, Horde, VariantPosition};
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};

const TARGETS: [(Target, &str); 3] = [
    (Target::Lichess, "lichess"),
    (Target::Chesscom, "chesscom"),
    (Target::Xboard, "xboard"),
];

fn convert_all(bytes: &[u8], target: Target) -> String {
    let mut out = String::new();
    for game in GameSplitter::new(bytes) {
        match convert_game(&game.unwrap(), &Rewrite::to(target), &Options::default()) {
            Converted::Game(text, _) => out.push_str(&text),
            Converted::Refused(r) => panic!("a corpus game did not convert: {:?}", r.problems),
        }
    }
    out
}

fn corpus() -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = fs::read_dir("grammar-tests/pgn/ok")
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                fs::read(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_corpus_game_converts_to_every_target() {
    common::snapshot_settings().bind(|| {
        for (name, bytes) in corpus() {
            for (target, tname) in TARGETS {
                insta::assert_snapshot!(
                    format!("convert_{tname}@{name}"),
                    convert_all(&bytes, target)
                );
            }
        }
    });
}

#[test]
fn conversions_round_trip_byte_for_byte() {
    for (name, bytes) in corpus() {
        let lichess = convert_all(&bytes, Target::Lichess);
        let chesscom = convert_all(lichess.as_bytes(), Target::Chesscom);
        assert_eq!(
            convert_all(chesscom.as_bytes(), Target::Lichess),
            lichess,
            "{name}: lichess → chesscom → lichess"
        );
        let xboard = convert_all(lichess.as_bytes(), Target::Xboard);
        assert_eq!(
            convert_all(xboard.as_bytes(), Target::Lichess),
            lichess,
            "{name}: lichess → xboard → lichess"
        );
        assert_eq!(
            convert_all(lichess.as_bytes(), Target::Lichess),
            lichess,
            "{name}: idempotent"
        );
    }
}

/// Replays each game with shakmaty (through pgn-reader) and returns the final FEN fields
/// compared: board with pockets, side to move.
struct Peer;

impl Visitor for Peer {
    type Tags = (Option<String>, Option<String>);
    type Movetext = Option<VariantPosition>;
    type Output = Option<String>;
    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue((None, None))
    }
    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        let v = value.decode_utf8_lossy().into_owned();
        match name {
            b"Variant" => tags.0 = Some(v),
            b"FEN" => tags.1 = Some(v),
            _ => {}
        }
        ControlFlow::Continue(())
    }
    fn begin_movetext(
        &mut self,
        (variant, fen): Self::Tags,
    ) -> ControlFlow<Self::Output, Self::Movetext> {
        let v = variant.unwrap_or_default().to_ascii_lowercase();
        let fen: Fen = fen
            .unwrap_or_else(|| {
                if v == "horde" {
                    "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"
                        .into()
                } else {
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into()
                }
            })
            .parse()
            .unwrap();
        let pos = match v.as_str() {
            "crazyhouse" => VariantPosition::Crazyhouse(
                fen.into_position::<Crazyhouse>(CastlingMode::Chess960)
                    .unwrap(),
            ),
            "horde" => {
                VariantPosition::Horde(fen.into_position::<Horde>(CastlingMode::Chess960).unwrap())
            }
            _ => {
                VariantPosition::Chess(fen.into_position::<Chess>(CastlingMode::Chess960).unwrap())
            }
        };
        ControlFlow::Continue(Some(pos))
    }
    fn san(&mut self, pos: &mut Self::Movetext, san: PeerSan) -> ControlFlow<Self::Output> {
        if let Some(p) = pos {
            match san.san.to_move(p) {
                Ok(m) => p.play_unchecked(m),
                Err(_) => *pos = None,
            }
        }
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, pos: Self::Movetext) -> Self::Output {
        pos.map(|p| {
            let fen = Fen::from_position(&p, EnPassantMode::Legal).to_string();
            fen.split(' ').take(2).collect::<Vec<_>>().join(" ")
        })
    }
}

#[test]
fn shakmaty_replays_lichess_and_xboard_output_to_our_final_positions() {
    let mut games = 0;
    for (name, bytes) in corpus() {
        for target in [Target::Lichess, Target::Xboard] {
            let text = convert_all(&bytes, target);
            let peer: Vec<Option<String>> = Reader::new(text.as_bytes())
                .read_games(&mut Peer)
                .map(|r| r.unwrap())
                .collect();
            let ours: Vec<String> = GameSplitter::new(text.as_bytes())
                .map(|g| {
                    let g = g.unwrap();
                    let mut last = None;
                    let fens = PlyText::Fen(FenDialect::Bracket);
                    replay_game(&g, &Options::default(), fens, &mut |fen| {
                        last = Some(fen.to_owned())
                    });
                    let fen =
                        last.unwrap_or_else(|| panic!("{name}: game {} has no moves", g.number));
                    fen.split(' ').take(2).collect::<Vec<_>>().join(" ")
                })
                .collect();
            assert_eq!(peer.len(), ours.len(), "{name}");
            for (n, (p, o)) in peer.iter().zip(&ours).enumerate() {
                let p = p.as_ref().unwrap_or_else(|| {
                    panic!("{name} ({target:?}): shakmaty rejects game {}", n + 1)
                });
                // shakmaty writes pockets P N B R Q, our bracket dialect Q R B N P
                // (python-chess's order): the positions are compared, not the strings.
                let read = |two_fields: &str| {
                    let s: pocketfen::Setup = two_fields.parse().unwrap();
                    (s.board, s.promoted, s.pockets, s.turn)
                };
                assert_eq!(
                    read(p),
                    read(o),
                    "{name} ({target:?}) game {}: {p} / {o}",
                    n + 1
                );
                games += 1;
            }
        }
    }
    assert!(games > 500, "{games}");
}

/// Chess.com's `CurrentPosition` rewritten to a bracket FEN by this test alone (not by
/// pocketfen): the pocket field goes into brackets and each listed promoted square gets
/// its `~`.
fn chesscom_to_bracket(fen: &str) -> String {
    let fields: Vec<&str> = fen.split(' ').collect();
    assert!(fields.len() >= 6, "{fen}");
    let (pocket, promoted) = match fields.get(6) {
        Some(&"-") | None => ("", &fields[fields.len().min(7)..]),
        Some(p) => (*p, &fields[7..]),
    };
    // The board as 64 cells, rank 8 first, then written back with the marks.
    let mut cells: Vec<String> = Vec::new();
    for c in fields[0].chars() {
        match c {
            '/' => {}
            '1'..='8' => {
                for _ in 0..c.to_digit(10).unwrap() {
                    cells.push(String::new());
                }
            }
            _ => cells.push(c.to_string()),
        }
    }
    assert_eq!(cells.len(), 64, "{fen}");
    for sq in promoted {
        let b = sq.as_bytes();
        let (file, rank) = (usize::from(b[0] - b'a'), usize::from(b[1] - b'1'));
        cells[(7 - rank) * 8 + file].push('~');
    }
    let mut board = String::new();
    for (r, row) in cells.chunks(8).enumerate() {
        if r > 0 {
            board.push('/');
        }
        let mut empty = 0;
        for cell in row {
            if cell.is_empty() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                board.push_str(&empty.to_string());
                empty = 0;
            }
            board.push_str(cell);
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
    }
    format!("{board}[{pocket}] {}", fields[1..6].join(" "))
}

/// An outside reader confirms the Chess.com output. shakmaty replays the
/// converted movetext (bare `@e4` drops included), and its final position equals the
/// `CurrentPosition` pocketfen wrote, read through the rewrite above.
#[test]
fn shakmaty_confirms_the_chesscom_current_position() {
    let mut checked = 0;
    for (name, bytes) in corpus() {
        let text = convert_all(&bytes, Target::Chesscom);
        let peer: Vec<Option<String>> = Reader::new(text.as_bytes())
            .read_games(&mut Peer)
            .map(|r| r.unwrap())
            .collect();
        let current: Vec<Option<&str>> = text
            .split("\n\n[Event ")
            .map(|game| {
                game.lines()
                    .find_map(|l| l.strip_prefix("[CurrentPosition \""))
                    .map(|v| v.trim_end_matches("\"]"))
            })
            .collect();
        assert_eq!(peer.len(), current.len(), "{name}");
        for (n, (p, c)) in peer.iter().zip(&current).enumerate() {
            let (Some(p), Some(c)) = (p, c) else {
                panic!(
                    "{name} game {}: shakmaty {p:?}, CurrentPosition {c:?}",
                    n + 1
                );
            };
            // Chess.com writes CurrentPosition for crazyhouse games only.
            if !text.contains("[Variant \"Crazyhouse\"]") {
                continue;
            }
            let fen: Fen = chesscom_to_bracket(c).parse().unwrap_or_else(|e| {
                panic!("{name} game {}: shakmaty cannot read {c:?}: {e}", n + 1)
            });
            let pos = fen
                .into_position::<Crazyhouse>(CastlingMode::Chess960)
                .unwrap_or_else(|e| panic!("{name} game {}: {c:?}: {e}", n + 1));
            let theirs = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
            let theirs: Vec<&str> = theirs.split(' ').take(2).collect();
            assert_eq!(&theirs.join(" "), p, "{name} game {}: {c}", n + 1);
            checked += 1;
        }
    }
    // 295 crazyhouse games in grammar-tests/pgn/ok, 25 of them with promoted pieces.
    assert!(checked >= 290, "{checked} crazyhouse games checked");
}

#[test]
fn the_chesscom_game_becomes_lichess_importable() {
    let bytes =
        fs::read("grammar-tests/pgn/ok/chesscom_zh_2016_eekarf-JannLeeCrazyhouse_scalachess.pgn")
            .unwrap();
    let lichess = convert_all(&bytes, Target::Lichess);
    assert!(lichess.contains("P@g2#") && !lichess.contains(" @g2"));
    assert!(!lichess.contains("CurrentPosition"));
    assert!(lichess.contains("[Variant \"Crazyhouse\"]"));
}

/// `pgn convert` reads games with `validate`'s options and refuses exactly what
/// `validate` refuses, in its words (a variation's illegal move aside: see below).
#[test]
fn convert_refuses_what_validate_refuses_with_the_same_options() {
    use pocketfen::game::{Format, GameProblemKind, Status, validate_game};
    use pocketfen::{IllegalReason, Variant};
    let drop_mate = "[Event \"x\"]\n[Variant \"Crazyhouse\"]\n[FEN \"7k/5ppp/8/8/8/8/8/K7/R w - - 0 1\"]\n[SetUp \"1\"]\n\n1. R@e8 *\n";
    let game = GameSplitter::new(drop_mate.as_bytes())
        .next()
        .unwrap()
        .unwrap();
    let forbid = Options {
        drop_mate: false,
        ..Options::default()
    };
    match convert_game(&game, &lichess(), &forbid) {
        Converted::Refused(r) => {
            assert_eq!(
                r,
                validate_game(
                    &game,
                    &Options {
                        variations: true,
                        ..forbid
                    }
                )
            );
            assert_eq!(
                r.problems[0].kind,
                GameProblemKind::Illegal(IllegalReason::DropMate)
            );
        }
        Converted::Game(text, _) => panic!("a forbidden drop-mate was converted:\n{text}"),
    }
    assert!(matches!(
        convert_game(&game, &lichess(), &Options::default()),
        Converted::Game(..)
    ));

    // Four player tags make a bughouse match, unless the format says PGN.
    let pgn = "[Event \"x\"]\n[WhiteA \"a\"]\n[Result \"*\"]\n\n1. e4 e5 *\n";
    let game = GameSplitter::new(pgn.as_bytes()).next().unwrap().unwrap();
    let plain = Options {
        format: Format::Pgn,
        ..Options::default()
    };
    let r = validate_game(&game, &plain);
    assert_eq!(
        (r.status, r.variant, r.plies),
        (Status::Ok, Some(Variant::Chess), 2)
    );
    let Converted::Game(text, _) = convert_game(&game, &lichess(), &plain) else {
        panic!("a valid PGN game was refused");
    };
    assert!(text.ends_with("\n\n1. e4 e5 *\n\n"), "{text}");
    assert!(text.contains("[WhiteA \"a\"]\n"), "{text}");
}

/// A variation's illegal move does not lose its game (a real engine match's analysis
/// held one): the variation is written up to it, left out when it was its first move,
/// each with a warning that says so, and the main line is converted whole. `validate
/// --variations` reports those moves as errors, and validates the main line to its end.
#[test]
fn a_variations_illegal_move_cuts_the_variation_not_the_game() {
    use pocketfen::game::{GameProblemKind, Status, validate_game};
    use pocketfen::{IllegalReason, Severity, Variant};
    let pgn = "[Event \"x\"]\n[Variant \"Crazyhouse\"]\n[Result \"*\"]\n\n1. e4 e5 (1... Q@e4 2. Nf3) 2. Nf3 (2. Nc3 Nc6 3. Ke3 Nf6) Nc6 3. Bc4 *\n";
    let game = GameSplitter::new(pgn.as_bytes()).next().unwrap().unwrap();
    let Converted::Game(text, report) = convert_game(&game, &lichess(), &Options::default()) else {
        panic!("a game whose variations hold illegal moves was refused");
    };
    assert!(
        text.ends_with("\n\n1. e4 e5 2. Nf3 (2. Nc3 Nc6) 2... Nc6 3. Bc4 *\n\n"),
        "{text}"
    );
    assert_eq!((report.status, report.plies), (Status::Ok, 5));
    let said: Vec<_> = report
        .problems
        .iter()
        .map(|p| (p.severity, p.kind, p.line, p.column))
        .collect();
    assert_eq!(
        said,
        [
            (
                Severity::Warning,
                GameProblemKind::Illegal(IllegalReason::NotInPocket),
                5,
                16
            ),
            (
                Severity::Warning,
                GameProblemKind::Illegal(IllegalReason::NoSuchPiece),
                5,
                51
            ),
        ]
    );
    assert!(
        report.problems.iter().all(|p| p
            .reason
            .ends_with("(in a variation); the variation is kept up to this move")),
        "{:?}",
        report.problems
    );
    // What is written validates, variations and all.
    let again = GameSplitter::new(text.as_bytes()).next().unwrap().unwrap();
    let variations = Options {
        variations: true,
        ..Options::default()
    };
    let r = validate_game(&again, &variations);
    assert_eq!(
        (r.status, r.variant, r.plies, r.problems.len()),
        (Status::Ok, Some(Variant::Crazyhouse), 5, 0)
    );
    // validate --variations: two errors, the main line's five plies all played.
    let r = validate_game(&game, &variations);
    assert_eq!((r.status, r.plies), (Status::Illegal, 5));
    let errors: Vec<_> = r.problems.iter().map(|p| (p.severity, p.column)).collect();
    assert_eq!(errors, [(Severity::Error, 16), (Severity::Error, 51)]);
    // Under --strict a game is written whole or not at all: refused, in the words of
    // `validate --strict --variations` (errors; nothing said to be kept).
    let strict = Options {
        strict: true,
        ..Options::default()
    };
    let Converted::Refused(refused) = convert_game(&game, &lichess(), &strict) else {
        panic!("--strict wrote a game whose variations hold illegal moves");
    };
    let judged = validate_game(
        &game,
        &Options {
            variations: true,
            ..strict
        },
    );
    assert_eq!(refused, judged);
    let errors: Vec<_> = refused
        .problems
        .iter()
        .map(|p| {
            (
                p.severity,
                p.column,
                p.reason.ends_with(" (in a variation)"),
            )
        })
        .collect();
    assert_eq!(
        errors,
        [(Severity::Error, 16, true), (Severity::Error, 51, true)]
    );
}

/// Writing for Lichess as its exports do.
fn lichess() -> Rewrite {
    Rewrite::to(Target::Lichess)
}

/// Bughouse matches convert too (canonical SAN, the target's drop style and FEN dialect,
/// board letters kept), and what is written validates again to the same plies, outcome
/// reading and final boards.
#[test]
fn bughouse_matches_convert_and_validate_again() {
    use pocketfen::game::{Status, validate_game};
    let mut matches = 0;
    for entry in fs::read_dir("grammar-tests/bpgn/ok").unwrap() {
        let path = entry.unwrap().path();
        let bytes = fs::read(&path).unwrap();
        for game in GameSplitter::new(&bytes[..]) {
            let game = game.unwrap();
            let before = validate_game(&game, &Options::default());
            assert_eq!(before.status, Status::Ok, "{}", path.display());
            for (target, _) in TARGETS {
                let Converted::Game(text, _) =
                    convert_game(&game, &Rewrite::to(target), &Options::default())
                else {
                    panic!("{}: a valid match was refused", path.display());
                };
                let again = GameSplitter::new(text.as_bytes()).next().unwrap().unwrap();
                let after = validate_game(&again, &Options::default());
                assert_eq!(after.status, Status::Ok, "{}:\n{text}", path.display());
                assert_eq!(after.plies, before.plies, "{}", path.display());
                // (A match without a Result tag gets one from its marker.)
                if before.result_reading.is_some() {
                    assert_eq!(
                        after.result_reading,
                        before.result_reading,
                        "{}:\n{text}",
                        path.display()
                    );
                }
                assert_eq!(after.variant, before.variant);
                if target == Target::Chesscom {
                    assert!(!text.contains("P@"), "Chess.com writes pawn drops as @e4");
                }
                matches += 1;
            }
        }
    }
    assert!(matches >= 24, "{matches}");
}

/// Chess960 keeps its name in each target's spelling (Lichess and Chess.com
/// `Chess960`, Xboard `fischerandom`), always with its FEN and the castling letters as
/// read, whichever alias the input used.
#[test]
fn chess960_survives_every_target_under_every_alias() {
    let movetext = "1. O-O O-O 2. Ng3 Ng6 *";
    for alias in [
        "Chess960",
        "chess 960",
        "fischerandom",
        "Fischer Random",
        "960",
        "FRC",
    ] {
        for (fen, read) in [
            (
                "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1",
                "KQkq",
            ),
            (
                "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
                "GEge",
            ),
        ] {
            let pgn = format!("[Variant \"{alias}\"]\n[FEN \"{fen}\"]\n\n{movetext}\n");
            // Each target's own form: Lichess X-FEN, Chess.com Shredder-FEN,
            // XBoard the letters as read.
            for (target, name, castling) in [
                (Target::Lichess, "Chess960", "KQkq"),
                (Target::Chesscom, "Chess960", "GEge"),
                (Target::Xboard, "fischerandom", read),
            ] {
                let out = convert_all(pgn.as_bytes(), target);
                assert!(
                    out.contains(&format!("[Variant \"{name}\"]\n")),
                    "{alias} {target:?}:\n{out}"
                );
                assert!(out.contains("[SetUp \"1\"]\n"), "{out}");
                assert!(
                    out.contains(&format!(
                        "[FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w {castling} - 0 1\"]"
                    )),
                    "{alias} {target:?}: castling letters in the target's form:\n{out}"
                );
                assert!(out.ends_with("1. O-O O-O 2. Ng3 Ng6 *\n\n"), "{out}");
            }
        }
    }
    // A standard game keeps no Chess960 name.
    let out = convert_all(b"[Variant \"Standard\"]\n\n1. e4 e5 *\n", Target::Xboard);
    assert!(
        !out.contains("fischerandom") && !out.contains("[FEN"),
        "{out}"
    );
}

/// Crazyhouse960 and Bughouse960 (pychess-variants' names, in any spelling) keep their
/// variant and their Chess960 castling in every target: Lichess and Chess.com
/// `Crazyhouse960` / `Bughouse960`, Xboard its plain `crazyhouse` / `bughouse` with the
/// FEN's castling letters; what is written validates again to the same plies.
#[test]
fn pocket960_survives_every_target_under_every_alias() {
    let one = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN";
    let single = (
        format!("{one}[] w KQkq - 0 1"),
        "1. O-O O-O 2. Ng3 Ng6 3. e4 d5 4. exd5 e6 5. P@e4 *",
        [
            "Crazyhouse960",
            "crazyhouse960",
            "Crazyhouse 960",
            "crazyhouse-960",
        ],
        [
            ("Crazyhouse960", 9),
            ("Crazyhouse960", 9),
            ("crazyhouse", 9),
        ],
    );
    let pair = (
        format!("{one}/ w KQkq - 0 1 | {one}/ w KQkq - 0 1"),
        "1A. O-O 1a. O-O 1B. e4 1b. d5 2B. exd5 2A. Ng3 2a. P@e4 *",
        ["Bughouse960", "bughouse960", "Bughouse 960", "bughouse-960"],
        [("Bughouse960", 7), ("Bughouse960", 7), ("bughouse", 7)],
    );
    for (fen, movetext, aliases, expected) in [single, pair] {
        for alias in aliases {
            let pgn =
                format!("[Variant \"{alias}\"]\n[WhiteA \"w\"]\n[FEN \"{fen}\"]\n\n{movetext}\n");
            let pgn = if alias.starts_with('c') || alias.starts_with('C') {
                pgn.replace("[WhiteA \"w\"]\n", "")
            } else {
                pgn
            };
            let read = pocketfen::game::validate_str(&pgn, &Options::default());
            assert_eq!(read[0].problems, [], "{alias}: {pgn}");
            for (target, (name, plies)) in [Target::Lichess, Target::Chesscom, Target::Xboard]
                .into_iter()
                .zip(expected)
            {
                let out = convert_all(pgn.as_bytes(), target);
                assert!(
                    out.contains(&format!("[Variant \"{name}\"]\n")),
                    "{alias} {target:?}:\n{out}"
                );
                let castling = if target == Target::Chesscom {
                    " w GEge "
                } else {
                    " w KQkq "
                };
                assert!(out.contains(castling), "{alias} {target:?}:\n{out}");
                let again = pocketfen::game::validate_str(&out, &Options::default());
                assert_eq!(again.len(), 1);
                assert_eq!(again[0].problems, [], "{alias} {target:?}:\n{out}");
                assert_eq!(again[0].plies, plies, "{alias} {target:?}:\n{out}");
                assert_eq!(again[0].variant, read[0].variant, "{target:?}");
            }
        }
    }
}

mod law {
    //! The law of `pgn convert`: it writes exactly the games `validate`
    //! accepts with the same options and variations on (a variation's illegal move aside:
    //! the variation is written up to it), and what it writes validates again to the same
    //! plies.

    use super::*;
    use pocketfen::game::{Status, validate_game};
    use pocketfen::stream::RawGame;
    use proptest::prelude::*;

    /// Movetext pieces: moves (legal at some point of a short game or not), NAGs,
    /// comments, variations (balanced or not), result markers anywhere, move numbers.
    fn piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "1.",
            "2.",
            "1...",
            "e4",
            "e5",
            "d4",
            "d5",
            "Nf3",
            "Nc6",
            "exd5",
            "Qxd5",
            "Q@e4",
            "P@e4",
            "N@f3",
            "O-O",
            "Ke2",
            "Bb5",
            "a6",
            "$1",
            "$14",
            "$300",
            "{ a comment }",
            "{}",
            "(",
            ")",
            "1-0",
            "0-1",
            "1/2-1/2",
            "*",
            "--",
            "e9",
            ";line\n",
        ])
    }

    /// A legal crazyhouse line, an alternative to each of its moves, and what may follow a
    /// move: nothing, a NAG, a comment, a variation, or a stray piece.
    const LINE: [(&str, &str); 8] = [
        ("1. e4", "1. d4"),
        ("1... d5", "1... e5"),
        ("2. exd5", "2. e5"),
        ("2... Qxd5", "2... Nf6"),
        ("3. Nc3", "3. P@e4"),
        ("3... Qa5", "3... Qd8"),
        ("4. P@d4", "4. d4"),
        ("4... P@e4", "4... Nf6"),
    ];

    fn game() -> impl Strategy<Value = (String, bool, bool)> {
        (
            prop::collection::vec((0usize..6, piece()), 0..=LINE.len()),
            prop::option::of(piece()),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(after, end, stray_first, drop_mate)| {
                let mut text = String::from(if stray_first { "$2 " } else { "" });
                for (n, (what, stray)) in after.iter().enumerate() {
                    let (mv, alt) = LINE[n];
                    text.push_str(mv);
                    text.push(' ');
                    match what {
                        1 => text.push_str("$1 "),
                        2 => text.push_str("{ c } "),
                        3 => text.push_str(&format!("({alt} {{ v }}) ")),
                        4 => text.push_str(&format!("({alt} ($3) *) ")),
                        5 => {
                            text.push_str(stray);
                            text.push(' ');
                        }
                        _ => {}
                    }
                }
                text.push_str(end.unwrap_or("*"));
                let pgn = format!("[Event \"law\"]\n[Variant \"Crazyhouse\"]\n\n{text}\n");
                (pgn, true, drop_mate)
            })
    }

    /// `validate --variations`'s report as `convert` words it: a variation's illegal move
    /// (an error at no ply, `in a variation`) is a warning that the variation is kept up
    /// to it, and the game is refused only for its other errors.
    fn kept_up_to(mut r: pocketfen::game::GameReport) -> pocketfen::game::GameReport {
        use pocketfen::Severity;
        for p in &mut r.problems {
            if p.severity == Severity::Error
                && p.ply.is_none()
                && p.reason.ends_with(" (in a variation)")
            {
                p.severity = Severity::Warning;
                p.reason.push_str("; the variation is kept up to this move");
            }
        }
        if r.problems.iter().all(|p| p.severity != Severity::Error) {
            r.status = Status::Ok;
        }
        r
    }

    /// Games converted (most must be, or the law is tested on refusals alone).
    static ACCEPTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

    #[test]
    fn the_law_is_tried_on_accepted_games_too() {
        convert_writes_exactly_what_validate_accepts();
        let accepted = ACCEPTED.load(std::sync::atomic::Ordering::Relaxed);
        assert!(accepted > 1000, "{accepted} conversions");
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: if cfg!(debug_assertions) { 1500 } else { 20000 }, ..ProptestConfig::default() })]

        #[test]
        fn convert_writes_exactly_what_validate_accepts((text, _zh, drop_mate) in game()) {
            let game = RawGame::new(text.clone().into_bytes());
            let opts = Options { drop_mate, ..Options::default() };
            let judged = Options { variations: true, ..opts };
            let verdict = kept_up_to(validate_game(&game, &judged));
            for (target, _) in TARGETS {
                match convert_game(&game, &Rewrite::to(target), &opts) {
                    Converted::Refused(r) => {
                        prop_assert_ne!(verdict.status, Status::Ok, "{}", text);
                        prop_assert_eq!(&r, &verdict);
                    }
                    Converted::Game(out, _) => {
                        ACCEPTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        prop_assert_eq!(verdict.status, Status::Ok, "{}\n{:?}", text, verdict.problems);
                        let again = RawGame::new(out.clone().into_bytes());
                        let r = validate_game(&again, &judged);
                        prop_assert_eq!(r.status, Status::Ok, "{}\n=> {}\n{:?}", text, out, r.problems);
                        prop_assert_eq!(r.plies, verdict.plies);
                    }
                }
            }
        }
    }
}

/// `pgn convert` keeps what it can (a second `White` tag, Latin-1 text, a NAG
/// beyond $255) and warns about what it cannot (a second `FEN`, `Variant` or `Result`);
/// under `strict` such a game is refused.
#[test]
fn convert_keeps_what_it_can_and_says_what_it_cannot() {
    use pocketfen::game::GameProblemKind;
    use pocketfen::stream::RawGame;
    let mut bytes = b"[Event \"x\"]\n[White \"A\"]\n[White \"B\"]\n[Black \"Ren\xe9\"]\n[Result \"*\"]\n[Result \"1-0\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. O-O $300 Kd7 { caf\xe9 } *\n".to_vec();
    let game = RawGame::new(std::mem::take(&mut bytes));
    let Converted::Game(text, report) = convert_game(&game, &lichess(), &Options::default()) else {
        panic!("refused");
    };
    let warnings = report.problems;
    assert!(text.contains("[White \"A\"]\n"), "{text}");
    assert!(
        text.contains("[White \"B\"]\n"),
        "the second White is kept:\n{text}"
    );
    assert!(text.contains("[Black \"René\"]\n"), "Latin-1 kept:\n{text}");
    assert!(text.contains("{ café }"), "{text}");
    assert!(text.contains("O-O $300 1... Kd7"), "{text}");
    let kinds: Vec<GameProblemKind> = warnings.iter().map(|w| w.kind).collect();
    assert_eq!(
        kinds,
        [
            GameProblemKind::DuplicateTag,
            GameProblemKind::DuplicateTag,
            GameProblemKind::NagOutOfRange
        ],
        "{warnings:?}"
    );
    assert!(warnings[0].reason.contains("[Result]") && warnings[1].reason.contains("[FEN]"));
    let strict = Options {
        strict: true,
        ..Options::default()
    };
    assert!(matches!(
        convert_game(&game, &lichess(), &strict),
        Converted::Refused(_)
    ));
}

/// The value of tag `name` in a converted game.
fn tag_value<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("[{name} \"");
    text.lines()
        .find_map(|l| l.strip_prefix(open.as_str()))
        .map(|v| v.trim_end_matches("\"]"))
}

/// A chess game's Variant tag survives Lichess → Xboard → Lichess and
/// Lichess → Chess.com → Lichess as written (`Standard` from Lichess and lichobile,
/// `normal` from TCEC, `From Position`); a game without one gets none.
#[test]
fn a_chess_games_variant_tag_is_kept() {
    for spelling in [
        Some("Standard"),
        Some("normal"),
        Some("From Position"),
        None,
    ] {
        let tag = spelling.map_or(String::new(), |v| format!("[Variant \"{v}\"]\n"));
        let game = format!("[Event \"x\"]\n{tag}\n1. e4 e5 2. Nf3 Nc6 *\n");
        let lichess = convert_all(game.as_bytes(), Target::Lichess);
        assert_eq!(tag_value(&lichess, "Variant"), spelling, "{lichess}");
        for target in [Target::Xboard, Target::Chesscom] {
            let there = convert_all(lichess.as_bytes(), target);
            assert_eq!(
                tag_value(&there, "Variant"),
                spelling,
                "{target:?}: {there}"
            );
            assert_eq!(
                convert_all(there.as_bytes(), Target::Lichess),
                lichess,
                "{target:?}"
            );
        }
    }
    // A variant's own name is the target's.
    let zh = "[Event \"x\"]\n[Variant \"ZH\"]\n\n1. e4 d5 2. exd5 Qxd5 3. P@e4 *\n";
    assert_eq!(
        tag_value(&convert_all(zh.as_bytes(), Target::Lichess), "Variant"),
        Some("Crazyhouse")
    );
    assert_eq!(
        tag_value(&convert_all(zh.as_bytes(), Target::Xboard), "Variant"),
        Some("crazyhouse")
    );
}

/// Chess.com's `CurrentPosition` has four fields for chess and Chess960
/// (`… b - -`, as all its exports of those write it) and the clocks and pocket for
/// crazyhouse (`… w q - 0 22 QNrp`); validate reads both without a mismatch.
#[test]
fn chesscom_current_position_per_variant() {
    let chess = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n";
    let converted = convert_all(chess.as_bytes(), Target::Chesscom);
    assert_eq!(
        tag_value(&converted, "CurrentPosition"),
        Some("r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq -")
    );
    let chess960 = "[Event \"x\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n\
        [FEN \"nqrkbbrn/pppppppp/8/8/8/8/PPPPPPPP/NQRKBBRN w GCgc - 0 1\"]\n\n1. d4 d5 *\n";
    let converted = convert_all(chess960.as_bytes(), Target::Chesscom);
    assert_eq!(
        tag_value(&converted, "CurrentPosition"),
        Some("nqrkbbrn/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/NQRKBBRN w KQkq -")
    );
    let zh = fs::read("samples/chesscom_zh_2016_eekarf-JannLeeCrazyhouse_scalachess.pgn").unwrap();
    let original = String::from_utf8_lossy(&zh).into_owned();
    let converted = convert_all(&zh, Target::Chesscom);
    assert_eq!(
        tag_value(&converted, "CurrentPosition"),
        tag_value(&original, "CurrentPosition")
    );
    assert_eq!(
        tag_value(&converted, "CurrentPosition"),
        Some("r1bBk1r1/ppp2p1p/1b1p3p/3Pp3/6N1/2PPn2n/PP2B1pP/R2Q3K w q - 0 22 QNrp")
    );
    // Each form reads back without a mismatch.
    for text in [
        convert_all(chess.as_bytes(), Target::Chesscom),
        convert_all(chess960.as_bytes(), Target::Chesscom),
        converted,
    ] {
        let reports = pocketfen::game::validate_str(&text, &Options::default());
        assert!(
            reports.iter().all(|r| r.problems.is_empty()),
            "{text}: {:?}",
            reports[0].problems
        );
    }
}

/// The real files of other programs convert and compose byte for byte (their
/// Variant tags, Chess.com's four-field positions and long algebraic moves included).
#[test]
fn real_files_round_trip() {
    let mut files = 0;
    for entry in fs::read_dir("grammar-tests/pgn/real").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "pgn") {
            continue;
        }
        let bytes = fs::read(&path).unwrap();
        let lichess = convert_all(&bytes, Target::Lichess);
        for target in [Target::Xboard, Target::Chesscom] {
            let there = convert_all(lichess.as_bytes(), target);
            assert_eq!(
                convert_all(there.as_bytes(), Target::Lichess),
                lichess,
                "{} via {target:?}",
                path.display()
            );
        }
        files += 1;
    }
    assert_eq!(files, 19);
}

/// `pgn convert --keep-broken` cannot copy a game over `--max-game-bytes` (its bytes were
/// never kept): it says so, counts it as left out (not "copied unchanged") and exits 2,
/// while the other games, a broken one among them, are written.
#[test]
fn keep_broken_says_a_game_over_the_size_limit_is_in_no_output() {
    let dir = common::scratch_dir("keep-broken");
    let big = format!(
        "[Event \"big\"]\n[Result \"*\"]\n\n1. e4 {{{}}} *\n\n",
        "x".repeat(3000)
    );
    let pgn = format!(
        "[Event \"a\"]\n[Result \"*\"]\n\n1. e4 *\n\n{big}[Event \"c\"]\n[Result \"*\"]\n\n1. Qh5 *\n\n"
    );
    let path = dir.join("in.pgn");
    fs::write(&path, &pgn).unwrap();
    let out = common::run(&[
        "pgn",
        "convert",
        "--to",
        "lichess",
        "--keep-broken",
        "--max-game-bytes",
        "1000",
        path.to_str().unwrap(),
    ]);
    let (stdout, stderr) = (common::text(&out.stdout), common::text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("1 game written, 1 over --max-game-bytes left out, 1 copied unchanged"),
        "{stderr}"
    );
    assert!(
        stderr.contains("1 game over --max-game-bytes is in no output"),
        "{stderr}"
    );
    assert!(stdout.contains("[Event \"a\"]") && stdout.contains("1. Qh5 *"));
    assert!(!stdout.contains("[Event \"big\"]"));
    fs::remove_dir_all(&dir).unwrap();
}

/// `pgn convert` writes an unknown date as the PGN standard does (`????.??.??`, 8.1.1.3)
/// and takes it from `UTCDate` when there is one, as Lichess's study exports give
///; a kept `[PlyCount]` counts the plies written, whatever the game said
///.
#[test]
fn convert_writes_dates_and_ply_counts_as_the_standard_does() {
    let dir = common::scratch_dir("dates");
    let path = dir.join("in.pgn");
    fs::write(
        &path,
        "[Event \"study\"]\n[UTCDate \"2024.01.02\"]\n[Result \"*\"]\n[PlyCount \"7\"]\n\n1. e4 e5 2. Nf3 *\n\n\
         [Event \"none\"]\n[Result \"*\"]\n\n1. d4 *\n\n\
         [Event \"both\"]\n[Date \"2020.05.06\"]\n[UTCDate \"2020.05.07\"]\n[Result \"*\"]\n\n1. c4 *\n\n",
    )
    .unwrap();
    let p = path.to_str().unwrap();
    for to in ["lichess", "chesscom", "xboard"] {
        let out = common::run(&["pgn", "convert", "--to", to, "-q", p]);
        let text = common::text(&out.stdout);
        let dates: Vec<&str> = text.lines().filter(|l| l.starts_with("[Date ")).collect();
        assert_eq!(
            dates,
            [
                "[Date \"2024.01.02\"]",
                "[Date \"????.??.??\"]",
                "[Date \"2020.05.06\"]"
            ],
            "{to}"
        );
        assert!(
            text.contains("[PlyCount \"3\"]") && !text.contains("\"7\""),
            "{to}"
        );
        let cut = common::run(&["pgn", "convert", "--to", to, "-q", "--ply-limit", "1", p]);
        assert!(
            common::text(&cut.stdout).contains("[PlyCount \"1\"]"),
            "{to}"
        );
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// Each target's layout is its own exports': a Lichess export converted to
/// Lichess is written line for line as it was (Lichess puts each game's movetext on one
/// line; only the ` 0-1` it writes for a game without moves loses its space), Chess.com
/// gets one line per game too, XBoard lines of at most 75 columns, and `-w` still sets
/// another width.
#[test]
fn each_target_lays_out_games_as_its_own_exports() {
    let sample = "samples/lichess_standard_2025-05_sample438.pgn";
    let original = fs::read_to_string(sample).unwrap();
    let convert = |args: &[&str]| {
        let mut all = vec!["pgn", "convert", "-q"];
        all.extend_from_slice(args);
        all.push(sample);
        let out = common::run(&all);
        assert!(out.status.success());
        common::text(&out.stdout)
    };
    let lichess = convert(&["--to", "lichess"]);
    let (a, b): (Vec<&str>, Vec<&str>) = (lichess.lines().collect(), original.lines().collect());
    // (The sample ends without the blank line after its last game.)
    assert_eq!(a.len(), b.len() + 1);
    assert_eq!(a.last(), Some(&""));
    for (n, (x, y)) in a.iter().zip(&b).enumerate() {
        assert_eq!(*x, y.trim_start(), "line {}", n + 1);
    }
    let movetext = |text: &str| -> Vec<usize> {
        text.lines()
            .filter(|l| !l.is_empty() && !l.starts_with('['))
            .map(str::len)
            .collect()
    };
    let games = original.matches("[Event ").count();
    assert_eq!(movetext(&convert(&["--to", "chesscom"])).len(), games);
    let xboard = movetext(&convert(&["--to", "xboard"]));
    assert!(
        xboard.len() > games && xboard.iter().all(|&n| n <= 75),
        "xboard"
    );
    let wide = movetext(&convert(&["--to", "lichess", "-w", "80"]));
    assert!(wide.len() > games && wide.iter().all(|&n| n <= 80));
}
