use smallgo::board::Board;
use smallgo::solver::{solve, Silent};
use std::time::Instant;

fn main() {
    let board: Board = std::env::args().nth(1).unwrap().parse().unwrap();
    let t = Instant::now();
    let solution = solve(board, &Silent).unwrap();
    let counts = solution.index().counts();
    let st = solution.stats();
    println!("{board}: positions {} ko {} states {} edges {} depth {} flips {} in {:.2}s (enum {:.2} count {:.2} retro {:.2})",
        counts.positions, counts.ko_states, counts.states, st.edges, st.largest_depth, st.flips, t.elapsed().as_secs_f64(), st.enumerate_seconds, st.count_seconds, st.retrograde_seconds);
    let root = solution.probe(&smallgo::state::State::start()).unwrap();
    println!("root {root}");
}
