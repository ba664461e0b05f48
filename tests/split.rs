//! Game-aligned splits. For random archives (comments across lines, blank
//! lines and tag lines inside comments, tag-only games, `%` and `;` lines, CRLF and lone
//! CR, byte-order marks, illegal moves) and any number of parts, the parts' records
//! merged equal one run over the whole file, plain and in independent compressed
//! frames cut anywhere.

use std::io::Write;
use std::path::{Path, PathBuf};

use pocketfen::run::merge::Merge;
use pocketfen::run::record::{RunRecord, SummaryRecord};
use pocketfen::run::{Run, RunOptions, Task};
use pocketfen::stream::{Source, Split};
use proptest::prelude::*;
use serde_json::Value;

mod common;
use common::Rng;

const MOVETEXT: &[&str] = &[
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *",
    "1. e4 e5 2. Ke3 *",
    "1. d4 d5 2. c4 dxc4 3. e3 b5 4. a4 c6 5. axb5 cxb5 6. Qf3 1-0",
    "1. e4 {a comment} d5 2. exd5 Qxd5 (2... Nf6) 3. Nc3 $1 Qa5 *",
    "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
    "1. e4 zz9 2. d4 *",
];

const ZH: &[&str] = &[
    "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@b4 Qxb4 *",
    "1. e4 d5 2. exd5 Qxd5 3. Q@e4 *",
];

/// One line end: mostly LF, some CRLF, now and then a lone CR.
fn eol(rng: &mut Rng, style: usize) -> &'static str {
    match style {
        0 => "\n",
        1 => "\r\n",
        _ => match rng.below(20) {
            0 => "\r",
            1..=5 => "\r\n",
            _ => "\n",
        },
    }
}

/// A random archive of about `games` games.
fn archive(rng: &mut Rng, games: usize) -> Vec<u8> {
    let style = rng.below(3);
    let mut out = String::new();
    if rng.one_in(4) {
        out.push('\u{feff}');
    }
    for i in 0..games {
        let zh = rng.one_in(3);
        let blank_lines = rng.below(3);
        for _ in 0..blank_lines {
            if rng.one_in(5) {
                out.push_str(" \t");
            }
            if rng.one_in(30) {
                out.push('\u{feff}');
            }
            out.push_str(eol(rng, style));
        }
        if !rng.one_in(15) {
            if rng.one_in(25) {
                // A byte-order mark before a tag line (files joined with `cat`).
                out.push('\u{feff}');
            }
            out.push_str(&format!("[Event \"game {i}\"]"));
            if rng.one_in(20) {
                // Not a tag: an error on the game's first line, located by its column.
                out.push_str(" [Bad");
            }
            out.push_str(eol(rng, style));
            if zh {
                out.push_str(&format!("[Variant \"Crazyhouse\"]{}", eol(rng, style)));
            }
            if rng.one_in(6) {
                // A blank line inside the tag section.
                out.push_str(eol(rng, style));
                out.push_str(&format!("[Site \"s{i}\"]{}", eol(rng, style)));
            }
            if rng.one_in(8) {
                out.push_str(&format!("% an escape line{}", eol(rng, style)));
            }
        }
        if rng.one_in(12) {
            // A tag-only game.
            out.push_str(eol(rng, style));
            continue;
        }
        out.push_str(eol(rng, style));
        if rng.one_in(10) {
            out.push_str(&format!("; a comment line{}", eol(rng, style)));
        }
        let text = if zh {
            ZH[rng.below(ZH.len())]
        } else {
            MOVETEXT[rng.below(MOVETEXT.len())]
        };
        let (head, tail) = text.split_at(text.find(' ').unwrap_or(0));
        out.push_str(head);
        if rng.one_in(6) {
            // A comment across lines, with a blank line and a tag line inside it (and
            // sometimes never closed).
            out.push_str(" {a long");
            out.push_str(eol(rng, style));
            out.push_str(eol(rng, style));
            out.push_str("[Event \"inside\"]");
            out.push_str(eol(rng, style));
            if !rng.one_in(4) {
                out.push('}');
            }
        }
        for word in tail.split(' ') {
            out.push_str(if rng.one_in(8) { eol(rng, style) } else { " " });
            out.push_str(word);
        }
        if rng.one_in(20) {
            out.push_str(&" 1. e4".repeat(300));
        }
        out.push_str(eol(rng, style));
    }
    out.into_bytes()
}

