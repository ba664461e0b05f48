#!/usr/bin/env python3
"""Writes the malformed PGN, BPGN and compressed inputs of this folder (run from here).

Each file is one hostile or broken input; what pocketfen says about it is snapshotted
by tests/malformed.rs. Deterministic: rerunning gives the same bytes.
"""
import bz2, gzip, os, random

G = b'[Event "malformed"]\n[Variant "crazyhouse"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 *\n'
OK = b'[Event "fine game after it"]\n\n1. d4 d5 *\n'

def tags(**kw):
    return b''.join(b'[%s "%s"]\n' % (k.encode(), v.encode()) for k, v in kw.items())

pgn = {
    'empty': b'',
    'whitespace-only': b' \n\t\n\r\n  \n',
    'bom': b'\xef\xbb\xbf' + G,
    'bom-twice': b'\xef\xbb\xbf\xef\xbb\xbf' + G,
    'crlf': G.replace(b'\n', b'\r\n'),
    'cr-only': G.replace(b'\n', b'\r'),
    'nul-in-movetext': b'[Event "nul"]\n\n1. e4 \x00 e5 *\n\n' + OK,
    'nul-in-tag': b'[Event "n\x00l"]\n\n1. e4 e5 *\n',
    'latin1-names': b'[Event "Caf\xe9"]\n[White "M\xfcller"]\n\n1. e4 e5 *\n',
    'utf16-le': '\ufeff[Event "utf16"]\n\n1. e4 e5 *\n'.encode('utf-16-le'),
    'truncated-mid-tag': b'[Event "trunc',
    'truncated-mid-move': b'[Event "t"]\n\n1. e4 e5 2. Nf',
    'truncated-mid-comment': b'[Event "t"]\n\n1. e4 { a clock comment that never',
    'unclosed-comment-then-games': b'[Event "open comment"]\n\n1. e4 { never closed e5 *\n\n' + OK + b'\n' + OK,
    'unclosed-tag-quote': b'[Event "no end]\n[Site "x"]\n\n1. e4 *\n\n' + OK,
    'tag-without-bracket': b'[Event "x"\n\n1. e4 *\n\n' + OK,
    'tag-without-value': b'[Event]\n\n1. e4 *\n\n' + OK,
    'tag-name-non-ascii': '[Événement "x"]\n\n1. e4 *\n'.encode(),
    'tag-in-movetext': b'[Event "x"]\n\n1. e4 [Site "y"] e5 *\n',
    'movetext-only': b'1. e4 e5 2. Nf3 *\n',
    'tags-only': b'[Event "x"]\n[Site "y"]\n',
    'no-blank-line-between-games': b'[Event "a"]\n1. e4 *\n[Event "b"]\n1. d4 *\n',
    'two-result-markers': b'[Event "x"]\n\n1. e4 1-0 0-1\n',
    'move-after-result': b'[Event "x"]\n\n1. e4 1-0 e5\n',
    'close-paren-without-open': b'[Event "x"]\n\n1. e4 ) e5 *\n\n' + OK,
    'unclosed-variation': b'[Event "x"]\n\n1. e4 (1. d4 d5 e5 *\n\n' + OK,
    'variation-before-move': b'[Event "x"]\n\n(1. d4) 1. e4 *\n',
    'nested-braces': b'[Event "x"]\n\n1. e4 { a { b } c } e5 *\n',
    'close-brace-without-open': b'[Event "x"]\n\n1. e4 } e5 *\n',
    'overflowing-move-number': b'[Event "x"]\n\n99999999999999999999999. e4 e5 *\n',
    'wrong-move-numbers': b'[Event "x"]\n\n5. e4 17... e5 2. Nf3 *\n',
    'overflowing-nag': b'[Event "x"]\n\n1. e4 $99999999999999999999 e5 *\n',
    'empty-nag': b'[Event "x"]\n\n1. e4 $ e5 *\n',
    'overflowing-clock': b'[Event "x"]\n\n1. e4 { [%clk 99999999999999:99:99] } e5 { [%clk -1:00:00] } *\n',
    'semicolon-comment': b'[Event "x"]\n\n1. e4 ; the rest { is a comment\n e5 *\n',
    'percent-escape-line': b'[Event "x"]\n% an escape line\n\n1. e4\n% another e4 e4 e4\ne5 *\n',
    'percent-mid-line': b'[Event "x"]\n\n1. e4 %e5 *\n',
    'overflowing-fen-fullmove': tags(Event='x', FEN='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 4294967296') + b'\n1. e4 *\n',
    'max-fen-fullmove': tags(Event='x', FEN='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4294967295 4294967295') + b'\n1. e4 e5 2. Nf3 *\n',
    'fen-tag-garbage': tags(Event='x', FEN='hello world') + b'\n1. e4 *\n',
    'fen-tag-empty': tags(Event='x', FEN='') + b'\n1. e4 *\n',
    'variant-tag-garbage': b'[Event "x"]\n[Variant "\x01\x02"]\n\n1. e4 *\n',
    'variant-tag-empty': b'[Event "x"]\n[Variant ""]\n\n1. e4 *\n',
    'result-tag-garbage': b'[Event "x"]\n[Result "won on time"]\n\n1. e4 *\n',
    'result-marker-only': b'[Event "x"]\n\n*\n',
    'html-error-page': b'<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body><h1>502</h1></body></html>\n',
    'json-instead': b'{"id": "abc", "moves": "e4 e5 Nf3"}\n',
    'fen-line-instead': b'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n',
    'tabs-and-form-feeds': b'[Event "x"]\n\n1.\te4\x0ce5\t2.\x0cNf3 *\n',
    'unicode-dash-castling': '[Event "x"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O–O *\n'.encode(),
    'figurine-notation': '[Event "x"]\n\n1. e4 e5 2. ♘f3 *\n'.encode(),
    'unicode-glyph': '[Event "x"]\n\n1. e4‼ e5 *\n'.encode(),
    'lowercase-piece-letter': b'[Event "x"]\n\n1. e4 e5 2. nf3 *\n',
    'long-algebraic': b'[Event "x"]\n\n1. e2-e4 e7-e5 *\n',
    'uci-moves': b'[Event "x"]\n\n1. e2e4 e7e5 *\n',
    'illegal-drop-standard': b'[Event "x"]\n\n1. e4 d5 2. exd5 P@e4 *\n',
    'drop-of-king': b'[Event "x"]\n[Variant "crazyhouse"]\n\n1. e4 d5 2. exd5 K@e4 *\n',
    'three-games-second-binary': OK + b'\n[Event "bin"]\n\n' + bytes(range(256)) + b'\n\n' + OK,
    'control-characters': b'[Event "\x07\x08\x1b[31m"]\n\n1. e4 \x1b[0m e5 *\n',
    'very-long-token': b'[Event "x"]\n\n1. ' + b'N' * 5000 + b' *\n',
    'only-move-numbers': b'[Event "x"]\n\n1. 2. 3. 4... *\n',
    'escaped-quotes-in-tag': b'[Event "a \\"quoted\\" \\\\ name"]\n\n1. e4 *\n',
    'backslash-at-tag-end': b'[Event "x\\"]\n\n1. e4 *\n',
    # Issue 23: what other programs write. Two BOM-prefixed files joined with `cat`; a BOM
    # pasted between tokens; an old-Mac archive (lone CRs) whose second game has an illegal
    # move; a blank line inside the tag section (the drop is legal only if the Variant tag
    # after it belongs to the game); an en-dash result; UCI and long algebraic movetext.
    'bom-between-games': b'\xef\xbb\xbf' + G + b'\n\xef\xbb\xbf' + OK,
    'bom-between-tokens': b'[Event "bom"]\n\n1. e4\xef\xbb\xbfe5 2. Nf3 \xef\xbb\xbf Nc6 *\n',
    'cr-only-games': (G + b'\n[Event "b"]\n\n1. d4 d5 2. Ke3 *\n').replace(b'\n', b'\r'),
    'blank-line-in-tags': b'[Event "x"]\n\n[Variant "Crazyhouse"]\n\n1. e4 d5 2. exd5 Qxd5 3. P@e4 *\n',
    'en-dash-result': '[Event "x"]\n[Result "0–1"]\n\n1. f3 e5 2. g4 Qh4# 0–1\n'.encode(),
}
rng = random.Random(20261129)
pgn['random-bytes'] = bytes(rng.randrange(256) for _ in range(4096))
pgn['random-pgn-alphabet'] = bytes(rng.choice(b'[]{}()"; \n.0123456789abcdefghNBRQKOx+#=@-*$/') for _ in range(4096))

