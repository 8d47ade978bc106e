"""The Python module against the real program: every answer compared with
`smallgo analyze position --json` of the same position (the engine's own
reading of the tables), every shipped table probed, tables built from
Python read back and verified by `smallgo verify`, and the faults.

The program is target/release/smallgo (or the one $SMALLGO names);
python/test.sh builds it before the tests.
"""

import ast
import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import smallgo

ROOT = Path(__file__).resolve().parents[2]
SMALLGO = os.environ.get("SMALLGO", str(ROOT / "target" / "release" / "smallgo"))
SHIPPED = sorted(p.stem for p in (ROOT / "tablebases").glob("*.sgtb"))


@pytest.fixture(scope="module")
def tb():
    return smallgo.open_tablebase()


def program(*args, stdin=None):
    """Runs smallgo; its standard output, or a failure with its error."""
    if not os.access(SMALLGO, os.X_OK):
        pytest.fail(f"{SMALLGO} is not built: cargo build --release (or set SMALLGO)")
    done = subprocess.run(
        [SMALLGO, *args], input=stdin, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"smallgo {' '.join(args)}: {done.stderr}"
    return done.stdout


def analyze(lines):
    """`analyze position --batch - --json` of each line, in order."""
    out = program("analyze", "position", "--batch", "-", "--json", stdin="\n".join(lines) + "\n")
    answers = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert len(answers) == len(lines)
    for line, answer in zip(lines, answers):
        assert answer["kind"] == "position", f"{line}: {answer}"
    return answers


def same_outcome(outcome, expected, where):
    assert outcome.winner == expected["winner"], where
    assert math.isclose(outcome.margin, expected["margin"], abs_tol=1e-9), where
    assert outcome.plies == expected["plies"], where
    assert outcome.score == expected["score"], where


def same_position(probe, expected, where, keys=("played",)):
    """A probe against `analyze position`'s answer of the same position."""
    for key in ("board", *keys, "to_move", "black", "white", "ko", "ended", "source"):
        assert getattr(probe, key) == expected[key], f"{where}: {key}"
    same_outcome(probe.result, expected["result"], where)
    assert probe.depth == expected["result"]["plies"], where
    winner = expected["result"]["winner"]
    sign = 0 if winner is None else (1 if winner == probe.to_move else -1)
    assert probe.value == sign * expected["result"]["margin"], where
    assert [m.move for m in probe.moves] == [m["point"] for m in expected["moves"]], where
    for move, answer in zip(probe.moves, expected["moves"]):
        at = f"{where}, move {move.move}"
        same_outcome(move.outcome, answer["outcome"], at)
        assert move.best == answer["best"], at
        assert move.depth == answer["outcome"]["plies"], at
        mover_wins = answer["outcome"]["winner"] == probe.to_move
        label = "=0" if answer["outcome"]["winner"] is None else (
            ("+" if mover_wins else "-") + answer["outcome"]["score"][2:]
        )
        assert move.label == label, at
        assert move.value == (0 if label == "=0" else float(label)), at


def batch_line(board, moves, komi, black=(), white=(), to_move="black"):
    words = [board, *moves, "--komi", repr(float(komi))]
    if black or white or to_move != "black":
        size = board.rstrip("c").split("x")
        rows, columns = int(size[0]), int(size[1])
        cells = [["."] * columns for _ in range(rows)]
        for colour, stones in (("X", black), ("O", white)):
            for vertex in stones:
                column = smallgo.COLUMN_LETTERS.index(vertex[0])
                cells[rows - int(vertex[1:])][column] = colour
        words += ["--diagram", "/".join("".join(r) for r in cells), "--to-move", to_move]
    return " ".join(words)


def test_the_module_is_the_installed_wheel():
    assert "site-packages" in smallgo.__file__, smallgo.__file__
    assert "site-packages" in smallgo._smallgo.__file__


def test_every_shipped_table_is_probed_as_the_program_reads_it(tb):
    assert SHIPPED, "tablebases/ holds the shipped tables"
    assert set(SHIPPED) <= set(tb.boards())
    for komi in (0, 0.5, -3):
        lines = [batch_line(board, [], komi) for board in SHIPPED]
        for board, expected in zip(SHIPPED, analyze(lines)):
            probe = tb.probe(board, komi=komi)
            assert probe.source == f"built-in table {board}"
            same_position(probe, expected, f"{board} komi {komi}")


def test_the_manifests_results_and_best_first_moves(tb):
    """tablebases/manifest.tsv, written by the builds from the tables: the
    result at komi 0 and the best first moves (in point order there)."""
    rows = [
        line.split("\t")
        for line in (ROOT / "tablebases" / "manifest.tsv").read_text().splitlines()
        if line and not line.startswith("#") and not line.startswith("board\t")
    ]
    assert sorted(row[0] for row in rows) == SHIPPED
    for board, _states, result, best, *_ in rows:
        probe = tb.probe(board)
        assert (probe.result.score if probe.result.winner else "draw") == result, board
        assert sorted(tb.best_moves(board)) == sorted(best.split()), board


@pytest.mark.parametrize(
    "board,komi",
    [("3x3", 0), ("3x3", 9), ("2x3c", 0.5), ("4x4", 1), ("1x7c", -1.5), ("2x4", 8), ("3x4", 4.5)],
)
def test_random_games_move_by_move_against_the_program(tb, board, komi):
    """Games of random moves (repetitions and two passes included), each
    position against `analyze position`."""
    rng = random.Random(f"{board} {komi}")
    games = []
    for chance in (0.05, 0.1, 0.2, 0.4):
        moves = []
        while len(moves) < 40:
            probe = tb.probe(board, moves, komi)
            if probe.ended:
                break
            points = [m.move for m in probe.moves if m.move != "pass"]
            moves.append("pass" if not points or rng.random() < chance else rng.choice(points))
        games.append(moves)
    positions = [game[:n] for game in games for n in range(len(game) + 1)]
    answers = analyze([batch_line(board, moves, komi) for moves in positions])
    endings = set()
    for moves, expected in zip(positions, answers):
        probe = tb.probe(board, moves, komi)
        same_position(probe, expected, f"{board} {' '.join(moves)}")
        endings.add(probe.ended)
    assert "passes" in endings or "repetition" in endings


def test_setup_stones_and_the_player_to_move(tb):
    cases = [
        ("3x3", ["C3"], ["B2"], "white", []),
        ("3x3", ["B2"], ["A1"], "black", ["C1", "pass"]),
        ("4x4", ["B2", "C3"], ["B3"], "white", ["C2"]),
        ("2x5c", [], ["A1", "C2"], "black", []),
    ]
    lines = [batch_line(b, m, 0.5, black, white, to_move) for b, black, white, to_move, m in cases]
    for (board, black, white, to_move, moves), expected in zip(cases, analyze(lines)):
        probe = tb.probe(board, moves, 0.5, black=black, white=white, to_move=to_move)
        same_position(probe, expected, f"{board} setup {black} {white}")


def test_moves_as_one_string_and_any_case(tb):
    assert tb.probe("3x3", "b2 a1,PASS").played == ["B2", "A1", "pass"]


def test_the_mainline_is_the_first_move_at_every_step(tb):
    for board, komi in (("3x3", 0), ("2x6c", 0.5), ("4x4", 0), ("3x3", 9)):
        start = tb.probe(board, komi=komi)
        line = tb.mainline(board, komi=komi)
        assert line.to_move == "black"
        played = []
        for move in line.moves:
            assert tb.probe(board, played, komi).moves[0].move == move, (board, played)
            played.append(move)
        end = tb.probe(board, played, komi)
        assert end.ended == line.ended
        assert line.result == end.result
        if line.ended == "passes":
            assert line.result.score == start.result.score, board
            if start.depth is not None:
                assert len(line.moves) == start.depth, board
    limited = tb.mainline("3x3", ["B2"])
    assert limited.to_move == "white" and limited.moves[0] == tb.best_moves("3x3", ["B2"])[0]


def test_a_table_built_from_python_is_read_back_and_verified(tb, tmp_path):
    path = smallgo.build("2x3", tmp_path)
    assert Path(path) == tmp_path / "2x3.sgtb"
    assert (tmp_path / "manifest.tsv").exists()
    program("verify", path)
    built = smallgo.open_tablebase(tmp_path)
    assert built.directory == str(tmp_path)
    assert built.source("2x3") == path
    for moves in ([], ["B2"], ["B1", "A2", "pass"]):
        mine, shipped = built.probe("2x3", moves, 0.5), tb.probe("2x3", moves, 0.5)
        assert [(m.move, m.outcome) for m in mine.moves] == [
            (m.move, m.outcome) for m in shipped.moves
        ]
        assert mine.result == shipped.result


def test_a_board_that_does_not_fit_is_refused_before_anything_is_written(tmp_path):
    for board in ("6x6", "5x5"):
        with pytest.raises(smallgo.DoesNotFitError) as refused:
            smallgo.build(board, tmp_path)
        assert board in str(refused.value) or "points" in str(refused.value)
        assert isinstance(refused.value, smallgo.BuildError)
    assert not any(tmp_path.glob("*.sgtb"))
    with pytest.raises(ValueError, match="board: 'nine' is not a board"):
        smallgo.build("nine", tmp_path)
    afile = tmp_path / "file"
    afile.write_text("not a folder")
    with pytest.raises(smallgo.BuildError):
        smallgo.build("1x3", afile)


@pytest.mark.parametrize(
    "kwargs,error,said",
    [
        (dict(moves=["B2", "B2"]), ValueError, "moves: move 2 'B2' is not legal for white here"),
        (dict(moves=["Z9"]), ValueError, "moves: move 1 'Z9' is not on board 3x3"),
        (dict(moves=["B2x"]), ValueError, "moves: move 1 'B2x' is not a move"),
        (dict(moves="pass pass A1"), ValueError, "move 3 'A1' comes after the end of the game"),
        (dict(moves=[2]), TypeError, "moves: item 1 is int"),
        (dict(moves=5), TypeError, "moves: expected a list"),
        (dict(komi=float("nan")), ValueError, "komi: NaN is not a finite number"),
        (dict(komi=float("inf")), ValueError, "komi: inf is not a finite number"),
        (dict(komi="6.5"), TypeError, "komi: expected a number"),
        (dict(to_move="red"), ValueError, "to_move: 'red' is not a colour"),
        (dict(black=["A1"], white=["A1"]), ValueError, "A1 holds stones of both colours"),
        (dict(black=["A1"], white=["A2", "B1"]), ValueError, "the setup is not legal"),
        (dict(black=["J9"]), ValueError, "black: 'J9' is not on board 3x3"),
        (dict(white=["I1"]), ValueError, "white: 'I1' is not a point"),
    ],
)
def test_bad_input_raises_a_clear_exception(tb, kwargs, error, said):
    with pytest.raises(error) as raised:
        tb.probe("3x3", **kwargs)
    assert said in str(raised.value)


def test_boards_without_values_and_bad_board_names(tb):
    with pytest.raises(smallgo.MissingTableError, match="no table of board 5x5"):
        tb.probe("5x5")
    with pytest.raises(KeyError):
        tb.mainline("6x6")
    for name in ("3x3.sgtb", "../../etc", "", "0x3", "99x99"):
        with pytest.raises(ValueError, match="board: "):
            tb.probe(name)
    with pytest.raises(TypeError, match="board: expected a board's name"):
        tb.probe(33)


def test_a_small_board_without_a_table_is_solved_on_the_spot(tb):
    probe = tb.probe("3x2")
    assert probe.source.endswith("turned") or "2x3" in probe.source
    shape = tb.probe("..#/...")
    assert shape.source == "solved on the spot"
    expected = analyze([batch_line("..#/...", [], 0)])[0]
    same_position(shape, expected, "shape")


def test_a_tables_folder_that_cannot_be_read_or_holds_a_bad_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="tables folder"):
        smallgo.open_tablebase(tmp_path / "missing")
    (tmp_path / "3x3.sgtb").write_bytes(b"not a table")
    with pytest.warns(smallgo.TableWarning, match="3x3.sgtb"):
        tables = smallgo.open_tablebase(tmp_path)
    assert tables.source("3x3") == "built-in table 3x3"