/// Cuts `text` at random places into independent frames of `kind` (0 zstd, 1 zstd in
/// pzstd's layout, 2 bzip2).
fn frames(rng: &mut Rng, text: &[u8], kind: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let len = (1 + rng.below(text.len() / 3 + 1)).min(text.len() - at);
        let piece = &text[at..at + len];
        at += len;
        match kind {
            0 | 1 => {
                let frame = zstd::encode_all(piece, 1).unwrap();
                if kind == 1 {
                    out.extend_from_slice(&0x184d_2a50u32.to_le_bytes());
                    out.extend_from_slice(&4u32.to_le_bytes());
                    out.extend_from_slice(&(frame.len() as u32).to_le_bytes());
                }
                out.extend_from_slice(&frame);
            }
            _ => {
                let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::new(1));
                e.write_all(piece).unwrap();
                out.extend_from_slice(&e.finish().unwrap());
            }
        }
    }
    out
}

/// The records of a run, as JSON, without the total and the summary's time.
fn run(path: &Path, split: Option<Split>, jobs: usize) -> Vec<Value> {
    run_max(path, split, jobs, pocketfen::stream::DEFAULT_MAX_GAME_BYTES)
}

/// [`run`] with a game size limit.
fn run_max(path: &Path, split: Option<Split>, jobs: usize, max_game_bytes: usize) -> Vec<Value> {
    records(path, split, jobs, max_game_bytes)
        .iter()
        .map(|r| serde_json::to_value(r).unwrap())
        .collect()
}

/// The records of a run, without the total.
fn records(
    path: &Path,
    split: Option<Split>,
    jobs: usize,
    max_game_bytes: usize,
) -> Vec<RunRecord> {
    let opts = RunOptions {
        split,
        jobs,
        max_game_bytes,
        ..RunOptions::default()
    };
    Run::new(vec![Source::path(path)], Task::Validate { all: true }, opts)
        .filter(|r| !matches!(r, RunRecord::Total(_)))
        .collect()
}

/// The summary at the end of a run's records.
fn summary_of(records: &[RunRecord]) -> SummaryRecord {
    match records.last() {
        Some(RunRecord::Summary(s)) => s.clone(),
        other => panic!("a run's records end in its summary, not {other:?}"),
    }
}

fn untimed(mut v: Value) -> Value {
    if let Some(o) = v.as_object_mut() {
        o.remove("seconds");
    }
    v
}

/// Parts 1..N merged, as `pocketfen merge` writes them.
fn merged(path: &Path, n: usize, jobs: usize) -> Result<Vec<Value>, String> {
    merged_max(path, n, jobs, pocketfen::stream::DEFAULT_MAX_GAME_BYTES)
}

/// [`merged`] with a game size limit.
fn merged_max(path: &Path, n: usize, jobs: usize, max: usize) -> Result<Vec<Value>, String> {
    let parts: Vec<Vec<RunRecord>> = (1..=n)
        .map(|k| records(path, Some(Split::new(k, n).unwrap()), jobs, max))
        .collect();
    let summaries: Vec<SummaryRecord> = parts.iter().map(|p| summary_of(p)).collect();
    let merge = Merge::new(&summaries).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for (k, part) in parts.into_iter().enumerate().take(merge.parts_used()) {
        for mut r in part {
            if matches!(r, RunRecord::Summary(_)) {
                continue;
            }
            merge.renumber(k, &mut r);
            out.push(serde_json::to_value(&r).unwrap());
        }
    }
    out.push(serde_json::to_value(RunRecord::Summary(merge.summary().clone())).unwrap());
    Ok(out.into_iter().map(untimed).collect())
}

