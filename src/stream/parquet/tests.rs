use super::cells::{push_date, push_time};
use super::*;
use arrow_array::{
    Date32Array, Date64Array, LargeStringArray, StringArray, StringViewArray,
    Time32MillisecondArray, Time32SecondArray, Time64MicrosecondArray, Time64NanosecondArray,
};
use arrow_schema::DataType;

#[test]
fn days_read_back_as_dates() {
    assert_eq!(civil_from_days(0), (1970, 1, 1));
    assert_eq!(civil_from_days(19_782), (2024, 2, 29));
    assert_eq!(civil_from_days(-1), (1969, 12, 31));
}

#[test]
fn numbers_dates_and_times_are_written_as_the_formatter_writes_them() {
    use arrow_array::{
        ArrayRef, Int8Array, Int16Array, Int32Array, Int64Array, UInt8Array, UInt16Array,
        UInt32Array, UInt64Array,
    };
    let mut numbers: Vec<i64> = vec![0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10_000];
    numbers.extend([i64::MIN, i64::MIN + 1, i64::MAX, -1, -10, -32_768, 32_767]);
    numbers.extend((0..2000).map(|i| (i * 7919) % 200_001 - 100_000));
    // Each integer type's cells, as tags' values: `+` before a positive rating
    // difference (`signed`), never before 0.
    let cell = |column: &ArrayRef, signed: bool| {
        let mut out = String::new();
        assert!(Cells::new(column.as_ref()).push(
            &mut out,
            0,
            if signed { Kind::Signed } else { Kind::Text }
        ));
        out
    };
    for n in numbers {
        let mut columns: Vec<ArrayRef> = vec![Arc::new(Int64Array::from(vec![n]))];
        if let Ok(v) = i8::try_from(n) {
            columns.push(Arc::new(Int8Array::from(vec![v])));
        }
        if let Ok(v) = i16::try_from(n) {
            columns.push(Arc::new(Int16Array::from(vec![v])));
        }
        if let Ok(v) = i32::try_from(n) {
            columns.push(Arc::new(Int32Array::from(vec![v])));
        }
        if let Ok(v) = u8::try_from(n) {
            columns.push(Arc::new(UInt8Array::from(vec![v])));
        }
        if let Ok(v) = u16::try_from(n) {
            columns.push(Arc::new(UInt16Array::from(vec![v])));
        }
        if let Ok(v) = u32::try_from(n) {
            columns.push(Arc::new(UInt32Array::from(vec![v])));
        }
        if let Ok(v) = u64::try_from(n) {
            columns.push(Arc::new(UInt64Array::from(vec![v])));
        }
        for column in &columns {
            assert_eq!(
                cell(column, false),
                n.to_string(),
                "{:?}",
                column.data_type()
            );
            let signed = if n > 0 {
                format!("+{n}")
            } else {
                n.to_string()
            };
            assert_eq!(cell(column, true), signed, "{:?}", column.data_type());
        }
    }
    let top: ArrayRef = Arc::new(UInt64Array::from(vec![u64::MAX]));
    assert_eq!(cell(&top, false), u64::MAX.to_string());
    // Days from before year 0 to after year 9999, and around the padding's steps.
    let mut days: Vec<i64> = (-800_000..3_000_000).step_by(997).collect();
    days.extend([-719_528, -719_162, -693_961, -1, 0, 1, 2_932_896, 2_932_897]);
    for day in days {
        let (y, m, d) = civil_from_days(day);
        let mut ours = String::new();
        push_date(&mut ours, day);
        assert_eq!(ours, format!("{y:04}.{m:02}.{d:02}"), "day {day}");
    }
    for secs in (-90_000i64..180_000)
        .step_by(37)
        .chain([0, 59, 60, 3599, 3600, 86_399])
    {
        let s = secs.rem_euclid(86_400);
        let mut ours = String::new();
        push_time(&mut ours, secs);
        assert_eq!(
            ours,
            format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
        );
    }
}

