# A problem opened in GoGui or Sabaki (docs/gtp-problems.md): a 19x19 file
# has no table, so the controller's `boardsize 19` makes a setup board,
# the file's stones come as `play` commands (all black stones in the
# file's order, then all white ones, as both send setup stones to an
# engine without gogui-setup), and `smallgo-problem-here` makes a problem
# of them, its region and targets inferred.

# Before any setup board there is nothing to make a problem of.
10 smallgo-problem-here
#? [no setup board.*]*

# GoGui opening sgf/problem-four-white.sgf (PL[W]): boardsize, clear_board,
# the stones, then komi.
20 boardsize 19
#? []

30 clear_board
#? []

40 play b E19
#? []

50 play b E18
#? []

60 play b C17
#? []

70 play b D17
#? []

80 play b E17
#? []

90 play b A16
#? []

100 play b B16
#? []

110 play w D19
#? []

120 play w A18
#? []

130 play w C18
#? []

140 play w D18
#? []

150 play w A17
#? []

160 play w B17
#? []

170 komi 6.5
#? []

# Refusals on the setup board, each leaving it unchanged: no move to
# generate before a problem is made, an occupied point, a point off the
# board, a bad argument, the commands that need values.
180 genmove w
#? [no problem is set: this board has no table; smallgo-problem-here .*]*

190 reg_genmove b
#? [no problem is set: this board has no table.*]*

200 play b D19
#? [illegal move]*

210 play b Z19
#? [invalid coordinate]*

220 smallgo-problem-here x
#? ['x' is neither a colour nor a ko assumption.*]*

230 smallgo-problem-here w b
#? ['b' is neither a colour nor a ko assumption.*]*

240 final_score
#? [no problem is set: this board has no table.*]*

250 smallgo-value
#? [no problem is set: this board has no table.*]*

260 showboard
#? [.*^19 \. \. \. O X \. \. .*^18 O \. O O X \. .*^17 O O X X X \. .*^16 X X \. \. .*setup board 19x19 \(no table\).*black to play]

# GoGui's menu has an entry for each side to move, white here.
270 gogui-analyze_commands
#? [.*^none/Problem: start here, white to play/smallgo-problem-here white$.*]

280 smallgo-problem-here white
#? [white]

290 showboard
#? [.*^19 \. \. \. O X - - .*^16 X X - - .*region .*targets A17 B17 A18 C18 D18 D19\nwhite to play, basic ko]

300 smallgo-problem-here w
#? [a problem is being played: smallgo-problem-clear first]*

310 genmove w
#? [B19]

320 genmove b
#? [pass]

330 genmove w
#? [pass]

340 smallgo-problem-status
#? [over: two passes; targets .*status: alive.*]

# Back to the setup board: its stones, black to play after White's last
# stone; undo takes a stone back, clear_board empties it.
350 smallgo-problem-clear
#? []

360 showboard
#? [.*^19 \. \. \. O X \. \. .*setup board 19x19.*black to play]

370 undo
#? []

380 showboard
#? [.*^17 O \. X X X \. .*black to play]

390 clear_board
#? []

400 showboard
#? [.*^17 \. \. \. \. \. \. .*black to play]

410 smallgo-problem-here
#? [no problem here: .*]*

420 genmove b
#? [no problem is set: this board has no table.*]*

# Sabaki opening sgf/problem-three-black.sgf (PL[B]): komi, boardsize,
# clear_board, then the stones; the colour after White's last stone is
# Black, the side to move.
430 komi 0
#? []

440 boardsize 19
#? []

450 clear_board
#? []

460 play B E19
#? []

470 play B E18
#? []

480 play B A17
#? []

490 play B B17
#? []

500 play B C17
#? []

510 play B D17
#? []

520 play B E17
#? []

530 play W D19
#? []

540 play W A18
#? []

550 play W B18
#? []

560 play W C18
#? []

570 play W D18
#? []

580 smallgo-problem-here attacker
#? [black]

590 smallgo-problem-ko
#? [attacker]

600 play b E16
#? [E16 is outside the problem's region]*

610 genmove b
#? [B19]

620 play w A19
#? []

630 genmove b
#? [C19]

660 smallgo-problem-status
#? [over: every target is captured.*]

670 genmove w
#? [pass]

# A board with a table ends the setup board and plays as before.
680 boardsize 4
#? []

690 showboard
#? [.*A B C D\n4 \. \. \. \. 4.*]

700 genmove b
#? [B2|C2|B3|C3]
