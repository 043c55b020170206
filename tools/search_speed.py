#!/usr/bin/env python3
"""How fast each engine of a match searched: reads an `xq match --log` traffic file and prints, for
each engine name, the median speed of its searches, taken from the last `info` line carrying
`nps` before each `bestmove`, and each median's ratio to the first engine's.

    python3 tools/search_speed.py [--min-ms 20] match.log

A search whose last `info` line reports less than MIN_MS of `time` is left out: the first lines of
a search report the speed of a few hundred nodes, which says little. Each log line is
`MILLISECONDS NAME#PID DIRECTION TEXT`, `<` for what the engine sent; the processes of one name
(with `--concurrency` above 1 there are several) are counted together. Standard library only.
"""

import argparse
import re
import statistics
import sys

LINE = re.compile(r"^\s*\d+ (\S+)#(\d+) < (.*)$")
NPS = re.compile(r"\bnps (\d+)\b")
TIME = re.compile(r"\btime (\d+)\b")


def speeds(lines, min_ms=20):
    """{engine name: [nps of each search]} in the order the names first finish a search."""
    pending = {}
    out = {}
    for line in lines:
        m = LINE.match(line)
        if not m:
            continue
        name, pid, text = m.groups()
        process = (name, pid)
        if text.startswith("info "):
            nps = NPS.search(text)
            if nps:
                time = TIME.search(text)
                pending[process] = (int(nps.group(1)), int(time.group(1)) if time else 0)
        elif text.startswith("bestmove"):
            last = pending.pop(process, None)
            if last is not None and last[1] >= min_ms:
                out.setdefault(name, []).append(last[0])
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("log", help="the traffic file of `xq match --log`")
    parser.add_argument("--min-ms", type=int, default=20, help="shortest search counted (ms)")
    args = parser.parse_args(argv)
    try:
        with open(args.log, encoding="utf-8", errors="replace") as f:
            found = speeds(f, args.min_ms)
    except OSError as e:
        print(f"search_speed: {args.log}: {e.strerror}", file=sys.stderr)
        return 2
    if not found:
        print(f"search_speed: {args.log}: no search of {args.min_ms} ms or more", file=sys.stderr)
        return 1
    medians = {name: statistics.median(values) for name, values in found.items()}
    base = next(iter(medians.values()))
    for name, values in found.items():
        median = medians[name]
        searches = "search" if len(values) == 1 else "searches"
        print(f"{name}: {len(values)} {searches}, median {median / 1e6:.2f} M nodes/s, "
              f"{median / base if base else 0:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
