"""Loads an SGF file with KaTrain's own SGF reader (katrain.core.game.KaTrainSGF, its GameNode) and its
own analysis loader (GameNode.load_analysis, which KaTrain's analyze_all_nodes calls before it asks an
engine), and writes what KaTrain sees on each node of the main line as JSON: a list, root first.

    python review.py GAME.sgf OUT.json
"""

import json
import os
import sys

# Kivy takes over the command line, standard error and a log file unless told not to.
os.environ["KIVY_NO_ARGS"] = "1"
os.environ["KIVY_NO_CONSOLELOG"] = "1"
os.environ["KIVY_NO_FILELOG"] = "1"

from katrain.core.game import KaTrainSGF  # noqa: E402

game, out = sys.argv[1], sys.argv[2]
root = KaTrainSGF.parse_file(game)
nodes = []
node = root
while node is not None:
    loaded = node.load_analysis()
    seen = {"move": node.move.gtp() if node.move else None, "loaded": loaded}
    if loaded:
        seen.update(
            score=node.score,
            winrate=node.winrate,
            complete=node.analysis_complete,
            ownership=list(node.ownership) if node.ownership is not None else None,
            policy=list(node.policy) if node.policy is not None else None,
            candidates=[{key: c.get(key) for key in ("move", "order", "scoreLead", "winrate", "pv")}
                        for c in node.candidate_moves],
        )
    nodes.append(seen)
    node = node.children[0] if node.children else None
# KaTrain's points lost of each move, once every node's analysis is loaded.
node, number = root, 0
while node is not None:
    nodes[number]["points_lost"] = node.points_lost if nodes[number]["loaded"] else None
    node, number = (node.children[0], number + 1) if node.children else (None, number)
with open(out, "w") as file:
    json.dump({"board_size": list(root.board_size), "nodes": nodes}, file)
