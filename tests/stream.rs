//! From bytes to games: compressed archives in frames (pzstd, BGZF, bzip2 streams) read
//! on the workers and written, trailing bytes, byte-order marks and lone CRs, archives of
//! several formats joined, and the check that the input is text.

mod common;

use common::{
    break_first_block, cmd, damaged_cases, framed_cases, games_text, pzstd_frames, run_out,
    scratch_dir, tool,
};
use pocketfen::game::{Options, Status};
use std::fs;
use std::io::Write;
use std::process::Command;

/// The JSON records of `validate --json --all ARGS`, and its exit code.
fn json_records(args: &[&str]) -> (Vec<serde_json::Value>, Option<i32>) {
    let mut all = vec!["validate", "-q", "--json", "--all"];
    all.extend_from_slice(args);
    let out = cmd(&all).output().unwrap();
    let records = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (records, out.status.code())
}

/// The game records without their file name, and the summary without its timing.
fn games_and_summary(
    mut records: Vec<serde_json::Value>,
) -> (Vec<serde_json::Value>, serde_json::Value) {
    let mut summary = records.pop().expect("a summary");
    assert_eq!(summary["type"], "summary");
    for r in records.iter_mut().chain([&mut summary]) {
        r.as_object_mut().unwrap().remove("file");
        r.as_object_mut().unwrap().remove("seconds");
    }
    (records, summary)
}

/// The real `pzstd` (Debian package `zstd`; `.ci/run` installs it).
fn pzstd(args: &[&str]) -> std::process::Output {
    Command::new("pzstd")
        .args(args)
        .output()
        .expect("pzstd (Debian package zstd) is needed for this test: `.ci/run` installs it")
}

