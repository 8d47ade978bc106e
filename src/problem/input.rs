//! Problems as players write them: an SGF file of a problem collection or
//! a diagram of a whole board, read into a `Setup` (the whole board, up to
//! 25x25, with its stones and marks), then located (`locate`): the region
//! the problem is played in, given or inferred, its target stones, given
//! or inferred, and the `Problem` on a board of the region's shape, with
//! the map from each of its points to the whole board's point (`Vertex`),
//! so that what is shown, written or played speaks the whole board's
//! coordinates.
//!
//! The rules of the region and the targets are those of
//! docs/life-and-death.md, in short:
//! - **Region given**: SGF `SQ` on the root, or `--region` (points and
//!   rectangles `A1-E5` of the whole board). A string with a stone given is
//!   in the region whole; so is a string that touches a given empty point
//!   and has no liberty off the given points. Other strings are safe.
//! - **Region inferred**: the frame is `VW` (if the root has it) or the
//!   smallest rectangle around every stone, taken to the board's edge on
//!   a side within `FRAME_TO_EDGE` lines of it (and nearer it than the
//!   opposite side is to its own edge). An empty point is open when its
//!   empty area (orthogonally connected empty points of the whole board)
//!   reaches a point outside the frame, enclosed otherwise. A string is in
//!   the region when every liberty it has is enclosed; the region is those
//!   strings and the enclosed areas that touch one of them. When nothing is
//!   enclosed, or the enclosed region leaves out a string of the attacked
//!   colour that has no liberty outside the frame (a pocket beside the
//!   problem), the frame's sides close the problem: the region is every
//!   string with no liberty outside the frame, with the frame's empty
//!   points each reaches. Other strings are safe.
//! - **Safe stones** beside the region are taken onto the problem's board
//!   as points with an open side (`Problem::safe`): never captured, no
//!   liberty to the other colour, and joined by a stone of their colour
//!   played beside them, as a living wall is in a tsumego.
//! - **Targets given**: `--targets`, else `MA` and `TR` on the root: stones
//!   of one colour in the region.
//! - **Targets inferred**: the attacker is the colour of the safe stones
//!   that touch the region, when they are all of one colour; else a root
//!   comment saying `Black to kill`, `White to live`, `Black to play and
//!   kill` and the like; else, for a region the frame's sides closed, the
//!   colour with more stones on the frame's sides that face the open board. The
//!   targets are then every stone of the other colour in the region.
//!
//! The problem is the root node's position: moves and setup in later nodes
//! (a solution tree, as collections ship them) are not read. Faults are
//! `InputError`s naming the property, option or point (in the whole
//! board's coordinates) at fault; the SGF reader's limits
//! (`sgf::MAX_FILE_BYTES`, `MAX_NODES`, `MAX_VALUES`) apply.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::problem::{KoAssumption, Problem};
use crate::rules::board::{Board, Point, PointSet, MAX_POINTS, MAX_SIDE};
use crate::rules::colour::Colour;
use crate::rules::moves::Move;
use crate::sgf;

/// A point of the whole board: its column (0 is `A`) and its row counted
/// from the bottom (0 is row 1), as GTP names points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Vertex {
    pub(crate) column: usize,
    pub(crate) row: usize,
}

impl Vertex {
    pub(crate) fn new(column: usize, row: usize) -> Vertex {
        Vertex { column, row }
    }

    /// The GTP name: the column's letter (`I` skipped) and the row's
    /// number, `C3`, `Q16`.
    pub(crate) fn name(self) -> String {
        format!("{}{}", Board::column_letter(self.column), self.row + 1)
    }

    /// The SGF name on a board of `rows` rows: column, then row from the
    /// top, one letter each (`cq`).
    pub(crate) fn sgf(self, rows: usize) -> String {
        let letter = |i: usize| (b'a' + i as u8) as char;
        format!("{}{}", letter(self.column), letter(rows - 1 - self.row))
    }
}

/// Why a problem cannot be read or located.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum InputError {
    /// The file cannot be read, or is larger than `sgf::MAX_FILE_BYTES`.
    Read { path: PathBuf, what: String },
    /// A fault in the file at `path`.
    InFile {
        path: PathBuf,
        error: Box<InputError>,
    },
    /// The text is no SGF, or passes the reader's limits.
    Sgf(sgf::SgfError),
    /// A property of the root has a value that cannot be used.
    Property {
        property: String,
        value: String,
        what: String,
    },
    /// A command-line option has a value that cannot be used.
    Option {
        option: String,
        value: String,
        what: String,
    },
    /// A diagram cannot be read.
    Diagram(String),
    /// A point (whole-board name) makes the problem impossible.
    Point { point: String, what: String },
    /// The region cannot be found, or is too large.
    Region(String),
    /// The targets cannot be found.
    Targets(String),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Read { path, what } => {
                write!(f, "cannot read {}: {what}", path.display())
            }
            InputError::InFile { path, error } => write!(f, "{}: {error}", path.display()),
            InputError::Sgf(error) => write!(f, "not a readable SGF file: {error}"),
            InputError::Property {
                property,
                value,
                what,
            } => write!(f, "{property} {}: {what}", sgf::quoted(value)),
            InputError::Option {
                option,
                value,
                what,
            } => write!(f, "{option} {}: {what}", sgf::quoted(value)),
            InputError::Diagram(what) => write!(f, "diagram: {what}"),
            InputError::Point { point, what } => write!(f, "{point}: {what}"),
            InputError::Region(what) => write!(f, "region: {what}"),
            InputError::Targets(what) => write!(f, "targets: {what}"),
        }
    }
}

impl std::error::Error for InputError {}

