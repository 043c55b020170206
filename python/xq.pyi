"""The WXF Xiangqi referee and the rules of the xq engine.

Positions and legal moves, move text in ICCS (``h2e2``), WXF (``C2=5``) and Chinese
(``炮二平五``), a game's repetition ruling with its explanation, and the referee of
``xq referee --json`` over game records (PGN in any notation, DhtmlXQ, XQF).
"""

from os import PathLike
from typing import Any, Iterator, Literal, Optional, Union

__version__: str

class XqError(ValueError):
    """Any error of the xq module."""

class FenError(XqError):
    """A FEN that cannot be read."""

class MoveError(XqError):
    """Move text that is not a legal move in the position."""

class RecordError(XqError):
    """A game record or file that cannot be read."""

Report = dict[str, Any]
"""One game's report, with the fields of ``xq referee --json``: ``result`` (red_wins,
black_wins, draw, undecided), ``reason``, ``ply``, ``violator``, ``rule`` (the WXF rule cited),
``cycles`` (each side's moves, violation and the chased pieces with why each counts as
unprotected), ``chased``, ``events`` (repetitions on the way), ``moves``, ``start_fen``,
``final``, ``explanation`` (the text), ``error`` and more."""

class Position:
    """A position: the board and the side to move."""

    def __init__(self, fen: Optional[str] = None) -> None:
        """The position of ``fen``, or the start position. Raises FenError."""
    def fen(self) -> str:
        """The position as FEN."""
    def legal_moves(self) -> list[str]:
        """The legal moves, in ICCS."""
    def push(self, move: str) -> None:
        """Plays a move given in ICCS, WXF, Chinese or SAN. Raises MoveError."""
    def parse_move(self, text: str) -> str:
        """The ICCS form of move text in any notation, without playing it."""
    def move_text(self, move: str, notation: Literal["chinese", "wxf", "iccs"] = "chinese") -> str:
        """A legal move written in ``notation``."""
    def in_check(self) -> bool:
        """Whether the side to move is in check."""
    def is_checkmate(self) -> bool:
        """Whether the side to move is checkmated."""
    def is_stalemate(self) -> bool:
        """Whether the side to move has no legal move and is not in check (a loss in Xiangqi)."""
    @property
    def side_to_move(self) -> Literal["red", "black"]:
        """The side to move."""
    @property
    def key(self) -> int:
        """The Zobrist key of the board and side to move."""
    def copy(self) -> "Position":
        """A copy."""

class Game:
    """A game followed by the referee: moves pushed one by one, the ruling asked at any point."""

    def __init__(self, fen: Optional[str] = None, repetitions: int = 3) -> None:
        """A game from ``fen`` (or the start position). ``repetitions`` (2 to 100): how many
        times a position must occur to make a repetition (3 in games, 2 for the WXF manual)."""
    def push(self, move: str) -> str:
        """Plays a move (ICCS, WXF, Chinese or SAN) and returns it in ICCS. Raises MoveError."""
    def pop(self) -> Optional[str]:
        """Takes back the last move and returns it, or None at the start."""
    @property
    def position(self) -> Position:
        """The current position (a copy)."""
    @property
    def moves(self) -> list[str]:
        """The moves played, in ICCS."""
    def losing_moves(self) -> list[str]:
        """The legal moves after which the side to move loses by repetition."""
    def report(self, lang: str = "en") -> Report:
        """The referee's report on the game so far, its words in ``lang`` (``en``, ``zh-Hans``
        or ``zh-Hant``)."""
    def ruling(self, lang: str = "en") -> Optional[Report]:
        """The report if the game stands decided here (mate, stalemate, a repetition ruled),
        else None."""

class GameReports(Iterator[Report]):
    """Reports of a collection's games, judged one file at a time."""

    def __iter__(self) -> "GameReports": ...
    def __next__(self) -> Report: ...

def referee(
    path: Union[str, PathLike[str]],
    repetitions: int = 3,
    first_decision: bool = False,
    move_limit: int = 60,
    lang: str = "en",
) -> list[Report]:
    """Judges game files as ``xq referee --json`` does: ``path`` is a file or a directory, whose
    game files are chosen as the command line chooses them (files without a game and the
    referee's own HTML reports left out). ``repetitions`` (2 to 100): how many times a position
    must occur to make a repetition; ``first_decision`` takes the first ruling as the result (the
    WXF case suite's convention); ``move_limit`` is the move-count rule (moves by each side
    without a capture; 0 for none); ``lang`` the language of the reports' words (``en``,
    ``zh-Hans``, ``zh-Hant``; the machine fields are the same in each). Raises FileNotFoundError for a missing path, and XqError for
    a string that names no file but reads as record text (judge that with ``referee_text``)."""

def referee_text(
    text: str,
    repetitions: int = 3,
    first_decision: bool = False,
    move_limit: int = 60,
    lang: str = "en",
) -> list[Report]:
    """Judges the games in the text of a record (PGN in any notation, DhtmlXQ), as ``referee``
    judges a file's."""

def iter_referee(
    path: Union[str, PathLike[str]],
    repetitions: int = 3,
    first_decision: bool = False,
    move_limit: int = 60,
    lang: str = "en",
) -> GameReports:
    """Like ``referee``, one report at a time, reading one file at a time."""

def iter_referee_text(
    text: str,
    repetitions: int = 3,
    first_decision: bool = False,
    move_limit: int = 60,
    lang: str = "en",
) -> GameReports:
    """Like ``referee_text``, one report at a time."""
