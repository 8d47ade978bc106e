# Tiny-board positions in the style of GNU Go's regression suites: loadsgf
# up to a move number, then reg_genmove for the side to play. Every answer
# accepted here keeps the best result by smallgo's tables, and GNU Go 3.8
# finds one of them too: tests/gtp_regress.rs runs this file unchanged
# against both engines.

loadsgf ../sgf/gnugo-selfplay-3x3.sgf 1
10 reg_genmove black
#? [B2]

loadsgf ../sgf/gnugo-selfplay-4x4.sgf 3
20 reg_genmove black
#? [B2]

loadsgf ../sgf/gnugo-selfplay-4x4.sgf 5
30 reg_genmove black
#? [C1|D2|A3|B4]

loadsgf ../sgf/gnugo-selfplay-4x4.sgf 7
40 reg_genmove black
#? [C1|D3]

loadsgf ../sgf/gnugo-selfplay-4x4.sgf 9
50 reg_genmove black
#? [C2|A3|B4|D4]

# The colour to play is the answer to loadsgf.
60 loadsgf ../sgf/sabaki-3x3-setup.sgf 1
#? [white]

70 reg_genmove white
#? [B2]
