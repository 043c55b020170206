"""tools/sprt_total.py gives for one run what `xq match` printed for it, and adds parts up."""

import importlib.util
import pathlib

TOOL = pathlib.Path(__file__).resolve().parents[2] / "tools" / "sprt_total.py"
spec = importlib.util.spec_from_file_location("sprt_total", TOOL)
sprt_total = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sprt_total)

# The last standing line of an `xq match --sprt 0,10` run, as it printed it.
LINE = (
    "Score of qs vs main: 233 - 197 - 323  [0.524] 753 | Ptnml(0-2) [27, 81, 135, 94, 39], "
    "Elo +17.1 +/- 19.0 | LLR 1.30 (-2.94, 2.94)\n"
)


def test_one_run_matches_the_match(tmp_path):
    log = tmp_path / "run.log"
    log.write_text("Match qs vs main: 20000 games\n" + LINE + "Game 753 (qs vs main): 0-1\n")
    counts = sprt_total.last_counts(log)
    assert counts == [27, 81, 135, 94, 39]
    n, _, elo, (low, high), llr = sprt_total.summary(counts, 0.0, 10.0)
    assert n == 376
    assert round(elo, 1) == 17.1 and round(llr, 2) == 1.30
    assert round((high - low) / 2, 0) == 19.0


def test_parts_add_up(tmp_path):
    a, b = tmp_path / "a.log", tmp_path / "b.log"
    a.write_text(LINE)
    b.write_text(LINE.replace("[27, 81, 135, 94, 39]", "[10, 38, 64, 54, 21]"))
    total = [x + y for x, y in zip(sprt_total.last_counts(a), sprt_total.last_counts(b))]
    assert total == [37, 119, 199, 148, 60]
    _, _, _, _, llr = sprt_total.summary(total, 0.0, 10.0)
    assert round(llr, 2) == 2.95


def test_no_standing_line(tmp_path):
    log = tmp_path / "empty.log"
    log.write_text("Match a vs b: 2 games\n")
    assert sprt_total.last_counts(log) is None
