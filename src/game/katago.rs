//! KataGo's JSON analysis engine protocol, the subset `smallgo analysis`
//! speaks (docs/gtp.md#katagos-analysis-engine): one query a line (`id`,
//! `moves`, `initialStones`, `initialPlayer`, `rules`, `komi`,
//! `boardXSize`, `boardYSize`, `analyzeTurns`, `includeOwnership`,
//! `includePolicy`, `maxVisits`), one answer a line per analyzed turn
//! (`moveInfos`, `rootInfo`, `ownership`, `policy`), the actions
//! `query_version`, `clear_cache` and `terminate` echoed back, and errors in
//! KataGo's shapes (`{"error":...}`, with `field` and `id` when a field of a
//! query is at fault). Every value is exact and from Black's view, as
//! KataGo reports with `reportAnalysisWinratesAs = BLACK`.

use std::collections::HashMap;

use serde_json::{json, Map, Value};

use crate::rules::board::{Board, PointSet};
use crate::rules::colour::Colour;
use crate::rules::moves::Move;
use crate::rules::value::Outcome;
use crate::table::library::{BoardValues, Tablebase};
use crate::table::values::rating::{keeping_best, preference_order};

use super::ownership;
use super::perfect;
use super::{Ending, Game};

/// The KataGo release whose protocol this follows, for `query_version`.
pub const KATAGO_VERSION: &str = "1.16.0";

/// A query's fault: its message, and the field at fault if one is.
struct Fault {
    field: Option<&'static str>,
    message: String,
}

fn fault(field: &'static str, message: impl Into<String>) -> Fault {
    Fault {
        field: Some(field),
        message: message.into(),
    }
}

/// The analysis engine: the tables, and each board's values once opened.
pub struct Analyzer {
    library: Tablebase,
    opened: HashMap<Board, BoardValues>,
}

impl Analyzer {
    /// An engine over `library`.
    pub fn new(library: Tablebase) -> Analyzer {
        Analyzer {
            library,
            opened: HashMap::new(),
        }
    }

    /// The answer lines to one line of input, in order.
    pub fn answer(&mut self, line: &str) -> Vec<String> {
        let query: Map<String, Value> = match serde_json::from_str(line) {
            Ok(Value::Object(query)) => query,
            Ok(_) => return vec![json!({"error": "query is not a JSON object"}).to_string()],
            Err(error) => {
                return vec![json!({"error": format!("could not parse JSON: {error}")}).to_string()]
            }
        };
        let Some(id) = query.get("id").and_then(Value::as_str).map(str::to_string) else {
            let message = match query.get("id") {
                None => "\"id\" is required",
                Some(_) => "\"id\" must be a string",
            };
            return vec![json!({"error": message, "field": "id"}).to_string()];
        };
        if let Some(action) = query.get("action") {
            return vec![match action.as_str() {
                Some("query_version") => {
                    let mut echo = query.clone();
                    echo.insert("version".into(), KATAGO_VERSION.into());
                    echo.insert("git_hash".into(), "<omitted>".into());
                    Value::Object(echo).to_string()
                }
                // Every query is answered before the next line is read, so
                // nothing is left to terminate and no cache holds guesses.
                Some("terminate" | "clear_cache") => Value::Object(query).to_string(),
                _ => json!({"id": id, "field": "action", "error": "unknown action"}).to_string(),
            }];
        }
        match self.analyze(&query, &id) {
            Ok(answers) => answers.into_iter().map(|a| a.to_string()).collect(),
            Err(Fault { field, message }) => {
                let mut error = Map::new();
                error.insert("id".into(), id.into());
                if let Some(field) = field {
                    error.insert("field".into(), field.into());
                }
                error.insert("error".into(), message.into());
                vec![Value::Object(error).to_string()]
            }
        }
    }

    fn values(&mut self, board: Board) -> Result<BoardValues, Fault> {
        if let Some(values) = self.opened.get(&board) {
            return Ok(values.clone());
        }
        let values = self.library.open(board).ok_or_else(|| Fault {
            field: None,
            message: format!("no table of board {board}, and it is too large to solve here"),
        })?;
        self.opened.insert(board, values.clone());
        Ok(values)
    }