/// An archive as Lichess writes its database files (pzstd: a skippable frame
/// before each of several zstd frames) gives exactly the records of its text, for any
/// number of jobs, made with the real pzstd.
#[test]
fn pzstd_archives_are_read_frame_by_frame() {
    let dir = scratch_dir("pzstd");
    let plain = dir.join("games.pgn");
    let sample = fs::read("samples/lichess_standard_2025-05_sample438.pgn").unwrap();
    let copies = 6;
    let mut text = Vec::new();
    for _ in 0..copies {
        text.extend_from_slice(&sample);
        text.push(b'\n');
    }
    fs::write(&plain, &text).unwrap();
    let zst = dir.join("games.pgn.zst");
    let out = pzstd(&[
        "-q",
        "-f",
        "-1",
        "-p",
        "2",
        plain.to_str().unwrap(),
        "-o",
        zst.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let bytes = fs::read(&zst).unwrap();
    assert_eq!(
        &bytes[..4],
        &[0x50, 0x2a, 0x4d, 0x18],
        "pzstd starts with a skippable frame"
    );
    let frames = pzstd_frames(&bytes).expect("pzstd's layout");
    assert!(frames >= 3, "{frames} frames: the test needs several");
    let (expected, plain_summary) =
        games_and_summary(json_records(&["-j", "1", plain.to_str().unwrap()]).0);
    assert_eq!(expected.len(), copies * 438);
    for jobs in ["1", "2"] {
        let (records, code) = json_records(&["-j", jobs, zst.to_str().unwrap()]);
        assert_eq!(code, Some(0));
        let (games, summary) = games_and_summary(records);
        assert_eq!(games, expected, "-j {jobs}");
        assert_eq!(summary["complete"], true);
        assert_eq!(summary["games"], plain_summary["games"]);
        assert!(summary.get("trailing_bytes").is_none());
    }
}

/// The bundled pzstd sample (the README's first command) reads as its
/// decompressed text reads.
#[test]
fn the_bundled_lichess_sample_is_read_whole() {
    let path = "samples/lichess_zh_2022-2025_bots75.pgn.zst";
    let bytes = fs::read(path).unwrap();
    assert_eq!(pzstd_frames(&bytes), Some(1));
    let decompressed = pzstd(&["-q", "-d", "-c", path]);
    assert!(decompressed.status.success());
    let dir = scratch_dir("sample");
    let plain = dir.join("sample.pgn");
    fs::write(&plain, &decompressed.stdout).unwrap();
    let (ours, code) = json_records(&[path]);
    assert_eq!(code, Some(0));
    let (games, summary) = games_and_summary(ours);
    let (expected, plain_summary) = games_and_summary(json_records(&[plain.to_str().unwrap()]).0);
    assert_eq!(games, expected);
    assert_eq!(summary["games"], 75);
    assert_eq!(summary["plies"], plain_summary["plies"]);
    assert_eq!(summary["complete"], true);
}

/// Bytes after the last complete frame (a tape's zero padding, junk) keep
/// every game before them, are reported once with their offset, and exit 0; a second
/// frame that starts but breaks is still an error (exit 2).
#[test]
fn trailing_bytes_keep_every_game() {
    let dir = scratch_dir("trailing");
    let sample = fs::read("samples/cutechess_zh_2019_CrazyAra-vs-Stockfish.pgn").unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&sample).unwrap();
    let gz = gz.finish().unwrap();
    let zst = zstd::encode_all(&sample[..], 3).unwrap();
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    bz.write_all(&sample).unwrap();
    let bz = bz.finish().unwrap();
    let plain = dir.join("plain.pgn");
    fs::write(&plain, &sample).unwrap();
    let (expected, _) = games_and_summary(json_records(&[plain.to_str().unwrap()]).0);
    assert_eq!(expected.len(), 100);
    let cases: [(&str, &[u8], &[u8], bool); 3] = [
        ("padded.pgn.gz", &gz, &[0; 10_240], true),
        ("junk.pgn.zst", &zst, b"<html>not found</html>\n", false),
        ("junk.pgn.bz2", &bz, b"\x00\x01\x02", false),
    ];
    for (name, stream, tail, zeros) in cases {
        let path = dir.join(name);
        fs::write(&path, [stream, tail].concat()).unwrap();
        let (records, code) = json_records(&["-j", "2", path.to_str().unwrap()]);
        assert_eq!(code, Some(0), "{name}");
        let (games, summary) = games_and_summary(records);
        assert_eq!(games, expected, "{name}: every game, the last one too");
        assert_eq!(summary["complete"], true, "{name}");
        assert_eq!(
            summary["trailing_bytes"],
            serde_json::json!({"offset": stream.len(), "length": tail.len(), "zero_padding": zeros}),
            "{name}"
        );
        let text = cmd(&["validate", "-q", path.to_str().unwrap()])
            .output()
            .unwrap();
        let stderr = String::from_utf8(text.stderr).unwrap();
        assert_eq!(stderr.matches("trailing byte").count(), 1, "{stderr}");
        assert!(
            stderr.contains(&format!("(from byte {})", stream.len())),
            "{stderr}"
        );
    }
    // A second member that starts and is cut: the first member's games, then exit 2.
    let path = dir.join("broken.pgn.gz");
    fs::write(&path, [&gz[..], &gz[..gz.len() / 2]].concat()).unwrap();
    let (records, code) = json_records(&[path.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    let (games, summary) = games_and_summary(records);
    assert!(games.len() >= 100, "{}", games.len());
    assert_eq!(&games[..100], &expected[..]);
    assert_eq!(summary["complete"], false);
}

/// A game as (number, first line, status, problems as (line, column, kind)).
type GameSaid = (usize, usize, Status, Vec<(usize, usize, String)>);

/// In the library: a BOM between games and tokens, lone CRs and a blank
/// line in the tag section give the games the plain file gives, at the same lines.
#[test]
fn boms_lone_crs_and_blank_tag_lines_change_nothing() {
    let text = fs::read_to_string("grammar-tests/pgn/err/three-games-middle-bad.pgn").unwrap();
    let reports = |t: &str| -> Vec<GameSaid> {
        let strict = Options {
            strict: true,
            ..Options::default()
        };
        pocketfen::game::validate_str(t, &strict)
            .into_iter()
            .map(|r| {
                let p = r
                    .problems
                    .iter()
                    .map(|p| (p.line, p.column, p.kind.name().to_owned()))
                    .collect();
                (r.number, r.line, r.status, p)
            })
            .collect()
    };
    let expected = reports(&text);
    assert_eq!(expected.len(), 3);
    assert!(expected.iter().any(|g| !g.3.is_empty()));
    let without_columns = |games: Vec<GameSaid>| -> Vec<GameSaid> {
        games
            .into_iter()
            .map(|(n, l, s, p)| (n, l, s, p.into_iter().map(|(l, _, k)| (l, 0, k)).collect()))
            .collect()
    };
    // A BOM is a character: the columns after one on its line move by one.
    let bom = text
        .replace("\n[Event", "\n\u{feff}[Event")
        .replace(" 2.", "\u{feff} 2.");
    assert_ne!(bom, text);
    assert_eq!(
        without_columns(reports(&bom)),
        without_columns(expected.clone())
    );
    assert_eq!(reports(&text.replace('\n', "\r")), expected);
    assert_eq!(reports(&text.replace('\n', "\r\n")), expected);
    // A blank line between two tags of each game: the same games, each with a
    // blank-line-in-tags warning under --strict, the lines after it one further down.
    let blank = text.replace("\"]\n[Result", "\"]\n\n[Result");
    assert_ne!(blank, text);
    let games = reports(&blank);
    assert_eq!(games.len(), 3);
    for (got, want) in games.iter().zip(&expected) {
        assert_eq!((got.0, got.2), (want.0, want.2));
        let kinds: Vec<&str> = got.3.iter().map(|p| p.2.as_str()).collect();
        let mut wanted: Vec<&str> = want.3.iter().map(|p| p.2.as_str()).collect();
        wanted.insert(0, "blank-line-in-tags");
        assert_eq!(kinds, wanted);
    }
}

/// Archives compressed by the real pbzip2 (one stream per block), pzstd
/// (frames after skippable frames), gzip (one member) and as BGZF (`pgn convert -o
/// x.gz`), whole, with trailing junk, or cut short, give with three jobs (the frames
/// decoded side by side) exactly the records of one.
#[test]
fn parallel_decoding_gives_the_records_of_one_thread() {
    let dir = scratch_dir("parallel");
    let plain = dir.join("games.pgn");
    fs::write(&plain, games_text(3)).unwrap();
    let p = plain.to_str().unwrap();
    let gz = tool("gzip", &["-c", "-1", p]).stdout;
    let mut cases = framed_cases(&dir, &plain);
    cases.extend(damaged_cases("gz", &gz));
    for (name, bytes) in &cases {
        let path = dir.join(format!("games-{name}"));
        fs::write(&path, bytes).unwrap();
        let path = path.to_str().unwrap();
        let (one, code_one) = json_records(&["-j", "1", path]);
        let (three, code_three) = json_records(&["-j", "3", path]);
        let (one, three) = (games_and_summary(one), games_and_summary(three));
        assert_eq!(code_one, code_three, "{name}");
        assert!(
            one == three,
            "{name}: -j 3 read {} games, -j 1 {}",
            three.0.len(),
            one.0.len()
        );
        let summary = &one.1;
        match name.split('.').next() {
            Some("whole") => assert_eq!(
                (code_one, summary["complete"].clone()),
                (Some(0), true.into()),
                "{name}"
            ),
            Some("junk") => assert_eq!(summary["trailing_bytes"]["length"], 24, "{name}"),
            _ => assert_eq!(
                (code_one, summary["complete"].clone()),
                (Some(2), false.into()),
                "{name}"
            ),
        }
    }
}

/// `pgn convert -o FILE.zst|.gz|.bz2` compresses by the extension, in frames
/// the real tools read back (pzstd's layout for zstd), at the level asked for; a level
/// out of range, or one for plain output, is refused.
#[test]
fn pgn_convert_writes_compressed_frames() {
    let dir = scratch_dir("packed");
    let plain = dir.join("games.pgn");
    fs::write(&plain, games_text(12)).unwrap();
    let p = plain.to_str().unwrap();
    let expected = cmd(&["pgn", "convert", "-q", "--to", "chesscom", "-j", "2", p])
        .output()
        .unwrap();
    assert!(expected.status.success());
    assert!(expected.stdout.len() > 2 * pocketfen::stream::ZSTD_INPUT);
    let mut sizes = Vec::new();
    for (ext, level, decoder) in [
        ("zst", "1", ["pzstd", "-q", "-d", "-c"]),
        ("zst", "19", ["pzstd", "-q", "-d", "-c"]),
        ("gz", "6", ["gzip", "-d", "-c", "-q"]),
        ("bz2", "9", ["bzip2", "-d", "-c", "-q"]),
    ] {
        let out_path = dir.join(format!("out-{level}.pgn.{ext}"));
        let o = out_path.to_str().unwrap();
        let run = cmd(&[
            "pgn", "convert", "-q", "--to", "chesscom", "-j", "2", "--level", level, "-o", o, p,
        ])
        .output()
        .unwrap();
        assert!(run.status.success(), "{ext}: {run:?}");
        let bytes = fs::read(&out_path).unwrap();
        if ext == "zst" {
            let frames = pzstd_frames(&bytes).expect("pzstd's layout");
            assert!(frames >= 3, "{frames} frames");
            sizes.push(bytes.len());
        }
        let mut args: Vec<&str> = decoder[1..].to_vec();
        args.push(o);
        let back = tool(decoder[0], &args).stdout;
        assert!(
            back == expected.stdout,
            "{ext} at level {level} does not read back"
        );
    }
    assert!(
        sizes[1] < sizes[0],
        "level 19 compresses more than level 1: {sizes:?}"
    );
    for (args, says) in [
        (
            vec!["--level", "30", "-o", "x.pgn.zst"],
            "zstd takes levels 1 to 22, not 30",
        ),
        (
            vec!["--level", "0", "-o", "x.pgn.bz2"],
            "bzip2 takes levels 1 to 9, not 0",
        ),
        (vec!["--level", "3"], "--level 3 compresses nothing"),
    ] {
        let mut all = vec!["pgn", "convert", "-q", "--to", "lichess"];
        all.extend(args);
        all.push(p);
        let out = cmd(&all).current_dir(&dir).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{all:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{all:?}: {err}");
        assert!(!dir.join("x.pgn.zst").exists() && !dir.join("x.pgn.bz2").exists());
    }
}

/// The binary-file check judges the same first 4 KiB however the decoder hands them out
///: a zstd file whose first frame is 22 bytes of PGN and the rest binary
/// was validated with `-j 1` and refused as binary with `-j 4`; now every `-j` refuses
/// it, and a text file made of many tiny frames is read by every `-j`.
#[test]
fn the_binary_check_is_the_same_for_every_job_count() {
    let dir = scratch_dir("binary-check");
    let mut bytes = zstd::encode_all(&b"[Event \"x\"]\n\n1. e4 *\n"[..], 3).unwrap();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let noise: Vec<u8> = (0..64 * 1024)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    for chunk in noise.chunks(8192) {
        bytes.extend(zstd::encode_all(chunk, 3).unwrap());
    }
    let binary = dir.join("binary.pgn.zst");
    fs::write(&binary, &bytes).unwrap();
    let mut tiny = Vec::new();
    for i in 0..400 {
        let game = format!("[Event \"{i}\"]\n\n1. e4 *\n\n");
        tiny.extend(zstd::encode_all(game.as_bytes(), 3).unwrap());
    }
    let text = dir.join("tiny-frames.pgn.zst");
    fs::write(&text, &tiny).unwrap();
    for jobs in ["1", "2", "4"] {
        let (_, err, code) = run_out(&["validate", "-j", jobs, binary.to_str().unwrap()]);
        assert_eq!(code, Some(2), "-j {jobs}: {err}");
        assert!(
            err.contains("a binary file, not PGN text"),
            "-j {jobs}: {err}"
        );
        let (_, err, code) = run_out(&["validate", "-j", jobs, text.to_str().unwrap()]);
        assert_eq!(code, Some(0), "-j {jobs}: {err}");
        assert!(err.contains("400 games"), "-j {jobs}: {err}");
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// Archives of different formats joined with `cat` (`cat a.pgn.gz b.pgn.zst`) are read
/// whole, as concatenated archives of one format are, by every `-j`: the
/// zstd frame after gzip members was taken for trailing bytes, its illegal game never
/// checked (exit 0).
#[test]
fn concatenated_archives_of_different_formats_are_read_whole() {
    let dir = scratch_dir("mixed-formats");
    let good = "[Event \"a\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n".repeat(50);
    let bad = "[Event \"b\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n";
    let gz = |text: &str| {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(text.as_bytes()).unwrap();
        e.finish().unwrap()
    };
    let zst = |text: &str| zstd::encode_all(text.as_bytes(), 3).unwrap();
    let bz2 = |text: &str| {
        let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
        e.write_all(text.as_bytes()).unwrap();
        e.finish().unwrap()
    };
    let cases = [
        ("gz-zst.pgn.gz", [gz(&good), zst(bad), bz2(&good)].concat()),
        (
            "zst-bz2.pgn.zst",
            [zst(&good), bz2(bad), gz(&good)].concat(),
        ),
        ("bz2-gz.pgn.bz2", [bz2(&good), gz(bad), zst(&good)].concat()),
    ];
    for (name, bytes) in cases {
        let path = dir.join(name);
        fs::write(&path, bytes).unwrap();
        for jobs in ["1", "4"] {
            let (out, err, code) = run_out(&[
                "validate",
                "--json",
                "-q",
                "-j",
                jobs,
                path.to_str().unwrap(),
            ]);
            assert_eq!(code, Some(1), "{name} -j {jobs}: {err}");
            let summary: serde_json::Value =
                serde_json::from_str(String::from_utf8(out).unwrap().lines().last().unwrap())
                    .unwrap();
            assert_eq!(summary["games"], 101, "{name} -j {jobs}");
            assert_eq!(summary["illegal_games"], 1, "{name} -j {jobs}");
            assert_eq!(summary["complete"], true, "{name} -j {jobs}");
            assert!(summary.get("trailing_bytes").is_none(), "{name} -j {jobs}");
        }
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// The zstd frames of a pzstd archive: each one's offset and compressed size.
fn pzstd_frame_list(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut frames = Vec::new();
    let mut at = 0;
    while at + 12 <= bytes.len() {
        let size = u32::from_le_bytes(bytes[at + 8..at + 12].try_into().unwrap()) as usize;
        frames.push((at + 12, size));
        at += 12 + size;
    }
    frames
}

/// A damaged frame in the middle of an archive as Lichess writes its database files
/// (made by the real pzstd) loses only its own games: the games before it and after it
/// are read and checked as in the undamaged file, for any number of jobs; the summary
/// says where the text broke and how many games were left out, and the run exits 2.
/// The bundled Lichess sample six times over (`games.pgn`), compressed by the real pzstd
/// (`games.pgn.zst`), and that archive with its second frame's first block broken
/// (`damaged.pgn.zst`); the paths of the three, and the broken frame's offset and size.
fn damaged_pzstd_archive(name: &str) -> ([std::path::PathBuf; 3], usize, usize) {
    let dir = scratch_dir(name);
    let plain = dir.join("games.pgn");
    let sample = fs::read("samples/lichess_standard_2025-05_sample438.pgn").unwrap();
    fs::write(&plain, sample.repeat(6)).unwrap();
    let zst = dir.join("games.pgn.zst");
    let out = pzstd(&[
        "-q",
        "-f",
        "-1",
        "-p",
        "2",
        plain.to_str().unwrap(),
        "-o",
        zst.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let mut bytes = fs::read(&zst).unwrap();
    let frames = pzstd_frame_list(&bytes);
    assert!(
        frames.len() >= 3,
        "{} frames: the test needs three",
        frames.len()
    );
    let (at, len) = frames[1];
    break_first_block(&mut bytes, at);
    let damaged = dir.join("damaged.pgn.zst");
    fs::write(&damaged, &bytes).unwrap();
    ([plain, zst, damaged], at, len)
}

#[test]
fn a_damaged_pzstd_frame_loses_only_its_own_games() {
    let ([plain, zst, damaged], at, len) = damaged_pzstd_archive("damaged-frame");

    let (plain_records, _) = json_records(&["-j", "1", plain.to_str().unwrap()]);
    let (expected, _) = games_and_summary(plain_records);
    let mut runs = Vec::new();
    for jobs in ["1", "2"] {
        let (records, code) = json_records(&["-j", jobs, damaged.to_str().unwrap()]);
        assert_eq!(code, Some(2), "-j {jobs}: the archive is not complete");
        runs.push(games_and_summary(records));
    }
    assert_eq!(runs[0], runs[1], "-j 2 reads what -j 1 reads");
    let (games, summary) = runs.remove(0);
    assert_eq!(summary["complete"], false);
    let breaks = summary["breaks"].as_array().expect("the break is told");
    assert_eq!(breaks.len(), 1);
    assert_eq!(breaks[0]["offset"], at);
    assert_eq!(breaks[0]["length"], len);
    let lost = summary["lost"].as_u64().unwrap() as usize;
    assert!(
        (1..=2).contains(&lost),
        "a break leaves out at most two pieces: {lost}"
    );
    let error = summary["stream_error"].as_str().unwrap();
    assert!(
        error.starts_with(&format!(
            "the zstd frame at byte {at} ({len} bytes) cannot be decoded ("
        )),
        "{error}"
    );
    // The games before the break are those of the undamaged file, numbers and lines
    // alike; those after it are a run of the undamaged file's games, each numbered and
    // placed one same step back (the games and lines of the lost text).
    let before = games
        .iter()
        .zip(&expected)
        .take_while(|(a, b)| a == b)
        .count();
    let key = |g: &serde_json::Value| (g["game"].as_u64().unwrap(), g["line"].as_u64().unwrap());
    let rest = |g: &serde_json::Value| {
        let mut g = g.clone();
        let o = g.as_object_mut().unwrap();
        o.remove("game");
        o.remove("line");
        g
    };
    let after = &games[before..];
    assert!(
        !after.is_empty() && before > 0,
        "{before} games before the break"
    );
    let start = expected.len() - after.len();
    let (dn, dl) = (
        key(&expected[start]).0 - key(&after[0]).0,
        key(&expected[start]).1 - key(&after[0]).1,
    );
    for (g, e) in after.iter().zip(&expected[start..]) {
        assert_eq!(rest(g), rest(e));
        assert_eq!((key(g).0 + dn, key(g).1 + dl), key(e));
    }
    // The numbers left out: the games lost with the frame's text, and those cut.
    assert_eq!(summary["games"].as_u64().unwrap() as usize, games.len());
    assert!(dn > 0, "the frame's own games are lost too");
    assert_eq!(games.len() + lost + dn as usize, expected.len());

    // The text lost: pzstd writes four windows of text in each frame but the last, so
    // the frame's header and the text it gave tell what the file lacks, byte for byte.
    let text = &breaks[0]["text"];
    assert_eq!(text["by"], "pzstd", "{text}");
    let frame_text = text["bytes"].as_u64().unwrap();
    let text_read = breaks[0]["text_read"].as_u64().unwrap();
    let text_lost = frame_text - text_read;
    let bytes = summary["bytes"].as_u64().unwrap();
    assert_eq!(fs::metadata(&plain).unwrap().len() - bytes, text_lost);
    // The same frame damaged in its middle gives some text first, counted alike.
    let mut middle = fs::read(&zst).unwrap();
    for b in &mut middle[at + len / 2..at + len / 2 + 30] {
        *b ^= 0x5a;
    }
    let middle_path = zst.with_file_name("middle.pgn.zst");
    fs::write(&middle_path, &middle).unwrap();
    let (records, _) = json_records(&["-j", "2", middle_path.to_str().unwrap()]);
    let (_, m) = games_and_summary(records);
    let read = m["breaks"][0]["text_read"].as_u64().unwrap();
    assert!(read > 0, "{m}");
    assert_eq!(
        fs::metadata(&plain).unwrap().len() - m["bytes"].as_u64().unwrap(),
        m["breaks"][0]["text"]["bytes"].as_u64().unwrap() - read
    );
    // About as many games as the frame's text held: those numbered past, give or take
    // a fifth.
    let size = bytes.div_ceil(games.len() as u64);
    let estimate = (text_lost + size / 2) / size;
    assert!(
        estimate * 5 >= dn * 4 && estimate * 5 <= dn * 6,
        "about {estimate} games estimated, {dn} lost"
    );

    // What a person reads: the summary line and the note.
    let (_, stderr, code) = run_out(&["validate", "-j", "2", damaged.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains(&format!(
            ", {lost} lost (damaged frames, with up to {text_lost} bytes of text)"
        )),
        "{stderr}"
    );
    let note = format!(
        ": {} games read, {lost} game{} lost, and up to {text_lost} bytes of text (about {estimate} games, the text read averaging {size} bytes a game): the zstd frame at byte {at} ",
        games.len(),
        if lost == 1 { "" } else { "s" }
    );
    assert!(stderr.contains(&note), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "the rest of its text is lost (up to {text_lost} bytes: pzstd writes at most {frame_text} bytes of text in a frame)"
        )),
        "{stderr}"
    );
}

/// A damaged stream of an archive made by the real pbzip2 (one stream per 100 kB of
/// text with `-b1`) loses only its own games: the games before it are the undamaged
/// file's, those after it too, numbered on past the lost ones; `-j 2` reads what `-j 1`
/// reads, and the text lost is the stream's, byte for byte.
#[test]
fn a_damaged_pbzip2_stream_loses_only_its_own_games() {
    let dir = scratch_dir("damaged-stream");
    let plain = dir.join("games.pgn");
    let sample = fs::read("samples/lichess_standard_2025-05_sample438.pgn").unwrap();
    fs::write(&plain, sample.repeat(3)).unwrap();
    let p = plain.to_str().unwrap();
    let mut bytes = tool("pbzip2", &["-c", "-9", "-b1", "-p2", p]).stdout;
    let starts: Vec<usize> = memchr::memmem::find_iter(&bytes, b"BZh9")
        .filter(|&i| bytes[i + 4..].starts_with(&[0x31, 0x41, 0x59, 0x26, 0x53, 0x59]))
        .collect();
    assert!(starts.len() >= 4, "{} streams", starts.len());
    let (at, len) = (starts[2], starts[3] - starts[2]);
    // The block's first bytes after its magic and check (its start pointer, the map of
    // the bytes it uses): found before the block gives any text.
    for b in &mut bytes[at + 14..at + 22] {
        *b ^= 0xa5;
    }
    let damaged = dir.join("damaged.pgn.bz2");
    fs::write(&damaged, &bytes).unwrap();
    let damaged = damaged.to_str().unwrap();

    let (expected, _) = games_and_summary(json_records(&["-j", "1", p]).0);
    let mut runs = Vec::new();
    for jobs in ["1", "2"] {
        let (records, code) = json_records(&["-j", jobs, damaged]);
        assert_eq!(code, Some(2), "-j {jobs}: the archive is not complete");
        runs.push(games_and_summary(records));
    }
    assert_eq!(runs[0], runs[1], "-j 2 reads what -j 1 reads");
    let (games, summary) = runs.remove(0);
    let breaks = summary["breaks"].as_array().expect("the break is told");
    assert_eq!(breaks.len(), 1, "{summary}");
    let b = &breaks[0];
    assert_eq!(
        (
            &b["compression"],
            &b["offset"],
            &b["length"],
            &b["text_read"]
        ),
        (&"bzip2".into(), &at.into(), &len.into(), &0.into()),
        "{b}"
    );
    assert!(b.get("text").is_none(), "a bzip2 stream tells no size: {b}");
    // pbzip2 puts 100 kB of text in each stream but the last: that much is missing.
    assert_eq!(
        fs::metadata(&plain).unwrap().len() - summary["bytes"].as_u64().unwrap(),
        100_000
    );
    // The games before the break are the undamaged file's; those after it are its last
    // games, each numbered one same step back (the games the lost text held).
    let before = games
        .iter()
        .zip(&expected)
        .take_while(|(a, b)| a == b)
        .count();
    let after = games.len() - before;
    assert!(before > 0 && after > 0, "{before} games before the break");
    let number = |g: &serde_json::Value| g["game"].as_u64().unwrap();
    let lost = summary["lost"].as_u64().unwrap() as usize;
    let held = number(&expected[expected.len() - after]) - number(&games[before]);
    for (g, e) in games[before..]
        .iter()
        .zip(&expected[expected.len() - after..])
    {
        assert_eq!(number(g) + held, number(e));
        assert_eq!((&g["plies"], &g["status"]), (&e["plies"], &e["status"]));
    }
    assert!(held > 0, "the stream's own games are lost too");
    assert_eq!(games.len() + lost + held as usize, expected.len());

    // What a person reads.
    let (_, stderr, code) = run_out(&["validate", damaged]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains(&format!(", {lost} lost (damaged frames)")),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            ": {} games read, {lost} game{} lost: the bzip2 stream at byte {at} ({len} bytes) cannot be decoded (",
            games.len(),
            if lost == 1 { "" } else { "s" }
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "): its text is lost (a bzip2 stream does not tell its size); the text breaks at line "
        ),
        "{stderr}"
    );
}

/// The game records and summary of a damaged archive, read alike on one thread and
/// two, the run not complete (exit 2).
fn on_one_thread_and_two(path: &str) -> (Vec<serde_json::Value>, serde_json::Value) {
    let mut runs = Vec::new();
    for jobs in ["1", "2"] {
        let (records, code) = json_records(&["-j", jobs, path]);
        assert_eq!(code, Some(2), "-j {jobs}: the archive is not complete");
        runs.push(games_and_summary(records));
    }
    assert_eq!(runs[0], runs[1], "-j 2 reads what -j 1 reads");
    runs.remove(0)
}

/// The text the library's reader gives of `path`, read on past its breaks, and the
/// damaged frames it told.
fn read_past_breaks(path: &std::path::Path) -> (Vec<u8>, Vec<pocketfen::stream::DamagedFrame>) {
    let mut reader = pocketfen::stream::decode(fs::File::open(path).unwrap())
        .unwrap()
        .reader;
    let (mut text, mut breaks) = (Vec::new(), Vec::new());
    loop {
        match std::io::BufRead::fill_buf(&mut reader) {
            Ok([]) => return (text, breaks),
            Ok(b) => {
                let n = b.len();
                text.extend_from_slice(b);
                std::io::BufRead::consume(&mut reader, n);
            }
            Err(e) => breaks.push(
                pocketfen::stream::DamagedFrame::of(&e)
                    .unwrap_or_else(|| panic!("{e}"))
                    .clone(),
            ),
        }
    }
}

/// A damaged block of a one-stream archive made by the real `bzip2` loses only its own
/// text: the text pocketfen reads is, byte for byte, what `bzip2recover` recovers (each
/// block it writes out decompressed by `bzip2 -d`, all but the damaged one); the break
/// is the block's, where `bzip2recover` finds it; `-j 2` reads what `-j 1` reads. Two
/// kinds of damage: found at the block's start, before it gives text, and found only by
/// the block's CRC at its end, after `bzip2 -d` has written the block's scrambled text
/// (none of which pocketfen reads: games made of it were never played).
#[test]
fn a_damaged_bzip2_block_loses_what_bzip2recover_loses() {
    let dir = scratch_dir("damaged-block");
    let plain = dir.join("games.pgn");
    let sample = fs::read("samples/lichess_standard_2025-05_sample438.pgn").unwrap();
    fs::write(&plain, sample.repeat(2)).unwrap();
    // Blocks of 100 kB of text: about twenty.
    let clean_bytes = tool("bzip2", &["-c", "-1", plain.to_str().unwrap()]).stdout;
    let recover = |file: &std::path::Path| -> (Vec<u64>, String) {
        let out = tool("bzip2recover", &[file.to_str().unwrap()]);
        let said = String::from_utf8_lossy(&out.stderr).into_owned();
        // `block 3 runs from 220207 to 325644`: bits, from past the block's magic.
        let starts = said
            .lines()
            .filter_map(|l| l.trim().strip_prefix("block "))
            .map(|l| l.split(' ').nth(3).unwrap().parse::<u64>().unwrap() - 48)
            .collect();
        (starts, said)
    };
    let clean = dir.join("clean.pgn.bz2");
    fs::write(&clean, &clean_bytes).unwrap();
    let (starts, said) = recover(&clean);
    assert!(starts.len() >= 10, "{said}");
    let k = 6;
    // What bzip2recover recovers of `bytes`: its blocks, in order, but the one that
    // fails, and what `bzip2 -d` wrote of that one before it failed.
    let recovered = |bytes: &[u8], name: &str| {
        let sub = dir.join(name);
        fs::create_dir(&sub).unwrap();
        let damaged = sub.join("games.pgn.bz2");
        fs::write(&damaged, bytes).unwrap();
        let (found, said) = recover(&damaged);
        assert_eq!(found, starts, "{name}: {said}");
        let (mut recovered, mut failed, mut scrambled) = (Vec::new(), Vec::new(), 0);
        for i in 1..=starts.len() {
            let rec = sub.join(format!("rec{i:05}games.pgn.bz2"));
            let out = Command::new("bzip2")
                .args(["-dc", rec.to_str().unwrap()])
                .output()
                .unwrap();
            if out.status.success() {
                recovered.extend_from_slice(&out.stdout);
            } else {
                failed.push(i - 1);
                scrambled = out.stdout.len();
            }
        }
        assert_eq!(failed, [k], "{name}");
        (damaged, recovered, scrambled)
    };
    // The seventh block's start pointer set past any block's end: its decoder fails at
    // the block's start, before it gives any of its text.
    let mut bytes = clean_bytes.clone();
    for bit in starts[k] + 80..starts[k] + 104 {
        bytes[(bit / 8) as usize] |= 0x80 >> (bit % 8);
    }
    let pointer = recovered(&bytes, "pointer");
    assert_eq!(pointer.2, 0, "found before any text");
    // A byte in the middle of its coded text: the first whose damage only the block's
    // CRC finds (`bzip2 -d` writes the block's text, then fails).
    let middle = (starts[k] + starts[k + 1]) / 16;
    let crc = (0..40)
        .map(|i| {
            let mut bytes = clean_bytes.clone();
            bytes[middle as usize + 97 * i] ^= 0x55;
            recovered(&bytes, &format!("middle{i}"))
        })
        .find(|(_, _, scrambled)| *scrambled > 0)
        .expect("damage found only by a block's CRC");

    for (damaged, recovered, scrambled) in [pointer, crc] {
        // The library's reader, read on past the break.
        let (text, breaks) = read_past_breaks(&damaged);
        assert!(
            text == recovered,
            "the text is what bzip2recover recovers ({scrambled} bytes of scrambled text left out)"
        );
        let [gap] = &breaks[..] else {
            panic!("{breaks:?}")
        };
        let (at, len) = (starts[k] / 8, starts[k + 1].div_ceil(8) - starts[k] / 8);
        assert_eq!(
            (gap.offset, gap.len, gap.stream, gap.read),
            (at, len, Some(0), 0),
            "{gap}"
        );

        // The command line, on one thread and two.
        let path = damaged.to_str().unwrap();
        let (games, summary) = on_one_thread_and_two(path);
        let b = &summary["breaks"][0];
        assert_eq!(
            (&b["compression"], &b["offset"], &b["length"], &b["stream"]),
            (&"bzip2".into(), &at.into(), &len.into(), &0.into()),
            "{summary}"
        );
        assert_eq!(summary["bytes"].as_u64(), Some(recovered.len() as u64));
        let lost = summary["lost"].as_u64().unwrap();
        assert!(lost > 0 && !games.is_empty(), "{summary}");
        let (_, stderr, code) = run_out(&["validate", path]);
        assert_eq!(code, Some(2));
        assert!(
            stderr.contains(&format!(
                "game{} lost: the bzip2 block at byte {at} ({len} bytes) of the stream at byte 0 cannot be decoded (bzip2: ",
                if lost == 1 { "" } else { "s" }
            )) && stderr.contains("its text is lost (a bzip2 block does not tell its size)"),
            "{stderr}"
        );
    }
}

/// A damaged BGZF block of a file the real `bgzip` (htslib) wrote loses only its own
/// games: the text read is every other block's, each inflated alone, and none of the
/// damaged one's; the break names the block and the text
/// its trailer says it held; `-j 1` and `-j 2` read alike, and more than `gzip -dc`,
/// which stops at the damaged block.
#[test]
fn a_damaged_bgzf_block_loses_only_its_own_games() {
    use std::io::Read;
    let dir = scratch_dir("damaged-bgzf");
    let plain = dir.join("games.pgn");
    let sample = fs::read("samples/lichess_standard_2025-05_sample438.pgn").unwrap();
    fs::write(&plain, sample.repeat(2)).unwrap();
    let mut bytes = tool("bgzip", &["-c", plain.to_str().unwrap()]).stdout;
    let mut blocks = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let len = usize::from(u16::from_le_bytes([bytes[at + 16], bytes[at + 17]])) + 1;
        blocks.push(at..at + len);
        at += len;
    }
    assert!(blocks.len() >= 10, "{} blocks", blocks.len());
    let inflate = |b: &[u8]| {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(b)
            .read_to_end(&mut out)
            .map(|_| out)
    };
    let texts: Vec<Vec<u8>> = blocks
        .iter()
        .map(|r| inflate(&bytes[r.clone()]).unwrap())
        .collect();
    assert_eq!(texts.concat(), sample.repeat(2));
    let k = 5;
    let mid = (blocks[k].start + blocks[k].end) / 2;
    for b in &mut bytes[mid..mid + 24] {
        *b ^= 0x5a;
    }
    let damaged = dir.join("games.pgn.gz");
    fs::write(&damaged, &bytes).unwrap();

    // The library's reader, read on past the break.
    let (text, breaks) = read_past_breaks(&damaged);
    let [gap] = &breaks[..] else {
        panic!("{breaks:?}")
    };
    let (at, len) = (blocks[k].start as u64, blocks[k].len() as u64);
    assert_eq!(
        (gap.offset, gap.len, gap.text),
        (
            at,
            len,
            Some(pocketfen::stream::FrameText::Trailer(texts[k].len() as u64))
        ),
        "{gap}"
    );
    // Every other block's text, and none of the damaged one's (handed out only once its
    // check passes).
    assert_eq!(gap.read, 0);
    assert!(text == [texts[..k].concat(), texts[k + 1..].concat()].concat());

    // The command line, on one thread and two.
    let path = damaged.to_str().unwrap();
    let (games, summary) = on_one_thread_and_two(path);
    let b = &summary["breaks"][0];
    let lost_text = texts[k].len();
    assert_eq!(
        (&b["compression"], &b["offset"], &b["length"], &b["text"]),
        (
            &"gzip".into(),
            &at.into(),
            &len.into(),
            &serde_json::json!({"by": "trailer", "bytes": texts[k].len()})
        ),
        "{summary}"
    );
    assert_eq!(summary["bytes"].as_u64(), Some(text.len() as u64));
    let lost = summary["lost"].as_u64().unwrap();
    assert!(lost > 0, "{summary}");
    let (_, stderr, code) = run_out(&["validate", path]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains(&format!(
            "lost (damaged frames, with {lost_text} bytes of text)"
        )) && stderr.contains(&format!(
            "the gzip member at byte {at} ({len} bytes) cannot be decoded ("
        )) && stderr.contains(&format!(
            "its text is lost ({lost_text} bytes, as its trailer says)"
        )),
        "{stderr}"
    );
    // gzip itself stops at the damaged block.
    let gzip = Command::new("gzip").args(["-dc", path]).output().unwrap();
    assert!(!gzip.status.success());
    let gzip_games = gzip.stdout.windows(8).filter(|w| w == b"[Event \"").count();
    assert!(
        gzip_games < games.len(),
        "{gzip_games} against {}",
        games.len()
    );
}

/// A run that read past a damaged frame to the archive's end writes its outputs: every
/// game read, all but those lost (the notes name them), and exits 2 saying so. A run
/// whose input ends in an error before its end leaves them as they were.
#[test]
fn outputs_keep_the_games_read_past_a_damaged_frame() {
    let ([plain, zst, damaged], _, _) = damaged_pzstd_archive("damaged-outputs");
    let dir = damaged.parent().unwrap().to_owned();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let damaged = damaged.to_str().unwrap();
    let (converted, _, code) = run_out(&["pgn", "convert", "--to", "lichess", "-q", damaged]);
    assert_eq!(code, Some(2));
    let (chosen, _, code) = run_out(&["pgn", "select", "--result", "1-0", "-q", damaged]);
    assert_eq!(code, Some(2));
    let (records, _) = json_records(&["-j", "1", damaged]);
    let (games, _) = games_and_summary(records);
    assert!(!converted.is_empty() && !chosen.is_empty() && !games.is_empty());
    // Read past the break: the last game is the undamaged file's last.
    let (whole, _, _) = run_out(&[
        "pgn",
        "convert",
        "--to",
        "lichess",
        "-q",
        plain.to_str().unwrap(),
    ]);
    let last = &whole[String::from_utf8_lossy(&whole).rfind("\n[Event ").unwrap()..];
    assert!(converted.ends_with(last) && converted.len() < whole.len());
    let said = "some input was damaged: the outputs hold every game read, all but those lost (named above)";
    for (args, out, expected) in [
        (
            vec!["pgn", "convert", "--to", "lichess", "-q", "-o"],
            path("converted.pgn"),
            &converted,
        ),
        (
            vec!["pgn", "select", "--result", "1-0", "-q", "-o"],
            path("chosen.pgn"),
            &chosen,
        ),
    ] {
        fs::write(&out, "an earlier output\n").unwrap();
        let mut args = args.clone();
        args.extend([out.as_str(), damaged]);
        let (_, stderr, code) = run_out(&args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(said), "{args:?}: {stderr}");
        assert!(
            stderr.contains("games lost, and up to ")
                && stderr.contains(" bytes of text (about ")
                && stderr.contains("): the zstd frame at byte"),
            "{stderr}"
        );
        assert_eq!(&fs::read(&out).unwrap(), expected, "{args:?}");
    }
    // The games table holds a row for every game read.
    let table = path("games.parquet");
    let (_, stderr, code) = run_out(&["export", "-q", "--games", &table, damaged]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("the tables hold every game read"),
        "{stderr}"
    );
    let (rows, _) = json_records(&["-j", "1", &table]);
    let (rows, summary) = games_and_summary(rows);
    assert_eq!(
        (rows.len(), &summary["complete"]),
        (games.len(), &true.into())
    );
    let table_bytes = fs::read(&table).unwrap();
    // Games over --max-game-bytes are said too.
    let small = path("small.pgn");
    let (_, stderr, code) = run_out(&[
        "pgn",
        "select",
        "-q",
        "--max-game-bytes",
        "1500",
        "-o",
        &small,
        damaged,
    ]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains(said) && stderr.contains("over --max-game-bytes"),
        "{stderr}"
    );

    // Cut short inside its last frame: not stepped over, the outputs are left as they
    // were, whether the cut file is alone or after the damaged one; and so they are
    // with a file that cannot be opened.
    let bytes = fs::read(&zst).unwrap();
    let cut = path("cut.pgn.zst");
    fs::write(&cut, &bytes[..bytes.len() - 100]).unwrap();
    let out = path("cut.pgn");
    let missing = path("missing.pgn");
    for inputs in [
        vec![cut.as_str()],
        vec![damaged, &cut],
        vec![damaged, &missing],
    ] {
        fs::write(&out, "an earlier output\n").unwrap();
        let mut args = vec!["pgn", "convert", "--to", "lichess", "-q", "-o", &out];
        args.extend(&inputs);
        let (_, stderr, code) = run_out(&args);
        assert_eq!(code, Some(2), "{stderr}");
        // It says the games it counted are in no output (it did say `N games written`).
        assert!(
            stderr.contains("some input could not be read completely: no output was written (one there before is as it was), so the games counted above are in none"),
            "{stderr}"
        );
        assert_eq!(
            fs::read_to_string(&out).unwrap(),
            "an earlier output\n",
            "{inputs:?}"
        );
    }
    let (_, stderr, code) = run_out(&["export", "-q", "--games", &table, damaged, &cut]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("no table was written"), "{stderr}");
    // To standard output the games read are out already: said so, not that none is.
    for command in [&["pgn", "select", "-q"][..], &["pgn", "dedupe", "-q"]] {
        let mut args = command.to_vec();
        args.push(&cut);
        let (stdout, stderr, code) = run_out(&args);
        assert_eq!(code, Some(2), "{command:?}: {stderr}");
        assert!(
            !stdout.is_empty()
                && stderr.contains("the games counted above went to standard output"),
            "{command:?}: {stderr}"
        );
    }
    assert_eq!(
        fs::read(&table).unwrap(),
        table_bytes,
        "the table is as it was"
    );
}

/// The real BPGN files of `grammar-tests/bpgn/ok`, most without a last line end, joined
/// by `cat`: each game is read as it is read from its own file (before, a game's tags
/// on its predecessor's result line made that game "illegal" and took the next game's
/// first tag), on one thread and three; `pgn select` keeps every game's tags.
#[test]
fn files_joined_by_cat_without_last_line_ends_read_as_each_alone() {
    let dir = scratch_dir("cat-joined");
    let mut files: Vec<_> = fs::read_dir("grammar-tests/bpgn/ok")
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut joined = Vec::new();
    let mut alone = Vec::new();
    let mut unended = 0;
    for f in &files {
        let bytes = fs::read(f).unwrap();
        unended += usize::from(!bytes.ends_with(b"\n"));
        joined.extend_from_slice(&bytes);
        let (records, _) = json_records(&["-j", "1", f.to_str().unwrap()]);
        alone.extend(
            records
                .into_iter()
                .filter(|r| r["type"] == "game")
                .map(|r| {
                    (
                        r["status"].clone(),
                        r["plies"].clone(),
                        r["variant"].clone(),
                    )
                }),
        );
    }
    assert!(unended >= 3, "files without a last line end: {unended}");
    let path = dir.join("joined.bpgn");
    fs::write(&path, &joined).unwrap();
    let p = path.to_str().unwrap();
    let (one, _) = json_records(&["-j", "1", p]);
    let (three, _) = json_records(&["-j", "3", p]);
    assert_eq!(one, three, "-j 3 reads what -j 1 reads");
    let together: Vec<_> = one
        .iter()
        .filter(|r| r["type"] == "game")
        .map(|r| {
            (
                r["status"].clone(),
                r["plies"].clone(),
                r["variant"].clone(),
            )
        })
        .collect();
    assert_eq!(together, alone);
    // Every game keeps its tags: as many `[Event` lines out as in.
    let out = cmd(&["pgn", "select", "-q", p]).output().unwrap();
    let events = |b: &[u8]| String::from_utf8_lossy(b).matches("[Event ").count();
    assert_eq!(events(&out.stdout), events(&joined));
}