/// A whole board as a problem file sets it up: its size, stones and the
/// root's marks, player and comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Setup {
    pub(crate) rows: usize,
    pub(crate) columns: usize,
    /// The stone on each point, row by row from the bottom.
    cells: Vec<Option<Colour>>,
    /// `PL`, if given.
    pub(crate) player: Option<Colour>,
    /// The root's comment (`C`), if given.
    pub(crate) comment: Option<String>,
    /// `SQ`: the region, given.
    pub(crate) region_marks: Vec<Vertex>,
    /// `VW`: the frame the region is inferred in.
    pub(crate) view: Vec<Vertex>,
    /// `MA` and `TR`: the targets, given.
    pub(crate) target_marks: Vec<Vertex>,
    /// The root's game information (`GN`, `SO`, ...), kept for files
    /// written from the problem.
    pub(crate) info: Vec<sgf::Property>,
}

impl Setup {
    /// An empty board of `rows` x `columns` (each 1 to 25).
    pub(crate) fn empty(rows: usize, columns: usize) -> Setup {
        Setup {
            rows,
            columns,
            cells: vec![None; rows * columns],
            player: None,
            comment: None,
            region_marks: Vec::new(),
            view: Vec::new(),
            target_marks: Vec::new(),
            info: Vec::new(),
        }
    }

    fn index(&self, vertex: Vertex) -> usize {
        vertex.row * self.columns + vertex.column
    }

    fn vertex_of(&self, index: usize) -> Vertex {
        Vertex::new(index % self.columns, index / self.columns)
    }

    /// Whether `vertex` is on the board.
    pub(crate) fn contains(&self, vertex: Vertex) -> bool {
        vertex.row < self.rows && vertex.column < self.columns
    }

    /// The stone on `vertex`, if any (`None` off the board too).
    pub(crate) fn stone(&self, vertex: Vertex) -> Option<Colour> {
        if self.contains(vertex) {
            self.cells[self.index(vertex)]
        } else {
            None
        }
    }

    /// Puts a stone (or nothing) on `vertex`, which is on the board.
    pub(crate) fn set(&mut self, vertex: Vertex, stone: Option<Colour>) {
        let index = self.index(vertex);
        self.cells[index] = stone;
    }

    /// Every point of the board with a stone of `colour`, in row order
    /// from the bottom.
    pub(crate) fn stones(&self, colour: Colour) -> Vec<Vertex> {
        (0..self.cells.len())
            .filter(|&i| self.cells[i] == Some(colour))
            .map(|i| self.vertex_of(i))
            .collect()
    }

    /// Reads a GTP vertex of this board (`c3`, `Q16`); `None` if it names
    /// no point of it.
    pub(crate) fn parse_vertex(&self, text: &str) -> Option<Vertex> {
        let text = text.trim();
        let mut chars = text.chars();
        let letter = chars.next()?.to_ascii_uppercase();
        let column = (0..MAX_SIDE).find(|&c| Board::column_letter(c) == letter)?;
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let row = digits.parse::<usize>().ok()?.checked_sub(1)?;
        let vertex = Vertex::new(column, row);
        self.contains(vertex).then_some(vertex)
    }

    /// Whether the root marks a problem: a region (`SQ`) or targets (`MA`,
    /// `TR`) given.
    pub(crate) fn has_problem_marks(&self) -> bool {
        !self.region_marks.is_empty() || !self.target_marks.is_empty()
    }

    /// The neighbours of `index` on the board.
    fn neighbours(&self, index: usize) -> impl Iterator<Item = usize> {
        let (columns, rows) = (self.columns, self.rows);
        let (column, row) = (index % columns, index / columns);
        let mut around = [None; 4];
        if column > 0 {
            around[0] = Some(index - 1);
        }
        if column + 1 < columns {
            around[1] = Some(index + 1);
        }
        if row > 0 {
            around[2] = Some(index - columns);
        }
        if row + 1 < rows {
            around[3] = Some(index + columns);
        }
        around.into_iter().flatten()
    }

    /// The orthogonally connected points from `start` whose cell is the
    /// same as `start`'s (a string, or an empty area).
    fn flood(&self, start: usize) -> Vec<usize> {
        self.flood_within(start, |_| true)
    }

    /// `flood` through the points `within` accepts only.
    fn flood_within(&self, start: usize, within: impl Fn(usize) -> bool) -> Vec<usize> {
        let kind = self.cells[start];
        let mut seen = vec![false; self.cells.len()];
        seen[start] = true;
        let mut found = vec![start];
        let mut next = 0;
        while next < found.len() {
            let at = found[next];
            next += 1;
            for n in self.neighbours(at) {
                if !seen[n] && self.cells[n] == kind && within(n) {
                    seen[n] = true;
                    found.push(n);
                }
            }
        }
        found
    }

    /// The strings of the board, each with its stones and liberties.
    fn strings(&self) -> Vec<StringOf> {
        let mut done = vec![false; self.cells.len()];
        let mut strings = Vec::new();
        for start in 0..self.cells.len() {
            if self.cells[start].is_none() || done[start] {
                continue;
            }
            let stones = self.flood(start);
            let mut liberties: Vec<usize> = stones
                .iter()
                .flat_map(|&s| self.neighbours(s))
                .filter(|&n| self.cells[n].is_none())
                .collect();
            liberties.sort_unstable();
            liberties.dedup();
            for &s in &stones {
                done[s] = true;
            }
            strings.push(StringOf { stones, liberties });
        }
        strings
    }
}

/// A string of the whole board.
struct StringOf {
    stones: Vec<usize>,
    liberties: Vec<usize>,
}