/// Every string, date and time type a tag is read from gives the same text for the
/// same value, a null in each gives none, and a type no tag is read from gives none.
#[test]
fn each_type_of_cell_reads_as_its_value() {
    use arrow_array::{ArrayRef, Float64Array};
    let text = |column: ArrayRef, i: usize| {
        let mut out = String::new();
        Cells::new(column.as_ref())
            .push(&mut out, i, Kind::Text)
            .then_some(out)
    };
    let s = "Rated \"Blitz\"";
    let strings: [ArrayRef; 3] = [
        Arc::new(StringArray::from(vec![Some(s), None])),
        Arc::new(LargeStringArray::from(vec![Some(s), None])),
        Arc::new(StringViewArray::from(vec![Some(s), None])),
    ];
    for column in strings {
        assert_eq!(
            text(column.clone(), 0).as_deref(),
            Some("Rated \\\"Blitz\\\"")
        );
        assert_eq!(text(column, 1), None);
    }
    // 2024.02.29 and 01:02:03.
    let dates: [ArrayRef; 2] = [
        Arc::new(Date32Array::from(vec![Some(19_782), None])),
        Arc::new(Date64Array::from(vec![Some(19_782 * 86_400_000 + 5), None])),
    ];
    for column in dates {
        assert_eq!(text(column.clone(), 0).as_deref(), Some("2024.02.29"));
        assert_eq!(text(column, 1), None);
    }
    let times: [ArrayRef; 4] = [
        Arc::new(Time32SecondArray::from(vec![Some(3_723), None])),
        Arc::new(Time32MillisecondArray::from(vec![Some(3_723_999), None])),
        Arc::new(Time64MicrosecondArray::from(vec![
            Some(3_723_000_001),
            None,
        ])),
        Arc::new(Time64NanosecondArray::from(vec![
            Some(3_723_000_000_999),
            None,
        ])),
    ];
    for column in times {
        assert_eq!(text(column.clone(), 0).as_deref(), Some("01:02:03"));
        assert_eq!(text(column, 1), None);
    }
    // A float is written as it is, an integral one as an integer (Elo from pandas).
    let floats: ArrayRef = Arc::new(Float64Array::from(vec![Some(1.5), Some(1500.0), None]));
    assert_eq!(text(floats.clone(), 0).as_deref(), Some("1.5"));
    assert_eq!(text(floats.clone(), 1).as_deref(), Some("1500"));
    assert_eq!(text(floats, 2), None);
}

