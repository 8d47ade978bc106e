//! The answers of the JSON API, apart from HTTP: a request's query read
//! into a position (the setup stones, the player to move, the moves played
//! from there, the komi), and the position's answer built from the values
//! as the engine reads them (`game::perfect`: every legal move rated, a
//! move that repeats a full state drawn, the engine's order of preference,
//! the perfect line). Each answer is one JSON object; each fault is an
//! `ApiError` with the HTTP status it gets and a message naming the
//! parameter and the value at fault.

use serde_json::{json, Map, Value as Json};

use crate::game::perfect::{choose, principal_variation, rate};
use crate::game::{Ending, Game};
use crate::gtp::komi::Komi;
use crate::gtp::parse::{move_text, MoveText};
use crate::rules::board::{Board, PointSet};
use crate::rules::colour::Colour;
use crate::rules::moves::Move;
use crate::rules::value::{Outcome, Value};
use crate::table::library::BoardValues;
use crate::table::values::rating::{keeping_best, preference_order, Rating};
use crate::table::values::Values;

/// The longest komi read, in characters (the exact komi takes up to a
/// thousand digits written out).
const MAX_KOMI_TEXT: usize = 1100;

/// A fault in a request, with the HTTP status it is answered with.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub status: u16,
    pub message: String,
}

impl ApiError {
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 400,
            message: message.into(),
        }
    }

    /// The error's JSON body: `{"error": MESSAGE, "status": STATUS}`.
    pub fn body(&self) -> Json {
        json!({ "error": self.message, "status": self.status })
    }
}

/// A position as a request gives it.
#[derive(Debug)]
pub struct Request {
    pub komi: Komi,
    /// The moves as the query wrote them.
    pub played: Vec<String>,
    pub game: Game,
}

fn colour_word(colour: Colour) -> &'static str {
    if colour.is_black() {
        "black"
    } else {
        "white"
    }
}

/// The items of a list parameter: separated by commas or spaces, empty
/// items skipped.
fn items(text: &str) -> impl Iterator<Item = &str> {
    text.split([',', ' ']).filter(|item| !item.is_empty())
}

/// The stones a setup parameter (`black` or `white`) names.
fn stones(board: &Board, name: &str, text: &str) -> Result<PointSet, ApiError> {
    let mut set = PointSet::EMPTY;
    for item in items(text) {
        match board.parse_vertex(item) {
            Some(Some(point)) => set.insert(point),
            Some(None) => {
                return Err(ApiError::bad_request(format!(
                    "{name}: '{item}' is not on board {board}"
                )))
            }
            None => {
                return Err(ApiError::bad_request(format!(
                    "{name}: '{item}' is not a point: expected a vertex such as B2"
                )))
            }
        }
    }
    Ok(set)
}

