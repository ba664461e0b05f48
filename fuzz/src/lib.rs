//! The checks behind pocketfen's fuzz targets, shared by the targets and kept in one
//! place: each takes the fuzzer's bytes and panics when a law of the library breaks.

use std::io::Cursor;

use pocketfen::bughouse::{BoardId, Match};
use pocketfen::fuzz::{LineIndex, Tokenizer};
use pocketfen::game::Format;
use pocketfen::game::{Converted, Rewrite, Target, convert_game};
use pocketfen::game::{Options, Status, validate_game};
use pocketfen::notation::fen::{self, FenDialect};
use pocketfen::notation::san::{DropStyle, San, SanPlus};
use pocketfen::notation::uci::UciMove;
use pocketfen::run::merge::Merge;
use pocketfen::run::record::SummaryRecord;
use pocketfen::run::{Run, RunOptions, RunRecord, Task};
use pocketfen::stream::{GameSplitter, RawGame, Source, Split, SplitOptions};
use pocketfen::{Bitboard, Color, Fen, Position, Role, Rules, Setup, Variant};

/// The fuzzer's bytes read as a stream of choices.
pub struct Choices<'a> {
    data: &'a [u8],
}

impl<'a> Choices<'a> {
    pub fn new(data: &'a [u8]) -> Choices<'a> {
        Choices { data }
    }
    /// The next byte, or `None` when the input is used up.
    pub fn byte(&mut self) -> Option<u8> {
        let (&b, rest) = self.data.split_first()?;
        self.data = rest;
        Some(b)
    }
    /// An index below `n` (n > 0).
    pub fn index(&mut self, n: usize) -> Option<usize> {
        let hi = self.byte()? as usize;
        let lo = self.byte()? as usize;
        Some((hi << 8 | lo) % n)
    }
    pub fn rest(&self) -> &'a [u8] {
        self.data
    }
}

/// FEN: any line that parses prints in every dialect, and the print parses back (in that
/// dialect) to the same setup and prints the same again; validation never panics.
pub fn fen(data: &[u8]) {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(parsed) = fen::parse(line, None) else {
        return;
    };
    for d in FenDialect::ALL {
        let printed = parsed.fen.display(d).to_string();
        let back = match fen::parse(&printed, Some(d)) {
            Ok(b) => b,
            Err(e) => panic!("{line:?} printed as {d} `{printed}` does not parse: {e}"),
        };
        assert_eq!(back.fen.display(d).to_string(), printed, "{line:?}");
        // A pair prints pockets in the bracket forms only (Chess.com has no pair form).
        if matches!(parsed.fen, Fen::Single(_)) || d != FenDialect::Chesscom {
            let (a, b) = (parsed.fen.boards(), back.fen.boards());
            assert_eq!(a.len(), b.len(), "{line:?} as {d}: `{printed}`");
            for (x, y) in a.iter().zip(b) {
                assert_eq!(&fen::read_back(x, d), y, "{line:?} as {d}: `{printed}`");
            }
        }
    }
    for board in parsed.fen.boards() {
        for v in Variant::ALL {
            if let Ok(pos) = Position::from_setup(board, Rules::new(v)) {
                // A legal position prints as the setup it came from, and plays.
                check_position(&pos);
                let moves = pos.legal_moves();
                if let Some(&m) = moves.first() {
                    let mut p = pos.clone();
                    p.play_unchecked(m);
                    check_position(&p);
                }
            }
        }
    }
}

/// SAN and UCI tokens: whatever parses prints and parses back to the same move (the
/// canonical print leaves glyphs out).
pub fn notation(data: &[u8]) {
    if let Ok(san) = SanPlus::from_ascii(data) {
        for style in [DropStyle::Letter, DropStyle::Bare] {
            let printed = san.to_string_with(style);
            let back = SanPlus::from_ascii(printed.as_bytes())
                .unwrap_or_else(|e| panic!("{data:?} printed as `{printed}`: {e}"));
            assert_eq!(back.san, san.san, "`{printed}`");
            assert_eq!(back.suffix, san.suffix, "`{printed}`");
            assert_eq!(back.to_string_with(style), printed);
        }
    }
    if let Ok(uci) = UciMove::from_ascii(data) {
        let printed = uci.to_string();
        let back = UciMove::from_ascii(printed.as_bytes())
            .unwrap_or_else(|e| panic!("{data:?} printed as `{printed}`: {e}"));
        assert_eq!(back, uci, "`{printed}`");
    }
}

