//! SGF, the Smart Game Format (`FF[4]`), as far as a Go game on one
//! rectangular board needs it: reading a file into its main line of nodes
//! and properties, reading that line as a game record (board size, komi,
//! setup stones, the player to move, moves, and the root's game information
//! and comment), and writing a record back.
//!
//! SGF has no word for a circular board (`SZ` gives only the size), so
//! smallgo writes one in a property of its own in the root node,
//! `TOPOLOGY[circular]`, and reads it back; a file without it is a plain
//! board, as every other program's file is. GoGui and Sabaki keep root
//! properties they do not know when they save a file, so a circular game
//! goes through them and back.
//!
//! Reading is lenient where real files differ (`FF[3]` `tt` passes, white
//! space anywhere between tokens, lower-case letters in property names as
//! old files have them) and strict where the game would change: a point off
//! the board, setup after the first move, or a malformed value is an error
//! that names the node. A value an error shows is quoted, its control
//! characters and line breaks escaped (`KM "1\n\n= 5" is not a number`),
//! so that a message is one line whatever the file holds. A file may have
//! at most `MAX_FILE_BYTES` bytes, `MAX_NODES` nodes and `MAX_VALUES`
//! property values (variations included), which bounds the memory a
//! hostile file takes.

use std::fmt;

use crate::rules::board::{Board, Point, PointSet, Topology};
use crate::rules::colour::Colour;
use crate::rules::moves::Move;

/// A property: its name and values, unescaped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    pub name: String,
    pub values: Vec<String>,
}

/// A node: its properties in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    pub properties: Vec<Property>,
}

impl Node {
    /// The values of property `name`, if the node has it.
    pub fn get(&self, name: &str) -> Option<&[String]> {
        self.properties
            .iter()
            .find(|p| p.name == name)
            .map(|p| p.values.as_slice())
    }
}

/// What is wrong with SGF text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfError {
    /// The line (from 1) where the fault was found, for syntax errors.
    pub line: Option<usize>,
    pub what: String,
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.what),
            None => f.write_str(&self.what),
        }
    }
}

/// The most bytes an SGF file may have; callers refuse larger files
/// before reading them.
pub const MAX_FILE_BYTES: u64 = 4 << 20;
/// The most nodes a game tree may have, variations included.
pub const MAX_NODES: usize = 100_000;
/// The most property values a game tree may have, variations included.
pub const MAX_VALUES: usize = 200_000;

/// `text` as an error message shows a value from a file: in double quotes,
/// with quotes, backslashes, line breaks and other control characters
/// escaped as Rust writes them (`"a\nb"`).
pub fn quoted(text: &str) -> String {
    format!("\"{}\"", text.escape_debug())
}

fn record_error(what: impl Into<String>) -> SgfError {
    SgfError {
        line: None,
        what: what.into(),
    }
}

/// Reads the first game of an SGF collection and returns its main line: at
/// each branch, the first variation. The whole game tree must be well
/// formed, variations included.
pub fn main_line(text: &str) -> Result<Vec<Node>, SgfError> {
    let mut reader = Reader {
        bytes: text.as_bytes(),
        at: 0,
        nodes: 0,
        values: 0,
    };
    reader.skip_space();
    // Anything before the first '(' is ignored, as the standard allows.
    while reader.peek().is_some_and(|b| b != b'(') {
        reader.at += 1;
    }
    if reader.peek().is_none() {
        return Err(reader.error("no game: '(' expected"));
    }
    let mut line = Vec::new();
    reader.game_tree(&mut line)?;
    Ok(line)
}

/// A cursor over SGF bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Nodes and values read so far, against `MAX_NODES` and `MAX_VALUES`.
    nodes: usize,
    values: usize,
}