/// The types other writers give the same data: pyarrow's and Polars' dictionaries
/// (Categorical), binary strings, pandas' floats and timestamps, decimals, booleans.
#[test]
fn other_writers_types_read_as_their_values() {
    use arrow_array::types::{Int8Type, UInt32Type};
    use arrow_array::{
        ArrayRef, BinaryArray, BinaryViewArray, BooleanArray, Decimal128Array, DictionaryArray,
        Float32Array, Int16Array, LargeBinaryArray, NullArray, TimestampMillisecondArray,
        TimestampNanosecondArray,
    };
    let text = |column: &ArrayRef, i: usize, kind: Kind| {
        let mut out = String::new();
        Cells::new(column.as_ref())
            .push(&mut out, i, kind)
            .then_some(out)
    };
    let words = |column: &ArrayRef| {
        (0..column.len())
            .map(|i| text(column, i, Kind::Text))
            .collect::<Vec<_>>()
    };
    let dict: DictionaryArray<UInt32Type> = vec![Some("b\"q"), None, Some("a"), Some("b\"q")]
        .into_iter()
        .collect();
    let dict: ArrayRef = Arc::new(dict);
    assert!(cells::gives_values(dict.data_type()) && cells::holds_text(dict.data_type()));
    assert_eq!(
        words(&dict),
        [
            Some("b\\\"q".to_owned()),
            None,
            Some("a".into()),
            Some("b\\\"q".into())
        ]
    );
    assert_eq!(Cells::new(dict.as_ref()).str(2).as_deref(), Some("a"));
    assert_eq!(Cells::new(dict.as_ref()).str(1), None);
    // A dictionary of ratings, and one whose every row is null (it has no values).
    let ratings: ArrayRef = Arc::new(DictionaryArray::<Int8Type>::new(
        vec![Some(1), Some(0), None].into(),
        Arc::new(Int16Array::from(vec![-4, 6])),
    ));
    let signed: Vec<_> = (0..3).map(|i| text(&ratings, i, Kind::Signed)).collect();
    assert_eq!(signed, [Some("+6".to_owned()), Some("-4".into()), None]);
    let empty: ArrayRef = Arc::new(DictionaryArray::<Int8Type>::new(
        vec![None, None].into(),
        Arc::new(StringArray::from(Vec::<&str>::new())),
    ));
    assert_eq!(words(&empty), [None, None]);
    // Binary strings: UTF-8 as it is, other bytes as U+FFFD.
    let bytes: [&[u8]; 2] = [b"1. e4 e5 *", b"x\xffy"];
    let binaries: [ArrayRef; 3] = [
        Arc::new(BinaryArray::from(bytes.to_vec())),
        Arc::new(LargeBinaryArray::from(bytes.to_vec())),
        Arc::new(BinaryViewArray::from(bytes.to_vec())),
    ];
    for column in &binaries {
        assert!(cells::holds_text(column.data_type()));
        let cells = Cells::new(column.as_ref());
        assert_eq!(cells.str(0).as_deref(), Some("1. e4 e5 *"));
        assert_eq!(cells.str(1).as_deref(), Some("x\u{fffd}y"));
    }
    // NaN is a missing value; an infinity is written (and fits no rating).
    let f32s: ArrayRef = Arc::new(Float32Array::from(vec![
        2100.0,
        0.1,
        f32::NAN,
        f32::INFINITY,
    ]));
    assert_eq!(
        words(&f32s),
        [
            Some("2100".to_owned()),
            Some("0.1".into()),
            None,
            Some("inf".into())
        ]
    );
    let f16s: ArrayRef = Arc::new(arrow_array::Float16Array::from(vec![
        half::f16::from_f32(1500.0),
        half::f16::NAN,
    ]));
    assert!(cells::gives_values(f16s.data_type()));
    assert_eq!(words(&f16s), [Some("1500".to_owned()), None]);
    let decimals: ArrayRef = Arc::new(
        Decimal128Array::from(vec![Some(150_000), Some(-1_250), None])
            .with_precision_and_scale(10, 2)
            .unwrap(),
    );
    assert_eq!(
        words(&decimals),
        [Some("1500".to_owned()), Some("-12.5".into()), None]
    );
    let booleans: ArrayRef = Arc::new(BooleanArray::from(vec![Some(true), None]));
    assert_eq!(words(&booleans), [Some("true".to_owned()), None]);
    // A timestamp (2024-02-29 01:02:03.5) is a date in a date's column, a time in a
    // time's, and both elsewhere.
    let at = (19_782 * 86_400 + 3_723) * 1000 + 500;
    let stamps: [ArrayRef; 2] = [
        Arc::new(TimestampMillisecondArray::from(vec![Some(at), None])),
        Arc::new(
            TimestampNanosecondArray::from(vec![Some(at * 1_000_000), None]).with_timezone("UTC"),
        ),
    ];
    for column in &stamps {
        assert_eq!(text(column, 0, Kind::Date).as_deref(), Some("2024.02.29"));
        assert_eq!(text(column, 0, Kind::Time).as_deref(), Some("01:02:03"));
        assert_eq!(
            text(column, 0, Kind::Text).as_deref(),
            Some("2024.02.29 01:02:03")
        );
        assert_eq!(text(column, 1, Kind::Date), None);
    }
    let nulls: ArrayRef = Arc::new(NullArray::new(2));
    assert!(cells::holds_text(nulls.data_type()));
    assert_eq!(words(&nulls), [None, None]);
    // Types that give no tag's value, and a movetext that is no text.
    use arrow_schema::Field;
    let list = DataType::List(Arc::new(Field::new("item", DataType::Int64, true)));
    assert!(!cells::gives_values(&list));
    assert!(!cells::gives_values(&DataType::Dictionary(
        Box::new(DataType::Int8),
        Box::new(list)
    )));
    assert!(!cells::holds_text(&DataType::Int64));
    let nested = DataType::Dictionary(
        Box::new(DataType::Int8),
        Box::new(DataType::Dictionary(
            Box::new(DataType::Int8),
            Box::new(DataType::Utf8),
        )),
    );
    assert!(!cells::holds_text(&nested) && !cells::gives_values(&nested));
    assert!(!cells::holds_text(&DataType::Dictionary(
        Box::new(DataType::Int8),
        Box::new(DataType::Int64)
    )));
}

