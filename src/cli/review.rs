//! `smallgo review GAME.sgf [--komi K] [-o OUT.sgf]`: the exact value of
//! every position of a game, before and after each move, from the tables
//! the engine plays with. A mistake is a move that changes the result: a
//! win turned into a draw or a loss, a draw into a loss, or a smaller
//! margin. Each move's points lost are the mover's exact margin before it
//! less the margin after it (a draw counts as 0), and each player gets a
//! summary: moves, mistakes, points lost. The review is printed (with `--json` as one `review` object,
//! `docs/json.md`), and OUT.sgf gets the game (its game
//! information, such as the players, result and date, and its root comment
//! kept as they were) with comments,
//! the standard move and position properties (`BM` a move that changes who
//! wins or draws, `DO` one that only gives up points, `TE` the only move
//! that keeps the result; `GB`, `GW` or `DM` for who wins after it; `V` the
//! exact margin for Black; `SBKV` and `OGSC`, the win chance and score
//! lead Sabaki and ogatak read back; `KT`, KaTrain's packed analysis of
//! each position as `smallgo analysis` answers for it, with `KTV` on the
//! root) and the perfect line as a variation at each mistake.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::game::{katago, perfect, Game};
use crate::gtp::komi::Komi;
use crate::rules::board::Board;
use crate::rules::colour::Colour;
use crate::rules::moves::Move;
use crate::rules::value::Outcome;
use crate::sgf;
use crate::table::library::{BoardValues, Tablebase};
use crate::table::values::rating::{
    compare_outcomes, keeping_best, preference_order, same_result, Rating,
};

use super::json::{self, Json};
use super::katrain;
use super::EXIT_FAILURE;

/// What `review` was asked for.
#[derive(Clone, Debug, Default)]
pub struct ReviewOptions {
    /// Komi; by default the file's `KM`, else 0.
    pub komi: Option<Komi>,
    /// Where to write the annotated game.
    pub output: Option<PathBuf>,
    /// A folder of tables besides the built-in ones.
    pub tables: Option<PathBuf>,
    /// Print the review as one JSON line instead of text.
    pub json: bool,
    /// Where to write the score graph (SVG).
    pub plot: Option<PathBuf>,
}

/// How a move compares with the best one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It keeps the best result, and it is the only move that does.
    OnlyMove,
    /// It keeps the best result.
    Good,
    /// It gives up points but keeps who wins (or the draw).
    Inaccuracy,
    /// It changes who wins, or gives up the draw or the win.
    Mistake,
    /// Played after the game ended.
    AfterTheEnd,
}

/// One reviewed move.
#[derive(Clone, Debug)]
pub struct Reviewed {
    pub colour: Colour,
    pub mv: Move,
    /// The result with perfect play before the move, as `final_score`
    /// writes it (Black's view, komi included).
    pub before: String,
    /// The result with perfect play after it.
    pub after: String,
    /// Black's margin before the move at `komi.proxy()`, which has the
    /// exact margin's sign (0 for a draw); `Komi` gives the exact margin.
    pub before_margin: f64,
    /// The same after it.
    pub after_margin: f64,
    /// The plies to the end with perfect play before and after the move
    /// (`None` for a draw).
    pub before_plies: Option<u16>,
    pub after_plies: Option<u16>,
    pub verdict: Verdict,
    /// The moves that keep the best result.
    pub best: Vec<Move>,
    /// Perfect play from the position before a mistake.
    pub perfect_line: Vec<Move>,
    /// The mover's exact margin before the move minus after it (0 for a
    /// move that keeps the best result; a draw counts as a margin of 0);
    /// `None` after the end.
    pub points_lost: Option<Exact>,
    /// KaTrain's `KT` values for the position after the move, the
    /// opponent to move (when OUT.sgf is asked for; `None` after the end).
    pub katrain: Option<[String; 3]>,
}

/// An exact signed decimal, for points lost and their sums (a komi may
/// have any number of fraction digits).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exact {
    negative: bool,
    /// The magnitude's digits, least significant first, at `scale`
    /// fraction digits.
    digits: Vec<u8>,
    scale: usize,
}