/// Plays up to `plies` random legal moves chosen by `c` from `pos` (the `engine` target
/// checks the positions of such walks; this one only gets somewhere).
fn random_walk(pos: &mut Position, c: &mut Choices<'_>, plies: usize) {
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let Some(i) = c.index(moves.len()) else { break };
        pos.play_unchecked(moves[i]);
    }
}

fn variant_of(b: u8) -> Variant {
    Variant::ALL[b as usize % Variant::ALL.len()]
}

/// SAN resolution: a random legal position, then the rest of the input as a SAN token.
/// Whatever resolves is legal, and every legal move's own SAN resolves back to it.
pub fn resolve(data: &[u8]) {
    let mut c = Choices::new(data);
    let Some(v) = c.byte() else { return };
    let Some(n) = c.byte() else { return };
    let mut pos = Position::start(variant_of(v));
    let plies = usize::from(n % 64);
    // The walk takes two bytes a ply; the token is what follows.
    let (walk, token) = c.rest().split_at((plies * 2).min(c.rest().len()));
    random_walk(&mut pos, &mut Choices::new(walk), plies);
    if let Ok(san) = SanPlus::from_ascii(token) {
        for strict in [false, true] {
            if let Ok((m, _)) = san.resolve(&pos, strict) {
                assert!(pos.is_legal(m), "{:?} resolved to illegal {m:?}", san);
            }
        }
        let plain = san.san.to_move(&pos);
        if let Ok(m) = plain {
            assert!(pos.is_legal(m));
        }
    }
    if let Ok(uci) = UciMove::from_ascii(token)
        && let Ok(m) = uci.to_move(&pos)
    {
        assert!(pos.is_legal(m), "{uci} resolved to illegal {m:?}");
    }
    for m in pos.legal_moves() {
        let san = SanPlus::from_move(&pos, m);
        for style in [DropStyle::Letter, DropStyle::Bare] {
            let text = san.to_string_with(style);
            let back: SanPlus = text.parse().unwrap_or_else(|e| panic!("`{text}`: {e}"));
            let (again, defects) = back
                .resolve(&pos, true)
                .unwrap_or_else(|e| panic!("`{text}` does not resolve: {e}"));
            assert_eq!(again, m, "`{text}`");
            assert!(
                defects.is_empty(),
                "canonical `{text}` has defects {defects:?}"
            );
        }
        assert_eq!(San::from_move(&pos, m).to_move(&pos).ok(), Some(m));
        let uci = m.to_uci(pos.is_chess960());
        assert_eq!(uci.to_move(&pos).ok(), Some(m), "{uci}");
    }
}

/// The tokenizer: tokens are in order, never overlap, quote the text they stand on, skip
/// only white space (byte-order marks included), and every offset has a line and column
/// (lines end at LF, CRLF or a lone CR).
pub fn tokenizer(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut index = LineIndex::at(&text, 1, 1);
    let mut last_end = 0;
    // Lines counted by hand, for comparison.
    let (mut newlines, mut line_start) = (0, 0);
    let bytes = text.as_bytes();
    let mut count_lines = |from: usize, to: usize| {
        for i in from..to {
            let crlf = bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n');
            if bytes[i] == b'\n' || (bytes[i] == b'\r' && !crlf) {
                newlines += 1;
                line_start = i + 1;
            }
        }
        (newlines, line_start)
    };
    let blank = |s: &str| {
        s.chars()
            .all(|c| c.is_ascii_whitespace() || c == '\u{feff}')
    };
    for t in Tokenizer::new(&text) {
        assert!(t.offset >= last_end, "tokens overlap at {}", t.offset);
        assert!(!t.text.is_empty(), "empty token at {}", t.offset);
        assert_eq!(&text[t.offset..t.offset + t.text.len()], t.text);
        assert!(
            blank(&text[last_end..t.offset]),
            "text skipped before {}",
            t.offset
        );
        let (line, column) = index.locate(t.offset);
        let (newlines, start) = count_lines(last_end, t.offset);
        assert_eq!(line, newlines + 1);
        if t.offset - start < 256 {
            assert_eq!(column, text[start..t.offset].chars().count() + 1);
        }
        last_end = t.offset + t.text.len();
        count_lines(t.offset, last_end);
    }
    assert!(blank(&text[last_end..]));
}

