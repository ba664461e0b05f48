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

/// Bytes of output as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh directory of the system's temporary one, for the test `name`.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pocketfen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
