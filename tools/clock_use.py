#!/usr/bin/env python3
"""Where an engine's clock went in a match: reads `xq match` PGNs (each engine move carries its
score and time as `{+0.25/12 0.534s}`) and, for the named engine, prints the time it spent a move
in bands of plies and the clock it had left at the start of each band; then, over the games it
lost, the ply at which its own score first fell to -THRESHOLD and the clock it had left there.

    python3 tools/clock_use.py --engine xq [--threshold 1.5] [--band 20] match.pgn ...

The clock starts at the engine's own time control (`RedTimeControl`/`BlackTimeControl` when the
sides differ, else `TimeControl`, written `BASE+INCREMENT` in seconds); each timed move takes its
time off and adds the increment. Moves without a time (book moves) are skipped. Figures are
medians over all the engine's moves (or lost games) in the files. Standard library only.
"""

import argparse
import pathlib
import re
import statistics
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import score_lag  # noqa: E402  (the PGN reader the tools share)

SPENT = re.compile(r"\s(\d+(?:\.\d+)?)s\}$")
CONTROL = re.compile(r"^(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$")


def control_of(tags, side):
    """(base, increment) in seconds of `side`'s clock (0 Red, 1 Black), or None if unreadable."""
    text = tags.get(("RedTimeControl", "BlackTimeControl")[side]) or tags.get("TimeControl")
    m = CONTROL.match(text or "")
    if not m:
        return None
    return float(m.group(1)), float(m.group(2) or 0)


def timed_moves(tags, tokens, side):
    """(ply, seconds spent, clock left before the move, score or None) for each of `side`'s moves
    that carries a time; [] when the time control cannot be read."""
    control = control_of(tags, side)
    if control is None:
        return []
    clock, increment = control
    out = []
    for ply, mover, comment in score_lag.moves(tags, tokens):
        if mover != side or not comment:
            continue
        m = SPENT.search(comment)
        if not m:
            continue
        spent = float(m.group(1))
        out.append((ply, spent, clock, score_lag.score_of(comment)))
        clock = clock - spent + increment
    return out


def engine_games(paths, engine):
    """(tags, side, timed moves) for each game of the files that `engine` played."""
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            for tags, tokens in score_lag.games(f):
                side = score_lag.side_of(tags, engine)
                if side is not None:
                    yield tags, side, timed_moves(tags, tokens, side)


def summary(paths, engine, threshold, band):
    """(bands, turns): bands maps a band's first ply to (moves, median spent, median clock at its
    first move); turns lists (ply, clock left) where each lost game's score first fell to
    -threshold."""
    spent, clock_at, turns = {}, {}, []
    for tags, side, moves in engine_games(paths, engine):
        previous = None
        for ply, t, clock, _ in moves:
            start = ply // band * band
            spent.setdefault(start, []).append(t)
            if start != previous:
                clock_at.setdefault(start, []).append(clock)
                previous = start
        if score_lag.lost_by(tags, side):
            turn = next(
                ((ply, c) for ply, _, c, s in moves if s is not None and s <= -threshold), None
            )
            if turn:
                turns.append(turn)
    bands = {
        start: (len(ts), statistics.median(ts), statistics.median(clock_at[start]))
        for start, ts in sorted(spent.items())
    }
    return bands, turns


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--engine", required=True, help="the engine's name in the Red/Black tags")
    ap.add_argument("--threshold", type=float, default=1.5, help="pawns (default 1.5)")
    ap.add_argument("--band", type=int, default=20, help="plies a band (default 20)")
    args = ap.parse_args()
    if args.band < 1:
        ap.error("--band must be at least 1")
    bands, turns = summary(args.pgn, args.engine, args.threshold, args.band)
    if not bands:
        print(f"{args.engine}: no timed moves found", file=sys.stderr)
        return 2
    for start, (n, t, clock) in bands.items():
        print(
            f"plies {start:3d}-{start + args.band - 1:3d}: {n:6d} moves, "
            f"median {t:.3f} s a move, clock at the band's first move {clock:.2f} s"
        )
    if turns:
        print(
            f"{len(turns)} lost games first scored -{args.threshold:g} or worse at ply "
            f"{statistics.median(p for p, _ in turns):g} (median), with "
            f"{statistics.median(c for _, c in turns):.2f} s left"
        )
    else:
        print(f"no lost game scored -{args.threshold:g} or worse")
    return 0


if __name__ == "__main__":
    sys.exit(main())
