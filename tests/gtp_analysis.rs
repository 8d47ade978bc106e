//! The analysis a GUI reads over GTP, from the real binary: KataGo's
//! `kata-analyze` with `ownership true` (one value per point, rows from the
//! top, from the side to move's view, as KataGo's GTP_Extensions.md has
//! it), `scoreLead`, `scoreMean` and `scoreStdev`; Leela Zero's
//! `lz-analyze`; the ownership map checked against the stones at the end
//! of the principal line played out over GTP and scored here by hand; and
//! what Sabaki's GTP library read of the map (a transcript recorded with
//! `@sabaki/gtp`, `gtp-tests/sabaki/`).

use std::collections::HashMap;

use crate::support::gtp_engine::{EngineCommand, GtpEngine};

struct Engine {
    gtp: GtpEngine,
}

impl Engine {
    fn start() -> Engine {
        let gtp = GtpEngine::start(&EngineCommand::smallgo(&[]), "smallgo", None)
            .expect("smallgo starts");
        Engine { gtp }
    }

    /// A command's whole reply, its `= ` taken off; panics on `?`.
    fn ask(&mut self, command: &str) -> String {
        let lines = self
            .gtp
            .ask(command)
            .unwrap_or_else(|fault| panic!("{fault}"))
            .all_lines();
        let text = lines.join("\n");
        assert!(text.starts_with('='), "{command}: {text}");
        text.trim_start_matches('=').trim().to_string()
    }

    fn ask_raw(&mut self, command: &str) -> String {
        self.gtp
            .ask(command)
            .unwrap_or_else(|fault| panic!("{fault}"))
            .all_lines()
            .join("\n")
    }

    /// One line of a streamed analysis (interval 0), the stream then ended.
    fn analysis(&mut self, command: &str) -> String {
        self.gtp
            .send_raw(format!("{command}\n").as_bytes())
            .unwrap_or_else(|fault| panic!("{fault}"));
        let status = self.gtp.read_line().unwrap();
        assert_eq!(status, "=", "{command}");
        let line = self.gtp.read_line().unwrap();
        self.gtp.send_raw(b"\n").unwrap();
        assert_eq!(self.gtp.read_line().unwrap(), "");
        line
    }
}

/// An `info` entry: its fields by name, and its pv.
type Info = (HashMap<String, String>, Vec<String>);

/// The `info` entries of an analysis line, and the ownership values if
/// any.
fn parse(line: &str) -> (Vec<Info>, Option<Vec<f64>>) {
    let (infos, ownership) = match line.split_once(" ownership ") {
        Some((infos, values)) => (
            infos,
            Some(
                values
                    .split_whitespace()
                    .map(|v| v.parse().unwrap())
                    .collect(),
            ),
        ),
        None => (line, None),
    };
    let mut entries = Vec::new();
    for chunk in infos.split("info ").filter(|c| !c.trim().is_empty()) {
        let (fields, pv) = chunk.split_once(" pv ").expect("a pv");
        let words: Vec<&str> = fields.split_whitespace().collect();
        let map = words
            .chunks(2)
            .map(|pair| (pair[0].to_string(), pair[1].to_string()))
            .collect();
        entries.push((map, pv.split_whitespace().map(String::from).collect()));
    }
    (entries, ownership)
}

/// Black's view of the map from `smallgo-ownership`'s `INFLUENCE` line,
/// rows from the top as KataGo orders them.
fn influence(engine: &mut Engine, rows: usize, columns: &str) -> Vec<f64> {
    let gfx = engine.ask("smallgo-ownership");
    let mut values: HashMap<String, f64> = HashMap::new();
    if let Some(line) = gfx.lines().find(|l| l.starts_with("INFLUENCE ")) {
        let words: Vec<&str> = line.split_whitespace().skip(1).collect();
        for pair in words.chunks(2) {
            values.insert(pair[0].to_string(), pair[1].parse().unwrap());
        }
    }
    let mut out = Vec::new();
    for row in (1..=rows).rev() {
        for column in columns.chars() {
            out.push(
                values
                    .get(&format!("{column}{row}"))
                    .copied()
                    .unwrap_or(0.0),
            );
        }
    }
    out
}

