//! The project's promises about itself: the layers of the source point one way, every
//! problem kind is documented, and the README's claims about the library hold.

use std::path::Path;

/// The Rust files under `dir`, with their text.
fn sources(dir: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut stack = vec![Path::new(dir).to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                found.push((path.to_string_lossy().into_owned(), text));
            }
        }
    }
    found.sort();
    found
}

/// The code of a file without its comments (doc comments may name any module).
fn code(text: &str) -> String {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Each layer uses only the layers before it: the core knows no notation and no archive,
/// notation and the opening names no archive, the stream no chess, the game no run, the run no table.
#[test]
fn each_layer_names_none_of_the_layers_after_it() {
    let core = [
        "src/types.rs",
        "src/bitboard.rs",
        "src/attacks.rs",
        "src/board.rs",
        "src/setup.rs",
        "src/moves.rs",
        "src/variant.rs",
        "src/perft.rs",
        "src/bughouse.rs",
        "src/position",
    ];
    let rules: [(&str, &[&str]); 5] = [
        (
            "src/opening",
            &[
                "crate::stream",
                "crate::game",
                "crate::run",
                "crate::draw",
                "crate::table",
            ],
        ),
        (
            "src/notation",
            &[
                "crate::stream",
                "crate::game",
                "crate::run",
                "crate::draw",
                "crate::table",
            ],
        ),
        (
            "src/stream",
            &[
                "crate::game",
                "crate::run",
                "crate::position",
                "crate::notation",
                "crate::board",
                "crate::variant",
                "crate::draw",
                "crate::table",
            ],
        ),
        ("src/game", &["crate::run", "crate::draw", "crate::table"]),
        ("src/run", &["crate::draw", "crate::table"]),
    ];
    let mut broken = Vec::new();
    for (path, text) in sources("src") {
        let code = code(&text);
        let mut forbidden: Vec<&str> = Vec::new();
        if core.iter().any(|c| path.starts_with(c)) {
            forbidden.extend([
                "crate::notation",
                "crate::stream",
                "crate::game",
                "crate::run",
                "crate::draw",
                "crate::table",
            ]);
        }
        for (dir, names) in rules {
            if path.starts_with(dir) {
                forbidden.extend(names);
            }
        }
        for name in forbidden {
            if code.contains(name) {
                broken.push(format!("{path} uses {name}"));
            }
        }
    }
    assert!(broken.is_empty(), "{broken:#?}");
    // The check sees what it looks for.
    assert!(code("use crate::game::Options; // crate::run").contains("crate::game"));
    assert!(!code("/// see crate::run").contains("crate::run"));
}

/// docs/REFERENCE.md names every problem kind the library has.
#[test]
fn the_reference_names_every_problem_kind() {
    let reference = std::fs::read_to_string("docs/REFERENCE.md").unwrap();
    let missing: Vec<&str> = pocketfen::game::GameProblemKind::all()
        .map(|k| k.name())
        .filter(|name| !reference.contains(&format!("`{name}`")))
        .collect();
    assert!(missing.is_empty(), "not in docs/REFERENCE.md: {missing:?}");
    assert!(pocketfen::game::GameProblemKind::all().count() > 50);
}

/// The README says what the library depends on without its `cli` feature: exactly
/// those crates.
#[test]
fn the_readme_names_the_librarys_dependencies() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let claim = readme
        .lines()
        .find(|l| l.contains("depends on"))
        .expect("the README says what the library depends on");
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "--no-default-features",
            "-e",
            "normal",
            "--depth",
            "1",
            "--prefix",
            "none",
            "-p",
            "pocketfen",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8_lossy(&out.stdout);
    let deps: Vec<&str> = tree
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(!deps.is_empty());
    for dep in &deps {
        assert!(
            claim.contains(dep),
            "the README's `{claim}` leaves out {dep}"
        );
    }
    let named = ["nom", "memchr", "simdutf8", "arrayvec", "regex"];
    let said: Vec<&str> = named.into_iter().filter(|n| claim.contains(n)).collect();
    assert_eq!(
        said.len(),
        deps.len(),
        "the README names {said:?}; the library has {deps:?}"
    );
}

/// The examples of docs/COMMANDS.md whose output the page shows: each `$ pocketfen …`
/// line of a code block with lines after it, and those lines.
fn shown_examples(page: &str) -> Vec<(String, Vec<String>)> {
    let mut found: Vec<(String, Vec<String>)> = Vec::new();
    let mut in_block = false;
    let mut current: Option<(String, Vec<String>)> = None;
    for line in page.lines() {
        if line.starts_with("```") {
            in_block = !in_block;
            found.extend(current.take());
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            found.extend(current.take());
            current = Some((command.to_owned(), Vec::new()));
        } else if let Some((_, shown)) = &mut current {
            shown.push(line.to_owned());
        }
    }
    found
        .into_iter()
        // Commands that write files (`>`, `-o`) are never run, whatever follows them.
        .filter(|(command, shown)| {
            command.starts_with("pocketfen ")
                && !shown.is_empty()
                && !command.contains('>')
                && !command.contains(" -o ")
        })
        .collect()
}

/// docs/COMMANDS.md's examples print what the page shows: each is run by `sh` from the
/// project's root with this build's binary first on `PATH`, and its standard output
/// compared with the lines shown, whole, or its first lines when the last one shown is
/// `…`.
#[test]
fn the_tour_examples_print_what_the_page_shows() {
    let page = std::fs::read_to_string("docs/COMMANDS.md").unwrap();
    let examples = shown_examples(&page);
    assert!(examples.len() >= 8, "{examples:?}");
    let bin = Path::new(env!("CARGO_BIN_EXE_pocketfen"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for (command, shown) in examples {
        let out = std::process::Command::new("sh")
            .args(["-c", &command])
            .env("PATH", &path)
            .output()
            .unwrap();
        let printed = String::from_utf8(out.stdout).unwrap();
        let printed: Vec<&str> = printed.lines().collect();
        match shown.split_last() {
            Some((last, first)) if last == "…" => {
                assert!(
                    printed.len() > first.len() && printed[..first.len()] == *first,
                    "`{command}` printed {printed:?}, the page shows {shown:?}"
                );
            }
            _ => assert_eq!(printed, shown, "`{command}`"),
        }
    }
}

#[test]
fn examples_are_read_from_code_blocks_only() {
    let page = "$ pocketfen not-in-a-block\nx\n```sh\n$ pocketfen a\none\ntwo\n$ pocketfen b > f\nz\n$ pocketfen d -o f\nw\n$ curl x | pocketfen c\ny\n```\n";
    assert_eq!(
        shown_examples(page),
        [(
            "pocketfen a".to_owned(),
            vec!["one".to_owned(), "two".to_owned()]
        )]
    );
}