/// How deep variations may nest: a bound on recursion for hostile files.
const MAX_DEPTH: usize = 10_000;

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn error(&self, what: impl Into<String>) -> SgfError {
        let end = self.at.min(self.bytes.len());
        let line = 1 + self.bytes[..end].iter().filter(|&&b| b == b'\n').count();
        SgfError {
            line: Some(line),
            what: what.into(),
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), SgfError> {
        self.skip_space();
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(format!("'{}' expected", byte as char)))
        }
    }

    /// `( Sequence GameTree* )`, nested trees read with a stack of the open
    /// ones rather than recursion. The nodes of the main line (the first
    /// variation at each branch) go to `line`.
    fn game_tree(&mut self, line: &mut Vec<Node>) -> Result<(), SgfError> {
        /// An open tree: whether it is on the main line, and how many
        /// variations it has had.
        struct Open {
            main: bool,
            variations: usize,
        }
        self.expect(b'(')?;
        let mut open = vec![Open {
            main: true,
            variations: 0,
        }];
        loop {
            // The sequence of the tree just opened.
            self.skip_space();
            if self.peek() != Some(b';') {
                return Err(self.error("a game tree must start with a node (';')"));
            }
            let main = open.last().is_some_and(|o| o.main);
            while {
                self.skip_space();
                self.peek() == Some(b';')
            } {
                self.at += 1;
                self.nodes += 1;
                if self.nodes > MAX_NODES {
                    return Err(self.error(format!("more than {MAX_NODES} nodes")));
                }
                let node = self.node()?;
                if main {
                    line.push(node);
                }
            }
            // Its variations, then its end, and the ends of those it closes.
            loop {
                self.skip_space();
                match self.peek() {
                    Some(b'(') => {
                        self.at += 1;
                        if open.len() >= MAX_DEPTH {
                            return Err(self.error("variations nest too deeply"));
                        }
                        let parent = open.last_mut().expect("a tree is open");
                        let main = parent.main && parent.variations == 0;
                        parent.variations += 1;
                        open.push(Open {
                            main,
                            variations: 0,
                        });
                        break;
                    }
                    Some(b')') => {
                        self.at += 1;
                        open.pop();
                        if open.is_empty() {
                            return Ok(());
                        }
                    }
                    _ => return Err(self.error("')' expected")),
                }
            }
        }
    }

    /// The properties of a node, after its ';'.
    fn node(&mut self) -> Result<Node, SgfError> {
        let mut node = Node::default();
        loop {
            self.skip_space();
            let start = self.at;
            while self.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
                self.at += 1;
            }
            if self.at == start {
                return Ok(node);
            }
            // FF[3] allowed lower-case letters around the upper-case name.
            let name: String = self.bytes[start..self.at]
                .iter()
                .filter(|b| b.is_ascii_uppercase())
                .map(|&b| b as char)
                .collect();
            if name.is_empty() {
                return Err(self.error("a property name needs an upper-case letter"));
            }
            let mut values = Vec::new();
            loop {
                self.skip_space();
                if self.peek() != Some(b'[') {
                    break;
                }
                self.at += 1;
                self.values += 1;
                if self.values > MAX_VALUES {
                    return Err(self.error(format!("more than {MAX_VALUES} property values")));
                }
                values.push(self.value()?);
            }
            if values.is_empty() {
                return Err(self.error(format!("property {name} has no value")));
            }
            node.properties.push(Property { name, values });
        }
    }

    /// A value after its '[', up to the closing ']', with escapes removed.
    /// A value left open is reported at the line where it starts.
    fn value(&mut self) -> Result<String, SgfError> {
        let start = self.at;
        let unclosed = |reader: &mut Self| {
            reader.at = start;
            reader.error("a value is not closed (']' expected)")
        };
        let mut out = Vec::new();
        loop {
            match self.peek() {
                None => return Err(unclosed(self)),
                Some(b']') => {
                    self.at += 1;
                    return String::from_utf8(out).map_err(|_| self.error("a value is not UTF-8"));
                }
                Some(b'\\') => {
                    self.at += 1;
                    match self.peek() {
                        None => return Err(unclosed(self)),
                        // A soft line break.
                        Some(b'\n') => self.at += 1,
                        Some(b) => {
                            out.push(b);
                            self.at += 1;
                        }
                    }
                }
                Some(b) => {
                    out.push(b);
                    self.at += 1;
                }
            }
        }
    }
}

/// A step of a game record, in file order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A move, with its node's number in the main line (the root is 0).
    Move {
        colour: Colour,
        mv: Move,
        node: usize,
    },
    /// `PL`: who is to play next.
    Player(Colour),
}

/// A game as an SGF main line records it.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub board: Board,
    /// `KM`, if given, as written (trimmed); a finite number.
    pub komi: Option<String>,
    /// Setup stones (`AB`, `AW`, less `AE`) before the first move.
    pub black: PointSet,
    pub white: PointSet,
    pub steps: Vec<Step>,
    /// `RE`, if given.
    pub result: Option<String>,
    /// The root's game information (`GAME_INFO`: players, result, date,
    /// name, ...), in file order.
    pub info: Vec<Property>,
    /// The root's comment (`C`), if given.
    pub comment: Option<String>,
}

