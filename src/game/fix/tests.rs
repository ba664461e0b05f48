use super::*;

fn fix(text: &str, with: FixOptions) -> Fixed {
    fix_game(
        &RawGame::new(text.as_bytes().to_vec()),
        with,
        &Options::default(),
    )
}

fn fixed(text: &str) -> (String, Vec<(RepairKind, usize, String, String)>) {
    let f = fix(text, FixOptions::default());
    assert_eq!(f.verdict, FixVerdict::Repaired, "{f:?}");
    assert!(!f.report.has_errors());
    let repairs = f
        .repairs
        .into_iter()
        .map(|r| (r.kind, r.line, r.before, r.after))
        .collect();
    (f.text.unwrap(), repairs)
}

const ROSTER: &str = "[Event \"e\"]\n[Site \"s\"]\n[Date \"2020.01.02\"]\n[Round \"-\"]\n";

#[test]
fn a_game_without_faults_is_unchanged() {
    let text = format!("{ROSTER}[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n");
    let f = fix(&text, FixOptions::default());
    assert_eq!(f.verdict, FixVerdict::Unchanged);
    assert!(f.repairs.is_empty() && f.text.is_none());
}

#[test]
fn the_result_follows_the_replayed_end() {
    // Mate by Black, tagged and marked as a White win.
    let text = format!("{ROSTER}[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n");
    let (out, repairs) = fixed(&text);
    assert_eq!(
        out,
        format!("{ROSTER}[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n")
    );
    assert_eq!(
        repairs,
        [
            (RepairKind::Result, 5, "1-0".into(), "0-1".into()),
            (RepairKind::ResultMarker, 7, "1-0".into(), "0-1".into()),
        ]
    );
    // A stalemate is a draw; a marker that disagrees with a right tag follows the tag.
    let stalemate = "[Variant \"Crazyhouse\"]\n[Round \"1\"]\n[Result \"1/2-1/2\"]\n\n1. e4 1-0\n";
    let (out, repairs) = fixed(stalemate);
    assert!(out.ends_with("1. e4 1/2-1/2\n"), "{out}");
    assert_eq!(repairs.len(), 1);
    assert_eq!(repairs[0].0, RepairKind::ResultMarker);
}

#[test]
fn moves_after_the_end_are_cut() {
    let text = format!(
        "{ROSTER}[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# {{mate}} 3. Kf2 Qxh2 (3... Qf6) 4. a3 0-1\n"
    );
    let (out, repairs) = fixed(&text);
    assert_eq!(
        out,
        format!("{ROSTER}[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# {{mate}} 0-1\n")
    );
    assert_eq!(
        repairs,
        [(
            RepairKind::MovesAfterEnd,
            7,
            "3. Kf2 Qxh2 (3... Qf6) 4. a3".into(),
            String::new()
        )]
    );
    // Cut, and then the result set from the end; no marker: cut to the end, and the
    // marker put in the moves' place.
    let (out, repairs) = fixed(&format!(
        "{ROSTER}[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 3. Kf2\n"
    ));
    assert_eq!(
        out,
        format!("{ROSTER}[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n")
    );
    let kinds: Vec<_> = repairs.iter().map(|r| r.0).collect();
    assert_eq!(
        kinds,
        [
            RepairKind::MovesAfterEnd,
            RepairKind::Result,
            RepairKind::ResultMarker
        ]
    );
}

