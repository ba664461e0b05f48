use super::*;

/// No two values share a name, also where names compare ignoring letter case and
/// Unicode normalisation (issue 33.6): non-ASCII is escaped, values differing in case
/// only are numbered in the order they come, and device names are escaped.
#[test]
fn two_values_never_share_a_file_on_any_common_file_system() {
    let mut names = TagNames::default();
    let values = [
        "Crazyhouse",
        "crazyhouse",
        "CRAZYHOUSE",
        "Crazyhouse",
        "\u{c5}",
        "\u{212b}",
        "A\u{30a}",
        "con",
        "Lpt1.x",
        "com0",
    ];
    let got: Vec<String> = values
        .iter()
        .map(|v| names.name(Some(v)).to_owned())
        .collect();
    assert_eq!(
        got,
        [
            "Crazyhouse",
            "crazyhouse%~2",
            "CRAZYHOUSE%~3",
            "Crazyhouse",
            "%C3%85",
            "%E2%84%AB",
            "A%CC%8A",
            "%63on",
            "%4Cpt1.x",
            "com0"
        ]
    );
    let mut folded: Vec<String> = got.iter().map(|n| n.to_ascii_lowercase()).collect();
    folded.sort();
    folded.dedup();
    assert_eq!(folded.len(), got.len() - 1, "one value came twice");
    assert!(got.iter().all(|n| n.is_ascii()));
}

#[test]
fn long_values_differing_after_the_cut_get_files_of_their_own() {
    let a = "x".repeat(120) + "a";
    let b = "x".repeat(120) + "b";
    let (na, nb) = (safe_name(Some(&a)), safe_name(Some(&b)));
    assert_ne!(na, nb);
    assert!(na.len() <= 100 && na.starts_with(&"x".repeat(80)), "{na}");
    // The same value always gets the same name.
    assert_eq!(safe_name(Some(&a)), na);
}

/// Numbered files of two games each, plain and compressed, and files by value: each
/// game in its file exactly once, the files renamed over their destinations only when
/// kept, no temporary file left either way.
#[test]
fn games_are_shared_out_into_files_that_appear_only_when_kept() {
    let dir = std::env::temp_dir().join(format!("pocketfen-split-files-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let game = |n: usize, site: Option<&str>| SelectedRecord {
        file: "g.pgn".to_owned(),
        game: n,
        line: 1,
        selected: true,
        captured: site.map(str::to_owned),
        text: None,
        raw: crate::stream::RawGame::new(format!("[Event \"{n}\"]\n\n1. e4 *\n").into_bytes()),
        tags_present: 0,
        tag_names: None,
    };
    // Writing gzip needs the `compression` feature (on by default).
    let gzip = cfg!(feature = "compression");
    for (pattern, keep) in [
        ("part-{n:2}.pgn", true),
        ("z/part-{n}.pgn.gz", true),
        ("gone-{n}.pgn", false),
    ] {
        if pattern.ends_with(".gz") && !gzip {
            continue;
        }
        let pattern = FilePattern::new(dir.join(pattern).to_str().unwrap(), false).unwrap();
        let mut files = SplitFiles::new(pattern, SplitBy::Every(2), TempFiles::default());
        for n in 1..=5 {
            files.write(&game(n, None)).unwrap();
        }
        let made = files.finish(keep).unwrap();
        let counts: Vec<u64> = made.iter().map(|(_, n)| *n).collect();
        if keep {
            assert_eq!(counts, [2, 2, 1]);
            let first = crate::stream::decode(std::fs::File::open(&made[0].0).unwrap()).unwrap();
            let mut text = String::new();
            io::Read::read_to_string(&mut { first.reader }, &mut text).unwrap();
            assert_eq!(
                text,
                "[Event \"1\"]\n\n1. e4 *\n\n[Event \"2\"]\n\n1. e4 *\n\n"
            );
        } else {
            // The files already full were renamed; the last, not kept, is removed.
            assert_eq!(counts, [2, 2]);
        }
    }
    let pattern = FilePattern::new(dir.join("by-{value}.pgn").to_str().unwrap(), true).unwrap();
    let mut files = SplitFiles::new(pattern, SplitBy::Tag("Site".into()), TempFiles::default());
    for (n, site) in [(1, Some("a")), (2, Some("A")), (3, None), (4, Some("a"))] {
        files.write(&game(n, site)).unwrap();
    }
    let made = files.finish(true).unwrap();
    let names: Vec<(String, u64)> = made
        .iter()
        .map(|(p, n)| (p.file_name().unwrap().to_string_lossy().into_owned(), *n))
        .collect();
    assert_eq!(
        names,
        [
            ("by-%none.pgn".to_owned(), 1),
            ("by-A%~2.pgn".to_owned(), 1),
            ("by-a.pgn".to_owned(), 2)
        ]
    );
    let mut left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert!(left.iter().all(|n| !n.ends_with(".tmp")), "{left:?}");
    assert!(!left.iter().any(|n| n.starts_with("gone-3")), "{left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