impl Exact {
    /// Reads `-?digits(.digits)?`, as `Komi` writes margins.
    fn parse(text: &str) -> Exact {
        let (negative, body) = match text.strip_prefix('-') {
            Some(body) => (true, body),
            None => (false, text),
        };
        let (integer, fraction) = body.split_once('.').unwrap_or((body, ""));
        let digits = integer
            .bytes()
            .chain(fraction.bytes())
            .rev()
            .map(|b| b - b'0')
            .collect();
        Exact {
            negative,
            digits,
            scale: fraction.len(),
        }
        .normalized()
    }

    fn normalized(mut self) -> Exact {
        while self.scale > 0 && self.digits.first() == Some(&0) {
            self.digits.remove(0);
            self.scale -= 1;
        }
        while self.digits.last() == Some(&0) {
            self.digits.pop();
        }
        if self.digits.is_empty() {
            self.negative = false;
            self.scale = 0;
        }
        self
    }

    /// The magnitude's digits at `scale >= self.scale`, `length` of them.
    fn at(&self, scale: usize, length: usize) -> Vec<u8> {
        let mut digits = vec![0; scale - self.scale];
        digits.extend(&self.digits);
        digits.resize(length, 0);
        digits
    }

    fn negated(&self) -> Exact {
        Exact {
            negative: !self.negative,
            ..self.clone()
        }
        .normalized()
    }

    fn sum(&self, other: &Exact) -> Exact {
        let scale = self.scale.max(other.scale);
        let length = 1
            + (self.digits.len() + scale - self.scale)
                .max(other.digits.len() + scale - other.scale);
        let (a, b) = (self.at(scale, length), other.at(scale, length));
        if self.negative == other.negative {
            let mut carry = 0;
            let mut out = Vec::with_capacity(length);
            for (x, y) in a.iter().zip(&b) {
                let d = x + y + carry;
                out.push(d % 10);
                carry = d / 10;
            }
            return Exact {
                negative: self.negative,
                digits: out,
                scale,
            }
            .normalized();
        }
        // Opposite signs: the larger magnitude less the smaller one.
        let a_larger = a.iter().rev().cmp(b.iter().rev()) != std::cmp::Ordering::Less;
        let (big, small, negative) = if a_larger {
            (a, b, self.negative)
        } else {
            (b, a, other.negative)
        };
        let mut borrow = 0;
        let mut out = Vec::with_capacity(length);
        for (x, y) in big.iter().zip(&small) {
            let (x, y) = (*x as i8, *y as i8 + borrow);
            if x >= y {
                out.push((x - y) as u8);
                borrow = 0;
            } else {
                out.push((x + 10 - y) as u8);
                borrow = 1;
            }
        }
        Exact {
            negative,
            digits: out,
            scale,
        }
        .normalized()
    }

    /// The number as it reads: `3.5`, `0`, `-2`.
    pub fn text(&self) -> String {
        if self.digits.is_empty() {
            return "0".to_string();
        }
        let mut digits: Vec<u8> = self.digits.clone();
        digits.resize(digits.len().max(self.scale + 1), 0);
        let text: String = digits.iter().rev().map(|d| (b'0' + d) as char).collect();
        let (integer, fraction) = text.split_at(text.len() - self.scale);
        format!(
            "{}{integer}{}{fraction}",
            if self.negative { "-" } else { "" },
            if fraction.is_empty() { "" } else { "." }
        )
    }
}

/// A reviewed game.
pub struct Review {
    pub board: Board,
    /// Where the values come from.
    pub source: String,
    /// Exactly as given; values are read at `komi.proxy()`.
    pub komi: Komi,
    pub record: sgf::Record,
    pub moves: Vec<Reviewed>,
    /// KaTrain's `KT` values for the position before the first move.
    pub root_katrain: Option<[String; 3]>,
}

/// The plies to the end of an outcome; `None` for a draw.
fn plies(outcome: &Outcome) -> Option<u16> {
    match *outcome {
        Outcome::MoverWins { plies, .. } | Outcome::OpponentWins { plies, .. } => Some(plies),
        Outcome::Draw => None,
    }
}

fn class(outcome: &Outcome) -> i32 {
    match outcome {
        Outcome::MoverWins { .. } => 1,
        Outcome::Draw => 0,
        Outcome::OpponentWins { .. } => -1,
    }
}