/// What the command line adds to a problem file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct InputOptions {
    /// `--region`: points and rectangles of the whole board, separated by
    /// commas or spaces (`A1-E5,F1`); replaces `SQ` and the inference.
    pub(crate) region: Option<String>,
    /// `--targets`: points of the whole board; replaces `MA` and `TR` and
    /// the inference.
    pub(crate) targets: Option<String>,
    /// The player to move; replaces `PL` (default: Black).
    pub(crate) player: Option<Colour>,
}

/// How the region was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RegionSource {
    /// `--region`.
    Option,
    /// `SQ` on the root.
    Marked,
    /// Inferred, in this frame (lower left and upper right corners), from
    /// `VW` if `view` or else the stones; `closed` when the frame's sides
    /// closed the region (nothing enclosed, or only a pocket beside the
    /// problem).
    Inferred {
        frame: (Vertex, Vertex),
        view: bool,
        closed: bool,
    },
}

/// How the targets were found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TargetSource {
    /// `--targets`.
    Option,
    /// `MA` or `TR` on the root.
    Marked,
    /// Inferred: the safe stones around the region are all the
    /// attacker's.
    Walls,
    /// Inferred from the root comment, which says who kills or lives.
    Comment,
    /// Inferred: the region holds stones of one colour only, the only
    /// stones that can be targets (the walls and the comment told
    /// nothing).
    RegionStones,
    /// Inferred: most stones on the frame's sides that face the open
    /// board are the attacker's (the walls and the comment told nothing).
    OpenSides,
}

/// A problem on a region of a whole board (see the module's paragraph).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RegionProblem {
    setup: Setup,
    problem: Problem,
    /// The whole board's point of each point of the region's board, by
    /// the point's number: the region's and the safe stones' beside it.
    vertices: Vec<Vertex>,
    /// The region's points, in the order of their numbers.
    region: Vec<Vertex>,
    region_source: RegionSource,
    target_source: TargetSource,
}

impl RegionProblem {
    /// The whole board as the file set it up.
    pub(crate) fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The problem on the region's board (ko assumption basic).
    pub(crate) fn problem(&self) -> &Problem {
        &self.problem
    }

    pub(crate) fn region_source(&self) -> &RegionSource {
        &self.region_source
    }

    pub(crate) fn target_source(&self) -> &TargetSource {
        &self.target_source
    }

    /// The whole board's point of a point of the region's board.
    pub(crate) fn vertex(&self, point: Point) -> Vertex {
        self.vertices[point.index()]
    }

    /// The region's point at a point of the whole board, if it is one (a
    /// safe stone is not).
    pub(crate) fn point(&self, vertex: Vertex) -> Option<Point> {
        self.vertices
            .iter()
            .position(|&v| v == vertex)
            .map(Point::new)
            .filter(|&point| !self.problem.safe().contains(point))
    }

    /// The region's points on the whole board, in the order of the
    /// region's point numbers.
    pub(crate) fn region(&self) -> &[Vertex] {
        &self.region
    }

    /// A move's GTP name on the whole board (`pass` for a pass).
    pub(crate) fn move_name(&self, mv: Move) -> String {
        match mv {
            Move::Place(point) => self.vertex(point).name(),
            Move::Pass => "pass".to_string(),
        }
    }

    /// A move's SGF value on the whole board (empty for a pass).
    pub(crate) fn move_sgf(&self, mv: Move) -> String {
        match mv {
            Move::Place(point) => self.vertex(point).sgf(self.setup.rows),
            Move::Pass => String::new(),
        }
    }

    /// Reads a move given in the whole board's coordinates (`pass`, or a
    /// GTP vertex): the region's move, or why it is none.
    pub(crate) fn parse_move(&self, text: &str) -> Result<Move, String> {
        if text.trim().eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        let vertex = self
            .setup
            .parse_vertex(text)
            .ok_or_else(|| format!("{} is not a point of the board", sgf::quoted(text)))?;
        self.point(vertex)
            .map(Move::Place)
            .ok_or_else(|| format!("{} is outside the problem's region", vertex.name()))
    }

    /// The stones outside the region (safe: walls to the other colour,
    /// and joined by a stone of their colour played beside them), Black's
    /// then White's.
    pub(crate) fn safe_stones(&self) -> (Vec<Vertex>, Vec<Vertex>) {
        let outside = |colour| {
            self.setup
                .stones(colour)
                .into_iter()
                .filter(|&v| self.point(v).is_none())
                .collect()
        };
        (outside(Colour::Black), outside(Colour::White))
    }

    /// The region as `--region` reads it: each row's runs of points,
    /// `A1-C1,A2,...`, from the bottom row up.
    pub(crate) fn region_text(&self) -> String {
        let mut sorted = self.region.clone();
        sorted.sort_by_key(|v| (v.row, v.column));
        let mut runs: Vec<(Vertex, Vertex)> = Vec::new();
        for v in sorted {
            match runs.last_mut() {
                Some((_, end)) if end.row == v.row && end.column + 1 == v.column => *end = v,
                _ => runs.push((v, v)),
            }
        }
        runs.iter()
            .map(|&(a, b)| {
                if a == b {
                    a.name()
                } else {
                    format!("{}-{}", a.name(), b.name())
                }
            })
            .collect::<Vec<_>>()
            .join(",")
    }

