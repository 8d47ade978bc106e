"""smallgo: perfect play for Go on small boards, from Python.

Every state of a small board is solved and stored in a table; a table gives
the exact result of any position at any komi, and every move's. The tables
of every board of at most 16 points (plain and circular) are built into
this module, in the style of python-chess's ``chess.syzygy``::

    import smallgo

    tb = smallgo.open_tablebase()
    probe = tb.probe("3x3", moves=["B2"], komi=0)
    probe.result.score        # 'B+9': Black wins by 9 with perfect play
    probe.value, probe.depth  # -9.0, 14: for White, to move, in 14 plies
    [(m.move, m.label) for m in probe.moves]   # every move, best first
    tb.best_moves("3x3")      # ['B2']
    tb.mainline("3x3").moves  # the perfect game

A position is a board (``"3x3"``, ``"2x7c"`` circular, a shape's diagram
``"..#/..."``), setup stones (``black``, ``white``) with the player to move
(``to_move``), and the moves played from there, colours alternating:
GTP vertices (``"B2"``) or ``"pass"``, as a list or one string (``"B2 C3"``,
``"B2,C3"``). Where sgfmill is installed, an ``sgfmill.boards.Board`` or an
``sgfmill.sgf.Sgf_game`` may stand for the board (docs/python.md).

The rules are smallgo's (docs/rules.md): area scoring, basic ko, no
suicide, two passes end the game, and a full state that comes back ends it
as a draw. The komi is given to White.

Bad input raises ``ValueError`` (or ``TypeError``) naming the argument at
fault; a board without values ``MissingTableError``.
"""

from __future__ import annotations

import os
from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

from . import _smallgo
from ._smallgo import (
    BuildError,
    DoesNotFitError,
    Mainline,
    MissingTableError,
    MoveValue,
    Outcome,
    Probe,
    TableError,
    TableWarning,
)

__all__ = [
    "open_tablebase",
    "Tablebase",
    "build",
    "Probe",
    "MoveValue",
    "Outcome",
    "Mainline",
    "MissingTableError",
    "TableError",
    "BuildError",
    "DoesNotFitError",
    "TableWarning",
]

__version__ = "0.1.0"

#: The column letters of GTP vertices (``I`` skipped).
COLUMN_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

PathLike = Union[str, "os.PathLike[str]"]
#: A board as ``probe`` takes it: a name, or an sgfmill board or game.
BoardLike = Any
Moves = Union[str, Iterable[str], None]


def open_tablebase(directory: Optional[PathLike] = None) -> "Tablebase":
    """Opens the tables: the built-in ones, and ``directory``'s if given.

    ``directory`` is a folder of tables written by ``smallgo build`` (or
    ``smallgo.build``), preferred to the built-in tables of the same board.
    A file there that is not a sound table is skipped with a
    ``TableWarning``; a folder that cannot be read raises ``OSError``
    (``FileNotFoundError``, ``NotADirectoryError``, ...).
    """
    return Tablebase(directory)


def build(board: str, directory: PathLike) -> str:
    """Solves ``board`` and writes its table into ``directory``.

    The table is ``RxC.sgtb`` (written through a temporary file, so the
    folder never holds a partial table), and the folder's ``manifest.tsv``
    gets its line. Returns the table's path; ``open_tablebase(directory)``
    then reads it. A board that does not fit (more points than the solver
    takes, more memory or disk than there is) raises ``DoesNotFitError``
    before anything is written; another failure ``BuildError``. 3x5 takes
    seconds, 4x5 minutes; the interpreter is released meanwhile, but the
    build cannot be interrupted.
    """
    if not isinstance(board, str):
        raise TypeError(f"board: expected a board's name such as '2x3', got {type(board).__name__}")
    return _smallgo.build(board, os.fspath(directory))