    /// Every answer to an analysis query, or its first fault.
    fn analyze(&mut self, query: &Map<String, Value>, id: &str) -> Result<Vec<Value>, Fault> {
        let size = |field: &'static str| -> Result<usize, Fault> {
            match query.get(field) {
                None => Err(fault(field, "required")),
                Some(v) => v
                    .as_u64()
                    .filter(|&n| (1..=64).contains(&n))
                    .map(|n| n as usize)
                    .ok_or_else(|| fault(field, "must be an integer from 1")),
            }
        };
        let (columns, rows) = (size("boardXSize")?, size("boardYSize")?);
        let board =
            Board::new(rows, columns).map_err(|error| fault("boardXSize", error.to_string()))?;
        check_rules(query.get("rules"))?;
        let komi = match query.get("komi") {
            None => 0.0,
            Some(v) => v
                .as_f64()
                .filter(|k| (k * 2.0).fract() == 0.0 && k.abs() <= 150.0)
                .ok_or_else(|| fault("komi", "must be an integer or half-integer in [-150,150]"))?,
        };
        let flag = |field: &'static str| -> Result<bool, Fault> {
            match query.get(field) {
                None => Ok(false),
                Some(v) => v.as_bool().ok_or_else(|| fault(field, "must be a boolean")),
            }
        };
        let (with_ownership, with_policy) = (flag("includeOwnership")?, flag("includePolicy")?);
        if let Some(v) = query.get("maxVisits") {
            if v.as_u64().filter(|&n| n >= 1).is_none() {
                return Err(fault("maxVisits", "must be a positive integer"));
            }
        }
        let stones = placements(&board, query.get("initialStones"), "initialStones")?;
        let moves = match query.get("moves") {
            None => return Err(fault("moves", "required")),
            Some(v) => placements(&board, Some(v), "moves")?,
        };
        let initial_player = match query.get("initialPlayer") {
            None => None,
            Some(v) => Some(
                v.as_str()
                    .and_then(player)
                    .ok_or_else(|| fault("initialPlayer", "must be \"B\" or \"W\""))?,
            ),
        };
        let turns: Vec<usize> = match query.get("analyzeTurns") {
            None => vec![moves.len()],
            Some(Value::Array(list)) => list
                .iter()
                .map(|t| {
                    t.as_u64()
                        .map(|t| t as usize)
                        .filter(|&t| t <= moves.len())
                        .ok_or_else(|| {
                            fault(
                                "analyzeTurns",
                                format!("turns must be integers from 0 to {}", moves.len()),
                            )
                        })
                })
                .collect::<Result<_, _>>()?,
            Some(_) => return Err(fault("analyzeTurns", "must be a list of integers")),
        };
        let (mut black, mut white) = (PointSet::default(), PointSet::default());
        for &(colour, mv) in &stones {
            let Move::Place(point) = mv else {
                return Err(fault("initialStones", "a stone cannot be a pass"));
            };
            let set = if colour == Colour::Black {
                &mut black
            } else {
                &mut white
            };
            *set |= PointSet::single(point);
        }
        let first = moves
            .first()
            .map(|&(colour, _)| colour)
            .or(initial_player)
            .unwrap_or(Colour::Black);
        let start = Game::from_setup(board, black, white, first).ok_or_else(|| {
            fault(
                "initialStones",
                "the stones overlap or a string of them has no liberty",
            )
        })?;
        // The game at each turn, every move checked before anything is
        // analyzed.
        let mut games = Vec::with_capacity(moves.len() + 1);
        let mut game = start;
        games.push(game.clone());
        for (number, &(colour, mv)) in moves.iter().enumerate() {
            if game.ending().is_some() {
                return Err(fault(
                    "moves",
                    format!("move {number} comes after the end of the game"),
                ));
            }
            game.play(colour, mv).map_err(|_| {
                fault(
                    "moves",
                    format!("Illegal move {number}: {}", move_name(&board, mv)),
                )
            })?;
            games.push(game.clone());
        }
        let oracle = self.values(board)?;
        let mut answers = Vec::with_capacity(turns.len());
        for turn in turns {
            let side = match moves.get(turn) {
                Some(&(colour, _)) => colour,
                None => match moves.last() {
                    Some(&(colour, _)) => colour.opposite(),
                    None => first,
                },
            };
            let mut answer = position_answer(
                &oracle,
                komi,
                &games[turn],
                side,
                with_ownership,
                with_policy,
            )
            .map_err(|message| Fault {
                field: None,
                message,
            })?;
            answer.insert("id".into(), id.into());
            answer.insert("isDuringSearch".into(), false.into());
            answer.insert("turnNumber".into(), turn.into());
            answers.push(Value::Object(answer));
        }
        Ok(answers)
    }
}