/// Reviews the main line of SGF `text`.
pub fn review(text: &str, options: &ReviewOptions) -> Result<Review, String> {
    let record = sgf::main_line(text)
        .and_then(|line| sgf::record(&line))
        .map_err(|error| error.to_string())?;
    let board = record.board;
    let library = Tablebase::with_sources(options.tables.as_deref(), false);
    let oracle = library
        .open(board)
        .ok_or_else(|| format!("no table serves its {} board", board.name()))?;
    let komi = match (&options.komi, &record.komi) {
        (Some(komi), _) => komi.clone(),
        (None, Some(text)) => {
            Komi::parse(text).ok_or_else(|| format!("KM {} is not a komi", sgf::quoted(text)))?
        }
        (None, None) => Komi::default(),
    };
    let proxy = komi.proxy();
    let steps: Vec<(Colour, Move, usize)> = record.moves().collect();
    let to_move = record.first_to_play();
    let mut game = Game::from_setup(board, record.black, record.white, to_move)
        .ok_or("its setup stones leave a string without liberty")?;
    let mut moves = Vec::with_capacity(steps.len());
    for (number, &(colour, mv, node)) in steps.iter().enumerate() {
        let illegal = || {
            format!(
                "move {} (node {node}, {} {}) is illegal",
                number + 1,
                colour.letter(),
                mv.name(&board)
            )
        };
        if game.is_over() {
            game.play(colour, mv).map_err(|_| illegal())?;
            moves.push(Reviewed {
                colour,
                mv,
                before: String::new(),
                after: String::new(),
                before_margin: 0.0,
                after_margin: 0.0,
                before_plies: None,
                after_plies: None,
                verdict: Verdict::AfterTheEnd,
                best: Vec::new(),
                perfect_line: Vec::new(),
                points_lost: None,
                katrain: None,
            });
            continue;
        }
        let ratings: Vec<Rating> = perfect::rate(&oracle, proxy, &game, colour)?;
        let played = *ratings.iter().find(|r| r.mv == mv).ok_or_else(illegal)?;
        let best = ratings
            .iter()
            .map(|r| r.outcome)
            .max_by(compare_outcomes)
            .expect("pass is always legal");
        let keeping = keeping_best(&ratings);
        let verdict = if same_result(&played.outcome, &best) {
            if keeping.len() == 1 && ratings.len() > 1 {
                Verdict::OnlyMove
            } else {
                Verdict::Good
            }
        } else if class(&played.outcome) == class(&best) {
            Verdict::Inaccuracy
        } else {
            Verdict::Mistake
        };
        let perfect_line = match verdict {
            Verdict::Inaccuracy | Verdict::Mistake => {
                let first = ratings[preference_order(&ratings)[0]].mv;
                perfect::principal_variation(&oracle, proxy, &game, colour, first)?.0
            }
            _ => Vec::new(),
        };
        let black_view = |outcome: &Outcome| outcome.black_margin(colour.is_black());
        let mover_exact = |outcome: &Outcome| {
            Exact::parse(&komi.mover_margin_text(black_view(outcome), colour.is_black()))
        };
        let points_lost = mover_exact(&best).sum(&mover_exact(&played.outcome).negated());
        moves.push(Reviewed {
            colour,
            mv,
            before: komi.score_text(black_view(&best)),
            after: komi.score_text(black_view(&played.outcome)),
            before_margin: black_view(&best),
            after_margin: black_view(&played.outcome),
            before_plies: plies(&best),
            after_plies: plies(&played.outcome),
            verdict,
            best: keeping,
            perfect_line,
            points_lost: Some(points_lost),
            katrain: None,
        });
        game.play(colour, mv).map_err(|_| illegal())?;
        if options.output.is_some() {
            let analysed = katrain_values(&oracle, &komi, &game, colour.opposite())?;
            moves.last_mut().expect("just pushed").katrain = Some(analysed);
        }
    }
    // The root's analysis, the first mover to play, as its `SBKV` is.
    let root_katrain = match moves.first() {
        Some(first) if options.output.is_some() && first.verdict != Verdict::AfterTheEnd => {
            let start = Game::from_setup(board, record.black, record.white, to_move)
                .ok_or("its setup stones leave a string without liberty")?;
            Some(katrain_values(&oracle, &komi, &start, first.colour)?)
        }
        _ => None,
    };
    Ok(Review {
        board,
        source: oracle.description().to_string(),
        komi,
        record,
        moves,
        root_katrain,
    })
}

