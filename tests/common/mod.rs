//! Helpers shared by the integration tests (each test binary uses some of them).
#![allow(dead_code)]

/// The insta settings of every snapshot test: snapshots in the top-level `snapshots/`
/// folder, named without the test module's prefix.
pub fn snapshot_settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("../snapshots");
    s.set_prepend_module_to_snapshot(false);
    s
}

mod rng;
#[allow(unused_imports)] // some test crates draw no random games
pub use rng::Rng;

/// What a print of `setup` in `dialect` must parse back as, stated here rather than taken
/// from the library (`fen::read_back`), so that a wrong library rule fails the tests: the
/// setup itself, but a full-move number of 0 comes back as 1, a promoted piece without a
/// pocket comes back with empty pockets (only pocket variants promote pieces that way),
/// and Chess.com's dialect, which writes no pocket field for empty pockets and no
/// promoted piece, loses the (empty) pockets then.
pub fn expected_read_back(
    setup: &pocketfen::Setup,
    dialect: pocketfen::notation::fen::FenDialect,
) -> pocketfen::Setup {
    let mut expected = setup.clone();
    if expected.fullmoves == 0 {
        expected.fullmoves = 1;
    }
    if expected.promoted != pocketfen::Bitboard::EMPTY && expected.pockets.is_none() {
        expected.pockets = Some(pocketfen::ByColor::default());
    }
    let empty_pockets = expected
        .pockets
        .as_ref()
        .is_some_and(|p| p.white.count() == 0 && p.black.count() == 0);
    if dialect == pocketfen::notation::fen::FenDialect::Chesscom
        && empty_pockets
        && expected.promoted == pocketfen::Bitboard::EMPTY
    {
        expected.pockets = None;
    }
    expected
}

/// The binary under test, with `args`.
pub fn pocketfen(args: &[&str]) -> std::process::Command {
    let mut c = std::process::Command::new(insta_cmd::get_cargo_bin("pocketfen"));
    c.args(args);
    c
}

/// Runs the binary with `args` and waits for it.
pub fn run(args: &[&str]) -> std::process::Output {
    pocketfen(args).output().unwrap()
}

/// Runs the binary with `args`, `input` on its stdin: stdout, stderr, exit code.
pub fn piped(args: &[&str], input: &str) -> (String, String, Option<i32>) {
    use std::io::Write as _;
    let mut child = pocketfen(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code(),
    )
}

/// Bytes of output as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

// Helpers of the archive tests (tests/game.rs, stream.rs, run.rs).

use std::process::Command;

pub fn cmd(args: &[&str]) -> Command {
    let mut c = Command::new(insta_cmd::get_cargo_bin("pocketfen"));
    c.args(args);
    c.env("NO_COLOR", "1");
    c
}

/// A compressed file whole, with junk after its frames, and cut short.
pub fn damaged_cases(name: &str, bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    vec![
        (format!("whole.{name}"), bytes.to_vec()),
        (
            format!("junk.{name}"),
            [bytes, b"\0\0\0junk after the frames"].concat(),
        ),
        (format!("cut.{name}"), bytes[..bytes.len() * 2 / 3].to_vec()),
    ]
}

/// The plain file compressed by the real pbzip2 (streams of 100 kB) and pzstd, and as
/// BGZF by `pgn convert`: each whole, with junk after its frames, and cut short.
pub fn framed_cases(dir: &std::path::Path, plain: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let p = plain.to_str().unwrap();
    let bz2 = tool("pbzip2", &["-c", "-1", "-b1", "-p2", p]).stdout;
    assert!(
        memchr::memmem::find_iter(&bz2, b"BZh1").count() >= 10,
        "pbzip2 wrote few streams"
    );
    let zst = tool("pzstd", &["-q", "-c", "-1", "-p", "2", p]).stdout;
    let bgzf_path = dir.join("games-bgzf.pgn.gz");
    let out = cmd(&[
        "pgn",
        "convert",
        "-q",
        "--to",
        "lichess",
        "-o",
        bgzf_path.to_str().unwrap(),
        p,
    ])
    .output()
    .unwrap();
    assert!(out.status.success(), "{out:?}");
    let bgzf = std::fs::read(&bgzf_path).unwrap();
    [("bz2", bz2), ("zst", zst), ("bgzf.gz", bgzf)]
        .iter()
        .flat_map(|(name, bytes)| damaged_cases(name, bytes))
        .collect()
}