/// Whole archives: split, validate under options from the first byte, convert to every
/// target; a game that converts validates again to the same length.
/// The games a splitter hands out, and whether each is over its size limit, do not
/// depend on how many bytes each read of the stream gives (issue 25.3: the parts of a
/// split file read from other offsets than one run does), with a small limit that no
/// line is longer than (a line over the limit is read in pieces, and what it starts is
/// judged on the piece at hand: the guarantee stops there).
fn split_by_any_reads(flags: u8, body: &[u8]) {
    let longest = body
        .split(|&b| b == b'\n' || b == b'\r')
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0);
    let max = longest + 2 + usize::from(flags);
    type Games = Vec<(usize, usize, u64, Option<u64>, Vec<u8>)>;
    let games = |capacity: usize| -> Games {
        let reader = std::io::BufReader::with_capacity(capacity, body);
        let mut splitter = GameSplitter::with_options(
            reader,
            SplitOptions {
                max_game_bytes: max,
                ..SplitOptions::default()
            },
        );
        let mut out = Vec::new();
        while let Ok(Some(g)) = splitter.next_game() {
            out.push((g.number, g.line, g.offset, g.too_large, g.bytes));
        }
        out
    };
    let whole = games(body.len().max(1));
    // A byte or two at a time too: a byte-order mark first, read so, once panicked.
    for capacity in [1, 2, 7, 251] {
        assert!(
            games(capacity) == whole,
            "reads of {capacity} bytes split otherwise"
        );
    }
}

pub fn validate(data: &[u8]) {
    let Some((&flags, body)) = data.split_first() else {
        return;
    };
    let opts = Options {
        variant: (flags & 0x80 != 0).then(|| variant_of(flags >> 4)),
        strict: flags & 1 != 0,
        variations: flags & 2 != 0,
        drop_mate: flags & 4 == 0,
        format: match flags >> 3 & 3 {
            0 => Format::Auto,
            1 => Format::Bpgn,
            _ => Format::Pgn,
        },
    };
    split_by_any_reads(flags, body);
    let mut splitter = GameSplitter::new(Cursor::new(body));
    let mut count = 0;
    while let Ok(Some(game)) = splitter.next_game() {
        count += 1;
        assert_eq!(game.number, count);
        let report = validate_game(&game, &opts);
        for p in &report.problems {
            assert!(p.line >= game.line && p.column >= 1, "{p:?}");
        }
        // The law of `pgn convert`: it writes exactly the games that `validate` accepts
        // with the same options and variations on (a variation's illegal move aside: it
        // is a warning, the variation written up to it, except under `--strict`, where
        // it stays an error), and what it writes validates again to the same plies.
        let judged = Options {
            variations: true,
            ..opts
        };
        let judged_report = validate_game(&game, &judged);
        let verdict = if opts.strict {
            judged_report
        } else {
            kept_up_to(judged_report)
        };
        for target in [Target::Lichess, Target::Chesscom, Target::Xboard] {
            let text = match convert_game(&game, &Rewrite::to(target), &opts) {
                Converted::Refused(r) => {
                    assert_eq!(r, verdict, "convert refuses in validate's words");
                    continue;
                }
                Converted::Game(text, _) => text,
            };
            assert_eq!(
                verdict.status,
                Status::Ok,
                "{target:?} wrote a game validate refuses"
            );
            let again = RawGame::new(text.into_bytes());
            let r = validate_game(&again, &judged);
            assert_eq!(
                r.status,
                Status::Ok,
                "{target:?} output does not validate: {:?}\n{}",
                r.problems,
                String::from_utf8_lossy(&again.bytes)
            );
            assert_eq!(r.plies, verdict.plies);
        }
    }
}

