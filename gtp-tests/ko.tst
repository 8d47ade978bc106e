# Basic ko: a single-stone capture that could be undone at once may not be
# retaken on the very next move; a pass (or any other move) clears it.
# Board 3x4 (3 rows, 4 columns): rectangular_boardsize 4 3.

10 rectangular_boardsize 4 3
#? []

# . X O .
# X O . O
# . X O .
20 play b B3
30 play b A2
40 play b B1
50 play w C3
60 play w B2
70 play w D2
80 play w C1

# Black takes the white stone at B2 with C2.
90 play b C2
#? []

100 showboard
#? [.*2 X \. X O 2.*]

# White may not retake at once.
110 play w B2
#? [illegal move]*

# genmove never plays the ko retake.
120 reg_genmove w
#? [!B2]

# White passes; the ko is gone for White after Black's next move.
130 play w pass
140 play b A3
150 play w B2
#? []

# That retake was itself a one-stone ko capture: Black may not answer at C2.
160 play b C2
#? [illegal move]*

# A move by the other colour ends the ko: White plays again at D3 (joining
# its stones, taking nothing), then Black may take at C2.
170 play w D3
#? []
180 play b C2
#? []

# Undo restores the ko with the position.
190 undo
200 undo
210 play b C2
#? [illegal move]*
