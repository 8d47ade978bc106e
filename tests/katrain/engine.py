"""Runs smallgo under KaTrain's own KataGo engine client (katrain.core.engine.KataGoEngine), as KaTrain
starts KataGo, sends one analysis query as KaTrain does for a node of a 3x3 game, loads the answer into
the node as KaTrain does, and writes what KaTrain reads back as JSON.

    python engine.py SMALLGO OUT.json KOMI MOVE...     (moves in GTP, Black first)
"""

import json
import os
import sys
import time

# Kivy takes over the command line, standard error and a log file unless told not to.
os.environ["KIVY_NO_ARGS"] = "1"
os.environ["KIVY_NO_CONSOLELOG"] = "1"
os.environ["KIVY_NO_FILELOG"] = "1"

from katrain.core.engine import KataGoEngine  # noqa: E402
from katrain.core.game_node import GameNode  # noqa: E402
from pysgf import Move  # noqa: E402

smallgo, out, komi, moves = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
log = []


class Katrain:
    """What the engine client calls back on KaTrain's main object."""

    def log(self, message, level=0):
        log.append(str(message))

    def __call__(self, *arguments, **_):
        log.append(repr(arguments))


config = {
    "katago": smallgo,
    "model": "none.bin.gz",
    "config": "none.cfg",
    "altcommand": "",
    "wide_root_noise": 0.0,
    "max_time": 8.0,
    "allow_recovery": False,
}
engine = KataGoEngine(Katrain(), config)
node = GameNode(properties={"SZ": "3", "KM": komi, "RU": "chinese"})
colours = "BW"
for number, move in enumerate(moves):
    node = node.play(Move.from_gtp(move, player=colours[number % 2]))
answers, errors = [], []
engine.request_analysis(node, lambda analysis, partial: answers.append((analysis, partial)), errors.append,
                        visits=100, ownership=True)
deadline = time.time() + 30
while not any(not partial for _, partial in answers) and not errors and time.time() < deadline:
    time.sleep(0.05)
engine.shutdown(finish=False)
result = {"command": engine.command, "errors": errors, "log": log}
final = [analysis for analysis, partial in answers if not partial]
if final:
    node.set_analysis(final[0])
    result.update(
        score=node.score,
        winrate=node.winrate,
        ownership=node.ownership,
        completed=node.analysis["completed"],
        next_player=node.next_player,
        candidates=[{key: c[key] for key in ("move", "order", "scoreLead", "winrate", "pointsLost")}
                    for c in node.candidate_moves],
    )
with open(out, "w") as file:
    json.dump(result, file)
