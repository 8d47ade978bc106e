//! Life-and-death problems played over GTP against GNU Go: smallgo loads a
//! problem file (`loadsgf`, its targets marked) and plays the side the
//! solution says wins, GNU Go (`gnugo --mode gtp`, which loads the same
//! file) the other side, its moves restricted to the region's empty points
//! with its `restricted_genmove COLOR VERTEX...` (which only names the
//! move; both engines are then told it with `play`). smallgo must reach
//! the solved result every game: as the attacker, every target captured;
//! as the defender, the targets still standing when two passes end the
//! game (or at the move limit) with the problem's status `alive`. Each
//! game is played once with GNU Go's default seed and once with another,
//! so that it tries other replies. GNU Go often passes where it sees no
//! good move, so each problem is also walked against every reply: at each
//! turn of the other side every move of the region (and the pass) is tried
//! in turn, smallgo answering with `genmove` and `undo` taking both back.

use std::path::PathBuf;

use crate::support::gtp_engine::{EngineCommand, GtpEngine};

/// More moves than any of these problems needs: a game still going then
/// has not been won by the attacker.
const MOVE_LIMIT: usize = 80;

fn problem_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("gtp-tests/sgf")
        .join(name)
}

/// The empty points of the region, read from smallgo's `showboard` (`.`
/// there; `-` is outside the region).
fn empty_region_points(smallgo: &mut GtpEngine) -> Result<Vec<String>, String> {
    let board = smallgo.expect_success("showboard")?;
    let mut lines = board.lines().filter(|line| !line.trim().is_empty());
    let letters: Vec<String> = lines
        .next()
        .ok_or("an empty showboard")?
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let mut points = Vec::new();
    for line in lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(row) = words.first().and_then(|w| w.parse::<usize>().ok()) else {
            continue;
        };
        for (column, cell) in words[1..].iter().take(letters.len()).enumerate() {
            if *cell == "." {
                points.push(format!("{}{row}", letters[column]));
            }
        }
    }
    Ok(points)
}

/// The first line of `smallgo-problem-status`.
fn status_line(smallgo: &mut GtpEngine) -> Result<String, String> {
    let status = smallgo.expect_success("smallgo-problem-status")?;
    Ok(status.lines().next().unwrap_or("").to_string())
}

/// Plays one problem out; smallgo plays `smallgo_colour`. Returns the
/// moves and smallgo's final status text.
fn play_problem(
    file: &str,
    smallgo_colour: &str,
    gnugo_seed: &str,
) -> Result<(Vec<String>, String), String> {
    let path = problem_file(file);
    let path = path.to_str().ok_or("a path that is not UTF-8")?;
    let mut smallgo = GtpEngine::start(&EngineCommand::smallgo(&[]), "smallgo", None)?;
    let mut gnugo = GtpEngine::start(
        &EngineCommand::gnugo(&["--mode", "gtp", "--seed", gnugo_seed]),
        "gnugo",
        None,
    )?;
    let mut to_move = smallgo.expect_success(&format!("loadsgf {path}"))?;
    let gnugo_to_move = gnugo.expect_success(&format!("loadsgf {path}"))?;
    if gnugo_to_move != to_move {
        return Err(format!(
            "smallgo has {to_move} to move, GNU Go {gnugo_to_move}"
        ));
    }
    let mut moves = Vec::new();
    loop {
        let status = status_line(&mut smallgo)?;
        if status.starts_with("over") || moves.len() >= MOVE_LIMIT {
            let full = smallgo.expect_success("smallgo-problem-status")?;
            return Ok((moves, full));
        }
        let colour = if status.starts_with("black") {
            "black"
        } else {
            "white"
        };
        if colour != to_move && !moves.is_empty() {
            return Err(format!("{status}, but {to_move} was expected to move"));
        }
        let mv = if colour == smallgo_colour {
            let mv = smallgo.expect_success(&format!("genmove {colour}"))?;
            gnugo.expect_success(&format!("play {colour} {mv}"))?;
            mv
        } else {
            let empty = empty_region_points(&mut smallgo)?;
            let mv = if empty.is_empty() {
                "pass".to_string()
            } else {
                let asked = format!("restricted_genmove {colour} {}", empty.join(" "));
                gnugo.expect_success(&asked)?.to_lowercase()
            };
            smallgo
                .expect_success(&format!("play {colour} {mv}"))
                .map_err(|e| format!("after {moves:?}: {e}"))?;
            gnugo.expect_success(&format!("play {colour} {mv}"))?;
            mv
        };
        moves.push(format!("{} {mv}", &colour[..1]));
        to_move = if colour == "black" { "white" } else { "black" }.to_string();
    }
}

/// Plays `file` with smallgo as `colour` against GNU Go at two seeds, and
/// checks each game's end with `check` (given smallgo's final status).
fn games(file: &str, colour: &str, check: fn(&str) -> bool) {
    for seed in ["1", "7"] {
        let (moves, status) = play_problem(file, colour, seed)
            .unwrap_or_else(|error| panic!("{file}, smallgo {colour}, seed {seed}: {error}"));
        println!(
            "{file}: smallgo {colour}, GNU Go seed {seed}: {}",
            moves.join(", ")
        );
        println!("{status}\n");
        assert!(
            check(&status),
            "{file}, smallgo {colour}, seed {seed}: {moves:?} ended\n{status}"
        );
    }
}

