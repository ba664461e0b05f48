//! `pgn select`, `pgn dedupe` and `pgn split`, driven as a user drives them,
//! and checked against pgn-extract (Debian's package) where it can express the same.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod common;

use common::{pocketfen as cmd, run, text};

fn scratch_dir(name: &str) -> PathBuf {
    common::scratch_dir(&format!("archive-tools-{name}"))
}

const STANDARD: &str = "samples/lichess_standard_2025-05_sample438.pgn";
const ZH: &str = "samples/lichess_zh_2022-2025_bots75.pgn.zst";

/// The games of a PGN text, as the text of each (split at each `[Event`).
fn games_of(pgn: &str) -> Vec<String> {
    let mut games: Vec<String> = Vec::new();
    for line in pgn.split_inclusive('\n') {
        if line.starts_with("[Event ") || games.is_empty() {
            games.push(String::new());
        }
        games.last_mut().unwrap().push_str(line);
    }
    games.retain(|g| g.contains("[Event "));
    games
}

/// The `Site` tags of a PGN text, in order: which games it holds.
fn sites(pgn: &str) -> Vec<String> {
    pgn.lines()
        .filter(|l| l.starts_with("[Site "))
        .map(str::to_owned)
        .collect()
}

/// Debian's pgn-extract, when installed (CI installs it: there its absence fails).
fn pgn_extract() -> Option<&'static str> {
    let found = ["/usr/games/pgn-extract", "/usr/bin/pgn-extract"]
        .into_iter()
        .find(|p| Path::new(p).exists());
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "pgn-extract is not installed (.ci/run installs it)"
        );
        eprintln!("skipped: pgn-extract is not installed");
    }
    found
}