/// `validate --variations`'s report as `pgn convert` words it: a variation's illegal
/// move (an error at no ply, `in a variation`) is a warning that the variation is kept
/// up to it, and the game is refused only for its other errors.
fn kept_up_to(mut r: pocketfen::game::GameReport) -> pocketfen::game::GameReport {
    use pocketfen::Severity;
    for p in &mut r.problems {
        if p.severity == Severity::Error
            && p.ply.is_none()
            && p.reason.ends_with(" (in a variation)")
        {
            p.severity = Severity::Warning;
            p.reason.push_str("; the variation is kept up to this move");
        }
    }
    if r.problems.iter().all(|p| p.severity != Severity::Error) {
        r.status = Status::Ok;
    }
    r
}

/// The engine under random play: board, pockets and promoted set stay consistent, the
/// material of a pocket game is conserved, and positions survive a FEN round trip.
pub fn engine(data: &[u8]) {
    let mut c = Choices::new(data);
    let Some(v) = c.byte() else { return };
    if v % 7 == 6 {
        return bughouse(&mut c);
    }
    let variant = variant_of(v);
    let mut pos = Position::start(variant);
    let total = material(&pos);
    for _ in 0..400 {
        let moves = pos.legal_moves();
        let Some(i) = (!moves.is_empty()).then(|| c.index(moves.len())).flatten() else {
            break;
        };
        let m = moves[i];
        assert!(pos.is_legal(m));
        let handed = pos.play_unchecked(m);
        check_position(&pos);
        match variant {
            Variant::Crazyhouse | Variant::Loop | Variant::Chessgi => {
                assert_eq!(material(&pos), total, "material after {m:?}");
                assert!(handed.is_none());
            }
            Variant::Bughouse => {
                // Alone on its board, a bughouse position hands captures away.
                assert_eq!(handed.is_some(), m.capture().is_some());
            }
            _ => {}
        }
    }
}

/// A bughouse match under random play: all 64 pieces stay on the two boards or in the
/// four pockets.
fn bughouse(c: &mut Choices<'_>) {
    let mut game = Match::new().with_drop_mate(c.byte().is_some_and(|b| b & 1 == 0));
    let count = |g: &Match| {
        [BoardId::A, BoardId::B]
            .into_iter()
            .map(|id| material(g.board(id)))
            .sum::<u32>()
    };
    let total = count(&game);
    assert_eq!(total, 64);
    while let Some(b) = c.byte() {
        let id = if b & 1 == 0 { BoardId::A } else { BoardId::B };
        let moves = game.board(id).legal_moves();
        if moves.is_empty() {
            continue;
        }
        let Some(i) = c.index(moves.len()) else { break };
        game.play(id, moves[i]).expect("a generated move is legal");
        check_position(game.board(id));
        check_position(game.board(id.partner()));
        assert_eq!(count(&game), total);
    }
}

/// Pieces on the board plus pieces in both pockets.
fn material(pos: &Position) -> u32 {
    let p = pos.pockets();
    pos.board().occupied().count() + p.white.count() + p.black.count()
}

/// A position's internal consistency, and its FEN round trip.
pub fn check_position(pos: &Position) {
    let b = pos.board();
    let white = b.by_color(Color::White);
    let black = b.by_color(Color::Black);
    assert!((white & black).is_empty());
    assert_eq!(white | black, b.occupied());
    let mut roles = Bitboard::EMPTY;
    for r in Role::ALL {
        assert!((roles & b.by_role(r)).is_empty(), "two roles on a square");
        roles |= b.by_role(r);
    }
    assert_eq!(roles, b.occupied());
    assert!(
        (pos.promoted() & !b.occupied()).is_empty(),
        "promoted empty square"
    );
    assert!(
        (pos.promoted() & (b.by_role(Role::King) | b.by_role(Role::Pawn))).is_empty(),
        "a promoted king or pawn"
    );
    for color in [Color::White, Color::Black] {
        assert_eq!(
            pos.pockets().get(color).get(Role::King),
            0,
            "a king in a pocket"
        );
    }
    if !pos.variant().has_drops() {
        assert!(pos.pockets().white.is_empty() && pos.pockets().black.is_empty());
    }
    let setup = pos.to_setup();
    for d in FenDialect::ALL {
        let text = setup.display(d).to_string();
        let back: Setup = text.parse().unwrap_or_else(|e| panic!("`{text}`: {e}"));
        let back = Position::from_setup(&back, pos.rules())
            .unwrap_or_else(|e| panic!("`{text}` is not legal again: {e}"));
        assert_eq!(back.repetition_key(), pos.repetition_key(), "`{text}`");
        assert_eq!(
            back.legal_moves().len(),
            pos.legal_moves().len(),
            "`{text}`"
        );
    }
}