fn captured(status: &str) -> bool {
    status.starts_with("over: every target is captured")
}

/// The targets stand, and the problem's game under basic ko says they
/// live from here.
fn lives(status: &str) -> bool {
    !captured(status) && status.contains("basic ko (played): alive")
}

#[test]
fn smallgo_kills_the_straight_three_against_gnugo() {
    games("problem-three-black.sgf", "black", captured);
}

#[test]
fn smallgo_lives_with_the_straight_three_against_gnugo() {
    games("problem-three-white.sgf", "white", lives);
}

#[test]
fn smallgo_kills_the_corner_four_against_gnugo() {
    games("problem-four-black.sgf", "black", captured);
}

#[test]
fn smallgo_lives_with_the_corner_four_against_gnugo() {
    games("problem-four-white.sgf", "white", lives);
}

/// Under basic ko with no threats outside, the attacker wins the ko.
#[test]
fn smallgo_wins_the_corner_ko_against_gnugo() {
    games("problem-ko.sgf", "black", captured);
}

/// The straight four lives whatever Black tries first: smallgo must answer
/// each attempt.
#[test]
fn smallgo_lives_with_the_straight_four_against_gnugo() {
    games("problem-straight-four.sgf", "white", lives);
}

/// Walks every line where the other side tries each of its moves and
/// smallgo answers with `genmove`, up to `plies` moves from the start;
/// `wins` judges smallgo's status where a line ends (the problem over, or
/// the depth reached). Returns how many lines were walked.
fn every_reply(
    smallgo: &mut GtpEngine,
    smallgo_colour: &str,
    plies: usize,
    line: &mut Vec<String>,
    wins: fn(&str) -> bool,
) -> Result<usize, String> {
    let status = smallgo.expect_success("smallgo-problem-status")?;
    if status.starts_with("over") || line.len() >= plies {
        if !wins(&status) {
            return Err(format!("after {line:?}:\n{status}"));
        }
        return Ok(1);
    }
    let colour = if status.starts_with("black") {
        "black"
    } else {
        "white"
    };
    let tries = if colour == smallgo_colour {
        vec![smallgo.expect_success(&format!("genmove {colour}"))?]
    } else {
        let mut moves = empty_region_points(smallgo)?;
        moves.push("pass".to_string());
        moves
    };
    let mut lines = 0;
    for mv in tries {
        if colour != smallgo_colour {
            let reply = smallgo.reply_to(&format!("play {colour} {mv}"))?;
            if !reply.success() {
                continue;
            }
        }
        line.push(format!("{} {mv}", &colour[..1]));
        lines += every_reply(smallgo, smallgo_colour, plies, line, wins)?;
        line.pop();
        smallgo.expect_success("undo")?;
    }
    Ok(lines)
}

/// Loads `file` and walks it against every reply (see `every_reply`).
fn against_every_reply(file: &str, colour: &str, plies: usize, wins: fn(&str) -> bool) {
    let path = problem_file(file);
    let mut smallgo = GtpEngine::start(&EngineCommand::smallgo(&[]), "smallgo", None).unwrap();
    smallgo
        .expect_success(&format!("loadsgf {}", path.display()))
        .unwrap();
    let lines = every_reply(&mut smallgo, colour, plies, &mut Vec::new(), wins)
        .unwrap_or_else(|error| panic!("{file}, smallgo {colour}: {error}"));
    println!("{file}: smallgo {colour} held against {lines} lines");
}

#[test]
fn smallgo_kills_against_every_reply() {
    against_every_reply("problem-three-black.sgf", "black", MOVE_LIMIT, captured);
    against_every_reply("problem-four-black.sgf", "black", MOVE_LIMIT, captured);
    against_every_reply("problem-ko.sgf", "black", MOVE_LIMIT, captured);
}

/// The defender's lines are cut at 10 plies, where the targets must still
/// live by the problem's status.
#[test]
fn smallgo_lives_against_every_reply() {
    against_every_reply("problem-three-white.sgf", "white", 10, lives);
    against_every_reply("problem-four-white.sgf", "white", 10, lives);
    against_every_reply("problem-straight-four.sgf", "white", 10, lives);
}

/// The targets live, and the proof search served the game (the problem is
/// past the full solver's bound of states).
fn lives_by_search(status: &str) -> bool {
    lives(status) && status.contains("\nsolver: proof search")
}

/// The corner 20 of `smallgo bench problems`, twenty empty points: smallgo
/// defends it against GNU Go's attack, and, as the attacker that cannot
/// kill, lets GNU Go's defence live.
#[test]
fn smallgo_plays_a_problem_past_the_full_solver_against_gnugo() {
    games("problem-corner-20.sgf", "white", lives_by_search);
    games("problem-corner-20.sgf", "black", lives_by_search);
}

/// The same problem against every reply of the attacker, two moves deep.
#[test]
fn smallgo_lives_past_the_full_solver_against_every_reply() {
    against_every_reply("problem-corner-20.sgf", "white", 3, lives_by_search);
}
