//! `smallgo count`: its exact counts against the index's, a plain
//! enumeration written here and the published legal counts; its edge
//! count against the shipped tables' headers, exactly over whole boards
//! and by its sampled estimate; a count stopped and resumed; and the
//! command as a user meets it.

use std::time::Duration;

use super::files::shipped_table;
use crate::analyses::count::{
    count_board, estimate_edges, position_edges, run, CountObserver, Outcome, Progress, Tally,
    Unobserved,
};
use crate::index::code::Codec;
use crate::index::StateIndex;
use crate::rules::board::Board;
use crate::table::format::Header;

fn board(name: &str) -> Board {
    name.parse().expect("a board name")
}

/// Every board of at most 16 points the test covers: 1x1 to 1x12, 2x2 to
/// 2x8, 3x3 to 3x5, 4x4.
fn small_boards() -> Vec<Board> {
    let mut boards = Vec::new();
    boards.extend((1..=12).map(|c| Board::new(1, c).unwrap()));
    boards.extend((2..=8).map(|c| Board::new(2, c).unwrap()));
    boards.extend((3..=5).map(|c| Board::new(3, c).unwrap()));
    boards.push(Board::new(4, 4).unwrap());
    boards
}

/// Counts a board through `run` on two threads, as the command does.
fn count_in_chunks(board: Board) -> Tally {
    let codec = Codec::new(board);
    let mut progress = Progress::new(board);
    let outcome = run(
        &codec,
        &mut progress,
        2,
        &Unobserved,
        Duration::from_secs(1),
        &|_| Ok(()),
    )
    .unwrap();
    assert_eq!(outcome, Outcome::Finished);
    progress.tally()
}

#[test]
fn counts_match_the_index() {
    for board in small_boards() {
        let tally = count_in_chunks(board);
        let index = StateIndex::build(board).unwrap().counts();
        assert_eq!(tally.legal_positions, index.legal_positions, "{board}");
        assert_eq!(tally.positions, index.positions, "{board}");
        assert_eq!(tally.ko_states, index.ko_states, "{board}");
        assert_eq!(tally.states(), index.states, "{board}");
        if board.points() <= 12 {
            assert_eq!(count_board(board), tally, "{board}: on one thread");
        }
    }
}

/// The legal positions of a board by brute force, without the crate's
/// rules or codes: every colouring of the points, each string of stones
/// followed from point to point until it meets an empty point.
fn legal_by_brute_force(rows: usize, columns: usize) -> u64 {
    let points = rows * columns;
    let neighbours: Vec<Vec<usize>> = (0..points)
        .map(|p| {
            let (r, c) = (p / columns, p % columns);
            let mut around = Vec::new();
            if r > 0 {
                around.push(p - columns);
            }
            if r + 1 < rows {
                around.push(p + columns);
            }
            if c > 0 {
                around.push(p - 1);
            }
            if c + 1 < columns {
                around.push(p + 1);
            }
            around
        })
        .collect();
    let mut legal = 0;
    let mut colour = vec![0u8; points];
    let mut seen = vec![false; points];
    let mut stack = Vec::new();
    for mut code in 0..3u64.pow(points as u32) {
        for slot in colour.iter_mut() {
            *slot = (code % 3) as u8;
            code /= 3;
        }
        seen.iter_mut().for_each(|s| *s = false);
        let every_string_breathes = (0..points).all(|start| {
            if colour[start] == 0 || seen[start] {
                return true;
            }
            let mut breathes = false;
            stack.clear();
            stack.push(start);
            seen[start] = true;
            while let Some(p) = stack.pop() {
                for &q in &neighbours[p] {
                    if colour[q] == 0 {
                        breathes = true;
                    } else if colour[q] == colour[start] && !seen[q] {
                        seen[q] = true;
                        stack.push(q);
                    }
                }
            }
            breathes
        });
        legal += every_string_breathes as u64;
    }
    legal
}

#[test]
fn legal_positions_match_a_brute_force_count() {
    for board in small_boards().into_iter().filter(|b| b.points() <= 12) {
        assert_eq!(
            count_board(board).legal_positions,
            legal_by_brute_force(board.rows(), board.columns()),
            "{board}"
        );
    }
}

/// The published legal position counts (`tests/published.csv`), by board
/// name, in the file's order.
fn published_counts() -> Vec<(String, u64)> {
    super::published::figures("legal")
        .map(|(board, value)| {
            let count = value
                .parse()
                .unwrap_or_else(|_| panic!("published.csv: {board}: '{value}' is not a count"));
            (board.to_string(), count)
        })
        .collect()
}

/// The published legal position count of `board`.
fn published_count(board: &str) -> u64 {
    published_counts()
        .into_iter()
        .find(|(name, _)| name == board)
        .unwrap_or_else(|| panic!("published.csv has no legal count of {board}"))
        .1
}