/// The text the `archive` target packs: the start of the Lichess sample, a crazyhouse
/// game with comments and a Horde game (their provenance is `samples/SOURCES.md`).
fn archive_text() -> &'static [u8] {
    static TEXT: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        let lichess = include_bytes!("../../samples/lichess_standard_2025-05_sample438.pgn");
        let mut text = lichess[..12_000].to_vec();
        text.extend_from_slice(b"\n\n");
        text.extend_from_slice(include_bytes!(
            "../../samples/lichess_zh_2018_JannLee-CrazyAra.pgn"
        ));
        text.extend_from_slice(b"\n");
        text.extend_from_slice(include_bytes!(
            "../../samples/lichess_horde_2022_Daymon_Rivera-pripredi.pgn"
        ));
        text
    })
}

/// A damaged archive to read, and when its damage is confined to one pzstd frame, what
/// the reading must keep.
struct Archive {
    file: Vec<u8>,
    confined: Option<Confined>,
}

/// Damage confined to one zstd frame of a pzstd file: the frame's bytes in the damaged
/// file, and the text it held.
struct Confined {
    /// The file undamaged.
    whole: Vec<u8>,
    frame: std::ops::Range<usize>,
    /// The text, and the part of it in the damaged frame.
    text: Vec<u8>,
    lost: std::ops::Range<usize>,
}

/// An archive in one of the layouts whose damage pocketfen steps over, from the fuzzer's
/// choices: the layout, the text's line ends, its frames' size, then damage (bytes
/// XOR-ed, the file cut short; for a third of pzstd files, bytes of one frame only); or,
/// for layout 4, the fuzzer's bytes as they are.
fn archive_file(c: &mut Choices<'_>) -> Option<Archive> {
    let layout = c.byte()? % 5;
    if layout == 4 {
        return Some(Archive {
            file: c.rest().to_vec(),
            confined: None,
        });
    }
    let ends = c.byte()?;
    let text: Vec<u8> = match ends % 3 {
        0 => archive_text().to_vec(),
        1 => archive_text()
            .iter()
            .flat_map(|&b| {
                if b == b'\n' {
                    vec![b'\r', b'\n']
                } else {
                    vec![b]
                }
            })
            .collect(),
        _ => archive_text()
            .iter()
            .map(|&b| if b == b'\n' { b'\r' } else { b })
            .collect(),
    };
    let size = 512 + 256 * usize::from(c.byte()? % 32);
    let mut file = Vec::new();
    // Each pzstd frame's bytes in the file.
    let mut frames = Vec::new();
    for piece in text.chunks(size) {
        match layout {
            // pzstd: each frame announced by a skippable frame holding its size.
            0 => {
                let frame = zstd::encode_all(piece, 1).ok()?;
                file.extend_from_slice(&0x184d_2a50u32.to_le_bytes());
                file.extend_from_slice(&4u32.to_le_bytes());
                file.extend_from_slice(&(frame.len() as u32).to_le_bytes());
                frames.push(file.len()..file.len() + frame.len());
                file.extend_from_slice(&frame);
            }
            // BGZF: gzip members giving their size in a `BC` field.
            1 => file.extend_from_slice(&bgzf_block(piece)?),
            // pbzip2: independent bzip2 streams, one after another.
            2 => {
                use std::io::Write;
                let mut enc = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::new(1));
                enc.write_all(piece).ok()?;
                file.extend_from_slice(&enc.finish().ok()?);
            }
            // Plain text.
            _ => file.extend_from_slice(piece),
        }
    }
    if layout == 1 {
        file.extend_from_slice(&bgzf_block(b"")?);
    }
    // A third of pzstd files: bytes of one frame damaged (its announcement left whole),
    // nothing cut.
    if layout == 0 && c.byte()? % 3 == 0 {
        let k = c.index(frames.len())?;
        let frame = frames[k].clone();
        let whole = file.clone();
        while let (Some(x), Some(at)) = (c.byte(), c.index(frame.len())) {
            file[frame.start + at] ^= x.max(1);
        }
        let lost = k * size..((k + 1) * size).min(text.len());
        return Some(Archive {
            file,
            confined: Some(Confined {
                whole,
                frame,
                text,
                lost,
            }),
        });
    }
    // Bytes damaged while the fuzzer's input lasts (three of its bytes each), then
    // perhaps the file cut short.
    while let (Some(op), Some(at)) = (c.byte(), c.index(file.len().max(1))) {
        match op {
            0 => {
                file.truncate(at);
                break;
            }
            x => {
                if let Some(b) = file.get_mut(at) {
                    *b ^= x;
                }
            }
        }
    }
    Some(Archive {
        file,
        confined: None,
    })
}

