# The problem commands around the game: a ko and its assumptions, loading
# by smallgo-problem (region and targets inferred), printsgf, leaving a
# problem, and files refused with the game unchanged.

10 loadsgf sgf/problem-ko.sgf
#? [black]

# Under basic ko the attacker wins the ko; with unlimited threats the
# defender would.
20 smallgo-problem-status
#? [black to play \(attacker\); targets C19 \(white\)\nbasic ko \(played\): dead in 3 plies\nattacker ignores ko: dead in 3 plies\ndefender ignores ko: alive\nstatus: ko: the defender must win it to live\nthe problem from its start: ko: the defender must win it to live]

30 smallgo-problem-results
#? [LABEL A18 ko\nCOLOR yellow A18\nMARK A18\nTEXT black \(attacker\) plays A18; pass L; dead in 3 plies]

40 gogui-analyze_commands
#? [.*^gfx/Problem: result of each move/smallgo-problem-results$.*]

50 genmove b
#? [A18]

# The ko: White may not retake at once under basic ko.
60 play w A17
#? [illegal move]*

70 smallgo-problem-ko
#? [basic]

80 smallgo-problem-ko defender
#? []

90 smallgo-problem-status
#? [white to play \(defender\).*defender ignores ko \(played\): alive.*]

100 genmove w
#? [A17]

110 undo
#? []

120 smallgo-problem-ko basic
#? []

130 genmove w
#? [pass]

140 genmove b
#? [B19]

150 smallgo-problem-status
#? [over: every target is captured.*]

# printsgf writes the problem and its moves, its region and targets
# marked, and loads back as the same problem.
160 printsgf
#? [\(;GM\[1\]FF\[4\]CA\[UTF-8\]AP\[smallgo\]SZ\[19\]AB.*PL\[B\]SQ.*MA\[ca\]\n;B\[ab\]\n;W\[\]\n;B\[ba\]\)]

170 printsgf problem-ko-printed.sgf.tmp
#? []

180 loadsgf problem-ko-printed.sgf.tmp
#? [black]

190 smallgo-problem-status
#? [black to play \(attacker\); targets C19 \(white\).*status: ko: the defender must win it to live.*]

# smallgo-problem reads a file without marks: region and targets inferred.
200 smallgo-problem sgf/problem-unmarked-9x9.sgf
#? [black]

210 showboard
#? [.*^9 \. \. \. O X - - - - 9.*region 8 points \(A8-D8,A9-D9\); targets A8 B8 C8 D8 D9.*]

220 smallgo-problem sgf/problem-unmarked-9x9.sgf threats
#? [unknown ko assumption 'threats'.*]*

# Files that are no problem are refused, the problem kept.
230 smallgo-problem sgf/no-such-file.sgf
#? [cannot read sgf/no-such-file.sgf: .*]*

240 smallgo-problem sgf/bad-unclosed.sgf
#? [sgf/bad-unclosed.sgf: not a readable SGF file: .*]*

250 smallgo-problem sgf/gnugo-selfplay-3x3.sgf
#? [sgf/gnugo-selfplay-3x3.sgf: region: .*]*

260 loadsgf sgf/problem-three-black.sgf 3
#? [cannot load 'sgf/problem-three-black.sgf': a problem file loads at its start.*]*

270 showboard
#? [.*region 8 points \(A8-D8,A9-D9\).*black to play, basic ko]

# Whole-board analysis belongs to normal play.
280 smallgo-move-values
#? [not in a problem.*]*

# Back to normal play: the problem commands are refused, the game is the
# table's again.
290 smallgo-problem-clear
#? []

300 smallgo-problem-status
#? [no problem is set.*]*

310 smallgo-problem-results
#? [no problem is set.*]*

320 boardsize 3
#? []

330 genmove b
#? [B2]

# A board size clears a problem too.
340 loadsgf sgf/problem-ko.sgf
#? [black]

350 boardsize 3
#? []

360 smallgo-problem-status
#? [no problem is set.*]*

# A problem file without marks on a board too large for a game: loadsgf
# refuses it and names the command that loads it.
370 loadsgf problems/bent-four-corner.sgf
#? [cannot load '.*bent-four-corner.sgf': SZ: board 19x19 is not allowed.*; it reads as a problem: smallgo-problem .*bent-four-corner.sgf]*

380 smallgo-problem problems/bent-four-corner.sgf
#? [black|white]

390 smallgo-problem-status
#? [.*status: .*]
