# In a live game the first repetition of a full state (board, side to move,
# ko point, passes) ends the game as a draw: final_score answers 0 and
# genmove answers pass.

# Board 1x3: a line of three points.
20 rectangular_boardsize 3 1
#? []

30 komi 0.5
40 play b A1
50 play w C1
# Black takes C1, White takes A1-B1, Black plays A1, White takes A1.
60 play b B1
70 play w C1
80 play b A1
90 play w B1
# ". O O": White has two stones and A1: 3 points, plus komi.
100 final_score
#? [W\+3\.5]

# Black takes B1-C1: "X.." with White to move stood after the first move.
110 play b A1
#? []

120 final_score
#? [0]

130 genmove w
#? [pass]

140 genmove b
#? [pass]

# Undo takes the repetition back; the game is live again.
150 undo
160 undo
170 undo
180 final_score
#? [W\+3\.5]

# Black's only moves are A1 (the repetition: a draw) and pass (White then
# passes and wins): a perfect player takes the draw.
190 genmove b
#? [A1]

200 final_score
#? [0]