/// The seki on 2x3 (Black A1 A2, White C1 C2): the ownership is one value
/// per point, the top row first, each row from the left, from the view of
/// the side analysed: `1 0 -1` on both rows for Black, `-1 0 1` for White;
/// and Black's view is what `smallgo-ownership` shades.
#[test]
fn ownership_is_in_katagos_order_and_from_the_side_to_moves_view() {
    let mut engine = Engine::start();
    for command in [
        "rectangular_boardsize 3 2",
        "komi 0",
        "play b A1",
        "play b A2",
        "play w C1",
        "play w C2",
    ] {
        engine.ask(command);
    }
    let (_, black) = parse(&engine.analysis("kata-analyze b 0 ownership true"));
    assert_eq!(black.unwrap(), [1.0, 0.0, -1.0, 1.0, 0.0, -1.0]);
    let (_, white) = parse(&engine.analysis("kata-analyze w 0 ownership true"));
    assert_eq!(white.unwrap(), [-1.0, 0.0, 1.0, -1.0, 0.0, 1.0]);
    assert_eq!(
        influence(&mut engine, 2, "ABC"),
        [1.0, 0.0, -1.0, 1.0, 0.0, -1.0]
    );
    // An asymmetric map on 2x4 after Black A2, from White's view: the
    // negation of Black's, point for point in the same order.
    engine.ask("rectangular_boardsize 4 2");
    engine.ask("play b A2");
    let (_, values) = parse(&engine.analysis("kata-analyze w 0 ownership true"));
    let values = values.unwrap();
    assert_eq!(values.len(), 8);
    let black_view = influence(&mut engine, 2, "ABCD");
    let negated: Vec<f64> = black_view.iter().map(|v| -v).collect();
    assert_eq!(values, negated);
}

/// Every move's `scoreLead` is its exact margin at the komi, `scoreMean`
/// the same and `scoreStdev` 0; the best move's lead is the map's margin
/// less the komi, the map being the stones at the end of the principal
/// line played out here over GTP and scored by hand.
#[test]
fn score_lead_is_the_maps_margin_at_the_komi() {
    for (size, komi, moves) in [
        ("boardsize 3", "0.5", &[][..]),
        ("boardsize 4", "0", &[][..]),
        ("rectangular_boardsize 4 2", "2", &["B1"][..]),
        ("rectangular_boardsize 5 2", "0", &["B1", "D2"][..]),
    ] {
        let mut engine = Engine::start();
        engine.ask(size);
        engine.ask(&format!("komi {komi}"));
        let mut colour = "b";
        for mv in moves {
            engine.ask(&format!("play {colour} {mv}"));
            colour = if colour == "b" { "w" } else { "b" };
        }
        let (infos, ownership) =
            parse(&engine.analysis(&format!("kata-analyze {colour} 0 ownership true")));
        for (fields, _) in &infos {
            assert_eq!(fields["scoreMean"], fields["scoreLead"], "{fields:?}");
            assert_eq!(fields["scoreStdev"], "0.0");
        }
        let ownership = ownership.unwrap();
        let margin: f64 = ownership.iter().sum();
        let komi: f64 = komi.parse().unwrap();
        let komi_for_side = if colour == "b" { komi } else { -komi };
        let lead: f64 = infos[0].0["scoreLead"].parse().unwrap();
        if infos[0].0["winrate"] != "0.5" {
            assert_eq!(lead, margin - komi_for_side, "{size} {moves:?}");
        }
        // Play the principal line out and score the stones by hand.
        let pv = engine.ask("smallgo-pv");
        let mut mover = colour;
        for mv in pv.split_whitespace() {
            engine.ask(&format!("play {mover} {mv}"));
            mover = if mover == "b" { "w" } else { "b" };
        }
        let board = engine.ask("showboard");
        let rows: Vec<Vec<char>> = board
            .lines()
            .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
            .map(|l| {
                l.split_whitespace()
                    .skip(1)
                    .filter(|w| matches!(*w, "X" | "O" | "."))
                    .map(|w| w.chars().next().unwrap())
                    .collect()
            })
            .collect();
        let scored = score_by_hand(&rows);
        let side_sign = if colour == "b" { 1.0 } else { -1.0 };
        let from_side: Vec<f64> = scored.iter().map(|&v| v * side_sign).collect();
        assert_eq!(ownership, from_side, "{size} {moves:?}: {board}");
    }
}

