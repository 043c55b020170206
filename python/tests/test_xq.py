"""Tests of the Python module: the rules, move text, the judge through Game, the referee on the
173 WXF cases, and a differential test against pyffish on master-game positions."""

import csv
import pathlib

import pytest

import xq

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
DIAGRAM_1 = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w"


def test_version():
    assert xq.__version__.count(".") == 2


def test_position_round_trips_and_moves():
    p = xq.Position()
    assert p.fen() == START
    assert xq.Position(START) == p
    assert len(p.legal_moves()) == 44
    assert p.side_to_move == "red"
    p.push("h2e2")
    assert p.side_to_move == "black"
    assert p.fen() == "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
    assert xq.Position(p.fen()) == p
    assert not p.in_check() and not p.is_checkmate() and not p.is_stalemate()
    assert repr(p).startswith("xq.Position(")


def test_move_text_in_and_out():
    p = xq.Position()
    assert p.move_text("h2e2") == "炮二平五"
    assert p.move_text("h2e2", "wxf") == "C2=5"
    assert p.move_text("炮二平五", "iccs") == "h2e2"
    for text in ["h2e2", "H2-E2", "C2=5", "C2.5", "炮二平五", "炮2平5"]:
        assert p.parse_move(text) == "h2e2", text
    # Every legal move of a few positions reads back from its Chinese and WXF text.
    g = xq.Game()
    for m in ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]:
        pos = g.position
        for legal in pos.legal_moves():
            for notation in ["chinese", "wxf"]:
                assert pos.parse_move(pos.move_text(legal, notation)) == legal
        g.push(m)


def test_errors_are_typed_with_messages():
    with pytest.raises(xq.FenError, match="bad FEN"):
        xq.Position("9/9 w")
    p = xq.Position()
    with pytest.raises(xq.MoveError, match="a0a5: not a legal move"):
        p.push("a0a5")
    with pytest.raises(xq.MoveError, match="no legal move fits"):
        p.push("炮二进九")
    with pytest.raises(xq.MoveError, match="not move text"):
        p.push("xyzzy")
    assert issubclass(xq.MoveError, ValueError)
    with pytest.raises(FileNotFoundError):
        xq.referee("/nonexistent/games.pgn")
    with pytest.raises(xq.XqError):
        xq.Game(repetitions=1)


def test_mate_and_stalemate():
    mated = xq.Position("3k5/9/9/9/9/9/9/9/r8/r3K4 w")
    assert mated.in_check() and mated.is_checkmate()
    assert mated.legal_moves() == []


def test_game_rules_perpetual_check_with_its_explanation():
    g = xq.Game(DIAGRAM_1, repetitions=2)
    assert g.ruling() is None
    for m in ["h8h9", "f9f8", "h9h8", "f8f9"]:
        g.push(m)
    # The next check would repeat the perpetual check: the judge names it.
    assert "h8h9" in g.losing_moves()
    for m in ["h8h9", "f9f8", "h9h8", "f8f9"]:
        g.push(m)
    r = g.ruling()
    assert r is not None
    assert (r["result"], r["reason"], r["violator"]) == ("black_wins", "perpetual check", "red")
    assert "rule 6" in r["rule"]
    assert "perpetual check" in r["explanation"]
    red = [c for c in r["cycles"] if c["side"] == "red"][0]
    assert red["violation"] == "perpetual check"
    assert g.pop() == "f8f9" and len(g.moves) == 7


def test_game_with_a_perpetual_chase_names_the_chased_piece():
    # The first case of the WXF suite ruled with chased pieces.
    case = next(c for c in wxf_cases() if c["result"] != "undecided" and chased(c))
    g = xq.Game(case["fen"], repetitions=2)
    for m in case["moves"].split():
        g.push(m)
    r = g.report()
    assert r["chased"], r["explanation"]
    assert all("unprotected" in c for c in r["cycles"])