/// Each selection pgn-extract can express picks the same games, in the same order.
#[test]
fn selections_agree_with_pgn_extract() {
    let Some(pe) = pgn_extract() else { return };
    let dir = scratch_dir("pe");
    let sample = fs::read_to_string(STANDARD).unwrap();
    // The players of the sample's first games, for exact and either-seat matches.
    let white = sample
        .lines()
        .find_map(|l| l.strip_prefix("[White \""))
        .and_then(|l| l.strip_suffix("\"]"))
        .unwrap()
        .to_owned();
    let tag_file = |name: &str, body: &str| {
        let p = dir.join(name);
        fs::write(&p, body).unwrap();
        p.to_str().unwrap().to_owned()
    };
    let cases: Vec<(Vec<String>, Vec<String>)> = vec![
        (
            vec![format!("-t{}", tag_file("t1", "WhiteElo >= \"2000\"\n"))],
            vec!["--tag".into(), "WhiteElo>=2000".into()],
        ),
        (
            vec![format!(
                "-t{}",
                tag_file("t2", "BlackElo < \"1500\"\nResult \"0-1\"\n")
            )],
            vec![
                "--tag".into(),
                "BlackElo<1500".into(),
                "--result".into(),
                "0-1".into(),
            ],
        ),
        (
            vec![format!("-t{}", tag_file("t3", "Date >= \"2025.05.01\"\n"))],
            vec!["--tag".into(), "Date>=2025.05.01".into()],
        ),
        (
            vec![format!("-Tp{white}")],
            vec!["--player".into(), white.to_uppercase()],
        ),
        (
            vec![format!("-Tw{white}")],
            vec!["--tag".into(), format!("White={white}")],
        ),
        (
            vec!["-pl40".into(), "-pu80".into()],
            vec![
                "--min-plies".into(),
                "40".into(),
                "--max-plies".into(),
                "80".into(),
            ],
        ),
        (vec!["-M".into()], vec!["--ends-in".into(), "mate".into()]),
    ];
    for (theirs, ours) in &cases {
        let out = dir.join("pe.pgn");
        let status = Command::new(pe)
            .arg("-s")
            .args(theirs)
            .arg(format!("-o{}", out.display()))
            .arg(STANDARD)
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "{theirs:?}");
        let expected = sites(&fs::read_to_string(&out).unwrap());
        for jobs in ["1", "2"] {
            let mut args = vec!["pgn", "select", "-q", "-j", jobs];
            args.extend(ours.iter().map(String::as_str));
            args.push(STANDARD);
            let got = run(&args);
            assert_eq!(
                sites(&text(&got.stdout)),
                expected,
                "{ours:?} vs pgn-extract {theirs:?}"
            );
        }
        assert!(
            !expected.is_empty() || theirs[0].starts_with("-M"),
            "{theirs:?} picks some games"
        );
    }
    // Duplicates (-D), on the sample twice over and itself (it has some of its own).
    let twice = dir.join("twice.pgn");
    fs::write(&twice, sample.repeat(2)).unwrap();
    for input in [STANDARD, twice.to_str().unwrap()] {
        let out = dir.join("pe.pgn");
        Command::new(pe)
            .args(["-s", "-D", &format!("-o{}", out.display()), input])
            .stderr(Stdio::null())
            .status()
            .unwrap();
        let got = run(&["pgn", "dedupe", "-q", input]);
        assert_eq!(
            sites(&text(&got.stdout)),
            sites(&fs::read_to_string(&out).unwrap()),
            "{input}"
        );
    }
    // Splitting (-#100): the same games in the same files.
    let theirs = dir.join("theirs");
    let ours = dir.join("ours");
    fs::create_dir_all(&theirs).unwrap();
    let sample_path = fs::canonicalize(STANDARD).unwrap();
    Command::new(pe)
        .args(["-s", "-#100"])
        .arg(&sample_path)
        .current_dir(&theirs)
        .stderr(Stdio::null())
        .status()
        .unwrap();
    let pattern = format!("{}/{{n:1}}.pgn", ours.display());
    assert!(
        run(&[
            "pgn", "split", "-q", "--every", "100", "-o", &pattern, STANDARD
        ])
        .status
        .success()
    );
    let mut names: Vec<_> = fs::read_dir(&theirs)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert_eq!(names.len(), 5);
    for name in names {
        let a = sites(&fs::read_to_string(theirs.join(&name)).unwrap());
        let b = sites(&fs::read_to_string(ours.join(&name)).unwrap());
        assert_eq!(a, b, "{name:?}");
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// Games are written byte for byte, in input order, for any `-j`; `--rest` gets every
/// other game, so the two outputs hold every input game once; `--count` counts.
#[test]
fn select_writes_games_as_they_were() {
    let dir = scratch_dir("select");
    // An archive with broken games among good ones, comments and CRLF line ends in one.
    let mut pgn = String::new();
    let good = "[Event \"g{i}\"]\n[Result \"*\"]\n\n1. e4 {a comment} e5 ; a line comment\n2. Nf3 $1 *\n\n";
    let bad = "[Event \"b{i}\"]\n[Result \"*\"]\n\n1. e4 e5 2. Qh6 *\n\n";
    for i in 0..500 {
        let g = if i % 7 == 3 { bad } else { good };
        pgn.push_str(&g.replace("{i}", &i.to_string()));
    }
    pgn.push_str("[Event \"crlf\"]\r\n[Result \"*\"]\r\n\r\n1. d4 *\r\n\r\n");
    let input = dir.join("mixed.pgn");
    fs::write(&input, &pgn).unwrap();
    let i = input.to_str().unwrap();
    // Everything chosen: the input itself.
    let all = run(&["pgn", "select", "-q", i]);
    assert_eq!(text(&all.stdout), pgn);
    let (bad_out, good_out) = (dir.join("bad.pgn"), dir.join("good.pgn"));
    for jobs in ["1", "2"] {
        let out = run(&[
            "pgn",
            "select",
            "-j",
            jobs,
            "--invalid",
            "-o",
            bad_out.to_str().unwrap(),
            "--rest",
            good_out.to_str().unwrap(),
            i,
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("71 of 501 games selected"),
            "{}",
            text(&out.stderr)
        );
        let bad_games = games_of(&fs::read_to_string(&bad_out).unwrap());
        let good_games = games_of(&fs::read_to_string(&good_out).unwrap());
        assert_eq!(bad_games.len(), 71);
        assert!(bad_games.iter().all(|g| g.contains("Qh6")));
        let mut both: Vec<String> = bad_games.into_iter().chain(good_games).collect();
        let mut input_games = games_of(&pgn);
        both.sort();
        input_games.sort();
        assert_eq!(both, input_games, "every game once");
    }
    let counted = run(&["pgn", "select", "-q", "--valid", "--count", i]);
    assert_eq!(text(&counted.stdout), "430\n");
    // None chosen: exit 1, as grep.
    let none = run(&["pgn", "select", "-q", "--player", "nobody", i]);
    assert_eq!(none.status.code(), Some(1));
    assert!(none.stdout.is_empty());
    // Compressed input, the variant as a criterion, under its aliases.
    for alias in ["zh", "Crazyhouse"] {
        let out = run(&["pgn", "select", "-q", "--count", "--variant", alias, ZH]);
        assert_eq!(text(&out.stdout), "75\n", "{alias}");
    }
    let out = run(&["pgn", "select", "-q", "--count", "--variant", "chess", ZH]);
    assert_eq!(text(&out.stdout), "0\n");
    fs::remove_dir_all(&dir).unwrap();
}

/// Criteria that need the moves: the position reached, the ending (a drop-mate), a
/// bughouse player in any of the four seats.
#[test]
fn select_by_position_ending_and_seat() {
    let zh = "[Event \"dm\"]\n[Variant \"Crazyhouse\"]\n[Result \"1-0\"]\n\
              [FEN \"6k1/5ppp/8/8/8/8/8/4K3/R w - - 0 1\"]\n[SetUp \"1\"]\n\n1. R@a8# 1-0\n\n\
              [Event \"m\"]\n[Variant \"Crazyhouse\"]\n[Result \"1-0\"]\n\
              [FEN \"6k1/5ppp/8/8/8/8/8/R3K3/N w Q - 0 1\"]\n[SetUp \"1\"]\n\n1. Ra8# 1-0\n\n";
    let dir = scratch_dir("position");
    let p = dir.join("zh.pgn");
    fs::write(&p, zh).unwrap();
    let p = p.to_str().unwrap();
    let events = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["pgn", "select", "-q"];
        all.extend(args);
        all.push(p);
        text(&run(&all).stdout)
            .lines()
            .filter(|l| l.starts_with("[Event "))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(events(&["--ends-in", "drop-mate"]), ["[Event \"dm\"]"]);
    assert_eq!(events(&["--ends-in", "mate"]).len(), 2);
    assert_eq!(events(&["--ends-in", "stalemate"]).len(), 0);
    // The position after the drop, in another dialect; with a pocket it is not reached
    // by the other game (its pocket differs), but its board is.
    let after = "R5k1/5ppp/8/8/8/8/8/4K3[] b - - 1 1";
    assert_eq!(events(&["--position", after]), ["[Event \"dm\"]"]);
    assert_eq!(events(&["--position", after, "--board-only"]).len(), 2);
    let url = "https://lichess.org/analysis/crazyhouse/R5k1/5ppp/8/8/8/8/8/4K3/_b_-_-_1_1";
    assert_eq!(events(&["--position", url]), ["[Event \"dm\"]"]);
    // Bughouse: the fourth seat counts.
    let bpgn = fs::read_dir("grammar-tests/bpgn/ok")
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| fs::read_to_string(p).unwrap().contains("[BlackB \""))
        .expect("a BPGN with a BlackB tag");
    let body = fs::read_to_string(&bpgn).unwrap();
    let at = body.find("[BlackB \"").unwrap() + "[BlackB \"".len();
    let black_b = &body[at..at + body[at..].find('"').unwrap()];
    let out = run(&[
        "pgn",
        "select",
        "-q",
        "--count",
        "--player",
        black_b,
        bpgn.to_str().unwrap(),
    ]);
    assert_ne!(text(&out.stdout), "0\n", "{black_b} in {}", bpgn.display());
    fs::remove_dir_all(&dir).unwrap();
}

/// Bad criteria are usage errors that name the argument, before any input is read (the
/// run does not wait for stdin, which is never closed here).
#[test]
fn bad_criteria_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&["pgn", "select", "--tag", "Elo>>2"], "--tag"),
        (&["pgn", "select", "--tag", "Date<2020.??.01"], "--tag"),
        (&["pgn", "select", "--tag", "White~(unclosed"], "--tag"),
        (&["pgn", "select", "--variant", "atomic"], "--variant"),
        (&["pgn", "select", "--position", "not a fen"], "--position"),
        (&["pgn", "select", "--ends-in", "resign"], "--ends-in"),
        (&["pgn", "select", "--result", "2-0"], "--result"),
        (&["pgn", "select", "--valid", "--invalid"], "--invalid"),
        (&["pgn", "dedupe", "--by", "tags"], "--by"),
        (&["pgn", "split", "--every", "10", "-o", "part.pgn"], "{n}"),
        (
            &["pgn", "split", "--by-tag", "Event", "-o", "part-{n}.pgn"],
            "{value}",
        ),
        (
            &["pgn", "split", "--every", "0", "-o", "p-{n}.pgn"],
            "--every",
        ),
        (&["pgn", "split", "-o", "p-{n}.pgn"], "--every"),
    ];
    for (args, names) in cases {
        let mut child = cmd(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let out = child.wait_with_output().unwrap();
        drop(stdin);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(names), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
}

/// Duplicates are reported where they are and where the game they repeat is; the first
/// is kept; `--duplicates` gets the others; the roster can count too.
#[test]
fn dedupe_reports_and_keeps_the_first() {
    let dir = scratch_dir("dedupe");
    let a = "[Event \"a\"]\n[Site \"x\"]\n[Result \"*\"]\n\n1. e4 {one} e5 2. Nf3 *\n\n";
    let b = "[Event \"b\"]\n[Site \"y\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ngf3 (2. Nc3) *\n\n";
    let c = "[Event \"c\"]\n[Site \"z\"]\n[Result \"*\"]\n\n1. d4 *\n\n";
    let first = dir.join("one.pgn");
    let second = dir.join("two.pgn.gz");
    fs::write(&first, format!("{a}{c}")).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(format!("{b}{a}").as_bytes()).unwrap();
    fs::write(&second, gz.finish().unwrap()).unwrap();
    let dups = dir.join("dups.pgn");
    let (f, s) = (first.to_str().unwrap(), second.to_str().unwrap());
    // Quiet by default: the summary counts the duplicates, `-v` names each.
    let quiet = run(&["pgn", "dedupe", f, s]);
    assert_eq!(text(&quiet.stdout), format!("{a}{c}"));
    let err = text(&quiet.stderr);
    assert!(!err.contains("duplicates game"), "{err}");
    assert!(
        err.contains("total: 2 files, 4 games, 2 kept, 2 duplicates"),
        "{err}"
    );
    let out = run(&[
        "pgn",
        "dedupe",
        "-v",
        "--duplicates",
        dups.to_str().unwrap(),
        f,
        s,
    ]);
    assert_eq!(text(&out.stdout), format!("{a}{c}"));
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!("{s}:1: game 1 duplicates game 1 ({f}:1)")),
        "{err}"
    );
    assert!(
        err.contains(&format!("{s}:7: game 2 duplicates game 1 ({f}:1)")),
        "{err}"
    );
    assert!(
        err.contains("total: 2 files, 4 games, 2 kept, 2 duplicates"),
        "{err}"
    );
    assert_eq!(fs::read_to_string(&dups).unwrap(), format!("{b}{a}"));
    // With the roster, `b` differs from `a` (its Event and Site), the second `a` does not.
    let out = run(&["pgn", "dedupe", "-q", "--by", "moves-and-tags", f, s]);
    assert_eq!(text(&out.stdout), format!("{a}{c}{b}"));
    // The same for any -j, split alike.
    let big = dir.join("big.pgn");
    fs::write(&big, fs::read_to_string(STANDARD).unwrap().repeat(3)).unwrap();
    let b = big.to_str().unwrap();
    let one = run(&["pgn", "dedupe", "-q", "-j", "1", b]);
    let two = run(&["pgn", "dedupe", "-q", "-j", "2", b]);
    assert!(
        one.stdout == two.stdout && !one.stdout.is_empty(),
        "dedupe differs by -j"
    );
    for jobs in ["1", "2"] {
        let pattern = format!("{}/j{jobs}-{{n}}.pgn", dir.display());
        run(&[
            "pgn", "split", "-q", "-j", jobs, "--every", "500", "-o", &pattern, b,
        ]);
    }
    for n in ["000001", "000002", "000003"] {
        let a = fs::read(dir.join(format!("j1-{n}.pgn"))).unwrap();
        assert_eq!(
            a,
            fs::read(dir.join(format!("j2-{n}.pgn"))).unwrap(),
            "part {n}"
        );
    }
    // The output never replaces an input.
    let out = run(&["pgn", "dedupe", "-o", f, f]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(fs::read_to_string(&first).unwrap(), format!("{a}{c}"));
    fs::remove_dir_all(&dir).unwrap();
}