/// The published legal counts (`tests/published.csv`: OEIS A102620,
/// A266278, A094777) of the boards of at most 18 points.
#[test]
fn legal_positions_match_the_published_counts() {
    let mut checked = 0;
    for (name, known) in published_counts() {
        if board(&name).points() > 18 {
            continue;
        }
        assert_eq!(
            count_in_chunks(board(&name)).legal_positions,
            known,
            "{name}"
        );
        checked += 1;
    }
    assert_eq!(checked, 27);
}

/// 4x5 (1,840,058,693, 3^20 codes) and 2x10 (1,589,441,093): a minute or
/// so each on two cores.
/// `cargo test --release --lib legal_positions_of_4x5_and_2x10 -- --ignored`.
#[test]
#[ignore]
fn legal_positions_of_4x5_and_2x10() {
    for name in ["4x5", "2x10"] {
        let known = published_count(name);
        assert_eq!(
            count_in_chunks(board(name)).legal_positions,
            known,
            "{name}"
        );
    }
}

/// The header of a shipped table.
fn shipped_header(board: Board) -> Header {
    let path = shipped_table(&format!("{board}.sgtb"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Header::read(&bytes).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()))
}

#[test]
fn edges_of_every_position_add_up_to_the_tables_edges() {
    for board in small_boards().into_iter().filter(|b| b.points() <= 12) {
        let codec = Codec::new(board);
        let mut edges = 0u64;
        let mut first = 0;
        while first < codec.code_count() {
            let count = (codec.code_count() - first).min(64) as u32;
            codec.canonical_legal_positions(first, count, |position, _| {
                edges += position_edges(&codec, position);
            });
            first += count as u64;
        }
        assert_eq!(edges, shipped_header(board).edges, "{board}");
    }
}

#[test]
fn the_edge_estimate_holds_the_tables_edges() {
    for name in ["4x4", "3x5", "2x8", "2x7"] {
        let board = board(name);
        let codec = Codec::new(board);
        let positions = count_board(board).positions;
        let estimate = estimate_edges(&codec, positions, 100_000, 1, &Unobserved).unwrap();
        let exact = shipped_header(board).edges as f64;
        assert!(
            estimate.low <= exact && exact <= estimate.high,
            "{name}: {exact} outside {estimate:?}"
        );
        // The interval is the estimate's, and narrow.
        assert!(estimate.standard_error > 0.0 && estimate.standard_error < 0.005 * exact);
        let width = 2.0 * 1.959_964 * estimate.standard_error;
        assert!((estimate.high - estimate.low - width).abs() < 1e-6 * width);
        // The same seed gives the same estimate.
        assert_eq!(
            estimate_edges(&codec, positions, 100_000, 1, &Unobserved),
            Some(estimate)
        );
    }
}

/// The standard error is the estimate's: about 95% of the intervals of
/// independent small samples hold the exact count, not all (too wide) nor
/// few (too narrow).
#[test]
fn edge_intervals_cover_as_often_as_they_claim() {
    let board = board("3x4");
    let codec = Codec::new(board);
    let positions = count_board(board).positions;
    let exact = shipped_header(board).edges as f64;
    let seeds = 200;
    let covered = (0..seeds)
        .filter(|&seed| {
            let estimate = estimate_edges(&codec, positions, 400, seed, &Unobserved).unwrap();
            estimate.low <= exact && exact <= estimate.high
        })
        .count();
    // Binomial(200, 0.95): mean 190, standard deviation 3.1.
    assert!((178..=199).contains(&covered), "{covered} of {seeds}");
}

/// Stops after `k` chunks, as `--stop-after` does.
struct StopAfter {
    k: u64,
    done: std::sync::atomic::AtomicU64,
}

impl CountObserver for StopAfter {
    fn chunk_done(&self, _progress: &Progress) {
        self.done.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }

    fn cancelled(&self) -> bool {
        self.done.load(std::sync::atomic::Ordering::SeqCst) >= self.k
    }
}

#[test]
fn a_stopped_count_resumes_to_the_same_totals() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("4x4.count");
    let board = board("4x4");
    let codec = Codec::new(board);
    let expected = count_board(board);
    let mut stops = 0;
    // Stop after a few chunks at a time, reading the file back each time.
    loop {
        let mut progress = Progress::load(&path, board)
            .unwrap()
            .unwrap_or_else(|| Progress::new(board));
        let before = progress.chunks_done();
        let observer = StopAfter {
            k: 100,
            done: Default::default(),
        };
        let outcome = run(
            &codec,
            &mut progress,
            2,
            &observer,
            Duration::ZERO,
            &|progress| progress.save(&path),
        )
        .unwrap();
        assert!(progress.chunks_done() > before);
        assert_eq!(Progress::load(&path, board).unwrap().unwrap(), progress);
        if outcome == Outcome::Finished {
            break;
        }
        stops += 1;
    }
    assert!(stops >= 6, "{stops}");
    let progress = Progress::load(&path, board).unwrap().unwrap();
    assert!(progress.finished());
    assert_eq!(progress.tally(), expected);
    // A file of one board is refused for another.
    let message = Progress::load(&path, self::board("2x8")).unwrap_err();
    assert!(message.contains("board 4x4, not 2x8"), "{message}");
}
