//! The commands of a move's comment, as Lichess, Chess.com and ChessBase write them, read
//! into typed values: clocks (`[%clk 0:03:00]`, `[%clkc …]`), the time a move took
//! (`[%emt 0:00:03]`), the engine's evaluation (`[%eval 0.25]`, `[%eval #-3]`, with an
//! optional depth: `[%eval 0.25,18]`), arrows (`[%cal Ge2e4,Rd7d5]`) and marked squares
//! (`[%csl Rd4]`).
//!
//! ```text
//! command  = "[%" name SP value "]"
//! time     = int *3(":" int) ["." digits]        ; [[[days:]hours:]minutes:]seconds
//! eval     = (["+" / "-"] int ["." digits] / "#" ["+" / "-"] int) ["," int]
//! arrows   = mark square square *("," mark square square)
//! squares  = mark square *("," mark square)
//! mark     = "G" / "R" / "Y" / "B"
//! ```
//!
//! Other commands (`[%timestamp …]`) are left alone; a known command whose value does
//! not read is an [`AnnotationError`], with its place in the comment.
//!
//! ```
//! use pocketfen::game::{Eval, read_annotations};
//! let (notes, errors) = read_annotations(" [%eval #-3] [%clk 0:02:59.5] [%cal Ge2e4] ");
//! assert_eq!(notes.eval, Some(Eval::Mate(-3)));
//! assert_eq!(notes.clock.map(|c| c.as_millis()), Some(179_500));
//! assert_eq!(notes.arrows[0].to.to_string(), "e4");
//! assert!(errors.is_empty());
//! ```

use std::fmt;
use std::time::Duration;

use nom::branch::alt;
use nom::character::complete::{char, digit1, multispace0, one_of};
use nom::combinator::{all_consuming, map, map_res, opt, recognize};
use nom::multi::separated_list1;
use nom::sequence::{delimited, preceded};
use nom::{IResult, Parser};

use crate::types::Square;

mod quick;

pub(crate) use quick::{lichess_eval_clock, lone_clock};
use quick::{quick_eval, quick_time};

/// The colour of an arrow or a marked square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mark {
    /// `G`.
    Green,
    /// `R`.
    Red,
    /// `Y`.
    Yellow,
    /// `B`.
    Blue,
}

impl Mark {
    /// `G`, `R`, `Y` or `B`.
    pub fn letter(self) -> char {
        match self {
            Mark::Green => 'G',
            Mark::Red => 'R',
            Mark::Yellow => 'Y',
            Mark::Blue => 'B',
        }
    }
}

/// An arrow drawn on the board (`[%cal Ge2e4]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Arrow {
    /// Its colour.
    pub mark: Mark,
    /// Where it starts.
    pub from: Square,
    /// Where it points.
    pub to: Square,
}

/// A marked square (`[%csl Rd4]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Highlight {
    /// Its colour.
    pub mark: Mark,
    /// The square.
    pub square: Square,
}

/// An engine's evaluation, from White's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Eval {
    /// An advantage in centipawns (`[%eval 0.25]` is 25).
    Centipawns(i32),
    /// Mate in this many moves, for White when positive (`[%eval #-3]` is -3). `0`: the
    /// side to move is mated; `#0` and `#-0` both read as `Mate(0)`, since the position
    /// tells who.
    Mate(i32),
}

/// What a comment's commands say of its move.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Annotations {
    /// The mover's remaining time (`%clk`, or a bughouse-db clock `{298.21}`).
    pub clock: Option<Duration>,
    /// How far the mover's clock is below zero: a bughouse-db clock `{-0.576}` (its
    /// time ran out). It and [`clock`](Self::clock) are never both set; JSON writes it
    /// as a negative `clock`.
    pub overtime: Option<Duration>,
    /// A correspondence clock (`%clkc`).
    pub correspondence_clock: Option<Duration>,
    /// The time the move took (`%emt`).
    pub elapsed: Option<Duration>,
    /// The evaluation (`%eval`).
    pub eval: Option<Eval>,
    /// The depth the evaluation was searched to, when given (`[%eval 0.25,18]`).
    pub depth: Option<u32>,
    /// Arrows (`%cal`).
    pub arrows: Vec<Arrow>,
    /// Marked squares (`%csl`).
    pub highlights: Vec<Highlight>,
}

