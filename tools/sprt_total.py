#!/usr/bin/env python3
"""Adds up the pair counts of SPRT runs that `xq match` played in parts, and tests the total.

Each argument is the standard output of one `xq match --sprt ...` run; the last standing line of
each ("Score of ... | Ptnml(0-2) [a, b, c, d, e], ...") gives its pentanomial counts (pairs of
games scoring 0, 0.5, 1, 1.5 and 2 points for the first engine). The counts are summed and the
total is tested as `xq match` tests one run: mean score per game, its variance between pairs, Elo
with a 95 % interval, and the normal approximation of the log-likelihood ratio of H1 (elo1)
against H0 (elo0), with the bounds for alpha and beta.

    python3 tools/sprt_total.py --sprt 0,10 part1.log part2.log

Exits 2 when a file has no standing line.
"""

import argparse
import math
import re
import sys

PTNML = re.compile(r"Ptnml\(0-2\) \[(\d+), (\d+), (\d+), (\d+), (\d+)\]")
Z95 = 1.959964


def last_counts(path):
    """The pentanomial counts of the last standing line of an `xq match` log, or None."""
    counts = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = PTNML.search(line)
            if line.startswith("Score of") and m:
                counts = [int(x) for x in m.groups()]
    return counts


def score_from_elo(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(s):
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0)


def summary(counts, elo0, elo1):
    """(pairs, mean score, Elo, (low, high), LLR) of the summed pentanomial counts."""
    n = sum(counts)
    if n == 0:
        return 0, 0.5, 0.0, None, 0.0
    s = sum(k * c for k, c in enumerate(counts)) / (4.0 * n)
    var = sum(c * (k / 4.0 - s) ** 2 for k, c in enumerate(counts)) / n
    if var <= 0.0:
        return n, s, elo_from_score(s), None, 0.0
    se = math.sqrt(var / n)
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    llr = n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    interval = (elo_from_score(s - Z95 * se), elo_from_score(s + Z95 * se))
    return n, s, elo_from_score(s), interval, llr


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sprt", default="0,10", help="ELO0,ELO1[,ALPHA,BETA] as for xq match")
    ap.add_argument("logs", nargs="+", help="standard output of each xq match run")
    args = ap.parse_args()
    parts = [float(x) for x in args.sprt.split(",")]
    elo0, elo1 = parts[0], parts[1]
    alpha, beta = (parts[2], parts[3]) if len(parts) == 4 else (0.05, 0.05)
    total = [0] * 5
    for path in args.logs:
        counts = last_counts(path)
        if counts is None:
            print(f"{path}: no 'Score of ... Ptnml(0-2) [...]' line", file=sys.stderr)
            sys.exit(2)
        print(f"{path}: {sum(counts)} pairs {counts}")
        total = [a + b for a, b in zip(total, counts)]
    n, s, elo, interval, llr = summary(total, elo0, elo1)
    low, high = math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)
    span = f" ({interval[0]:+.1f} ... {interval[1]:+.1f})" if interval else ""
    verdict = "H1 accepted" if llr >= high else "H0 accepted" if llr <= low else "undecided"
    print(
        f"total: {n} pairs {total}, score {s:.4f}, Elo {elo:+.1f}{span}, "
        f"LLR {llr:.2f} ({low:.2f}, {high:.2f}): {verdict}"
    )


if __name__ == "__main__":
    main()