def wxf_cases():
    with open(ROOT / "wxf_cases" / "cases.tsv", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def chased(case):
    r = xq.referee_text(record(case), repetitions=2, first_decision=True)[0]
    return bool(r["chased"])


def record(case):
    return f'[Event "case {case["case"]}"]\n[FEN "{case["fen"]}"]\n\n{case["moves"]} *\n'


def test_the_173_wxf_cases_through_python():
    cases = wxf_cases()
    assert len(cases) == 173
    text = "\n".join(record(c) for c in cases)
    reports = xq.referee_text(text, repetitions=2, first_decision=True)
    assert len(reports) == 173
    wrong = [
        (c["case"], r["result"], c["result"], r["explanation"])
        for c, r in zip(cases, reports)
        if r["result"] != c["result"] or r["error"]
    ]
    assert wrong == []


def test_rulings_in_chinese_keep_their_machine_fields():
    import re

    cases = wxf_cases()
    text = "\n".join(record(c) for c in cases)
    english = xq.referee_text(text, repetitions=2, first_decision=True)
    for lang, check in [("zh-Hans", "长将"), ("zh-Hant", "長將")]:
        reports = xq.referee_text(text, repetitions=2, first_decision=True, lang=lang)
        assert [r["result"] for r in reports] == [r["result"] for r in english]
        assert any(check in r["explanation"] for r in reports), lang
        for c, r in zip(cases, reports):
            # No English word: only moves and squares (h2e2, d7), FEN boards and WXF.
            words = [
                w
                for token in r["explanation"].split()
                if "/" not in token
                for w in re.findall(r"[A-Za-z][A-Za-z0-9]+", token)
                if not re.fullmatch(r"([a-i][0-9]){1,2}|WXF", w)
            ]
            assert words == [], (c["case"], lang, words, r["explanation"])
    g = xq.Game(DIAGRAM_1, repetitions=2)
    for m in ["h8h9", "f9f8", "h9h8", "f8f9"] * 2:
        g.push(m)
    assert "长将" in g.ruling(lang="zh-Hans")["explanation"]
    assert "perpetual check" in g.report()["explanation"]
    with pytest.raises(xq.XqError, match="zh-Hans"):
        xq.referee_text(text, lang="fr")


def test_record_text_and_paths_are_told_apart():
    reports = xq.referee_text("1. h2e2 h9g7 *")
    assert [r["moves"] for r in reports] == [["h2e2", "h9g7"]]
    assert reports == list(xq.iter_referee_text("1. h2e2 h9g7 *"))
    for text in ["1. h2e2 h9g7 *", '[Event "A"]', "h2e2 h9g7\n"]:
        with pytest.raises(xq.XqError, match="referee_text"):
            xq.referee(text)
        with pytest.raises(xq.XqError, match="referee_text"):
            xq.iter_referee(text)
    with pytest.raises(FileNotFoundError):
        xq.referee("games.pgn")


def test_a_directory_is_read_as_the_command_line_reads_it(tmp_path):
    (tmp_path / "g.pgn").write_text('[Event "A"]\n1. h2e2 h9g7 1-0\n', encoding="utf-8")
    (tmp_path / "LICENSE.txt").write_text("Licensed under CC BY 4.0.\n", encoding="utf-8")
    reports = xq.referee(tmp_path)
    assert [(r["file"], r["game"]) for r in reports] == [(str(tmp_path / "g.pgn"), 1)]
    assert reports == list(xq.iter_referee(tmp_path))
    # Named on its own, a file without a game is an error, as on the command line.
    (only,) = xq.referee(tmp_path / "LICENSE.txt")
    assert only["error"]


def test_repetitions_range_as_on_the_command_line():
    assert xq.Game(repetitions=100).moves == []
    assert len(xq.referee_text("1. h2e2 h9g7 *", repetitions=100)) == 1
    for bad in [1, 101]:
        with pytest.raises(xq.XqError, match="from 2 to 100"):
            xq.Game(repetitions=bad)
        with pytest.raises(xq.XqError, match="from 2 to 100"):
            xq.referee_text("1. h2e2 h9g7 *", repetitions=bad)


def test_referee_reads_files_and_iterates():
    games = ROOT / "tests" / "data" / "games"
    reports = xq.referee(games)
    assert len(reports) > 50
    assert reports == list(xq.iter_referee(games))
    assert all(r["plies"] == len(r["moves"]) for r in reports)


def test_against_pyffish_on_master_game_positions():
    sf = pytest.importorskip("pyffish")
    files = sorted((SHARED / "games" / "ccpd").glob("ccpd_*.pgn"))
    if not files:
        pytest.skip("the shared master games are not here")
    checked = 0
    for report in xq.iter_referee(files[0]):
        g = xq.Game()
        for i, m in enumerate(report["moves"]):
            if i % 7 == 0:
                pos = g.position
                ours = sorted(to_ranks_1_10(pos.legal_moves()))
                theirs = sorted(sf.legal_moves("xiangqi", START, to_ranks_1_10(g.moves)))
                assert ours == theirs, pos.fen()
                assert pos.in_check() == sf.gives_check("xiangqi", START, to_ranks_1_10(g.moves))
                checked += 1
            g.push(m)
        if checked >= 3000:
            break
    assert checked >= 3000


def to_ranks_1_10(moves):
    return [m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3]) + 1) for m in moves]


def test_the_readme_example_prints_what_the_readme_says(capsys):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    code = readme.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert out.startswith(
        "black_wins red WXF rules 15 and 19: a rook may not be perpetually chased (manual diagram 18)\n"
    )
    assert "why" not in out and "a rook is worth more than a cannon" in out