def test_an_sgfmill_board_and_game(tb, tmp_path):
    sgfmill = pytest.importorskip("sgfmill")
    from sgfmill import boards, common, sgf

    board = boards.Board(3)
    board.play(1, 1, "b")
    board.play(2, 0, "w")
    assert [smallgo._vertex(p) for p in [(1, 1), (2, 0)]] == [
        common.format_vertex(p) for p in [(1, 1), (2, 0)]
    ]
    from_board = tb.probe(board, ["C1"], 0.5, to_move="white")
    same_position(
        from_board,
        analyze([batch_line("3x3", ["C1"], 0.5, ["B2"], ["A3"], "white")])[0],
        "sgfmill board",
    )

    text = b"(;GM[1]FF[4]SZ[3]KM[2.5]AB[cc]AW[aa]PL[W];W[bb];B[ab];W[])"
    game = sgf.Sgf_game.from_bytes(text)
    (tmp_path / "game.sgf").write_bytes(text)
    expected = analyze([f"--sgf {tmp_path / 'game.sgf'}"])[0]
    probe = tb.probe(game)
    assert probe.komi == 2.5
    # The game's moves are the program's start, the module's moves played.
    same_position(probe, expected, "sgfmill game", keys=())
    assert probe.played == ["B2", "A2", "pass"]
    assert tb.probe(game, komi=0).komi == 0

    with pytest.raises(ValueError, match="the moves must alternate"):
        tb.probe(sgf.Sgf_game.from_bytes(b"(;SZ[3];B[bb];B[aa])"))
    with pytest.raises(ValueError, match="the sgfmill board gives the stones"):
        tb.probe(board, black=["A1"])
    assert sgfmill is not None


def test_the_stubs_name_what_the_module_has():
    """python/smallgo/_smallgo.pyi against the native module."""
    stub = ast.parse((Path(smallgo.__file__).parent / "_smallgo.pyi").read_text())
    for node in stub.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            assert hasattr(smallgo._smallgo, node.name), node.name
        if isinstance(node, ast.ClassDef):
            cls = getattr(smallgo._smallgo, node.name)
            for member in node.body:
                name = getattr(member, "name", None) or getattr(
                    getattr(member, "target", None), "id", None
                )
                if name and not name.startswith("__"):
                    assert hasattr(cls, name), f"{node.name}.{name}"
    for name in smallgo.__all__:
        assert hasattr(smallgo, name), name
    assert sys.version_info >= (3, 9)