/// KaTrain's `KT` values for `side` to move in `game`: the analysis
/// engine's answer for the position (`smallgo analysis`), with ownership
/// and (unless the game has ended) policy, read at the stand-in komi and
/// its scores made exact.
fn katrain_values(
    oracle: &BoardValues,
    komi: &Komi,
    game: &Game,
    side: Colour,
) -> Result<[String; 3], String> {
    // A game that has ended has no moves to rank: no policy, as KaTrain
    // then shows a pass.
    let policy = !game.is_over();
    let answer = katago::position_answer(oracle, komi.proxy(), game, side, true, policy)?;
    Ok(katrain::kt_values(&answer, |lead| {
        let exact = komi.mover_margin_text(lead, true);
        exact.parse().unwrap_or(lead)
    }))
}

fn colour_name(colour: Colour) -> &'static str {
    if colour.is_black() {
        "black"
    } else {
        "white"
    }
}

/// Moves by their GTP names, space separated.
fn move_names(board: &Board, moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.name(board))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One player's moves in a review.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Moves reviewed (those after the end aside).
    pub moves: usize,
    /// Moves that changed who wins or gave up a draw or a win.
    pub mistakes: usize,
    /// Points lost over all its moves.
    pub points_lost: Exact,
}

impl Review {
    /// Black's and White's summaries.
    pub fn summaries(&self) -> [(Colour, Summary); 2] {
        [Colour::Black, Colour::White].map(|colour| {
            let mut summary = Summary::default();
            for reviewed in self.moves.iter().filter(|m| m.colour == colour) {
                let Some(lost) = &reviewed.points_lost else {
                    continue;
                };
                summary.moves += 1;
                summary.mistakes += (reviewed.verdict == Verdict::Mistake) as usize;
                summary.points_lost = summary.points_lost.sum(lost);
            }
            (colour, summary)
        })
    }

