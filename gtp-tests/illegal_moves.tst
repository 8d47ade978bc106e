# Illegal moves get "? illegal move" and change nothing; a vertex that is
# malformed or off the board gets "? invalid coordinate", as in GNU Go.

10 boardsize 3
20 play b B2
#? []

# Occupied point, by either colour, in any case of the vertex.
30 play w b2
#? [illegal move]*

40 play b B2
#? [illegal move]*

# Off the board: a vertex this board does not have.
50 play w D1
#? [invalid coordinate]*

60 play w A4
#? [invalid coordinate]*

# Not a vertex at all.
70 play w 4A
#? [invalid coordinate]*

80 play w I1
#? [invalid coordinate]*

# A bad colour, or a missing argument.
85 play x A1
#? [syntax error]*

87 play w
#? [syntax error]*

# Single-stone suicide: W at A1 with B at A2 and B1.
90 clear_board
100 play b A2
110 play b B1
120 play w A1
#? [illegal move]*

# The same point is legal for Black.
130 play b A1
#? []

# Multi-stone suicide: W A2-A3 would have no liberty next to B B2, B3, A1.
140 clear_board
150 play b A1
160 play b B2
170 play b B3
180 play w A3
#? []
190 play w A2
#? [illegal move]*

# Nothing changed after the refused moves.
200 showboard
#? [.*3 O X \. 3\n2 \. X \. 2\n1 X \. \. 1.*]

# pass is always legal, in any case.
210 play w PASS
#? []

220 play b Pass
#? []
