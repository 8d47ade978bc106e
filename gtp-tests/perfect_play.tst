# Perfect replies in known positions (komi 0). The opening results are the
# published ones (SPEC section 7): 1x3 B+3, 2x3 draw, 2x4 B+8, 3x3 B+9,
# 4x4 B+1; best first moves 2x3 B1, B2 or pass and 2x4 B1, C1, B2, C2 (SPEC
# section 7's independent solve); a drawing side prefers pass (SPEC 4).

10 rectangular_boardsize 3 1
20 komi 0
30 smallgo-value
#? [B\+3]

# 1x3: only B1 wins: A1 or C1 let White take it at B1.
40 genmove b
#? [B1]

# White has no legal point (both are suicide): it passes, Black passes.
50 genmove w
#? [pass]

60 genmove b
#? [pass]

70 final_score
#? [B\+3]

80 rectangular_boardsize 3 2
90 smallgo-value
#? [0]

# 2x3 is a draw and pass keeps it: the drawing side passes.
100 genmove b
#? [pass]

110 rectangular_boardsize 4 2
120 smallgo-value
#? [B\+8]

130 genmove b
#? [B1|C1|B2|C2]

140 boardsize 3
150 genmove b
#? [B2]

160 boardsize 4
170 smallgo-value
#? [B\+1]

180 genmove b
#? [B2|C2|B3|C3]

# 2x2, Black A1 against White B1-B2: each side's one-stone-liberty group.
# Whoever moves first captures; Black must take at A2 now.
190 boardsize 2
200 play b A1
210 play w B1
220 play w B2
230 genmove b
#? [A2]

# After two passes genmove passes.
240 clear_board
250 play b pass
260 play w pass
270 genmove b
#? [pass]