/// Files of N games, numbered at a fixed width; one file per tag value, named safely.
#[test]
fn split_by_count_and_by_tag() {
    let dir = scratch_dir("split");
    let pattern = format!("{}/part-{{n}}.pgn", dir.display());
    let out = run(&["pgn", "split", "--every", "200", "-o", &pattern, STANDARD]);
    assert!(out.status.success());
    assert!(
        text(&out.stderr).contains("wrote 3 files (438 games)"),
        "{}",
        text(&out.stderr)
    );
    let mut names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["part-000001.pgn", "part-000002.pgn", "part-000003.pgn"]
    );
    let counts: Vec<usize> = names
        .iter()
        .map(|n| games_of(&fs::read_to_string(dir.join(n)).unwrap()).len())
        .collect();
    assert_eq!(counts, [200, 200, 38]);
    let joined: String = names
        .iter()
        .map(|n| fs::read_to_string(dir.join(n)).unwrap())
        .collect();
    assert_eq!(
        sites(&joined),
        sites(&fs::read_to_string(STANDARD).unwrap())
    );

    let by = scratch_dir("by-tag");
    let tricky = "[Event \"a/b: c?\"]\n[Result \"*\"]\n\n1. e4 *\n\n[Event \"..\"]\n[Result \"*\"]\n\n1. d4 *\n\n\
                  [Result \"*\"]\n\n1. c4 *\n\n[Event \"a/b: c?\"]\n[Result \"*\"]\n\n1. Nf3 *\n\n";
    let input = by.join("in.pgn");
    fs::write(&input, tricky).unwrap();
    let pattern = format!("{}/e-{{value}}.pgn", by.display());
    let out = run(&[
        "pgn",
        "split",
        "-q",
        "--by-tag",
        "Event",
        "-o",
        &pattern,
        input.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut names: Vec<String> = fs::read_dir(&by)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("e-"))
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["e-%2E%2E.pgn", "e-%none.pgn", "e-a%2Fb%3A%20c%3F.pgn"]
    );
    let ab = by.join("e-a%2Fb%3A%20c%3F.pgn");
    assert_eq!(games_of(&fs::read_to_string(ab).unwrap()).len(), 2);
    // Values that a lossy name would merge get files of their own.
    let values = ["a b", "a_b", "", "?", "none", "%none"];
    let mut distinct = String::new();
    for v in values {
        distinct.push_str(&format!("[Event \"{v}\"]\n[Result \"*\"]\n\n1. e4 *\n\n"));
    }
    distinct.push_str("[Result \"*\"]\n\n1. d4 *\n\n");
    let input2 = by.join("distinct.pgn");
    fs::write(&input2, distinct).unwrap();
    let sub = by.join("d");
    let pattern = format!("{}/{{value}}.pgn", sub.display());
    let i2 = input2.to_str().unwrap();
    assert!(
        run(&[
            "pgn", "split", "-q", "--by-tag", "Event", "-o", &pattern, i2
        ])
        .status
        .success()
    );
    assert_eq!(fs::read_dir(&sub).unwrap().count(), values.len() + 1);
    let explicit = format!("{}/w-{{n:2}}.pgn", by.display());
    run(&[
        "pgn",
        "split",
        "-q",
        "--every",
        "1",
        "-o",
        &explicit,
        input.to_str().unwrap(),
    ]);
    assert!(by.join("w-04.pgn").exists() && !by.join("w-05.pgn").exists());
    fs::remove_dir_all(&dir).unwrap();
    fs::remove_dir_all(&by).unwrap();
}