    /// The review as text, a line a move.
    pub fn text(&self) -> String {
        let board = &self.board;
        let mut out = format!("board {}, komi {}\n", board.name(), self.komi.text());
        let mut mistakes = 0;
        for (i, reviewed) in self.moves.iter().enumerate() {
            let head = format!(
                "{:>3} {} {:<5}",
                i + 1,
                reviewed.colour.letter(),
                reviewed.mv.name(board)
            );
            let line = match reviewed.verdict {
                Verdict::AfterTheEnd => format!("{head} after the end of the game"),
                verdict => {
                    let note = match verdict {
                        Verdict::OnlyMove => "the only move".to_string(),
                        Verdict::Good => String::new(),
                        _ => {
                            mistakes += 1;
                            format!(
                                "{}: best {}; perfect play {}",
                                if verdict == Verdict::Mistake {
                                    "mistake"
                                } else {
                                    "gives up points"
                                },
                                move_names(board, &reviewed.best),
                                move_names(board, &reviewed.perfect_line)
                            )
                        }
                    };
                    let lost = reviewed
                        .points_lost
                        .as_ref()
                        .map_or(String::new(), Exact::text);
                    format!(
                        "{head} {:>7} -> {:<7} lost {lost:<4} {note}",
                        reviewed.before, reviewed.after
                    )
                }
            };
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.push_str(&format!("{mistakes} moves changed the result\n"));
        for (colour, summary) in self.summaries() {
            out.push_str(&format!(
                "{}: {} moves, {} mistakes, {} points lost\n",
                colour_name(colour),
                summary.moves,
                summary.mistakes,
                summary.points_lost.text()
            ));
        }
        out
    }

    /// A result before or after a move as JSON: Black's margin at the
    /// stand-in komi made exact.
    fn result_json(&self, proxy_margin: f64, plies: Option<u16>) -> Json {
        let winner = if proxy_margin > 0.0 {
            Some(Colour::Black)
        } else if proxy_margin < 0.0 {
            Some(Colour::White)
        } else {
            None
        };
        let exact = self.komi.mover_margin_text(proxy_margin, true);
        json::result(
            winner,
            Json::decimal(exact.trim_start_matches('-')),
            plies,
            self.komi.score_text(proxy_margin),
        )
    }

    /// The review as a `review` object (`docs/json.md`).
    pub fn json(&self, file: &Path) -> Json {
        let board = &self.board;
        let moves = self.moves.iter().enumerate().map(|(i, reviewed)| {
            let verdict = match reviewed.verdict {
                Verdict::OnlyMove => "only move",
                Verdict::Good => "good",
                Verdict::Inaccuracy => "gives up points",
                Verdict::Mistake => "mistake",
                Verdict::AfterTheEnd => "after the end",
            };
            let over = reviewed.verdict == Verdict::AfterTheEnd;
            Json::object()
                .with("number", i + 1)
                .with("colour", json::colour(reviewed.colour))
                .with("point", json::point(board, reviewed.mv))
                .with("verdict", verdict)
                .with(
                    "before",
                    (!over)
                        .then(|| self.result_json(reviewed.before_margin, reviewed.before_plies)),
                )
                .with(
                    "after",
                    (!over).then(|| self.result_json(reviewed.after_margin, reviewed.after_plies)),
                )
                .with("best_moves", json::moves(board, &reviewed.best))
                .with("perfect_line", json::moves(board, &reviewed.perfect_line))
                .with(
                    "points_lost",
                    reviewed
                        .points_lost
                        .as_ref()
                        .map(|lost| Json::decimal(&lost.text())),
                )
        });
        let mut players = Json::object();
        for (colour, summary) in self.summaries() {
            players = players.with(
                colour_name(colour),
                Json::object()
                    .with("moves", summary.moves)
                    .with("mistakes", summary.mistakes)
                    .with("points_lost", Json::decimal(&summary.points_lost.text())),
            );
        }
        let changed = self
            .moves
            .iter()
            .filter(|m| matches!(m.verdict, Verdict::Inaccuracy | Verdict::Mistake))
            .count();
        Json::kind("review")
            .with("file", file.display().to_string())
            .with("board", board.name())
            .with("komi", Json::decimal(&self.komi.text()))
            .with("source", self.source.as_str())
            .with("black", json::points(board, self.record.black))
            .with("white", json::points(board, self.record.white))
            .with("to_move", json::colour(self.record.first_to_play()))
            .with("moves", Json::list(moves))
            .with("changed", changed)
            .with("players", players)
    }

    /// Black's exact score lead after each reviewed move (0 for a draw),
    /// by move number.
    #[cfg(feature = "plot")]
    pub fn score_leads(&self) -> Vec<(usize, f64)> {
        self.moves
            .iter()
            .enumerate()
            .filter(|(_, m)| m.verdict != Verdict::AfterTheEnd)
            .map(|(i, m)| {
                let lead = self.komi.mover_margin_text(m.after_margin, true);
                (i + 1, lead.parse().unwrap_or(m.after_margin))
            })
            .collect()
    }

    /// The score graph as SVG: Black's score lead after each move, a line
    /// through one circle a move, the zero line (a draw) across; no text,
    /// so no font is needed.
    #[cfg(feature = "plot")]
    pub fn plot(&self) -> Result<String, String> {
        use plotters::prelude::*;
        let leads = self.score_leads();
        let last = leads.last().map_or(1, |&(n, _)| n.max(1));
        let top = leads.iter().map(|&(_, y)| y.abs()).fold(1.0, f64::max) * 1.1;
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (640, 360)).into_drawing_area();
            let failed = |e: &dyn std::fmt::Display| format!("cannot draw the graph: {e}");
            root.fill(&WHITE).map_err(|e| failed(&e))?;
            let mut chart = ChartBuilder::on(&root)
                .margin(20)
                .build_cartesian_2d(0f64..last as f64, -top..top)
                .map_err(|e| failed(&e))?;
            chart
                .draw_series(LineSeries::new(
                    [(0.0, 0.0), (last as f64, 0.0)],
                    BLACK.mix(0.3),
                ))
                .map_err(|e| failed(&e))?;
            let points: Vec<(f64, f64)> = leads.iter().map(|&(n, y)| (n as f64, y)).collect();
            chart
                .draw_series(LineSeries::new(points.iter().copied(), BLUE))
                .map_err(|e| failed(&e))?;
            chart
                .draw_series(
                    points
                        .iter()
                        .map(|&point| Circle::new(point, 3, BLUE.filled())),
                )
                .map_err(|e| failed(&e))?;
            root.present().map_err(|e| failed(&e))?;
        }
        Ok(svg)
    }

    /// Without feature `plot` there is no graph.
    #[cfg(not(feature = "plot"))]
    pub fn plot(&self) -> Result<String, String> {
        Err("this smallgo was built without feature plot (cargo build --features plot)".to_string())
    }

    /// The game as SGF with the review in it.
    pub fn sgf(&self) -> String {
        let board = &self.board;
        let mut root = format!(
            "(;FF[4]CA[UTF-8]GM[1]AP[smallgo:{}]SZ[{}]{}KM[{}]",
            env!("CARGO_PKG_VERSION"),
            sgf::size_text(board),
            sgf::topology_text(board),
            sgf::escape(&self.komi.text()),
        );
        root.push_str(&sgf::setup_text(
            board,
            self.record.black,
            self.record.white,
        ));
        // PL as `sgf::write_game` writes it.
        let to_move = self.record.first_to_play();
        let read_back = self
            .moves
            .first()
            .map_or(Colour::Black, |reviewed| reviewed.colour);
        let set_up = !self.record.black.is_empty() || !self.record.white.is_empty();
        if to_move != read_back || (set_up && to_move != Colour::Black) {
            root.push_str(&format!("PL[{}]", to_move.letter()));
        }
        for property in &self.record.info {
            root.push_str(&property.name);
            for value in &property.values {
                root.push_str(&format!("[{}]", sgf::escape(value)));
            }
        }
        let note = format!(
            "Reviewed by smallgo at komi {}: exact values from its tables. BM marks a move that changes who wins (or the draw), DO one that only gives up points, TE the only move that keeps the result; V is Black's margin with perfect play after the move; SBKV is Black's chance to win (100, 50 for a draw, 0) and OGSC Black's score lead, read back by Sabaki and ogatak; KT is the analysis of each position as KaTrain saves and reloads it.",
            self.komi.text()
        );
        // The game's own comment stays first, the review's note after it.
        let comment = match &self.record.comment {
            Some(game) if !game.trim().is_empty() => format!("{}\n\n{note}", game.trim_end()),
            _ => note,
        };
        root.push_str(&format!("C[{}]", sgf::escape(&comment)));
        if let Some(first) = self
            .moves
            .first()
            .filter(|m| m.verdict != Verdict::AfterTheEnd)
        {
            root.push_str(&self.analysis_properties(first.before_margin));
        }
        if let Some(values) = &self.root_katrain {
            root.push_str(&format!("KTV[{}]", katrain::FORMAT_VERSION));
            root.push_str(&kt_property(values));
        }
        let mut out = root;
        let mut variations: Vec<String> = Vec::new();
        for reviewed in &self.moves {
            let node = self.node(reviewed);
            if reviewed.perfect_line.is_empty() {
                out.push_str(&format!("\n;{node}"));
            } else {
                out.push_str(&format!("\n(;{node}"));
                variations.push(self.perfect_line(reviewed));
            }
        }
        for variation in variations.iter().rev() {
            out.push_str(&format!(")\n({variation})"));
        }
        out.push_str(")\n");
        out
    }

    fn node(&self, reviewed: &Reviewed) -> String {
        let board = &self.board;
        let mut node = format!(
            "{}[{}]",
            reviewed.colour.letter(),
            sgf::move_text(board, reviewed.mv)
        );
        let comment = match reviewed.verdict {
            Verdict::AfterTheEnd => "Played after the end of the game.".to_string(),
            verdict => {
                let what = match verdict {
                    Verdict::OnlyMove => "The only move that keeps the result.".to_string(),
                    Verdict::Good => "Keeps the result.".to_string(),
                    Verdict::Inaccuracy => {
                        format!(
                            "Gives up points; best: {}.",
                            move_names(board, &reviewed.best)
                        )
                    }
                    _ => format!(
                        "A mistake: it changes the result; best: {}.",
                        move_names(board, &reviewed.best)
                    ),
                };
                format!(
                    "{} before, {} after. {what}",
                    reviewed.before, reviewed.after
                )
            }
        };
        node.push_str(&format!("C[{}]", sgf::escape(&comment)));
        if reviewed.verdict == Verdict::AfterTheEnd {
            return node;
        }
        node.push_str(match reviewed.verdict {
            Verdict::Mistake => "BM[1]",
            Verdict::Inaccuracy => "DO[]",
            Verdict::OnlyMove => "TE[1]",
            _ => "",
        });
        let margin = reviewed.after_margin;
        node.push_str(if margin > 0.0 {
            "GB[1]"
        } else if margin < 0.0 {
            "GW[1]"
        } else {
            "DM[1]"
        });
        node.push_str(&format!("V[{}]", self.komi.mover_margin_text(margin, true)));
        node.push_str(&self.analysis_properties(margin));
        if let Some(values) = &reviewed.katrain {
            node.push_str(&kt_property(values));
        }
        node
    }

    /// The properties analysis tools read back without a new run, for a
    /// position Black's margin at the stand-in komi `margin` after
    /// perfect play: `SBKV` Black's chance to win in percent (Sabaki
    /// writes and reads it; ogatak reads it for its graph), 100, 0 or 50
    /// for a draw, and `OGSC` Black's score lead (ogatak writes it): the
    /// exact margin, 0 for a draw.
    fn analysis_properties(&self, margin: f64) -> String {
        let chance = if margin > 0.0 {
            "100"
        } else if margin < 0.0 {
            "0"
        } else {
            "50"
        };
        format!(
            "SBKV[{chance}]OGSC[{}]",
            self.komi.mover_margin_text(margin, true)
        )
    }

    /// The perfect line at a mistake, as a variation's nodes.
    fn perfect_line(&self, reviewed: &Reviewed) -> String {
        let board = &self.board;
        let mut colour = reviewed.colour;
        let mut out = String::new();
        for (i, &mv) in reviewed.perfect_line.iter().enumerate() {
            out.push_str(&format!(
                "{};{}[{}]",
                if i % 8 == 0 && i > 0 { "\n" } else { "" },
                colour.letter(),
                sgf::move_text(board, mv)
            ));
            if i == 0 {
                out.push_str(&format!(
                    "C[{}]",
                    sgf::escape(&format!(
                        "Perfect play: {} keeps {}.",
                        mv.name(board),
                        reviewed.before
                    ))
                ));
            }
            colour = colour.opposite();
        }
        out
    }
}