/// One position's answer as the analysis engine gives it, `side` to move
/// in `game` at `komi`: `moveInfos` and `rootInfo`, with `ownership` and
/// `policy` when asked for. `smallgo review` saves the same answer in the
/// SGF for KaTrain.
pub fn position_answer(
    oracle: &BoardValues,
    komi: f64,
    game: &Game,
    side: Colour,
    with_ownership: bool,
    with_policy: bool,
) -> Result<Map<String, Value>, String> {
    let mut answer = turn_answer(oracle, komi, game, side)?;
    if with_ownership {
        let map = ownership::final_ownership(oracle, komi, game, side)?;
        let values: Vec<f64> = map
            .values_for(Colour::Black)
            .into_iter()
            .map(f64::from)
            .collect();
        answer.insert("ownership".into(), values.into());
    }
    if with_policy {
        answer.insert("policy".into(), policy(oracle, komi, game, side)?);
    }
    Ok(answer)
}

/// Accepts the rules that agree with ours (area scoring, simple ko with a
/// loop drawn, no suicide): `chinese`, and a rules object that says so.
fn check_rules(rules: Option<&Value>) -> Result<(), Fault> {
    let refused = |what: String| {
        fault(
            "rules",
            format!(
                "{what}: smallgo plays area scoring, simple ko, no suicide \
                 (\"chinese\", or an object with ko SIMPLE, scoring AREA, suicide false)"
            ),
        )
    };
    match rules {
        None => Err(fault("rules", "required")),
        Some(Value::String(text)) => match text.trim().to_ascii_lowercase().as_str() {
            "chinese" => Ok(()),
            _ => Err(refused(format!("rules \"{text}\" are not supported"))),
        },
        Some(Value::Object(object)) => {
            for (key, value) in object {
                let fits = match key.as_str() {
                    "ko" => value.as_str().map(|s| s.eq_ignore_ascii_case("simple")),
                    "scoring" => value.as_str().map(|s| s.eq_ignore_ascii_case("area")),
                    "suicide" => value.as_bool().map(|b| !b),
                    "tax" => value.as_str().map(|s| s.eq_ignore_ascii_case("none")),
                    "hasButton" => value.as_bool().map(|b| !b),
                    "whiteHandicapBonus" => Some(true),
                    "friendlyPassOk" => Some(true),
                    _ => Some(false),
                };
                if fits != Some(true) {
                    return Err(refused(format!("rule {key} {value} is not supported")));
                }
            }
            Ok(())
        }
        Some(_) => Err(fault("rules", "must be a string or an object")),
    }
}

fn player(text: &str) -> Option<Colour> {
    match text {
        "B" | "b" => Some(Colour::Black),
        "W" | "w" => Some(Colour::White),
        _ => None,
    }
}

fn move_name(board: &Board, mv: Move) -> String {
    match mv {
        Move::Place(point) => board.point_name(point),
        Move::Pass => "pass".to_string(),
    }
}

/// A list of `[player, location]` pairs.
fn placements(
    board: &Board,
    list: Option<&Value>,
    field: &'static str,
) -> Result<Vec<(Colour, Move)>, Fault> {
    let Some(list) = list else {
        return Ok(Vec::new());
    };
    let Some(list) = list.as_array() else {
        return Err(fault(field, "must be a list of [player, location] pairs"));
    };
    list.iter()
        .enumerate()
        .map(|(number, pair)| {
            let pair = pair.as_array().filter(|p| p.len() == 2);
            let parts = pair.and_then(|p| Some((p[0].as_str()?, p[1].as_str()?)));
            let Some((who, location)) = parts else {
                return Err(fault(
                    field,
                    format!("entry {number} is not a [player, location] pair"),
                ));
            };
            let colour = player(who).ok_or_else(|| {
                fault(
                    field,
                    format!("entry {number}: player \"{who}\" is not B or W"),
                )
            })?;
            let mv = if location.eq_ignore_ascii_case("pass") {
                Move::Pass
            } else {
                Move::Place(board.parse_point(location).ok_or_else(|| {
                    fault(
                        field,
                        format!("entry {number}: \"{location}\" is not a location on the board"),
                    )
                })?)
            };
            Ok((colour, mv))
        })
        .collect()
}

