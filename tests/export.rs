//! `export`: the games and plies tables, read back with the parquet crate's own reader and
//! held against what `validate` and `replay` say of the same games; tag values that do
//! not fit their columns; Lichess's partitioned layout; outputs that are refused.
#![cfg(feature = "parquet")]

mod common;

use std::fs;
use std::path::Path;

use arrow_array::{
    Array, BooleanArray, Date32Array, Float64Array, Int16Array, Int32Array, Int64Array, ListArray,
    StringArray, Time32MillisecondArray, UInt8Array,
};
use arrow_schema::{DataType, TimeUnit};
use common::{run_out, scratch_dir};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::{Map, Value, json};

/// A Parquet file's rows as JSON objects, column by column.
fn rows(path: &Path) -> Vec<Map<String, Value>> {
    let file = fs::File::open(path).unwrap();
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let mut out = Vec::new();
    for batch in reader {
        let batch = batch.unwrap();
        let schema = batch.schema();
        let mut rows = vec![Map::new(); batch.num_rows()];
        for (field, column) in schema.fields().iter().zip(batch.columns()) {
            for (i, row) in rows.iter_mut().enumerate() {
                let v = if column.is_null(i) {
                    Value::Null
                } else {
                    value(column.as_ref(), field.data_type(), i)
                };
                row.insert(field.name().clone(), v);
            }
        }
        out.extend(rows);
    }
    out
}

fn value(column: &dyn Array, t: &DataType, i: usize) -> Value {
    let any = column.as_any();
    match t {
        DataType::Utf8 => json!(any.downcast_ref::<StringArray>().unwrap().value(i)),
        DataType::Int16 => json!(any.downcast_ref::<Int16Array>().unwrap().value(i)),
        DataType::Int32 => json!(any.downcast_ref::<Int32Array>().unwrap().value(i)),
        DataType::Int64 => json!(any.downcast_ref::<Int64Array>().unwrap().value(i)),
        DataType::Boolean => json!(any.downcast_ref::<BooleanArray>().unwrap().value(i)),
        DataType::Float64 => json!(any.downcast_ref::<Float64Array>().unwrap().value(i)),
        DataType::Date32 => json!(any.downcast_ref::<Date32Array>().unwrap().value(i)),
        DataType::Time32(TimeUnit::Millisecond) => {
            json!(
                any.downcast_ref::<Time32MillisecondArray>()
                    .unwrap()
                    .value(i)
            )
        }
        DataType::List(_) => {
            let list = any.downcast_ref::<ListArray>().unwrap().value(i);
            let items = list.as_any().downcast_ref::<UInt8Array>().unwrap();
            json!(items.values().to_vec())
        }
        other => panic!("no reading of {other:?}"),
    }
}

/// The archives every test exports: every variant the samples and the corpus have.
fn inputs() -> Vec<String> {
    let mut files: Vec<String> = fs::read_dir("samples")
        .unwrap()
        .map(|e| e.unwrap().path().to_string_lossy().into_owned())
        .filter(|p| p.ends_with(".pgn") || p.ends_with(".pgn.zst"))
        .collect();
    files.sort();
    let mut bpgn: Vec<String> = fs::read_dir("grammar-tests/bpgn/ok")
        .unwrap()
        .map(|e| e.unwrap().path().to_string_lossy().into_owned())
        .collect();
    bpgn.sort();
    files.extend(bpgn);
    files
}

/// A Lichess FEN without its pocket (the ninth rank's letters).
fn without_pocket(fen: &str) -> (&str, &str) {
    let (placement, rest) = fen.split_once(' ').expect("a FEN");
    (&placement[..placement.rfind('/').expect("ranks")], rest)
}

