//! Chess.com's game archives as JSON (the `serde` feature): the Published-Data API's
//! month of a player's games, `{"games": [{"url", "pgn", "rules", "white": {"username",
//! "rating", "result"}, "black": {…}, …}]}`, told from PGN by its first bytes.
//!
//! Each entry is a game numbered by its place in the list (from 1) and read as a table's
//! row is ([`crate::game::GameAt::Row`]): its tags on line 0, its `pgn`'s movetext from
//! line 1. The JSON fills the tags the PGN lacks: the players, their ratings, the result
//! (from the players' results), `[Link]` (the URL) and `[Variant]` (from `rules`:
//! `chess960`, `crazyhouse`, `bughouse`; another rule is written as it is, and is an
//! unknown variant). An entry without moves (Chess.com's bughouse records carry a FEN
//! and no moves) is skipped and counted, not failed.

use std::io::{self, BufRead, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use serde::Deserialize;

use super::compression::ErrorFirst;
use super::split::{Games, RawGame};
use super::token::{Tokenizer, is_loose_value};

/// Whether `head` starts as a Chess.com archive does: `{`, then the key `"games"` (blanks
/// and a byte-order mark allowed around). A PGN may start with a `{` comment, but not
/// with one that reads `"games":`.
pub(crate) fn looks_like_archive(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    let mut rest = head.trim_ascii_start();
    let Some(r) = rest.strip_prefix(b"{") else {
        return false;
    };
    rest = r.trim_ascii_start();
    let Some(r) = rest.strip_prefix(b"\"games\"") else {
        return false;
    };
    r.trim_ascii_start().starts_with(b":")
}

/// Whether `reader`'s stream starts as a Chess.com archive, and the stream, unread: an
/// error of the first read (a binary file's) comes back at its first read, as it would
/// have without the look.
pub(crate) fn peek(mut reader: Box<dyn BufRead + Send>) -> (bool, Box<dyn BufRead + Send>) {
    match reader.fill_buf() {
        Ok(head) => (looks_like_archive(head), reader),
        Err(e) => (false, Box::new(ErrorFirst::new(e, reader))),
    }
}

#[derive(Deserialize)]
struct Archive {
    games: Vec<Entry>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Entry {
    url: Option<String>,
    pgn: Option<String>,
    rules: Option<String>,
    white: Option<Player>,
    black: Option<Player>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Player {
    username: Option<String>,
    rating: Option<i64>,
    result: Option<String>,
}

/// The result Chess.com's players' results make: `win` for one side, a draw's reason for
/// both (`agreed`, `repetition`, `stalemate`, `insufficient`, `50move`,
/// `timevsinsufficient`).
fn result_of(white: Option<&str>, black: Option<&str>) -> &'static str {
    const DRAWS: [&str; 6] = [
        "agreed",
        "repetition",
        "stalemate",
        "insufficient",
        "50move",
        "timevsinsufficient",
    ];
    match (white, black) {
        (Some("win"), _) => "1-0",
        (_, Some("win")) => "0-1",
        (Some(w), Some(b)) if DRAWS.contains(&w) && DRAWS.contains(&b) => "1/2-1/2",
        _ => "*",
    }
}

/// `[name "value"]` with the value escaped, and a blank before it.
fn push_tag(out: &mut String, name: &str, value: &str) {
    if !out.is_empty() {
        out.push(' ');
    }
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for c in value.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push_str("\"]");
}

/// An entry's game text (tags on one line, then the movetext), or `None` when it has no
/// moves to read.
fn game_text(e: &Entry) -> Option<String> {
    let pgn = e.pgn.as_deref().unwrap_or("");
    let mut tokens = Tokenizer::new(pgn);
    let mut tags: Vec<(&str, &str)> = Vec::new();
    tokens.tag_section(|name, value, _| tags.push((name, value)));
    let movetext = tokens.rest().trim();
    let rules = e.rules.as_deref().unwrap_or("chess");
    let has_moves = movetext
        .split_ascii_whitespace()
        .any(|t| !matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*"));
    if !has_moves && (rules == "bughouse" || e.pgn.is_none()) {
        return None;
    }
    let mut line = String::with_capacity(pgn.len() + 128);
    for (name, value) in &tags {
        if is_loose_value(value) {
            // A quote not escaped would join the next tags of the line into this value:
            // escaped, as `pgn convert` writes it.
            let read = value.replace("\\\"", "\"").replace("\\\\", "\\");
            push_tag(&mut line, name, &read);
            continue;
        }
        // Kept as written: the PGN's values are escaped already.
        if !line.is_empty() {
            line.push(' ');
        }
        line.push('[');
        line.push_str(name);
        line.push_str(" \"");
        line.push_str(value);
        line.push_str("\"]");
    }
    let has = |n: &str| tags.iter().any(|(name, _)| *name == n);
    let (white, black) = (e.white.as_ref(), e.black.as_ref());
    let fills: [(&str, Option<String>); 7] = [
        ("White", white.and_then(|p| p.username.clone())),
        ("Black", black.and_then(|p| p.username.clone())),
        (
            "Result",
            Some(result_of(
                white.and_then(|p| p.result.as_deref()),
                black.and_then(|p| p.result.as_deref()),
            ))
            .filter(|&r| r != "*" || !has("Result"))
            .map(str::to_owned),
        ),
        (
            "WhiteElo",
            white.and_then(|p| p.rating).map(|r| r.to_string()),
        ),
        (
            "BlackElo",
            black.and_then(|p| p.rating).map(|r| r.to_string()),
        ),
        ("Link", e.url.clone()),
        (
            "Variant",
            match rules {
                "chess" => None,
                "chess960" => Some("Chess960".to_owned()),
                "crazyhouse" => Some("Crazyhouse".to_owned()),
                "bughouse" => Some("Bughouse".to_owned()),
                other => Some(other.to_owned()),
            },
        ),
    ];
    for (name, value) in fills {
        if let Some(v) = value
            && !has(name)
        {
            push_tag(&mut line, name, &v);
        }
    }
    line.push('\n');
    line.push_str(movetext);
    line.push('\n');
    Some(line)
}

/// The games of a Chess.com archive, read whole (a month of a player's games).
pub(crate) struct JsonGames {
    games: std::vec::IntoIter<RawGame>,
    bytes: u64,
    stopped: bool,
    stop: Option<Arc<AtomicBool>>,
}

impl JsonGames {
    /// Reads the archive from `reader`; `skipped` counts its entries without moves, and
    /// a game over `max_game_bytes` is handed out unread, as the splitter does.
    pub(crate) fn read(
        reader: impl Read,
        max_game_bytes: usize,
        skipped: &AtomicUsize,
    ) -> io::Result<JsonGames> {
        let archive: Archive = serde_json::from_reader(reader).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("not a Chess.com game archive (JSON with a \"games\" list): {e}"),
            )
        })?;
        let mut games = Vec::with_capacity(archive.games.len());
        let mut bytes = 0u64;
        for (i, entry) in archive.games.iter().enumerate() {
            let Some(text) = game_text(entry) else {
                skipped.fetch_add(1, Ordering::Relaxed);
                continue;
            };
            bytes += text.len() as u64;
            let too_large = text.len() > max_game_bytes;
            games.push(RawGame {
                number: i + 1,
                line: 0,
                column: 1,
                offset: 0,
                too_large: too_large.then_some(text.len() as u64),
                bytes: if too_large {
                    Vec::new()
                } else {
                    text.into_bytes()
                },
            });
        }
        Ok(JsonGames {
            games: games.into_iter(),
            bytes,
            stopped: false,
            stop: None,
        })
    }
}