/// Black's winrate for an outcome of `side`'s move: 1, 0.5 or 0.
fn black_winrate(outcome: &Outcome, side: Colour) -> f64 {
    let margin = outcome.black_margin(side.is_black());
    match outcome {
        Outcome::Draw => 0.5,
        _ if margin > 0.0 => 1.0,
        _ => 0.0,
    }
}

/// `moveInfos` and `rootInfo` of `side` to move in `game`; for a game
/// that has ended, no moves and its result.
fn turn_answer(
    oracle: &BoardValues,
    komi: f64,
    game: &Game,
    side: Colour,
) -> Result<Map<String, Value>, String> {
    let board = *game.board();
    let mut answer = Map::new();
    let current = if side == Colour::Black { "B" } else { "W" };
    if let Some(ending) = game.ending() {
        let lead = match ending {
            Ending::Drawn => 0.0,
            Ending::Scored { black_margin } => black_margin as f64 - komi,
        };
        let winrate = if lead > 0.0 {
            1.0
        } else if lead < 0.0 {
            0.0
        } else {
            0.5
        };
        answer.insert("moveInfos".into(), Value::Array(Vec::new()));
        answer.insert("rootInfo".into(), root(winrate, lead, 0, current));
        return Ok(answer);
    }
    let all = perfect::rate(oracle, komi, game, side)?;
    let keeping = keeping_best(&all);
    let order = preference_order(&all);
    let count = order.len();
    let mut infos = Vec::with_capacity(count);
    for (rank, &index) in order.iter().enumerate() {
        let rating = all[index];
        let (line, _) = perfect::principal_variation(oracle, komi, game, side, rating.mv)?;
        let pv: Vec<String> = line
            .iter()
            .enumerate()
            .take_while(|&(i, m)| i == 0 || *m != Move::Pass)
            .map(|(_, &m)| move_name(&board, m))
            .collect();
        let lead = rating.outcome.black_margin(side.is_black());
        let winrate = black_winrate(&rating.outcome, side);
        let prior = if keeping.contains(&rating.mv) {
            1.0 / keeping.len() as f64
        } else {
            0.0
        };
        infos.push(json!({
            "move": move_name(&board, rating.mv),
            "visits": 10 * (count - rank),
            "winrate": winrate,
            "scoreLead": lead,
            "scoreMean": lead,
            "scoreSelfplay": lead,
            "scoreStdev": 0.0,
            "prior": prior,
            "utility": 2.0 * winrate - 1.0,
            "lcb": winrate,
            "utilityLcb": 2.0 * winrate - 1.0,
            "order": rank,
            "pv": pv,
        }));
    }
    let best = all[order[0]];
    let visits = 5 * count * (count + 1);
    answer.insert(
        "rootInfo".into(),
        root(
            black_winrate(&best.outcome, side),
            best.outcome.black_margin(side.is_black()),
            visits,
            current,
        ),
    );
    answer.insert("moveInfos".into(), Value::Array(infos));
    Ok(answer)
}

fn root(winrate: f64, lead: f64, visits: usize, current: &str) -> Value {
    json!({
        "winrate": winrate,
        "scoreLead": lead,
        "scoreSelfplay": lead,
        "scoreStdev": 0.0,
        "utility": 2.0 * winrate - 1.0,
        "lcb": winrate,
        "visits": visits,
        "currentPlayer": current,
    })
}

/// KataGo's `policy`: one value per point in its order, then pass; -1 for
/// an illegal move, the moves that keep the best result sharing 1.
fn policy(oracle: &BoardValues, komi: f64, game: &Game, side: Colour) -> Result<Value, String> {
    let board = *game.board();
    let cells = board.rows() * board.columns();
    let mut values = vec![-1.0; cells + 1];
    if game.ending().is_some() {
        return Ok(values.into());
    }
    let all = perfect::rate(oracle, komi, game, side)?;
    let keeping = keeping_best(&all);
    for rating in &all {
        let index = match rating.mv {
            Move::Pass => cells,
            Move::Place(point) => {
                (board.rows() - 1 - board.row(point)) * board.columns() + board.column(point)
            }
        };
        values[index] = if keeping.contains(&rating.mv) {
            1.0 / keeping.len() as f64
        } else {
            0.0
        };
    }
    Ok(values.into())
}
