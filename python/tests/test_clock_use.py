"""tools/clock_use.py follows an engine's clock through the games of an `xq match` PGN."""

import importlib.util
import pathlib

TOOL = pathlib.Path(__file__).resolve().parents[2] / "tools" / "clock_use.py"
spec = importlib.util.spec_from_file_location("clock_use", TOOL)
clock_use = importlib.util.module_from_spec(spec)
spec.loader.exec_module(clock_use)

# Two games as `xq match` writes them at time odds: in the first, b (Black, 1+0.1) loses and first
# scores -1.5 at ply 5; in the second, the sides share one control and a (Black from a FEN) wins.
PGN = """[Event "xq match"]
[Red "a"]
[Black "b"]
[Result "1-0"]
[TimeControl "1+0.1"]
[RedTimeControl "4+0.4"]
[BlackTimeControl "1+0.1"]
[Format "ICCS"]

1. H2-E2 H9-G7 {book} 2. H0-G2 {+0.30/10 0.500s} I9-H9 {-0.20/11 0.300s} 3. I0-H0
{+3.50/12 0.400s} H9-H5 {-1.60/12 0.200s} 4. G3-G4 {+4.00/12 0.100s} C6-C5
{-3.00/12 0.250s} {adjudication} 1-0

[Event "xq match"]
[Red "b"]
[Black "a"]
[Result "0-1"]
[TimeControl "2+0"]
[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"]
[Format "ICCS"]

1... H7-E7 {-0.10/9 0.250s} 2. H0-G2 {+3.20/10 0.100s} H9-G7 {-3.10/10 1.000s}
{adjudication} 0-1
"""


def write(tmp_path):
    path = tmp_path / "match.pgn"
    path.write_text(PGN, encoding="utf-8")
    return str(path)


def parse():
    return list(clock_use.score_lag.games(PGN.splitlines()))


def test_each_side_runs_its_own_clock():
    (tags, tokens), (tags2, tokens2) = parse()
    assert clock_use.control_of(tags, 0) == (4.0, 0.4)
    assert clock_use.control_of(tags, 1) == (1.0, 0.1)
    assert clock_use.control_of(tags2, 1) == (2.0, 0.0)
    b = clock_use.timed_moves(tags, tokens, 1)
    assert [(ply, spent) for ply, spent, _, _ in b] == [(3, 0.3), (5, 0.2), (7, 0.25)]
    clocks = [round(c, 6) for _, _, c, _ in b]
    assert clocks == [1.0, 0.8, 0.7]
    assert clock_use.timed_moves(tags2, tokens2, 1)[0][:3] == (0, 0.25, 2.0)


def test_an_unreadable_control_gives_no_moves():
    (tags, tokens), _ = parse()
    for key in ("TimeControl", "RedTimeControl", "BlackTimeControl"):
        tags[key] = "40/60"
    assert clock_use.timed_moves(tags, tokens, 0) == []


def test_summary_bands_and_the_turn_of_a_lost_game(tmp_path):
    bands, turns = clock_use.summary([write(tmp_path)], "b", 1.5, 4)
    # b's timed moves: plies 3 (game 1) and 1 (game 2) in band 0; plies 5 and 7 in band 4.
    assert bands[0][0] == 2
    n, spent, clock = bands[4]
    assert n == 2
    assert abs(spent - 0.225) < 1e-9 and abs(clock - 0.8) < 1e-9
    assert len(turns) == 1
    assert turns[0][0] == 5
    assert abs(turns[0][1] - 0.8) < 1e-9
    # a won both games: no turn to report.
    assert clock_use.summary([write(tmp_path)], "a", 1.5, 4)[1] == []