/// The game-information properties of SGF `FF[4]` (less `KM`, which a
/// record reads as its komi), and Go's `HA`: what a program that rewrites
/// a game keeps of its root.
pub const GAME_INFO: [&str; 22] = [
    "AN", "BR", "BT", "CP", "DT", "EV", "GC", "GN", "HA", "ON", "OT", "PB", "PC", "PW", "RE", "RO",
    "RU", "SO", "TM", "US", "WR", "WT",
];

/// The root property that names the board's topology, smallgo's own:
/// `TOPOLOGY[circular]`, or `TOPOLOGY[plain]` (the same as none).
pub const TOPOLOGY: &str = "TOPOLOGY";

/// The board `SZ` gives: `SZ[n]` square, `SZ[columns:rows]`; 19 without it;
/// circular if `TOPOLOGY` says so.
fn board_of(root: &Node) -> Result<Board, SgfError> {
    let (columns, rows) = match root.get("SZ") {
        None => (19, 19),
        Some(values) => {
            let text = values[0].trim();
            let parse = |t: &str| {
                t.trim()
                    .parse::<usize>()
                    .map_err(|_| record_error(format!("SZ {} is not a board size", quoted(text))))
            };
            match text.split_once(':') {
                Some((columns, rows)) => (parse(columns)?, parse(rows)?),
                None => {
                    let n = parse(text)?;
                    (n, n)
                }
            }
        }
    };
    let topology = match root.get(TOPOLOGY).map(|values| values[0].trim()) {
        None | Some("plain") => Topology::Plain,
        Some("circular") => Topology::Circular,
        Some(other) => {
            return Err(record_error(format!(
                "{TOPOLOGY} {} is not a topology: plain or circular",
                quoted(other)
            )))
        }
    };
    Board::with_topology(rows, columns, topology)
        .map_err(|error| record_error(format!("SZ: {error}")))
}

/// An SGF point (`ca`: column c, row a from the top) on `board`; `None`
/// for a pass (empty, or `tt` on boards up to 19x19).
fn point_of(board: &Board, text: &str, node: usize) -> Result<Option<Point>, SgfError> {
    let text = text.trim();
    if text.is_empty() || (text == "tt" && board.rows() <= 19 && board.columns() <= 19) {
        return Ok(None);
    }
    let bytes = text.as_bytes();
    let coordinate = |b: u8| match b {
        b'a'..=b'z' => Some((b - b'a') as usize),
        b'A'..=b'Z' => Some((b - b'A') as usize + 26),
        _ => None,
    };
    match (
        bytes.len(),
        bytes.first().and_then(|&b| coordinate(b)),
        bytes.get(1).and_then(|&b| coordinate(b)),
    ) {
        (2, Some(x), Some(y)) if x < board.columns() && y < board.rows() => {
            match board.point_at(board.rows() - 1 - y, x) {
                Some(point) => Ok(Some(point)),
                None => Err(record_error(format!(
                    "node {node}: {} is not a point of the {} board",
                    quoted(text),
                    board.name()
                ))),
            }
        }
        _ => Err(record_error(format!(
            "node {node}: {} is not a point of the {} board",
            quoted(text),
            board.name()
        ))),
    }
}

/// The points of a setup property: single points and `ab:cd` rectangles.
fn points_of(board: &Board, values: &[String], node: usize) -> Result<PointSet, SgfError> {
    let mut set = PointSet::EMPTY;
    for value in values {
        let (first, last) = value.split_once(':').unwrap_or((value, value));
        let (Some(a), Some(b)) = (point_of(board, first, node)?, point_of(board, last, node)?)
        else {
            return Err(record_error(format!(
                "node {node}: {} is not a point",
                quoted(value)
            )));
        };
        let rows = board.row(a).min(board.row(b))..=board.row(a).max(board.row(b));
        let columns = board.column(a).min(board.column(b))..=board.column(a).max(board.column(b));
        for row in rows {
            for column in columns.clone() {
                // A rectangle of a shape's grid takes the points in it.
                if let Some(point) = board.point_at(row, column) {
                    set.insert(point);
                }
            }
        }
    }
    Ok(set)
}

