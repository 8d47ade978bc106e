# Non-square boards: rectangular_boardsize W H sets W columns (letters) and
# H rows (numbers), as Sabaki sends it. Board "2x4" is 2 rows, 4 columns.

10 rectangular_boardsize 4 2
#? []

20 showboard
#? [\s*A B C D\s*\n2 \. \. \. \. 2\n1 \. \. \. \. 1\n\s*A B C D]

30 play b D2
#? []

40 play b E1
#? [invalid coordinate]*

50 play b A3
#? [invalid coordinate]*

60 clear_board
70 smallgo-value
#? [B\+8]

# The same board turned: 4 rows, 2 columns. The best moves are the turned
# images of B1, C1, B2, C2: A2, A3, B2, B3.
80 rectangular_boardsize 2 4
#? []

90 showboard
#? [\s*A B\s*\n4 \. \. 4\n3 \. \. 3\n2 \. \. 2\n1 \. \. 1\n\s*A B]

100 smallgo-value
#? [B\+8]

110 genmove b
#? [A2|A3|B2|B3]

120 play w C1
#? [invalid coordinate]*

# Square sizes through rectangular_boardsize.
130 rectangular_boardsize 3 3
140 smallgo-value
#? [B\+9]

# Long lines: 1x16 is the largest shipped line, a draw.
150 rectangular_boardsize 16 1
160 smallgo-value
#? [0]

# Sizes without a table.
170 boardsize 5
#? [unacceptable size]*

180 rectangular_boardsize 17 1
#? [unacceptable size]*

190 boardsize 0
#? [unacceptable size]*

200 rectangular_boardsize 3 0
#? [unacceptable size]*

210 boardsize 30
#? [unacceptable size]*

220 rectangular_boardsize 4
#? [syntax error]*

# A refused size leaves the board as it was.
230 smallgo-value
#? [0]
