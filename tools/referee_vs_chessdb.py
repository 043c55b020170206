#!/usr/bin/env python3
"""Ply-by-ply comparison of the referee's repetition rulings with chessdb's rule check.

Runs `xq referee --json --repetitions N` on game files and replays every game that was read
through an oracle built on chessdb's public-domain Xiangqi board code (a separate program
built outside this repository by `tools/chessdb_oracle/build.sh`: it reads `FEN<TAB>m1 m2 ...`
lines and asks chessdb's `rep_check` after every move). chessdb's `check_times` is N - 1: with N = 2 the first recurrence of a position is a
repetition.

    tools/referee_vs_chessdb.py --xq target/release/xq --oracle ../chessdb-oracle/oracle \
        [--repetitions 2|3|both] [--limit N] [--jobs N] [--tsv FILE] PATHS...

xq's ruling at a ply comes from the repetitions met on the way (`events`): the event's verdict
for its plies first_ply..last_ply, except where the violator kept its violation up on other
squares (`kept_up_plies` F..L) and the reply after it (F..L+1): there the judge gave no ruling,
except at the reply ruled as the violator repeating again (`kept_on_ply`).
A repetition the record ends in, which the referee judges at the last ply with the reply unknown
(`provisional`), is not among the events; it counts as xq's ruling at that ply unless an event
covers it (`--events-only` leaves it out).
A disagreement is a ply where one rules and the other does not, or both rule differently;
consecutive disagreeing plies of a game make one group, printed as one line with each side's
ruling per ply (R: Red wins, B: Black wins, D: draw, -: none) and the 8 moves ending at the
group's first ply. Games the referee could not read are skipped and counted.

Exits 0 whatever the comparison finds; 2 on a usage error, 1 if a program fails to run.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

VERDICT = {"red_wins": "R", "black_wins": "B", "draw": "D"}
NONE = "-"
KINDS = ("xq-only", "chessdb-only", "different verdict", "mixed")
CYCLE_MOVES = 8
DEFAULT_XQ = pathlib.Path(__file__).resolve().parents[1] / "target" / "release" / "xq"


def xq_rulings(events):
    """{ply: 'R'|'B'|'D'} from the referee's events (later events win where runs overlap)."""
    rulings = {}
    for event in events:
        verdict = VERDICT.get(event.get("verdict"))
        if verdict is None:
            continue
        excluded = range(0)
        if event.get("kept_up_plies"):
            first, last = event["kept_up_plies"]
            excluded = range(first, last + 2)
        for ply in range(event["first_ply"], event["last_ply"] + 1):
            if ply not in excluded or ply == event.get("kept_on_ply"):
                rulings[ply] = verdict
    return rulings


def add_end_ruling(rulings, events, end):
    """Adds `end` (ply, verdict) to `rulings` unless an event covers that ply (a kept-up
    stretch included); returns whether it was added."""
    if not end or any(e["first_ply"] <= end[0] <= e["last_ply"] for e in events):
        return False
    rulings[end[0]] = end[1]
    return True


def end_of_record_ruling(game):
    """(ply, verdict) of a repetition the record ends in, judged with the last move's reply
    unknown (`provisional`): the referee rules it at the end only, not among the events."""
    verdict = VERDICT.get(game.get("result"))
    if (
        game.get("provisional")
        and game.get("repeated_plies")
        and verdict
        and game.get("ply") == len(game.get("moves") or [])
    ):
        return game["ply"], verdict
    return None


OracleResult = collections.namedtuple("OracleResult", "error fen rulings")


