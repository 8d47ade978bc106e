//! The engine in a life-and-death problem (`crate::game::problem`): while
//! one is set, the game commands play it on the whole board instead of the
//! game (`play` takes region points only, `genmove` plays the perfect move
//! inside the region, `undo`, `showboard`, `final_status_list`,
//! `kata-analyze`), and the problem's own commands answer its status
//! (`smallgo-problem-status`), judge every move for GoGui
//! (`smallgo-problem-results`, gfx), set the ko assumption
//! (`smallgo-problem-ko`) and leave it (`smallgo-problem-clear`). A command
//! that fails leaves the problem as it was.

use crate::game::problem::{ko_name, parse_ko, Fate, MoveResult, PlayError, ProblemGame};
use crate::problem::input::{self, InputOptions, Vertex};
use crate::problem::solve::Status;
use crate::problem::{KoAssumption, Verdict};
use crate::rules::colour::Colour;
use crate::rules::moves::Move;

use super::analyze::{AnalyzeFormat, AnalyzeRequest};
use super::{failure, success, Reply, SYNTAX_ERROR};

/// How long a principal variation `kata-analyze` shows at most.
const PV_LIMIT: usize = 40;

/// A status for people: `dead in 5 plies`, `alive`.
fn status_text(status: Status) -> String {
    match status.0 {
        Some(0) => "dead (captured)".to_string(),
        Some(1) => "dead in 1 ply".to_string(),
        Some(plies) => format!("dead in {plies} plies"),
        None => "alive".to_string(),
    }
}

/// A move's label in the gfx: what the targets come to after it (`K3`:
/// captured 3 plies from now, this move included).
fn fate_label(result: &MoveResult) -> String {
    match (result.fate, result.status.0) {
        (Fate::Dead, Some(plies)) => format!("K{}", plies + 1),
        (Fate::Dead, None) | (Fate::Ko { .. }, _) => "ko".to_string(),
        (Fate::Alive, _) => "L".to_string(),
    }
}

/// The winrate of a move for its mover, as `kata-analyze` writes it: 1.0
/// a win whatever the ko threats, 0.0 a loss whatever they are, 0.5 a ko
/// (whoever has the threats wins it).
fn winrate(result: &MoveResult, attacker_moves: bool) -> &'static str {
    match (result.fate, attacker_moves) {
        (Fate::Ko { .. }, _) => "0.5",
        (Fate::Dead, true) | (Fate::Alive, false) => "1.0",
        _ => "0.0",
    }
}

/// Reads `COLOR`, which must be the side to move.
fn mover(game: &ProblemGame, side: &str) -> Result<Colour, Reply> {
    let side = Colour::parse(side).ok_or_else(|| failure(SYNTAX_ERROR))?;
    match game.to_move() {
        Some(to_move) if to_move != side => {
            Err(failure(PlayError::NotYourTurn(to_move).to_string()))
        }
        _ => Ok(side),
    }
}

/// `play COLOR VERTEX` in a problem: a region point or pass, the side to
/// move, legal in the problem's game.
pub(super) fn play(game: &mut ProblemGame, arguments: &[&str]) -> Reply {
    let [side, vertex] = arguments else {
        return failure(SYNTAX_ERROR);
    };
    let Some(side) = Colour::parse(side) else {
        return failure(SYNTAX_ERROR);
    };
    let mv = match game.parse_move(vertex) {
        Ok(mv) => mv,
        Err(None) => return failure(super::INVALID_COORDINATE),
        Err(Some(error)) => return failure(error.to_string()),
    };
    match game.play(side, mv) {
        Ok(()) => success(""),
        Err(error) => failure(error.to_string()),
    }
}

/// `genmove COLOR` (and `reg_genmove`, which does not play it): the
/// perfect move, `pass` once the problem is over.
pub(super) fn generate(game: &mut ProblemGame, arguments: &[&str], play: bool) -> Reply {
    let [side] = arguments else {
        return failure(SYNTAX_ERROR);
    };
    let side = match mover(game, side) {
        Ok(side) => side,
        Err(reply) => return reply,
    };
    let mv = match game.choose() {
        Ok(Some(mv)) => mv,
        Ok(None) => return success("pass"),
        Err(error) => return failure(error),
    };
    if play {
        if let Err(error) = game.play(side, mv) {
            return failure(format!("cannot play {}: {error}", game.move_name(mv)));
        }
    }
    success(game.move_name(mv))
}