    /// A text drawing of the region and the points around it, with the
    /// whole board's coordinates: `.` an empty point of the region, `X`
    /// and `O` stones in it, `@` a target, `x` and `o` safe stones, `-` an
    /// empty point outside the region.
    pub(crate) fn drawing(&self) -> String {
        let rows = self.region.iter().map(|v| v.row);
        let columns = self.region.iter().map(|v| v.column);
        let (bottom, top) = (rows.clone().min().unwrap_or(0), rows.max().unwrap_or(0));
        let (left, right) = (
            columns.clone().min().unwrap_or(0),
            columns.max().unwrap_or(0),
        );
        let bottom = bottom.saturating_sub(1);
        let left = left.saturating_sub(1);
        let top = (top + 1).min(self.setup.rows - 1);
        let right = (right + 1).min(self.setup.columns - 1);
        let mut out = String::from("   ");
        for column in left..=right {
            out.push(' ');
            out.push(Board::column_letter(column));
        }
        out.push('\n');
        let board = self.problem.board();
        for row in (bottom..=top).rev() {
            out.push_str(&format!("{:>3}", row + 1));
            for column in left..=right {
                let vertex = Vertex::new(column, row);
                let cell = match (self.point(vertex), self.setup.stone(vertex)) {
                    (Some(point), Some(_)) if self.problem.targets().contains(point) => '@',
                    (Some(_), Some(Colour::Black)) => 'X',
                    (Some(_), Some(Colour::White)) => 'O',
                    (Some(_), None) => '.',
                    (None, Some(Colour::Black)) => 'x',
                    (None, Some(Colour::White)) => 'o',
                    (None, None) => '-',
                };
                out.push(' ');
                out.push(cell);
            }
            out.push('\n');
        }
        debug_assert_eq!(board.points(), self.vertices.len());
        out
    }
}

/// Reads a problem file (SGF) and locates its problem.
pub(crate) fn read_file(path: &Path, options: &InputOptions) -> Result<RegionProblem, InputError> {
    let bytes = crate::common::files::read_bounded(path, sgf::MAX_FILE_BYTES).map_err(|error| {
        InputError::Read {
            path: path.to_path_buf(),
            what: error.to_string(),
        }
    })?;
    let in_file = |error: InputError| InputError::InFile {
        path: path.to_path_buf(),
        error: Box::new(error),
    };
    let text = String::from_utf8_lossy(&bytes);
    from_sgf(&text, options).map_err(in_file)
}

/// Reads SGF text and locates its problem.
pub(crate) fn from_sgf(text: &str, options: &InputOptions) -> Result<RegionProblem, InputError> {
    locate(setup_from_sgf(text)?, options)
}

/// Reads a diagram and locates its problem.
pub(crate) fn from_diagram(
    diagram: &str,
    options: &InputOptions,
) -> Result<RegionProblem, InputError> {
    locate(setup_from_diagram(diagram)?, options)
}

/// Reads a diagram of a whole board: rows from the top, separated by `/`
/// or line breaks, one letter a point: `X` Black, `O` White, `.` empty
/// (white space inside a row is ignored).
pub(crate) fn setup_from_diagram(diagram: &str) -> Result<Setup, InputError> {
    let rows: Vec<Vec<char>> = diagram
        .split(['/', '\n'])
        .map(|row| row.chars().filter(|c| !c.is_whitespace()).collect())
        .filter(|row: &Vec<char>| !row.is_empty())
        .collect();
    let Some(first) = rows.first() else {
        return Err(InputError::Diagram("it has no row".into()));
    };
    let columns = first.len();
    if rows.len() > MAX_SIDE || columns > MAX_SIDE {
        return Err(InputError::Diagram(format!(
            "{} rows of {columns}: at most {MAX_SIDE} a side",
            rows.len()
        )));
    }
    let mut setup = Setup::empty(rows.len(), columns);
    for (i, row) in rows.iter().enumerate() {
        if row.len() != columns {
            return Err(InputError::Diagram(format!(
                "row {} has {} points, the first {columns}",
                i + 1,
                row.len()
            )));
        }
        for (column, &cell) in row.iter().enumerate() {
            let stone = match cell {
                'X' | 'x' => Some(Colour::Black),
                'O' | 'o' => Some(Colour::White),
                '.' => None,
                other => {
                    return Err(InputError::Diagram(format!(
                        "{} in row {} is not X, O or .",
                        sgf::quoted(&other.to_string()),
                        i + 1
                    )))
                }
            };
            setup.set(Vertex::new(column, rows.len() - 1 - i), stone);
        }
    }
    Ok(setup)
}