def parse_oracle_line(line):
    """One oracle output line: OracleResult(error, final FEN, {ply: (K1, K2)})."""
    line = line.rstrip("\r\n")
    fields = line.split("\t")
    if fields[0] == "ERR":
        return OracleResult(fields[1] if len(fields) > 1 else "error", None, {})
    if fields[0] != "OK" or len(fields) != 3:
        raise ValueError(f"unreadable oracle line: {line!r}")
    rulings = {}
    for item in fields[2].split():
        ply, first, second = item.split(":")
        for k in (first, second):
            if k not in "RBD-" or len(k) != 1:
                raise ValueError(f"unreadable oracle ruling {item!r}")
        rulings[int(ply)] = (first, second)
    return OracleResult(None, fields[1], rulings)


def chessdb_rulings(rulings, repetitions):
    """{ply: verdict} for `repetitions` occurrences (check_times = repetitions - 1)."""
    index = repetitions - 2
    return {ply: ks[index] for ply, ks in rulings.items() if ks[index] != NONE}


def ply_kind(xq, chessdb):
    """How one ply's rulings differ (None: they agree, or neither rules)."""
    if xq == chessdb:
        return None
    if chessdb == NONE:
        return "xq-only"
    if xq == NONE:
        return "chessdb-only"
    return "different verdict"


Group = collections.namedtuple("Group", "first last xq chessdb kind")


def disagreements(xq, chessdb):
    """Groups of consecutive plies where the two rulings ({ply: verdict} each) differ."""
    groups = []
    plies = sorted(p for p in set(xq) | set(chessdb) if xq.get(p, NONE) != chessdb.get(p, NONE))
    run = []
    for ply in plies:
        if run and ply != run[-1] + 1:
            groups.append(_group(run, xq, chessdb))
            run = []
        run.append(ply)
    if run:
        groups.append(_group(run, xq, chessdb))
    return groups


def _group(run, xq, chessdb):
    xs = "".join(xq.get(p, NONE) for p in run)
    cs = "".join(chessdb.get(p, NONE) for p in run)
    kinds = {ply_kind(x, c) for x, c in zip(xs, cs)}
    kind = kinds.pop() if len(kinds) == 1 else "mixed"
    return Group(run[0], run[-1], xs, cs, kind)


def cycle_moves(moves, ply, count=CYCLE_MOVES):
    """The `count` moves ending with the move of `ply` (1-based)."""
    return moves[max(0, ply - count) : ply]


def board_and_side(fen):
    return " ".join(fen.split()[:2])


def oracle_input(game):
    return game["start_fen"] + "\t" + " ".join(game["moves"]) + "\n"


def wait_for(path, seconds):
    """Waits up to `seconds` for an executable that may be being rebuilt."""
    deadline = time.monotonic() + seconds
    while not os.access(path, os.X_OK):
        if time.monotonic() > deadline:
            sys.exit(f"{path}: not found or not executable")
        time.sleep(2)


def slim(game):
    """The fields the comparison reads (the referee's objects are large)."""
    final = game.get("final") or {}
    return {
        "file": game.get("file"),
        "game": game.get("game"),
        "error": game.get("error"),
        "start_fen": game.get("start_fen"),
        "moves": game.get("moves") or [],
        "events": game.get("events") or [],
        "final_fen": final.get("fen"),
        "end": end_of_record_ruling(game),
    }


def run_xq(xq, repetitions, paths, limit, wait):
    """The referee's games, in order (the first `limit` if set), and its summary line."""
    command = [xq, "referee", "--json", "--repetitions", str(repetitions), *paths]
    for _ in range(3):
        wait_for(xq, wait)
        with tempfile.TemporaryFile("w+", encoding="utf-8") as err:
            try:
                proc = subprocess.Popen(
                    command, stdout=subprocess.PIPE, stderr=err, text=True, encoding="utf-8"
                )
            except OSError as e:  # replaced while starting ("text file busy")
                print(f"xq referee could not start ({e}); retrying", file=sys.stderr)
                time.sleep(5)
                continue
            games = []
            for line in proc.stdout:
                games.append(slim(json.loads(line)))
                if limit and len(games) >= limit:
                    proc.kill()
                    break
            code = proc.wait()
            err.seek(0)
            stderr = err.read().strip()
        if limit and len(games) >= limit:
            return games, ""
        # Exit 1 with a summary: some games had errors (they are reported per game).
        if code == 0 or (code == 1 and "summary:" in stderr):
            return games, stderr.splitlines()[-1] if stderr else ""
        print(f"xq referee exited with {code}: {stderr[-500:]}; retrying", file=sys.stderr)
        time.sleep(5)
    sys.exit("xq referee failed three times")


