//! The GTP conversation as a controller meets it, byte for byte, where the
//! `.tst` suites cannot look: raw input (control characters, tabs,
//! comments, empty lines), pipelined commands, one flushed reply per
//! command, `kata-analyze` streaming until any input arrives, logs kept off
//! standard output, and the engine's start with extra or damaged tables.
//! The engine is driven through `support::gtp_engine`, which this file
//! wraps to panic on any fault and to give replies line for line as read.

use std::path::Path;
use std::process::ExitStatus;

use crate::support::command::smallgo;
use crate::support::files::{make_fifo, shipped_table};
use crate::support::gtp_engine::{EngineCommand, GtpEngine};

/// A running smallgo fed raw bytes, with the replies read line by line.
struct Engine {
    gtp: GtpEngine,
}

impl Engine {
    fn start(arguments: &[&str]) -> Engine {
        let gtp = GtpEngine::start(&EngineCommand::smallgo(arguments), "smallgo", None)
            .expect("smallgo starts");
        Engine { gtp }
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        self.gtp
            .send_raw(bytes)
            .unwrap_or_else(|fault| panic!("{fault}"));
    }

    fn line(&mut self) -> String {
        self.gtp
            .read_line()
            .unwrap_or_else(|fault| panic!("a line from the engine in time: {fault}"))
    }

    /// Reads one whole reply: every line up to the empty one.
    fn reply(&mut self) -> Vec<String> {
        self.gtp
            .read_reply()
            .unwrap_or_else(|fault| panic!("{fault}"))
            .all_lines()
    }

    fn ask(&mut self, command: &str) -> Vec<String> {
        self.gtp
            .ask(command)
            .unwrap_or_else(|fault| panic!("{fault}"))
            .all_lines()
    }

    /// What the engine wrote on standard error since the last look.
    fn stderr(&mut self) -> String {
        self.gtp.new_stderr()
    }

    fn exit_status(&mut self) -> ExitStatus {
        self.gtp.exit_status().expect("the engine exits in time")
    }

    fn quit(mut self) {
        assert_eq!(self.ask("quit"), ["= "]);
        assert!(self.exit_status().success());
    }
}

#[test]
fn raw_input_is_cleaned_and_blank_lines_get_no_reply() {
    let mut engine = Engine::start(&[]);
    // A comment line, an empty line, control characters, a tab, a trailing
    // comment and CR LF, all before one command.
    engine.send_raw(b"# just a comment\n\n\x01 \x07pro\x02tocol_version\t# trailing\r\n");
    assert_eq!(engine.reply(), ["= 2"]);
    engine.send_raw(b"7\tkomi\t6.5\r\n");
    assert_eq!(engine.reply(), ["=7 "]);
    engine.send_raw(b"8 final_score\n");
    assert_eq!(engine.reply(), ["=8 W+6.5"]);
    // Errors carry the id too.
    engine.send_raw(b"9 no_such_command\n");
    assert_eq!(engine.reply(), ["?9 unknown command"]);
    engine.quit();
}

#[test]
fn pipelined_commands_are_answered_in_order() {
    let mut engine = Engine::start(&[]);
    let mut batch = String::new();
    for id in 1..=50 {
        batch.push_str(&format!("{id} name\n"));
    }
    batch.push_str("51 boardsize 3\n52 genmove b\n53 genmove w\n54 undo\n55 undo\n56 undo\n");
    engine.send_raw(batch.as_bytes());
    for id in 1..=50 {
        assert_eq!(engine.reply(), [format!("={id} smallgo")]);
    }
    assert_eq!(engine.reply(), ["=51 "]);
    assert_eq!(engine.reply(), ["=52 B2"]);
    assert!(engine.reply()[0].len() > 4);
    assert_eq!(engine.reply(), ["=54 "]);
    assert_eq!(engine.reply(), ["=55 "]);
    assert_eq!(engine.reply(), ["?56 cannot undo"]);
    engine.quit();
}

