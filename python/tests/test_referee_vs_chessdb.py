"""tools/referee_vs_chessdb.py compares the referee's repetition rulings with chessdb's, ply by ply."""

import importlib.util
import json
import pathlib
import sys

import pytest

TOOL = pathlib.Path(__file__).resolve().parents[2] / "tools" / "referee_vs_chessdb.py"
spec = importlib.util.spec_from_file_location("referee_vs_chessdb", TOOL)
cmp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cmp)


def event(first, last, verdict, kept_up=None, **more):
    return {"first_ply": first, "last_ply": last, "verdict": verdict, "kept_up_plies": kept_up, **more}


# The events `xq referee --json --repetitions 2` gives for records r3 and r4 of
# wxf_cases/records.tsv (a rook's perpetual check from 4k4/R8/9/9/8c/9/9/9/9/3K5 w).
R3 = [event(9, 9, "draw", ruled_anew_ply=10), event(10, 11, "black_wins", kept_on_ply=11)]
R4 = [event(9, 9, "draw", ruled_anew_ply=10), event(10, 12, "black_wins", [11, 11], varied_ply=13)]


def test_an_event_rules_each_ply_of_its_run():
    assert cmp.xq_rulings(R3) == {9: "D", 10: "B", 11: "B"}
    assert cmp.xq_rulings([event(62, 65, "red_wins")]) == {62: "R", 63: "R", 64: "R", 65: "R"}
    assert cmp.xq_rulings([]) == {}


def test_a_kept_up_stretch_and_the_reply_after_it_are_not_ruled():
    assert cmp.xq_rulings(R4) == {9: "D", 10: "B"}
    # Kept up at plies 68 and 70 (with the replies at 69 and 71), repeated again at 72.
    assert cmp.xq_rulings([event(66, 73, "red_wins", [68, 70])]) == {66: "R", 67: "R", 72: "R", 73: "R"}


def test_an_unknown_verdict_rules_nothing():
    assert cmp.xq_rulings([event(5, 6, "undecided")]) == {}


def test_the_ruling_at_the_end_of_a_record_counts_where_no_event_covers_it():
    game = {"provisional": True, "repeated_plies": [122, 126, 134], "result": "draw", "ply": 134,
            "moves": ["h2e2"] * 134}
    end = cmp.end_of_record_ruling(game)
    assert end == (134, "D")
    rulings = {}
    assert cmp.add_end_ruling(rulings, [], end)
    assert rulings == {134: "D"}
    # r5: the record ends while Red keeps its check up on another square (ply 11).
    rulings = cmp.xq_rulings([event(10, 11, "black_wins", [11, 11])])
    assert not cmp.add_end_ruling(rulings, [event(10, 11, "black_wins", [11, 11])], (11, "B"))
    assert rulings == {10: "B"}
    assert cmp.end_of_record_ruling({**game, "provisional": False}) is None
    assert cmp.end_of_record_ruling({**game, "repeated_plies": None}) is None
    assert cmp.end_of_record_ruling({**game, "ply": 133}) is None


def test_parse_oracle_line():
    fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/9/R1BAKABNR b"
    result = cmp.parse_oracle_line(f"OK\t{fen}\t4:D:- 8:D:D 9:R:B\n")
    assert result.error is None and result.fen == fen
    assert result.rulings == {4: ("D", "-"), 8: ("D", "D"), 9: ("R", "B")}
    assert cmp.chessdb_rulings(result.rulings, 2) == {4: "D", 8: "D", 9: "R"}
    assert cmp.chessdb_rulings(result.rulings, 3) == {8: "D", 9: "B"}
    assert cmp.parse_oracle_line(f"OK\t{fen}\t").rulings == {}
    refused = cmp.parse_oracle_line("ERR\tply 1: illegal move h7e7")
    assert refused.error == "ply 1: illegal move h7e7" and refused.rulings == {}
    for bad in ("", "OK\tfen", "OK\tfen\t4:X:-", "OK\tfen\t4:D"):
        with pytest.raises(ValueError):
            cmp.parse_oracle_line(bad)


def test_consecutive_disagreeing_plies_make_one_group():
    xq = {62: "R", 63: "R", 64: "R", 80: "D"}
    chessdb = {61: "R", 62: "R", 63: "R", 64: "R", 69: "D", 70: "D", 80: "B"}
    assert cmp.disagreements(xq, chessdb) == [
        cmp.Group(61, 61, "-", "R", "chessdb-only"),
        cmp.Group(69, 70, "--", "DD", "chessdb-only"),
        cmp.Group(80, 80, "D", "B", "different verdict"),
    ]
    assert cmp.disagreements({5: "B", 6: "B", 7: "R"}, {6: "D", 7: "R"}) == [
        cmp.Group(5, 6, "BB", "-D", "mixed"),
    ]
    assert cmp.disagreements({9: "D"}, {}) == [cmp.Group(9, 9, "D", "-", "xq-only")]
    assert cmp.disagreements({9: "D"}, {9: "D"}) == []


