# Analysis commands for GoGui: move values, best moves, principal variation.

10 gogui-analyze_commands
#? [(?:(?:gfx|pspairs|plist|var|string|none)/[^/\n]+/smallgo-[a-z-]+(?: [a-z-]+)?\n?)+]

20 gogui-analyze_commands
#? [!.*gogui-rules.*]

30 boardsize 3
40 komi 0

# Every legal point labelled with what it leads to: B2 wins by 9, and
# nothing does better.
50 smallgo-move-labels b
#? [A1 [+=-][0-9.]+ B1 [+=-][0-9.]+ C1 [+=-][0-9.]+ A2 [+=-][0-9.]+ B2 \+9 C2 [+=-][0-9.]+ A3 [+=-][0-9.]+ B3 [+=-][0-9.]+ C3 [+=-][0-9.]+]

60 smallgo-move-labels b
#? [!.*\+(?:[1-9][0-9]|1[0-9]).*]

70 smallgo-best-moves b
#? [B2]

80 smallgo-move-values b
#? [LABEL (?:[A-C][1-3] [+=-][0-9.]+ ?)+\nCOLOR green .*B2.*\nMARK B2\nTEXT .*]

# The principal variation starts with the best move and ends the game.
90 smallgo-pv b
#? [B2(?: (?:[A-C][1-3]|pass))* pass pass]

100 smallgo-value
#? [B\+9]

# Analysis does not change the game.
110 showboard
#? [\s*A B C\s*\n3 \. \. \. 3\n2 \. \. \. 2\n1 \. \. \. 1\n\s*A B C]

# For White to move after B2 the values are from White's view: losses.
120 play b B2
130 smallgo-move-labels w
#? [(?:[A-C][1-3] -[0-9.]+ ?)+]

140 smallgo-value
#? [B\+9]

# A draw on 2x2 at komi 0: genmove passes, every move keeps the draw, and
# the analysis says so, pass included and marked.
150 boardsize 2
160 komi 0
170 reg_genmove b
#? [pass]

180 smallgo-best-moves b
#? [A1 B1 A2 B2 pass]

190 smallgo-move-values b
#? [LABEL A1 =0 B1 =0 A2 =0 B2 =0\nCOLOR yellow A1 B1 A2 B2\nTEXT black plays pass \(=0\); pass =0]

# At komi 0.5 Black must play to win: pass is not among the best moves.
200 komi 0.5
210 smallgo-best-moves b
#? [A1 B1 A2 B2]
