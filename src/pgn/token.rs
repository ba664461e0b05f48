//! A movetext and tag tokenizer for PGN and BPGN with exact positions.
//!
//! Every token keeps its byte offset in the game, so a problem can name its line and
//! column and quote the raw text. Nothing is skipped: text that is not a token of the
//! grammar comes out as [`TokenKind::Unknown`] with the reason.
//!
//! ```text
//! token       = tag / comment / line-comment / escape / nag / "(" / ")" / result
//!             / move-number / move
//! tag         = "[" name ws DQUOTE *(char / "\" DQUOTE / "\\") DQUOTE ws "]"
//! comment     = "{" *(not "}") "}"
//! line-comment= ";" *(not EOL)          escape = "%" *(not EOL)   ; at a line start
//! nag         = "$" 1*DIGIT
//! result      = "1-0" / "0-1" / "1/2-1/2" / "*"
//! move-number = 1*DIGIT [ "A" / "a" / "B" / "b" ] *"."   ; BPGN boards after the number
//! move        = 1*(not delimiter)       ; delimiters: whitespace ( ) { } [ ] ;
//! ```

use nom::Parser;
use nom::bytes::complete::{tag, take_till, take_till1, take_while, take_while1};
use nom::character::complete::{char, digit1, one_of};
use nom::combinator::{opt, recognize};

use crate::notation::nomerr::Res;

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind<'a> {
    /// A tag pair; the value is raw (escapes not resolved).
    Tag {
        name: &'a str,
        value: &'a str,
    },
    /// `12.`, `12...`, `12A.` (BPGN).
    MoveNumber(&'a str),
    /// A move token (SAN or anything else that is not a delimiter).
    Move(&'a str),
    Nag(&'a str),
    /// A `{…}` comment (inner text).
    Comment(&'a str),
    /// A `;` comment or a `%` escape line.
    LineComment(&'a str),
    VariationStart,
    VariationEnd,
    Result(&'a str),
    /// Text the grammar does not allow here, and why.
    Unknown(&'a str, &'static str),
}

/// A token and its place in the game text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    pub kind: TokenKind<'a>,
    /// Byte offset of the token's first byte in the game text.
    pub offset: usize,
    /// The token's raw text.
    pub text: &'a str,
}

fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '(' | ')' | '{' | '}' | '[' | ']' | ';')
}

/// `tag = "[" name ws DQUOTE value DQUOTE ws "]"`
fn tag_pair(i: &str) -> Res<'_, TokenKind<'_>> {
    let (i, _) = char('[').parse(i)?;
    let (i, _) = take_while(|c: char| c == ' ' || c == '\t').parse(i)?;
    let (i, name) =
        take_while1(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-').parse(i)?;
    let (i, _) = take_while(|c: char| c == ' ' || c == '\t').parse(i)?;
    let (i, _) = char('"').parse(i)?;
    let mut end = None;
    let mut escaped = false;
    for (n, c) in i.char_indices() {
        match c {
            '\n' => break,
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => {
                end = Some(n);
                break;
            }
            _ => {}
        }
    }
    let Some(end) = end else {
        return crate::notation::nomerr::fail(i, "a closing quote");
    };
    let (value, i) = (&i[..end], &i[end + 1..]);
    let (i, _) = take_while(|c: char| c == ' ' || c == '\t').parse(i)?;
    let (i, _) = char(']').parse(i)?;
    Ok((i, TokenKind::Tag { name, value }))
}

/// `result = "1-0" / "0-1" / "1/2-1/2" / "*"`, followed by a delimiter or the end.
fn result(i: &str) -> Res<'_, TokenKind<'_>> {
    let (rest, r) =
        nom::branch::alt((tag("1-0"), tag("0-1"), tag("1/2-1/2"), tag("*"))).parse(i)?;
    if rest.chars().next().is_some_and(|c| !is_delimiter(c)) {
        return crate::notation::nomerr::fail(i, "a result");
    }
    Ok((rest, TokenKind::Result(r)))
}

/// `move-number = 1*DIGIT [board] *"."`
fn move_number(i: &str) -> Res<'_, TokenKind<'_>> {
    let (rest, n) = recognize((digit1, opt(one_of("AaBb")), take_while(|c| c == '.'))).parse(i)?;
    let ends_cleanly = n.ends_with('.') || rest.chars().next().is_none_or(is_delimiter);
    if !ends_cleanly {
        return crate::notation::nomerr::fail(i, "a move number");
    }
    Ok((rest, TokenKind::MoveNumber(n)))
}

/// Iterates the tokens of one game's text.
pub struct Tokenizer<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Tokenizer<'a> {
    pub fn new(text: &'a str) -> Tokenizer<'a> {
        Tokenizer { text, pos: 0 }
    }

    fn at_line_start(&self, offset: usize) -> bool {
        self.text[..offset]
            .chars()
            .rev()
            .take_while(|&c| c != '\n')
            .all(|c| c == ' ' || c == '\t' || c == '\r')
    }
}

impl<'a> Iterator for Tokenizer<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let rest = &self.text[self.pos..];
        let skipped = rest.len() - rest.trim_start().len();
        self.pos += skipped;
        let i = &self.text[self.pos..];
        let first = i.chars().next()?;
        let start = self.pos;
        let (rest, kind): (&str, TokenKind<'a>) = match first {
            '{' => match i[1..].find('}') {
                Some(end) => (&i[end + 2..], TokenKind::Comment(&i[1..end + 1])),
                None => ("", TokenKind::Unknown(i, "a `}` closing this comment")),
            },
            '}' => (
                &i[1..],
                TokenKind::Unknown(&i[..1], "no `}` without an opening `{`"),
            ),
            ';' => {
                let (r, c) = take_till::<_, _, ()>(|c| c == '\n')
                    .parse(&i[1..])
                    .unwrap_or(("", &i[1..]));
                (r, TokenKind::LineComment(c))
            }
            '%' if self.at_line_start(start) => {
                let (r, c) = take_till::<_, _, ()>(|c| c == '\n')
                    .parse(&i[1..])
                    .unwrap_or(("", &i[1..]));
                (r, TokenKind::LineComment(c))
            }
            '(' => (&i[1..], TokenKind::VariationStart),
            ')' => (&i[1..], TokenKind::VariationEnd),
            '[' => match tag_pair(i) {
                Ok(ok) => ok,
                Err(_) => {
                    let line = i.find('\n').map_or(i, |n| &i[..n]);
                    (
                        &i[line.len()..],
                        TokenKind::Unknown(line, "a tag `[Name \"value\"]`"),
                    )
                }
            },
            '$' => match recognize::<_, nom::error::Error<&str>, _>((char('$'), digit1)).parse(i) {
                Ok((r, n)) => (r, TokenKind::Nag(n)),
                Err(_) => {
                    let (r, t) = take_till1::<_, _, ()>(is_delimiter)
                        .parse(i)
                        .unwrap_or(("", i));
                    (r, TokenKind::Move(t))
                }
            },
            _ => {
                if let Ok(ok) = result(i) {
                    ok
                } else if let Ok(ok) = move_number(i) {
                    ok
                } else {
                    let (r, t) = take_till1::<_, _, ()>(is_delimiter)
                        .parse(i)
                        .unwrap_or((&i[1..], &i[..1]));
                    (r, TokenKind::Move(t))
                }
            }
        };
        self.pos = self.text.len() - rest.len();
        Some(Token {
            kind,
            offset: start,
            text: &self.text[start..self.pos],
        })
    }
}

/// Turns byte offsets into 1-based line and column (in characters), moving forward only.
pub struct LineIndex<'a> {
    text: &'a str,
    first_line: usize,
    offset: usize,
    line: usize,
    line_start: usize,
}