/// `--strip`, `--tags`, `-w` and `--ply-limit` on `pgn convert` and `pgn select --to`:
/// what is asked goes, the rest stays, and the games still validate.
#[test]
fn strip_and_layout() {
    let dir = scratch_dir("strip");
    let input = dir.join("in.pgn");
    let game = "[Event \"e\"]\n[Site \"s\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"w\"]\n[Black \"b\"]\n\
                [Result \"1-0\"]\n[WhiteElo \"2000\"]\n[Annotator \"x\"]\n[Variant \"Crazyhouse\"]\n\n\
                1. e4 { [%clk 0:03:00] good [%eval 0.3] } 1... e5 $1 { [%emt 0:00:02] } (1... c5 { sharp } 2. Nf3) \
                2. Nf3 ; a line comment\n2... Nc6 { [%clkc 3:00:00] [%cal Ge2e4,Rd7d5] [%csl Rd4] [%evalx 1] } 3. Bb5 { } a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 1-0\n\n";
    fs::write(&input, game.repeat(3)).unwrap();
    let i = input.to_str().unwrap();
    let convert = |extra: &[&str]| -> String {
        let mut args = vec!["pgn", "convert", "-q", "--to", "lichess"];
        args.extend(extra);
        args.push(i);
        let out = run(&args);
        assert!(out.status.success(), "{extra:?}: {}", text(&out.stderr));
        text(&out.stdout)
    };
    let movetext = |pgn: &str| -> String {
        pgn.lines()
            .filter(|l| !l.starts_with('[') && !l.is_empty())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let full = convert(&[]);
    let flat = full.replace('\n', " ");
    assert!(flat.contains("[%clk 0:03:00]") && flat.contains("$1") && flat.contains("(1... c5"));
    let clocks = convert(&["--strip", "clocks"]).replace('\n', " ");
    assert!(
        !clocks.contains("%clk") && !clocks.contains("%emt"),
        "{clocks}"
    );
    assert!(clocks.contains("{ good [%eval 0.3] }"), "{clocks}");
    assert!(
        clocks.contains("{ [%cal Ge2e4,Rd7d5] [%csl Rd4] [%evalx 1] }"),
        "{clocks}"
    );
    let evals = convert(&["--strip", "evals,arrows"]).replace('\n', " ");
    assert!(
        evals.contains("{ [%clk 0:03:00] good }")
            && evals.contains("{ [%clkc 3:00:00] [%evalx 1] }"),
        "{evals}"
    );
    assert!(!evals.contains("%eval ") && !evals.contains("%cal") && !evals.contains("%csl"));
    let all = convert(&["--strip", "clocks,evals,arrows"]).replace('\n', " ");
    assert!(
        all.contains("{ good }") && all.contains("{ [%evalx 1] }"),
        "{all}"
    );
    assert!(!all.contains("%emt") && !all.contains("%clk"), "{all}");
    assert!(clocks.contains("{ sharp }") && clocks.contains("{ a line comment }"));
    // A comment without the commands left out is kept as it is, an empty one too.
    assert!(flat.contains("3. Bb5 {} 3... a6"), "{flat}");
    assert!(clocks.contains("3. Bb5 {} 3... a6"), "{clocks}");
    assert!(all.contains("3. Bb5 {} 3... a6"), "{all}");
    let bare = convert(&["--strip", "comments,nags,variations"]);
    let moves = movetext(&bare);
    assert!(
        !moves.contains('{') && !moves.contains('$') && !moves.contains('('),
        "{moves}"
    );
    assert!(moves.contains("1. e4 e5 2. Nf3 Nc6 3. Bb5"), "{moves}");
    let roster = convert(&["--tags", "roster"]);
    assert!(!roster.contains("WhiteElo") && !roster.contains("Annotator"));
    assert!(roster.contains("[Variant \"Crazyhouse\"]") && roster.contains("[Round \"1\"]"));
    let some = convert(&["--tags", "WhiteElo"]);
    assert!(some.contains("[WhiteElo \"2000\"]") && !some.contains("Annotator"));
    let one_line = convert(&["-w", "0"]);
    assert_eq!(
        movetext(&one_line).lines().count(),
        3,
        "one movetext line per game"
    );
    let narrow = convert(&["-w", "40", "--strip", "comments"]);
    assert!(movetext(&narrow).lines().all(|l| l.len() <= 40), "{narrow}");
    let short = convert(&["--ply-limit", "5"]);
    let plies = run_in_out(&["replay", "-q", "--emit", "uci", "-"], short.as_bytes());
    assert_eq!(
        plies.lines().filter(|l| !l.starts_with('#')).count(),
        15,
        "{plies}"
    );
    // Every output still validates.
    for pgn in [&full, &bare, &roster, &one_line, &narrow, &short] {
        let out = cmd(&["validate", "-q", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                c.stdin.take().unwrap().write_all(pgn.as_bytes())?;
                c.wait_with_output()
            })
            .unwrap();
        assert!(out.status.success(), "{}\n{pgn}", text(&out.stdout));
    }
    // `pgn select --to` rewrites what it chooses; the layout flags need it.
    let out = run(&[
        "pgn", "select", "-q", "--to", "xboard", "--strip", "comments", "--count", i,
    ]);
    assert_eq!(text(&out.stdout), "3\n");
    let out = run(&[
        "pgn", "select", "-q", "--to", "xboard", "--strip", "comments", "--tags", "roster", i,
    ]);
    assert!(
        !text(&out.stdout).contains('{') && text(&out.stdout).contains("[Variant \"crazyhouse\"]")
    );
    let out = run(&["pgn", "select", "--strip", "comments", i]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--to"));
    fs::remove_dir_all(&dir).unwrap();
}

fn run_in_out(args: &[&str], stdin: &[u8]) -> String {
    let mut child = cmd(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    text(&child.wait_with_output().unwrap().stdout)
}

/// A game over `--max-game-bytes` is in no output and says so (its
/// bytes were never read); two outputs that are one file are refused; the roster of a
/// bughouse match keeps its four players; `--strip clocks` takes only `%clk` and `%emt`;
/// FICS dates compare; a pattern with the other command's placeholder is refused.
#[test]
fn review_fixes() {
    let dir = scratch_dir("review");
    let moves = "1. Nf3 Nf6 2. Ng1 Ng8 ".repeat(200);
    let big = format!("[Event \"big\"]\n[Result \"*\"]\n\n{moves}*\n\n");
    let small = "[Event \"small\"]\n[Result \"*\"]\n\n1. e4 *\n\n";
    let input = dir.join("in.pgn");
    fs::write(&input, format!("{small}{big}{small}")).unwrap();
    let i = input.to_str().unwrap();
    let (a, b) = (dir.join("a.pgn"), dir.join("b.pgn"));
    let (sa, sb) = (a.to_str().unwrap(), b.to_str().unwrap());
    let out = run(&[
        "pgn",
        "select",
        "--max-game-bytes",
        "1K",
        "--tag",
        "Event=small",
        "-o",
        sa,
        "--rest",
        sb,
        i,
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains(":6:1: game 2: error: game-too-large") && err.contains("in no output"),
        "{err}"
    );
    let out = run(&["pgn", "dedupe", "-v", "--max-game-bytes", "1K", i]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        !text(&out.stderr).contains("duplicates game 2"),
        "{}",
        text(&out.stderr)
    );
    // One file named twice.
    for args in [
        ["pgn", "select", "-o", sa, "--rest", sa, i],
        ["pgn", "dedupe", "-o", sb, "--duplicates", sb, i],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains("are one file"));
    }
    // The four seats stay with --tags roster.
    let bpgn = "grammar-tests/bpgn/ok/bughousedb_1934301.bpgn";
    let out = run(&[
        "pgn", "select", "-q", "--to", "lichess", "--tags", "roster", bpgn,
    ]);
    let t = text(&out.stdout);
    for seat in ["[WhiteA ", "[BlackA ", "[WhiteB ", "[BlackB "] {
        assert!(t.contains(seat), "{seat}");
    }
    // Only the clock commands go.
    let clocks = dir.join("clocks.pgn");
    let game =
        "[Event \"c\"]\n[Result \"*\"]\n\n1. e4 { [%clkx 1] [%clk 0:01:00] [%emtx 5] keep } *\n\n";
    fs::write(&clocks, game).unwrap();
    let c = clocks.to_str().unwrap();
    let out = run(&[
        "pgn", "convert", "-q", "--to", "lichess", "--strip", "clocks", c,
    ]);
    assert!(
        text(&out.stdout).contains("{ [%clkx 1] [%emtx 5] keep }"),
        "{}",
        text(&out.stdout)
    );
    // FICS and bughouse-db write dates with hyphens.
    let dir_ok = "grammar-tests/bpgn/ok";
    let out = run(&[
        "pgn",
        "select",
        "-q",
        "--count",
        "--tag",
        "Date>=2000-01-01",
        dir_ok,
    ]);
    let dated: usize = fs::read_dir(dir_ok)
        .unwrap()
        .map(|e| fs::read_to_string(e.unwrap().path()).unwrap_or_default())
        .map(|t| t.matches("[Date \"2").count())
        .sum();
    assert!(dated > 1, "the BPGN samples have dates");
    assert_eq!(text(&out.stdout).trim().parse::<usize>().unwrap(), dated);
    // The other command's placeholder.
    for args in [
        ["pgn", "split", "--every", "3", "-o", "x-{value}-{n}.pgn", i],
        [
            "pgn",
            "split",
            "--by-tag",
            "Event",
            "-o",
            "x-{value}-{n}.pgn",
            i,
        ],
    ] {
        assert_eq!(run(&args).status.code(), Some(2), "{args:?}");
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// `pgn split --by-tag` compresses each file by its extension, as `--every` does, through
/// temporary files, and values that differ in letter case or Unicode form
/// only never share a file: no two names are alike once case is folded, and
/// every name is ASCII (macOS normalises Unicode names). Over 128 values, files are
/// closed and reopened: their compressed streams concatenate.
#[test]
fn split_by_tag_compresses_by_extension_and_never_shares_a_file() {
    let dir = scratch_dir("by-tag-packed");
    let values = ["crazyhouse", "Crazyhouse", "\u{c5}", "\u{212b}", "CON"];
    let mut pgn = String::new();
    // Three rounds of each value, between 200 others: every file is closed and reopened.
    for round in 0..3 {
        for v in values {
            pgn.push_str(&format!(
                "[Event \"{v}\"]\n[Round \"{round}\"]\n[Result \"*\"]\n\n1. e4 *\n\n"
            ));
        }
        for i in 0..200 {
            pgn.push_str(&format!(
                "[Event \"other {i}\"]\n[Result \"*\"]\n\n1. d4 *\n\n"
            ));
        }
    }
    let input = dir.join("in.pgn");
    fs::write(&input, &pgn).unwrap();
    for ext in ["pgn.gz", "pgn.zst", "pgn.bz2", "pgn"] {
        let out_dir = dir.join(ext.replace('.', "-"));
        let pattern = format!("{}/by-{{value}}.{ext}", out_dir.display());
        let out = run(&[
            "pgn",
            "split",
            "--by-tag",
            "Event",
            "-o",
            &pattern,
            input.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{ext}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("wrote 205 files (615 games)"),
            "{ext}: {}",
            text(&out.stderr)
        );
        let names: Vec<String> = fs::read_dir(&out_dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 205, "{ext}: no temporary file is left");
        let mut folded: Vec<String> = names.iter().map(|n| n.to_ascii_lowercase()).collect();
        folded.sort();
        folded.dedup();
        assert_eq!(folded.len(), names.len(), "{ext}: names alike but for case");
        assert!(names.iter().all(|n| n.is_ascii()), "{ext}: {names:?}");
        // Each value's file holds its three games, in order, read back through the
        // decoder its extension names (and pocketfen's own reader agrees).
        for (v, name) in values.iter().zip([
            "crazyhouse",
            "Crazyhouse%~2",
            "%C3%85",
            "%E2%84%AB",
            "%43ON",
        ]) {
            let path = out_dir.join(format!("by-{name}.{ext}"));
            let bytes = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let (tool, flags) = match ext {
                "pgn.gz" => ("gzip", "-dc"),
                "pgn.zst" => ("zstd", "-dcq"),
                "pgn.bz2" => ("bzip2", "-dc"),
                _ => {
                    assert_eq!(games_of(&text(&bytes)).len(), 3);
                    continue;
                }
            };
            let plain = Command::new(tool)
                .arg(flags)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .and_then(|mut c| {
                    c.stdin.take().unwrap().write_all(&bytes)?;
                    c.wait_with_output()
                })
                .unwrap();
            assert!(plain.status.success(), "{ext}: {v}: not {ext}");
            let games = games_of(&text(&plain.stdout));
            assert_eq!(games.len(), 3, "{ext}: {v}");
            for (round, g) in games.iter().enumerate() {
                assert!(
                    g.contains(&format!("[Event \"{v}\"]\n[Round \"{round}\"]")),
                    "{ext}: {v}: {g}"
                );
            }
            let ours = run(&["validate", "--json", "-q", path.to_str().unwrap()]);
            assert!(text(&ours.stdout).contains("\"games\":3"), "{ext}: {v}");
        }
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// `pgn select` criteria that can never match are not silent: a value that
/// starts like an operator (`WhiteElo=>2400`, the exact value `>2400`) is warned of at
/// once, a criterion on a tag no game has is warned of after the run with the nearest
/// name the input has; `--position` of a Lichess crazyhouse URL takes its variant.
#[test]
fn select_warns_of_criteria_that_cannot_match() {
    let count = |args: &[&str]| {
        let mut all = vec!["pgn", "select", "--count"];
        all.extend_from_slice(args);
        let out = run(&all);
        (text(&out.stdout).trim().to_owned(), text(&out.stderr))
    };
    let (n, err) = count(&["--tag", "WhiteElo=>2400", STANDARD]);
    assert_eq!(n, "0");
    assert!(
        err.contains(
            "`WhiteElo=>2400` asks for the exact value `>2400`; did you mean `WhiteElo>=2400`"
        ),
        "{err}"
    );
    let (n, err) = count(&["--tag", "whiteelo>=2400", STANDARD]);
    assert_eq!(n, "0");
    assert!(
        err.contains("--tag whiteelo: no game of the input has a [whiteelo] tag")
            && err.contains("did you mean [WhiteElo]?"),
        "{err}"
    );
    let (n, err) = count(&["--tag", "WhiteElo>=2400", STANDARD]);
    assert_ne!(n, "0");
    assert!(!err.contains("warning"), "{err}");
    let (_, err) = count(&["--tag", "Foo=1", STANDARD]);
    assert!(
        err.contains("no game of the input has a [Foo] tag") && !err.contains("did you mean"),
        "{err}"
    );
    // The crazyhouse URL's position after 1. e4 is no standard game's.
    let url = "https://lichess.org/analysis/crazyhouse/rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR/_b_KQkq_-_0_1";
    let zh = "samples/lichess_zh_2018_JannLee-CrazyAra.pgn";
    let (n, _) = count(&["--position", url, STANDARD, zh]);
    let (only_zh, _) = count(&["--position", url, zh]);
    let (standard, _) = count(&["--position", url, "--variant", "chess", STANDARD]);
    assert_eq!(n, only_zh);
    assert_ne!(
        standard, "0",
        "with --variant chess the standard games reach it"
    );
}

/// A game whose `[Variant]` is Chess960's writes UCI castling as the king taking its
/// rook, also from the 18 start positions with the king on e1 and the rooks on a1 and
/// h1 (the standard one among them), which the position alone cannot tell from chess's
/// (python-chess and Fairy-Stockfish write `e1h1` there; pocketfen wrote `e1g1`). The same
/// board tagged as chess keeps `e1g1`.
#[test]
fn chess960_games_castle_in_uci_as_the_king_taking_its_rook() {
    let game = |variant: &str, fen: &str, moves: &str| {
        format!(
            "[Variant \"{variant}\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n[Result \"*\"]\n\n{moves} *\n\n"
        )
    };
    let sp = "rbbqknnr/pppppppp/8/8/8/8/PPPPPPPP/RBBQKNNR w KQkq - 0 1";
    let zh = "rbbqknnr/pppppppp/8/8/8/8/PPPPPPPP/RBBQKNNR/ w KQkq - 0 1";
    let one = "1. Ne3 Ne6 2. Nf3 Nf6 3. O-O O-O";
    let two = "1A. Ne3 1a. Ne6 2A. Nf3 2a. Nf6 3A. O-O 3a. O-O";
    let pgn = [
        game("Chess960", sp, one),
        game("Crazyhouse960", zh, one),
        game("Bughouse960", &format!("{zh} | {zh}"), two),
        game("Standard", sp, one),
        "[Variant \"Chess960\"]\n[Result \"*\"]\n\n1. Nf3 Nf6 2. g3 g6 3. Bg2 Bg7 4. O-O O-O *\n\n"
            .to_owned(),
    ]
    .concat();
    let out = run_in_out(&["replay", "-q", "--emit", "uci", "-"], pgn.as_bytes());
    let castles: Vec<Vec<&str>> = out
        .split('#')
        .skip(1)
        .map(|game| {
            game.lines()
                .skip(1)
                // (A bughouse move's line starts with its board.)
                .map(|l| l.strip_prefix("A ").unwrap_or(l))
                .filter(|l| l.starts_with('e'))
                .collect()
        })
        .collect();
    assert_eq!(
        castles,
        [
            vec!["e1h1", "e8h8"],
            vec!["e1h1", "e8h8"],
            vec!["e1h1", "e8h8"],
            vec!["e1g1", "e8g8"],
            vec!["e1h1", "e8h8"],
        ],
        "{out}"
    );
}
