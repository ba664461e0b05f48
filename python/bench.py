"""pocketfen against python-chess, one thread, on the same games and FENs.

    python python/bench.py            # from the repository root, with both installed

- validate: every game of the bundled samples (standard, crazyhouse and horde), repeated
  to 2,000 games, read and replayed: python-chess's `chess.pgn.read_game` (which parses
  each SAN and plays it) against `pocketfen.validate(data, jobs=1)`;
- replay: the same games, the UCI of every ply: python-chess's read_game then its
  mainline's UCIs against `pocketfen.replay(data, emit="uci", jobs=1)`;
- convert_fen: the bundled crazyhouse FENs (in the bracket dialect python-chess reads),
  repeated to 20,000: `CrazyhouseBoard(fen).fen()` against
  `pocketfen.convert_fen(fen, "lichess")`.

- from_board / to_board: the same crazyhouse positions traded with python-chess,
  against the FEN round trip each replaces: `Position(board.fen())` for
  `Position.from_board(board)`, `CrazyhouseBoard(pos.fen("bracket"))` for
  `pos.to_board()`.

Each figure is the best of 3 runs; the ratio is the peer's time over pocketfen's. The
targets: at least 50× for validating and replaying, 100× for FENs (issue 16), and the
interop calls no dearer than one FEN round trip, a ratio of 1× or more (issue 28). A
target missed is marked MISSED and counted at the end; the exit status stays 0 (a bench
reports: two loaded cores can miss one by chance).
"""

import io
import pathlib
import sys
import time

import chess
import chess.pgn
import chess.variant

import pocketfen

ROOT = pathlib.Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"


def best_of(n, f):
    best = float("inf")
    out = None
    for _ in range(n):
        start = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - start)
    return out, best


def archive(games_wanted=2000):
    games = []
    for path in sorted(SAMPLES.glob("*.pgn")):
        text = path.read_text(encoding="utf-8", errors="replace")
        games.append(text.strip() + "\n\n")
    unit = "".join(games)
    per_unit = sum(t.count("[Event ") for t in games)
    return unit * max(1, games_wanted // per_unit)


def python_chess_validate(text):
    stream = io.StringIO(text)
    games = plies = errors = 0
    while True:
        game = chess.pgn.read_game(stream)
        if game is None:
            break
        games += 1
        errors += bool(game.errors)
        plies += sum(1 for _ in game.mainline_moves())
    return games, plies, errors


def python_chess_replay(text):
    stream = io.StringIO(text)
    out = []
    while True:
        game = chess.pgn.read_game(stream)
        if game is None:
            break
        out.append([m.uci() for m in game.mainline_moves()])
    return out


def pocketfen_validate(data):
    games = plies = 0
    for record in pocketfen.validate(data, jobs=1):
        if record["type"] == "summary":
            games, plies = record["games"], record["plies"]
    return games, plies


def pocketfen_replay(data):
    return [plies for _, plies in pocketfen.replay(data, emit="uci", jobs=1)]


def main():
    text = archive()
    data = text.encode()
    rows = []

    (pc_games, pc_plies, _), t_pc = best_of(3, lambda: python_chess_validate(text))
    (pf_games, pf_plies), t_pf = best_of(3, lambda: pocketfen_validate(data))
    assert pc_games == pf_games, (pc_games, pf_games)
    rows.append(("validate", f"{pf_games} games, {pf_plies} plies", t_pc, t_pf, 50))

    pc_moves, t_pc = best_of(3, lambda: python_chess_replay(text))
    pf_moves, t_pf = best_of(3, lambda: pocketfen_replay(data))
    same = sum(a == b for a, b in zip(pc_moves, pf_moves))
    rows.append(("replay (UCI per ply)", f"{same} of {len(pc_moves)} games identical", t_pc, t_pf, 50))

    lines = [l for l in (SAMPLES / "crazyhouse-fens.txt").read_text().splitlines() if l.strip()]
    bracket = []
    for line in lines:
        try:
            fen = pocketfen.convert_fen(line, "bracket")
        except pocketfen.FenError:
            continue
        if " | " in fen:
            continue
        try:
            chess.variant.CrazyhouseBoard(fen)
        except ValueError:
            continue
        bracket.append(fen)
    fens = (bracket * (20000 // len(bracket) + 1))[:20000]

    def pc_fens():
        return [chess.variant.CrazyhouseBoard(f).fen() for f in fens]

    def pf_fens():
        convert = pocketfen.convert_fen
        return [convert(f, "lichess") for f in fens]

    _, t_pc = best_of(3, pc_fens)
    _, t_pf = best_of(3, pf_fens)
    rows.append(("convert_fen", f"{len(fens)} FENs ({len(bracket)} distinct)", t_pc, t_pf, 100))

    def legal(fen):
        try:
            return pocketfen.Position(fen, variant="crazyhouse") is not None
        except pocketfen.FenError:
            return False

    boards = [chess.variant.CrazyhouseBoard(f) for f in fens if legal(f)]
    positions = [pocketfen.Position.from_board(b) for b in boards]
    assert all(p.to_board() == b for p, b in zip(positions, boards))
    Position, Crazyhouse = pocketfen.Position, chess.variant.CrazyhouseBoard
    _, t_fen = best_of(3, lambda: [Position(b.fen()) for b in boards])
    _, t_pf = best_of(3, lambda: [Position.from_board(b) for b in boards])
    what = f"{len(boards)} boards"
    rows.append(("from_board (vs the FEN round trip)", what, t_fen, t_pf, 1))
    _, t_fen = best_of(3, lambda: [Crazyhouse(p.fen("bracket")) for p in positions])
    _, t_pf = best_of(3, lambda: [p.to_board() for p in positions])
    rows.append(("to_board (vs the FEN round trip)", what, t_fen, t_pf, 1))

    print(f"python {sys.version.split()[0]}, python-chess {chess.__version__}, pocketfen {pocketfen.__version__}")
    print()
    print("| task | input | python-chess | pocketfen | ratio | target |")
    print("| --- | --- | --- | --- | --- | --- |")
    missed = 0
    for task, what, a, b, target in rows:
        met = a / b >= target
        missed += not met
        ratio = f"{a / b:.0f}×" if a / b >= 10 else f"{a / b:.1f}×"
        print(f"| {task} | {what} | {a:.3f} s | {b:.4f} s | {ratio} | ≥ {target}×{'' if met else ' MISSED'} |")
    # A bench reports: a missed target is marked (and counted here), never a failure,
    # since two loaded cores can miss one by chance.
    if missed:
        print(f"{missed} target{'s' if missed > 1 else ''} missed in this run (see MISSED above)")


if __name__ == "__main__":
    main()