impl<'a> LineIndex<'a> {
    /// `first_line` is the line number of the text's first byte.
    pub fn new(text: &'a str, first_line: usize) -> LineIndex<'a> {
        LineIndex {
            text,
            first_line,
            offset: 0,
            line: first_line,
            line_start: 0,
        }
    }

    /// The line and column of `offset` (cheap when offsets grow between calls).
    pub fn locate(&mut self, offset: usize) -> (usize, usize) {
        if offset < self.offset {
            *self = LineIndex::new(self.text, self.first_line);
        }
        for (n, c) in self.text[self.offset..offset].char_indices() {
            if c == '\n' {
                self.line += 1;
                self.line_start = self.offset + n + 1;
            }
        }
        self.offset = offset;
        let column = self.text[self.line_start..offset].chars().count() + 1;
        (self.line, column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<TokenKind<'_>> {
        Tokenizer::new(s).map(|t| t.kind).collect()
    }

    #[test]
    fn tokens_of_real_movetext() {
        let k = kinds(
            "[Event \"a \\\"b\\\"\"]\n1. e4 { [%clk 0:05:00] } 1... P@e4?! $14 (1... e5) 2.Nf3 1-0",
        );
        assert_eq!(
            k[0],
            TokenKind::Tag {
                name: "Event",
                value: "a \\\"b\\\""
            }
        );
        assert_eq!(k[1], TokenKind::MoveNumber("1."));
        assert_eq!(k[2], TokenKind::Move("e4"));
        assert_eq!(k[3], TokenKind::Comment(" [%clk 0:05:00] "));
        assert_eq!(k[4], TokenKind::MoveNumber("1..."));
        assert_eq!(k[5], TokenKind::Move("P@e4?!"));
        assert_eq!(k[6], TokenKind::Nag("$14"));
        assert_eq!(k[7], TokenKind::VariationStart);
        assert_eq!(k[10], TokenKind::VariationEnd);
        assert_eq!(k[11], TokenKind::MoveNumber("2."));
        assert_eq!(k[12], TokenKind::Move("Nf3"));
        assert_eq!(k[13], TokenKind::Result("1-0"));
    }

    #[test]
    fn bpgn_numbers_and_bad_text() {
        let k = kinds("1A. e4{298.21} 1a. e5 } {open");
        assert_eq!(k[0], TokenKind::MoveNumber("1A."));
        assert_eq!(k[2], TokenKind::Comment("298.21"));
        assert_eq!(k[3], TokenKind::MoveNumber("1a."));
        assert!(matches!(k[5], TokenKind::Unknown("}", _)));
        assert!(matches!(k[6], TokenKind::Unknown("{open", _)));
    }

    #[test]
    fn lines_and_columns() {
        let text = "ab\ncé d\n";
        let mut idx = LineIndex::new(text, 10);
        assert_eq!(idx.locate(0), (10, 1));
        assert_eq!(idx.locate(3), (11, 1));
        assert_eq!(idx.locate(text.find('d').unwrap()), (11, 4));
    }
}