/// One BGZF block (a gzip member with the `BC` extra field) holding `text`.
fn bgzf_block(text: &[u8]) -> Option<Vec<u8>> {
    use std::io::Write;
    let mut deflate = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    deflate.write_all(text).ok()?;
    let data = deflate.finish().ok()?;
    let mut crc = flate2::Crc::new();
    crc.update(text);
    let size = u16::try_from(18 + data.len() + 8 - 1).ok()?;
    let mut block = vec![
        0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 6, 0, b'B', b'C', 2, 0,
    ];
    block.extend_from_slice(&size.to_le_bytes());
    block.extend_from_slice(&data);
    block.extend_from_slice(&crc.sum().to_le_bytes());
    block.extend_from_slice(&(text.len() as u32).to_le_bytes());
    Some(block)
}

/// A run's records of `file` (its total left out), on `jobs` threads, of the whole file
/// or of one part.
fn archive_records(file: &[u8], split: Option<Split>, jobs: usize) -> Vec<RunRecord> {
    let source = Source::seekable("fuzz.archive", Cursor::new(file.to_vec()));
    let opts = RunOptions {
        split,
        jobs,
        ..RunOptions::default()
    };
    Run::new(vec![source], Task::Validate { all: true }, opts)
        .filter(|r| !matches!(r, RunRecord::Total(_)))
        .collect()
}

fn values(records: &[RunRecord]) -> Vec<serde_json::Value> {
    records
        .iter()
        .map(|r| serde_json::to_value(r).expect("a record is JSON"))
        .collect()
}

