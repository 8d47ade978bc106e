# Play under superko (docs/superko.md): smallgo-rules switches the rules,
# play refuses a placement that recreates a position seen before and
# leaves the game as it was, genmove plays an exact best move of the game's
# real history within the time limit, or says it did not finish.

# GoGui's menu shows the rules in force and switches them.
5 gogui-analyze_commands
#? [.*\nstring/Rules in force/smallgo-rules\nnone/Rules: loop-draw \(the tables\)/smallgo-rules loop-draw\nnone/Rules: positional superko/smallgo-rules positional-superko\nnone/Rules: situational superko/smallgo-rules situational-superko\n.*]

10 smallgo-rules
#? [loop-draw]

20 smallgo-rules chinese
#? [unknown rules 'chinese': loop-draw, positional-superko or situational-superko]*

30 smallgo-rules positional-superko 0
#? ['0' is not a time limit.*]*

# Board 1x3, komi 0.
40 rectangular_boardsize 3 1
50 komi 0
60 smallgo-rules positional-superko
#? []

70 smallgo-rules
#? [positional-superko]

# Black A1, White C1, Black B1 takes C1, White C1 takes A1 and B1:
# ". . O".
80 play b A1
90 play w C1
100 play b B1
110 play w C1
120 final_score
#? [W\+3]

# Black A1 would take nothing and bring back "X . O", which stood after
# the second move: refused under superko (basic ko allows it: White's last
# move took two stones), and the game is as it was.
130 play b A1
#? [illegal move: A1 would recreate a position seen before \(positional-superko\)]*

140 showboard
#? [.*1 \. \. O 1.*]

150 final_score
#? [W\+3]

# The turns alternate.
160 play w A1
#? [under positional-superko the turns alternate: black is to play]*

170 smallgo-value
#? [B\+3]

180 genmove b
#? [[A-C]1|pass]

190 smallgo-value
#? [B\+3]

200 undo

# Under loop-draw the same A1 is legal, and repeats no full state.
210 smallgo-rules loop-draw
#? []

220 play b A1
#? []

# That game cannot be replayed under positional superko: the switch is
# refused, the rules stay loop-draw.
230 smallgo-rules positional-superko
#? [move 5 of the game \(black A1\) is not allowed under positional-superko: it would recreate a position seen before \(superko\); clear_board first]*

240 smallgo-rules
#? [loop-draw]

# Under situational superko it can: "X . O" stood with Black to move, and
# comes back with White to move.
250 smallgo-rules situational-superko
#? []

260 smallgo-rules
#? [situational-superko]

270 showboard
#? [.*1 X \. O 1.*]

# An occupied point is refused as under loop-draw.
280 play w C1
#? [illegal move]*

# Analysis commands read loop-draw tables.
310 smallgo-move-values
#? [smallgo-move-values reads the loop-draw tables, and the rules are situational-superko: smallgo-rules loop-draw first]*

# A board of more than 25 points is refused, the game kept.
320 boardsize 6
#? [unacceptable size]*

330 final_score
#? [0]

# 5x5 from the empty board is far beyond the search in one second: genmove
# says so and plays nothing.
340 boardsize 5
350 smallgo-rules positional-superko 1
360 genmove b
#? [not solved within the time limit of 1 s: .*]*

370 showboard
#? [[^XO]*]

# 1x7: the values of the openings are those of `smallgo analyze rules 1x7`
# (A1 -7, B1 +2, D1 +2, Black's margin at komi 0), and in the games below
# every move keeps the value: each side plays a move of its best margin,
# to the end.
400 rectangular_boardsize 7 1
410 smallgo-rules positional-superko 25
420 play b A1
430 smallgo-value
#? [W\+7]

440 undo
450 play b D1
460 smallgo-value
#? [B\+2]

470 undo
480 play b B1
490 smallgo-value
#? [B\+2]

500 genmove w
#? [[A-G]1|pass]

510 smallgo-value
#? [B\+2]

520 genmove b
#? [[A-G]1|pass]

530 smallgo-value
#? [B\+2]

540 genmove w
#? [[A-G]1|pass]

550 smallgo-value
#? [B\+2]

560 genmove b
#? [[A-G]1|pass]

570 smallgo-value
#? [B\+2]

580 genmove w
#? [[A-G]1|pass]

590 smallgo-value
#? [B\+2]

600 genmove b
#? [[A-G]1|pass]

610 smallgo-value
#? [B\+2]

620 genmove w
#? [[A-G]1|pass]

630 smallgo-value
#? [B\+2]

640 genmove b
#? [[A-G]1|pass]

650 smallgo-value
#? [B\+2]

660 genmove w
#? [[A-G]1|pass]

670 smallgo-value
#? [B\+2]

680 genmove b
#? [[A-G]1|pass]

690 smallgo-value
#? [B\+2]

700 genmove w
#? [[A-G]1|pass]

710 smallgo-value
#? [B\+2]

720 genmove b
#? [[A-G]1|pass]

730 smallgo-value
#? [B\+2]

# The game is over: two passes ended it.
740 final_score
#? [B\+2]

750 genmove w
#? [pass]


# Black's A1 loses 7: White keeps every point.
700 clear_board

710 play b A1

720 genmove w
#? [[A-G]1|pass]

730 smallgo-value
#? [W\+7]

740 genmove b
#? [[A-G]1|pass]

750 smallgo-value
#? [W\+7]

760 genmove w
#? [[A-G]1|pass]

770 smallgo-value
#? [W\+7]

780 genmove b
#? [[A-G]1|pass]

790 smallgo-value
#? [W\+7]

800 genmove w
#? [[A-G]1|pass]

810 smallgo-value
#? [W\+7]

820 genmove b
#? [[A-G]1|pass]

830 smallgo-value
#? [W\+7]

840 genmove w
#? [[A-G]1|pass]

850 smallgo-value
#? [W\+7]

860 genmove b
#? [[A-G]1|pass]

870 smallgo-value
#? [W\+7]

880 genmove w
#? [[A-G]1|pass]

890 smallgo-value
#? [W\+7]

900 genmove b
#? [[A-G]1|pass]

910 smallgo-value
#? [W\+7]

920 genmove w
#? [[A-G]1|pass]

930 smallgo-value
#? [W\+7]

940 genmove b
#? [[A-G]1|pass]

950 smallgo-value
#? [W\+7]

# Black may resist longer with moves of equal value: play on until the
# game is over (a genmove then passes), wherever the line went.
951 genmove w
#? [[A-G]1|pass]

952 genmove b
#? [[A-G]1|pass]

953 genmove w
#? [[A-G]1|pass]

954 genmove b
#? [[A-G]1|pass]

955 genmove w
#? [[A-G]1|pass]

956 genmove b
#? [[A-G]1|pass]

957 genmove w
#? [[A-G]1|pass]

958 genmove b
#? [[A-G]1|pass]

960 final_score
#? [W\+7]
