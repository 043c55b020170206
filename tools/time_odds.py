#!/usr/bin/env python3
"""Time odds to parity: xq against an opponent given k times its clock, for several k, fitted.

`run` plays one `xq match` per odds factor (the same openings, seed and options, only the
opponent's clock differing), each written to DIR/odds-K.pgn and its standard output appended to
DIR/odds-K.log; a run stopped part way continues with `--resume` where it stopped. `fit` reads
the logs (the last standing line of each gives its pentanomial counts) and the PGN files (how the
games ended), and prints for each factor the score and Elo with its 95 % interval over the pairs,
then the weighted least-squares line of Elo against log2(k) and the factor where it crosses 0
(parity), with a 95 % interval from a parametric bootstrap over the pairs, and last each engine's
mean seconds a move (from the times the PGN's move comments give) and the games' median length,
which show that the odds applied.

    python3 tools/time_odds.py run --xq target/release/xq --opponent /usr/games/fairy-stockfish \\
        --odds 4,16,64 --tc 2+0.02 --games 200 --seed 95 --dir odds
    python3 tools/time_odds.py fit --dir odds

A log with no standing line yet is left out; exits 2 when none has one.
"""

import argparse
import math
import pathlib
import random
import re
import statistics
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from score_lag import games, moves  # noqa: E402
from sprt_total import Z95, elo_from_score, last_counts  # noqa: E402

# An Elo of a match won or lost outright is capped here so the fit stays finite.
ELO_CAP = 1000.0
TERMINATION = re.compile(r'^\[Termination "([^"]*)"\]', re.M)
# The seconds a move took, at the end of its comment: {+0.33/17 11.601s}.
SECONDS = re.compile(r"\s(\d+(?:\.\d+)?)s\}$")


def scaled(tc, k):
    """The clock BASE+INC multiplied by k, written as xq match reads it."""
    base, inc = (float(x) for x in tc.split("+"))
    return f"{base * k:g}+{inc * k:g}"


def factor_of(path):
    """The odds factor in a name such as odds-16.log."""
    m = re.fullmatch(r"odds-(\d+(?:\.\d+)?)\.(?:log|pgn)", path.name)
    return float(m.group(1)) if m else None


def pair_stats(counts):
    """(pairs, mean score per game, variance of a pair's mean score) of pentanomial counts."""
    n = sum(counts)
    s = sum(k * c for k, c in enumerate(counts)) / (4.0 * n)
    var = sum(c * (k / 4.0 - s) ** 2 for k, c in enumerate(counts)) / n
    return n, s, var


def capped_elo(s):
    return max(-ELO_CAP, min(ELO_CAP, elo_from_score(s)))


def elo_and_var(counts):
    """Elo of the counts and the variance of that Elo (delta method), for the fit's weights."""
    n, s, var = pair_stats(counts)
    elo = capped_elo(s)
    # dElo/ds = 400 / (ln 10 · s · (1 − s)); a score of 0 or 1 borrows half a pair's worth.
    edge = 1.0 / (4.0 * n)
    s_mid = min(max(s, edge), 1.0 - edge)
    slope = 400.0 / (math.log(10.0) * s_mid * (1.0 - s_mid))
    var_s = max(var, edge * (1.0 - edge)) / n
    return elo, slope * slope * var_s


def fit_line(points):
    """Weighted least squares of Elo = a + b·log2(k) over (k, elo, variance) points: (a, b)."""
    w = [1.0 / v for _, _, v in points]
    x = [math.log2(k) for k, _, _ in points]
    y = [e for _, e, _ in points]
    sw = sum(w)
    mx = sum(wi * xi for wi, xi in zip(w, x)) / sw
    my = sum(wi * yi for wi, yi in zip(w, y)) / sw
    sxx = sum(wi * (xi - mx) ** 2 for wi, xi in zip(w, x))
    sxy = sum(wi * (xi - mx) * (yi - my) for wi, xi, yi in zip(w, x, y))
    b = sxy / sxx
    return my - b * mx, b