#[test]
fn tags_added_where_the_roster_puts_them() {
    let text = "[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/abc\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n[UTCDate \"2019.05.04\"]\n\n1. e4 *\n";
    let (out, repairs) = fixed(text);
    assert_eq!(
        out,
        "[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/abc\"]\n[Date \"2019.05.04\"]\n[Round \"-\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n[UTCDate \"2019.05.04\"]\n\n1. e4 *\n"
    );
    assert_eq!(
        repairs,
        [
            (RepairKind::Date, 3, String::new(), "2019.05.04".into()),
            (RepairKind::Round, 3, String::new(), "-".into()),
        ]
    );
    // An unknown date is replaced; an unknown UTCDate gives nothing.
    let (out, _) = fixed("[Date \"????.??.??\"]\n[UTCDate \"2019.05.04\"]\n\n1. e4 *\n");
    assert!(
        out.starts_with("[Date \"2019.05.04\"]\n[Round \"-\"]\n"),
        "{out}"
    );
    let f = fix(
        "[Date \"????.??.??\"]\n[Round \"3\"]\n[UTCDate \"????.??.??\"]\n\n1. e4 *\n",
        FixOptions::default(),
    );
    assert_eq!(f.verdict, FixVerdict::Unchanged);
    // A game without tags gets them, and the blank line after them; CRLF stays CRLF.
    let (out, _) = fixed("1. e4 *\n");
    assert_eq!(out, "[Round \"-\"]\n\n1. e4 *\n");
    let (out, _) = fixed("1. e4 d5 2. exd5 Nf6 3. P@e4 *\n");
    assert_eq!(
        out,
        "[Variant \"Crazyhouse\"]\n[Round \"-\"]\n\n1. e4 d5 2. exd5 Nf6 3. P@e4 *\n"
    );
    let (out, _) = fixed("[Event \"e\"]\r\n\r\n1. e4 *\r\n");
    assert_eq!(out, "[Event \"e\"]\r\n[Round \"-\"]\r\n\r\n1. e4 *\r\n");
}

#[test]
fn variants_inferred_and_written() {
    let (out, repairs) = fixed("[Round \"-\"]\n\n1. e4 d5 2. exd5 Nf6 3. P@e4 *\n");
    assert_eq!(
        out,
        "[Round \"-\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Nf6 3. P@e4 *\n"
    );
    assert_eq!(repairs[0].0, RepairKind::Variant);
    let horde = format!(
        "[Round \"-\"]\n[FEN \"{}\"]\n\n1. e5 d6 *\n",
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"
    );
    let (out, repairs) = fixed(&horde);
    assert!(
        out.starts_with("[Round \"-\"]\n[Variant \"Horde\"]\n[FEN "),
        "{out}"
    );
    assert_eq!(repairs[0].0, RepairKind::Variant);
}

#[test]
fn impossible_castling_dropped_from_the_fen() {
    let text = "[Round \"-\"]\n[Variant \"Chess960\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1\"]\n\n1. e4 *\n";
    let (out, repairs) = fixed(text);
    assert!(
        out.contains("[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1\"]"),
        "{out}"
    );
    assert_eq!(repairs[0].0, RepairKind::ImpossibleCastling);
    assert_eq!(repairs[0].1, 3);
}

#[test]
fn unescaped_quotes_escaped() {
    let text = "[Round \"-\"]\n[White \"\"Socrates Expert\"\"]\n[Black \"C:\\\"]\n\n1. e4 *\n";
    let (out, repairs) = fixed(text);
    assert_eq!(
        out,
        "[Round \"-\"]\n[White \"\\\"Socrates Expert\\\"\"]\n[Black \"C:\\\\\"]\n\n1. e4 *\n"
    );
    assert_eq!(repairs.len(), 2);
    assert!(repairs.iter().all(|r| r.0 == RepairKind::TagEscape));
}