bpgn = {
    'truncated': b'[Event "t"]\n[WhiteA "a"][BlackA "b"][WhiteB "c"][BlackB "d"]\n\n1A. e4 1a. e5 1B. d',
    'no-board-letters': b'[Event "x"]\n[WhiteA "a"][BlackA "b"][WhiteB "c"][BlackB "d"]\n\n1. e4 e5 *\n',
    'board-letter-c': b'[Event "x"]\n[WhiteA "a"][BlackA "b"][WhiteB "c"][BlackB "d"]\n\n1A. e4 1C. e5 *\n',
    'out-of-turn': b'[Event "x"]\n[WhiteA "a"][BlackA "b"][WhiteB "c"][BlackB "d"]\n\n1A. e4 1A. d4 *\n',
    'unknown-comment-kind': b'[Event "x"]\n[WhiteA "a"][BlackA "b"][WhiteB "c"][BlackB "d"]\n\n1A. e4 {X: what} 1a. e5 *\n',
    'negative-clock': b'[Event "x"]\n[WhiteA "a"][BlackA "b"][WhiteB "c"][BlackB "d"]\n[TimeControl "180"]\n\n1A. e4 {-5} 1a. e5 {179} *\n',
    'huge-clock': b'[Event "x"]\n[WhiteA "a"][BlackA "b"][WhiteB "c"][BlackB "d"]\n[TimeControl "180"]\n\n1A. e4 {99999999999999999999999} 1a. e5 {1e400} *\n',
    'nan-clock': b'[Event "x"]\n[WhiteA "a"][BlackA "b"][WhiteB "c"][BlackB "d"]\n[TimeControl "180"]\n\n1A. e4 {NaN} 1a. e5 {inf} *\n',
    'drop-not-in-pocket': b'[Event "x"]\n[WhiteA "a"][BlackA "b"][WhiteB "c"][BlackB "d"]\n\n1A. e4 1a. d5 1B. N@e4 *\n',
    'fen-pair-half': b'[Event "x"]\n[WhiteA "a"][BlackA "b"][WhiteB "c"][BlackB "d"]\n[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 |"]\n\n1A. e4 *\n',
    'fen-three-boards': b'[Event "x"]\n[WhiteA "a"][BlackA "b"][WhiteB "c"][BlackB "d"]\n[FEN "8/8/8/8/8/8/8/k6K[] w - - 0 1 | 8/8/8/8/8/8/8/k6K[] w - - 0 1 | 8/8/8/8/8/8/8/k6K[] w - - 0 1"]\n\n1A. Kg1 *\n',
    'broken-drop-nag': b'[Event "x"]\n[WhiteA "a"][BlackA "b"][WhiteB "c"][BlackB "d"]\n\n1A. e4 1a. d5 2A. exd5 1B. $146@e4 *\n',
    'move-after-mate': b'[Event "x"]\n[WhiteA "a"][BlackA "b"][WhiteB "c"][BlackB "d"]\n\n1A. f3 1a. e5 2A. g4 2a. Qh4# 3A. e4 *\n',
    'tags-only': b'[Event "x"]\n[WhiteA "a"][BlackA "b"][WhiteB "c"][BlackB "d"]\n',
    'crlf-and-nul': b'[Event "x"]\r\n[WhiteA "a"][BlackA "b"][WhiteB "c"][BlackB "d"]\r\n\r\n1A. e4 \x00 1a. e5 *\r\n',
    'variation-in-bpgn': b'[Event "x"]\n[WhiteA "a"][BlackA "b"][WhiteB "c"][BlackB "d"]\n\n1A. e4 (1A. d4) 1a. e5 *\n',
    'overflowing-move-number': b'[Event "x"]\n[WhiteA "a"][BlackA "b"][WhiteB "c"][BlackB "d"]\n\n99999999999999999999A. e4 *\n',
}

