# Komi: any finite value, White receives it, kept across boardsize and
# clear_board, applied by final_score and smallgo-value.
# 3x3 is B+9 at komi 0 (SPEC section 7): Black forces +9 and White forces
# -9 (Black owns the whole board), so the result moves with komi.

10 boardsize 3
20 komi 0
30 smallgo-value
#? [B\+9]

40 komi 6.5
50 smallgo-value
#? [B\+2\.5]

60 komi 9
70 smallgo-value
#? [0]

80 komi 9.5
90 smallgo-value
#? [W\+0\.5]

100 komi -3
110 smallgo-value
#? [B\+12]

# Empty board: area 0, so the score is the komi.
120 komi 7.5
130 final_score
#? [W\+7\.5]

# Kept across clear_board and boardsize.
140 clear_board
150 final_score
#? [W\+7\.5]

160 boardsize 2
170 final_score
#? [W\+7\.5]

180 komi 0.25
190 final_score
#? [W\+0\.25]

200 komi abc
#? [syntax error]*

210 komi inf
#? [syntax error]*

220 komi nan
#? [syntax error]*

230 komi
#? [syntax error]*

# The failed commands left komi as it was.
240 final_score
#? [W\+0\.25]

# Any komi prints as the exact margin in its shortest decimal form: never
# a trailing dot, never an exponent, whole margins without decimals.
250 komi 0.0000001
260 boardsize 3
270 smallgo-value
#? [B\+8\.9999999]

280 smallgo-move-labels b
#? [A1 -9\.0000001 B1 \+2\.9999999 C1 -9\.0000001 A2 \+2\.9999999 B2 \+8\.9999999 C2 \+2\.9999999 A3 -9\.0000001 B3 \+2\.9999999 C3 -9\.0000001]

290 komi 6.3
300 smallgo-value
#? [B\+2\.7]

310 komi 9
320 smallgo-value
#? [0]

# The margin is the exact decimal difference of the area margin and the
# komi as typed, however many digits it has and whatever a double makes of
# it: 9.0000001 is no 9.0000000999999993922529, and
# 9.000000000000000000001 is no 9 (which would draw).
330 komi 9.0000001
340 smallgo-value
#? [W\+0\.0000001]

350 final_score
#? [W\+9\.0000001]

360 komi 9.000000000000000000001
370 smallgo-value
#? [W\+0\.000000000000000000001]

380 komi 1e-7
390 final_score
#? [W\+0\.0000001]
