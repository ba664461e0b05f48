//! FENs as people paste them: a Lichess analysis URL, or a PGN `[FEN "…"]` tag line, each
//! read as the FEN it carries; and the Lichess analysis URL of a position.
//!
//! ```text
//! url     = [ "http" ["s"] "://" ] [ subdomain "." ] "lichess.org/" ( "analysis" / "editor" )
//!           "/" [ variant "/" ] [ fen ] [ "?" query ] [ "#" fragment ]   ; no fen: the start
//! variant = "standard" / "chess960" / "crazyhouse" / "horde" / "fromPosition" / …
//! fen     = the FEN, spaces written `_` (or `%20`), other bytes percent-encoded
//! tag     = "[" ws "FEN" ws DQUOTE *( "\" char / not DQUOTE ) DQUOTE ws "]"
//! ```

use std::borrow::Cow;
use std::fmt;

use nom::branch::alt;
use nom::bytes::complete::{escaped, is_not, tag, tag_no_case, take_till, take_while1};
use nom::character::complete::{char, multispace0, one_of};
use nom::combinator::{all_consuming, opt, recognize};
use nom::sequence::{delimited, preceded, terminated};
use nom::{IResult, Parser};

use super::{FenField, ParseFenError};
use crate::position::Position;
use crate::setup::Fen;
use crate::variant::{Rules, Variant, guess_variant};

/// A FEN unwrapped from what it was pasted in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pasted<'a> {
    /// The FEN.
    pub fen: Cow<'a, str>,
    /// The variant the URL's path names, when it names one pocketfen plays (Lichess's
    /// `standard`, `chess960` and `fromPosition` are chess).
    pub variant: Option<Variant>,
    /// Lichess's name of that variant, as the URL gives it (`standard`, `crazyhouse`…).
    pub lichess_variant: Option<&'a str>,
    /// Where the FEN's characters stand in the line: the line's column of each (`None`:
    /// the FEN is the line).
    columns: Option<Vec<usize>>,
}

impl Pasted<'_> {
    /// The line's column (1-based, in characters) of the FEN's column `column`: what a
    /// [`ParseFenError`] of the FEN says, told of the line it was pasted in.
    pub fn line_column(&self, column: usize) -> usize {
        match &self.columns {
            None => column,
            Some(at) => match at.get(column.saturating_sub(1)) {
                Some(&c) => c,
                // Past the FEN's end (`end of input`).
                None => at.last().map_or(1, |&c| c + column - at.len()),
            },
        }
    }

    /// `e`, a parse error of [`fen`](Self::fen), located in the line.
    pub fn locate(&self, mut e: ParseFenError) -> ParseFenError {
        e.column = self.line_column(e.column);
        e
    }
}

/// The Lichess variant keys of analysis URLs.
const LICHESS_VARIANTS: &[&str] = &[
    "standard",
    "chess960",
    "crazyhouse",
    "horde",
    "fromPosition",
    "antichess",
    "atomic",
    "kingOfTheHill",
    "racingKings",
    "threeCheck",
];

