"""Writes archive.json: a Chess.com Published-Data monthly archive in the API's exact
shape (https://api.chess.com/pub/player/{user}/games/{YYYY}/{MM}: compact JSON, one
object with a "games" list), its PGN bodies taken from the corpus (see SOURCES.md).
Run from the repository's root: python3 grammar-tests/chesscom/make.py"""

import json
import re

ROOT = "grammar-tests/chesscom/"


def games_of(path):
    text = open(path, encoding="utf-8").read()
    return [g.strip() + "\n" for g in re.split(r"\n\n(?=\[Event )", text) if g.strip()]


def tags(pgn):
    return dict(re.findall(r'^\[(\w+) "(.*)"\]$', pgn, re.M))


def player(name, rating, result, n):
    return {
        "rating": rating,
        "result": result,
        "@id": "https://api.chess.com/pub/player/" + name.lower(),
        "username": name,
        "uuid": "00000000-0000-4000-8000-%012d" % n,
    }


def entry(n, pgn, rules, white, black, fen="", initial="", time_control="180"):
    return {
        "url": "https://www.chess.com/game/live/%d" % (160000000 + n),
        "pgn": pgn,
        "time_control": time_control,
        "end_time": 1480500000 + 600 * n,
        "rated": True,
        "uuid": "00000000-0000-4000-9000-%012d" % n,
        "initial_setup": initial,
        "fen": fen,
        "time_class": "blitz",
        "rules": rules,
        "white": white,
        "black": black,
    }


def outcome(result):
    return {"1-0": ("win", "resigned"), "0-1": ("resigned", "win"), "1/2-1/2": ("agreed", "agreed")}[result]


standard = games_of("samples/lichess_standard_2025-05_sample438.pgn")
entries = []
# 1: a standard game whose PGN lacks the players, ratings and result: the JSON has them.
g = standard[0]
t = tags(g)
stripped = re.sub(r'^\[(White|Black|WhiteElo|BlackElo|Result) ".*"\]\n', "", g, flags=re.M)
w, b = outcome(t["Result"])
entries.append(entry(1, stripped, "chess", player(t["White"], int(t["WhiteElo"]), w, 1), player(t["Black"], int(t["BlackElo"]), b, 2)))
# 2: a standard game with its tags.
g = standard[1]
t = tags(g)
w, b = outcome(t["Result"])
entries.append(entry(2, g, "chess", player(t["White"], int(t["WhiteElo"]), w, 3), player(t["Black"], int(t["BlackElo"]), b, 4)))
# 3: Chess.com's own crazyhouse game (its PGN as Chess.com wrote it).
g = open("samples/chesscom_zh_2016_eekarf-JannLeeCrazyhouse_scalachess.pgn", encoding="utf-8").read()
entries.append(entry(3, g, "crazyhouse", player("eekarf", 2071, "checkmated", 5), player("JannLeeCrazyhouse", 2593, "win", 6)))
# 4 and 5: bughouse records: a FEN and no moves (one without a pgn, one with its tags only).
bpgn = open("grammar-tests/bpgn/ok/chesscom_bughouse_2022_bugchess-example.bpgn", encoding="utf-8").read()
header = bpgn.split("\n\n")[0] + "\n\n0-1\n"
pair = tags(bpgn)["FEN"]
bug = dict(entry(4, "", "bughouse", player("bugA", 1800, "win", 7), player("bugB", 1750, "bughousepartnerlose", 8), fen=pair))
del bug["pgn"]
entries.append(bug)
entries.append(entry(5, header, "bughouse", player("bugC", 1700, "resigned", 9), player("bugD", 1650, "win", 10), fen=pair))
# 6: a Chess960 game (hand-made moves from a Chess960 start; no [Variant] in its PGN).
start = "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w GBgb - 0 1"
g = '[Event "Live Chess - Chess960"]\n[Site "Chess.com"]\n[Date "2016.11.30"]\n[Round "-"]\n[White "nine"]\n[Black "sixty"]\n[Result "*"]\n[SetUp "1"]\n[FEN "%s"]\n\n1. e4 e5 2. Ng3 Ng6 *\n' % start
entries.append(entry(6, g, "chess960", player("nine", 1500, "abandoned", 11), player("sixty", 1500, "win", 12), initial=start))
# 7: a rule pocketfen does not play.
g = '[Event "Live Chess - King of the Hill"]\n[Site "Chess.com"]\n[Date "2016.11.30"]\n[Round "-"]\n[White "k"]\n[Black "h"]\n[Result "1-0"]\n\n1. e4 e5 2. Ke2 Nc6 3. Ke3 Nf6 4. Kd3 1-0\n'
entries.append(entry(7, g, "kingofthehill", player("k", 1500, "win", 13), player("h", 1500, "kingofthehill", 14)))
open(ROOT + "archive.json", "w", encoding="utf-8").write(json.dumps({"games": entries}, separators=(",", ":"), ensure_ascii=False))