def run_oracle(oracle, lines, jobs):
    """The oracle's output lines for `lines`, split over `jobs` processes."""
    if not lines:
        return []
    jobs = max(1, min(jobs, len(lines)))
    size = -(-len(lines) // jobs)
    chunks = [lines[i : i + size] for i in range(0, len(lines), size)]

    def one(chunk):
        proc = subprocess.run(
            [oracle], input="".join(chunk), capture_output=True, text=True, encoding="utf-8"
        )
        out = proc.stdout.splitlines()
        if proc.returncode != 0 or len(out) != len(chunk):
            sys.exit(
                f"oracle failed (exit {proc.returncode}, {len(out)} lines for {len(chunk)}): "
                f"{proc.stderr.strip()[-500:]}"
            )
        return out

    with concurrent.futures.ThreadPoolExecutor(len(chunks)) as pool:
        return [line for out in pool.map(one, chunks) for line in out]


class Tally:
    """The closing counts of one comparison."""

    def __init__(self):
        self.games = self.skipped = self.refused = self.mismatched = 0
        self.plies = self.xq_ruled = self.chessdb_ruled = self.both = self.agree = 0
        self.games_disagreeing = self.end_rulings = 0
        self.ply_kinds = collections.Counter()
        self.group_kinds = collections.Counter()
        self.pairs = collections.Counter()

    def add(self, n_plies, xq, chessdb, groups):
        self.games += 1
        self.plies += n_plies
        self.xq_ruled += len(xq)
        self.chessdb_ruled += len(chessdb)
        for ply in set(xq) | set(chessdb):
            x, c = xq.get(ply, NONE), chessdb.get(ply, NONE)
            self.pairs[x, c] += 1
            if x != NONE and c != NONE:
                self.both += 1
                self.agree += x == c
            kind = ply_kind(x, c)
            if kind:
                self.ply_kinds[kind] += 1
        for g in groups:
            self.group_kinds[g.kind] += 1
        self.games_disagreeing += bool(groups)

    def lines(self, repetitions):
        groups = sum(self.group_kinds.values())
        by_kind = ", ".join(f"{self.group_kinds[k]} {k}" for k in KINDS if self.group_kinds[k])
        plies_by_kind = ", ".join(f"{self.ply_kinds[k]} {k}" for k in KINDS[:3])
        pairs = ", ".join(
            f"{x}/{c} {n}" for (x, c), n in sorted(self.pairs.items()) if x != c
        )
        return [
            f"summary (repetitions {repetitions}, chessdb check_times {repetitions - 1}): "
            f"{self.games} games compared, {self.skipped} skipped (referee error), "
            f"{self.refused} refused by chessdb, {self.mismatched} with another final position",
            f"  plies: {self.plies} in all; ruled by xq {self.xq_ruled}, by chessdb "
            f"{self.chessdb_ruled}, by both {self.both}; agreeing {self.agree}; "
            f"{self.end_rulings} of xq's at the end of a record (provisional)",
            f"  disagreeing plies: {plies_by_kind}",
            f"  disagreement groups: {groups} in {self.games_disagreeing} games"
            + (f" ({by_kind})" if by_kind else ""),
            f"  disagreeing plies by ruling (xq/chessdb): {pairs or 'none'}",
        ]


def compare(args, repetitions, cache, tsv):
    """Runs one comparison and prints its groups and summary."""
    started = time.monotonic()
    games, xq_summary = run_xq(args.xq, repetitions, args.paths, args.limit, args.wait)
    xq_seconds = time.monotonic() - started
    tally = Tally()
    readable = []
    for game in games:
        if game.get("error"):
            tally.skipped += 1
        else:
            readable.append(game)
    missing = [oracle_input(g) for g in readable if oracle_input(g) not in cache]
    started = time.monotonic()
    for line, out in zip(missing, run_oracle(args.oracle, missing, args.jobs)):
        cache[line] = parse_oracle_line(out)
    oracle_seconds = time.monotonic() - started

    print(f"== repetitions {repetitions} (chessdb check_times {repetitions - 1}) ==")
    for game in readable:
        result = cache[oracle_input(game)]
        where = f"{game['file']} game {game['game']}"
        if result.error:
            tally.refused += 1
            print(f"{where}: chessdb refused the record: {result.error}")
            continue
        final = game["final_fen"]
        if final and board_and_side(final) != board_and_side(result.fen):
            tally.mismatched += 1
            print(f"{where}: final position {final!r}, chessdb {result.fen!r}; not compared")
            continue
        xq = xq_rulings(game["events"])
        if not args.events_only:
            tally.end_rulings += add_end_ruling(xq, game["events"], game["end"])
        chessdb = chessdb_rulings(result.rulings, repetitions)
        groups = disagreements(xq, chessdb)
        tally.add(len(game["moves"]), xq, chessdb, groups)
        for g in groups:
            moves = " ".join(cycle_moves(game["moves"], g.first))
            print(
                f"{where} plies {g.first}-{g.last} {g.kind}: xq {g.xq} chessdb {g.chessdb}"
                f" | {moves}"
            )
            if tsv:
                tsv.write(
                    "\t".join(
                        map(str, (repetitions, game["file"], game["game"], g.first, g.last,
                                  g.xq, g.chessdb, moves))
                    )
                    + "\n"
                )
    for line in tally.lines(repetitions):
        print(line)
    if xq_summary:
        print(f"  xq referee: {xq_summary}")
    print(f"  time: xq referee {xq_seconds:.1f} s, chessdb oracle {oracle_seconds:.1f} s")
    sys.stdout.flush()


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Compare xq referee's repetition rulings with chessdb's, ply by ply."
    )
    parser.add_argument("--xq", default=str(DEFAULT_XQ),
                        help="the xq binary (default: target/release/xq of this repository)")
    parser.add_argument("--oracle", required=True, help="the chessdb oracle binary")
    parser.add_argument("--repetitions", default="2", choices=["2", "3", "both"])
    parser.add_argument("--limit", type=int, default=0, help="compare the first N games only")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="oracle processes (default: one per core)")
    parser.add_argument("--tsv", metavar="FILE", help="also write the groups as TSV to FILE")
    parser.add_argument("--events-only", action="store_true",
                        help="leave out the referee's provisional ruling at a record's last ply")
    parser.add_argument("--wait", type=float, default=120,
                        help="seconds to wait for a missing xq binary (default 120)")
    parser.add_argument("paths", nargs="+", metavar="PATHS")
    args = parser.parse_args(argv)
    if args.limit < 0 or args.jobs < 1:
        parser.error("--limit must be >= 0 and --jobs >= 1")
    if not os.access(args.oracle, os.X_OK):
        parser.error(f"--oracle {args.oracle}: not an executable")
    return args


def main(argv=None):
    args = parse_args(argv)
    runs = [2, 3] if args.repetitions == "both" else [int(args.repetitions)]
    cache = {}
    tsv = open(args.tsv, "w", encoding="utf-8") if args.tsv else None
    try:
        if tsv:
            tsv.write("repetitions\tfile\tgame\tfirst_ply\tlast_ply\txq\tchessdb\tmoves\n")
        for repetitions in runs:
            compare(args, repetitions, cache, tsv)
    finally:
        if tsv:
            tsv.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