#[test]
fn each_reply_is_flushed_before_the_next_command() {
    let mut engine = Engine::start(&[]);
    // One command at a time, stdin kept open: a reply held in a buffer would
    // time out here.
    for _ in 0..5 {
        assert_eq!(engine.ask("protocol_version"), ["= 2"]);
    }
    assert_eq!(engine.ask("boardsize 4"), ["= "]);
    assert_eq!(engine.ask("genmove b").len(), 1);
    engine.quit();
}

#[test]
fn standard_output_holds_only_replies() {
    let mut engine = Engine::start(&[]);
    for command in [
        "boardsize 3",
        "genmove b",
        "rectangular_boardsize 7 2",
        "genmove b",
        "showboard",
    ] {
        let reply = engine.ask(command);
        assert!(reply[0].starts_with('='), "{command}: {reply:?}");
        assert!(reply.iter().all(|l| !l.contains("INFO")), "{reply:?}");
    }
    // The logs went to standard error.
    assert!(engine.stderr().contains("board 3x3"));
    engine.quit();
}

#[test]
fn end_of_input_ends_the_engine() {
    let mut engine = Engine::start(&[]);
    engine.gtp.close_input();
    assert!(engine.exit_status().success());
}

/// One parsed `info` entry of kata-analyze.
#[derive(Debug)]
struct Info {
    fields: Vec<(String, String)>,
    pv: Vec<String>,
}

impl Info {
    fn get(&self, key: &str) -> &str {
        &self
            .fields
            .iter()
            .find(|(k, _)| k == key)
            .unwrap_or_else(|| panic!("no {key} in {self:?}"))
            .1
    }
}

fn parse_infos(line: &str) -> Vec<Info> {
    let mut infos = Vec::new();
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let mut at = 0;
    while at < tokens.len() {
        assert_eq!(tokens[at], "info", "{line}");
        at += 1;
        let mut info = Info {
            fields: Vec::new(),
            pv: Vec::new(),
        };
        while at < tokens.len() && tokens[at] != "info" {
            if tokens[at] == "pv" {
                at += 1;
                while at < tokens.len() && tokens[at] != "info" {
                    info.pv.push(tokens[at].to_string());
                    at += 1;
                }
            } else {
                info.fields
                    .push((tokens[at].to_string(), tokens[at + 1].to_string()));
                at += 2;
            }
        }
        infos.push(info);
    }
    infos
}

fn check_analysis(line: &str, legal_points: &[&str], best: &str, winrate: &str, lead: &str) {
    let infos = parse_infos(line);
    let mut moves: Vec<&str> = infos.iter().map(|i| i.get("move")).collect();
    moves.sort();
    let mut expected = legal_points.to_vec();
    expected.push("pass");
    expected.sort();
    assert_eq!(moves, expected, "every legal point, once, and pass");
    for (order, info) in infos.iter().enumerate() {
        assert_eq!(info.get("order"), order.to_string());
        assert!(info.get("visits").parse::<u32>().unwrap() >= 10);
        for key in ["winrate", "scoreLead"] {
            let value = info.get(key);
            assert!(value.contains('.'), "{key} {value} has no decimal point");
            value.parse::<f64>().unwrap();
        }
        assert!(["1.0", "0.5", "0.0"].contains(&info.get("winrate")));
        assert!(!info.pv.is_empty(), "{info:?}");
        assert_eq!(info.pv[0], info.get("move"));
        assert!(info.pv[1..].iter().all(|m| m != "pass"), "{info:?}");
        // pv comes last in the entry.
        assert_eq!(info.fields.last().map(|(k, _)| k.as_str()), Some("order"));
    }
    assert_eq!(infos[0].get("move"), best);
    assert_eq!(infos[0].get("winrate"), winrate);
    assert_eq!(infos[0].get("scoreLead"), lead);
}