/// `final_status_list dead|alive|seki`: the target stones left are dead
/// when the attacker captures them (under the game's assumption); when the
/// defender lives in seki (`ProblemGame::lives_in_seki`), the targets and
/// the attacker's stones in the region are in seki; every other stone is
/// alive.
pub(super) fn final_status_list(game: &ProblemGame, arguments: &[&str]) -> Reply {
    let [status] = arguments else {
        return failure(SYNTAX_ERROR);
    };
    let targets = || game.targets().iter().map(|p| game.vertex(p));
    let (captures, seki) = match game.status().and_then(|status| {
        Ok((
            status.attacker_wins(),
            !status.attacker_wins() && game.lives_in_seki()?,
        ))
    }) {
        Ok(found) => found,
        Err(error) => return failure(error),
    };
    let (dead, seki): (Vec<Vertex>, Vec<Vertex>) = if captures {
        (targets().collect(), Vec::new())
    } else if seki {
        let attackers = game.region_stones(game.attacker()) - game.joined_to_safe(game.attacker());
        (
            Vec::new(),
            targets()
                .chain(attackers.iter().map(|p| game.vertex(p)))
                .collect(),
        )
    } else {
        (Vec::new(), Vec::new())
    };
    let names = |mut vertices: Vec<Vertex>| -> String {
        vertices.sort_by_key(|v| (v.row, v.column));
        vertices
            .into_iter()
            .map(Vertex::name)
            .collect::<Vec<_>>()
            .join(" ")
    };
    match status.to_ascii_lowercase().as_str() {
        "dead" => success(names(dead)),
        "seki" => success(names(seki)),
        "alive" => success(names(
            game.stones(Colour::Black)
                .into_iter()
                .chain(game.stones(Colour::White))
                .filter(|cell| !dead.contains(cell) && !seki.contains(cell))
                .collect(),
        )),
        _ => failure(SYNTAX_ERROR),
    }
}

/// `smallgo-problem-status`: who is to play and in which role, the
/// targets left, the status of the current state under each ko assumption
/// and what they make together (dead, alive, or a ko and who must win it),
/// the problem's status from its start, and, when the proof search serves
/// the game, a line saying so; `? ...` when a search stops.
pub(super) fn status(game: &ProblemGame) -> Reply {
    match status_text_of(game) {
        Ok(text) => success(text),
        Err(error) => failure(error),
    }
}

fn status_text_of(game: &ProblemGame) -> Result<String, String> {
    let defender = game.problem().defender();
    let targets: Vec<String> = game
        .targets()
        .iter()
        .map(|p| game.vertex(p).name())
        .collect();
    let mut lines = vec![match game.to_move() {
        Some(colour) => format!(
            "{colour} to play ({}); targets {} ({defender})",
            if colour == defender {
                "defender"
            } else {
                "attacker"
            },
            targets.join(" ")
        ),
        None if game.targets().is_empty() => "over: every target is captured".to_string(),
        None => format!(
            "over: two passes; targets {} ({defender})",
            targets.join(" ")
        ),
    }];
    let statuses = game.statuses()?;
    for (i, ko) in KoAssumption::ALL.into_iter().enumerate() {
        let text = statuses[i].map_or("not reached".to_string(), status_text);
        let playing = if ko == game.ko() { " (played)" } else { "" };
        let name = match ko {
            KoAssumption::Basic => "basic ko",
            KoAssumption::AttackerIgnoresKo => "attacker ignores ko",
            KoAssumption::DefenderIgnoresKo => "defender ignores ko",
        };
        lines.push(format!("{name}{playing}: {text}"));
    }
    let verdict = match game.current_fate()? {
        Fate::Dead => Verdict::Dead,
        Fate::Alive => Verdict::Alive,
        Fate::Ko { .. } => {
            let basic = match statuses[0] {
                Some(status) => status,
                None => game.status()?,
            };
            if basic.attacker_wins() {
                Verdict::KoDefenderMustWin
            } else {
                Verdict::KoAttackerMustWin
            }
        }
    };
    lines.push(format!("status: {verdict}"));
    lines.push(format!("the problem from its start: {}", game.verdict()?));
    if game.is_searched() {
        lines.push(format!("solver: {}", game.solver_text()));
    }
    Ok(lines.join("\n"))
}

