"""tools/search_speed.py reads an `xq match --log` traffic file and gives each engine's median speed."""

import importlib.util
import pathlib

TOOL = pathlib.Path(__file__).resolve().parents[2] / "tools" / "search_speed.py"
spec = importlib.util.spec_from_file_location("search_speed", TOOL)
search_speed = importlib.util.module_from_spec(spec)
spec.loader.exec_module(search_speed)

# Two processes of engine a (two games at a time) and one of b, their lines interleaved. Each
# search's last info line counts; a search whose last line reports under 20 ms does not, nor does
# a bestmove with no info line before it, nor what the runner sent.
LOG = """\
        0 a#11 > uci
       10 a#11 < id name a
       20 a#11 > go wtime 2000 btime 2000
       21 a#11 < info depth 1 nodes 50 nps 50000 time 1
       22 a#12 < info depth 9 nodes 300000 nps 3000000 time 100
       23 a#11 < info depth 9 nodes 200000 nps 2000000 time 100
       24 b#13 < info depth 5 nodes 10 nps 9000000 time 5
       25 a#11 < bestmove h2e2
       26 b#13 < bestmove h9g7
       27 a#12 < bestmove b0c2
       28 b#13 < bestmove a9a8
       29 b#13 < info depth 9 nodes 100000 nps 1000000 time 100
       30 b#13 > info depth 9 nodes 100000 nps 7000000 time 100
       31 b#13 < bestmove c6c5
       32 a#11 < info depth 3 nodes 100 nps 100000 time 50
       33 a#11 < bestmove i0i1
"""


def test_each_search_counts_its_last_info_line():
    found = search_speed.speeds(LOG.splitlines(), min_ms=20)
    assert found == {"a": [2000000, 3000000, 100000], "b": [1000000]}


def test_short_searches_are_left_out():
    found = search_speed.speeds(LOG.splitlines(), min_ms=60)
    assert found == {"a": [2000000, 3000000], "b": [1000000]}


def test_main_prints_medians_and_ratios(tmp_path, capsys):
    log = tmp_path / "match.log"
    log.write_text(LOG)
    assert search_speed.main([str(log)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "a: 3 searches, median 2.00 M nodes/s, 1.00x",
        "b: 1 search, median 1.00 M nodes/s, 0.50x",
    ]


def test_a_missing_or_empty_log_is_an_error(tmp_path, capsys):
    assert search_speed.main([str(tmp_path / "none.log")]) == 2
    empty = tmp_path / "empty.log"
    empty.write_text("")
    assert search_speed.main([str(empty)]) == 1
    assert "no search" in capsys.readouterr().err
