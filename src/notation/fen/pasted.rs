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
    /// Lichess's name of that variant, as the URL gives it (`atomic`, `crazyhouse`…).
    pub lichess_variant: Option<&'a str>,
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
/// let p = unwrap_pasted("https://lichess.org/analysis/crazyhouse/8/8/8/4k3/8/8/8/4K3/Pp_w_-_-_0_1?color=white");
/// assert_eq!(p.fen, "8/8/8/4k3/8/8/8/4K3/Pp w - - 0 1");
/// assert_eq!(p.variant, Some(Variant::Crazyhouse));
/// let p = unwrap_pasted(r#"[FEN "8/8/8/4k3/8/8/8/4K3[Pp] w - - 0 1"]"#);
/// assert_eq!(p.fen, "8/8/8/4k3/8/8/8/4K3[Pp] w - - 0 1");
/// assert_eq!(unwrap_pasted("8/8/8/4k3/8/8/8/4K3 w - - 0 1").fen, "8/8/8/4k3/8/8/8/4K3 w - - 0 1");
/// // No FEN: the variant's start; the board editor's URLs too.
/// assert_eq!(
///     unwrap_pasted("https://lichess.org/analysis/crazyhouse").fen,
///     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1"
/// );
/// assert_eq!(unwrap_pasted("lichess.org/editor/8/8/8/4k3/8/8/8/4K3_w_-_-_0_1").fen, "8/8/8/4k3/8/8/8/4K3 w - - 0 1");
/// ```
pub fn unwrap_pasted(line: &str) -> Pasted<'_> {
    let text = line.trim();
    if let Ok((_, (mut variant, mut fen))) = all_consuming(analysis_url).parse(text) {
        // `/analysis/crazyhouse` (no FEN): the variant's start.
        if variant.is_none()
            && let Some(key) = LICHESS_VARIANTS
                .iter()
                .find(|v| v.eq_ignore_ascii_case(fen.trim_end_matches('/')))
        {
            variant = Some(key);
            fen = "";
        }
        let fen = if fen.is_empty() {
            let v = variant.and_then(lichess_variant).unwrap_or(Variant::Chess);
            Cow::Owned(v.start().display(super::FenDialect::Lichess).to_string())
        } else {
            Cow::Owned(url_decode(fen))
        };
        return Pasted {
            fen,
            variant: variant.and_then(lichess_variant),
            lichess_variant: variant,
        };
    }
    if let Ok((_, fen)) = all_consuming(fen_tag).parse(text) {
        let fen = if fen.contains('\\') {
            Cow::Owned(unescape(fen))
        } else {
            Cow::Borrowed(fen)
        };
        return Pasted {
            fen,
            variant: None,
            lichess_variant: None,
        };
    }
    Pasted {
        fen: Cow::Borrowed(line),
        variant: None,
        lichess_variant: None,
    }
}

/// The variant pocketfen plays of a Lichess variant key.
fn lichess_variant(key: &str) -> Option<Variant> {
    match key {
        "standard" | "chess960" | "fromPosition" => Some(Variant::Chess),
        "crazyhouse" => Some(Variant::Crazyhouse),
        "horde" => Some(Variant::Horde),
        _ => None,
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

/// A tag value's escapes (`\"`, `\\`) undone.
fn unescape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    let mut chars = v.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            c => out.push(c),
        }
    }
    out
}

/// A URL path's FEN: `_` is a space, and percent-encoding is read (`%20` a space too).
fn url_decode(fen: &str) -> String {
    let bytes = fen.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
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
    String::from_utf8_lossy(&out).into_owned()
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