for name, data in pgn.items():
    open(os.path.join('pgn', name + '.pgn'), 'wb').write(data)
for name, data in bpgn.items():
    open(os.path.join('bpgn', name + '.bpgn'), 'wb').write(data)

# Compressed streams: cut short, corrupted, or nothing but the magic bytes. The body is
# the first 200 KB of real games (samples/lichess_standard_2025-05_sample438.pgn), cut at
# a game boundary, so that a stream cut in half still holds whole games.
real = open('../../samples/lichess_standard_2025-05_sample438.pgn', 'rb').read()
body = real[: real.rfind(b'\n[Event ', 0, 200_000) + 1]
gz = gzip.compress(body, mtime=0)
# bzip2 and zstd decode whole blocks only, so these two streams are four streams (frames)
# of a quarter each, as `cat`ting compressed files makes them.
quarters = []
rest = body
for _ in range(3):
    cut = rest.rfind(b'\n[Event ', 0, len(body) // 4) + 1
    quarters.append(rest[:cut])
    rest = rest[cut:]
quarters.append(rest)
b2 = b''.join(bz2.compress(q) for q in quarters)
comp = {
    'truncated.pgn.gz': gz[: len(gz) // 2],
    'corrupt.pgn.gz': gz[: len(gz) * 3 // 4] + bytes(b ^ 0x5A for b in gz[len(gz) * 3 // 4 : len(gz) * 3 // 4 + 40]) + gz[len(gz) * 3 // 4 + 40 :],
    'magic-only.pgn.gz': gz[:2],
    'truncated.pgn.bz2': b2[: len(b2) // 2],
    'magic-only.pgn.bz2': b2[:3],
    'trailing-garbage.pgn.gz': gz + b'garbage after the stream',
    # Issue 23.2: a tape's zero padding, junk after a bzip2 stream, and a second member
    # that starts but is cut short (real damage: still an error).
    'zero-padded.pgn.gz': gz + bytes(4096),
    'trailing-garbage.pgn.bz2': b2 + b'garbage after the stream',
    'truncated-second-member.pgn.gz': gzip.compress(quarters[0], mtime=0) + gzip.compress(b''.join(quarters[1:]), mtime=0)[:20_000],
}
for name, data in comp.items():
    open(os.path.join('compressed', name), 'wb').write(data)

# zstd through the `zstd` command (Python has no zstd module before 3.14).
import shutil, subprocess
if shutil.which('zstd'):
    zs = b''.join(subprocess.run(['zstd', '-q', '-c', '-3'], input=q, capture_output=True, check=True).stdout for q in quarters)
    open('compressed/truncated.pgn.zst', 'wb').write(zs[: len(zs) // 2])
    open('compressed/magic-only.pgn.zst', 'wb').write(zs[:4])
    open('compressed/trailing-garbage.pgn.zst', 'wb').write(zs + b'garbage after the stream')
# Issue 23.1: pzstd's layout (a skippable frame before each zstd frame), as Lichess writes
# its database files (`pzstd -p10 -19`).
if shutil.which('pzstd'):
    pz = subprocess.run(['pzstd', '-q', '-19', '-p', '2', '-c'], input=body, capture_output=True, check=True).stdout
    assert pz[:4] == b'\x50\x2a\x4d\x18'
    open('compressed/pzstd.pgn.zst', 'wb').write(pz)
    open('compressed/pzstd-truncated.pgn.zst', 'wb').write(pz[:-1000])