#[test]
fn kata_analyze_streams_every_move_until_input_arrives() {
    let mut engine = Engine::start(&[]);
    engine.ask("boardsize 3");
    engine.ask("komi 6.5");
    engine.send_raw(b"kata-analyze b 10\n");
    assert_eq!(engine.line(), "=");
    let first = engine.line();
    let points = ["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"];
    // 3x3 is B+9: B2 wins by 9 - 6.5.
    check_analysis(&first, &points, "B2", "1.0", "2.5");
    // Lines keep coming every interval.
    let second = engine.line();
    assert_eq!(second, first);
    // Any input line stops it: the reply ends with an empty line, and a
    // command that stopped it is answered next.
    engine.send_raw(b"name\n");
    loop {
        let line = engine.line();
        if line.is_empty() {
            break;
        }
        assert!(line.starts_with("info"), "{line}");
    }
    assert_eq!(engine.reply(), ["= smallgo"]);

    // White to move after B2, without an interval: one line, then a bare
    // newline ends it. White loses every move (8 points and pass), by at
    // least 9 - 6.5.
    engine.ask("play b B2");
    engine.send_raw(b"kata-analyze w\n");
    assert_eq!(engine.line(), "=");
    let line = engine.line();
    let infos = parse_infos(&line);
    assert_eq!(infos.len(), 9);
    assert!(infos.iter().all(|i| i.get("winrate") == "0.0"));
    assert!(infos
        .iter()
        .all(|i| i.get("scoreLead").parse::<f64>().unwrap() <= -2.5));
    engine.send_raw(b"\n");
    assert_eq!(engine.line(), "");
    assert_eq!(engine.ask("1 name"), ["=1 smallgo"]);

    // With the id echoed, and a draw's winrate of one half (2x3 is a draw).
    engine.ask("rectangular_boardsize 3 2");
    engine.ask("komi 0");
    engine.send_raw(b"5 kata-analyze interval 20\n");
    assert_eq!(engine.line(), "=5");
    let line = engine.line();
    let draws = parse_infos(&line);
    assert!(draws.iter().any(|i| i.get("winrate") == "0.5"));
    engine.send_raw(b"quit\n");
    loop {
        if engine.line().is_empty() {
            break;
        }
    }
    assert_eq!(engine.reply(), ["= "]);
}

#[test]
fn extra_tables_are_used_and_damaged_ones_refused_by_name() {
    let folder = tempfile::tempdir().unwrap();
    let build = smallgo(&[
        "--build",
        "2x2",
        "--tables",
        folder.path().to_str().unwrap(),
    ]);
    assert!(build.status.success());
    // A damaged 3x3 table next to it.
    let damaged = folder.path().join("3x3.sgtb");
    let mut bytes = std::fs::read(folder.path().join("2x2.sgtb")).unwrap();
    bytes[16] = 3;
    bytes[17] = 3;
    std::fs::write(&damaged, &bytes).unwrap();
    let mut engine = Engine::start(&["--tables", folder.path().to_str().unwrap()]);
    assert_eq!(engine.ask("boardsize 2"), ["= "]);
    assert_eq!(engine.ask("smallgo-value"), ["= 0"]);
    let log = engine.stderr();
    assert!(
        log.contains(&folder.path().join("2x2.sgtb").display().to_string()),
        "{log}"
    );
    // The damaged file is refused with its name and fault; the built-in 3x3
    // table still serves.
    assert_eq!(engine.ask("boardsize 3"), ["= "]);
    assert_eq!(engine.ask("smallgo-value"), ["= B+9"]);
    let log = engine.stderr();
    assert!(
        log.contains("3x3.sgtb") && log.contains("checksum mismatch"),
        "{log}"
    );
    engine.quit();
}

