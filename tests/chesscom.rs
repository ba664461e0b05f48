//! Chess.com's Published-Data archives (JSON) as an input form, told by content:
//! `grammar-tests/chesscom/archive.json` is written in the API's exact shape with PGN
//! bodies from the corpus (`make.py` beside it says which).

mod common;

use std::fs;

use common::{piped, scratch_dir};

const ARCHIVE: &str = "grammar-tests/chesscom/archive.json";

fn tag<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let start = format!("[{name} \"");
    text.lines()
        .find_map(|l| l.strip_prefix(start.as_str()))
        .and_then(|l| l.strip_suffix("\"]"))
}

fn records(out: &str) -> Vec<serde_json::Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Every entry a game located by its place in the list; the bughouse records without
/// moves skipped and counted; a rule pocketfen does not play an error of its entry.
#[test]
fn entries_are_games_and_records_without_moves_are_skipped() {
    let (out, err, code) = piped(&["validate", "--json", ARCHIVE], "");
    assert_eq!(code, Some(1), "{err}");
    let recs = records(&out);
    let games: Vec<_> = recs.iter().filter(|r| r["type"] == "game").collect();
    assert_eq!(games.len(), 1, "{out}");
    assert_eq!(
        (&games[0]["game"], &games[0]["line"]),
        (&7.into(), &0.into())
    );
    assert_eq!(games[0]["problems"][0]["kind"], "unknown-variant");
    let summary = recs.last().unwrap();
    assert_eq!(
        (&summary["games"], &summary["skipped"], &summary["complete"]),
        (&5.into(), &2.into(), &true.into())
    );
    assert!(
        err.contains("archive.json: 5 games, ") && err.contains(", 2 skipped (no moves)"),
        "{err}"
    );
    // The text form names the entry.
    let (out, _, _) = piped(&["validate", ARCHIVE], "");
    assert!(
        out.starts_with(
            "grammar-tests/chesscom/archive.json: row 7 (kingofthehill): error: unknown-variant"
        ),
        "{out}"
    );
}

/// The JSON fills the tags the PGN lacks (players, ratings, result, the URL as `[Link]`,
/// the variant from `rules`), and the games are written as PGN by every archive command.
#[test]
fn the_json_fills_the_tags_the_pgn_lacks() {
    let (out, err, code) = piped(&["pgn", "convert", "-q", "--to", "lichess", ARCHIVE], "");
    assert_eq!(code, Some(1), "{err}"); // the King of the Hill game is refused
    let games: Vec<&str> = out.split("\n\n[").collect();
    assert_eq!(games.len(), 4, "{out}");
    // Entry 1: the first game of the Lichess sample, its players' tags taken out of the
    // PGN and given by the JSON: the same values come back.
    let sample = fs::read_to_string("samples/lichess_standard_2025-05_sample438.pgn").unwrap();
    let first = sample.split("\n\n[Event").next().unwrap();
    for name in ["White", "Black", "WhiteElo", "BlackElo", "Result"] {
        assert_eq!(tag(games[0], name), tag(first, name), "{name}");
    }
    assert_eq!(
        tag(games[0], "Link"),
        Some("https://www.chess.com/game/live/160000001")
    );
    // Entry 6: Chess960 from `rules`, its start from the FEN.
    let chess960 = games.iter().find(|g| g.contains("nrbbqkrn")).unwrap();
    assert_eq!(tag(chess960, "Variant"), Some("Chess960"));
    // pgn select reads it too, and so does stdin, compressed.
    let (out, _, code) = piped(&["pgn", "select", "--variant", "crazyhouse", ARCHIVE], "");
    assert_eq!(code, Some(0));
    assert!(
        out.starts_with("[Event \"Live Chess - Crazyhouse\"]\n"),
        "{out}"
    );
    assert_eq!(
        tag(&out, "Link"),
        Some("https://www.chess.com/game/live/160000003")
    );
}

/// Gzip-compressed on stdin, told by its content as a file is; `--split` refused with
/// the reason; a broken archive named with JSON's line and column.
#[test]
fn compressed_split_and_broken_archives() {
    let dir = scratch_dir("chesscom");
    let gz = dir.join("archive.json.gz");
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("gzip -c {ARCHIVE} > {}", gz.display()))
        .status()
        .unwrap();
    assert!(status.success(), "gzip is needed");
    let (out, _, _) = piped(&["validate", "--json", "-"], "");
    assert!(records(&out).last().unwrap()["games"] == 0);
    let got = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "{} validate --json - < {}",
            insta_cmd::get_cargo_bin("pocketfen").display(),
            gz.display()
        ))
        .output()
        .unwrap();
    let summary = records(&String::from_utf8(got.stdout).unwrap())
        .pop()
        .unwrap();
    assert_eq!(
        (&summary["games"], &summary["skipped"]),
        (&5.into(), &2.into())
    );
    let (_, err, code) = piped(&["validate", "--split", "1/2", ARCHIVE], "");
    assert_eq!(code, Some(2));
    assert!(
        err.contains("a Chess.com JSON archive is read whole"),
        "{err}"
    );
    let broken = dir.join("broken.json");
    let mut text = fs::read_to_string(ARCHIVE).unwrap();
    text.truncate(text.len() / 2);
    fs::write(&broken, text).unwrap();
    let (_, err, code) = piped(&["validate", broken.to_str().unwrap()], "");
    assert_eq!(code, Some(2));
    assert!(
        err.contains("not a Chess.com game archive") && err.contains("line 1 column"),
        "{err}"
    );
    fs::remove_dir_all(&dir).unwrap();
}