/// Area scoring of a diagram (rows from the top, `X`, `O`, `.`): 1 for
/// Black's stones and the empty regions touching only Black, -1 White's,
/// 0 the rest; rows from the top, as KataGo orders ownership.
fn score_by_hand(rows: &[Vec<char>]) -> Vec<f64> {
    let (height, width) = (rows.len(), rows[0].len());
    let mut out = vec![0.0; height * width];
    let mut seen = vec![false; height * width];
    for start in 0..height * width {
        let (r, c) = (start / width, start % width);
        match rows[r][c] {
            'X' => out[start] = 1.0,
            'O' => out[start] = -1.0,
            _ if seen[start] => {}
            _ => {
                let mut region = vec![start];
                let mut stack = vec![start];
                seen[start] = true;
                let (mut black, mut white) = (false, false);
                while let Some(at) = stack.pop() {
                    let (r, c) = (at / width, at % width);
                    let mut around = Vec::new();
                    if r > 0 {
                        around.push(at - width);
                    }
                    if r + 1 < height {
                        around.push(at + width);
                    }
                    if c > 0 {
                        around.push(at - 1);
                    }
                    if c + 1 < width {
                        around.push(at + 1);
                    }
                    for next in around {
                        match rows[next / width][next % width] {
                            'X' => black = true,
                            'O' => white = true,
                            _ if !seen[next] => {
                                seen[next] = true;
                                region.push(next);
                                stack.push(next);
                            }
                            _ => {}
                        }
                    }
                }
                let value = match (black, white) {
                    (true, false) => 1.0,
                    (false, true) => -1.0,
                    _ => 0.0,
                };
                for at in region {
                    out[at] = value;
                }
            }
        }
    }
    out
}

/// `lz-analyze` as Leela Zero writes it: `info move X visits N winrate W
/// prior P lcb L order K pv ...`, winrates and priors whole numbers in
/// 0..10000, the priors adding up to 10000 over the moves that keep the
/// best result, `order 0` the move `genmove` plays; no ownership option.
#[test]
fn lz_analyze_writes_leela_zeros_format() {
    let mut engine = Engine::start();
    engine.ask("boardsize 3");
    engine.ask("komi 0");
    let line = engine.analysis("lz-analyze b 0");
    let (infos, ownership) = parse(&line);
    assert!(ownership.is_none());
    assert_eq!(infos.len(), 10, "nine points and pass: {line}");
    let keys = ["move", "visits", "winrate", "prior", "lcb", "order"];
    let mut priors = 0;
    for (order, (fields, pv)) in infos.iter().enumerate() {
        let mut names: Vec<&String> = fields.keys().collect();
        names.sort();
        let mut expected = keys.to_vec();
        expected.sort();
        assert_eq!(names, expected, "{fields:?}");
        assert_eq!(fields["order"], order.to_string());
        let winrate: u32 = fields["winrate"].parse().unwrap();
        assert!([0, 5000, 10000].contains(&winrate));
        let prior: u32 = fields["prior"].parse().unwrap();
        assert!(prior <= 10000);
        priors += prior;
        assert_eq!(pv[0], fields["move"]);
    }
    assert_eq!(priors, 10000);
    let best = engine.ask("reg_genmove b");
    assert_eq!(infos[0].0["move"], best);
    assert_eq!(infos[0].0["winrate"], "10000");
    let best_moves = engine.ask("smallgo-best-moves b");
    for (fields, _) in &infos {
        let listed = best_moves.split_whitespace().any(|m| m == fields["move"]);
        assert_eq!(fields["prior"] != "0", listed, "{fields:?} {best_moves}");
    }
    assert_eq!(
        engine.ask_raw("lz-analyze b 0 ownership true"),
        "? unsupported lz-analyze option: ownership"
    );
}

/// What Sabaki's GTP library read: `gtp-tests/sabaki/sabaki-ownership.txt`
/// was recorded by `gtp-tests/sabaki/sabaki-ownership.js` with
/// `@sabaki/gtp`'s `Controller` driving smallgo as Sabaki does (the
/// streamed `kata-analyze` lines taken from its subscriber, the stream
/// ended by the next command): each command (`> `), the first analysis
/// line the library handed over (`< `), and how many ownership values the
/// script read from it and the board's size (`# `). The map must have one
/// value per point, and the engine must still write the same lines.
#[test]
fn sabaki_s_gtp_library_reads_the_ownership_map() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("gtp-tests/sabaki/sabaki-ownership.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut engine = Engine::start();
    let mut analysis = None;
    let mut checked = 0;
    for line in text.lines() {
        if let Some(command) = line.strip_prefix("> ") {
            if command.starts_with("kata-analyze") {
                analysis = Some(engine.analysis(&command.replace(" 50 ", " 0 ")));
            } else {
                engine.ask(command);
            }
        } else if let Some(recorded) = line.strip_prefix("< ") {
            assert_eq!(analysis.as_deref(), Some(recorded), "{}", path.display());
        } else if let Some(counts) = line.strip_prefix("# ownership ") {
            let words: Vec<&str> = counts.split_whitespace().collect();
            let (read, width, height): (usize, usize, usize) = (
                words[0].parse().unwrap(),
                words[2].parse().unwrap(),
                words[4].parse().unwrap(),
            );
            assert_eq!(read, width * height, "{line}");
            let (_, values) = parse(analysis.as_deref().unwrap());
            assert_eq!(values.unwrap().len(), read);
            checked += 1;
        }
    }
    assert_eq!(checked, 4, "{}", path.display());
}
