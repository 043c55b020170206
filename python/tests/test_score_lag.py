"""tools/score_lag.py reads the scores of an `xq match` PGN and finds where a lost game turned."""

import importlib.util
import pathlib

TOOL = pathlib.Path(__file__).resolve().parents[2] / "tools" / "score_lag.py"
spec = importlib.util.spec_from_file_location("score_lag", TOOL)
score_lag = importlib.util.module_from_spec(spec)
spec.loader.exec_module(score_lag)

# Three games as `xq match` writes them: in the first, b (Black) loses and saw it only when a had
# been sure for seven plies; in the second, a (Black from a FEN) loses and knew as early as b; in
# the third, a (Red) never printed a losing score but resigned at ply 9.
PGN = """[Event "xq match"]
[Red "a"]
[Black "b"]
[Result "1-0"]
[Format "ICCS"]

1. H2-E2 H9-G7 {book} 2. H0-G2 {+0.30/10 0.100s} I9-H9 {-0.20/11 0.100s} 3. I0-H0
{+3.50/12 0.100s} H9-H5 {-0.80/12 0.100s} 4. G3-G4 {+4.00/12 0.100s} C6-C5
{-1.00/12 0.100s} 5. B0-C2 {+M9/14 0.100s} B9-C7 {-1.50/12 0.100s} 6. A0-B0
{+M5/14 0.100s} A9-B9 {-M4/12 0.100s} {checkmate} 1-0

[Event "xq match"]
[Red "b"]
[Black "a"]
[Result "1-0"]
[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"]
[Format "ICCS"]

1... H7-E7 {-0.10/9 0.100s} 2. H0-G2 {+3.20/10 0.100s} H9-G7 {-3.10/10 0.100s}
{adjudication} 1-0

[Event "xq match"]
[Red "a"]
[Black "b"]
[Result "0-1"]
[Format "ICCS"]

1. H2-E2 H9-G7 {book} 2. H0-G2 {+0.30/10 0.100s} I9-H9 {+3.20/11 0.100s} 3. I0-H0
{+0.20/12 0.100s} H9-H5 {+4.00/12 0.100s} {Red (a) resigned at ply 9, scoring it
-M3/14} 0-1
"""


def parse():
    return list(score_lag.games(PGN.splitlines()))


def test_scores_follow_the_sides_from_the_start_and_the_fen():
    (tags1, tokens1), (tags2, tokens2), _ = parse()
    first = score_lag.scored_moves(tags1, tokens1)
    assert first[0] == (2, 0, 0.30)
    assert first[-1] == (11, 1, -1000.0)
    assert score_lag.scored_moves(tags2, tokens2) == [(0, 1, -0.10), (1, 0, 3.20), (2, 1, -3.10)]


def test_lag_of_each_lost_game():
    (tags1, tokens1), (tags2, tokens2), _ = parse()
    assert score_lag.lag(tags1, tokens1, "b", 3.0) == (4, 11)
    assert score_lag.lag(tags1, tokens1, "a", 3.0) is None
    assert score_lag.lag(tags2, tokens2, "a", 3.0) == (1, 2)
    assert score_lag.lag(tags2, tokens2, "b", 3.0) is None


def test_a_resignation_is_the_losers_verdict():
    *_, (tags, tokens) = parse()
    assert score_lag.resigned_at(tokens, 0) == 8
    assert score_lag.resigned_at(tokens, 1) is None
    assert score_lag.lag(tags, tokens, "a", 3.0) == (3, 8)