/// The FEN a pasted line carries: the FEN of a Lichess analysis URL
/// (`https://lichess.org/analysis/crazyhouse/<fen>`, its `_` read as spaces) or of a
/// `[FEN "…"]` tag line; any other line as it is.
///
/// ```
/// use pocketfen::notation::fen::unwrap_pasted;
/// use pocketfen::Variant;
/// let p = unwrap_pasted("https://lichess.org/analysis/crazyhouse/8/8/8/4k3/8/8/8/4K3/Pp_w_-_-_0_1?color=white")?;
/// assert_eq!(p.fen, "8/8/8/4k3/8/8/8/4K3/Pp w - - 0 1");
/// assert_eq!(p.variant, Some(Variant::Crazyhouse));
/// let p = unwrap_pasted(r#"[FEN "8/8/8/4k3/8/8/8/4K3[Pp] w - - 0 1"]"#)?;
/// assert_eq!(p.fen, "8/8/8/4k3/8/8/8/4K3[Pp] w - - 0 1");
/// assert_eq!(p.line_column(1), 7, "the FEN's first character is the line's seventh");
/// assert_eq!(unwrap_pasted("8/8/8/4k3/8/8/8/4K3 w - - 0 1")?.fen, "8/8/8/4k3/8/8/8/4K3 w - - 0 1");
/// // No FEN: the variant's start; the board editor's URLs too.
/// assert_eq!(
///     unwrap_pasted("https://lichess.org/analysis/crazyhouse")?.fen,
///     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1"
/// );
/// assert_eq!(unwrap_pasted("lichess.org/editor/8/8/8/4k3/8/8/8/4K3_w_-_-_0_1")?.fen, "8/8/8/4k3/8/8/8/4K3 w - - 0 1");
/// // A variant pocketfen does not play is refused, not read as chess.
/// let e = unwrap_pasted("https://lichess.org/analysis/atomic/8/8/8/4k3/8/8/8/4K3_w_-_-_0_1").unwrap_err();
/// assert_eq!(e.column, 30);
/// # Ok::<_, pocketfen::notation::fen::ParseFenError>(())
/// ```
///
/// # Errors
///
/// A Lichess URL whose path names a variant pocketfen does not play (`atomic`,
/// `antichess`, `kingOfTheHill`, `racingKings`, `threeCheck`), or a word in the
/// variant's place that is neither a variant nor a FEN's first rank.
pub fn unwrap_pasted(line: &str) -> Result<Pasted<'_>, ParseFenError> {
    let text = line.trim();
    // Byte offsets in `text` are the line's after the leading blanks.
    let lead = line.len() - line.trim_start().len();
    let column_at = |offset: usize| line[..lead + offset].chars().count() + 1;
    if let Ok((_, (mut variant, mut fen))) = all_consuming(analysis_url).parse(text) {
        // `/analysis/crazyhouse` (no FEN): the variant's start.
        let word = fen.trim_end_matches('/');
        if variant.is_none()
            && LICHESS_VARIANTS
                .iter()
                .any(|v| v.eq_ignore_ascii_case(word))
        {
            variant = Some(word);
            fen = "";
        }
        let refused = |key: &str, expected: &'static str| ParseFenError {
            column: column_at(offset_in(text, key)),
            field: FenField::Record,
            expected,
            found: format!("`{key}`"),
        };
        let plays = "a variant pocketfen plays in a Lichess URL (standard, chess960, fromPosition, crazyhouse or horde)";
        if let Some(key) = variant
            && lichess_variant(key).is_none()
        {
            return Err(refused(key, plays));
        }
        // A word where the variant goes that no rank can be (a rank's letters are
        // pieces): a variant Lichess does not have.
        if variant.is_none()
            && let Some((word, _)) = fen.split_once('/')
            && word.chars().all(|c| c.is_ascii_alphabetic())
            && word.chars().any(|c| !"pnbrqkPNBRQK".contains(c))
        {
            return Err(refused(word, plays));
        }
        let (fen, columns) = if fen.is_empty() {
            let v = variant.and_then(lichess_variant).unwrap_or(Variant::Chess);
            let start = v.start().display(super::FenDialect::Lichess).to_string();
            (Cow::Owned(start), None)
        } else {
            let (decoded, at) = url_decode(fen);
            let from = offset_in(text, fen);
            let columns = at.into_iter().map(|o| column_at(from + o)).collect();
            (Cow::Owned(decoded), Some(columns))
        };
        return Ok(Pasted {
            fen,
            variant: variant.and_then(lichess_variant),
            lichess_variant: variant,
            columns,
        });
    }
    if let Ok((_, value)) = all_consuming(fen_tag).parse(text) {
        let from = offset_in(text, value);
        let (fen, at) = if value.contains('\\') {
            let (fen, at) = unescape(value);
            (Cow::Owned(fen), at)
        } else {
            (
                Cow::Borrowed(value),
                value.char_indices().map(|(o, _)| o).collect(),
            )
        };
        return Ok(Pasted {
            fen,
            variant: None,
            lichess_variant: None,
            columns: Some(at.into_iter().map(|o| column_at(from + o)).collect()),
        });
    }
    Ok(Pasted {
        fen: Cow::Borrowed(line),
        variant: None,
        lichess_variant: None,
        columns: None,
    })
}

/// The byte offset of `part`, a slice of `whole`, in it.
fn offset_in(whole: &str, part: &str) -> usize {
    part.as_ptr() as usize - whole.as_ptr() as usize
}

/// The variant pocketfen plays of a Lichess variant key (in any case).
fn lichess_variant(key: &str) -> Option<Variant> {
    let is = |k: &str| key.eq_ignore_ascii_case(k);
    if is("standard") || is("chess960") || is("fromPosition") {
        Some(Variant::Chess)
    } else if is("crazyhouse") {
        Some(Variant::Crazyhouse)
    } else if is("horde") {
        Some(Variant::Horde)
    } else {
        None
    }
}

/// A Lichess analysis URL: its variant key and its (encoded) FEN.
fn analysis_url(i: &str) -> IResult<&str, (Option<&str>, &str)> {
    let scheme = opt(alt((tag_no_case("https://"), tag_no_case("http://"))));
    let subdomain = opt(terminated(
        take_while1(|c: char| c.is_ascii_alphanumeric() || c == '-'),
        char('.'),
    ));
    let host = alt((
        tag_no_case("lichess.org"),
        recognize((subdomain, tag_no_case("lichess.org"))),
    ));
    let variant = opt(terminated(
        take_while1(|c: char| c.is_ascii_alphanumeric()).map_opt(|key: &str| {
            LICHESS_VARIANTS
                .iter()
                .find(|v| v.eq_ignore_ascii_case(key))
                .map(|_| key)
        }),
        char('/'),
    ));
    let fen = take_till(|c| c == '?' || c == '#');
    let page = alt((tag("/analysis/"), tag("/editor/")));
    let (rest, (_, _, _, variant, fen)) = (scheme, host, page, variant, fen).parse(i)?;
    // The query (`?color=black`) and the fragment (`#12`, a ply) say nothing of the FEN.
    let (rest, _) = opt(preceded(one_of("?#"), take_till(|_| false))).parse(rest)?;
    Ok((rest, (variant, fen)))
}