impl Request {
    /// Reads the query's parameters (decoded name and value pairs): `moves`,
    /// `komi`, `black`, `white`, `to_move`. Any other name, or a name given
    /// twice, is a fault.
    pub fn parse(board: Board, query: &[(String, String)]) -> Result<Request, ApiError> {
        let mut seen: Vec<&str> = Vec::new();
        let (mut moves, mut komi, mut black, mut white, mut to_move) =
            (None, None, None, None, None);
        for (name, value) in query {
            if seen.contains(&name.as_str()) {
                return Err(ApiError::bad_request(format!(
                    "the parameter '{name}' is given twice"
                )));
            }
            seen.push(name);
            let slot = match name.as_str() {
                "moves" => &mut moves,
                "komi" => &mut komi,
                "black" => &mut black,
                "white" => &mut white,
                "to_move" => &mut to_move,
                _ => {
                    return Err(ApiError::bad_request(format!(
                        "unknown parameter '{}': the parameters are moves, komi, black, white \
                         and to_move",
                        shortened(name)
                    )))
                }
            };
            *slot = Some(value.as_str());
        }
        let komi = match komi {
            None => Komi::default(),
            Some(text) if text.len() > MAX_KOMI_TEXT => {
                return Err(ApiError::bad_request(format!(
                    "komi: {} characters, more than the {MAX_KOMI_TEXT} read",
                    text.len()
                )))
            }
            Some(text) => {
                let komi = Komi::parse(text.trim()).ok_or_else(|| {
                    ApiError::bad_request(format!(
                        "komi: '{}' is not a finite number (at most 1000 digits written out)",
                        shortened(text)
                    ))
                })?;
                // Margins are JSON numbers: doubles.
                if !komi.text().parse::<f64>().is_ok_and(f64::is_finite) {
                    return Err(ApiError::bad_request(format!(
                        "komi: '{}' is past the largest number a JSON double holds (about \
                         1.8e308)",
                        shortened(text)
                    )));
                }
                komi
            }
        };
        let to_move = match to_move {
            None => Colour::Black,
            Some(text) => Colour::parse(text).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "to_move: '{}' is not a colour: black or white",
                    shortened(text)
                ))
            })?,
        };
        let black = stones(&board, "black", black.unwrap_or(""))?;
        let white = stones(&board, "white", white.unwrap_or(""))?;
        let mut game = if black.is_empty() && white.is_empty() && to_move == Colour::Black {
            Game::new(board)
        } else {
            if !(black & white).is_empty() {
                return Err(ApiError::bad_request(
                    "black and white: a point holds stones of both colours",
                ));
            }
            Game::from_setup(board, black, white, to_move).ok_or_else(|| {
                ApiError::bad_request("black and white: a string of the setup has no liberty")
            })?
        };
        let mut played = Vec::new();
        for (number, text) in items(moves.unwrap_or("")).enumerate() {
            let at = format!("moves: move {} '{}'", number + 1, shortened(text));
            let mv = match move_text(&board, text) {
                Some(MoveText::Move(mv)) => mv,
                Some(MoveText::OffBoard) => {
                    return Err(ApiError::bad_request(format!(
                        "{at} is not on board {board}"
                    )))
                }
                None => {
                    return Err(ApiError::bad_request(format!(
                        "{at} is not a move: expected a vertex such as B2, or pass"
                    )))
                }
            };
            if let Some(ending) = game.ending() {
                return Err(ApiError::bad_request(format!(
                    "{at} comes after the end of the game: {} at move {number}",
                    ending_text(ending)
                )));
            }
            let colour = game.to_move();
            game.play(colour, mv).map_err(|_| {
                ApiError::bad_request(format!(
                    "{at} is not legal for {} here",
                    colour_word(colour)
                ))
            })?;
            played.push(mv.name(&board));
        }
        Ok(Request { komi, played, game })
    }
}

/// At most 40 characters of a client's text, for messages.
fn shortened(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(40).collect();
    if chars.next().is_some() {
        format!("{head}...")
    } else {
        head
    }
}

fn ending_text(ending: Ending) -> &'static str {
    match ending {
        Ending::Drawn => "a repetition drew it",
        Ending::Scored { .. } => "two passes ended it",
    }
}

/// A number of points as JSON: a whole number as an integer, else the
/// nearest double.
pub fn points(value: f64) -> Json {
    if value.fract() == 0.0 && value.abs() < 9.0e15 {
        json!(value as i64)
    } else {
        json!(value)
    }
}

/// The exact margin text a `Komi` gives (`8.9999999`, `-2`) as a JSON
/// number.
fn exact_points(text: &str) -> Json {
    match text.parse::<f64>() {
        Ok(value) if value.is_finite() => points(value),
        _ => Json::Null,
    }
}