/// Reads the root of SGF text as a problem's setup: `SZ` (square up to
/// 25, or `columns:rows`; 19 without it), `AB`, `AW`, `AE`, `PL`, `C`,
/// `SQ`, `VW`, `MA`, `TR` and the game information.
pub(crate) fn setup_from_sgf(text: &str) -> Result<Setup, InputError> {
    let line = sgf::main_line(text).map_err(InputError::Sgf)?;
    let Some(root) = line.first() else {
        return Err(InputError::Sgf(sgf::SgfError {
            line: None,
            what: "the game has no node".into(),
        }));
    };
    let property = |name: &str, value: &str, what: String| InputError::Property {
        property: name.to_string(),
        value: value.to_string(),
        what,
    };
    if let Some(game) = root.get("GM") {
        if game[0].trim() != "1" {
            return Err(property("GM", &game[0], "not Go (GM[1])".into()));
        }
    }
    let (columns, rows) = match root.get("SZ") {
        None => (19, 19),
        Some(values) => {
            let text = values[0].trim();
            let side = |t: &str| {
                t.trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=MAX_SIDE).contains(n))
                    .ok_or_else(|| {
                        property(
                            "SZ",
                            text,
                            format!("not a board size (1 to {MAX_SIDE} a side)"),
                        )
                    })
            };
            match text.split_once(':') {
                Some((columns, rows)) => (side(columns)?, side(rows)?),
                None => (side(text)?, side(text)?),
            }
        }
    };
    let mut setup = Setup::empty(rows, columns);
    for prop in &root.properties {
        let name = prop.name.as_str();
        let points = || points_of(&setup, name, &prop.values);
        match name {
            "AB" | "AW" | "AE" => {
                let stone = match name {
                    "AB" => Some(Colour::Black),
                    "AW" => Some(Colour::White),
                    _ => None,
                };
                for vertex in points()? {
                    setup.set(vertex, stone);
                }
            }
            "SQ" => setup.region_marks.extend(points()?),
            "MA" | "TR" => setup.target_marks.extend(points()?),
            "VW" => {
                // `VW[]` shows the whole board again.
                if prop.values.iter().all(|v| v.trim().is_empty()) {
                    setup.view.clear();
                } else {
                    setup.view = points()?;
                }
            }
            "PL" => {
                let value = prop.values[0].trim();
                setup.player = Some(match value {
                    "B" | "b" | "1" => Colour::Black,
                    "W" | "w" | "2" => Colour::White,
                    _ => return Err(property("PL", value, "neither B nor W".into())),
                });
            }
            "C" => setup.comment = Some(prop.values[0].clone()),
            _ if sgf::GAME_INFO.contains(&name) => setup.info.push(prop.clone()),
            _ => {}
        }
    }
    for list in [&mut setup.region_marks, &mut setup.target_marks] {
        list.sort_unstable();
        list.dedup();
    }
    Ok(setup)
}

/// The points of an SGF point list: single points and `ab:cd` rectangles.
fn points_of(setup: &Setup, name: &str, values: &[String]) -> Result<Vec<Vertex>, InputError> {
    let point = |text: &str, value: &str| -> Result<Vertex, InputError> {
        let bytes = text.trim().as_bytes();
        let coordinate = |b: u8| b.is_ascii_lowercase().then(|| (b - b'a') as usize);
        match (bytes.len(), bytes.first(), bytes.get(1)) {
            (2, Some(&x), Some(&y)) => match (coordinate(x), coordinate(y)) {
                (Some(x), Some(y)) if x < setup.columns && y < setup.rows => {
                    Ok(Vertex::new(x, setup.rows - 1 - y))
                }
                _ => Err(InputError::Property {
                    property: name.to_string(),
                    value: value.to_string(),
                    what: format!("not a point of the {}x{} board", setup.columns, setup.rows),
                }),
            },
            _ => Err(InputError::Property {
                property: name.to_string(),
                value: value.to_string(),
                what: "not a point".into(),
            }),
        }
    };
    let mut out = Vec::new();
    for value in values {
        let (first, last) = value.split_once(':').unwrap_or((value, value));
        let (a, b) = (point(first, value)?, point(last, value)?);
        for row in a.row.min(b.row)..=a.row.max(b.row) {
            for column in a.column.min(b.column)..=a.column.max(b.column) {
                out.push(Vertex::new(column, row));
            }
        }
    }
    Ok(out)
}

