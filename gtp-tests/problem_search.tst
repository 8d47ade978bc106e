# A problem past the full solver's bound of states, served by the proof
# search (docs/gtp-problems.md): sgf/problem-corner-20.sgf, the corner 20
# of `smallgo bench problems` (twenty empty points in the region). White
# lives whatever Black tries: White passes, and answers each attempt.

10 loadsgf sgf/problem-corner-20.sgf
#? [white]

20 showboard
#? [.*^ 1 \. X \. \. \. \. \. \. \. O X - .*region 32 points \(A1-K1,A2-K2,A3-F3,A4-F4\); targets A2\nwhite to play, basic ko]

# The status names the solver that serves the problem.
30 smallgo-problem-status
#? [white to play \(defender\); targets A2 \(white\)\nbasic ko \(played\): alive\nattacker ignores ko: alive\ndefender ignores ko: alive\nstatus: alive \(or seki\)\nthe problem from its start: alive \(or seki\)\nsolver: proof search \(up to 1\.2e12 states, past the full solver's 4e7; [0-9]+ states searched so far\)]

# Every move lives; the defender passes.
40 smallgo-problem-results
#? [LABEL A1 L C1 L D1 L E1 L F1 L G1 L H1 L J1 L A3 L B3 L C3 L D3 L E3 L F3 L A4 L B4 L C4 L D4 L E4 L F4 L\nCOLOR green A1 C1 D1 E1 F1 G1 H1 J1 A3 B3 C3 D3 E3 F3 A4 B4 C4 D4 E4 F4\nTEXT white \(defender\) plays pass; pass L; alive]

# Refusals, the game unchanged.
50 play w G3
#? [G3 is outside the problem's region]*

60 play b A1
#? [it is white's turn in the problem]*

70 genmove w
#? [pass]

# Black's attempts inside the eye space and outside it; White keeps
# living against each.
80 play b A1
#? []

90 genmove w
#? [pass]

100 play b C1
#? []

110 smallgo-problem-status
#? [white to play \(defender\).*status: alive \(or seki\).*solver: proof search.*]

120 genmove w
#? [pass]

130 play b B3
#? []

140 genmove w
#? [.*]

150 play b D1
#? []

160 genmove w
#? [.*]

170 smallgo-problem-status
#? [black to play \(attacker\).*basic ko \(played\): alive\n.*status: alive \(or seki\).*]

180 final_status_list dead
#? []

# Undo takes back White's last pass.
190 undo
#? []

200 smallgo-problem-status
#? [white to play \(defender\).*status: alive \(or seki\).*]

# The defender passes; the attacker, with nothing that kills, passes too,
# and the two passes end the game with the targets alive.
210 genmove w
#? [pass]

220 genmove b
#? [pass]

230 smallgo-problem-status
#? [over: two passes; targets A2 \(white\).*solver: proof search.*]

240 genmove w
#? [pass]