/// Every row of the games table says what `validate --all --json` says of its game, and
/// the plies table's SAN, UCI, FEN and clock are `replay`'s.
#[test]
fn the_tables_say_what_validate_and_replay_say() {
    let dir = scratch_dir("export-tables");
    let games = dir.join("games.parquet");
    let plies = dir.join("plies.parquet");
    let inputs = inputs();
    let mut args = vec![
        "export",
        "-q",
        "--games",
        games.to_str().unwrap(),
        "--plies",
        plies.to_str().unwrap(),
        "--fen",
    ];
    args.extend(inputs.iter().map(String::as_str));
    let (_, err, code) = run_out(&args);
    assert_eq!(code, Some(0), "{err}");
    let games = rows(&games);
    let plies = rows(&plies);

    let mut args = vec!["validate", "-q", "--json", "--all"];
    args.extend(inputs.iter().map(String::as_str));
    let (out, _, _) = run_out(&args);
    let records: Vec<Value> = String::from_utf8_lossy(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|r: &Value| r["type"] == "game")
        .collect();
    assert_eq!(games.len(), records.len());
    assert!(games.len() > 600);
    let mut variants = std::collections::BTreeSet::new();
    for (row, rec) in games.iter().zip(&records) {
        assert_eq!(row["file"], rec["file"]);
        assert_eq!(row["game"], rec["game"]);
        assert_eq!(row["line"], rec["line"]);
        assert_eq!(row["variant"], rec["variant"]);
        assert_eq!(row["plies"], rec["plies"]);
        assert_eq!(row["valid"], json!(rec["status"] == "ok"), "{rec}");
        let problems = rec["problems"].as_array().unwrap();
        assert_eq!(row["problems"], json!(problems.len()));
        match problems.first() {
            Some(p) => {
                assert_eq!(row["problem_kind"], p["kind"]);
                assert_eq!(row["problem_line"], p["line"]);
                assert_eq!(row["problem_column"], p["column"]);
                assert_eq!(row["problem_ply"], p["ply"]);
            }
            None => assert_eq!(row["problem_kind"], Value::Null),
        }
        variants.insert(row["variant"].as_str().unwrap_or("none").to_owned());
        if row["valid"] == json!(false) {
            assert_eq!(row["ending"], Value::Null);
        }
    }
    for v in ["chess", "crazyhouse", "horde", "bughouse"] {
        assert!(variants.contains(v), "{variants:?}");
    }
    // Every ending the samples reach is named, with its winner.
    let endings: std::collections::BTreeSet<String> = games
        .iter()
        .filter_map(|g| Some(format!("{} {}", g["ending"].as_str()?, g["winner"])))
        .collect();
    for e in [
        "checkmate \"white\"",
        "checkmate \"black\"",
        "drop-mate \"black\"",
    ] {
        assert!(endings.contains(e), "{endings:?}");
    }

    // The plies: replay's SAN, UCI and FEN, ply by ply, for every game.
    for (emit, column) in [("san", "san"), ("uci", "uci"), ("fen", "fen")] {
        let mut args = vec!["replay", "-q", "--emit", emit];
        args.extend(inputs.iter().map(String::as_str));
        let (out, _, _) = run_out(&args);
        let replayed: Vec<String> = String::from_utf8_lossy(&out)
            .lines()
            .filter(|l| !l.starts_with("# "))
            .map(|l| {
                l.strip_prefix("A ")
                    .or(l.strip_prefix("B "))
                    .unwrap_or(l)
                    .to_owned()
            })
            .collect();
        let ours: Vec<&str> = plies.iter().map(|p| p[column].as_str().unwrap()).collect();
        assert_eq!(ours.len(), replayed.len(), "{emit}");
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1";
        for (i, (a, b)) in ours.iter().zip(&replayed).enumerate() {
            match plies[i]["board"].as_str() {
                // A bughouse ply's FEN is the pair: the board moved on as replay gives
                // it, and the other board as the row before left it (its pocket may
                // have gained the piece this move took).
                Some(board) if emit == "fen" => {
                    let pair = |fen: &'_ str| -> [String; 2] {
                        let (fa, fb) = fen.split_once(" | ").expect("a pair");
                        [fa.to_owned(), fb.to_owned()]
                    };
                    let before = match plies[i]["ply"] == json!(1) {
                        true => [start.to_owned(), start.to_owned()],
                        false => pair(ours[i - 1]),
                    };
                    let (now, moved) = (pair(a), usize::from(board == "B"));
                    assert_eq!(&now[moved], b, "ply row {i}, board {board}");
                    assert_eq!(
                        without_pocket(&now[1 - moved]),
                        without_pocket(&before[1 - moved]),
                        "ply row {i}, the board that did not move"
                    );
                }
                _ => assert_eq!(a, b, "{emit}, ply row {i}"),
            }
        }
    }
    // The clocks and evaluations: replay --json's annotations.
    let mut args = vec!["replay", "-q", "--json", "--emit", "uci"];
    args.extend(inputs.iter().map(String::as_str));
    let (out, _, _) = run_out(&args);
    let mut clocks = Vec::new();
    for line in String::from_utf8_lossy(&out).lines() {
        let r: Value = serde_json::from_str(line).unwrap();
        if r["type"] != "replayed" {
            continue;
        }
        let n = r["plies"].as_array().unwrap().len();
        for i in 0..n {
            let note = &r["annotations"][i];
            clocks.push((note["clock"].clone(), note["cp"].clone()));
        }
    }
    let bughouse: Vec<bool> = plies.iter().map(|p| p["board"] != Value::Null).collect();
    for (i, (p, (clock, cp))) in plies.iter().zip(&clocks).enumerate() {
        if !bughouse[i] {
            assert_eq!(&p["clock"], clock, "ply row {i}");
        }
        assert_eq!(&p["eval_cp"], cp, "ply row {i}");
    }
    assert!(plies.iter().filter(|p| p["clock"] != Value::Null).count() > 20_000);
    // BPGN's `{179}` clocks are read in bughouse.
    assert!(
        plies
            .iter()
            .any(|p| p["board"] == json!("B") && p["clock"].as_f64().is_some())
    );
    // A drop's row: its piece, no capture, the pockets after it.
    let drop = plies
        .iter()
        .find(|p| p["is_drop"] == json!(true) && p["piece"] == json!("N"))
        .unwrap();
    assert!(drop["san"].as_str().unwrap().starts_with("N@"));
    assert_eq!(drop["captured"], Value::Null);
    assert!(drop["white_pocket"].is_string() && drop["black_pocket"].is_string());
    // A game whose moves carry NAGs.
    assert!(plies.iter().any(|p| p["nags"] != json!([])));
}

