//! `pgn fix` as a user runs it: the known faults of `grammar-tests/fix/faults.pgn` (one
//! game per fault, named in its `[Event]`) repaired, every other game byte for byte as
//! it was, the repairs listed and counted, outputs written safely.

mod common;

use std::fs;

use common::{piped, run, scratch_dir, text};

const FAULTS: &str = "grammar-tests/fix/faults.pgn";

/// The games of a file, as its text split before each game's first tag.
fn games_of(text: &str) -> Vec<String> {
    let mut games: Vec<String> = Vec::new();
    for line in text.split_inclusive('\n') {
        let starts = line.starts_with("[Event ") || line.starts_with("[Variant \"Crazyhouse\"]");
        if starts && games.last().is_none_or(|g| g.contains("\n\n")) {
            games.push(String::new());
        }
        match games.last_mut() {
            Some(g) => g.push_str(line),
            None => games.push(line.to_owned()),
        }
    }
    games
}

fn event(game: &str) -> &str {
    game.lines()
        .find_map(|l| l.strip_prefix("[Event \""))
        .and_then(|l| l.strip_suffix("\"]"))
        .unwrap_or("")
}

/// Every fault repaired, the result valid under `validate --strict`; the clean game as
/// it was; the game no repair makes valid in `--rest` as it was; the abandoned game in
/// neither.
#[test]
fn each_fault_repaired_and_the_rest_as_it_was() {
    let dir = scratch_dir("fix");
    let (out, rest) = (dir.join("out.pgn"), dir.join("rest.pgn"));
    let got = run(&[
        "pgn",
        "fix",
        "--drop-abandoned",
        "-o",
        out.to_str().unwrap(),
        "--rest",
        rest.to_str().unwrap(),
        FAULTS,
    ]);
    // One game stays not valid: exit 1, and it is named.
    assert_eq!(got.status.code(), Some(1), "{}", text(&got.stderr));
    let err = text(&got.stderr);
    assert!(
        err.contains("faults.pgn:118:13: game 11, ply 3 (Ke3): error: no-such-piece")
            && err.contains("not repaired, written as it was"),
        "{err}"
    );
    assert!(
        err.contains("11 games, 8 repaired (tag-escape 1, variant 2, impossible-castling 1, date 2, round 1, moves-after-end 1, result 1, result-marker 1), 1 dropped, 1 not valid, left as it was"),
        "{err}"
    );
    let input = fs::read_to_string(FAULTS).unwrap();
    let written = fs::read_to_string(&out).unwrap();
    let before = games_of(&input);
    let after = games_of(&written);
    assert_eq!(before.len(), 11);
    assert_eq!(after.len(), 9, "{written}");
    // The clean game byte for byte; the one left unrepaired in --rest, as it was.
    assert_eq!(after[0], before[0]);
    assert_eq!(
        fs::read_to_string(&rest).unwrap().trim_end(),
        before[10].trim_end()
    );
    assert!(!written.contains("Abandoned"));
    // Every repaired game valid, and none of the faults left.
    let checked = run(&["validate", "--strict", "--json", out.to_str().unwrap()]);
    assert_eq!(checked.status.code(), Some(0), "{}", text(&checked.stdout));
    let insta = common::snapshot_settings();
    insta.bind(|| insta::assert_snapshot!("fix_faults_repaired", written));
    // Each repaired game differs from its input only where the fault was.
    for (b, a) in before.iter().zip(&after).skip(1) {
        assert_eq!(event(a), event(b));
        assert_ne!(a, b, "{}: not repaired", event(b));
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// `--dry-run` lists the repairs and writes nothing; `--json` gives them as records
/// with the summary; `-j 2` and stdin give what `-j 1` and the file give.
#[test]
fn repairs_listed_as_text_and_records() {
    let (listed, err, code) = piped(&["pgn", "fix", "--dry-run", "-q", FAULTS], "");
    assert_eq!(code, Some(1), "{err}");
    let insta = common::snapshot_settings();
    insta.bind(|| insta::assert_snapshot!("fix_faults_dry_run", listed));
    let (records, _, _) = piped(&["pgn", "fix", "--dry-run", "--json", "-q", FAULTS], "");
    let records: Vec<serde_json::Value> = records
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let repairs: Vec<&serde_json::Value> =
        records.iter().filter(|r| r["type"] == "repair").collect();
    assert_eq!(repairs.len(), listed.lines().count());
    for (r, line) in repairs.iter().zip(listed.lines()) {
        let at = format!(
            "{FAULTS}:{}: game {}: {}:",
            r["line"],
            r["game"],
            r["what"].as_str().unwrap()
        );
        assert!(line.starts_with(&at), "{line} / {r}");
        // Only the unrepaired game's repairs were not made.
        assert_eq!(r["made"], r["game"] != 11, "{r}");
    }
    let unrepaired: Vec<_> = records
        .iter()
        .filter(|r| r["type"] == "unrepaired")
        .collect();
    assert_eq!(unrepaired.len(), 1);
    assert_eq!(unrepaired[0]["error"]["kind"], "no-such-piece");
    let summary = records.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(
        (
            &summary["games"],
            &summary["repaired"],
            &summary["unrepaired"]
        ),
        (&11.into(), &8.into(), &1.into())
    );
    assert_eq!(summary["repairs"]["variant"], 2);
    // The same games whatever the jobs, from a file or from stdin; --plycount counts.
    let input = fs::read_to_string(FAULTS).unwrap();
    let (one, _, _) = piped(&["pgn", "fix", "-q", "-j", "1", FAULTS], "");
    let (two, _, _) = piped(&["pgn", "fix", "-q", "-j", "2", "-"], &input);
    assert_eq!(one, two);
    let (counted, _, _) = piped(&["pgn", "fix", "-q", "--plycount", FAULTS], "");
    assert!(
        counted.contains("[PlyCount \"7\"]\n\n1. e4 e5 2. Qh5"),
        "{counted}"
    );
    assert!(counted.contains("[PlyCount \"4\"]\n\n1. f3 e5 2. g4 Qh4# { mate } 0-1"));
}

/// Mistakes of use: `--json` with the games on stdout; an output that is an input.
#[test]
fn outputs_are_safe() {
    for args in [
        &["pgn", "fix", "--json", FAULTS][..],
        &["pgn", "fix", "--json", "-o", "-", FAULTS],
    ] {
        let (_, err, code) = piped(args, "");
        assert_eq!(code, Some(2));
        assert!(err.contains("--json writes the repairs to stdout"), "{err}");
    }
    let dir = scratch_dir("fix-safe");
    let copy = dir.join("in.pgn");
    fs::copy(FAULTS, &copy).unwrap();
    let c = copy.to_str().unwrap();
    let (_, err, code) = piped(&["pgn", "fix", "-o", c, c], "");
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(fs::read(&copy).unwrap(), fs::read(FAULTS).unwrap());
    fs::remove_dir_all(&dir).unwrap();
}

/// A bughouse match whose Result agrees with neither reading of its end (board A's view
/// or the teams') is given the view of the board it ended on, as bughousedb writes it.
#[test]
fn a_bughouse_result_from_the_ending_board() {
    let path = "grammar-tests/bpgn/ok/bughousedb_1934587.bpgn";
    let bpgn = fs::read_to_string(path).unwrap();
    // White mates on board A (27A. N@g4#): 1-0 from either view.
    assert!(bpgn.contains("[Result \"1-0\"]") && bpgn.contains("checkmated} 1-0"));
    let wrong = bpgn
        .replace("[Result \"1-0\"]", "[Result \"0-1\"]")
        .replace("checkmated} 1-0", "checkmated} 0-1");
    let (out, err, code) = piped(&["pgn", "fix", "-q", "-"], &wrong);
    assert_eq!(code, Some(0), "{err}");
    // (Both get their missing Round and Variant.)
    let (right, _, _) = piped(&["pgn", "fix", "-q", "-"], &bpgn);
    assert!(right.contains("[Result \"1-0\"]") && right.contains("[Variant \"Bughouse\"]"));
    assert_eq!(out, right);
    // Its board-B mate is 1-0 from board B's view and 0-1 from the teams': either stays.
    let b = fs::read_to_string("grammar-tests/bpgn/ok/bughousedb_1921708_bugaboo.bpgn").unwrap();
    let other = b
        .replace("[Result \"1-0\"]", "[Result \"0-1\"]")
        .replace("checkmated} 1-0", "checkmated} 0-1");
    let (out, _, code) = piped(&["pgn", "fix", "-q", "--dry-run", "-"], &other);
    assert_eq!(code, Some(0));
    assert!(!out.contains("result"), "{out}");
}

/// Entries of a Chess.com JSON archive (rows, their tags on one line) come out repaired as
/// PGN writes a game: a tag per line, a blank line, the moves; and read back the same.
#[test]
fn repaired_json_entries_are_written_as_pgn() {
    let archive = "grammar-tests/chesscom/archive.json";
    let (out, err, _) = piped(&["pgn", "fix", "-q", "--plycount", archive], "");
    assert!(!out.lines().any(|l| l.contains("] [")), "{out}");
    assert_eq!(out.matches("[PlyCount ").count(), 4, "{out}{err}");
    // Every game reads back, valid but the King of the Hill game, left as it was.
    let (_, err, code) = piped(&["validate", "-"], &out);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("5 games") && err.contains("1 unreadable"),
        "{err}"
    );
}