impl Annotations {
    /// Whether the comment had none of the commands read here.
    pub fn is_empty(&self) -> bool {
        *self == Annotations::default()
    }
}

impl Annotations {
    /// Adds what a later comment on the same move says: its values replace these, its
    /// arrows and squares are added.
    pub fn merge(&mut self, later: Annotations) {
        fn take<T>(mine: &mut Option<T>, theirs: Option<T>) {
            if theirs.is_some() {
                *mine = theirs;
            }
        }
        if later.clock.is_some() || later.overtime.is_some() {
            self.clock = later.clock;
            self.overtime = later.overtime;
        }
        take(&mut self.correspondence_clock, later.correspondence_clock);
        take(&mut self.elapsed, later.elapsed);
        if later.eval.is_some() {
            self.eval = later.eval;
            self.depth = later.depth;
        }
        self.arrows.extend(later.arrows);
        self.highlights.extend(later.highlights);
    }
}

impl fmt::Display for Arrow {
    /// `Ge2e4`, as `[%cal]` writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}{}", self.mark.letter(), self.from, self.to)
    }
}

impl fmt::Display for Highlight {
    /// `Rd4`, as `[%csl]` writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.mark.letter(), self.square)
    }
}

impl std::str::FromStr for Arrow {
    type Err = crate::ParseValueError;
    /// `Ge2e4`.
    fn from_str(s: &str) -> Result<Arrow, crate::ParseValueError> {
        whole(s, (mark, square, square))
            .map(|(mark, from, to)| Arrow { mark, from, to })
            .ok_or_else(|| {
                crate::ParseValueError::new(
                    "arrow",
                    format!("`{s}`: expected a colour G, R, Y or B and two squares (Ge2e4)"),
                )
            })
    }
}

impl std::str::FromStr for Highlight {
    type Err = crate::ParseValueError;
    /// `Rd4`.
    fn from_str(s: &str) -> Result<Highlight, crate::ParseValueError> {
        whole(s, (mark, square))
            .map(|(mark, square)| Highlight { mark, square })
            .ok_or_else(|| {
                crate::ParseValueError::new(
                    "marked square",
                    format!("`{s}`: expected a colour G, R, Y or B and a square (Rd4)"),
                )
            })
    }
}

/// The serde form of [`Annotations`]: a flat object with only what the comment said,
/// times in seconds, the evaluation as `cp` or `mate`, arrows and squares as written
/// (`"Ge2e4"`, `"Rd4"`).
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct AnnotationsForm {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    clock: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    correspondence_clock: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    elapsed: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cp: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mate: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    depth: Option<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    arrows: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    highlights: Vec<String>,
}

/// Seconds, to the millisecond (as `as_millis() as f64 / 1000.0` gives them, without
/// its 128-bit conversion while the milliseconds fit 64 bits).
pub(crate) fn seconds(d: Duration) -> f64 {
    let millis = d.as_secs().checked_mul(1000);
    match millis.and_then(|ms| ms.checked_add(u64::from(d.subsec_millis()))) {
        Some(ms) => ms as f64 / 1000.0,
        None => d.as_millis() as f64 / 1000.0,
    }
}

