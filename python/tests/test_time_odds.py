"""tools/time_odds.py: the opponent's clock scaled, the weighted line, and parity read from logs."""

import importlib.util
import math
import pathlib
import sys

TOOLS = pathlib.Path(__file__).resolve().parents[2] / "tools"
sys.path.insert(0, str(TOOLS))
spec = importlib.util.spec_from_file_location("time_odds", TOOLS / "time_odds.py")
time_odds = importlib.util.module_from_spec(spec)
spec.loader.exec_module(time_odds)


def test_clock_scaled():
    assert time_odds.scaled("2+0.02", 4) == "8+0.08"
    assert time_odds.scaled("2+0.02", 64) == "128+1.28"
    assert time_odds.scaled("10+0.1", 4) == "40+0.4"


def test_line_through_exact_points_crosses_where_it_should():
    # +150 at 4x, 0 at 8x, -150 at 16x: 150 Elo a doubling, parity at 8x.
    a, b = time_odds.fit_line([(4, 150.0, 1.0), (8, 0.0, 1.0), (16, -150.0, 1.0)])
    assert math.isclose(b, -150.0) and math.isclose(a, 450.0)
    assert math.isclose(time_odds.parity(a, b), 8.0)
    assert time_odds.parity(0.0, 10.0) is None


def test_fit_reads_the_logs(tmp_path, capsys):
    # Pentanomial counts for 100 pairs each, a clear fall with the odds.
    runs = {4: [2, 8, 30, 35, 25], 16: [20, 35, 30, 10, 5], 64: [45, 30, 20, 4, 1]}
    for k, counts in runs.items():
        (tmp_path / f"odds-{k}.log").write_text(
            f"Score of xq vs opp: 1 - 2 - 3  [0.5] 6 | Ptnml(0-2) {counts}, Elo 0 +/- 1\n"
        )
    (tmp_path / "odds-4.pgn").write_text('[Termination "adjudication"]\n\n[Termination "checkmate"]\n')
    args = type("Args", (), {"dir": str(tmp_path), "rounds": 400, "seed": 1})
    assert time_odds.fit(args) == 0
    out = capsys.readouterr().out
    assert "| 4× | 6 | 1 | 3 | 2 |" in out
    assert "1 adjudication" in out and "1 checkmate" in out
    line = [x for x in out.splitlines() if x.startswith("line:")][0]
    # Scores 0.6825, 0.3625 and 0.215: parity between 4x and 16x, inside its own interval.
    p = float(line.split("parity at ")[1].split("×")[0])
    low = float(line.split("95 %: ")[1].split("×")[0])
    high = float(line.split("… ")[1].split("×")[0])
    assert 4 < p < 16 and low < p < high


def test_no_log_is_an_error(tmp_path):
    args = type("Args", (), {"dir": str(tmp_path), "rounds": 10, "seed": 1})
    assert time_odds.fit(args) == 2


def test_a_match_without_a_pair_yet_is_left_out(tmp_path, capsys):
    (tmp_path / "odds-4.log").write_text(
        "Score of xq vs opp: 1 - 0 - 1  [0.75] 2 | Ptnml(0-2) [0, 0, 0, 1, 0], Elo 0\n"
    )
    (tmp_path / "odds-16.log").write_text("$ xq match ...\n")
    args = type("Args", (), {"dir": str(tmp_path), "rounds": 10, "seed": 1})
    assert time_odds.fit(args) == 0
    captured = capsys.readouterr()
    assert "odds-16.log" in captured.err and "one factor only" in captured.out


def test_move_times_from_the_comments(tmp_path, capsys):
    pgn = tmp_path / "odds-4.pgn"
    pgn.write_text(
        '[Red "opp"]\n[Black "xq"]\n\n1. B2-E2 B9-C7 {book} 2. B0-C2 {+0.33/17 0.800s}\n'
        'A9-B9 {-0.10/12 0.100s} 3. A0-B0 {+0.20/15 1.200s} 0-1\n\n'
        '[Red "xq"]\n[Black "opp"]\n'
        '[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b"]\n\n'
        "1... B9-C7 {+0.10/9 0.400s} 2. B2-E2 {+0.00/8 0.300s} 1-0\n"
    )
    totals, plies = time_odds.move_times(pgn)
    # Book moves and the move without a comment are not counted; the second game starts with Black.
    assert totals["opp"][0] == 3 and math.isclose(totals["opp"][1], 2.4)
    assert totals["xq"][0] == 2 and math.isclose(totals["xq"][1], 0.4)
    assert plies == [5, 2]
    time_odds.print_times(tmp_path, [4.0])
    out = capsys.readouterr().out
    assert "| 4× | opp 0.800, xq 0.200 | 4.0× | 3.5 |" in out