impl Record {
    /// The moves in order: colour, move, and the node's number.
    pub fn moves(&self) -> impl Iterator<Item = (Colour, Move, usize)> + '_ {
        self.steps.iter().filter_map(|step| match *step {
            Step::Move { colour, mv, node } => Some((colour, mv, node)),
            Step::Player(_) => None,
        })
    }

    /// Who plays first: the last `PL` before the first move, else the first
    /// move's colour, else Black.
    pub fn first_to_play(&self) -> Colour {
        let player = self
            .steps
            .iter()
            .map_while(|step| match *step {
                Step::Player(colour) => Some(colour),
                Step::Move { .. } => None,
            })
            .last();
        player
            .or(self.moves().next().map(|(colour, _, _)| colour))
            .unwrap_or(Colour::Black)
    }
}

/// Reads a main line as a Go game record.
pub fn record(line: &[Node]) -> Result<Record, SgfError> {
    let Some(root) = line.first() else {
        return Err(record_error("the game has no node"));
    };
    if let Some(game) = root.get("GM") {
        if game[0].trim() != "1" {
            return Err(record_error(format!(
                "GM {} is not Go (GM[1])",
                quoted(&game[0])
            )));
        }
    }
    let board = board_of(root)?;
    let komi = match root.get("KM") {
        None => None,
        Some(values) => match values[0].trim().parse::<f64>() {
            Ok(komi) if komi.is_finite() => Some(values[0].trim().to_string()),
            _ => {
                return Err(record_error(format!(
                    "KM {} is not a number",
                    quoted(&values[0])
                )))
            }
        },
    };
    let mut record = Record {
        board,
        komi,
        black: PointSet::EMPTY,
        white: PointSet::EMPTY,
        steps: Vec::new(),
        result: root.get("RE").map(|values| values[0].clone()),
        info: root
            .properties
            .iter()
            .filter(|p| GAME_INFO.contains(&p.name.as_str()))
            .cloned()
            .collect(),
        comment: root.get("C").map(|values| values[0].clone()),
    };
    let mut moved = false;
    for (number, node) in line.iter().enumerate() {
        for property in &node.properties {
            let name = property.name.as_str();
            match name {
                "AB" | "AW" | "AE" => {
                    if moved {
                        return Err(record_error(format!(
                            "node {number}: setup stones ({name}) after the first move are not supported"
                        )));
                    }
                    let points = points_of(&board, &property.values, number)?;
                    for point in points.iter() {
                        record.black.remove(point);
                        record.white.remove(point);
                        match name {
                            "AB" => record.black.insert(point),
                            "AW" => record.white.insert(point),
                            _ => {}
                        }
                    }
                }
                "B" | "W" => {
                    let colour = if name == "B" {
                        Colour::Black
                    } else {
                        Colour::White
                    };
                    let mv = match point_of(&board, &property.values[0], number)? {
                        Some(point) => Move::Place(point),
                        None => Move::Pass,
                    };
                    record.steps.push(Step::Move {
                        colour,
                        mv,
                        node: number,
                    });
                    moved = true;
                }
                "PL" => {
                    let value = property.values[0].trim();
                    let colour = match value {
                        "B" | "b" | "1" => Colour::Black,
                        "W" | "w" | "2" => Colour::White,
                        _ => {
                            return Err(record_error(format!(
                                "node {number}: PL {} is neither B nor W",
                                quoted(value)
                            )))
                        }
                    };
                    record.steps.push(Step::Player(colour));
                }
                _ => {}
            }
        }
    }
    Ok(record)
}

/// Escapes text for an SGF value.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The SGF name of a point of `board`.
pub fn point_text(board: &Board, point: Point) -> String {
    let letter = |i: usize| {
        (if i < 26 {
            b'a' + i as u8
        } else {
            b'A' + (i - 26) as u8
        }) as char
    };
    format!(
        "{}{}",
        letter(board.column(point)),
        letter(board.rows() - 1 - board.row(point))
    )
}

/// The SGF value of a move: a point, or empty for a pass.
pub fn move_text(board: &Board, mv: Move) -> String {
    match mv {
        Move::Place(point) => point_text(board, point),
        Move::Pass => String::new(),
    }
}

/// `SZ` for `board`: `n` when square, else `columns:rows`.
pub fn size_text(board: &Board) -> String {
    if board.rows() == board.columns() {
        board.rows().to_string()
    } else {
        format!("{}:{}", board.columns(), board.rows())
    }
}

/// The root property that marks a circular board, `TOPOLOGY[circular]`;
/// empty for a plain board, whose files stay as every program writes them.
pub fn topology_text(board: &Board) -> String {
    match board.topology() {
        Topology::Plain => String::new(),
        Topology::Circular => format!("{TOPOLOGY}[circular]"),
        Topology::Shape => format!("{TOPOLOGY}[shape]"),
    }
}