def test_ply_kind():
    assert cmp.ply_kind("R", "R") is None
    assert cmp.ply_kind("-", "-") is None
    assert cmp.ply_kind("R", "-") == "xq-only"
    assert cmp.ply_kind("-", "B") == "chessdb-only"
    assert cmp.ply_kind("R", "D") == "different verdict"


def test_cycle_moves_end_at_the_ply():
    moves = [f"m{i}" for i in range(1, 21)]
    assert cmp.cycle_moves(moves, 12) == [f"m{i}" for i in range(5, 13)]
    assert cmp.cycle_moves(moves, 3) == ["m1", "m2", "m3"]


def test_tally_counts_plies_and_groups():
    tally = cmp.Tally()
    xq, chessdb = {10: "B", 11: "B"}, {9: "D", 10: "B", 11: "R"}
    tally.add(40, xq, chessdb, cmp.disagreements(xq, chessdb))
    assert (tally.games, tally.plies, tally.xq_ruled, tally.chessdb_ruled) == (1, 40, 2, 3)
    assert (tally.both, tally.agree, tally.games_disagreeing) == (2, 1, 1)
    assert tally.ply_kinds == {"chessdb-only": 1, "different verdict": 1}
    assert tally.group_kinds == {"chessdb-only": 1, "different verdict": 1}
    assert tally.pairs[("-", "D")] == 1 and tally.pairs[("B", "R")] == 1


def script(path, body):
    path.write_text(f"#!{sys.executable}\n{body}")
    path.chmod(0o755)
    return str(path)


FAKE_ORACLE = """import sys
for i, line in enumerate(sys.stdin):
    fen, moves = line.rstrip("\\n").split("\\t")
    if "bad" in moves:
        print("ERR\\tply 1: illegal move bad")
    else:
        print("OK\\t" + " ".join(fen.split()[:2]) + "\\t" + ("4:D:- 6:R:-" if moves else ""))
"""


def test_oracle_batches_keep_the_order(tmp_path):
    oracle = script(tmp_path / "oracle", FAKE_ORACLE)
    lines = [f"fen{i} w\t{'a0a1' if i % 2 else ''}\n" for i in range(11)]
    for jobs in (1, 3, 20):
        out = cmp.run_oracle(oracle, lines, jobs)
        assert [o.split("\t")[1] for o in out] == [f"fen{i} w" for i in range(11)]
        assert [bool(o.split("\t")[2]) for o in out] == [bool(i % 2) for i in range(11)]


def test_whole_run_with_stand_ins(tmp_path, capsys):
    start = "4k4/R8/9/9/8c/9/9/9/9/3K5 w - - 0 1"
    games = [
        {"file": "a.pgn", "game": 1, "error": None, "start_fen": start, "moves": ["a8a9"] * 8,
         "events": [event(6, 6, "red_wins")], "final": {"fen": start}},
        {"file": "a.pgn", "game": 2, "error": {"kind": "x"}, "start_fen": start, "moves": [],
         "events": [], "final": None},
        {"file": "a.pgn", "game": 3, "error": None, "start_fen": start, "moves": ["bad"],
         "events": [], "final": {"fen": start}},
    ]
    xq = script(tmp_path / "xq", "import sys\nprint('summary: 3 games', file=sys.stderr)\n"
                + "".join(f"print({json.dumps(json.dumps(g))})\n" for g in games))
    oracle = script(tmp_path / "oracle", FAKE_ORACLE)
    tsv = tmp_path / "groups.tsv"
    assert cmp.main(["--xq", xq, "--oracle", oracle, "--tsv", str(tsv), "a.pgn"]) == 0
    out = capsys.readouterr().out
    assert "a.pgn game 1 plies 4-4 chessdb-only: xq - chessdb D | a8a9 a8a9 a8a9 a8a9" in out
    assert sum(line.startswith("a.pgn game 1 plies") for line in out.splitlines()) == 1
    assert "a.pgn game 3: chessdb refused the record: ply 1: illegal move bad" in out
    assert "1 games compared, 1 skipped (referee error), 1 refused by chessdb" in out
    rows = [line.split("\t") for line in tsv.read_text().splitlines()]
    assert rows[0] == ["repetitions", "file", "game", "first_ply", "last_ply", "xq", "chessdb", "moves"]
    assert rows[1:] == [["2", "a.pgn", "1", "4", "4", "-", "D", "a8a9 a8a9 a8a9 a8a9"]]