/// The `KT` property, its three values on a line of their own.
fn kt_property(values: &[String; 3]) -> String {
    format!("\nKT[{}][{}][{}]", values[0], values[1], values[2])
}

/// Runs `smallgo review`.
pub fn run(game: &Path, options: ReviewOptions) -> ExitCode {
    let text = match crate::common::files::read_bounded(game, sgf::MAX_FILE_BYTES) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(error) => {
            eprintln!("smallgo: review: cannot read {}: {error}", game.display());
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    let review = match review(&text, &options) {
        Ok(review) => review,
        Err(error) => {
            eprintln!("smallgo: review: {}: {error}", game.display());
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    // The graph is drawn before anything is written, so that a graph that
    // cannot be drawn leaves no file behind.
    let svg = match options.plot.as_ref().map(|_| review.plot()).transpose() {
        Ok(svg) => svg,
        Err(error) => {
            eprintln!("smallgo: review: --plot: {error}");
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    if let Some(output) = &options.output {
        if let Err(error) = crate::common::files::write_output(output, review.sgf().as_bytes()) {
            eprintln!(
                "smallgo: review: cannot write {}: {error}",
                output.display()
            );
            return ExitCode::from(EXIT_FAILURE);
        }
    }
    if let Some(plot) = &options.plot {
        let written = svg.as_ref().map(|svg| {
            crate::common::files::write_output(plot, svg.as_bytes()).map_err(|e| e.to_string())
        });
        if let Some(Err(error)) = written {
            eprintln!("smallgo: review: cannot write {}: {error}", plot.display());
            return ExitCode::from(EXIT_FAILURE);
        }
    }
    let written = if options.json {
        outln!("{}", review.json(game))
    } else {
        outln!("{}", review.text().trim_end())
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => super::output_failed(&error),
    }
}

#[cfg(test)]
mod tests {
    use super::Exact;

    fn sum(a: &str, b: &str) -> String {
        Exact::parse(a).sum(&Exact::parse(b)).text()
    }

    #[test]
    fn exact_sums_keep_every_digit_and_sign() {
        assert_eq!(sum("3.5", "7"), "10.5");
        assert_eq!(sum("8.9999999", "-0.0000001"), "8.9999998");
        assert_eq!(sum("0.0000001", "-8.9999999"), "-8.9999998");
        assert_eq!(sum("-2.75", "-0.25"), "-3");
        assert_eq!(sum("4.5", "-4.5"), "0");
        assert_eq!(sum("0", "-0.5"), "-0.5");
        assert_eq!(sum("99.99", "0.01"), "100");
        assert_eq!(Exact::parse("-0").text(), "0");
        assert_eq!(Exact::parse("12.50").text(), "12.5");
    }
}