#[test]
fn a_row_reads_as_tags_then_its_movetext() {
    use arrow_array::{
        ArrayRef, Date32Array, Int16Array, StringArray, Time32SecondArray, UInt64Array,
    };
    let strings = |v: [Option<&str>; 2]| Arc::new(StringArray::from(v.to_vec())) as ArrayRef;
    let chess960 = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";
    let batch = RecordBatch::try_from_iter([
        (
            "Event",
            strings([Some("Rated \"Blitz\" \\ game\r\nTwo"), None]),
        ),
        ("Site", strings([Some("https://lichess.org/x"), Some("")])),
        (
            "WhiteElo",
            Arc::new(Int16Array::from(vec![Some(1500), None])) as ArrayRef,
        ),
        (
            "WhiteRatingDiff",
            Arc::new(Int16Array::from(vec![6, -4])) as ArrayRef,
        ),
        (
            "UTCDate",
            Arc::new(Date32Array::from(vec![19_782, -1])) as ArrayRef,
        ),
        (
            "UTCTime",
            Arc::new(Time32SecondArray::from(vec![3_723, 0])) as ArrayRef,
        ),
        ("game", Arc::new(UInt64Array::from(vec![7, 8])) as ArrayRef),
        (
            "Opening",
            Arc::new(UInt64Array::from(vec![7, 8])) as ArrayRef,
        ),
        ("movetext", strings([Some("  1. e4 e5 1-0 \n"), None])),
        (
            "fen",
            strings([
                Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
                Some(chess960),
            ]),
        ),
    ])
    .unwrap();
    let columns = tag_columns(&batch);
    assert_eq!(columns.movetext.as_ref().map(|m| m.0), Some(8));
    let text = |i| ParquetGames::game_text(&columns, i);
    assert_eq!(
        text(0),
        "[Event \"Rated \\\"Blitz\\\" \\\\ game  Two\"] [Site \"https://lichess.org/x\"] \
         [WhiteElo \"1500\"] [WhiteRatingDiff \"+6\"] [UTCDate \"2024.02.29\"] \
         [UTCTime \"01:02:03\"] [Opening \"7\"]\n1. e4 e5 1-0\n"
    );
    // Nulls are no tags, `game` is not a tag, a Chess960 start is `[FEN]` and
    // `[SetUp]`, and a game without moves is `*`.
    assert_eq!(
        text(1),
        format!(
            "[Site \"\"] [WhiteRatingDiff \"-4\"] [UTCDate \"1969.12.31\"] \
             [UTCTime \"00:00:00\"] [Opening \"8\"] [FEN \"{chess960}\"] [SetUp \"1\"]\n*\n"
        )
    );
}

/// A file of four row groups (3, 2,500, 3 and 3 rows) whose movetext names its row, in
/// pages of at most 100 rows.
fn four_groups() -> Vec<u8> {
    use arrow_schema::{Field, Schema};
    use parquet::arrow::ArrowWriter;
    use parquet::file::properties::WriterProperties;
    let schema = Arc::new(Schema::new(vec![
        Field::new("Site", DataType::Utf8, true),
        Field::new("movetext", DataType::Utf8, true),
    ]));
    let props = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_data_page_row_count_limit(100)
        .set_write_batch_size(100)
        .build();
    let mut out = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut out, Arc::clone(&schema), Some(props)).unwrap();
    let mut row = 0;
    for rows in [3, 2500, 3, 3] {
        let rows: Vec<usize> = (row..row + rows).collect();
        row += rows.len();
        let sites: Vec<String> = rows.iter().map(|r| format!("https://x/{r}")).collect();
        let moves: Vec<String> = rows
            .iter()
            .map(|r| format!("1. e4 {{ row {r} }} *"))
            .collect();
        let batch = RecordBatch::try_new(
            Arc::clone(&schema),
            vec![
                Arc::new(StringArray::from(sites)),
                Arc::new(StringArray::from(moves)),
            ],
        )
        .unwrap();
        writer.write(&batch).unwrap();
        writer.flush().unwrap();
    }
    writer.close().unwrap();
    out
}

/// Where page `page` of the movetext column of row group `group` starts, and its first
/// row in the group.
fn movetext_page(file: &[u8], group: usize, page: usize) -> (usize, usize) {
    let meta = parquet::file::metadata::ParquetMetaDataReader::new()
        .with_page_index_policy(parquet::file::metadata::PageIndexPolicy::Required)
        .parse_and_finish(&bytes::Bytes::copy_from_slice(file))
        .unwrap();
    let index = meta.page_index_for_row_group(group);
    let at = &index
        .offset_index(1)
        .expect("an offset index")
        .page_locations()[page];
    (at.offset as usize, at.first_row_index as usize)
}