impl Games for JsonGames {
    fn next_game(&mut self) -> io::Result<Option<RawGame>> {
        if self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            self.stopped = true;
            return Ok(None);
        }
        Ok(self.games.next())
    }
    fn bytes_read(&self) -> u64 {
        self.bytes
    }
    fn stopped(&self) -> bool {
        self.stopped
    }
    fn stop_on(&mut self, stop: Arc<AtomicBool>) {
        self.stop = Some(stop);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn archives_are_told_from_pgn_by_their_first_key() {
        assert!(looks_like_archive(b"{\"games\":[]}"));
        assert!(looks_like_archive(b"\xef\xbb\xbf \n{ \"games\" : ["));
        assert!(!looks_like_archive(b"{ a comment } [Event \"x\"]"));
        assert!(!looks_like_archive(b"[Event \"x\"]"));
        assert!(!looks_like_archive(b"{\"archives\":[]}"));
    }

    #[test]
    fn entries_become_games_with_the_json_filling_the_tags() {
        let json = r#"{"games":[
            {"url":"https://www.chess.com/game/live/1","pgn":"[Event \"Live Chess\"]\n[White \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n","rules":"chess","white":{"username":"a","rating":1500,"result":"win"},"black":{"username":"b","rating":1400,"result":"checkmated"}},
            {"url":"u2","fen":"x","rules":"bughouse","white":{"username":"c","result":"win"},"black":{"username":"d","result":"lose"}},
            {"url":"u3","pgn":"1. e4 d5 2. exd5 Nf6 3. P@e4 *","rules":"crazyhouse","white":{"username":"e","result":"agreed"},"black":{"username":"f","result":"agreed"}}
        ]}"#;
        let skipped = AtomicUsize::new(0);
        let mut games = JsonGames::read(json.as_bytes(), 1 << 20, &skipped).unwrap();
        let first = games.next_game().unwrap().unwrap();
        assert_eq!((first.number, first.line), (1, 0));
        assert_eq!(
            String::from_utf8(first.bytes).unwrap(),
            "[Event \"Live Chess\"] [White \"a\"] [Result \"1-0\"] [Black \"b\"] [WhiteElo \"1500\"] [BlackElo \"1400\"] [Link \"https://www.chess.com/game/live/1\"]\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"
        );
        // The bughouse record without moves is skipped; the next keeps its place.
        let third = games.next_game().unwrap().unwrap();
        assert_eq!(third.number, 3);
        assert_eq!(
            String::from_utf8(third.bytes).unwrap(),
            "[White \"e\"] [Black \"f\"] [Result \"1/2-1/2\"] [Link \"u3\"] [Variant \"Crazyhouse\"]\n1. e4 d5 2. exd5 Nf6 3. P@e4 *\n"
        );
        assert!(games.next_game().unwrap().is_none());
        assert_eq!(skipped.load(Ordering::Relaxed), 1);
        let err = JsonGames::read(&b"{\"games\": [1"[..], 100, &skipped)
            .err()
            .unwrap();
        assert!(err.to_string().contains("line 1 column"), "{err}");
    }
}