/// `smallgo-problem-ko [basic|attacker|defender]`: shows or sets the ko
/// assumption the game is played under.
pub(super) fn ko(game: &mut ProblemGame, arguments: &[&str]) -> Reply {
    match arguments {
        [] => success(ko_name(game.ko())),
        [word] => match parse_ko(word) {
            Some(ko) => match game.set_ko(ko) {
                Ok(()) => success(""),
                Err(message) => failure(message),
            },
            None => failure(format!(
                "unknown ko assumption '{word}': basic, attacker or defender"
            )),
        },
        _ => failure(SYNTAX_ERROR),
    }
}

/// `smallgo-problem-results`, gfx: every move of the side to move labelled
/// with what the targets come to after it (`K5` captured in 5 plies, `L`
/// alive, `ko`), green where the mover wins whatever the ko threats,
/// yellow a ko, red a loss; the move `genmove` plays marked; a line of
/// text with the status; `? ...` when a search stops.
pub(super) fn results_gfx(game: &ProblemGame) -> Reply {
    match results_gfx_of(game) {
        Ok(text) => success(text),
        Err(error) => failure(error),
    }
}

fn results_gfx_of(game: &ProblemGame) -> Result<String, String> {
    let Some(side) = game.to_move() else {
        return Ok("TEXT the problem is over".to_string());
    };
    let attacker_moves = side != game.problem().defender();
    let results = game.move_results()?;
    let mut labels = Vec::new();
    let mut colours: [Vec<String>; 3] = Default::default();
    let mut pass = String::from("-");
    for result in &results {
        let label = fate_label(result);
        match result.mv {
            Move::Pass => pass = label,
            mv => {
                let name = game.move_name(mv);
                labels.push(format!("{name} {label}"));
                let colour = match winrate(result, attacker_moves) {
                    "1.0" => 0,
                    "0.5" => 1,
                    _ => 2,
                };
                colours[colour].push(name);
            }
        }
    }
    let mut lines = Vec::new();
    if !labels.is_empty() {
        lines.push(format!("LABEL {}", labels.join(" ")));
    }
    for (name, points) in ["green", "yellow", "red"].iter().zip(&colours) {
        if !points.is_empty() {
            lines.push(format!("COLOR {name} {}", points.join(" ")));
        }
    }
    let choice = game.choose()?;
    if let Some(Move::Place(point)) = choice {
        lines.push(format!("MARK {}", game.vertex(point).name()));
    }
    let chosen = choice.map_or("-".to_string(), |mv| game.move_name(mv));
    lines.push(format!(
        "TEXT {side} ({}) plays {chosen}; pass {pass}; {}",
        if attacker_moves {
            "attacker"
        } else {
            "defender"
        },
        status_text(game.status()?)
    ));
    Ok(lines.join("\n"))
}