def parity(a, b):
    """The factor where the line crosses Elo 0, or None when the line does not fall with k."""
    if b >= 0.0:
        return None
    return 2.0 ** (-a / b)


def bootstrap_parity(matches, rounds, seed):
    """The 2.5 % and 97.5 % points of the parity factor over pentanomial resamples of every
    match (each pair drawn from that match's observed pair outcomes), refitted each time.
    A resample whose line does not fall with k counts as parity beyond every factor."""
    rng = random.Random(seed)
    found = []
    for _ in range(rounds):
        points = []
        for k, counts in matches:
            n = sum(counts)
            drawn = rng.choices(range(5), weights=counts, k=n)
            sample = [drawn.count(i) for i in range(5)]
            elo, var = elo_and_var(sample)
            points.append((k, elo, var))
        a, b = fit_line(points)
        p = parity(a, b)
        found.append(math.inf if p is None else p)
    found.sort()
    return found[int(0.025 * (rounds - 1))], found[int(0.975 * (rounds - 1))]


def endings(pgn):
    """How many games ended each way, from the PGN's Termination tags."""
    tally = {}
    if pgn.is_file():
        for name in TERMINATION.findall(pgn.read_text(encoding="utf-8", errors="replace")):
            tally[name] = tally.get(name, 0) + 1
    return tally


def move_times(pgn):
    """({engine: (moves timed, total seconds)}, plies of each game) from a PGN whose moves carry
    their time in their comments; book moves and moves without a comment are not counted."""
    totals, plies = {}, []
    if not pgn.is_file():
        return totals, plies
    for tags, tokens in games(pgn.read_text(encoding="utf-8", errors="replace").splitlines()):
        names = [tags.get("Red"), tags.get("Black")]
        played = moves(tags, tokens)
        for _, side, comment in played:
            m = SECONDS.search(comment) if comment else None
            if m:
                n, t = totals.get(names[side], (0, 0.0))
                totals[names[side]] = (n + 1, t + float(m.group(1)))
        plies.append(len(played))
    return totals, plies


def run(args):
    out = pathlib.Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    for k in [float(x) for x in args.odds.split(",")]:
        name = f"odds-{k:g}"
        pgn = out / f"{name}.pgn"
        command = [
            args.xq, "match",
            "--engine", f"xq={args.xq}",
            "--engine", f"opp={args.opponent},proto={args.proto},tc={scaled(args.tc, k)}",
            "--tc", args.tc, "--games", str(args.games), "--concurrency", str(args.concurrency),
            "--openings", args.openings, "--seed", str(args.seed), "--resign", args.resign,
            "--pgn", str(pgn),
        ]  # fmt: skip
        if pgn.is_file():
            command.append("--resume")
        with open(out / f"{name}.log", "a", encoding="utf-8") as log:
            log.write("$ " + " ".join(command) + "\n")
            log.flush()
            code = subprocess.call(command, stdout=log, stderr=subprocess.STDOUT)
        if code != 0:
            print(f"{name}: xq match exited with {code}; see {out / name}.log", file=sys.stderr)
            return code
    return 0


