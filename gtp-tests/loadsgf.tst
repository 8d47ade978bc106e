# loadsgf FILE [MOVE_NUMBER | VERTEX] and printsgf [FILE], as GNU Go has
# them. Files are in sgf/ (see sgf/README.md for which program wrote each).

# A whole game: board size and komi from the file, the colour to play back.
10 loadsgf sgf/gnugo-selfplay-3x3.sgf
#? [white]

20 showboard
#? [\s*A B C\s*\n3 \. \. \. 3\n2 \. X \. 2\n1 \. \. \. 1\n\s*A B C]

# KM[5.5]: one black stone owns the 9 points.
30 final_score
#? [B\+3\.5]

# Up to (not including) move 3: Black to play, after B2 and a pass.
40 loadsgf sgf/gnugo-selfplay-4x4.sgf 3
#? [black]

50 showboard
#? [\s*A B C D\s*\n4 \. \. \. \. 4\n3 \. O X \. 3\n2 \. \. \. \. 2\n1 \. \. \. \. 1\n\s*A B C D]

# Up to the first move at a vertex: B2 is move 3.
60 loadsgf sgf/gnugo-selfplay-4x4.sgf B2
#? [black]

70 showboard
#? [\s*A B C D\s*\n4 \. \. \. \. 4\n3 \. O X \. 3\n2 \. \. \. \. 2\n1 \. \. \. \. 1\n\s*A B C D]

# A rectangular SZ[5:2] from Sabaki's writer: the main line, not the
# variation; it ends with two passes, so the result stays.
80 loadsgf sgf/sabaki-2x5.sgf
#? [white]

90 showboard
#? [\s*A B C D E\s*\n2 \. X \. \. \. 2\n1 \. \. X O \. 1\n\s*A B C D E]

100 final_score
#? [B\+4]

110 genmove w
#? [pass]

# Setup stones and PL[W]: White plays first.
120 loadsgf sgf/sabaki-3x3-setup.sgf 1
#? [white]

130 showboard
#? [\s*A B C\s*\n3 X X \. 3\n2 \. \. \. 2\n1 \. \. O 1\n\s*A B C]

# GNU Go's printsgf writes a position as setup stones.
140 loadsgf sgf/gnugo-printsgf-3x3-handicap.sgf
#? [white]

150 showboard
#? [\s*A B C\s*\n3 \. O X 3\n2 \. X \. 2\n1 X \. \. 1\n\s*A B C]

155 loadsgf sgf/gnugo-printsgf-4x4.sgf
#? [black]

157 showboard
#? [\s*A B C D\s*\n4 \. \. O \. 4\n3 \. O X \. 3\n2 \. X O \. 2\n1 \. \. \. \. 1\n\s*A B C D]

# GoGui's twogtp writes setup stones in the root and PL after a comment.
158 loadsgf sgf/gogui-twogtp-3x3-setup.sgf 1
#? [white]

159 showboard
#? [\s*A B C\s*\n3 X X \. 3\n2 \. \. \. 2\n1 \. \. O 1\n\s*A B C]

# printsgf writes the game; loading it back gives the same game.
160 loadsgf sgf/sabaki-3x3-setup.sgf
#? [black]

170 printsgf
#? [\(;FF\[4\]CA\[UTF-8\]GM\[1\]AP\[smallgo:[^]]*\]SZ\[3\]KM\[0\.5\]RU\[[^]]*\]AB\[aa\]\[ba\]AW\[cc\]PL\[W\]\n;W\[bb\];B\[cb\];W\[bc\]\)]

180 printsgf printed.sgf.tmp
#? []

190 loadsgf printed.sgf.tmp
#? [black]

200 showboard
#? [\s*A B C\s*\n3 X X \. 3\n2 \. O X 2\n1 \. O O 1\n\s*A B C]

# A finished game records its result.
210 play b pass
220 play w pass
230 printsgf
#? [.*RE\[B\+0\.5\].*;B\[\];W\[\]\)]

# Bad files get a '?' naming the fault, and the game stays as it was.
240 loadsgf sgf/missing.sgf
#? [cannot open 'sgf/missing.sgf'.*]*

250 loadsgf sgf/bad-unclosed.sgf
#? [cannot load 'sgf/bad-unclosed.sgf': line 2: a value is not closed.*]*

260 loadsgf sgf/bad-occupied.sgf
#? [cannot load 'sgf/bad-occupied.sgf': move 2 \(node 2, W B2\) is illegal]*

270 loadsgf sgf/bad-late-setup.sgf
#? [cannot load 'sgf/bad-late-setup.sgf': node 2: setup stones \(AW\) after the first move are not supported]*

280 loadsgf sgf/bad-19x19.sgf
#? [cannot load 'sgf/bad-19x19.sgf': SZ: board 19x19 is not allowed.*]*

285 loadsgf sgf/bad-5x5.sgf
#? [cannot load 'sgf/bad-5x5.sgf': no table serves its 5x5 board]*

290 loadsgf sgf/bad-off-board.sgf
#? [cannot load 'sgf/bad-off-board.sgf': node 1: "bd" is not a point of the 3x3 board]*

300 loadsgf sgf/gnugo-selfplay-4x4.sgf X9
#? ['X9' is neither a move number nor a vertex]*

310 loadsgf
#? [missing filename]*

320 showboard
#? [\s*A B C\s*\n3 X X \. 3\n2 \. O X 2\n1 \. O O 1\n\s*A B C]

330 final_score
#? [B\+0\.5]