fn temp(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pocketfen-split-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn check(path: &Path, n: usize, jobs: usize) -> Result<(), TestCaseError> {
    check_max(path, n, jobs, pocketfen::stream::DEFAULT_MAX_GAME_BYTES)
}

fn check_max(path: &Path, n: usize, jobs: usize, max: usize) -> Result<(), TestCaseError> {
    let whole: Vec<Value> = run_max(path, None, 1, max)
        .into_iter()
        .map(untimed)
        .collect();
    let merged = merged_max(path, n, jobs, max).map_err(TestCaseError::fail)?;
    prop_assert_eq!(
        merged.len(),
        whole.len(),
        "records of {} in {} parts",
        path.display(),
        n
    );
    for (m, w) in merged.iter().zip(&whole) {
        prop_assert_eq!(m, w, "{} in {} parts", path.display(), n);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Plain archives, any number of parts, one or two jobs.
    #[test]
    fn merging_the_parts_of_a_plain_archive_equals_one_run(
        seed in 1u64.., games in 1usize..120, n in 1usize..9, jobs in 1usize..3
    ) {
        let mut rng = Rng(seed);
        let text = archive(&mut rng, games);
        let path = temp(&format!("plain-{seed}.pgn"), &text);
        check(&path, n, jobs)?;
        std::fs::remove_file(path).unwrap();
    }

    /// With a small game size limit, games over it are skipped the same way in the
    /// parts as in one run, wherever the parts' blocks fall.
    #[test]
    fn merging_parts_with_a_small_game_size_limit_equals_one_run(
        seed in 1u64.., games in 600usize..2000, n in 2usize..9, max in 150usize..3000
    ) {
        let mut rng = Rng(seed);
        let text = archive(&mut rng, games);
        let path = temp(&format!("limit-{seed}.pgn"), &text);
        check_max(&path, n, 1, max)?;
        std::fs::remove_file(path).unwrap();
    }

    /// Archives in independent zstd frames (with and without pzstd's skippable frames)
    /// and bzip2 streams, cut at random bytes, not at games.
    #[test]
    fn merging_the_parts_of_a_framed_archive_equals_one_run(
        seed in 1u64.., games in 20usize..120, n in 2usize..7, kind in 0usize..3
    ) {
        let mut rng = Rng(seed);
        let text = archive(&mut rng, games);
        let packed = frames(&mut rng, &text, kind);
        let ext = if kind == 2 { "bz2" } else { "zst" };
        let path = temp(&format!("framed-{seed}.pgn.{ext}"), &packed);
        check(&path, n, 1)?;
        std::fs::remove_file(path).unwrap();
    }
}

/// Parts that do not fit are refused, each with what does not match.
#[test]
fn parts_that_do_not_fit_are_refused() {
    let mut rng = Rng(7);
    let text = archive(&mut rng, 200);
    let a = temp("a.pgn", &text);
    let max = pocketfen::stream::DEFAULT_MAX_GAME_BYTES;
    let part =
        |path: &Path, k, n| summary_of(&records(path, Some(Split::new(k, n).unwrap()), 1, max));
    let err = |parts: &[SummaryRecord]| Merge::new(parts).unwrap_err().to_string();
    let (p1, p2, p3) = (part(&a, 1, 3), part(&a, 2, 3), part(&a, 3, 3));
    assert!(Merge::new(&[p1.clone(), p2.clone(), p3.clone()]).is_ok());
    // Given in any order, parts are taken in theirs (a shell puts `part-10` before
    // `part-2`); given twice, missing, from another split.
    let shuffled = Merge::new(&[p3.clone(), p1.clone(), p2.clone()]).unwrap();
    assert_eq!(shuffled.order(), [1, 2, 0]);
    let e = err(&[p2.clone(), p1.clone(), p2.clone()]);
    assert!(
        e.contains("part 3 given: it is part 2, as part 1 given is: each part once"),
        "{e}"
    );
    let e = err(&[p1.clone(), p3.clone()]);
    assert!(
        e.contains("split into 3 parts, and 2 are given (missing: 2)"),
        "{e}"
    );
    let e = err(&[p1.clone(), part(&a, 2, 4), p3.clone()]);
    assert!(e.contains("part 2 of 4, not of 3"), "{e}");
    // Another file.
    let b = temp("b.pgn", &text);
    let e = err(&[p1.clone(), part(&b, 2, 3), p3.clone()]);
    assert!(
        e.contains("b.pgn, not of") && e.contains("a.pgn (part 1)"),
        "{e}"
    );
    // The file changed between parts.
    let mut longer = text.clone();
    longer.extend_from_slice(b"\n[Event \"new\"]\n\n1. e4 *\n");
    std::fs::write(&a, &longer).unwrap();
    let e = err(&[p1.clone(), p2.clone(), part(&a, 3, 3)]);
    assert!(
        e.contains("part 3 given: the file changed between parts: its size is"),
        "{e}"
    );
    // Other options.
    std::fs::write(&a, &text).unwrap();
    let strict = {
        let mut opts = RunOptions {
            split: Some(Split::new(2, 3).unwrap()),
            jobs: 1,
            ..RunOptions::default()
        };
        opts.game.strict = true;
        let records: Vec<RunRecord> =
            Run::new(vec![Source::path(&a)], Task::Validate { all: true }, opts)
                .filter(|r| !matches!(r, RunRecord::Total(_)))
                .collect();
        summary_of(&records)
    };
    let e = err(&[part(&a, 1, 3), strict, part(&a, 3, 3)]);
    assert!(
        e.contains("part 2 given: it was read with other options"),
        "{e}"
    );
    // Not a part at all, and a part out of range.
    let whole = summary_of(&records(&a, None, 1, max));
    assert!(err(&[whole]).contains("read whole, not as a part"));
    let e = Split::new(4, 3).unwrap_err();
    assert_eq!(
        (e.what, e.to_string().as_str()),
        (
            "part",
            "there is no part 4 of 3: parts are numbered 1 to N (K/N, 1 <= K <= N)"
        )
    );
    assert!("0/3".parse::<Split>().is_err() && "a/3".parse::<Split>().is_err());
}

/// A part that broke off (a stream error) ends the merge there, as one run would end.
#[test]
fn a_broken_stream_ends_the_merge_where_one_run_ends() {
    let mut rng = Rng(11);
    let text = archive(&mut rng, 300);
    let mut packed = frames(&mut rng, &text, 1);
    // Cut 40 bytes out of the middle of the file: a frame there breaks off.
    let at = packed.len() / 2;
    packed.drain(at..at + 40);
    let path = temp("broken.pgn.zst", &packed);
    let whole: Vec<Value> = run(&path, None, 1).into_iter().map(untimed).collect();
    let summary = whole.last().unwrap();
    assert_eq!(summary["complete"], false, "the damage is found: {summary}");
    let merged = merged(&path, 4, 1).unwrap();
    assert_eq!(merged.last().unwrap()["complete"], false);
    assert_eq!(merged.last().unwrap()["games"], summary["games"]);
    assert_eq!(merged, whole);
}

/// Damaged archives give one run's records for every `-j` and for split + merge (issue
/// 33.10): each frame's bytes reach its decoder in the same pieces however it is read
/// (from the file's start, a part's, or a chunk's re-read), so the text decoded before
/// the damage is the same. Real games in BGZF (pocketfen's own gzip output), plain
/// multi-member gzip, pzstd-style zstd frames and bzip2 streams, each damaged at random
/// places in three ways (a flipped byte, 40 zeroed bytes, 37 bytes cut out).
#[test]
fn damaged_archives_give_one_runs_records_for_any_jobs_and_parts() {
    let text = std::fs::read("samples/lichess_standard_2025-05_sample438.pgn").unwrap();
    let mut rng = Rng(33);
    let bgzf = {
        let mut w = pocketfen::stream::CompressedWriter::new(
            Vec::new(),
            pocketfen::stream::Compression::Gzip,
            None,
            1,
        )
        .unwrap();
        w.write_all(&text).unwrap();
        w.finish().unwrap()
    };
    let members = {
        let mut out = Vec::new();
        for piece in text.chunks(70_000) {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
            e.write_all(piece).unwrap();
            out.extend(e.finish().unwrap());
        }
        out
    };
    let zstd = frames(&mut rng, &text, 1);
    let bzip2 = frames(&mut rng, &text, 2);
    let mut failures = Vec::new();
    for (name, packed) in [
        ("bgzf.pgn.gz", bgzf),
        ("members.pgn.gz", members),
        ("frames.pgn.zst", zstd),
        ("streams.pgn.bz2", bzip2),
    ] {
        for trial in 0..60 {
            let mut damaged = packed.clone();
            let at = 64 + rng.below(damaged.len() - 200);
            match trial % 3 {
                0 => damaged[at] ^= 0xff,
                1 => damaged[at..at + 40].fill(0),
                _ => {
                    damaged.drain(at..at + 37);
                }
            }
            let path = temp(&format!("damaged-{trial}-{name}"), &damaged);
            let one: Vec<Value> = run(&path, None, 1).into_iter().map(untimed).collect();
            let four: Vec<Value> = run(&path, None, 4).into_iter().map(untimed).collect();
            if one != four {
                failures.push(format!("{name} damaged at {at} ({trial}): -j 4 differs"));
            }
            match merged(&path, 4, 2) {
                Ok(parts) if parts != one => failures.push(format!(
                    "{name} damaged at {at} ({trial}): 4 parts merged give {} games, one run {}",
                    parts.last().unwrap()["games"],
                    one.last().unwrap()["games"]
                )),
                // A part whose own start is damaged cannot be merged: it says so.
                _ => {}
            }
            let _ = std::fs::remove_file(&path);
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