/// The games of `file`, each as its number and the row its movetext names, and what
/// was lost.
fn games_and_damage(file: Vec<u8>) -> (Vec<(usize, usize)>, Option<Damage>) {
    let source = Source::seekable("t.parquet", std::io::Cursor::new(file));
    let (mut games, _) = ParquetGames::open(source, None, usize::MAX).unwrap();
    let mut seen = Vec::new();
    while let Some(g) = games.next_game().unwrap() {
        let text = String::from_utf8(g.bytes).unwrap();
        let row = text
            .split("{ row ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|r| r.parse().ok())
            .expect("the row in the movetext");
        seen.push((g.number, row));
    }
    (seen, games.take_damage())
}

/// A row group that cannot be read loses its own rows, not the groups after it: the
/// games after it keep their rows' numbers, and the damage says where it is and how
/// many games it held; one cut short inside keeps the rows read before the cut.
#[test]
fn a_damaged_row_group_loses_only_its_rows() {
    let whole = four_groups();
    let (games, damage) = games_and_damage(whole.clone());
    assert_eq!(games.len(), 2509);
    assert!(games.iter().all(|&(number, row)| number == row + 1));
    assert_eq!(damage, None);

    // The third group's movetext page header overwritten: none of its rows read.
    let mut third = whole.clone();
    let (at, _) = movetext_page(&whole, 2, 0);
    third[at..at + 12].fill(0xff);
    let (games, damage) = games_and_damage(third);
    let numbers: Vec<usize> = games.iter().map(|g| g.0).collect();
    let expected: Vec<usize> = (1..=2503).chain(2507..=2509).collect();
    assert_eq!(numbers, expected);
    assert!(games.iter().all(|&(number, row)| number == row + 1));
    let damage = damage.expect("the damage told");
    assert_eq!(damage.games, 3);
    assert!(
        damage
            .message
            .starts_with("row group 3 of 4 (rows 2504 to 2506) cannot be read: "),
        "{}",
        damage.message
    );

    // The second group damaged in its sixteenth page (rows 1,500 to 1,599 of the
    // group): its first batch of 1,024 rows is read, the rest of it lost.
    let mut second = whole.clone();
    let (at, first_row) = movetext_page(&whole, 1, 15);
    assert_eq!(first_row, 1500);
    second[at..at + 12].fill(0xff);
    let (games, damage) = games_and_damage(second);
    let numbers: Vec<usize> = games.iter().map(|g| g.0).collect();
    let expected: Vec<usize> = (1..=3 + 1024).chain(2504..=2509).collect();
    assert_eq!(numbers, expected);
    assert!(games.iter().all(|&(number, row)| number == row + 1));
    let damage = damage.expect("the damage told");
    assert_eq!(damage.games, 2500 - 1024);
    assert!(
        damage
            .message
            .starts_with("row group 2 of 4 (rows 4 to 2503) cannot be read after row 1027: "),
        "{}",
        damage.message
    );
}

/// A row group whose footer counts more rows than its columns hold (5 for 3): the rows
/// its columns have are read, the others told lost, and the games after it numbered by
/// the footer's rows.
#[test]
fn a_row_group_shorter_than_its_footer_says_is_told() {
    use parquet::file::metadata::{ParquetMetaDataReader, ParquetMetaDataWriter};
    let whole = four_groups();
    let meta = ParquetMetaDataReader::new()
        .parse_and_finish(&bytes::Bytes::copy_from_slice(&whole))
        .unwrap();
    let footer = u32::from_le_bytes(whole[whole.len() - 8..whole.len() - 4].try_into().unwrap());
    let data = whole.len() - 8 - footer as usize;
    let mut builder = meta.into_builder();
    let mut groups = builder.take_row_groups();
    groups[0] = groups[0]
        .clone()
        .into_builder()
        .set_num_rows(5)
        .build()
        .unwrap();
    let meta = builder.set_row_groups(groups).build();
    let mut file = whole[..data].to_vec();
    ParquetMetaDataWriter::new(&mut file, &meta)
        .finish()
        .unwrap();
    let (games, damage) = games_and_damage(file);
    // The three rows read, then the next group's first row as row 6 of the footer's.
    assert_eq!(games[..4], [(1, 0), (2, 1), (3, 2), (6, 3)]);
    assert_eq!(games.len(), 2509);
    assert!(games[3..].iter().all(|&(number, row)| number == row + 3));
    assert_eq!(
        damage,
        Some(Damage {
            message: "row group 1 of 4 (rows 1 to 5) cannot be read after row 3: its columns end before its rows do".to_owned(),
            games: 2,
            breaks: Vec::new(),
        })
    );
}
