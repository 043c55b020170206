"""tools/ladder.py: the per-step game counts and the Elo of one step."""

import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
import ladder  # noqa: E402


def test_step_games_name_a_level_and_a_count():
    assert ladder.parse_step_games([]) == {}
    assert ladder.parse_step_games(["16=200", "0=90"]) == {16: 200, 0: 90}


@pytest.mark.parametrize("bad", ["16", "16=", "=5", "17=5", "20=5", "16=0", "x=1", "16=-3"])
def test_bad_step_games_are_refused_by_name(bad):
    with pytest.raises(ValueError, match="--step-games"):
        ladder.parse_step_games([bad])


def test_an_even_score_is_no_step_and_a_whitewash_stays_finite():
    diff, score, (low, high) = ladder.step_elo(10, 10, 0)
    assert score == 0.5 and abs(diff) < 1e-9 and low < 0 < high
    diff, score, _ = ladder.step_elo(60, 0, 0)
    assert score == 1.0 and 0 < diff < float("inf")