/// Lichess's columns have Lichess's types; a tag value that does not fit is null, named
/// in `unfit` and counted on stderr; dates and times are read exactly.
#[test]
fn tag_values_fill_lichess_columns_or_are_counted() {
    let dir = scratch_dir("export-unfit");
    let pgn = dir.join("g.pgn");
    fs::write(
        &pgn,
        "[Event \"Rated \\\"Blitz\\\" game\"]\n[Site \"https://lichess.org/abcd\"]\n[UTCDate \"2024.02.29\"]\n\
         [UTCTime \"23:59:58\"]\n[WhiteElo \"1500\"]\n[BlackElo \"?\"]\n[WhiteRatingDiff \"+6\"]\n\
         [BlackRatingDiff \"-13\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. P@e4 *\n\n\
         [UTCDate \"2024.??.??\"]\n[UTCTime \"25:00:00\"]\n[WhiteElo \"99999\"]\n\n1. e4!? $14 $32 { [%eval #-2] } *\n",
    )
    .unwrap();
    let table = dir.join("t.parquet");
    let (_, err, code) = run_out(&[
        "export",
        "--games",
        table.to_str().unwrap(),
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("BlackElo: 1 value did not fit"), "{err}");
    assert!(err.contains("UTCDate: 1 value did not fit"), "{err}");
    assert!(err.contains("UTCTime: 1 value did not fit"), "{err}");
    assert!(err.contains("WhiteElo: 1 value did not fit"), "{err}");
    let games = rows(&table);
    assert_eq!(games[0]["Event"], json!("Rated \"Blitz\" game"));
    assert_eq!(games[0]["WhiteElo"], json!(1500));
    assert_eq!(games[0]["BlackElo"], Value::Null);
    assert_eq!(games[0]["WhiteRatingDiff"], json!(6));
    assert_eq!(games[0]["BlackRatingDiff"], json!(-13));
    // 2024-02-29 is day 19,782 since 1970-01-01.
    assert_eq!(games[0]["UTCDate"], json!(19_782));
    assert_eq!(
        games[0]["UTCTime"],
        json!((23 * 3600 + 59 * 60 + 58) * 1000)
    );
    assert_eq!(games[0]["unfit"], json!("BlackElo"));
    assert_eq!(games[0]["variant"], json!("crazyhouse"));
    assert_eq!(
        games[0]["movetext"],
        json!("1. e4 d5 2. exd5 Qxd5 3. P@e4 *")
    );
    assert_eq!(games[1]["unfit"], json!("UTCDate,UTCTime,WhiteElo"));
    assert_eq!(games[1]["UTCDate"], Value::Null);
    assert_eq!(games[1]["WhiteElo"], Value::Null);
    assert_eq!(games[1]["variant"], json!("chess"));
    // A move's glyph is its first NAG; a mate evaluation is `eval_mate`. Without a games
    // table, no tag's column is written: none is said not to fit.
    let plies = dir.join("p.parquet");
    let (_, err, code) = run_out(&[
        "export",
        "--plies",
        plies.to_str().unwrap(),
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("2 games exported, 6 plies"), "{err}");
    assert!(!err.contains("did not fit"), "{err}");
    let plies = rows(&plies);
    assert_eq!(plies.len(), 6);
    assert_eq!(plies[5]["nags"], json!([5, 14, 32]));
    assert_eq!(plies[5]["eval_mate"], json!(-2));
    assert_eq!(plies[5]["eval_cp"], Value::Null);
    assert_eq!(plies[5]["Site"], Value::Null);
    assert_eq!(plies[4]["san"], json!("P@e4"));
    assert_eq!(plies[4]["white_pocket"], json!(""));
    assert_eq!(plies[4]["black_pocket"], json!("p"));
    assert_eq!(plies[3]["captured"], json!("P"));
    assert_eq!(plies[5]["white_pocket"], Value::Null);
}

/// `-o DIR` writes Lichess's layout: a file per month, by UTCDate, else Date, else the
/// Hive folder of unknown values; every game once.
#[test]
fn a_folder_of_months_in_lichess_layout() {
    let dir = scratch_dir("export-partitions");
    let pgn = dir.join("g.pgn");
    let game = |date: &str| format!("{date}\n\n1. e4 e5 *\n\n");
    let text = [
        game("[UTCDate \"2024.05.31\"]"),
        game("[UTCDate \"2023.12.01\"]"),
        game("[Date \"2001.11.??\"]"),
        game("[Date \"????.??.??\"]"),
        game("[UTCDate \"2024.05.01\"]"),
    ]
    .concat();
    fs::write(&pgn, text).unwrap();
    let out = dir.join("table");
    let (_, err, code) = run_out(&[
        "export",
        "-q",
        "-o",
        out.to_str().unwrap(),
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let file = |folder: &str| out.join(folder).join("train-00000-of-00001.parquet");
    assert_eq!(rows(&file("year=2024/month=05")).len(), 2);
    assert_eq!(rows(&file("year=2023/month=12")).len(), 1);
    assert_eq!(rows(&file("year=2001/month=11")).len(), 1);
    assert_eq!(
        rows(&file(
            "year=__HIVE_DEFAULT_PARTITION__/month=__HIVE_DEFAULT_PARTITION__"
        ))
        .len(),
        1
    );
    // By year, and a part of a split run named for its part.
    let (_, err, code) = run_out(&[
        "export",
        "-q",
        "-o",
        out.to_str().unwrap(),
        "--partition",
        "year",
        "--split",
        "1/1",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        rows(&out.join("year=2024/train-00000-of-00001.parquet")).len(),
        2
    );
    // No temporary file is left behind.
    let mut leftovers = Vec::new();
    let mut stack = vec![out.clone()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if !p.to_string_lossy().ends_with(".parquet") {
                leftovers.push(p);
            }
        }
    }
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// Nothing to write, stdout, an input as output, one file twice: refused, nothing read.
#[test]
fn outputs_that_are_refused() {
    let dir = scratch_dir("export-refused");
    let pgn = dir.join("g.pgn");
    fs::write(&pgn, "1. e4 e5 *\n").unwrap();
    let p = pgn.to_str().unwrap();
    let (_, err, code) = run_out(&["export", p]);
    assert_eq!(code, Some(2));
    assert!(err.contains("say what to write"), "{err}");
    let (_, err, code) = run_out(&["export", "--games", "-", p]);
    assert_eq!(code, Some(2));
    assert!(err.contains("not to stdout"), "{err}");
    let (_, err, code) = run_out(&["export", "--games", p, p]);
    assert_eq!(code, Some(2));
    // Said once, as the file it would write, without a flag that was not given.
    assert_eq!(
        err.trim_end(),
        format!(
            "pocketfen: writing {p}: {p}: this is the input {p}; writing it would destroy what is read: write elsewhere"
        ),
    );
    assert_eq!(fs::read_to_string(&pgn).unwrap(), "1. e4 e5 *\n");
    let same = dir.join("t.parquet");
    let s = same.to_str().unwrap();
    let (_, err, code) = run_out(&["export", "--games", s, "--plies", s, p]);
    assert_eq!(code, Some(2));
    assert!(!err.is_empty());
    assert!(!same.exists());
    // A directory for a table, a file for -o: refused before the run, said once, and
    // no other table written.
    let d = dir.to_str().unwrap();
    let (_, err, code) = run_out(&["export", "--games", s, "--plies", d, p]);
    assert_eq!(code, Some(2));
    assert_eq!(
        err.matches("a directory; a Parquet table is written to a file")
            .count(),
        1,
        "{err}"
    );
    assert!(!same.exists());
    let (_, err, code) = run_out(&["export", "--plies", s, "-o", p, p]);
    assert_eq!(code, Some(2));
    assert!(err.contains("not a directory"), "{err}");
    assert!(!same.exists());
}

/// Every column chunk's codec, as the file's footer says.
fn codecs(path: &Path) -> Vec<parquet::basic::Compression> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let reader = SerializedFileReader::new(fs::File::open(path).unwrap()).unwrap();
    let meta = reader.metadata();
    let mut codecs: Vec<_> = meta
        .row_groups()
        .iter()
        .flat_map(|g| g.columns().iter().map(|c| c.compression()))
        .collect();
    codecs.dedup();
    codecs
}

#[test]
fn pages_are_compressed_as_asked_and_hold_the_same_rows() {
    use parquet::basic::{Compression, ZstdLevel};
    let dir = scratch_dir("export-codecs");
    let input = "samples/cutechess_zh_2019_CrazyAra-vs-Stockfish.pgn";
    let mut tables = Vec::new();
    for (codec, want) in [
        (None, Compression::ZSTD(ZstdLevel::default())),
        (
            Some("zstd:9"),
            Compression::ZSTD(ZstdLevel::try_new(9).unwrap()),
        ),
        (Some("SNAPPY"), Compression::SNAPPY),
        (Some("none"), Compression::UNCOMPRESSED),
    ] {
        let name = codec.unwrap_or("default").replace(':', "-");
        let games = dir.join(format!("{name}-games.parquet"));
        let plies = dir.join(format!("{name}-plies.parquet"));
        let mut args = vec![
            "export",
            "-q",
            "--games",
            games.to_str().unwrap(),
            "--plies",
            plies.to_str().unwrap(),
        ];
        if let Some(c) = codec {
            args.extend(["--compression", c]);
        }
        args.push(input);
        let (_, err, code) = run_out(&args);
        assert_eq!(code, Some(0), "{err}");
        // The codec's level is not in the footer: zstd:9 reads back as zstd.
        let read_back = |c: Compression| match c {
            Compression::ZSTD(_) => "zstd",
            Compression::SNAPPY => "snappy",
            Compression::UNCOMPRESSED => "none",
            _ => "other",
        };
        for path in [&games, &plies] {
            let got: Vec<_> = codecs(path).into_iter().map(read_back).collect();
            assert_eq!(got, [read_back(want)], "{codec:?}: {}", path.display());
        }
        tables.push((
            name,
            fs::metadata(&games).unwrap().len(),
            rows(&games),
            rows(&plies),
        ));
    }
    // Statistics where a reader can skip pages by them (the game, the ply, the clock),
    // none where every page spans all values (moves, FENs, pockets).
    let stats = |path: &Path| -> Vec<(String, bool)> {
        use parquet::file::reader::{FileReader, SerializedFileReader};
        let reader = SerializedFileReader::new(fs::File::open(path).unwrap()).unwrap();
        let group = reader.metadata().row_group(0).clone();
        group
            .columns()
            .iter()
            .map(|c| (c.column_path().string(), c.statistics().is_some()))
            .collect()
    };
    let plies_stats = stats(&dir.join("default-plies.parquet"));
    for (column, has) in &plies_stats {
        let want = [
            "file",
            "game",
            "Site",
            "ply",
            "move_number",
            "clock",
            "elapsed",
            "eval_cp",
            "eval_mate",
            "is_drop",
            "check",
            "mate",
        ]
        .contains(&column.as_str())
            || column.starts_with("nags");
        assert_eq!(*has, want, "{column}: {plies_stats:?}");
    }
    let games_stats = stats(&dir.join("default-games.parquet"));
    assert!(games_stats.iter().any(|(c, has)| c == "UTCDate" && *has));
    assert!(games_stats.iter().any(|(c, has)| c == "movetext" && !*has));
    let (_, _, games, plies) = &tables[0];
    assert!(games.len() > 1 && plies.len() > games.len());
    for (name, _, g, p) in &tables[1..] {
        assert_eq!(g, games, "{name}: the games table's rows");
        assert_eq!(p, plies, "{name}: the plies table's rows");
    }
    let size = |n: &str| tables.iter().find(|t| t.0 == n).unwrap().1;
    assert!(size("zstd-9") < size("default") && size("default") < size("SNAPPY"));
    assert!(size("SNAPPY") < size("none"));
    for (bad, why) in [
        ("zstd:23", "from 1 to 22"),
        ("zstd:x", "from 1 to 22"),
        ("lzo", "snappy or none"),
    ] {
        let out = dir.join("bad.parquet");
        let (_, err, code) = run_out(&[
            "export",
            "--games",
            out.to_str().unwrap(),
            "--compression",
            bad,
            input,
        ]);
        assert_eq!(code, Some(2), "{bad}");
        assert!(
            err.contains(&format!("compression `{bad}`")) && err.contains(why),
            "{err}"
        );
        assert!(!out.exists());
    }
}

/// A problem as the round trip compares it: kind, ply, token, reason, column.
type Problem = (String, Value, Value, String, Value);

/// The problems of a `validate --json --all` run, per game: (kind, ply, token, reason),
/// and the column when the problem is a move's (its movetext line is the same text).
fn problems_of(args: &[&str]) -> Vec<Vec<Problem>> {
    let mut all = vec!["validate", "-q", "--json", "--all"];
    all.extend(args);
    let (out, _, _) = run_out(&all);
    String::from_utf8_lossy(&out)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r["type"] == "game")
        .map(|r| {
            r["problems"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    let column = if p["ply"].is_null() {
                        Value::Null
                    } else {
                        p["column"].clone()
                    };
                    (
                        p["kind"].as_str().unwrap().to_owned(),
                        p["ply"].clone(),
                        p["token"].clone(),
                        p["reason"].as_str().unwrap().to_owned(),
                        column,
                    )
                })
                .collect()
        })
        .collect()
}

/// A games table read as an archive gives the problems its PGN gives, game by game (a
/// game numbered by its row), a start that cannot be set up (an unreadable or illegal
/// `[FEN]`, an unknown variant) too; its lines are its movetext's.
#[test]
fn a_games_table_validates_as_its_pgn() {
    let dir = scratch_dir("export-round-trip");
    let mut inputs = inputs();
    let mut errs: Vec<String> = fs::read_dir("grammar-tests/pgn/err")
        .unwrap()
        .map(|e| e.unwrap().path().to_string_lossy().into_owned())
        .collect();
    // The faults `pgn fix` repairs: a `[FEN]` whose castling rights no rook allows among
    // them, kept as written (its warning was lost when the table held the start used).
    let mut faults: Vec<String> = fs::read_dir("grammar-tests/fix")
        .unwrap()
        .map(|e| e.unwrap().path().to_string_lossy().into_owned())
        .filter(|p| p.ends_with(".pgn"))
        .collect();
    errs.sort();
    faults.sort();
    inputs.extend(errs);
    inputs.extend(faults);
    for (i, input) in inputs.iter().enumerate() {
        let table = dir.join(format!("{i}.parquet"));
        let t = table.to_str().unwrap();
        let (_, err, code) = run_out(&["export", "-q", "--games", t, input]);
        assert_eq!(code, Some(0), "{input}: {err}");
        let pgn = problems_of(&[input]);
        let rows = rows(&table);
        let read = problems_of(&[t]);
        assert_eq!(read.len(), pgn.len(), "{input}");
        for (k, (ours, theirs)) in read.iter().zip(&pgn).enumerate() {
            // A start that could not be set up is kept as written.
            for (kind, column) in [
                ("bad-fen", "fen"),
                ("illegal-fen", "fen"),
                ("unknown-variant", "variant"),
            ] {
                if theirs.iter().any(|p| p.0 == kind) {
                    assert!(rows[k][column].is_string(), "{input}, game {}", k + 1);
                }
            }
            // `[CurrentPosition]` and `[PlyCount]` are no columns of the table: their
            // checks have nothing to read there; its `variant` is the variant the game
            // was read as, inferred or not. Its `fen` is the `[FEN]` as written, and the
            // standard start (a Horde game's of Lichess's 2021 export bug) reads back as
            // no `[FEN]`, as in Lichess's own tables. A tag's value is a cell, not its
            // spelling (`malformed-tag`: quotes left unescaped).
            let untabled = [
                "malformed-tag",
                "current-position-mismatch",
                "ply-count-mismatch",
                "horde-standard-fen",
                "variant-inferred",
            ];
            let theirs: Vec<_> = theirs
                .iter()
                .filter(|p| !untabled.contains(&p.0.as_str()))
                .cloned()
                .collect();
            assert_eq!(ours, &theirs, "{input}, game {}", k + 1);
        }
    }
    // A move's problem is located in its row, and in its movetext: line 1 is the
    // movetext's first.
    let table = dir.join("drop.parquet");
    let t = table.to_str().unwrap();
    let pgn = "grammar-tests/pgn/err/illegal-drop.pgn";
    run_out(&["export", "-q", "--games", t, pgn]);
    let (out, _, code) = run_out(&["validate", t]);
    assert_eq!(code, Some(1));
    let text = String::from_utf8_lossy(&out);
    let movetext = rows(&table)[0]["movetext"].as_str().unwrap().to_owned();
    let first = text.lines().next().unwrap();
    let place = first
        .strip_prefix(&format!("{t}: row 1, movetext "))
        .expect(first);
    let (line, rest) = place.split_once(':').unwrap();
    let (column, rest) = rest.split_once(',').unwrap();
    let column: usize = column.parse().unwrap();
    let token = first.split('(').nth(1).unwrap().split(')').next().unwrap();
    let at = movetext
        .lines()
        .nth(line.parse::<usize>().unwrap() - 1)
        .unwrap();
    assert_eq!(&at[column - 1..column - 1 + token.len()], token, "{first}");
    // What follows the place is what the PGN's line says.
    let (out, _, _) = run_out(&["validate", pgn]);
    let theirs = String::from_utf8_lossy(&out)
        .lines()
        .next()
        .unwrap()
        .to_owned();
    let after = theirs.split_once(": game 1,").expect(&theirs).1;
    assert_eq!(rest, after, "{first} / {theirs}");

    // Every message that names a game names a row: `validate --all`'s ok lines,
    // `replay`'s header, `dedupe -v`, a game over the size limit.
    let ok = dir.join("ok.parquet");
    let o = ok.to_str().unwrap();
    let zh = "samples/lichess_zh_2018_JannLee-CrazyAra.pgn";
    run_out(&["export", "-q", "--games", o, zh]);
    let (out, _, _) = run_out(&["validate", "--all", zh]);
    let theirs = String::from_utf8_lossy(&out).trim().to_owned();
    let verdict = theirs.split_once(": game 1: ").expect(&theirs).1;
    assert!(verdict.starts_with("ok (crazyhouse, "), "{theirs}");
    let (out, _, _) = run_out(&["validate", "--all", o]);
    assert_eq!(
        String::from_utf8_lossy(&out).trim(),
        format!("{o}: row 1: {verdict}")
    );
    let (out, _, _) = run_out(&["replay", "--emit", "uci", o]);
    assert!(
        String::from_utf8_lossy(&out).starts_with(&format!("# {o} row 1\n")),
        "{}",
        String::from_utf8_lossy(&out)
    );
    // `-o -` is stdout (no file named `-`), as `-` is stdin among the inputs.
    let (out, err, code) = run_out(&["pgn", "dedupe", "-v", "-o", "-", o, o]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!Path::new("-").exists());
    let kept = String::from_utf8_lossy(&out).into_owned();
    assert_eq!(kept.matches("[Event ").count(), 1, "{kept}");
    // A row is copied out as PGN writes a game: a tag per line, a blank line, the
    // movetext; by `select`, `dedupe` and `split` alike, and it validates as the source.
    let (tags, movetext) = kept.split_once("\n\n").expect(&kept);
    assert!(
        tags.starts_with("[Event \"Rated Crazyhouse game\"]\n[Site "),
        "{tags}"
    );
    assert!(
        tags.lines()
            .all(|l| l.starts_with('[') && l.ends_with("\"]")),
        "{tags}"
    );
    assert!(
        tags.lines().count() >= 15 && movetext.starts_with("1. e4 "),
        "{kept}"
    );
    let (out, _, _) = run_out(&["pgn", "select", o]);
    assert_eq!(String::from_utf8_lossy(&out), kept);
    let split = dir.join("split-{N}.pgn");
    let (_, split_err, code) = run_out(&[
        "pgn",
        "split",
        "--every",
        "1",
        "-o",
        split.to_str().unwrap(),
        o,
    ]);
    assert_eq!(code, Some(0), "{split_err}");
    let first = dir.join("split-000001.pgn");
    assert_eq!(fs::read_to_string(&first).unwrap(), kept);
    let (out, _, _) = run_out(&["validate", "--all", first.to_str().unwrap()]);
    let line = String::from_utf8_lossy(&out).trim().to_owned();
    assert!(line.ends_with(&format!(": game 1: {verdict}")), "{line}");
    assert!(
        err.contains(&format!("{o}: row 1 duplicates row 1 ({o})")),
        "{err}"
    );
    let (out, _, code) = run_out(&["validate", "--max-game-bytes", "100", o]);
    assert_eq!(code, Some(1));
    let out = String::from_utf8_lossy(&out);
    assert!(
        out.starts_with(&format!("{o}: row 1: error: game-too-large: ")),
        "{out}"
    );
    let (_, err, code) = run_out(&["pgn", "select", "--max-game-bytes", "100", o]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!("{o}: row 1: error: game-too-large: ")),
        "{err}"
    );
}

/// A Parquet file's record batches, as one.
fn read_batches(bytes: Vec<u8>) -> arrow_array::RecordBatch {
    let builder = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(bytes)).unwrap();
    let schema = builder.schema().clone();
    let reader = builder.build().unwrap();
    let batches: Vec<_> = reader.map(Result::unwrap).collect();
    arrow_select::concat::concat_batches(&schema, &batches).unwrap()
}