/// A result at the komi, as docs/json.md writes one: `winner` (`black`,
/// `white`, or `null` for a draw), `margin` (the winner's, komi included,
/// exact up to a double; 0 for a draw), `plies` (to the end with perfect
/// play; `null` for a draw) and `score` (as GTP `final_score` writes it,
/// the margin exact). `outcome` is from the view of `mover`.
fn result_json(komi: &Komi, outcome: Outcome, mover: Colour) -> Json {
    let proxy_black = outcome.black_margin(mover.is_black());
    let (winner, plies) = match outcome {
        Outcome::MoverWins { plies, .. } => (Some(mover), json!(plies)),
        Outcome::Draw => (None, Json::Null),
        Outcome::OpponentWins { plies, .. } => (Some(mover.opposite()), json!(plies)),
    };
    let margin = match winner {
        Some(_) => exact_points(
            komi.mover_margin_text(proxy_black, true)
                .trim_start_matches('-'),
        ),
        None => json!(0),
    };
    json!({
        "winner": winner.map(colour_word),
        "margin": margin,
        "plies": plies,
        "score": komi.score_text(proxy_black),
    })
}

/// The result of a game that is over, from its score (`B+8.5`, `W+2`,
/// `0`): its plies to the end are `null`.
fn final_result(score: &str) -> Json {
    let (winner, margin) = if let Some(number) = score.strip_prefix("B+") {
        (json!("black"), exact_points(number))
    } else if let Some(number) = score.strip_prefix("W+") {
        (json!("white"), exact_points(number))
    } else {
        (Json::Null, json!(0))
    };
    json!({ "winner": winner, "margin": margin, "plies": null, "score": score })
}

fn point_names(board: &Board, set: PointSet) -> Json {
    json!(set
        .iter()
        .map(|p| board.point_name(p))
        .collect::<Vec<String>>())
}

/// The fields every position answer starts with: its `kind`, the board,
/// the komi, the setup, the moves played, the stones now and the player
/// to move.
fn position_fields(kind: &str, values: &BoardValues, request: &Request) -> Map<String, Json> {
    let board = *request.game.board();
    let start = request.game.start();
    let now = request.game.current();
    let mut object = Map::new();
    object.insert("kind".into(), json!(kind));
    object.insert("board".into(), json!(board.name()));
    object.insert("komi".into(), exact_points(&request.komi.text()));
    object.insert("komi_text".into(), json!(request.komi.text()));
    object.insert(
        "setup".into(),
        json!({
            "black": point_names(&board, start.black),
            "white": point_names(&board, start.white),
            "to_move": colour_word(start.to_move),
        }),
    );
    object.insert("played".into(), json!(request.played));
    object.insert("to_move".into(), json!(colour_word(now.to_move)));
    object.insert("black".into(), point_names(&board, now.black));
    object.insert("white".into(), point_names(&board, now.white));
    object.insert(
        "ko".into(),
        now.ko.map_or(Json::Null, |p| json!(board.point_name(p))),
    );
    object.insert("source".into(), json!(values.description()));
    object
}

/// A side's half of a value: its area margin (komi aside) and the plies,
/// or `null` when it cannot force the game to end.
fn forced(margin: Option<i8>, depth: u16) -> Json {
    match margin {
        Some(margin) => json!({ "margin": margin, "plies": depth }),
        None => Json::Null,
    }
}

/// A stored value as docs/json.md writes one, whoever is to move:
/// `black_can_force` and `white_can_force`.
fn value_json(value: &Value, mover: Colour) -> Json {
    let mover_side = forced(value.mover_margin, value.mover_depth);
    let opponent_side = forced(value.opponent_margin, value.opponent_depth);
    let (black, white) = if mover.is_black() {
        (mover_side, opponent_side)
    } else {
        (opponent_side, mover_side)
    };
    json!({ "black_can_force": black, "white_can_force": white })
}

/// How a game ended (`passes` or `repetition`) and its result at the komi.
fn ending_json(request: &Request, ending: Ending) -> (Json, Json) {
    match ending {
        Ending::Drawn => (json!("repetition"), final_result("0")),
        Ending::Scored { black_margin } => (
            json!("passes"),
            final_result(&request.komi.area_score_text(black_margin as i64)),
        ),
    }
}

/// The rated moves of the player to move, most preferred first.
fn ordered(values: &BoardValues, request: &Request) -> Result<Vec<Rating>, ApiError> {
    let side = request.game.to_move();
    let ratings = rate(values, request.komi.proxy(), &request.game, side).map_err(internal)?;
    Ok(preference_order(&ratings)
        .into_iter()
        .map(|i| ratings[i])
        .collect())
}