#[test]
fn small_boards_without_a_table_are_solved_on_the_spot() {
    let mut engine = Engine::start(&["--without-built-in-tables"]);
    assert_eq!(engine.ask("boardsize 3"), ["= "]);
    assert_eq!(engine.ask("smallgo-value"), ["= B+9"]);
    assert_eq!(engine.ask("genmove b"), ["= B2"]);
    assert!(engine.stderr().contains("no table for 3x3: solving it now"));
    // 4x4 is far too big to solve on the spot.
    assert_eq!(engine.ask("boardsize 4"), ["? unacceptable size"]);
    engine.quit();
}

#[test]
fn a_missing_tables_folder_is_an_error() {
    let output = smallgo(&["--tables", "/no/such/folder"]);
    assert_eq!(output.status.code(), Some(1));
    let message = output.stderr;
    assert!(message.contains("--tables /no/such/folder"), "{message}");
    assert!(Path::new(env!("CARGO_BIN_EXE_smallgo")).exists());
}

#[test]
fn kata_analyze_options_are_honoured_or_refused() {
    let mut engine = Engine::start(&[]);
    engine.ask("boardsize 3");
    // maxmoves keeps the best; ownership follows the info entries, one
    // value per point, from the side to move (3x3: Black takes the whole
    // board); interval 0 answers once.
    engine.send_raw(b"kata-analyze b 0 maxmoves 2 ownership true\n");
    assert_eq!(engine.line(), "=");
    let line = engine.line();
    let (infos, ownership) = line.split_once(" ownership ").expect("an ownership part");
    let infos = parse_infos(infos);
    assert_eq!(infos.len(), 2);
    assert_eq!(infos[0].get("move"), "B2");
    let values: Vec<f64> = ownership
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(values, vec![1.0; 9]);
    engine.send_raw(b"\n");
    assert_eq!(engine.line(), "");
    // Options smallgo does not have are refused by name, not ignored.
    assert_eq!(
        engine.ask("kata-analyze purple 10"),
        ["? unsupported kata-analyze option: purple"]
    );
    assert_eq!(
        engine.ask("kata-analyze b movesOwnership true"),
        ["? unsupported kata-analyze option: movesOwnership"]
    );
    assert_eq!(
        engine.ask("kata-analyze b maxmoves x"),
        ["? kata-analyze: maxmoves needs a whole number, not 'x'"]
    );
    assert_eq!(
        engine.ask("kata-analyze foo"),
        ["? kata-analyze: 'foo' is not a colour, an interval or an option with its value"]
    );
    assert_eq!(
        engine.ask("kata-analyze w 10 maxmoves"),
        ["? kata-analyze: maxmoves needs a value"]
    );
    engine.quit();
}

#[test]
fn odd_files_in_the_tables_folder_are_refused_by_name() {
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path();
    // A FIFO, a device, a folder, a table under a name that is no board's,
    // and a table whose header names another board (bit 0 of byte 17).
    let fifo = dir.join("3x3.sgtb");
    make_fifo(&fifo);
    std::os::unix::fs::symlink("/dev/zero", dir.join("2x2.sgtb")).unwrap();
    std::fs::create_dir(dir.join("2x3.sgtb")).unwrap();
    std::fs::copy(shipped_table("2x2.sgtb"), dir.join("notes.sgtb")).unwrap();
    let mut bytes = std::fs::read(shipped_table("3x4.sgtb")).unwrap();
    bytes[17] ^= 1;
    std::fs::write(dir.join("3x4.sgtb"), &bytes).unwrap();

    let mut engine = Engine::start(&["--tables", dir.to_str().unwrap()]);
    assert_eq!(engine.ask("name"), ["= smallgo"]);
    let log = engine.stderr();
    for (file, fault) in [
        ("3x3.sgtb", "a FIFO, not a regular file"),
        ("2x2.sgtb", "a character device, not a regular file"),
        ("2x3.sgtb", "a folder, not a regular file"),
        ("notes.sgtb", "its name does not start with a board"),
        ("3x4.sgtb", "holds board 3x5, not 3x4"),
    ] {
        let line = log
            .lines()
            .find(|line| line.contains(&dir.join(file).display().to_string()))
            .unwrap_or_else(|| panic!("no line names {file} in:\n{log}"));
        assert!(line.contains(fault), "{file}: {line}");
    }
    // The built-in tables serve those boards.
    for (size, value) in [
        ("boardsize 3", "= B+9"),
        ("rectangular_boardsize 5 3", "= B+15"),
    ] {
        assert_eq!(engine.ask(size), ["= "]);
        assert_eq!(engine.ask("smallgo-value"), [value]);
    }
    assert!(!engine.stderr().contains("refusing"));
    engine.quit();
}