/// The plies table's own page writer against Arrow's writer of the same rows: the same
/// schema and the same values, for every sample (bughouse, horde, crazyhouse, chess960,
/// clocks, evaluations and NAGs), with and without FENs, in small pages and row groups
/// and in the export's own, and with each codec.
#[test]
fn the_plies_pages_read_back_as_arrows_writer_writes_them() {
    use pocketfen::game::{Options, RowOptions, game_rows};
    use pocketfen::run::record::ExportedRecord;
    use pocketfen::stream::GameSplitter;
    use pocketfen::table::{Codec, PliesBuilder, PliesFile, TableWriter, WriteOptions};
    let mut records = Vec::new();
    let mut samples: Vec<_> = ["samples", "grammar-tests/bpgn/ok", "grammar-tests/pgn/ok"]
        .iter()
        .flat_map(|dir| fs::read_dir(dir).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn" || e == "bpgn"))
        .collect();
    samples.sort();
    // Glyphs and NAGs, a mate evaluation, a pocket emptied, a long game number.
    let annotated = scratch_dir("export-pages").join("annotated.pgn");
    fs::write(
        &annotated,
        "[Variant \"Crazyhouse\"]\n\n1. e4!? $14 $32 { [%eval #-2] [%clk 0:00:59.5] } d5 \
         2. exd5 { [%eval -0.31] } Qxd5?? $4 3. Nc3 Qa5 4. P@d5 *\n\n\n1. d4 $1 *\n",
    )
    .unwrap();
    samples.push(annotated);
    for fen in [false, true] {
        records.clear();
        for path in &samples {
            let text = fs::read(path).unwrap();
            for game in GameSplitter::new(&text[..]).take(150) {
                let game = game.unwrap();
                let asked = RowOptions {
                    plies: true,
                    fen,
                    ..RowOptions::default()
                };
                let rows = game_rows(&game, &Options::default(), asked);
                records.push(ExportedRecord {
                    file: path.file_name().unwrap().to_string_lossy().into_owned(),
                    game: game.number,
                    line: game.line,
                    row: rows.game,
                    plies: rows.plies,
                    fens: rows.fens,
                    too_large: None,
                });
            }
        }
        let kinds: Vec<_> = records.iter().flat_map(|r| &r.plies).collect();
        assert!(kinds.iter().any(|p| p.board.is_some()) && kinds.iter().any(|p| p.is_drop));
        assert!(kinds.iter().any(|p| p.eval.is_some()) && kinds.iter().any(|p| p.nags.len() > 1));
        for (codec, rows) in [
            (
                Codec::Zstd(1),
                (
                    WriteOptions::PLIES.row_group_rows,
                    WriteOptions::PLIES.batch_rows,
                ),
            ),
            (Codec::Snappy, (5_000, 700)),
            (Codec::None, (997, 61)),
        ] {
            let options = WriteOptions {
                codec,
                row_group_rows: rows.0,
                batch_rows: rows.1,
                ..WriteOptions::PLIES
            };
            let mut arrow = TableWriter::new(PliesBuilder::new(fen), Vec::new(), options).unwrap();
            let mut ours = PliesFile::new(Vec::new(), fen, options).unwrap();
            for r in &records {
                arrow.push(r).unwrap();
                ours.push(r).unwrap();
            }
            assert_eq!(ours.rows(), arrow.rows());
            let (want, got) = (arrow.finish().unwrap(), ours.finish().unwrap());
            // One row group in each: the same statistics of every column that has them.
            if kinds.len() <= rows.0 {
                use parquet::file::reader::{FileReader, SerializedFileReader};
                let stats = |bytes: &Vec<u8>| {
                    let reader = SerializedFileReader::new(bytes::Bytes::from(bytes.clone()));
                    let meta = reader.unwrap().metadata().row_group(0).clone();
                    let columns = meta.columns().iter();
                    columns
                        .map(|c| {
                            let s = c.statistics();
                            let name = c.column_path().string();
                            let min = s.and_then(|s| s.min_bytes_opt().map(<[u8]>::to_vec));
                            let max = s.and_then(|s| s.max_bytes_opt().map(<[u8]>::to_vec));
                            (name, min, max, s.and_then(|s| s.null_count_opt()))
                        })
                        .collect::<Vec<_>>()
                };
                let (ours, theirs) = (stats(&got), stats(&want));
                for (o, t) in ours.iter().zip(&theirs) {
                    if o.1.is_some() || o.3.is_some() {
                        assert_eq!(o, t, "{codec}: statistics");
                    }
                }
                let kept = ours.iter().filter(|o| o.1.is_some()).count();
                assert!(kept >= 10, "{ours:?}");
            }
            // Row groups end on the first game that fills them.
            let groups: Vec<usize> = {
                use parquet::file::reader::{FileReader, SerializedFileReader};
                let reader = SerializedFileReader::new(bytes::Bytes::from(got.clone())).unwrap();
                let meta = reader.metadata();
                meta.row_groups()
                    .iter()
                    .map(|g| g.num_rows() as usize)
                    .collect()
            };
            let longest = records.iter().map(|r| r.plies.len()).max().unwrap();
            let (last, full) = groups.split_last().unwrap();
            assert!(
                *last > 0 && full.iter().all(|&n| n >= rows.0 && n < rows.0 + longest),
                "{codec}: row groups of {groups:?}"
            );
            assert_eq!(groups.len() > 1, kinds.len() > rows.0, "{codec}");
            let (want, got) = (read_batches(want), read_batches(got));
            assert_eq!(got.schema(), want.schema(), "{codec}");
            assert_eq!(got.num_rows(), kinds.len());
            for (i, field) in want.schema().fields().iter().enumerate() {
                assert_eq!(
                    got.column(i),
                    want.column(i),
                    "{codec}, fen {fen}: {}",
                    field.name()
                );
            }
        }
    }
}

/// The games table of the 438 games of `samples/lichess_standard_2025-05_sample438.pgn`,
/// in row groups of 40 rows (eleven of them), at `path`.
fn table_in_groups_of_40(path: &Path) {
    use pocketfen::game::{Options, RowOptions, game_rows};
    use pocketfen::run::record::ExportedRecord;
    use pocketfen::stream::GameSplitter;
    use pocketfen::table::{GamesBuilder, TableWriter, WriteOptions};
    let text = fs::read("samples/lichess_standard_2025-05_sample438.pgn").unwrap();
    let mut writer = TableWriter::new(
        GamesBuilder::new(),
        fs::File::create(path).unwrap(),
        WriteOptions {
            row_group_rows: 40,
            batch_rows: 40,
            ..WriteOptions::GAMES
        },
    )
    .unwrap();
    for game in GameSplitter::new(&text[..]) {
        let game = game.unwrap();
        let rows = game_rows(&game, &Options::default(), RowOptions::default());
        writer
            .push(&ExportedRecord {
                file: "s.pgn".into(),
                game: game.number,
                line: game.line,
                row: rows.game,
                plies: rows.plies,
                fens: rows.fens,
                too_large: None,
            })
            .unwrap();
    }
    writer.finish().unwrap();
}

/// A part's exit code and summary.
type PartRun = (Option<i32>, Value);

/// Parts 1 to `n` of `path` (each `validate -q --json --all --split K/N`, kept in
/// `dir`), then `merge` of them: each part's exit code and summary, and the merge's
/// output and exit code.
fn merged_parts(dir: &Path, path: &str, n: usize) -> (Vec<PartRun>, Vec<u8>, Option<i32>) {
    let mut parts = Vec::new();
    let mut summaries = Vec::new();
    for k in 1..=n {
        let split = format!("{k}/{n}");
        let (out, err, code) =
            run_out(&["validate", "-q", "--json", "--all", "--split", &split, path]);
        let last = String::from_utf8_lossy(&out)
            .lines()
            .last()
            .map(str::to_owned);
        let summary = serde_json::from_str(&last.unwrap_or_default())
            .unwrap_or_else(|e| panic!("part {k} has no summary ({e}): {err}"));
        summaries.push((code, summary));
        let part = dir.join(format!("part-{k}.jsonl"));
        fs::write(&part, &out).unwrap();
        parts.push(part.to_string_lossy().into_owned());
    }
    let mut args = vec!["merge"];
    args.extend(parts.iter().map(String::as_str));
    let (merged, err, code) = run_out(&args);
    assert!(!merged.is_empty(), "merge: {err}");
    (summaries, merged, code)
}

/// A part of a split run is the row groups that start in its bytes: the parts' records
/// merge to the whole file's, and rows keep their numbers.
#[test]
fn parts_of_a_table_are_row_groups_and_merge() {
    let dir = scratch_dir("export-parts");
    let table = dir.join("groups.parquet");
    table_in_groups_of_40(&table);
    let t = table.to_str().unwrap();
    let (whole, _, code) = run_out(&["validate", "-q", "--json", "--all", t]);
    assert_eq!(code, Some(0));
    let (parts, merged, code) = merged_parts(&dir, t, 4);
    let mut games = 0;
    for (k, (code, summary)) in parts.iter().enumerate() {
        assert_eq!(*code, Some(0), "part {}", k + 1);
        assert_eq!(summary["split"]["row_groups"], json!(true));
        games += summary["games"].as_u64().unwrap();
        assert!(summary["games"].as_u64().unwrap() > 0, "part {}", k + 1);
    }
    assert_eq!(games, 438);
    assert_eq!(code, Some(0));
    let (merged, whole) = (
        String::from_utf8_lossy(&merged),
        String::from_utf8_lossy(&whole),
    );
    let differ = merged.lines().zip(whole.lines()).find(|(a, b)| a != b);
    assert!(merged == whole, "{differ:?}");
    // A Parquet file without games: its columns are named.
    let plies = dir.join("plies.parquet");
    let (_, err, code) = run_out(&[
        "export",
        "-q",
        "--plies",
        plies.to_str().unwrap(),
        "samples/lichess_zh_2018_JannLee-CrazyAra.pgn",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let (_, err, code) = run_out(&["validate", plies.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("without a `movetext` column") && err.contains("file, game, Site, ply"),
        "{err}"
    );
}

/// A games table with a damaged row group (the first page header of its fifth group's
/// movetext overwritten): `validate` reads the ten others, their games keep their rows'
/// numbers and get the records the whole table gives them, and the summary names the
/// group and its rows, counts its 40 games lost and is not complete (exit 2); two jobs
/// and four parts merged say the same.
#[test]
fn a_damaged_row_group_loses_only_its_own_games() {
    let dir = scratch_dir("export-damaged");
    let table = dir.join("groups.parquet");
    table_in_groups_of_40(&table);
    let t = table.to_str().unwrap();
    let (whole, _, code) = run_out(&["validate", "-q", "--json", "--all", t]);
    assert_eq!(code, Some(0));
    let mut bytes = fs::read(&table).unwrap();
    let meta = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(bytes.clone()))
        .unwrap()
        .metadata()
        .clone();
    assert_eq!(meta.num_row_groups(), 11);
    let group = meta.row_group(4);
    let movetext = (0..group.num_columns())
        .find(|&i| group.column(i).column_path().string() == "movetext")
        .unwrap();
    let chunk = group.column(movetext);
    let at = chunk
        .dictionary_page_offset()
        .unwrap_or(chunk.data_page_offset()) as usize;
    bytes[at..at + 12].fill(0xff);
    let damaged = dir.join("damaged.parquet");
    fs::write(&damaged, &bytes).unwrap();
    let d = damaged.to_str().unwrap();

    let records = |out: &[u8]| -> Vec<Value> {
        String::from_utf8_lossy(out)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let (one, err, code) = run_out(&["validate", "-q", "--json", "--all", "-j", "1", d]);
    assert_eq!(code, Some(2), "{err}");
    let one = records(&one);
    let summary = one.last().unwrap();
    assert_eq!(summary["games"], json!(398));
    assert_eq!(summary["lost"], json!(40));
    assert_eq!(summary["complete"], json!(false));
    let message = summary["stream_error"].as_str().unwrap();
    assert!(
        message.starts_with("row group 5 of 11 (rows 161 to 200) cannot be read: "),
        "{message}"
    );
    // Every other game as the whole table gives it (but the file's name).
    let named = |mut r: Value| {
        r.as_object_mut().unwrap().remove("file");
        r
    };
    let kept: Vec<Value> = records(&whole)
        .into_iter()
        .filter(|r| r["type"] == "game")
        .filter(|r| !(161..=200).contains(&r["game"].as_u64().unwrap()))
        .map(named)
        .collect();
    let read: Vec<Value> = one[..one.len() - 1].iter().cloned().map(named).collect();
    assert_eq!(read.len(), 398);
    assert!(read == kept, "the games around the damaged group differ");

    let (two, _, code) = run_out(&["validate", "-q", "--json", "--all", "-j", "2", d]);
    assert_eq!(code, Some(2));
    assert_eq!(records(&two), one);
    let (_, merged, code) = merged_parts(&dir, d, 4);
    assert_eq!(code, Some(2));
    assert_eq!(records(&merged), one);

    // What a person reads.
    let (_, err, _) = run_out(&["validate", d]);
    assert!(
        err.contains("398 games, ")
            && err.contains("40 lost (damaged row groups)")
            && err.contains("398 games read, 40 rows lost: row group 5 of 11 (rows 161 to 200)"),
        "{err}"
    );
    // An output holds every game read, the run ending on the damage.
    let out = dir.join("converted.pgn");
    let o = out.to_str().unwrap();
    let (_, err, code) = run_out(&["pgn", "convert", "--to", "lichess", "-q", "-o", o, d]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("some input was damaged: the outputs hold every game read"),
        "{err}"
    );
    let (again, _, code) = run_out(&["validate", "-q", "--json", o]);
    assert_eq!(code, Some(0));
    assert_eq!(records(&again).last().unwrap()["games"], json!(398));
}

/// Ctrl-C keeps what was exported: the files end (their footers written) with the games
/// read before the stop, and the run exits 130.
#[test]
fn an_interrupted_export_keeps_whole_tables() {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let dir = scratch_dir("export-interrupted");
    let fifo = dir.join("games.pgn");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let game = fs::read("samples/lichess_zh_2018_JannLee-CrazyAra.pgn").unwrap();
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut f = fs::OpenOptions::new().write(true).open(fifo).unwrap();
            // Games, slowly, until the reader goes (EPIPE).
            loop {
                if f.write_all(&game)
                    .and_then(|()| f.write_all(b"\n\n"))
                    .is_err()
                {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        })
    };
    let (games, plies) = (dir.join("g.parquet"), dir.join("p.parquet"));
    let mut child = common::pocketfen(&[
        "export",
        "-j",
        "2",
        "--games",
        games.to_str().unwrap(),
        "--plies",
        plies.to_str().unwrap(),
        fifo.to_str().unwrap(),
    ])
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    common::interrupt(&child);
    let status = child.wait().unwrap();
    writer.join().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    let rows_read = rows(&games);
    assert!(rows_read.len() > 10, "{} games kept", rows_read.len());
    assert!(rows_read.iter().all(|r| r["valid"] == json!(true)));
    let replayed: u64 = rows_read.iter().map(|r| r["plies"].as_u64().unwrap()).sum();
    assert_eq!(rows(&plies).len() as u64, replayed);
    let leftovers: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// `export --openings`: the games table names each game's opening from its moves in
/// `opening_eco`, `opening_name` and `opening_ply`, as `validate --openings` names it in
/// its records; without the flag the three columns are null.
#[test]
fn the_games_table_carries_the_opening_when_asked() {
    let dir = scratch_dir("export-openings");
    let sample = "samples/lichess_zh_2022-2025_bots75.pgn.zst";
    let named = dir.join("named.parquet");
    let plain = dir.join("plain.parquet");
    for (path, flag) in [(&named, Some("--openings")), (&plain, None)] {
        let mut args = vec!["export", "-q", "--games", path.to_str().unwrap()];
        args.extend(flag);
        args.push(sample);
        let (_, err, code) = run_out(&args);
        assert_eq!(code, Some(0), "{err}");
    }
    let (out, _, _) = run_out(&["validate", "--json", "--all", "--openings", sample]);
    let records: Vec<Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r["type"] == "game")
        .collect();
    let rows = rows(&named);
    assert_eq!(rows.len(), records.len());
    let mut seen = 0;
    for (row, rec) in rows.iter().zip(&records) {
        let want = &rec["opening"];
        if want.is_null() {
            assert!(row["opening_eco"].is_null() && row["opening_ply"].is_null());
        } else {
            seen += 1;
            assert_eq!(row["opening_eco"], want["eco"]);
            assert_eq!(row["opening_name"], want["name"]);
            assert_eq!(row["opening_ply"], want["ply"]);
        }
    }
    assert!(seen > 50, "{seen}");
    assert!(rows_all_null(
        &self::rows(&plain),
        &["opening_eco", "opening_name", "opening_ply"]
    ));
    fs::remove_dir_all(&dir).unwrap();
}

fn rows_all_null(rows: &[Map<String, Value>], columns: &[&str]) -> bool {
    rows.iter().all(|r| columns.iter().all(|c| r[*c].is_null()))
}

/// The tables are the same files for any number of jobs: with several, the games table's
/// row groups are encoded on threads of their own while the run goes on.
#[test]
fn the_tables_are_the_same_files_for_any_number_of_jobs() {
    let dir = scratch_dir("export-jobs");
    let mut files = Vec::new();
    for jobs in ["1", "2", "5"] {
        let (games, plies) = (
            dir.join(format!("g{jobs}.parquet")),
            dir.join(format!("p{jobs}.parquet")),
        );
        let mut args = vec![
            "export",
            "-q",
            "-j",
            jobs,
            "--games",
            games.to_str().unwrap(),
            "--plies",
            plies.to_str().unwrap(),
        ];
        let inputs = inputs();
        args.extend(inputs.iter().map(String::as_str));
        let (_, err, code) = run_out(&args);
        assert_eq!(code, Some(0), "-j {jobs}: {err}");
        files.push((fs::read(&games).unwrap(), fs::read(&plies).unwrap()));
    }
    assert!(rows_of_bytes(&files[0].0) > 500);
    for (i, (games, plies)) in files.iter().enumerate().skip(1) {
        assert!(*games == files[0].0, "the games table differs ({i})");
        assert!(*plies == files[0].1, "the plies table differs ({i})");
    }
    // Written alone (its games' rows then hold only their Sites), the plies table is
    // the same file.
    let alone = dir.join("alone.parquet");
    let mut args = vec![
        "export",
        "-q",
        "-j",
        "1",
        "--plies",
        alone.to_str().unwrap(),
    ];
    let inputs = inputs();
    args.extend(inputs.iter().map(String::as_str));
    let (_, err, code) = run_out(&args);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        fs::read(&alone).unwrap() == files[0].1,
        "the plies table alone differs"
    );
}

fn rows_of_bytes(file: &[u8]) -> usize {
    parquet::file::metadata::ParquetMetaDataReader::new()
        .parse_and_finish(&bytes::Bytes::copy_from_slice(file))
        .unwrap()
        .file_metadata()
        .num_rows() as usize
}

/// Bughouse clocks as their writers mean them, in the plies table and in `replay
/// --json`: bughouse-db's plain `{298.21}` is the mover's clock (below zero too,
/// `{-5}`: its time ran out), Chess.com's bughouse `[%clk]` the time the move took.
#[test]
fn bughouse_clocks_are_read_as_their_writers_mean_them() {
    let dir = scratch_dir("export-bughouse-clocks");
    let numbers = |text: &str| -> Vec<f64> {
        text.split('{')
            .skip(1)
            .filter_map(|c| c.split_once('}'))
            .filter_map(|(c, _)| c.trim().parse::<f64>().ok())
            .collect()
    };
    let column = |rows: &[Map<String, Value>], name: &str| -> Vec<f64> {
        rows.iter().filter_map(|r| r[name].as_f64()).collect()
    };
    let annotations = |path: &str, key: &str| -> Vec<f64> {
        let (out, err, code) = run_out(&["replay", "--json", path]);
        assert_eq!(code, Some(0), "{err}");
        let line = String::from_utf8_lossy(&out)
            .lines()
            .next()
            .unwrap()
            .to_owned();
        let record: Value = serde_json::from_str(&line).unwrap();
        record["annotations"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|n| n[key].as_f64())
            .collect()
    };
    for (i, sample) in [
        "grammar-tests/bpgn/ok/bughousedb_1934587.bpgn",
        "grammar-tests/malformed/bpgn/negative-clock.bpgn",
        "grammar-tests/bpgn/ok/chesscom_bughouse_2022_bugchess-example.bpgn",
    ]
    .into_iter()
    .enumerate()
    {
        let text = fs::read_to_string(sample).unwrap();
        let table = dir.join(format!("{i}.parquet"));
        let (_, err, code) = run_out(&["export", "-q", "--plies", table.to_str().unwrap(), sample]);
        assert_eq!(code, Some(0), "{err}");
        let plies = rows(&table);
        if sample.contains("chesscom") {
            // `[%clk 0:00:01.3]`, wrapped lines and all: the seconds of each.
            let moves: Vec<f64> = text
                .split("[%clk")
                .skip(1)
                .map(|c| {
                    let value = c.split(']').next().unwrap().trim();
                    value.split(':').fold(0.0, |t, part| {
                        t * 60.0 + part.trim().parse::<f64>().unwrap()
                    })
                })
                .collect();
            assert_eq!(moves.len(), 41);
            assert_eq!(column(&plies, "elapsed"), moves, "{sample}");
            assert!(column(&plies, "clock").is_empty(), "{sample}");
            assert_eq!(annotations(sample, "elapsed"), moves, "{sample}");
            assert!(annotations(sample, "clock").is_empty(), "{sample}");
        } else {
            let clocks = numbers(&text);
            assert!(clocks.len() > 1, "{sample}");
            assert_eq!(column(&plies, "clock"), clocks, "{sample}");
            assert!(column(&plies, "elapsed").is_empty(), "{sample}");
            assert_eq!(annotations(sample, "clock"), clocks, "{sample}");
        }
    }
}
