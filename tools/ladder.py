#!/usr/bin/env python3
"""Measures the strength levels of `xq` (UCI `Skill Level`) as a ladder anchored on Fairy-Stockfish.

Plays, with `xq match`, level 20 (the full engine) against Fairy-Stockfish (its Elo is fixed at
`--anchor-elo`, 2500 by default), then each even level against the next even one. Each level's
Elo is the next level's less the Elo difference its score gives; a score of 0 or 1 counts as half
a game from it (so the step stays finite and says "at least this far apart"). Each match's log is
kept in `--out`, and a finished one is read back instead of played again, so an interrupted run
goes on where it stopped.

    python3 tools/ladder.py --xq target/release/xq --fsf /usr/games/fairy-stockfish \\
        --games 60 --anchor-games 60 --tc 2+0.02 --concurrency 2 --seed 71 --out ladder

A step whose two levels the games did not separate can be given more with `--step-games LEVEL=N`
(the step from LEVEL to the next); run again with it, and only that step is played again.

Prints a Markdown table (level, Elo, score against the next level or the anchor, games, and the
95 % interval of that step's Elo difference from the spread between games; a step whose interval
excludes 0 separates the two levels) and the `ELO_OF_LEVEL` rows of `src/search/skill.rs`. Exits 1 if a match fails or its log has no result.
"""

import argparse
import math
import os
import re
import subprocess
import sys

from sprt_total import Z95, elo_from_score

SCORE = re.compile(r"^Score of (\S+) vs (\S+): (\d+) - (\d+) - (\d+)\s")
LEVELS = list(range(0, 21, 2))


def result(path):
    """(wins, losses, draws) of the first engine from the last standing line of a match log."""
    found = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = SCORE.match(line)
            if m:
                found = tuple(int(m.group(k)) for k in (3, 4, 5))
    return found


def play(args, name, first, second, games):
    """Plays one match (or reads its finished log) and returns (wins, losses, draws) of `first`."""
    log = os.path.join(args.out, name + ".log")
    if os.path.exists(log) and (r := result(log)) and sum(r) == games:
        return r
    cmd = [
        args.xq, "match", "--engine", first, "--engine", second, "--games", str(games),
        "--tc", args.tc, "--concurrency", str(args.concurrency), "--openings", args.openings,
        "--seed", str(args.seed), "--resign", "3,1500",
        "--pgn", os.path.join(args.out, name + ".pgn"),
    ]
    print(f"{name}: {' '.join(cmd)}", file=sys.stderr, flush=True)
    with open(log, "w", encoding="utf-8") as out:
        code = subprocess.call(cmd, stdout=out, stderr=subprocess.STDOUT)
    r = result(log)
    if code != 0 or r is None:
        sys.exit(f"{name}: xq match failed (exit {code}); see {log}")
    return r


def step_elo(wins, losses, draws):
    """The Elo difference a score gives, a perfect or null score counted half a game from it,
    the score, and the Elo interval of 95 % from the spread between games."""
    n = wins + losses + draws
    s = (wins + draws / 2.0) / n
    var = (wins * (1.0 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s**2) / n
    half = Z95 * math.sqrt(var / n)

    def clamp(x):
        return min(max(x, 0.5 / n), 1.0 - 0.5 / n)

    interval = (elo_from_score(clamp(s - half)), elo_from_score(clamp(s + half)))
    return elo_from_score(clamp(s)), s, interval


def parse_step_games(items):
    """{level: games} from `--step-games LEVEL=N` values; ValueError naming a bad one."""
    games = {}
    for item in items:
        low, sep, n = item.partition("=")
        if not sep or not low.isdigit() or not n.isdigit() or int(low) not in LEVELS[:-1] or int(n) < 1:
            raise ValueError(
                f"--step-games {item!r}: expected LEVEL=N with LEVEL one of {LEVELS[:-1]} and N >= 1"
            )
        games[int(low)] = int(n)
    return games


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xq", default="target/release/xq")
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    ap.add_argument("--games", type=int, default=60, help="games of each level against the next")
    ap.add_argument(
        "--step-games", action="append", default=[], metavar="LEVEL=N",
        help="N games instead of --games for the step from LEVEL to the next (repeatable), "
        "for a step whose two levels the first games did not separate",
    )
    ap.add_argument("--anchor-games", type=int, default=60, help="games of level 20 against the anchor")
    ap.add_argument("--anchor-elo", type=float, default=2500.0)
    ap.add_argument("--tc", default="2+0.02")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--openings", default="tools/openings.txt")
    ap.add_argument("--seed", type=int, default=71)
    ap.add_argument("--out", default="ladder")
    args = ap.parse_args()
    try:
        step_games = parse_step_games(args.step_games)
    except ValueError as e:
        ap.error(str(e))
    os.makedirs(args.out, exist_ok=True)

    def level(k):
        return f"L{k}={args.xq},proto=uci,opt.Skill Level={k}"

    anchor = play(args, "L20-fsf", level(20), f"fsf={args.fsf},proto=uci1", args.anchor_games)
    diff, score, span = step_elo(*anchor)
    elo = {20: args.anchor_elo + diff}
    rows = {20: (f"{100 * score:.1f} % against Fairy-Stockfish", sum(anchor), span)}
    for low, high in reversed(list(zip(LEVELS, LEVELS[1:]))):
        games = step_games.get(low, args.games)
        r = play(args, f"L{low}-L{high}", level(low), level(high), games)
        diff, score, span = step_elo(*r)
        elo[low] = elo[high] + diff
        rows[low] = (f"{100 * score:.1f} % against level {high}", sum(r), span)

    print("| level | Elo | score | games | step's Elo (95 %) |")
    print("|---|---|---|---|---|")
    for k in LEVELS:
        text, games, (lo, hi) = rows[k]
        step = f"{lo:+.0f} … {hi:+.0f}"
        print(f"| {k} | {elo[k]:.0f} | {text} | {games} | {step} |")
    print()
    print(",\n".join(f"    ({k}, {elo[k]:.0f})" for k in LEVELS) + ",")


if __name__ == "__main__":
    main()