#[test]
fn a_damaged_table_does_not_hide_a_sound_one() {
    let good = std::fs::read(shipped_table("4x4.sgtb")).unwrap();
    let mut damaged = good.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 0x10;
    for (standard, other) in [(&good, &damaged), (&damaged, &good)] {
        let folder = tempfile::tempdir().unwrap();
        let dir = folder.path();
        std::fs::write(dir.join("4x4.sgtb"), standard).unwrap();
        std::fs::write(dir.join("4x4.v2.sgtb"), other).unwrap();
        let mut engine = Engine::start(&[
            "--without-built-in-tables",
            "--tables",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(engine.ask("boardsize 4"), ["= "]);
        assert_eq!(engine.ask("smallgo-value"), ["= B+1"]);
        let log = engine.stderr();
        let (serving, refused) = if *standard == good {
            ("4x4.sgtb", None)
        } else {
            ("4x4.v2.sgtb", Some("4x4.sgtb"))
        };
        assert!(
            log.contains(&format!(
                "4x4: serving from {}",
                dir.join(serving).display()
            )),
            "{log}"
        );
        if let Some(refused) = refused {
            assert!(
                log.contains(&format!(
                    "refusing {}: checksum mismatch",
                    dir.join(refused).display()
                )),
                "{log}"
            );
        }
        engine.quit();
    }
}

/// A board without a table is refused with GTP's one line, and standard
/// error says which boards have tables and how to build the one asked for.
#[test]
fn a_board_without_a_table_is_explained_on_stderr() {
    let mut engine = Engine::start(&[]);
    assert_eq!(engine.ask("boardsize 5"), ["? unacceptable size"]);
    let log = engine.stderr();
    for said in ["no table for board 5x5", " 4x4", " 2x8"] {
        assert!(log.contains(said), "'{said}' missing from:\n{log}");
    }
    assert_eq!(engine.ask("boardsize 30"), ["? unacceptable size"]);
    assert!(engine.stderr().contains("30x30 is not allowed"));
    // The board in play stays.
    assert_eq!(engine.ask("play b C3"), ["= "]);
}

/// The same for a circular board: the log names it `3x6c`, says it is
/// circular and how to get the plain one, and how to build it; the game
/// stays, and so does the topology setting.
#[test]
fn a_circular_board_without_a_table_is_explained_on_stderr() {
    let mut engine = Engine::start(&[]);
    assert_eq!(engine.ask("play b C3"), ["= "]);
    assert_eq!(engine.ask("smallgo-topology circular"), ["= "]);
    assert_eq!(
        engine.ask("rectangular_boardsize 6 3"),
        ["? unacceptable size"]
    );
    let log = engine.stderr();
    for said in [
        "no table for board 3x6c",
        "circular board",
        "`smallgo-topology plain` for the plain 3x6",
        " 2x7c",
        " 4x4c",
        "smallgo --build 3x6c --tables DIR",
    ] {
        assert!(log.contains(said), "'{said}' missing from:\n{log}");
    }
    assert!(!log.contains("each also serves its turned board"), "{log}");
    assert_eq!(engine.ask("smallgo-topology"), ["= circular"]);
    assert_eq!(engine.ask("play b C3"), ["? illegal move"]);
}

/// `clear_board` after `smallgo-topology circular` makes the circular board
/// of the same size; with no values for it (only the plain 4x4 table here,
/// and 4x4c too large to solve on the spot), it fails and the game stays as
/// it was, plain, with its stones.
#[test]
fn clear_board_without_values_for_the_new_topology_changes_nothing() {
    let folder = tempfile::tempdir().unwrap();
    std::fs::copy(shipped_table("4x4.sgtb"), folder.path().join("4x4.sgtb")).unwrap();
    let mut engine = Engine::start(&[
        "--without-built-in-tables",
        "--tables",
        folder.path().to_str().unwrap(),
    ]);
    assert_eq!(engine.ask("boardsize 4"), ["= "]);
    assert_eq!(engine.ask("play b B2"), ["= "]);
    assert_eq!(engine.ask("smallgo-topology circular"), ["= "]);
    assert_eq!(engine.ask("clear_board"), ["? no table for board 4x4c"]);
    assert_eq!(
        engine.ask("showboard"),
        [
            "= ",
            "   A B C D",
            "4 . . . . 4",
            "3 . . . . 3",
            "2 . X . . 2",
            "1 . . . . 1",
            "   A B C D",
        ]
    );
    assert_eq!(engine.ask("smallgo-value"), ["= B+1"]);
    assert_eq!(engine.ask("smallgo-topology plain"), ["= "]);
    assert_eq!(engine.ask("clear_board"), ["= "]);
    assert_eq!(engine.ask("play b B2"), ["= "]);
    engine.quit();
}

/// A board whose build would not fit this machine's memory is not advised
/// as a build: the log says so with the figures instead.
#[test]
fn a_board_too_large_to_build_here_is_not_advised() {
    let mut engine = Engine::start(&[]);
    assert_eq!(engine.ask("boardsize 5"), ["? unacceptable size"]);
    let log = engine.stderr();
    assert!(!log.contains("smallgo --build 5x5"), "{log}");
    assert!(
        log.contains("Board 5x5 cannot be built on this machine"),
        "{log}"
    );
    assert!(log.contains("GiB of memory"), "{log}");
    assert_eq!(engine.ask("boardsize 6"), ["? unacceptable size"]);
    let log = engine.stderr();
    assert!(log.contains("smallgo cannot build board 6x6"), "{log}");
}

/// A self-play game of `genmove` on the default board, the engine started
/// with `arguments`: its moves, each checked to be among
/// `smallgo-best-moves` before it.
fn self_play(arguments: &[&str]) -> Vec<String> {
    let mut engine = Engine::start(arguments);
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..120 {
        if moves.len() >= 2 && moves[moves.len() - 2..].iter().all(|m| m == "pass") {
            break;
        }
        let colour = if ply % 2 == 0 { "b" } else { "w" };
        let best = engine.ask("smallgo-best-moves");
        let played = engine.ask(&format!("genmove {colour}"));
        let mv = played[0].trim_start_matches("= ").to_ascii_lowercase();
        let best: Vec<String> = best[0]
            .trim_start_matches('=')
            .split_whitespace()
            .map(str::to_ascii_lowercase)
            .collect();
        assert!(
            best.contains(&mv),
            "{arguments:?}: ply {ply}: {mv} not in {best:?}"
        );
        moves.push(mv);
    }
    moves
}

/// With `--random-seed`, genmove picks among the moves that keep the best
/// result: games differ across seeds, one seed replays the same game, and
/// every move is one `smallgo-best-moves` lists; without it, games repeat.
#[test]
fn a_random_seed_varies_the_games_among_best_moves() {
    let games: Vec<Vec<String>> = (1..=4)
        .map(|seed| self_play(&["--random-seed", &seed.to_string()]))
        .collect();
    assert!(
        games.iter().any(|game| game != &games[0]),
        "four seeds, one game: {games:?}"
    );
    assert_eq!(self_play(&["--random-seed", "1"]), games[0]);
    assert_eq!(self_play(&[]), self_play(&[]));
}