/// Reads a list of points of the whole board for a command-line option:
/// GTP vertices and rectangles `A1-E5`, separated by commas or spaces.
pub(crate) fn parse_points(
    setup: &Setup,
    option: &str,
    text: &str,
) -> Result<Vec<Vertex>, InputError> {
    let fault = |what: String| InputError::Option {
        option: option.to_string(),
        value: text.to_string(),
        what,
    };
    let mut out = Vec::new();
    for item in text.split([',', ' ']).filter(|s| !s.trim().is_empty()) {
        let (first, last) = item.split_once('-').unwrap_or((item, item));
        let vertex = |name: &str| {
            setup.parse_vertex(name).ok_or_else(|| {
                fault(format!(
                    "{} is not a point of the {}x{} board",
                    sgf::quoted(name),
                    setup.columns,
                    setup.rows
                ))
            })
        };
        let (a, b) = (vertex(first)?, vertex(last)?);
        for row in a.row.min(b.row)..=a.row.max(b.row) {
            for column in a.column.min(b.column)..=a.column.max(b.column) {
                out.push(Vertex::new(column, row));
            }
        }
    }
    if out.is_empty() {
        return Err(fault("no point given".into()));
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// The region of a setup and its problem: see the module's paragraph.
pub(crate) fn locate(setup: Setup, options: &InputOptions) -> Result<RegionProblem, InputError> {
    let strings = setup.strings();
    for string in &strings {
        if string.liberties.is_empty() {
            return Err(InputError::Point {
                point: setup.vertex_of(string.stones[0]).name(),
                what: "its string has no liberty: the stones are no position".into(),
            });
        }
    }
    let size = setup.cells.len();
    let given_targets = given_targets(&setup, options)?;
    let given = match &options.region {
        Some(text) => Some((
            parse_points(&setup, "--region", text)?,
            RegionSource::Option,
        )),
        None if !setup.region_marks.is_empty() => {
            Some((setup.region_marks.clone(), RegionSource::Marked))
        }
        None => None,
    };
    let mut in_region = vec![false; size];
    let region_source = match given {
        Some((points, source)) => {
            let mut listed = vec![false; size];
            for &v in &points {
                listed[setup.index(v)] = true;
            }
            for &v in &points {
                in_region[setup.index(v)] = true;
            }
            for string in &strings {
                let has_listed_stone = string.stones.iter().any(|&s| listed[s]);
                let enclosed = string.liberties.iter().all(|&l| listed[l]);
                if has_listed_stone || enclosed {
                    for &s in &string.stones {
                        in_region[s] = true;
                    }
                }
            }
            source
        }
        None => {
            let (frame, view) = frame_of(&setup)?;
            let inside = |i: usize| {
                let v = setup.vertex_of(i);
                (frame.0.column..=frame.1.column).contains(&v.column)
                    && (frame.0.row..=frame.1.row).contains(&v.row)
            };
            let within = |string: &StringOf| {
                string.stones.iter().all(|&s| inside(s))
                    && string.liberties.iter().all(|&l| inside(l))
            };
            // Each empty area of the whole board: enclosed when it stays
            // inside the frame.
            let mut area_of = vec![usize::MAX; size];
            let mut areas: Vec<(Vec<usize>, bool)> = Vec::new();
            for start in 0..size {
                if setup.cells[start].is_some() || area_of[start] != usize::MAX {
                    continue;
                }
                let area = setup.flood(start);
                for &p in &area {
                    area_of[p] = areas.len();
                }
                let enclosed = area.iter().all(|&p| inside(p));
                areas.push((area, enclosed));
            }
            let mut touched = vec![false; areas.len()];
            for string in &strings {
                if string.liberties.iter().all(|&l| areas[area_of[l]].1) {
                    for &s in &string.stones {
                        in_region[s] = true;
                    }
                    for &l in &string.liberties {
                        touched[area_of[l]] = true;
                    }
                }
            }
            for (i, (area, _)) in areas.iter().enumerate() {
                if touched[i] {
                    for &p in area {
                        in_region[p] = true;
                    }
                }
            }
            // An enclosed region that leaves out a string of the attacked
            // colour with no liberty outside the frame is a pocket beside
            // the problem (a cutting stone's, an eye of the wall), not the
            // problem: the frame closes the problem instead.
            let pocket = in_region.contains(&true)
                && attacked_colour(&setup, given_targets.as_ref(), &in_region).is_some_and(
                    |attacked| {
                        strings.iter().any(|string| {
                            !in_region[string.stones[0]]
                                && setup.cells[string.stones[0]] == Some(attacked)
                                && within(string)
                        })
                    },
                );
            if pocket {
                in_region.fill(false);
            }
            let closed = !in_region.contains(&true);
            if closed {
                // Nothing enclosed, or only a pocket: the frame's sides
                // close the problem.
                // A string with no liberty outside the frame is in the
                // region with the empty points of the frame it reaches
                // without leaving it.
                for string in &strings {
                    if within(string) {
                        add_string(&setup, string, &inside, &mut in_region);
                    }
                }
            }
            if !in_region.contains(&true) {
                return Err(InputError::Region(format!(
                    "none found: every string in the frame {}-{}{} has a liberty outside it; \
                     mark the region with SQ or give --region",
                    frame.0.name(),
                    frame.1.name(),
                    if view { " (VW)" } else { "" }
                )));
            }
            RegionSource::Inferred {
                frame,
                view,
                closed,
            }
        }
    };
    let region: Vec<usize> = (0..size).filter(|&i| in_region[i]).collect();
    if region.len() > MAX_POINTS {
        return Err(InputError::Region(format!(
            "{} points ({} empty), more than the {MAX_POINTS} a problem may have; \
             mark a smaller region with SQ or give --region",
            region.len(),
            region.iter().filter(|&&i| setup.cells[i].is_none()).count()
        )));
    }
    // Every string in the region needs a liberty in it.
    for string in &strings {
        if in_region[string.stones[0]] && !string.liberties.iter().any(|&l| in_region[l]) {
            return Err(InputError::Point {
                point: setup.vertex_of(string.stones[0]).name(),
                what: "its string has no liberty inside the region".into(),
            });
        }
    }
    // The frame's open sides tell the attacker only where its sides closed
    // the region: walls of both colours around an enclosed region are
    // more often a pocket than a problem, and stay a question.
    let frame = match region_source {
        RegionSource::Inferred {
            frame,
            closed: true,
            ..
        } => Some(frame),
        _ => None,
    };
    let (targets, target_source) = targets_of(&setup, given_targets, &in_region, frame)?;
    // The safe stones beside the region join the board as points with an
    // open side, so that a stone played beside one joins it.
    let mut on_board = in_region.clone();
    let mut safe = vec![false; size];
    for &i in &region {
        for n in setup.neighbours(i) {
            if !in_region[n] && setup.cells[n].is_some() {
                safe[n] = true;
                on_board[n] = true;
            }
        }
    }
    let board_points = on_board.iter().filter(|&&b| b).count();
    if board_points > MAX_POINTS {
        return Err(InputError::Region(format!(
            "{} points ({} empty) and {} safe stones beside them, more than the {MAX_POINTS} \
             a problem's board may have; mark a smaller region with SQ or give --region",
            region.len(),
            region.iter().filter(|&&i| setup.cells[i].is_none()).count(),
            board_points - region.len()
        )));
    }
    // The region's board: its cells in the smallest rectangle around it.
    let vertices: Vec<Vertex> = (0..size)
        .filter(|&i| on_board[i])
        .map(|i| setup.vertex_of(i))
        .collect();
    let bottom = vertices.iter().map(|v| v.row).min().unwrap_or(0);
    let top = vertices.iter().map(|v| v.row).max().unwrap_or(0);
    let left = vertices.iter().map(|v| v.column).min().unwrap_or(0);
    let right = vertices.iter().map(|v| v.column).max().unwrap_or(0);
    let diagram: Vec<String> = (bottom..=top)
        .rev()
        .map(|row| {
            (left..=right)
                .map(|column| {
                    if on_board[setup.index(Vertex::new(column, row))] {
                        '.'
                    } else {
                        '#'
                    }
                })
                .collect()
        })
        .collect();
    let board = Board::shape(&diagram.join("/"))
        .map_err(|error| InputError::Region(format!("no board: {error}")))?;
    let mut numbered = vec![Vertex::new(0, 0); vertices.len()];
    let (mut black, mut white, mut target_set, mut safe_set) = (
        PointSet::EMPTY,
        PointSet::EMPTY,
        PointSet::EMPTY,
        PointSet::EMPTY,
    );
    for &v in &vertices {
        let point = board
            .point_at(v.row - bottom, v.column - left)
            .ok_or_else(|| InputError::Region(format!("{} is no point of its board", v.name())))?;
        numbered[point.index()] = v;
        if safe[setup.index(v)] {
            safe_set.insert(point);
        }
        match setup.stone(v) {
            Some(Colour::Black) => black.insert(point),
            Some(Colour::White) => white.insert(point),
            None => {}
        }
        if targets.contains(&v) {
            target_set.insert(point);
        }
    }
    let to_move = options.player.or(setup.player).unwrap_or(Colour::Black);
    let problem = Problem::new(
        board.with_open_points(safe_set),
        black,
        white,
        to_move,
        target_set,
        KoAssumption::Basic,
    )
    .map_err(|error| InputError::Region(error.to_string()))?;
    let region = (0..numbered.len())
        .filter(|&p| !problem.safe().contains(Point::new(p)))
        .map(|p| numbered[p])
        .collect();
    Ok(RegionProblem {
        setup,
        problem,
        vertices: numbered,
        region,
        region_source,
        target_source,
    })
}

/// The most lines between the stones and the board's edge that an inferred
/// frame takes in: a problem's stones on the fourth line or nearer frame
/// the lines below them too.
const FRAME_TO_EDGE: usize = 3;

/// The frame the region is inferred in: `VW`'s rectangle, else the
/// smallest one around every stone, each side within `FRAME_TO_EDGE`
/// lines of the board's edge, and nearer it than the opposite side is to
/// its own, taken to the edge; and whether it is `VW`'s.
fn frame_of(setup: &Setup) -> Result<((Vertex, Vertex), bool), InputError> {
    let (points, view) = if setup.view.is_empty() {
        let stones: Vec<Vertex> = (0..setup.cells.len())
            .filter(|&i| setup.cells[i].is_some())
            .map(|i| setup.vertex_of(i))
            .collect();
        (stones, false)
    } else {
        (setup.view.clone(), true)
    };
    if points.is_empty() {
        return Err(InputError::Region(
            "none found: the board has no stones".into(),
        ));
    }
    let mut low = Vertex::new(
        points.iter().map(|v| v.column).min().unwrap_or(0),
        points.iter().map(|v| v.row).min().unwrap_or(0),
    );
    let mut high = Vertex::new(
        points.iter().map(|v| v.column).max().unwrap_or(0),
        points.iter().map(|v| v.row).max().unwrap_or(0),
    );
    if !view {
        // A side near the board's edge, and nearer it than the opposite
        // side is to its own, reaches it: the lines between the stones and
        // the edge are the problem's (the side facing the open board stays).
        let near = |gap: usize, opposite: usize| gap <= FRAME_TO_EDGE && gap < opposite;
        let (left, bottom) = (low.column, low.row);
        let right = setup.columns - 1 - high.column;
        let top = setup.rows - 1 - high.row;
        if near(left, right) {
            low.column = 0;
        }
        if near(right, left) {
            high.column = setup.columns - 1;
        }
        if near(bottom, top) {
            low.row = 0;
        }
        if near(top, bottom) {
            high.row = setup.rows - 1;
        }
    }
    Ok(((low, high), view))
}

/// Puts `string` in the region with every empty point reached from its
/// liberties without leaving the frame (`inside`).
fn add_string(
    setup: &Setup,
    string: &StringOf,
    inside: &impl Fn(usize) -> bool,
    in_region: &mut [bool],
) {
    for &s in &string.stones {
        in_region[s] = true;
    }
    for &l in &string.liberties {
        if !in_region[l] {
            for p in setup.flood_within(l, inside) {
                in_region[p] = true;
            }
        }
    }
}

/// Whether safe stones of each colour (Black, White) touch the region.
fn wall_colours(setup: &Setup, in_region: &[bool]) -> [bool; 2] {
    let mut walls = [false, false];
    for i in 0..setup.cells.len() {
        if !in_region[i] {
            continue;
        }
        for n in setup.neighbours(i) {
            if !in_region[n] {
                match setup.cells[n] {
                    Some(Colour::Black) => walls[0] = true,
                    Some(Colour::White) => walls[1] = true,
                    None => {}
                }
            }
        }
    }
    walls
}

/// Target stones given, with where they came from and its words for
/// messages.
type GivenTargets = (Vec<Vertex>, TargetSource, &'static str);

/// The target stones given, by `--targets` or by marks (`MA`, `TR`);
/// `None` when neither gives any.
fn given_targets(
    setup: &Setup,
    options: &InputOptions,
) -> Result<Option<GivenTargets>, InputError> {
    Ok(match &options.targets {
        Some(text) => Some((
            parse_points(setup, "--targets", text)?,
            TargetSource::Option,
            "--targets",
        )),
        None if !setup.target_marks.is_empty() => Some((
            setup.target_marks.clone(),
            TargetSource::Marked,
            "marked (MA or TR)",
        )),
        None => None,
    })
}

/// The colour attacked in an enclosed region, as far as it is told before
/// the targets are located: the colour of the targets given, else the
/// other colour than the attacker `attacker_around` finds (the frame's
/// open sides left out: they tell only for a closed region).
fn attacked_colour(
    setup: &Setup,
    given: Option<&GivenTargets>,
    in_region: &[bool],
) -> Option<Colour> {
    match given {
        Some((targets, _, _)) => setup.stone(*targets.first()?),
        None => attacker_around(setup, in_region, None).map(|(attacker, _)| attacker.opposite()),
    }
}

/// The attacker of a region whose targets are not given, and what told
/// it: the safe stones around the region when they are of one colour,
/// else the root comment, else the region's own stones when they are of
/// one colour (the other colour has no stone to capture there), else, for
/// a region the frame closed (`frame`), the colour with more stones on
/// the frame's open sides; `None` when none of them tells.
fn attacker_around(
    setup: &Setup,
    in_region: &[bool],
    frame: Option<(Vertex, Vertex)>,
) -> Option<(Colour, TargetSource)> {
    let [black_walls, white_walls] = wall_colours(setup, in_region);
    if black_walls != white_walls {
        let attacker = if black_walls {
            Colour::Black
        } else {
            Colour::White
        };
        return Some((attacker, TargetSource::Walls));
    }
    if let Some(attacker) = comment_hint(setup.comment.as_deref().unwrap_or("")) {
        return Some((attacker, TargetSource::Comment));
    }
    let holds = |colour: Colour| {
        (0..setup.cells.len()).any(|i| in_region[i] && setup.cells[i] == Some(colour))
    };
    match (holds(Colour::Black), holds(Colour::White)) {
        (true, false) => return Some((Colour::White, TargetSource::RegionStones)),
        (false, true) => return Some((Colour::Black, TargetSource::RegionStones)),
        _ => {}
    }
    frame
        .and_then(|frame| most_on_open_sides(setup, frame))
        .map(|attacker| (attacker, TargetSource::OpenSides))
}

/// The target stones (whole-board points) and how they were found.
fn targets_of(
    setup: &Setup,
    given: Option<GivenTargets>,
    in_region: &[bool],
    frame: Option<(Vertex, Vertex)>,
) -> Result<(Vec<Vertex>, TargetSource), InputError> {
    if let Some((targets, source, how)) = given {
        let mut colours = Vec::new();
        for &v in &targets {
            let point = |what: &str| InputError::Point {
                point: v.name(),
                what: format!("a target ({how}) {what}"),
            };
            match setup.stone(v) {
                None => return Err(point("holds no stone")),
                Some(_) if !in_region[setup.index(v)] => {
                    return Err(point(
                        "is outside the region (a safe stone: its string has a liberty outside)",
                    ))
                }
                Some(colour) => colours.push((v, colour)),
            }
        }
        if let Some(&(other, _)) = colours.iter().find(|(_, c)| *c != colours[0].1) {
            return Err(InputError::Targets(format!(
                "{how}: stones of both colours, {} and {}",
                colours[0].0.name(),
                other.name()
            )));
        }
        return Ok((targets, source));
    }
    let Some((attacker, source)) = attacker_around(setup, in_region, frame) else {
        return Err(InputError::Targets(format!(
            "cannot tell which side is attacked: the safe stones around the region are {}, \
             the root comment says no `Black to kill` or `White to live`, the region \
             holds stones of both colours or none, and neither colour has more stones on \
             the frame's open sides; \
             mark the targets with MA or TR, or give --targets",
            if wall_colours(setup, in_region)[0] {
                "of both colours"
            } else {
                "none"
            }
        )));
    };
    let defender = attacker.opposite();
    let targets: Vec<Vertex> = (0..setup.cells.len())
        .filter(|&i| in_region[i] && setup.cells[i] == Some(defender))
        .map(|i| setup.vertex_of(i))
        .collect();
    if targets.is_empty() {
        return Err(InputError::Targets(format!(
            "the region holds no stone of the attacked side ({defender}); \
             mark the targets with MA or TR, or give --targets"
        )));
    }
    Ok((targets, source))
}

/// The colour with more stones on the sides of `frame` that face the open
/// board (those not on the board's edge), if one has more: the side that
/// surrounds a problem drawn in a corner or on an edge.
fn most_on_open_sides(setup: &Setup, frame: (Vertex, Vertex)) -> Option<Colour> {
    let (low, high) = frame;
    let on_open_side = |v: Vertex| {
        (v.column == low.column && low.column > 0)
            || (v.column == high.column && high.column + 1 < setup.columns)
            || (v.row == low.row && low.row > 0)
            || (v.row == high.row && high.row + 1 < setup.rows)
    };
    let count = |colour: Colour| {
        setup
            .stones(colour)
            .into_iter()
            .filter(|&v| on_open_side(v))
            .count()
    };
    let (black, white) = (count(Colour::Black), count(Colour::White));
    match black.cmp(&white) {
        std::cmp::Ordering::Greater => Some(Colour::Black),
        std::cmp::Ordering::Less => Some(Colour::White),
        std::cmp::Ordering::Equal => None,
    }
}

/// The attacker a comment names: `Black to kill`, `White to live`,
/// `Black to play and kill`, `White to play and live` (any case,
/// anywhere in the comment; the first such phrase counts).
pub(crate) fn comment_hint(comment: &str) -> Option<Colour> {
    let lower = comment.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .collect();
    for (i, &word) in words.iter().enumerate() {
        let colour = match word {
            "black" => Colour::Black,
            "white" => Colour::White,
            _ => continue,
        };
        let rest = &words[i + 1..];
        let aim = match rest {
            ["to", aim, ..] if *aim == "kill" || *aim == "live" => *aim,
            ["to", "play", "and", aim, ..] if *aim == "kill" || *aim == "live" => *aim,
            _ => continue,
        };
        return Some(if aim == "kill" {
            colour
        } else {
            colour.opposite()
        });
    }
    None
}