class Tablebase:
    """The tables of smallgo: built in, a folder's, or solved on the spot.

    A board's values are opened on its first probe and kept: a table (of
    the folder first, else built in), else the turned board's (7x2 is 2x7
    turned), else, for a board of at most about 1.5 million states, a
    solve on the spot (about a second). ``source(board)`` says which.
    Use it as a context manager, or call ``close()``, to drop the values
    opened.
    """

    def __init__(self, directory: Optional[PathLike] = None) -> None:
        folder = None if directory is None else os.fspath(directory)
        self._native = _smallgo.Tablebase(folder)

    @property
    def directory(self) -> Optional[str]:
        """The folder of tables given, or ``None``."""
        folder = self._native.directory
        return None if folder is None else str(folder)

    def boards(self) -> List[str]:
        """The boards with a table (in the folder or built in), by name."""
        return self._native.boards()

    def source(self, board: str) -> str:
        """Where ``board``'s values come from: ``built-in table 3x3``, a
        file's path, ``solved on the spot``. Raises ``MissingTableError``
        for a board without values."""
        if not isinstance(board, str):
            raise TypeError(f"board: expected a board's name such as '3x3', got {type(board).__name__}")
        return self._native.source(board)

    def probe(
        self,
        board: BoardLike,
        moves: Moves = None,
        komi: Optional[float] = None,
        *,
        black: Iterable[str] = (),
        white: Iterable[str] = (),
        to_move: Optional[str] = None,
    ) -> Probe:
        """The position's exact value at ``komi`` and every legal move.

        ``board`` is a board's name (``"3x3"``), or an sgfmill board or
        game (its stones, or its setup and main line); ``moves`` the moves
        played from the start (a list, or one string split at spaces and
        commas); ``komi`` the komi given to White (0 unless an sgfmill game
        gives one); ``black``, ``white`` setup stones and ``to_move`` the
        player to move at the start (``"black"`` unless said).

        Returns a ``Probe``: ``result`` (an ``Outcome``: winner, margin,
        plies, score), ``value`` (the margin for the player to move,
        komi included: positive a win, 0 a draw, negative a loss),
        ``depth`` (plies to the end), and ``moves``, every legal move,
        pass included, best first in the engine's order, each a
        ``MoveValue`` (``move``, ``value``, ``depth``, ``outcome``,
        ``label``, ``best``). Once the game is over (two passes, or a
        repetition) ``result`` is its final result and ``moves`` is empty.
        """
        args = _position(board, moves, komi, black, white, to_move)
        return self._native.probe(*args)

    def best_moves(
        self,
        board: BoardLike,
        moves: Moves = None,
        komi: Optional[float] = None,
        *,
        black: Iterable[str] = (),
        white: Iterable[str] = (),
        to_move: Optional[str] = None,
    ) -> List[str]:
        """The moves that keep the best result (the same winner and margin,
        plies aside), best first in the engine's order: the first is the
        engine's move. Empty once the game is over. Arguments as
        ``probe``."""
        probe = self.probe(board, moves, komi, black=black, white=white, to_move=to_move)
        return [m.move for m in probe.moves if m.best]

    def mainline(
        self,
        board: BoardLike,
        moves: Moves = None,
        komi: Optional[float] = None,
        *,
        black: Iterable[str] = (),
        white: Iterable[str] = (),
        to_move: Optional[str] = None,
    ) -> Mainline:
        """The line perfect play follows from the position, the engine's
        move at each step, until the game ends or 60 moves: a
        ``Mainline`` with ``moves``, ``to_move`` (who plays the first),
        ``ended`` (``"passes"``, ``"repetition"``, or ``None`` at the
        limit) and ``result`` (the final result, or ``None``). Arguments as
        ``probe``."""
        args = _position(board, moves, komi, black, white, to_move)
        return self._native.mainline(*args)

    def close(self) -> None:
        """Drops the boards' values opened so far (they open again when
        asked for)."""
        self._native.close()

    def __enter__(self) -> "Tablebase":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        folder = self.directory
        return "<Tablebase built-in>" if folder is None else f"<Tablebase built-in and {folder!r}>"


def _moves(moves: Moves, what: str = "moves") -> List[str]:
    """A list of move texts from a list or one string."""
    if moves is None:
        return []
    if isinstance(moves, str):
        return moves.replace(",", " ").split()
    try:
        items = list(moves)
    except TypeError:
        raise TypeError(
            f"{what}: expected a list of vertices such as ['B2', 'pass'] or a string, "
            f"got {type(moves).__name__}"
        ) from None
    for number, item in enumerate(items, 1):
        if not isinstance(item, str):
            raise TypeError(
                f"{what}: item {number} is {type(item).__name__}, expected a vertex such as 'B2'"
                + (" or 'pass'" if what == "moves" else "")
            )
    return items


def _komi(komi: Optional[float], default: float) -> float:
    if komi is None:
        return default
    if isinstance(komi, bool) or not isinstance(komi, (int, float)):
        try:
            import numbers

            if isinstance(komi, numbers.Real) and not isinstance(komi, bool):
                return float(komi)
        except ImportError:  # pragma: no cover
            pass
        raise TypeError(f"komi: expected a number such as 6.5, got {type(komi).__name__}")
    return float(komi)


def _to_move(to_move: Optional[str], default: str) -> str:
    if to_move is None:
        return default
    if not isinstance(to_move, str):
        raise TypeError(f"to_move: expected 'black' or 'white', got {type(to_move).__name__}")
    return to_move