/// Some megabytes of standard and crazyhouse games, different from one copy to the next
/// (an Event tag numbers them), so that every compressor makes many frames of them.
pub fn games_text(copies: usize) -> Vec<u8> {
    let parts = [
        std::fs::read("samples/lichess_standard_2025-05_sample438.pgn").unwrap(),
        std::fs::read("samples/cutechess_zh_2019_CrazyAra-vs-Stockfish.pgn").unwrap(),
    ];
    let mut text = Vec::new();
    for i in 0..copies {
        for p in &parts {
            text.extend_from_slice(format!("[Event \"copy {i}\"]\n").as_bytes());
            text.extend_from_slice(p);
            text.extend_from_slice(b"\n\n");
        }
    }
    text
}

/// How many zstd frames a pzstd file holds, each announced by a skippable frame that
/// carries its compressed size (pzstd's layout; `None` for any other layout).
pub fn pzstd_frames(bytes: &[u8]) -> Option<usize> {
    let u32_at = |i: usize| Some(u32::from_le_bytes(bytes.get(i..i + 4)?.try_into().ok()?));
    let (mut at, mut frames) = (0, 0);
    while at < bytes.len() {
        if !(0x184D_2A50..=0x184D_2A5F).contains(&u32_at(at)?) || u32_at(at + 4)? != 4 {
            return None;
        }
        let size = u32_at(at + 8)? as usize;
        if u32_at(at + 12)? != 0xFD2F_B528 {
            return None;
        }
        at += 12 + size;
        frames += 1;
    }
    (at == bytes.len()).then_some(frames)
}

/// Runs pocketfen with `args`, returning stdout, stderr and the exit code.
pub fn run_out(args: &[&str]) -> (Vec<u8>, String, Option<i32>) {
    let out = cmd(args).output().unwrap();
    (
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

/// A temporary folder of this test process, made empty (an earlier process of the same
/// id may have left one: a FIFO there would make `mkfifo` fail) and kept after the test.
///
/// Each name is handed out once per process, and a second ask panics: the tests of a
/// binary run side by side, and a test that empties a folder another one is using makes
/// that one fail now and then (a file gone between two reads of it).
pub fn scratch_dir(name: &str) -> std::path::PathBuf {
    static TAKEN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    {
        let mut taken = TAKEN.lock().unwrap_or_else(|e| e.into_inner());
        assert!(
            !taken.iter().any(|t| t == name),
            "two tests ask for the scratch folder `{name}`: give each its own name"
        );
        taken.push(name.to_owned());
    }
    let dir = std::env::temp_dir().join(format!("pocketfen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A real compression tool of Debian's (`.ci/run` installs them), run on `args`.
pub fn tool(name: &str, args: &[&str]) -> std::process::Output {
    let out = Command::new(name)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{name} is needed for this test (`.ci/run` installs it): {e}"));
    assert!(out.status.success(), "{name} {args:?}: {out:?}");
    out
}

/// The summary line carries timings; keep only its counts.
pub fn without_timings(s: &mut insta::Settings) {
    s.add_filter(r"; [0-9.]+ s, [0-9]+ games/s, [0-9.]+ MB/s", "; [timing]");
    s.add_filter(r#""seconds":[0-9.]+"#, r#""seconds":"[timing]""#);
}

/// Sends SIGINT to `child`, as Ctrl-C does.
pub fn interrupt(child: &std::process::Child) {
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
}

/// Makes the zstd frame at `at` undecodable from its first block on: the block's type
/// becomes the reserved one (RFC 8878 §3.1.1.2), so the frame gives no text at all.
pub fn break_first_block(bytes: &mut [u8], at: usize) {
    let descriptor = bytes[at + 4];
    let single_segment = descriptor & 0x20 != 0;
    let dictionary = [0, 1, 2, 4][usize::from(descriptor & 3)];
    let content_size = match descriptor >> 6 {
        0 => usize::from(single_segment),
        1 => 2,
        2 => 4,
        _ => 8,
    };
    let block = at + 5 + usize::from(!single_segment) + dictionary + content_size;
    bytes[block] |= 0b110;
}