/// A `[FEN "…"]` tag line: the tag's value, escapes still in it.
fn fen_tag(i: &str) -> IResult<&str, &str> {
    let value = delimited(
        char('"'),
        opt(escaped(is_not("\"\\"), '\\', one_of("\"\\"))).map(|v| v.unwrap_or("")),
        char('"'),
    );
    delimited(
        (char('['), multispace0, tag_no_case("FEN"), multispace0),
        value,
        (multispace0, char(']')),
    )
    .parse(i)
}

/// A tag value's escapes (`\"`, `\\`) undone, and the byte offset in `v` of each
/// character of the text.
fn unescape(v: &str) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(v.len());
    let mut at = Vec::with_capacity(v.len());
    let mut chars = v.char_indices();
    while let Some((o, c)) = chars.next() {
        let c = match c {
            '\\' => match chars.next() {
                Some((_, c)) => c,
                None => break,
            },
            c => c,
        };
        out.push(c);
        at.push(o);
    }
    (out, at)
}

/// A URL path's FEN: `_` is a space, and percent-encoding is read (`%20` a space too);
/// and the byte offset in `fen` of each character of the text. Bytes decoded that are no
/// UTF-8 are read lossily, each run of them a `�` at its first byte's offset.
fn url_decode(fen: &str) -> (String, Vec<usize>) {
    let bytes = fen.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        at.push(i);
        match bytes[i] {
            b'_' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 3;
                        continue;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    // A character's offset is its first byte's.
    let mut text = String::with_capacity(out.len());
    let mut offsets = Vec::with_capacity(out.len());
    let mut pos = 0;
    for chunk in out.utf8_chunks() {
        for (o, c) in chunk.valid().char_indices() {
            offsets.push(at[pos + o]);
            text.push(c);
        }
        pos += chunk.valid().len();
        if !chunk.invalid().is_empty() {
            offsets.push(at[pos]);
            text.push(char::REPLACEMENT_CHARACTER);
            pos += chunk.invalid().len();
        }
    }
    (text, offsets)
}

/// Why a position has no Lichess analysis URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UrlError {
    /// A bughouse pair: Lichess analyses one board.
    Pair,
    /// A variant Lichess has no board for.
    Variant(Variant),
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlError::Pair => f.write_str(
                "Lichess has no bughouse board: give one board of the pair (A or B) for a crazyhouse analysis",
            ),
            UrlError::Variant(v) => write!(
                f,
                "Lichess has no {v} board (its analysis board plays chess, chess960, crazyhouse and horde)"
            ),
        }
    }
}

impl std::error::Error for UrlError {}

/// The Lichess analysis URL of a position (`variant` `None`: told from the FEN): the
/// variant in the path, which Lichess needs to read a crazyhouse FEN as one (lila#16886),
/// and the FEN in Lichess's dialect with `_` for its spaces.
///
/// ```
/// use pocketfen::notation::fen::{self, lichess_url};
/// let parsed = fen::parse("8/8/8/4k3/8/8/8/4K3[Pp] w - - 0 1", None)?;
/// assert_eq!(
///     lichess_url(&parsed.fen, None)?,
///     "https://lichess.org/analysis/crazyhouse/8/8/8/4k3/8/8/8/4K3/Pp_w_-_-_0_1"
/// );
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// A bughouse pair, or a variant Lichess has no board for (Loop, Chessgi).
///
/// The en passant square is written only when an en passant capture is legal there, as
/// [`convert_line`](super::convert_line) writes it.
pub fn lichess_url(fen: &Fen, variant: Option<Variant>) -> Result<String, UrlError> {
    let Fen::Single(setup) = fen else {
        return Err(UrlError::Pair);
    };
    let variant = variant.unwrap_or_else(|| guess_variant(fen));
    let key = match variant {
        Variant::Chess => {
            let chess960 = Position::from_setup(setup, Rules::new(Variant::Chess))
                .is_ok_and(|p| p.is_chess960());
            if chess960 { "chess960" } else { "standard" }
        }
        Variant::Crazyhouse => "crazyhouse",
        Variant::Horde => "horde",
        v => return Err(UrlError::Variant(v)),
    };
    let mut setup = setup.clone();
    if variant == Variant::Crazyhouse {
        setup
            .pockets
            .get_or_insert_with(crate::types::ByColor::default);
    } else {
        setup.pockets = None;
    }
    // The en passant square only when a capture there is legal, as every FEN written.
    setup.ep_square = Position::fen_ep_square(&setup, Rules::new(variant));
    let text = setup
        .display(super::FenDialect::Lichess)
        .to_string()
        .replace(' ', "_");
    Ok(format!("https://lichess.org/analysis/{key}/{text}"))
}
