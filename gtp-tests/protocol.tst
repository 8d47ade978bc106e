# GTP v2 conformance: standard commands, answers and errors.
# Run by `cargo test` (tests/gtp_regress.rs) and by gogui-regress.
# A trailing * marks a command that must fail; our runner also checks the
# error message against the pattern.

10 protocol_version
#? [2]

20 name
#? [smallgo]

30 version
#? [[0-9]+\.[0-9]+\.[0-9]+]

40 known_command genmove
#? [true]

50 known_command kata-analyze
#? [true]

60 known_command analyze
#? [false]

70 known_command no_such_command
#? [false]

# Every command is listed, one per line; `analyze` (Sabaki's own format) and
# gogui-rules_* (other games) never are.
80 list_commands
#? [.*^kata-analyze$.*]

90 list_commands
#? [!.*^analyze$.*]

100 list_commands
#? [!.*gogui-rules.*]

110 list_commands
#? [.*^gogui-analyze_commands$.*^reg_genmove$.*^smallgo-value$.*]

# Command names are case-sensitive.
120 GENMOVE b
#? [unknown command]*

130 no_such_command
#? [unknown command]*

140 boardsize 3
#? []

150 clear_board
#? []

160 showboard
#? [\s*A B C\s*\n3 \. \. \. 3\n2 \. \. \. 2\n1 \. \. \. 1\n\s*A B C]

170 play b B2
#? []

180 showboard
#? [.*2 \. X \. 2.*]

190 undo
#? []

200 undo
#? [cannot undo]*

210 time_settings 300 30 5
#? []

220 time_left b 120 0
#? []

230 time_settings soon
#? [syntax error]*

240 cputime
#? [[0-9]+\.[0-9]+]

250 final_status_list dead
#? []

260 play w A1
#? []

270 play b C3
#? []

# Read from the end of perfect play: White, to move, takes the centre and
# the board; Black's C3 is captured for good.
280 final_status_list alive
#? [A1]

285 final_status_list dead
#? [C3]

290 final_status_list seki
#? []

300 final_status_list undecided
#? [syntax error]*

310 play b
#? [syntax error]*

320 genmove purple
#? [syntax error]*

330 boardsize three
#? [syntax error]*

340 quit
#? []