def _vertex(point: Tuple[int, int]) -> str:
    """An sgfmill point (row, column), row 0 the bottom, as a GTP vertex."""
    row, column = point
    return f"{COLUMN_LETTERS[column]}{row + 1}"


def _sgfmill() -> Tuple[Any, Any]:
    """sgfmill's board and game classes, or ``None`` where it is not
    installed."""
    try:
        from sgfmill import boards, sgf
    except ImportError:
        return None, None
    return boards.Board, sgf.Sgf_game


def _position(
    board: BoardLike,
    moves: Moves,
    komi: Optional[float],
    black: Iterable[str],
    white: Iterable[str],
    to_move: Optional[str],
) -> Tuple[str, List[str], float, List[str], List[str], str]:
    """The native probe's arguments: board name, moves, komi, setup
    stones and the player to move."""
    more = _moves(moves)
    black, white = _moves(black, "black"), _moves(white, "white")
    if isinstance(board, str):
        return board, more, _komi(komi, 0.0), black, white, _to_move(to_move, "black")
    sgf_board, sgf_game = _sgfmill()
    if sgf_board is not None and isinstance(board, sgf_board):
        if black or white:
            raise ValueError("black and white: the sgfmill board gives the stones")
        stones = {"b": [], "w": []}
        for colour, point in board.list_occupied_points():
            stones[colour].append(_vertex(point))
        name = f"{board.side}x{board.side}"
        return name, more, _komi(komi, 0.0), stones["b"], stones["w"], _to_move(to_move, "black")
    if sgf_game is not None and isinstance(board, sgf_game):
        if black or white:
            raise ValueError("black and white: the sgfmill game gives the setup")
        return _from_game(board, more, komi, to_move)
    raise TypeError(
        "board: expected a board's name such as '3x3', or an sgfmill Board or Sgf_game, "
        f"got {type(board).__name__}"
        + ("" if sgf_board is not None else " (sgfmill is not installed)")
    )


def _from_game(
    game: Any, more: List[str], komi: Optional[float], to_move: Optional[str]
) -> Tuple[str, List[str], float, List[str], List[str], str]:
    """A position from an sgfmill game: its size (and smallgo's
    ``TOPOLOGY[circular]``), setup stones, player to move (``PL``, else the
    first move's colour), the moves of its main line, then ``more``; its
    ``KM`` unless ``komi`` is given."""
    size = game.get_size()
    root = game.get_root()
    name = f"{size}x{size}"
    if root.has_property("TOPOLOGY"):
        topology = root.get("TOPOLOGY")
        if isinstance(topology, bytes):
            topology = topology.decode("utf-8", "replace")
        if str(topology).lower() == "circular":
            name += "c"
        elif str(topology).lower() != "plain":
            raise ValueError(f"sgf: TOPOLOGY[{topology}] is not read: plain or circular")
    black_points, white_points, _empty = root.get_setup_stones()
    black = sorted((_vertex(p) for p in black_points), key=_point_order)
    white = sorted((_vertex(p) for p in white_points), key=_point_order)
    played: List[Tuple[str, str]] = []
    for number, node in enumerate(game.get_main_sequence()):
        if number > 0 and node.has_setup_stones():
            raise ValueError(
                f"sgf: node {number} has setup stones (AB, AW or AE): only the first node's are read"
            )
        colour, point = node.get_move()
        if colour is not None:
            played.append((colour, "pass" if point is None else _vertex(point)))
    if to_move is None:
        if root.has_property("PL"):
            to_move = {"b": "black", "w": "white"}[root.get("PL")]
        elif played:
            to_move = {"b": "black", "w": "white"}[played[0][0]]
        else:
            to_move = "black"
    colours = {"b": "b", "black": "b", "w": "w", "white": "w"}
    if not isinstance(to_move, str) or to_move.lower() not in colours:
        raise ValueError(f"to_move: {to_move!r} is not a colour: black or white")
    expected = colours[to_move.lower()]
    for number, (colour, _move) in enumerate(played, 1):
        if colour != expected:
            raise ValueError(
                f"sgf: move {number} is {'black' if colour == 'b' else 'white'}'s, but "
                f"{'black' if expected == 'b' else 'white'} is to play: the moves must alternate"
            )
        expected = "w" if expected == "b" else "b"
    moves = [move for _colour, move in played] + more
    return name, moves, _komi(komi, float(game.get_komi())), black, white, to_move


def _point_order(vertex: str) -> Tuple[int, int]:
    return int(vertex[1:]), COLUMN_LETTERS.index(vertex[0])