#[test]
fn abandoned_games_and_ply_counts_when_asked() {
    let text = "[Round \"-\"]\n[Result \"*\"]\n[Termination \"Abandoned\"]\n\n*\n";
    assert_eq!(
        fix(text, FixOptions::default()).verdict,
        FixVerdict::Unchanged
    );
    let f = fix(
        text,
        FixOptions {
            drop_abandoned: true,
            ..FixOptions::default()
        },
    );
    assert_eq!(f.verdict, FixVerdict::Dropped);
    let with = FixOptions {
        plycount: true,
        ..FixOptions::default()
    };
    let f = fix(
        "[Round \"-\"]\n[PlyCount \"9\"]\n\n1. e4 e5 2. Nf3 *\n",
        with,
    );
    assert_eq!(
        f.text.as_deref(),
        Some("[Round \"-\"]\n[PlyCount \"3\"]\n\n1. e4 e5 2. Nf3 *\n")
    );
    let f = fix("[Round \"-\"]\n\n1. e4 e5 2. Nf3 *\n", with);
    assert_eq!(
        f.text.as_deref(),
        Some("[Round \"-\"]\n[PlyCount \"3\"]\n\n1. e4 e5 2. Nf3 *\n")
    );
}

#[test]
fn a_game_no_repair_makes_valid_is_kept() {
    // An illegal move, and a missing Round: nothing is made.
    let text = "[Event \"e\"]\n\n1. e4 e5 2. Ke3 *\n";
    let f = fix(text, FixOptions::default());
    assert_eq!(f.verdict, FixVerdict::Unrepaired);
    assert!(f.text.is_none());
    assert_eq!(f.repairs[0].kind, RepairKind::Round);
    assert!(f.report.has_errors());
}

#[test]
fn review_cases_rows_dashes_lone_returns_and_crlf() {
    // A table's row (line 0): new tags join its tags' line.
    let row = RawGame {
        line: 0,
        ..RawGame::new(b"[Event \"e\"] [Round \"-\"] [Result \"*\"]\n1. e4 e5 *\n".to_vec())
    };
    let f = fix_game(
        &row,
        FixOptions {
            plycount: true,
            ..FixOptions::default()
        },
        &Options::default(),
    );
    assert_eq!(
        f.text.as_deref(),
        Some("[Event \"e\"] [Round \"-\"] [Result \"*\"] [PlyCount \"2\"]\n1. e4 e5 *\n")
    );
    // A Result tag spelt with an en dash is read as 1-0 and rewritten with the marker.
    let (out, _) = fixed("[Round \"1\"]\n[Result \"1\u{2013}0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n");
    assert_eq!(
        out,
        "[Round \"1\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"
    );
    // A lone CR ends a line, as the validator counts lines: the cut is still found.
    let (out, repairs) =
        fixed("[Round \"1\"]\n[Result \"0-1\"]\n\n1. f3 e5 {a\rb} 2. g4 Qh4# 3. Kf2 0-1\n");
    assert_eq!(
        out,
        "[Round \"1\"]\n[Result \"0-1\"]\n\n1. f3 e5 {a\rb} 2. g4 Qh4# 0-1\n"
    );
    assert_eq!(repairs[0].1, 5);
    // A game without tags in CRLF gets CRLF tags.
    let (out, _) = fixed("1. e4 *\r\n");
    assert_eq!(out, "[Round \"-\"]\r\n\r\n1. e4 *\r\n");
}