/// Archives in every layout whose damage is stepped over (pzstd frames, BGZF blocks,
/// pbzip2 streams), plain, or any bytes, damaged anywhere: the run never panics, reads
/// the same records on one thread and on three, and parts of it (2 to 4) that merge give
/// those records too. When the damage is confined to one pzstd frame that no longer
/// decodes, every game whose text lies outside that frame is read as it was.
pub fn archive(data: &[u8]) {
    let mut c = Choices::new(data);
    let Some(parts) = c.byte().map(|b| 2 + usize::from(b % 3)) else {
        return;
    };
    let Some(Archive { file, confined }) = archive_file(&mut c) else {
        return;
    };
    // To look at a failing case's file with the command line:
    // `POCKETFEN_FUZZ_DUMP=f.pgn.zst cargo fuzz run archive CRASH`.
    if let Some(path) = std::env::var_os("POCKETFEN_FUZZ_DUMP") {
        std::fs::write(path, &file).expect("the dump is written");
    }
    let one_records = archive_records(&file, None, 1);
    if let Some(confined) = &confined {
        keeps_the_other_frames(&file, confined, &one_records);
    }
    let one = values(&one_records);
    let three = values(&archive_records(&file, None, 3));
    if let Some(d) = first_difference(&three, &one) {
        panic!("-j 3 reads otherwise than -j 1: {d}");
    }
    let records: Vec<Vec<RunRecord>> = (1..=parts)
        .map(|k| archive_records(&file, Some(Split::new(k, parts).expect("a part")), 1))
        .collect();
    let summaries: Vec<SummaryRecord> = records
        .iter()
        .filter_map(|r| match r.last() {
            Some(RunRecord::Summary(s)) => Some(s.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(summaries.len(), parts, "every part ends in its summary");
    // A file the parts cannot be merged from is refused (one-stream compression, a game
    // across two parts' meeting point): nothing to compare then.
    let Ok(merge) = Merge::new(&summaries) else {
        return;
    };
    let mut merged = Vec::new();
    for (k, part) in records.into_iter().enumerate().take(merge.parts_used()) {
        for mut r in part {
            if matches!(r, RunRecord::Summary(_)) {
                continue;
            }
            merge.renumber(k, &mut r);
            merged.push(r);
        }
    }
    merged.push(RunRecord::Summary(merge.summary().clone()));
    if let Some(d) = first_difference(&values(&merged), &one) {
        panic!("{parts} parts merge otherwise than one run: {d}");
    }
}

/// The games of a run's records, in order.
fn reports(records: &[RunRecord]) -> impl Iterator<Item = &pocketfen::game::GameReport> {
    records.iter().filter_map(|r| match r {
        RunRecord::Game(g) => Some(&g.report),
        _ => None,
    })
}

/// A pzstd file whose damage lies in one frame that the decoder refuses: every valid
/// game of the undamaged file whose text lies wholly outside that frame's (and that
/// follows a game with plies) is read, and valid, from the damaged one (the frame's
/// text is lost, not the file's rest), also when its damage (a block's size) makes it
/// want more bytes than it has. A frame that still decodes alone (to other text: the
/// builder's frames carry no checksum) asks nothing.
fn keeps_the_other_frames(file: &[u8], confined: &Confined, records: &[RunRecord]) {
    if zstd::decode_all(&file[confined.frame.clone()]).is_ok() {
        return;
    }
    let text = &confined.text;
    // The games' starts: `[Event ` at a line's start (every game of the text has it).
    let starts: Vec<usize> = (0..text.len())
        .filter(|&i| {
            text[i..].starts_with(b"[Event ") && (i == 0 || matches!(text[i - 1], b'\n' | b'\r'))
        })
        .collect();
    let whole = archive_records(&confined.whole, None, 1);
    let before: Vec<_> = reports(&whole).collect();
    assert_eq!(
        before.len(),
        starts.len(),
        "the undamaged file's games are those of its text"
    );
    let lost = &confined.lost;
    let ends = starts.iter().skip(1).copied().chain([text.len()]);
    // A game after one with no plies is left out: the search for where reading goes on
    // after a break knows a game's start by the movetext before it.
    let after_plies = std::iter::once(true).chain(before.iter().map(|g| g.plies > 0));
    let kept = before
        .iter()
        .zip(after_plies)
        .zip(starts.iter().copied().zip(ends))
        .filter(|((g, after_plies), (start, end))| {
            g.status == Status::Ok && *after_plies && (*end <= lost.start || *start >= lost.end)
        })
        .count();
    let read = reports(records).filter(|g| g.status == Status::Ok).count();
    assert!(
        read >= kept,
        "damage in the zstd frame at byte {} (text {lost:?}) lost games outside it: \
         {read} valid games read, {kept} lie outside the frame",
        confined.frame.start
    );
}

/// Where two runs' records first differ, both sides shown; `None` when they are equal.
fn first_difference(a: &[serde_json::Value], b: &[serde_json::Value]) -> Option<String> {
    if a == b {
        return None;
    }
    let i = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    Some(format!(
        "record {i} of {} against {}: {} against {}",
        a.len(),
        b.len(),
        a.get(i).map_or("none".to_owned(), ToString::to_string),
        b.get(i).map_or("none".to_owned(), ToString::to_string)
    ))
}
