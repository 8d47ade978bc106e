# Two consecutive passes end the game, and its result is fixed from then on.
# Moves sent after the end are played and recorded (controllers may send
# them while scoring), but final_score and smallgo-value keep the result the
# end gave, and genmove passes. Undo back past the end reopens the game.

10 boardsize 3
20 komi 0
30 play b B2
40 play w pass
50 play b pass
60 final_score
#? [B\+9]

70 smallgo-value
#? [B\+9]

# Passes after the end bring back states that stood before: no draw.
80 genmove w
#? [pass]

90 final_score
#? [B\+9]

100 genmove b
#? [pass]

110 final_score
#? [B\+9]

120 smallgo-value
#? [B\+9]

# A stone after the end is played, and changes nothing of the result.
130 play w A1
#? []

140 final_score
#? [B\+9]

150 smallgo-value
#? [B\+9]

160 genmove b
#? [pass]

# Undo back to the two passes: still over.
170 undo
180 undo
190 undo
200 undo
210 final_score
#? [B\+9]

# One more undo takes back the second pass: the game is live, and Black's
# best is to pass again and end it at B+9.
220 undo
230 smallgo-value
#? [B\+9]

240 genmove b
#? [pass]

250 final_score
#? [B\+9]

# The end by repetition is as fixed: see repetition.tst.
