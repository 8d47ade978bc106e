# Bouzy's board pieces on a large board (smallgo-pieces, gfx for GoGui):
# the setup board's corners and sides cut into regions of the largest
# corner and edge pieces with values (here the 3x3 ones, solved on the
# spot), each labelled at its best local move with its {l|r}.

10 gogui-analyze_commands
#? [.*\ngfx/Pieces: values and best local moves \(Bouzy\)/smallgo-pieces\n.*]

# Not on a board of a game: the pieces are read on a setup board.
20 boardsize 4
30 smallgo-pieces
#? [smallgo-pieces reads a large board.*]*

# The empty 9x9: four 3x3 corners and four 3x3 sides, each the paper's
# {+1|-1} (the empty 3x3 corner and edge pieces), worth one point to move
# first; Black's first best move on the empty corner piece is B1.
40 boardsize 9
50 smallgo-pieces
#? [COLOR #cfe8cf .*\nCOLOR #cfdcf0 .*\nLABEL B1 \{\+1\|-1\}( [A-J][1-9] \{\+1\|-1\}){7}\nMARK B1\nTEXT black to play, hottest B1 \(t=1\); .* A1-C3 3x3-corner \{\+1\|-1\} t=1 B1; D1-F3 3x3-edge \{\+1\|-1\} t=1 [D-F][1-3]; G1-J3 3x3-corner .*; G7-J9 3x3-corner .*; A7-C9 3x3-corner .*; A4-C6 3x3-edge \{\+1\|-1\} t=1 [A-C][4-6]]

# The regions go around the board in order: corner, side, corner, ...
60 smallgo-pieces white
#? [.*TEXT white to play, .*: A1-C3 [^;]*; D1-F3 [^;]*; G1-J3 [^;]*; G4-J6 [^;]*; G7-J9 [^;]*; D7-F9 [^;]*; A7-C9 [^;]*; A4-C6 [^;]*]

# A black stone on B2 changes the lower left corner's pair (Black
# first: +3, White first: +1; tests/rules_and_pieces.rs holds such pairs
# against analyze position on the piece); the other regions stay {+1|-1}.
70 play b B2
80 smallgo-pieces white
#? [.*\nMARK C1\nTEXT white to play, hottest C1 \(t=1\); .*: A1-C3 3x3-corner \{\+3\|\+1\} t=1 C1; D1-F3 3x3-edge \{\+1\|-1\}.*]

# Reading the regions changes nothing.
90 showboard
#? [.*2 \. X \. \. \. \. \. \. \. 2.*]

# A syntax error.
100 smallgo-pieces purple
#? [syntax error]*