fn internal(message: String) -> ApiError {
    ApiError {
        status: 500,
        message,
    }
}

/// `GET /v1/BOARD`: the position's value at the komi and every legal move
/// of the player to move, most preferred first.
pub fn position(values: &BoardValues, request: &Request) -> Result<Json, ApiError> {
    let mut object = position_fields("position", values, request);
    let game = &request.game;
    if let Some(ending) = game.ending() {
        let (ended, result) = ending_json(request, ending);
        object.insert("ended".into(), ended);
        object.insert("result".into(), result);
        object.insert("label".into(), Json::Null);
        object.insert("value".into(), Json::Null);
        object.insert("moves".into(), json!([]));
        return Ok(Json::Object(object));
    }
    let side = game.to_move();
    let value = values
        .value_of(&game.state_for(side))
        .map_err(|e| internal(e.to_string()))?;
    let outcome = value.outcome(request.komi.proxy(), side.is_black());
    object.insert("ended".into(), Json::Null);
    object.insert("result".into(), result_json(&request.komi, outcome, side));
    object.insert(
        "label".into(),
        json!(request
            .komi
            .label(outcome.black_margin(side.is_black()), side.is_black())),
    );
    object.insert("value".into(), value_json(&value, side));
    let ratings = ordered(values, request)?;
    let best = keeping_best(&ratings);
    let board = *game.board();
    let moves: Vec<Json> = ratings
        .iter()
        .map(|rating| {
            let proxy_black = rating.outcome.black_margin(side.is_black());
            json!({
                "point": rating.mv.name(&board),
                "outcome": result_json(&request.komi, rating.outcome, side),
                "label": request.komi.label(proxy_black, side.is_black()),
                "best": best.contains(&rating.mv),
            })
        })
        .collect();
    object.insert("moves".into(), json!(moves));
    Ok(Json::Object(object))
}

