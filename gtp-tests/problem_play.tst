# Life-and-death problems played over GTP (docs/gtp-problems.md). The
# problem files are in sgf/problem-*.sgf: 19x19 corners whose targets are
# marked (MA), so that loadsgf sets the problem; the region is inferred.

# Straight three in the corner, Black to kill.
10 loadsgf sgf/problem-three-black.sgf
#? [black]

20 showboard
#? [.*^19 \. \. \. O X - - .*^18 O O O O X - - .*^17 X X X X X - - .*^16 - - - - - - .*region 8 points \(A18-D18,A19-D19\); targets A18 B18 C18 D18 D19\nblack to play, basic ko]

30 smallgo-problem-status
#? [black to play \(attacker\); targets A18 B18 C18 D18 D19 \(white\)\nbasic ko \(played\): dead in 7 plies\nattacker ignores ko: dead in 7 plies\ndefender ignores ko: dead in 7 plies\nstatus: dead\nthe problem from its start: dead]

# Every region move judged: only the vital point kills.
40 smallgo-problem-results
#? [LABEL A19 L B19 K7 C19 L\nCOLOR green B19\nCOLOR red A19 C19\nMARK B19\nTEXT black \(attacker\) plays B19; pass L; dead in 7 plies]

# Refusals, each with the game unchanged: outside the region, off the
# board, the wrong colour, an occupied point, a bad ko assumption.
50 play b E16
#? [E16 is outside the problem's region]*

60 play b E19
#? [E19 is outside the problem's region]*

70 play b Z99
#? [invalid coordinate]*

80 play w B19
#? [it is black's turn in the problem]*

90 genmove w
#? [it is black's turn in the problem]*

100 play b D19
#? [illegal move]*

110 smallgo-problem-ko threats
#? [unknown ko assumption 'threats': basic, attacker or defender]*

120 final_score
#? [not in a problem.*]*

130 showboard
#? [.*^19 \. \. \. O X - - .*black to play, basic ko]

# The attacker's vital point, then each reply White has: Black kills
# against every one.
140 genmove b
#? [B19]

150 smallgo-problem-status
#? [white to play \(defender\).*status: dead.*]

160 play w A19
#? []

170 genmove b
#? [C19]

180 smallgo-problem-status
#? [over: every target is captured\n.*status: dead.*]

190 final_status_list dead
#? []

200 genmove w
#? [pass]

210 play w C19
#? [the problem is over]*

# Back to White's first reply and try the others.
220 undo
#? []

230 undo
#? []

240 play w C19
#? []

250 genmove b
#? [A19]

260 smallgo-problem-status
#? [over: every target is captured.*]

270 undo
#? []

280 undo
#? []

290 play w pass
#? []

300 final_status_list dead
#? [A18 B18 C18 D18 D19]

310 genmove b
#? [A19]

320 genmove w
#? [C19]

330 genmove b
#? [A19]

340 genmove w
#? [B19]

350 genmove b
#? [A19]

360 smallgo-problem-status
#? [over: every target is captured.*]

# The same shape with White to play: White lives at the vital point, and
# Black has no move left but the pass.
500 loadsgf sgf/problem-three-white.sgf
#? [white]

510 smallgo-problem-results
#? [LABEL A19 K4 B19 L C19 K4\nCOLOR green B19\nCOLOR red A19 C19\nMARK B19\nTEXT white \(defender\) plays B19; pass K8; alive]

520 genmove w
#? [B19]

530 play b A19
#? [illegal move]*

540 play b C19
#? [illegal move]*

550 genmove b
#? [pass]

560 genmove w
#? [pass]

570 smallgo-problem-status
#? [over: two passes; targets D19 \(white\)\nbasic ko \(played\): alive.*]

580 final_status_list dead
#? []

590 final_status_list alive
#? [.*A18 B18 C18 D18.*D19.*]

600 final_status_list seki
#? []

# A wrong first move by White: Black kills.
610 undo
#? []

620 undo
#? []

630 undo
#? []

640 play w A19
#? []

650 smallgo-problem-status
#? [black to play \(attacker\).*status: dead.*]

660 genmove b
#? [B19]

670 genmove w
#? [C19]

680 genmove b
#? [B19]

690 smallgo-problem-status
#? [over: every target is captured.*]

# The straight four lives whatever Black tries; the attacker, lost, passes.
700 loadsgf sgf/problem-straight-four.sgf
#? [black]

710 genmove b
#? [pass]

720 undo
#? []

730 play b B19
#? []

740 genmove w
#? [C19]

750 genmove b
#? [pass]

760 genmove w
#? [pass]

770 smallgo-problem-status
#? [over: two passes; targets E19 \(white\)\nbasic ko \(played\): alive.*]

780 undo
#? []

790 undo
#? []

800 undo
#? []

805 undo
#? []

810 play b C19
#? []

820 genmove w
#? [B19]

830 undo
#? []

840 undo
#? []

850 play b A19
#? []

860 genmove w
#? [.*]

870 smallgo-problem-status
#? [.*basic ko \(played\): alive.*]

880 undo
#? []

890 undo
#? []

900 play b D19
#? []

910 genmove w
#? [.*]

920 smallgo-problem-status
#? [.*basic ko \(played\): alive.*]