/// A bughouse-db clock comment (`{298.21}`, `{-0.576}`): the mover's remaining
/// seconds, below zero when its time ran out. Only digits, a point and a sign are read
/// (not `inf`, `NaN` or `1e3`), and less than a billion seconds (a longer number is no
/// clock).
pub(crate) fn seconds_comment(comment: &str) -> Option<f64> {
    let c = comment.trim();
    let digits = c.strip_prefix(['-', '+']).unwrap_or(c);
    if !digits.bytes().any(|b| b.is_ascii_digit())
        || !digits.bytes().all(|b| b.is_ascii_digit() || b == b'.')
    {
        return None;
    }
    c.parse::<f64>().ok().filter(|s| s.abs() < 1e9)
}

/// What a comment says of the move before it, as the plies table and `replay --json`
/// read it: its commands, or `None` when it says nothing. In a bughouse match,
/// `[%clk]` is the time the move took (Chess.com's bughouse exports write per-move
/// times there), and a plain number the mover's clock (bughouse-db's `{298.21}`,
/// `{-0.576}`).
pub(crate) fn move_notes(comment: &str, bughouse: bool) -> Option<Annotations> {
    // Most comments without a command are an engine's (`{+0.25/12 0.5s}`): no reading
    // of commands, and no empty reading to look at.
    if has_command(comment) {
        let (mut notes, _) = read_annotations(comment);
        if !notes.is_empty() {
            if bughouse {
                notes.clock_as_move_time();
            }
            return Some(notes);
        }
    }
    let secs = bughouse.then(|| seconds_comment(comment)).flatten()?;
    Some(Annotations::of_seconds(secs))
}

impl Annotations {
    /// A bughouse-db clock of `secs` seconds: remaining time, or overtime below zero.
    fn of_seconds(secs: f64) -> Annotations {
        let d = Duration::from_millis((secs.abs() * 1000.0).round() as u64);
        if secs < 0.0 {
            Annotations {
                overtime: Some(d),
                ..Annotations::default()
            }
        } else {
            Annotations {
                clock: Some(d),
                ..Annotations::default()
            }
        }
    }

    /// Reads a bughouse match's `[%clk]` as the time the move took: Chess.com's bughouse
    /// exports write per-move times there (bughouse-db writes the remaining time in
    /// plain comments).
    fn clock_as_move_time(&mut self) {
        if let Some(c) = self.clock.take() {
            self.elapsed.get_or_insert(c);
        }
    }
}

