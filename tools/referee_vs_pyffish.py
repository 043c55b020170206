#!/usr/bin/env python3
"""Differential check of the referee's replay against Fairy-Stockfish's rules (pyffish).

Reads `xq referee --json` output (one game per line) from standard input or the files named, and
for every game that was read replays its moves with pyffish from the record's start position.
It compares, in the final position: the placement and side to move (the FEN's first two fields),
the number of legal moves, whether the side to move is in check, and whether the referee's
checkmate/stalemate ending agrees with pyffish having no legal move there.

    target/release/xq referee --json ../shared/games/ccpd/ | python3 tools/referee_vs_pyffish.py

Prints one line per disagreement and a closing count; exits 1 if any game disagrees.
Needs `pip install pyffish`.
"""

import json
import sys

try:
    import pyffish
except ImportError:
    sys.exit("pyffish is not installed: pip install pyffish")

VARIANT = "xiangqi"


def to_fairy(iccs):
    """An ICCS move (ranks 0-9) as Fairy-Stockfish writes it (ranks 1-10)."""
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"


def board_and_side(fen):
    return " ".join(fen.split()[:2])


def check_game(game):
    """The disagreements for one game, as text (empty when both agree)."""
    start = game["start_fen"]
    moves = [to_fairy(m) for m in game["moves"]]
    problems = []
    fen = pyffish.get_fen(VARIANT, start, moves)
    ours = game["final"]
    if board_and_side(fen) != board_and_side(ours["fen"]):
        problems.append(f"final position {ours['fen']!r}, pyffish {fen!r}")
    legal = len(pyffish.legal_moves(VARIANT, start, moves))
    if legal != ours["legal_moves"]:
        problems.append(f"{ours['legal_moves']} legal moves, pyffish {legal}")
    check = pyffish.gives_check(VARIANT, start, moves)
    if check != ours["in_check"]:
        problems.append(f"in check {ours['in_check']}, pyffish {check}")
    ended = game["reason"] in ("checkmate", "stalemate") and game["ply"] == len(moves)
    if ended != (legal == 0):
        problems.append(f"ending {game['reason']!r}, pyffish has {legal} legal moves")
    return problems


def main():
    sources = [open(p, encoding="utf-8") for p in sys.argv[1:]] or [sys.stdin]
    games = disagreeing = unread = 0
    for source in sources:
        for line in source:
            if not line.startswith("{"):
                continue
            game = json.loads(line)
            if game.get("final") is None:
                unread += 1
                continue
            games += 1
            problems = check_game(game)
            disagreeing += bool(problems)
            for problem in problems:
                print(f"{game['file']} game {game['game']} (line {game['line']}): {problem}")
    print(
        f"{games} games replayed by both, {disagreeing} disagree, "
        f"{unread} not read by the referee"
    )
    sys.exit(1 if disagreeing else 0)


if __name__ == "__main__":
    main()
