# Exact ownership: who owns each point at the end of the line perfect play
# follows (smallgo-ownership, gfx for GoGui), and final_status_list read
# from it (dead: captured for good; seki: in seki at the end).

10 gogui-analyze_commands
#? [.*\ngfx/Perfect ownership/smallgo-ownership\n.*]

# 3x3 at komi 0: Black takes the whole board (B+9).
20 boardsize 3
30 komi 0
40 smallgo-ownership
#? [INFLUENCE A1 1 B1 1 C1 1 A2 1 B2 1 C2 1 A3 1 B3 1 C3 1\nTEXT Black 9, White 0, neither 0, seki 0: two passes after [0-9]+ plies]

# White's stone at A1 does not live: it is dead, Black's B2 alive.
50 play b B2
60 play w A1
70 final_status_list dead
#? [A1]

80 final_status_list alive
#? [B2]

90 final_status_list seki
#? []

# Reading the map changes nothing.
100 showboard
#? [\s*A B C\s*\n3 \. \. \. 3\n2 \. X \. 2\n1 O \. \. 1\n\s*A B C]

# A seki on 2x3: Black A1 A2, White C1 C2. A stone on B1 or B2 leaves
# its string one liberty: neither side fills, both strings are in seki,
# the shared points are nobody's.
110 rectangular_boardsize 3 2
120 play b A1
130 play b A2
140 play w C1
150 play w C2
160 final_status_list seki
#? [A1 C1 A2 C2]

170 final_status_list alive
#? []

180 final_status_list dead
#? []

190 smallgo-ownership
#? [INFLUENCE A1 1 C1 -1 A2 1 C2 -1\nSQUARE A1 B1 C1 A2 B2 C2\nTEXT Black 2, White 2, neither 2, seki 6: two passes after 2 plies]

# 4x4 at komi 0 (B+1): the game ends in a seki, Black 8 points to
# White's 7, one shared point left.
200 boardsize 4
210 smallgo-ownership
#? [INFLUENCE .*\nSQUARE .*\nTEXT Black 8, White 7, neither 1, seki [0-9]+: two passes after [0-9]+ plies]

220 smallgo-value
#? [B\+1]

# 1x7 at komi 0.5 is a draw by endless play: the map is that of the loop,
# a point Black's or White's only if it is in every position of it.
230 rectangular_boardsize 7 1
240 komi 0.5
250 smallgo-value
#? [0]

260 smallgo-ownership
#? [.*TEXT Black [0-9]+, White [0-9]+, neither [0-9]+, seki 0: a loop of [0-9]+ positions after [0-9]+ plies, a draw]

# After the game's end the map is that of the end itself.
270 boardsize 3
280 komi 0
290 play b B2
300 play w pass
310 play b pass
320 final_status_list alive
#? [B2]

330 smallgo-ownership
#? [INFLUENCE A1 1 B1 1 C1 1 A2 1 B2 1 C2 1 A3 1 B3 1 C3 1\nTEXT Black 9, White 0, neither 0, seki 0: the game is over]

# Bad arguments are refused.
340 final_status_list
#? [syntax error]*

350 final_status_list sekii
#? [syntax error]*

360 smallgo-ownership purple
#? [syntax error]*

# A life-and-death problem: in the seki in the corner, the targets and the
# attacker's stones in the region are in seki, the stones around alive.
370 smallgo-problem problems/seki-corner.sgf
#? [black]

380 final_status_list seki
#? [B1 C1 D1 F1 A2 B2 C2 D2 E2 F2]

390 final_status_list alive
#? [G1 G2 A3 B3 C3 D3 E3 F3 G3]

400 final_status_list dead
#? []

410 smallgo-ownership
#? [not in a problem: .*]*
