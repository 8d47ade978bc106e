"""Type stubs of smallgo._smallgo, the native part of smallgo
(python/src/lib.rs). The package smallgo wraps it: use that."""

from os import PathLike
from typing import List, Optional, Union

class MissingTableError(KeyError):
    """No values for the board: no table of it, and too large to solve on the spot."""

class TableError(OSError):
    """A table found damaged while probing, with no other source left."""

class BuildError(RuntimeError):
    """A table could not be built."""

class DoesNotFitError(BuildError):
    """The board does not fit here: the solver's limits, the memory or the disk."""

class TableWarning(UserWarning):
    """A file of the tables folder that was refused; the others are used."""

class Outcome:
    """A result at a komi."""

    winner: Optional[str]
    """``"black"``, ``"white"``, or ``None`` for a draw."""
    margin: float
    """The winner's margin, komi included; 0 for a draw."""
    plies: Optional[int]
    """Plies to the end with perfect play; ``None`` for a draw or a game over."""
    score: str
    """As GTP ``final_score`` writes it: ``B+9``, ``W+0.5``, ``0``."""

class MoveValue:
    """One legal move of a position, with what it leads to."""

    move: str
    """A GTP vertex (``B2``) or ``pass``."""
    value: float
    """The margin for the player making the move: positive a win, 0 a draw, negative a loss."""
    depth: Optional[int]
    """Plies to the end, the move included; ``None`` for a draw."""
    outcome: Outcome
    """The result the move leads to."""
    label: str
    """The engine's label: ``+9``, ``=0``, ``-0.5``."""
    best: bool
    """Whether it keeps the best result (winner and margin, plies aside)."""

class Probe:
    """A position's value at a komi and every legal move."""

    board: str
    komi: float
    played: List[str]
    """The moves played from the start."""
    to_move: str
    """``"black"`` or ``"white"``."""
    black: List[str]
    white: List[str]
    ko: Optional[str]
    """The point the player to move may not take back at once."""
    ended: Optional[str]
    """``None``, ``"passes"`` or ``"repetition"``."""
    result: Outcome
    """Perfect play's result from here; once over, the final result."""
    value: float
    """The result's margin for the player to move."""
    depth: Optional[int]
    """Plies to the end with perfect play."""
    moves: List[MoveValue]
    """Every legal move, pass included, best first; empty once over."""
    source: str
    """Where the values come from."""

class Mainline:
    """The line perfect play follows from a position."""

    board: str
    komi: float
    to_move: str
    """The player of the line's first move."""
    moves: List[str]
    ended: Optional[str]
    """``"passes"``, ``"repetition"``, or ``None`` at the limit of 60 moves."""
    result: Optional[Outcome]
    def __len__(self) -> int: ...

class Tablebase:
    """The built-in tables and a folder's (the package's Tablebase wraps this)."""

    def __init__(self, directory: Optional[Union[str, PathLike[str]]] = None) -> None: ...
    @property
    def directory(self) -> Optional[str]: ...
    def boards(self) -> List[str]: ...
    def source(self, board: str) -> str: ...
    def probe(
        self,
        board: str,
        moves: List[str],
        komi: float,
        black: List[str],
        white: List[str],
        to_move: str,
    ) -> Probe: ...
    def mainline(
        self,
        board: str,
        moves: List[str],
        komi: float,
        black: List[str],
        white: List[str],
        to_move: str,
    ) -> Mainline: ...
    def close(self) -> None: ...

def build(board: str, directory: Union[str, PathLike[str]]) -> str: ...
