#!/usr/bin/env python3
"""Where an engine's losses began: reads an `xq match` PGN (each engine move carries its score as
`{+0.25/12 0.534s}`) and, for every game the named engine lost, finds the first move at which the
winner's own score reached +THRESHOLD and the first at which the loser's fell to -THRESHOLD. A loss
in which the winner saw it coming several moves before the loser is one the loser's evaluation
misjudged, not one its search could not reach in time; the summary counts them.

    python3 tools/score_lag.py --engine xq --threshold 3 --lag 6 match.pgn

Scores are each engine's own figure over 100 (pawns for UCI engines), from its own side; mates
(`+M5`, `-M3`) count as past any threshold. A loser that resigned (`{Red (xq) resigned at ply
105, scoring it -M3/14}`, the move it would have played carrying no comment) is taken to have
fallen past the threshold at that ply, if not before. Standard library only.
"""

import argparse
import re
import sys

TAG = re.compile(r'^\[(\w+) "(.*)"\]\s*$')
TOKEN = re.compile(r"\{[^}]*\}|\S+")
MOVE = re.compile(r"^[A-Ia-i]\d-?[A-Ia-i]\d$")
NOTE = re.compile(r"^\{([+-])(M?)(\d+(?:\.\d+)?)(?:/(\d+))?\s")
RESIGNED = re.compile(r"^\{(Red|Black) \(.*\) resigned at ply (\d+)")


def games(lines):
    """Yields (tags, movetext tokens) for each game of a PGN file."""
    tags, text = {}, []
    for line in lines:
        m = TAG.match(line)
        if m:
            if text:
                yield tags, TOKEN.findall(" ".join(text))
                tags, text = {}, []
            tags[m.group(1)] = m.group(2)
        elif line.strip():
            text.append(line.strip())
    if tags or text:
        yield tags, TOKEN.findall(" ".join(text))


def score_of(comment):
    """The score of a move comment in pawns (mates as +-1000), or None without one."""
    m = NOTE.match(comment)
    if not m:
        return None
    sign = 1 if m.group(1) == "+" else -1
    if m.group(2) == "M":
        return sign * 1000.0
    return sign * float(m.group(3))


def moves(tags, tokens):
    """(ply, side, comment or None) for each move of a game, in order; side is 0 for Red, 1 for
    Black, and the comment is the one that follows the move directly."""
    side = 0
    fen = tags.get("FEN")
    if fen and len(fen.split()) > 1 and fen.split()[1] == "b":
        side = 1
    out, open_comment = [], False
    for tok in tokens:
        if MOVE.match(tok):
            out.append((len(out), side, None))
            side ^= 1
            open_comment = True
        elif tok.startswith("{") and open_comment:
            ply, mover, _ = out[-1]
            out[-1] = (ply, mover, tok)
            open_comment = False
    return out


def scored_moves(tags, tokens):
    """(ply, side, score) for each move that carries a score; side is 0 for Red, 1 for Black."""
    scored = ((ply, side, score_of(c)) for ply, side, c in moves(tags, tokens) if c)
    return [m for m in scored if m[2] is not None]


def side_of(tags, engine):
    """0 if `engine` played Red, 1 if Black, None if it did not play."""
    names = [tags.get("Red"), tags.get("Black")]
    return names.index(engine) if engine in names else None


def lost_by(tags, side):
    """Whether `side` (0 Red, 1 Black) lost the game."""
    return tags.get("Result") == ("0-1", "1-0")[side]


def lag(tags, tokens, engine, threshold):
    """For a game `engine` lost: (ply the winner reached +threshold, ply the loser reached
    -threshold), either None if never; None if the engine did not lose this game."""
    me = side_of(tags, engine)
    if me is None or not lost_by(tags, me):
        return None
    winner_at = loser_at = None
    for ply, side, s in scored_moves(tags, tokens):
        if side != me and winner_at is None and s >= threshold:
            winner_at = ply
        if side == me and loser_at is None and s <= -threshold:
            loser_at = ply
    if loser_at is None:
        loser_at = resigned_at(tokens, me)
    return winner_at, loser_at


def resigned_at(tokens, side):
    """The ply (counted from 0, as in `scored_moves`) at which `side` resigned, or None."""
    for tok in tokens:
        m = RESIGNED.match(tok)
        if m and m.group(1) == ("Red", "Black")[side]:
            return int(m.group(2)) - 1
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--engine", required=True, help="the engine's name in the Red/Black tags")
    ap.add_argument("--threshold", type=float, default=3.0, help="pawns (default 3)")
    ap.add_argument("--lag", type=int, default=6, help="plies that count as seen late (default 6)")
    ap.add_argument("--list", action="store_true", help="one line per lost game")
    args = ap.parse_args()
    lost = late = never = 0
    round_no = 0
    for path in args.pgn:
        with open(path, encoding="utf-8", errors="replace") as f:
            for tags, tokens in games(f):
                round_no += 1
                r = lag(tags, tokens, args.engine, args.threshold)
                if r is None:
                    continue
                lost += 1
                winner_at, loser_at = r
                seen_late = winner_at is not None and (
                    loser_at is None or loser_at - winner_at >= args.lag
                )
                late += seen_late
                never += loser_at is None
                if args.list:
                    print(
                        f"{path} round {tags.get('Round', round_no)}: winner +{args.threshold:g} "
                        f"at ply {winner_at}, loser -{args.threshold:g} at ply {loser_at}"
                        + ("  late" if seen_late else "")
                    )
    print(
        f"{args.engine}: {lost} games lost; in {late} the winner's score passed "
        f"+{args.threshold:g} at least {args.lag} plies before the loser's fell to "
        f"-{args.threshold:g} (the loser never did in {never})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