def fit(args):
    out = pathlib.Path(args.dir)
    logs = sorted(
        (p for p in out.glob("odds-*.log") if factor_of(p) is not None), key=factor_of
    )
    if not logs:
        print(f"{out}: no odds-K.log files", file=sys.stderr)
        return 2
    matches = []
    points = []
    print("| odds | games | won | drawn | lost | score | Elo (95 %) | endings |")
    print("|---|---|---|---|---|---|---|---|")
    for log in logs:
        k = factor_of(log)
        counts = last_counts(log)
        if counts is None:
            # A match started and stopped before its first pair: nothing to count yet.
            print(f"{log}: no 'Score of ... Ptnml(0-2) [...]' line, left out", file=sys.stderr)
            continue
        text = log.read_text(encoding="utf-8", errors="replace")
        wdl = re.findall(r"^Score of \S+ vs \S+: (\d+) - (\d+) - (\d+)", text, re.M)
        won, lost, drawn = (int(x) for x in wdl[-1]) if wdl else (0, 0, 0)
        n, s, var = pair_stats(counts)
        se = math.sqrt(var / n)
        low, high = capped_elo(s - Z95 * se), capped_elo(s + Z95 * se)
        elo, elo_var = elo_and_var(counts)
        matches.append((k, counts))
        points.append((k, elo, elo_var))
        ends = endings(out / f"odds-{k:g}.pgn")
        ends_text = ", ".join(f"{v} {name}" for name, v in sorted(ends.items(), key=lambda e: -e[1]))
        print(
            f"| {k:g}× | {won + drawn + lost} | {won} | {drawn} | {lost} | {100 * s:.1f} % "
            f"| {elo:+.0f} ({low:+.0f} … {high:+.0f}) | {ends_text} |"
        )
    if not points:
        print(f"{out}: no log with a standing line", file=sys.stderr)
        return 2
    if len(points) < 2:
        print("one factor only: no line to fit")
        print_times(out, [k for k, _ in matches])
        return 0
    a, b = fit_line(points)
    p = parity(a, b)
    low, high = bootstrap_parity(matches, args.rounds, args.seed)
    shown = "none (the line does not fall)" if p is None else f"{p:.1f}×"
    print(
        f"line: Elo = {a:+.0f} {b:+.0f}·log2(odds); parity at {shown} "
        f"(95 %: {low:.1f}× … {'beyond' if math.isinf(high) else f'{high:.1f}×'})"
    )
    print_times(out, [k for k, _ in matches])
    return 0


def print_times(out, factors):
    """The table of each engine's mean seconds a move and the games' median length, which shows
    whether the odds applied."""
    rows = []
    for k in factors:
        totals, plies = move_times(out / f"odds-{k:g}.pgn")
        means = {name: t / n for name, (n, t) in sorted(totals.items()) if n}
        if not means:
            continue
        each = ", ".join(f"{name} {mean:.3f}" for name, mean in means.items())
        ratio = ""
        if len(means) == 2 and min(means.values()) > 0:
            ratio = f"{max(means.values()) / min(means.values()):.1f}×"
        rows.append(f"| {k:g}× | {each} | {ratio} | {statistics.median(plies):g} |")
    if rows:
        print()
        print("| odds | seconds a move, each engine | slower / faster | median plies |")
        print("|---|---|---|---|")
        print("\n".join(rows))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="play (or continue) one match per odds factor")
    r.add_argument("--xq", default="target/release/xq")
    r.add_argument("--opponent", default="/usr/games/fairy-stockfish")
    r.add_argument("--proto", default="uci1", help="the opponent's protocol, as xq match names it")
    r.add_argument("--odds", default="4,16,64", help="factors, comma-separated")
    r.add_argument("--tc", default="2+0.02", help="xq's clock, BASE+INC in seconds")
    r.add_argument("--games", type=int, default=200)
    r.add_argument("--concurrency", type=int, default=2)
    r.add_argument("--openings", default="tools/openings.txt")
    r.add_argument("--seed", type=int, default=95)
    r.add_argument("--resign", default="3,1500")
    r.add_argument("--dir", default="odds")
    f = sub.add_parser("fit", help="the table, the line and the parity factor")
    f.add_argument("--dir", default="odds")
    f.add_argument("--rounds", type=int, default=4000, help="bootstrap resamples")
    f.add_argument("--seed", type=int, default=1, help="the bootstrap's seed")
    args = ap.parse_args()
    sys.exit(run(args) if args.command == "run" else fit(args))


if __name__ == "__main__":
    main()