/// The setup properties of stones `black` and `white`: `AB[..]..AW[..]..`,
/// empty when there are none.
pub fn setup_text(board: &Board, black: PointSet, white: PointSet) -> String {
    let list = |name: &str, set: PointSet| -> String {
        if set.is_empty() {
            return String::new();
        }
        let points: String = set
            .iter()
            .map(|p| format!("[{}]", point_text(board, p)))
            .collect();
        format!("{name}{points}")
    };
    list("AB", black) + &list("AW", white)
}

/// Writes a game: the root (`extra` adds properties to it, already
/// formatted), setup stones, `PL` when the player to move at the start is
/// not the one a reader would take without it (the first move's colour, or
/// Black) or when White is to play after setup stones, then the moves.
pub fn write_game(
    board: &Board,
    komi: &str,
    black: PointSet,
    white: PointSet,
    to_move: Colour,
    moves: &[(Colour, Move)],
    extra: &str,
) -> String {
    let mut out = format!(
        "(;FF[4]CA[UTF-8]GM[1]AP[smallgo:{}]SZ[{}]{}KM[{}]RU[{}]{extra}",
        env!("CARGO_PKG_VERSION"),
        size_text(board),
        topology_text(board),
        escape(komi),
        escape(crate::table::format::RULES),
    );
    out.push_str(&setup_text(board, black, white));
    // What a reader takes without PL (`Record::first_to_play`); a position
    // set up for White to play says so, as other programs write it.
    let read_back = moves.first().map_or(Colour::Black, |&(colour, _)| colour);
    let set_up = !black.is_empty() || !white.is_empty();
    if to_move != read_back || (set_up && to_move != Colour::Black) {
        out.push_str(&format!("PL[{}]", to_move.letter()));
    }
    for (i, &(colour, mv)) in moves.iter().enumerate() {
        out.push_str(if i % 8 == 0 { "\n;" } else { ";" });
        out.push_str(&format!("{}[{}]", colour.letter(), move_text(board, mv)));
    }
    out.push_str(")\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_main_line_takes_the_first_variation_and_reads_escapes() {
        let text = "junk (;GM[1]FF[4]SZ[3]C[a \\] b\\\\]\n(;B[bb];W[aa](;B[cc])(;B[tt]))(;B[aa]))";
        let line = main_line(text).unwrap();
        let moves: Vec<&str> = line
            .iter()
            .filter_map(|n| n.get("B").or(n.get("W")))
            .map(|v| v[0].as_str())
            .collect();
        assert_eq!(moves, ["bb", "aa", "cc"]);
        assert_eq!(line[0].get("C").unwrap()[0], "a ] b\\");
    }

    #[test]
    fn malformed_text_is_refused_with_a_line() {
        for (text, line) in [
            ("(;B[aa]", 1),
            ("(;B[aa)", 1),
            ("(B[aa])", 1),
            ("\n\n(;B[aa];W)", 3),
            ("(;SZ[3]\n;B[aa](;W[bb])(W[cc]))", 2),
            ("", 1),
        ] {
            let error = main_line(text).unwrap_err();
            assert_eq!(error.line, Some(line), "{text:?}: {error}");
        }
    }

    #[test]
    fn trees_are_bounded_in_nodes_and_values() {
        let nodes = format!("(;{})", ";".repeat(MAX_NODES));
        let error = main_line(&nodes).unwrap_err().to_string();
        assert!(error.contains("nodes"), "{error}");
        main_line(&format!("(;{})", ";".repeat(MAX_NODES - 1))).unwrap();
        let values = format!("(;C{})", "[]".repeat(MAX_VALUES + 1));
        let error = main_line(&values).unwrap_err().to_string();
        assert!(error.contains("values"), "{error}");
        main_line(&format!("(;C{})", "[]".repeat(MAX_VALUES))).unwrap();
    }

    /// The player to move at the start reads back, with or without moves
    /// and setup stones.
    #[test]
    fn the_player_to_move_reads_back() {
        let board: Board = "3x3".parse().unwrap();
        let a1 = Move::Place(board.parse_point("A1").unwrap());
        for (to_move, moves) in [
            (Colour::White, vec![]),
            (Colour::Black, vec![]),
            (Colour::Black, vec![(Colour::White, a1)]),
            (Colour::White, vec![(Colour::Black, a1)]),
            (Colour::White, vec![(Colour::White, a1)]),
        ] {
            let text = write_game(
                &board,
                "0",
                PointSet::EMPTY,
                PointSet::EMPTY,
                to_move,
                &moves,
                "",
            );
            let record = record(&main_line(&text).unwrap()).unwrap();
            assert_eq!(record.first_to_play(), to_move, "{text}");
        }
    }

    #[test]
    fn shown_values_are_one_quoted_line() {
        assert_eq!(quoted("1\n\n= 5"), "\"1\\n\\n= 5\"");
        assert_eq!(quoted("a\r\u{7}\"b"), "\"a\\r\\u{7}\\\"b\"");
    }

    #[test]
    fn records_read_size_komi_setup_and_moves() {
        let line =
            main_line("(;GM[1]SZ[4:2]KM[0.5]AB[aa:bb]AE[ab]AW[da]PL[W];W[ca];B[];W[tt])").unwrap();
        let record = record(&line).unwrap();
        let board = record.board;
        assert_eq!((board.rows(), board.columns()), (2, 4));
        assert_eq!(record.komi.as_deref(), Some("0.5"));
        let names =
            |set: PointSet| -> Vec<String> { set.iter().map(|p| board.point_name(p)).collect() };
        // aa is the top left: A2; ab is A1, removed again by AE.
        assert_eq!(names(record.black), ["B1", "A2", "B2"]);
        assert_eq!(names(record.white), ["D2"]);
        assert_eq!(record.steps[0], Step::Player(Colour::White));
        assert_eq!(record.steps.len(), 4);
        assert!(matches!(
            record.steps[3],
            Step::Move {
                mv: Move::Pass,
                node: 3,
                ..
            }
        ));
    }

    #[test]
    fn records_refuse_what_would_change_the_game() {
        for (text, what) in [
            ("(;SZ[3];B[dd])", "not a point"),
            ("(;SZ[3];B[aa];AB[bb])", "after the first move"),
            ("(;SZ[x])", "not a board size"),
            ("(;SZ[3]KM[lots])", "not a number"),
            ("(;GM[2])", "not Go"),
            ("(;SZ[3]PL[X])", "neither B nor W"),
            ("(;SZ[3]TOPOLOGY[torus])", "not a topology"),
        ] {
            let error = record(&main_line(text).unwrap()).unwrap_err().to_string();
            assert!(error.contains(what), "{text}: {error}");
        }
    }

    /// `TOPOLOGY` makes the board circular; without it (or with
    /// `TOPOLOGY[plain]`) it is plain.
    #[test]
    fn records_read_the_topology() {
        let board = |text: &str| record(&main_line(text).unwrap()).unwrap().board;
        assert_eq!(board("(;SZ[7:2])"), "2x7".parse().unwrap());
        assert_eq!(board("(;SZ[7:2]TOPOLOGY[plain])"), "2x7".parse().unwrap());
        assert_eq!(
            board("(;SZ[7:2]TOPOLOGY[circular])"),
            "2x7c".parse().unwrap()
        );
        assert_eq!(board("(;TOPOLOGY[circular]SZ[3])"), "3x3c".parse().unwrap());
        assert_eq!(topology_text(&"2x7".parse().unwrap()), "");
        assert_eq!(
            topology_text(&"2x7c".parse().unwrap()),
            "TOPOLOGY[circular]"
        );
    }

    #[test]
    fn written_games_read_back() {
        for name in ["2x3", "2x3c"] {
            written_game_reads_back(name.parse().unwrap());
        }
    }

    fn written_game_reads_back(board: Board) {
        let p = |name: &str| board.parse_point(name).unwrap();
        let mut black = PointSet::EMPTY;
        black.insert(p("A1"));
        let moves = [
            (Colour::White, Move::Place(p("C2"))),
            (Colour::Black, Move::Pass),
        ];
        let text = write_game(
            &board,
            "-2.5",
            black,
            PointSet::EMPTY,
            Colour::White,
            &moves,
            "RE[W+1]",
        );
        let record = record(&main_line(&text).unwrap()).unwrap();
        assert_eq!(record.board, board);
        assert_eq!(record.komi.as_deref(), Some("-2.5"));
        assert_eq!(record.black, black);
        assert_eq!(record.result.as_deref(), Some("W+1"));
        let read: Vec<(Colour, Move)> = record
            .steps
            .iter()
            .filter_map(|s| match *s {
                Step::Move { colour, mv, .. } => Some((colour, mv)),
                Step::Player(_) => None,
            })
            .collect();
        assert_eq!(read, moves);
    }
}