/// `GET /v1/BOARD/mainline`: the moves perfect play follows from the
/// position to the end of the game (at most `PRINCIPAL_VARIATION_LIMIT`),
/// and the result it reaches.
pub fn mainline(values: &BoardValues, request: &Request) -> Result<Json, ApiError> {
    let mut object = position_fields("mainline", values, request);
    let game = &request.game;
    let board = *game.board();
    let (line, end) = if game.is_over() {
        (Vec::new(), game.clone())
    } else {
        let side = game.to_move();
        let first = choose(values, request.komi.proxy(), game, side)
            .map_err(internal)?
            .mv;
        principal_variation(values, request.komi.proxy(), game, side, first).map_err(internal)?
    };
    let mut colour = game.to_move();
    let steps: Vec<Json> = line
        .iter()
        .map(|mv: &Move| {
            let step = json!({ "colour": colour_word(colour), "point": mv.name(&board) });
            colour = colour.opposite();
            step
        })
        .collect();
    object.insert("mainline".into(), json!(steps));
    let (ended, result) = match end.ending() {
        Some(ending) => ending_json(request, ending),
        None => (Json::Null, Json::Null),
    };
    object.insert("ended".into(), ended);
    object.insert("result".into(), result);
    Ok(Json::Object(object))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::library::Tablebase;

    fn query(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    fn answer(board: &str, pairs: &[(&str, &str)]) -> Result<Json, ApiError> {
        let board: Board = board.parse().unwrap();
        let values = Tablebase::new().values(board).unwrap();
        position(&values, &Request::parse(board, &query(pairs))?)
    }

    #[test]
    fn a_position_lists_every_move_best_first_with_the_pass() {
        let json = answer("3x3", &[("moves", "B2")]).unwrap();
        assert_eq!(json["kind"], "position");
        assert_eq!(json["to_move"], "white");
        assert_eq!(
            json["result"],
            json!({"winner": "black", "margin": 9, "plies": 14, "score": "B+9"})
        );
        assert_eq!(json["label"], "-9");
        assert_eq!(
            json["value"],
            json!({
                "black_can_force": {"margin": 9, "plies": 14},
                "white_can_force": {"margin": -9, "plies": 16},
            })
        );
        let moves = json["moves"].as_array().unwrap();
        assert_eq!(moves.len(), 9, "8 points and pass");
        assert!(moves.iter().any(|m| m["point"] == "pass"));
        assert!(moves
            .iter()
            .all(|m| m["label"] == "-9" && m["best"] == true && m["outcome"]["winner"] == "black"));
        let drawn = answer("3x3", &[("moves", "B2"), ("komi", "9")]).unwrap();
        assert_eq!(drawn["moves"][0]["point"], "pass", "a draw passes first");
        assert_eq!(
            drawn["result"],
            json!({"winner": null, "margin": 0, "plies": null, "score": "0"})
        );
    }

    #[test]
    fn an_exact_komi_gives_exact_margins() {
        let json = answer("3x3", &[("komi", "9.0000001")]).unwrap();
        assert_eq!(json["result"]["score"], "W+0.0000001");
        assert_eq!(json["result"]["winner"], "white");
        assert_eq!(json["result"]["margin"], 0.0000001);
        let huge = answer("3x3", &[("komi", "-1e300")]).unwrap();
        assert_eq!(huge["result"]["winner"], "black");
        assert_eq!(huge["result"]["margin"], 1e300);
    }

    #[test]
    fn faults_name_the_parameter() {
        for (pairs, said) in [
            (
                &[("moves", "B2,B2")][..],
                "moves: move 2 'B2' is not legal for white",
            ),
            (&[("moves", "Z9")][..], "is not on board 3x3"),
            (&[("moves", "B2x")][..], "is not a move"),
            (&[("moves", "pass pass A1")][..], "comes after the end"),
            (&[("komi", "nan")][..], "komi: 'nan' is not a finite number"),
            (
                &[("komi", "1e400")][..],
                "komi: '1e400' is past the largest number",
            ),
            (&[("colour", "b")][..], "unknown parameter 'colour'"),
            (&[("komi", "1"), ("komi", "2")][..], "given twice"),
            (&[("black", "A1"), ("white", "A1")][..], "both colours"),
            (&[("black", "A1"), ("white", "A2,B1")][..], "no liberty"),
            (&[("to_move", "red")][..], "to_move: 'red' is not a colour"),
        ] {
            let error = answer("3x3", pairs).unwrap_err();
            assert_eq!(error.status, 400);
            assert!(error.message.contains(said), "{pairs:?}: {}", error.message);
        }
    }

    #[test]
    fn setup_stones_and_the_player_to_move_are_the_start() {
        let json = answer(
            "3x3",
            &[
                ("black", "B2"),
                ("white", "A1"),
                ("to_move", "white"),
                ("moves", "C1"),
            ],
        )
        .unwrap();
        assert_eq!(json["setup"]["to_move"], "white");
        assert_eq!(json["to_move"], "black");
        assert_eq!(json["white"], json!(["A1", "C1"]));
    }

    #[test]
    fn the_mainline_ends_the_game_and_a_finished_game_has_no_moves() {
        let board: Board = "3x3".parse().unwrap();
        let values = Tablebase::new().values(board).unwrap();
        let request = Request::parse(board, &query(&[])).unwrap();
        let line = mainline(&values, &request).unwrap();
        assert_eq!(line["kind"], "mainline");
        assert_eq!(line["result"]["score"], "B+9");
        assert_eq!(line["ended"], "passes");
        assert_eq!(line["mainline"][0]["point"], "B2");
        let steps = line["mainline"].as_array().unwrap();
        assert_eq!(steps.last().unwrap()["point"], "pass");
        let over = answer("3x3", &[("moves", "B2,pass,pass"), ("komi", "0.5")]).unwrap();
        assert_eq!(over["ended"], "passes");
        assert_eq!(
            over["result"],
            json!({"winner": "black", "margin": 8.5, "plies": null, "score": "B+8.5"})
        );
        assert_eq!(over["moves"], json!([]));
    }
}