/// One `kata-analyze` or `lz-analyze` line in a problem: an `info` entry
/// for every move of the side to move, pass included, the move `genmove`
/// plays first; the winrate 1.0 a win, 0.0 a loss, 0.5 a ko (see
/// `winrate`; 10000, 0 and 5000 for `lz-analyze`, with `prior` 10000 for
/// the first move and 0 for the others, `lcb` the winrate); `scoreLead`,
/// `scoreMean` and `scoreStdev` 0; the principal variation by perfect
/// play. Ownership, if asked for: 1.0 the mover's stones as they stand,
/// -1.0 the opponent's, 0.0 elsewhere. An error when a search stops.
pub(super) fn analyze_line(game: &ProblemGame, request: &AnalyzeRequest) -> Result<String, String> {
    let Some(side) = game.to_move() else {
        return Ok(String::new());
    };
    if side != request.colour {
        return Ok(String::new());
    }
    let attacker_moves = side != game.problem().defender();
    let mut results = game.move_results()?;
    let chosen = game.choose()?;
    // genmove's move first, then wins, kos, losses, each in point order.
    results.sort_by_key(|r| {
        (
            Some(r.mv) != chosen,
            match winrate(r, attacker_moves) {
                "1.0" => 0,
                "0.5" => 1,
                _ => 2,
            },
        )
    });
    if let Some(limit) = request.max_moves {
        results.truncate(limit);
    }
    let count = results.len();
    let mut entries = Vec::with_capacity(count + 1);
    for (order, result) in results.iter().enumerate() {
        let pv: Vec<String> = game
            .line_after(result.mv, PV_LIMIT)?
            .into_iter()
            .map(|mv| game.move_name(mv))
            .collect();
        let (name, visits, pv) = (
            game.move_name(result.mv),
            10 * (count - order),
            pv.join(" "),
        );
        let rate = winrate(result, attacker_moves);
        entries.push(match request.format {
            AnalyzeFormat::Kata => format!(
                "info move {name} visits {visits} winrate {rate} scoreMean 0.0 scoreStdev 0.0 \
                 scoreLead 0.0 order {order} pv {pv}"
            ),
            AnalyzeFormat::Lz => {
                let rate = match rate {
                    "1.0" => 10000,
                    "0.5" => 5000,
                    _ => 0,
                };
                let prior = if order == 0 { 10000 } else { 0 };
                format!(
                    "info move {name} visits {visits} winrate {rate} prior {prior} lcb {rate} \
                     order {order} pv {pv}"
                )
            }
        });
    }
    if request.ownership && request.format == AnalyzeFormat::Kata {
        let setup = game.region().setup();
        let mine = game.stones(side);
        let theirs = game.stones(side.opposite());
        let mut values = Vec::with_capacity(setup.rows * setup.columns);
        for row in (0..setup.rows).rev() {
            for column in 0..setup.columns {
                let vertex = Vertex::new(column, row);
                values.push(if mine.contains(&vertex) {
                    "1.0"
                } else if theirs.contains(&vertex) {
                    "-1.0"
                } else {
                    "0.0"
                });
            }
        }
        entries.push(format!("ownership {}", values.join(" ")));
    }
    Ok(entries.join(" "))
}

/// `printsgf [FILE]` in a problem: the whole board, its stones at the
/// problem's start as setup (`AB`, `AW`, `PL`), the region (`SQ`) and the
/// targets (`MA`) marked so that the file reads back as the same problem,
/// and the moves played.
pub(super) fn print_sgf(game: &ProblemGame, arguments: &[&str]) -> Reply {
    let region = game.region();
    let setup = region.setup();
    let rows = setup.rows;
    let size = if rows == setup.columns {
        rows.to_string()
    } else {
        format!("{}:{rows}", setup.columns)
    };
    let problem = game.problem();
    let points = |vertices: &mut dyn Iterator<Item = Vertex>| -> String {
        vertices.map(|v| format!("[{}]", v.sgf(rows))).collect()
    };
    let mut text = format!("(;GM[1]FF[4]CA[UTF-8]AP[smallgo]SZ[{size}]");
    let (safe_black, safe_white) = region.safe_stones();
    for (colour, property, safe) in [
        (Colour::Black, "AB", safe_black),
        (Colour::White, "AW", safe_white),
    ] {
        let mut stones = safe.into_iter().chain(
            (problem.stones(colour) - problem.safe())
                .iter()
                .map(|p| game.vertex(p)),
        );
        let written = points(&mut stones);
        if !written.is_empty() {
            text.push_str(&format!("{property}{written}"));
        }
    }
    text.push_str(&format!(
        "PL[{}]SQ{}MA{}",
        problem.to_move().letter(),
        points(&mut region.region().iter().copied()),
        points(&mut problem.targets().iter().map(|p| game.vertex(p)))
    ));
    for (colour, mv) in game.moves() {
        text.push_str(&format!("\n;{}[{}]", colour.letter(), region.move_sgf(mv)));
    }
    text.push_str(")\n");
    match arguments {
        [] => success(text.trim_end()),
        [file] => {
            match crate::common::files::write_output(std::path::Path::new(file), text.as_bytes()) {
                Ok(()) => success(""),
                Err(error) => failure(format!("cannot write '{file}': {error}")),
            }
        }
        _ => failure(SYNTAX_ERROR),
    }
}

