//! The pictures in a real browser: headless Chromium renders the snapshot SVGs and the
//! HTML report of `grammar-tests/pgn/err` to PNG. A render fails the test when it is blank
//! (the same pixels as an empty page at the same size), when Chromium reads the file with
//! a parser error, or when the page logs anything to the console (a script error). The
//! report's filter script must have run: it writes how many cards it shows.
//!
//! Chromium is found as `$CHROMIUM`, `/usr/bin/chromium` or `chromium` on the PATH. Without
//! it the test says so and passes, except under CI (`CI` set), where `.ci/run` installs it
//! and its absence fails the test.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let debian = Path::new("/usr/bin/chromium");
    if debian.exists() {
        return Some(debian.to_owned());
    }
    let on_path = Command::new("chromium").arg("--version").output().ok()?;
    on_path.status.success().then(|| PathBuf::from("chromium"))
}

struct Browser {
    exe: PathBuf,
    profile: PathBuf,
}

impl Browser {
    fn command(&self) -> Command {
        let mut c = Command::new(&self.exe);
        c.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
        ]);
        c.arg(format!("--user-data-dir={}", self.profile.display()));
        c
    }

    /// The DOM after loading `file`, and the console lines Chromium logged.
    fn dom(&self, file: &Path) -> (String, Vec<String>) {
        let out = self
            .command()
            .arg("--dump-dom")
            .arg(url(file))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "chromium --dump-dom {}",
            file.display()
        );
        let console = String::from_utf8_lossy(&out.stderr)
            .lines()
            .filter(|l| l.contains(":CONSOLE"))
            .map(str::to_owned)
            .collect();
        (String::from_utf8_lossy(&out.stdout).into_owned(), console)
    }

    /// The RGBA pixels of `file` rendered in a window of `w` × `h`.
    fn render(&self, file: &Path, png: &Path, (w, h): (u32, u32)) -> Vec<u8> {
        let out = self
            .command()
            .arg(format!("--screenshot={}", png.display()))
            .arg(format!("--window-size={w},{h}"))
            .arg(url(file))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "chromium --screenshot {}",
            file.display()
        );
        pixels(png)
    }
}

fn url(file: &Path) -> String {
    format!("file://{}", file.canonicalize().unwrap().display())
}

fn pixels(png: &Path) -> Vec<u8> {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(png).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    buf
}

/// The share of bytes that differ between two renders of the same size.
fn difference(a: &[u8], b: &[u8]) -> f64 {
    assert_eq!(a.len(), b.len(), "renders of the same window size");
    let differing = a.iter().zip(b).filter(|(x, y)| x != y).count();
    differing as f64 / a.len() as f64
}

fn pocketfen(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pocketfen"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn chromium_renders_the_diagrams_and_the_report() {
    let Some(exe) = chromium() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs Chromium for the browser test (.ci/run installs Debian's chromium)"
        );
        eprintln!("browser test skipped: no Chromium (set CHROMIUM or install Debian's chromium)");
        return;
    };
    let dir = common::scratch_dir("browser");
    let browser = Browser {
        exe,
        profile: dir.join("profile"),
    };
    // The diagrams: every SVG snapshot's FEN and options, drawn afresh.
    let diagrams: &[(&str, &[&str])] = &[
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            &["--last-move", "e2e4"],
        ),
        (
            "2r1kb1r/pp1Q~1ppp/4p3/3pP3/3P4/5N2/PPP2PPP/R3K2R/NBbpp b KQk - 0 14",
            &[],
        ),
        (
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R[Pp] w KQkq - 0 5",
            &["--flip", "--last-move", "P@d3"],
        ),
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR/ b KQkq - 0 1 | r1bqkb1r/pppppppp/2n5/8/8/5n2/PPPPPPPP/RNBQKB1R/Pp w KQkq - 0 3",
            &["--last-move", "A:e2e4"],
        ),
    ];
    let mut pages = Vec::new();
    for (i, (fen, extra)) in diagrams.iter().enumerate() {
        let mut args = vec!["fen", "show", "--svg"];
        args.extend_from_slice(extra);
        args.push(fen);
        let out = pocketfen(&args);
        assert!(out.status.success());
        let file = dir.join(format!("diagram-{i}.svg"));
        std::fs::write(&file, &out.stdout).unwrap();
        pages.push(file);
    }
    // The report of the malformed archives.
    let mut err: Vec<String> = std::fs::read_dir("grammar-tests/pgn/err")
        .unwrap()
        .map(|e| e.unwrap().path().to_str().unwrap().to_owned())
        .collect();
    err.sort();
    let report = dir.join("report.html");
    let mut args = vec!["validate", "-q", "--html", report.to_str().unwrap()];
    args.extend(err.iter().map(String::as_str));
    assert_eq!(pocketfen(&args).status.code(), Some(1));
    pages.push(report.clone());

    let blank = dir.join("blank.html");
    std::fs::write(&blank, "<!DOCTYPE html><html><body></body></html>").unwrap();
    let size = (1100, 900);
    let empty = browser.render(&blank, &dir.join("blank.png"), size);
    for page in &pages {
        let (dom, console) = browser.dom(page);
        assert!(
            !dom.contains("<parsererror"),
            "{}: a parser error:\n{dom}",
            page.display()
        );
        assert!(
            console.is_empty(),
            "{}: console output: {console:?}",
            page.display()
        );
        let shot = browser.render(page, &page.with_extension("png"), size);
        let changed = difference(&shot, &empty);
        assert!(
            changed > 0.05,
            "{}: the render is blank ({changed:.4} differs)",
            page.display()
        );
    }
    // The filter script ran: it counts the cards it shows.
    let (dom, _) = browser.dom(&report);
    let cards = dom.matches("<section class=\"card").count();
    assert!(cards >= 14);
    assert!(
        dom.contains(&format!("<span id=\"shown\">{cards} shown</span>")),
        "the script ran"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