#[test]
fn a_missing_marker_is_the_result_tags() {
    let mate = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#";
    let (out, repairs) = fixed(&format!("{ROSTER}[Result \"1-0\"]\n\n{mate}\n"));
    assert_eq!(out, format!("{ROSTER}[Result \"1-0\"]\n\n{mate} 1-0\n"));
    assert_eq!(
        repairs,
        [(RepairKind::ResultMarker, 7, String::new(), "1-0".into())]
    );
    // After a last comment; `*` too.
    let (out, _) = fixed(&format!("{ROSTER}[Result \"*\"]\n\n1. e4 {{on}}\n"));
    assert!(out.ends_with("1. e4 {on} *\n"), "{out}");
    // A result that disagrees with the board: the tag and the new marker follow the board.
    let (out, repairs) = fixed(&format!(
        "{ROSTER}[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4#\n"
    ));
    assert!(
        out.ends_with("[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"),
        "{out}"
    );
    let kinds: Vec<RepairKind> = repairs.iter().map(|r| r.0).collect();
    assert_eq!(kinds, [RepairKind::Result, RepairKind::ResultMarker]);
    // Moves after the end cut: the marker takes their place.
    let (out, repairs) = fixed(&format!(
        "{ROSTER}[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 3. Kf2 Qxh2\n"
    ));
    assert!(out.ends_with("\n\n1. f3 e5 2. g4 Qh4# 0-1\n"), "{out}");
    let kinds: Vec<RepairKind> = repairs.iter().map(|r| r.0).collect();
    assert_eq!(kinds, [RepairKind::MovesAfterEnd, RepairKind::ResultMarker]);
    // After a `;` comment, on the next line (CRLF kept).
    let (out, _) = fixed(&format!("{ROSTER}[Result \"1-0\"]\n\n{mate} ; mate\n"));
    assert!(out.ends_with(&format!("{mate} ; mate\n1-0\n")), "{out}");
    let crlf = format!("{ROSTER}[Result \"1-0\"]\n\n{mate} ; mate\n").replace('\n', "\r\n");
    let (out, _) = fixed(&crlf);
    assert!(
        out.ends_with(&format!("{mate} ; mate\r\n1-0\r\n")),
        "{out:?}"
    );
    // A marker followed by a comment, a NAG or a `;` comment is the game's marker.
    for tail in ["1-0 {note}", "1-0 $1", "1-0 ; note"] {
        let text = format!("{ROSTER}[Result \"1-0\"]\n\n{mate} {tail}\n");
        assert_eq!(
            fix(&text, FixOptions::default()).verdict,
            FixVerdict::Unchanged
        );
    }
    // After a last variation, not before it; cut moves and a variation after them.
    let (out, repairs) = fixed(&format!(
        "{ROSTER}[Result \"*\"]\n\n1. e4 e5 2. Nf3 (2. f4)\n"
    ));
    assert!(out.ends_with("2. Nf3 (2. f4) *\n"), "{out}");
    assert_eq!(repairs[0].1, 7);
    let (out, _) = fixed(&format!(
        "{ROSTER}[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 3. Kf2 (3. Be2)\n"
    ));
    assert!(out.ends_with("Qh4# 0-1\n"), "{out}");
    // A result written inside a last `;` comment is not the marker.
    let (out, _) = fixed(&format!("{ROSTER}[Result \"1-0\"]\n\n{mate} ; so 1-0\n"));
    assert!(out.ends_with(&format!("{mate} ; so 1-0\n1-0\n")), "{out}");
    // The line of a marker put on the line after a `;` comment.
    let (_, repairs) = fixed(&format!("{ROSTER}[Result \"1-0\"]\n\n{mate} ; mate\n"));
    assert_eq!(
        repairs,
        [(RepairKind::ResultMarker, 8, String::new(), "1-0".into())]
    );
    // A Result tag the validator does not read as a result (`1-0 `), or a movetext of
    // a comment alone: no marker.
    let spaced = format!("{ROSTER}[Result \"1-0 \"]\n\n{mate}\n");
    assert!(fix(&spaced, FixOptions::default()).repairs.is_empty());
    let comment = format!("{ROSTER}[Result \"1-0\"]\n\n{{just a note}}\n");
    assert_eq!(
        fix(&comment, FixOptions::default()).verdict,
        FixVerdict::Unchanged
    );
    // Without a Result tag, or without moves, nothing is added.
    let untagged = "[Event \"e\"]\n[Round \"1\"]\n\n1. e4 e5\n";
    let f = fix(untagged, FixOptions::default());
    assert_eq!(f.verdict, FixVerdict::Unchanged, "{f:?}");
    let empty = format!("{ROSTER}[Result \"1-0\"]\n\n");
    assert_eq!(
        fix(&empty, FixOptions::default()).verdict,
        FixVerdict::Unchanged
    );
}