/// Reads a problem file (`problem::input`: SGF, its region and targets
/// marked or inferred) and starts its game under `ko`.
pub(super) fn read(path: &std::path::Path, ko: KoAssumption) -> Result<ProblemGame, String> {
    let region = input::read_file(path, &InputOptions::default()).map_err(|e| e.to_string())?;
    ProblemGame::new(region, ko)
}

/// Whether an SGF text marks a problem: a region (`SQ`) or targets (`MA`,
/// `TR`) on its root.
pub(super) fn is_marked(text: &str) -> bool {
    input::setup_from_sgf(text).is_ok_and(|setup| setup.has_problem_marks())
}

/// The problem of an SGF text, its region and targets marked or inferred,
/// its game started under `ko`.
pub(super) fn from_text(text: &str, ko: KoAssumption) -> Result<ProblemGame, String> {
    let region = input::from_sgf(text, &InputOptions::default()).map_err(|e| e.to_string())?;
    ProblemGame::new(region, ko)
}

#[cfg(test)]
mod tests {
    use super::super::{Engine, Reply, Settings};
    use crate::table::library::Tablebase;

    fn analysis(file: &str, arguments: &[&str]) -> String {
        let mut engine = Engine::new(Tablebase::with_sources(None, true), Settings::default());
        let path = format!("{}/gtp-tests/sgf/{file}", env!("CARGO_MANIFEST_DIR"));
        assert!(matches!(
            engine.execute("loadsgf", &[&path]),
            Reply::Success(_)
        ));
        let Reply::Analyze(request) = engine.execute("kata-analyze", arguments) else {
            panic!("kata-analyze {arguments:?} is refused");
        };
        engine.analyze_line(&request).unwrap()
    }

    /// The winning move first with winrate 1.0, the losing ones 0.0, a ko
    /// 0.5; no line for the side not to move.
    #[test]
    fn kata_analyze_rates_every_region_move() {
        let line = analysis("problem-three-black.sgf", &["b"]);
        assert_eq!(
            line,
            "info move B19 visits 40 winrate 1.0 scoreMean 0.0 scoreStdev 0.0 scoreLead 0.0 order 0 \
             pv B19 pass A19 C19 A19 B19 A19 \
             info move A19 visits 30 winrate 0.0 scoreMean 0.0 scoreStdev 0.0 scoreLead 0.0 order 1 \
             pv A19 B19 pass pass \
             info move C19 visits 20 winrate 0.0 scoreMean 0.0 scoreStdev 0.0 scoreLead 0.0 order 2 \
             pv C19 B19 pass pass \
             info move pass visits 10 winrate 0.0 scoreMean 0.0 scoreStdev 0.0 scoreLead 0.0 order 3 \
             pv pass pass"
        );
        assert_eq!(analysis("problem-three-black.sgf", &["w"]), "");
        let ko = analysis("problem-ko.sgf", &["maxmoves", "1"]);
        assert!(
            ko.starts_with("info move A18 visits 10 winrate 0.5 "),
            "{ko}"
        );
    }

    /// A problem past the full solver's bound, served by the proof search:
    /// the defender's pass (genmove's move) first, every move of the
    /// twenty empty points and the pass a win whatever the ko threats.
    #[test]
    fn kata_analyze_rates_the_moves_of_a_searched_problem() {
        let line = analysis("problem-corner-20.sgf", &["w"]);
        assert!(
            line.starts_with("info move pass visits 210 winrate 1.0 "),
            "{line}"
        );
        assert_eq!(line.matches(" winrate 1.0 ").count(), 21, "{line}");
        assert_eq!(analysis("problem-corner-20.sgf", &["b"]), "");
    }
}