#[cfg(feature = "serde")]
fn duration<E: serde::de::Error>(s: f64) -> Result<Duration, E> {
    if s.is_finite() && s >= 0.0 {
        Ok(Duration::from_millis((s * 1000.0).round() as u64))
    } else {
        Err(E::custom(format!("{s}: not a time in seconds")))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Annotations {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (cp, mate) = match self.eval {
            Some(Eval::Centipawns(n)) => (Some(n), None),
            Some(Eval::Mate(n)) => (None, Some(n)),
            None => (None, None),
        };
        AnnotationsForm {
            clock: self
                .clock
                .map(seconds)
                .or(self.overtime.map(|o| -seconds(o))),
            correspondence_clock: self.correspondence_clock.map(seconds),
            elapsed: self.elapsed.map(seconds),
            cp,
            mate,
            depth: self.depth,
            arrows: self.arrows.iter().map(Arrow::to_string).collect(),
            highlights: self.highlights.iter().map(Highlight::to_string).collect(),
        }
        .serialize(s)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Annotations {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Annotations, D::Error> {
        use serde::de::Error;
        let form = AnnotationsForm::deserialize(d)?;
        let time = |t: Option<f64>| t.map(duration::<D::Error>).transpose();
        let eval = match (form.cp, form.mate) {
            (Some(_), Some(_)) => return Err(D::Error::custom("both `cp` and `mate`")),
            (Some(n), None) => Some(Eval::Centipawns(n)),
            (None, Some(n)) => Some(Eval::Mate(n)),
            (None, None) => None,
        };
        // A negative clock is overtime (a bughouse-db clock below zero; `-0.0`, less
        // than a millisecond of it).
        let (clock, overtime) = match form.clock {
            Some(s) if s.is_sign_negative() => (None, Some(-s)),
            c => (c, None),
        };
        Ok(Annotations {
            clock: time(clock)?,
            overtime: time(overtime)?,
            correspondence_clock: time(form.correspondence_clock)?,
            elapsed: time(form.elapsed)?,
            eval,
            depth: form.depth,
            arrows: (form.arrows.iter().map(|a| a.parse()))
                .collect::<Result<_, _>>()
                .map_err(D::Error::custom)?,
            highlights: (form.highlights.iter().map(|h| h.parse()))
                .collect::<Result<_, _>>()
                .map_err(D::Error::custom)?,
        })
    }
}

/// A known command whose value does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnnotationError {
    /// The command's byte offset in the comment (its `[`).
    pub offset: usize,
    /// The command as written (`[%eval x]`), clipped to 40 characters.
    pub command: String,
    /// What its value should be.
    pub expected: &'static str,
}

impl fmt::Display for AnnotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` does not read: expected {}",
            self.command, self.expected
        )
    }
}

impl std::error::Error for AnnotationError {}

type Res<'a, T> = IResult<&'a str, T>;

fn int(i: &str) -> Res<'_, u64> {
    map_res(digit1, str::parse::<u64>).parse(i)
}

/// A time: `[[[days:]hours:]minutes:]seconds[.fraction]`.
fn time(i: &str) -> Res<'_, Duration> {
    let (i, fields) = separated_list1(char(':'), int).parse(i)?;
    let (i, fraction) = opt(preceded(char('.'), digit1)).parse(i)?;
    // Days, hours, minutes and seconds: only the first field is unbounded (`0:75:99`
    // is no time).
    let limits = [60u64, 60, 24];
    let out_of_range = (fields.iter().rev())
        .zip(limits)
        .take(fields.len() - 1)
        .any(|(v, limit)| *v >= limit);
    if fields.len() > 4 || out_of_range {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Count,
        )));
    }
    let units = [1u64, 60, 3600, 86_400];
    let secs: u64 = fields.iter().rev().zip(units).fold(0u64, |sum, (v, unit)| {
        sum.saturating_add(v.saturating_mul(unit))
    });
    let nanos = fraction.map_or(0, |f| {
        let digits: String = f.chars().take(9).collect();
        let scale = 10u32.pow(9 - digits.len() as u32);
        digits.parse::<u32>().unwrap_or(0) * scale
    });
    Ok((i, Duration::new(secs, nanos)))
}

/// A signed integer (`-3`, `+2`, `4`).
fn signed(i: &str) -> Res<'_, i64> {
    let (i, sign) = opt(one_of("+-")).parse(i)?;
    let (i, n) = int(i)?;
    let n = i64::try_from(n).unwrap_or(i64::MAX);
    Ok((i, if sign == Some('-') { -n } else { n }))
}

/// An evaluation and its depth.
fn eval(i: &str) -> Res<'_, (Eval, Option<u32>)> {
    let mate = map(preceded(char('#'), signed), |n| {
        Eval::Mate(n.clamp(i32::MIN.into(), i32::MAX.into()) as i32)
    });
    let pawns = map(
        recognize((opt(one_of("+-")), digit1, opt((char('.'), digit1)))),
        |text: &str| {
            let pawns: f64 = text.parse().unwrap_or(0.0);
            Eval::Centipawns((pawns * 100.0).round().clamp(-1e9, 1e9) as i32)
        },
    );
    let (i, value) = alt((mate, pawns)).parse(i)?;
    let (i, depth) = opt(preceded(
        (multispace0, char(','), multispace0),
        map_res(digit1, str::parse::<u32>),
    ))
    .parse(i)?;
    Ok((i, (value, depth)))
}

fn mark(i: &str) -> Res<'_, Mark> {
    map(one_of("GRYB"), |c| match c {
        'G' => Mark::Green,
        'R' => Mark::Red,
        'Y' => Mark::Yellow,
        _ => Mark::Blue,
    })
    .parse(i)
}

fn square(i: &str) -> Res<'_, Square> {
    map_res(
        recognize((one_of("abcdefgh"), one_of("12345678"))),
        str::parse::<Square>,
    )
    .parse(i)
}

/// A comma between list items, with blanks or line ends around it.
fn comma(i: &str) -> Res<'_, ()> {
    map((multispace0, char(','), multispace0), |_| ()).parse(i)
}

fn arrows(i: &str) -> Res<'_, Vec<Arrow>> {
    separated_list1(
        comma,
        map((mark, square, square), |(mark, from, to)| Arrow {
            mark,
            from,
            to,
        }),
    )
    .parse(i)
}

fn highlights(i: &str) -> Res<'_, Vec<Highlight>> {
    separated_list1(
        comma,
        map((mark, square), |(mark, square)| Highlight { mark, square }),
    )
    .parse(i)
}

/// Below this many bytes a comment is scanned a byte at a time: most are Lichess's
/// short ` [%clk 0:03:00] `, where a vector search costs more to set up than it saves.
const SHORT: usize = 48;

/// Where the first `[%` is (a two-byte search: no searcher to build per comment).
fn command_at(bytes: &[u8]) -> Option<usize> {
    if bytes.len() < SHORT {
        return bytes.windows(2).position(|w| w == b"[%");
    }
    memchr::memchr_iter(b'[', bytes).find(|&i| bytes.get(i + 1) == Some(&b'%'))
}

/// Where the first `]` is.
fn close_at(bytes: &[u8]) -> Option<usize> {
    if bytes.len() < SHORT {
        return bytes.iter().position(|&b| b == b']');
    }
    memchr::memchr(b']', bytes)
}

/// Whether a comment holds a command (`[%`).
pub(crate) fn has_command(comment: &str) -> bool {
    command_at(comment.as_bytes()).is_some()
}

/// The commands read.
#[derive(Clone, Copy)]
enum Command {
    Clk,
    Clkc,
    Emt,
    Eval,
    Cal,
    Csl,
}

impl Command {
    /// The command of a name (compared as bytes: no string comparison per command).
    fn of(name: &[u8]) -> Option<Command> {
        match *name {
            [b'c', b'l', b'k'] => Some(Command::Clk),
            [b'c', b'l', b'k', b'c'] => Some(Command::Clkc),
            [b'e', b'm', b't'] => Some(Command::Emt),
            [b'e', b'v', b'a', b'l'] => Some(Command::Eval),
            [b'c', b'a', b'l'] => Some(Command::Cal),
            [b'c', b's', b'l'] => Some(Command::Csl),
            _ => None,
        }
    }
}

/// A time value: the common ` H:MM:SS` read at once, anything else by the grammar.
fn read_time(value: &str) -> Option<Duration> {
    quick_time(value).or_else(|| whole(value, time))
}

/// An evaluation value: the common ` 0.25` and ` #-3` read at once, anything else (a
/// depth, blanks, a malformed one) by the grammar.
fn read_eval(value: &str) -> Option<(Eval, Option<u32>)> {
    quick_eval(value).or_else(|| whole(value, eval))
}

/// Reads `value` whole with `parser`, blanks and line ends around it (a comment may be
/// wrapped inside a command: Chess.com's bughouse exports wrap at 80 columns).
fn whole<'a, T>(
    value: &'a str,
    parser: impl Parser<&'a str, Output = T, Error = nom::error::Error<&'a str>>,
) -> Option<T> {
    all_consuming(delimited(multispace0, parser, multispace0))
        .parse(value)
        .ok()
        .map(|(_, v)| v)
}

/// The commands of a comment's text (without its braces), read into [`Annotations`];
/// the known commands whose values do not read, with their places.
pub fn read_annotations(comment: &str) -> (Annotations, Vec<AnnotationError>) {
    let mut notes = Annotations::default();
    let mut errors = Vec::new();
    let mut from = 0;
    let bytes = comment.as_bytes();
    while let Some(at) = command_at(&bytes[from..]).map(|n| from + n) {
        let Some(close) = close_at(&bytes[at..]).map(|n| at + n) else {
            break;
        };
        from = close + 1;
        let body = &comment[at + 2..close];
        let name_len = body
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        let (name, value) = body.split_at(name_len);
        let Some(command) = Command::of(name.as_bytes()) else {
            continue;
        };
        let expected = match command {
            Command::Clk | Command::Clkc | Command::Emt => {
                "a time, H:MM:SS (days, hours and a fraction optional)"
            }
            Command::Eval => "pawns (0.25, -1.3) or a mate (#-3), and a depth after a comma",
            Command::Cal => {
                "arrows: a colour G, R, Y or B, two squares (Ge2e4), separated by commas"
            }
            Command::Csl => {
                "squares: a colour G, R, Y or B and a square (Rd4), separated by commas"
            }
        };
        let read = match command {
            Command::Clk => read_time(value).map(|t| notes.clock = Some(t)),
            Command::Clkc => read_time(value).map(|t| notes.correspondence_clock = Some(t)),
            Command::Emt => read_time(value).map(|t| notes.elapsed = Some(t)),
            Command::Eval => read_eval(value).map(|(e, d)| {
                notes.eval = Some(e);
                notes.depth = d;
            }),
            Command::Cal => whole(value, arrows).map(|a| notes.arrows.extend(a)),
            Command::Csl => whole(value, highlights).map(|h| notes.highlights.extend(h)),
        };
        if read.is_none() {
            let command = &comment[at..=close];
            errors.push(AnnotationError {
                offset: at,
                command: command.chars().take(40).collect(),
                expected,
            });
        }
    }
    (notes, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn lichess_chess_com_and_chessbase_commands_read() {
        let (n, e) = read_annotations(
            "[%clk 0:03:00] [%eval 0.25] [%cal Ge2e4,Rd7d5] [%csl Rd4, Yf5] text [%emt 0:00:03]",
        );
        assert!(e.is_empty(), "{e:?}");
        assert!(!n.is_empty());
        let marks: String = n.arrows.iter().map(|a| a.mark.letter()).collect();
        assert_eq!(marks, "GR");
        let marks: String = [Mark::Yellow, Mark::Blue]
            .iter()
            .map(|m| m.letter())
            .collect();
        assert_eq!(marks, "YB");
        assert_eq!(n.clock, Some(Duration::from_secs(180)));
        assert_eq!(n.elapsed, Some(Duration::from_secs(3)));
        assert_eq!(n.eval, Some(Eval::Centipawns(25)));
        assert_eq!(n.depth, None);
        assert_eq!(
            n.arrows,
            [
                Arrow {
                    mark: Mark::Green,
                    from: sq("e2"),
                    to: sq("e4")
                },
                Arrow {
                    mark: Mark::Red,
                    from: sq("d7"),
                    to: sq("d5")
                }
            ]
        );
        assert_eq!(
            n.highlights,
            [
                Highlight {
                    mark: Mark::Red,
                    square: sq("d4")
                },
                Highlight {
                    mark: Mark::Yellow,
                    square: sq("f5")
                }
            ]
        );
        for (text, eval, depth) in [
            ("[%eval -1.3]", Eval::Centipawns(-130), None),
            ("[%eval +0.05,24]", Eval::Centipawns(5), Some(24)),
            ("[%eval #2]", Eval::Mate(2), None),
            ("[%eval #-3, 30]", Eval::Mate(-3), Some(30)),
            ("[%eval 12]", Eval::Centipawns(1200), None),
            ("[%eval #-0]", Eval::Mate(0), None),
            ("[%eval #0]", Eval::Mate(0), None),
        ] {
            let (n, e) = read_annotations(text);
            assert!(e.is_empty(), "{text}: {e:?}");
            assert_eq!((n.eval, n.depth), (Some(eval), depth), "{text}");
        }
        for (text, millis) in [
            ("[%clk 0:02:59.5]", 179_500),
            ("[%clk 1:00:00]", 3_600_000),
            ("[%clk 59]", 59_000),
            ("[%clk 3:00]", 180_000),
            ("[%clkc 2:01:00:00]", 176_400_000),
            ("[%clk 0:00:00.123]", 123),
        ] {
            let (n, e) = read_annotations(text);
            assert!(e.is_empty(), "{text}: {e:?}");
            let clock = n.clock.or(n.correspondence_clock).unwrap();
            assert_eq!(clock.as_millis(), millis, "{text}");
        }
    }

    #[test]
    fn unknown_commands_are_left_alone_and_bad_values_located() {
        let (n, e) = read_annotations("[%timestamp 12] no commands [%evp 1,2]");
        assert!(n.is_empty() && e.is_empty());
        let text = "ok [%clk 0:01:00] [%eval x] [%cal Ge2] [%csl Z4] [%clk 1:2:3:4:5]";
        let (n, e) = read_annotations(text);
        assert_eq!(n.clock, Some(Duration::from_secs(60)));
        let got: Vec<(usize, &str)> = e.iter().map(|e| (e.offset, e.command.as_str())).collect();
        assert_eq!(
            got,
            [
                (18, "[%eval x]"),
                (28, "[%cal Ge2]"),
                (39, "[%csl Z4]"),
                (49, "[%clk 1:2:3:4:5]")
            ]
        );
        for e in &e {
            assert_eq!(&text[e.offset..e.offset + e.command.len()], e.command);
        }
        assert!(e[0].to_string().contains("expected pawns"), "{}", e[0]);
        // A command never closed is no command.
        assert!(read_annotations("[%clk 0:01").0.is_empty());
    }

    /// A line end inside a command is white space, as anywhere in a comment: Chess.com
    /// wraps its bughouse exports' comments at 80 columns, inside a command too.
    #[test]
    fn commands_wrapped_across_lines_read() {
        for end in ["\n", "\r\n", "\r"] {
            let text = format!(
                "[%clk{end}0:00:01.6] [%eval{end}-0.5,{end}20{end}] [%cal Ge2e4,{end}Rd1d8] \
                 [%csl{end}Rd4{end},Yf5] [%emt 0:00:03{end}]"
            );
            let (n, e) = read_annotations(&text);
            assert!(e.is_empty(), "{text:?}: {e:?}");
            assert_eq!(n.clock, Some(Duration::from_millis(1600)), "{text:?}");
            assert_eq!(n.eval, Some(Eval::Centipawns(-50)), "{text:?}");
            assert_eq!(n.depth, Some(20), "{text:?}");
            assert_eq!(n.arrows.len(), 2, "{text:?}");
            assert_eq!(n.highlights.len(), 2, "{text:?}");
            assert_eq!(n.elapsed, Some(Duration::from_secs(3)), "{text:?}");
        }
        // Still one value a command: a line end does not join two.
        let (_, e) = read_annotations("[%clk 0:00:01\n0:00:02]");
        assert_eq!(e.len(), 1);
    }

    /// Seconds are the milliseconds over a thousand, computed either way, from a
    /// nanosecond to the largest duration.
    #[test]
    fn seconds_are_the_milliseconds_over_a_thousand() {
        let durations = [
            Duration::ZERO,
            Duration::from_nanos(1),
            Duration::from_nanos(999_999),
            Duration::from_millis(1),
            Duration::from_millis(179_500),
            Duration::new(10_799, 999_999_999),
            Duration::new(u64::MAX / 1000, 999_000_000),
            Duration::new(u64::MAX / 1000 + 1, 1_000_000),
            Duration::MAX,
        ];
        for d in durations {
            assert_eq!(seconds(d), d.as_millis() as f64 / 1000.0, "{d:?}");
        }
        assert_eq!(seconds(Duration::new(179, 500_400_000)), 179.5);
    }

    /// Short comments are searched a byte at a time, long ones by memchr: commands are
    /// found alike on either side of the length where the search changes, wherever
    /// they sit and whatever stray brackets come first.
    #[test]
    fn commands_are_found_in_comments_of_every_length() {
        for len in 0..2 * SHORT {
            // Brackets and percent signs everywhere, but never a command.
            let plain = "a%[b".repeat(len).chars().take(len).collect::<String>();
            assert_eq!(command_at(plain.as_bytes()), None, "{plain:?}");
            for at in 0..=len {
                let mut text = "x[ ]".repeat(len).chars().take(len).collect::<String>();
                text.insert_str(at, "[%clk 0:01:02]");
                for tail in ["", " [%eval #-3]"] {
                    let text = format!("{text}{tail}");
                    let (notes, errors) = read_annotations(&text);
                    assert_eq!(notes.clock, Some(Duration::from_secs(62)), "{text:?}");
                    assert_eq!(notes.eval, (!tail.is_empty()).then_some(Eval::Mate(-3)));
                    assert!(errors.is_empty(), "{text:?}");
                    let found = command_at(text.as_bytes());
                    assert_eq!(found, text.find("[%"), "{text:?}");
                    let close = close_at(text.as_bytes());
                    assert_eq!(close, text.find(']'), "{text:?}");
                }
            }
        }
    }

    #[test]
    fn bughouse_db_clocks_read_below_zero_too() {
        for (text, secs) in [
            ("298.21", Some(298.21)),
            (" -0.576 ", Some(-0.576)),
            ("+3", Some(3.0)),
            ("180", Some(180.0)),
            ("inf", None),
            ("99999999999999999999", None),
            ("1000000000", None),
            ("999999999.5", Some(999_999_999.5)),
            ("NaN", None),
            ("1e3", None),
            ("-", None),
            (".", None),
            ("C: hi", None),
            ("", None),
        ] {
            assert_eq!(seconds_comment(text), secs, "{text:?}");
        }
        let below = Annotations::of_seconds(-0.576);
        assert_eq!(below.overtime, Some(Duration::from_millis(576)));
        assert_eq!(below.clock, None);
        let above = Annotations::of_seconds(298.21);
        assert_eq!(above.clock, Some(Duration::from_millis(298_210)));
        // A later clock replaces overtime, and the other way round.
        let mut merged = below.clone();
        merged.merge(above.clone());
        assert_eq!(merged, above);
        merged.merge(below.clone());
        assert_eq!(merged, below);
        // Chess.com's bughouse `[%clk]`: the time the move took.
        let (mut chesscom, _) = read_annotations("[%clk 0:00:01.3]");
        chesscom.clock_as_move_time();
        assert_eq!(
            (chesscom.clock, chesscom.elapsed),
            (None, Some(Duration::from_millis(1300)))
        );
    }

    #[cfg(feature = "serde")]
    #[test]
    fn overtime_is_a_negative_clock_in_json() {
        let below = Annotations::of_seconds(-0.576);
        let json = serde_json::to_string(&below).unwrap();
        assert_eq!(json, r#"{"clock":-0.576}"#);
        assert_eq!(serde_json::from_str::<Annotations>(&json).unwrap(), below);
        // Less than a millisecond below zero: still overtime, read back.
        let tiny = Annotations::of_seconds(-0.0004);
        let json = serde_json::to_string(&tiny).unwrap();
        assert_eq!(json, r#"{"clock":-0.0}"#);
        assert_eq!(serde_json::from_str::<Annotations>(&json).unwrap(), tiny);
    }
}
