//! The superko rules and solver against a brute force written here: the
//! whole game tree with its history as a list of positions, no table, no
//! pruning but alpha-beta's own.

use super::solve::{empty_board_value, opening_points, Options, Solver};
use super::*;
use crate::common::random::SplitMix;

/// A state of the brute force: stones from the mover's view, Black to
/// move, the last turn a pass, and every position (or situation) seen.
#[derive(Clone)]
struct Plain {
    position: Position,
    black_to_move: bool,
    passed: bool,
    seen: Vec<(u64, u64, bool)>,
}

fn absolute(position: Position, black_to_move: bool) -> (u64, u64) {
    if black_to_move {
        (position.us().0, position.them().0)
    } else {
        (position.them().0, position.us().0)
    }
}

impl Plain {
    fn start() -> Plain {
        Plain {
            position: Position::new(PointSet::EMPTY, PointSet::EMPTY),
            black_to_move: true,
            passed: false,
            seen: vec![(0, 0, true)],
        }
    }

    fn was_seen(&self, rule: Superko, position: Position, black_to_move: bool) -> bool {
        let (black, white) = absolute(position, black_to_move);
        self.seen.iter().any(|&(b, w, mover)| {
            b == black && w == white && (rule == Superko::Positional || mover == black_to_move)
        })
    }

    /// The state after `mv`, `Err(margin)` when it ends the game (the
    /// mover's margin), `None` when illegal.
    fn after(&self, board: &Board, rule: Superko, mv: Move) -> Option<Result<Plain, i32>> {
        let (position, passed) = match mv {
            Move::Pass if self.passed => return Some(Err(self.position.area_score(board))),
            Move::Pass => (self.position.swapped(), true),
            Move::Place(point) => (self.position.place(board, point)?.position.swapped(), false),
        };
        if !passed && self.was_seen(rule, position, !self.black_to_move) {
            return None;
        }
        let mut next = self.clone();
        next.position = position;
        next.black_to_move = !self.black_to_move;
        next.passed = passed;
        let (black, white) = absolute(position, next.black_to_move);
        next.seen.push((black, white, next.black_to_move));
        Some(Ok(next))
    }

    /// The moves in the order searched: after a pass the pass that ends
    /// the game first, then every point, then the pass.
    fn moves(&self, board: &Board) -> Vec<Move> {
        let placements = (0..board.points()).map(|p| Move::Place(Point::new(p)));
        if self.passed {
            std::iter::once(Move::Pass).chain(placements).collect()
        } else {
            placements.chain(std::iter::once(Move::Pass)).collect()
        }
    }

    /// Minimax with alpha-beta from the mover's view.
    fn value(&self, board: &Board, rule: Superko, mut alpha: i32, beta: i32) -> i32 {
        let mut best = i32::MIN;
        for mv in self.moves(board) {
            let value = match self.after(board, rule, mv) {
                None => continue,
                Some(Err(margin)) => margin,
                Some(Ok(next)) => -next.value(board, rule, -beta, -alpha),
            };
            best = best.max(value);
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    fn exact(&self, board: &Board, rule: Superko) -> i32 {
        let n = board.points() as i32;
        self.value(board, rule, -n - 1, n + 1)
    }
}

fn board(name: &str) -> Board {
    name.parse().unwrap()
}

/// Every opening placement's value for Black by the brute force.
fn brute_openings(board: &Board, rule: Superko) -> Vec<(Point, i32)> {
    opening_points(board)
        .into_iter()
        .filter_map(|point| {
            let next = Plain::start()
                .after(board, rule, Move::Place(point))?
                .ok()?;
            Some((point, -next.exact(board, rule)))
        })
        .collect()
}

const BOARDS: [&str; 6] = ["1x1", "1x2", "1x3", "1x4", "1x5", "2x2"];

fn every_option_set() -> Vec<Options> {
    let full = Options::default();
    vec![
        full,
        Options {
            table_bits: 0,
            ..full
        },
        Options {
            share: false,
            ..full
        },
        Options {
            mtdf: false,
            ..full
        },
        Options {
            mtdf: false,
            table_bits: 0,
            ..full
        },
        Options {
            ordering: false,
            ceiling: false,
            ..full
        },
        Options {
            table_bits: 4,
            history: true,
            ..full
        },
        Options {
            total: false,
            ..full
        },
        Options {
            deepening: 0,
            ..full
        },
        Options {
            deepening: 1,
            ..full
        },
        Options {
            deepening: 3,
            table_bits: 4,
            ..full
        },
        Options {
            deepening: 2,
            mtdf: false,
            ..full
        },
        Options {
            alive: true,
            ..full
        },
        Options {
            alive: true,
            total: false,
            deepening: 2,
            ..full
        },
        Options { etc: false, ..full },
        Options {
            deepening: 2,
            deepening_step: 1,
            ..full
        },
        Options {
            deepening: 2,
            recall_unknown: false,
            ..full
        },
        Options {
            deepening: 4,
            deepening_step: 3,
            mtdf: false,
            ..full
        },
        // An arena of 64 keys: footprints of more than 8 keys are not
        // stored, and entries are evicted past 32 live keys.
        Options {
            arena_keys: 64,
            table_bits: 6,
            ..full
        },
        // Every footprint's items that must not be seen in a summary; then
        // past 3 keys, in a table and an arena small enough to evict.
        Options {
            list_keys: 0,
            ..full
        },
        Options {
            list_keys: 3,
            table_bits: 6,
            arena_keys: 1 << 14,
            deepening: 2,
            ..full
        },
    ]
    .into_iter()
    .chain(proof_number_option_sets())
    .collect()
}

/// The proof-number search (`Options::proof_numbers`): for every null
/// window at once, after a first horizon, without sharing between
/// histories, with summaries, and in a table and arena small enough to
/// forget decisions.
fn proof_number_option_sets() -> Vec<Options> {
    let full = Options::default();
    vec![
        Options {
            proof_numbers: 1,
            ..full
        },
        Options {
            deepening: 0,
            proof_numbers: 1,
            ..full
        },
        Options {
            deepening: 2,
            deepening_step: 2,
            proof_numbers: 4,
            ..full
        },
        Options {
            proof_numbers: 1,
            share: false,
            ..full
        },
        Options {
            proof_numbers: 1,
            list_keys: 0,
            ..full
        },
        Options {
            proof_numbers: 1,
            total: false,
            table_bits: 6,
            arena_keys: 1 << 8,
            ..full
        },
    ]
}

/// Each pruning theorem (`Options::total`) keeps every opening's value that
/// the search without it finds, on boards past the brute force's reach.
#[test]
fn pruning_keeps_the_values_of_the_search_without_it() {
    for rule in [Superko::Positional, Superko::Situational] {
        for name in ["2x3", "2x4", "3x3"] {
            let board = board(name);
            let without = Options {
                total: false,
                ..Options::default()
            };
            let expected = Solver::new(board, rule, without).opening_values();
            let mut solver = Solver::new(board, rule, Options::default());
            assert_eq!(solver.opening_values(), expected, "{name} {rule} total");
            assert!(
                solver.stats().total > 0,
                "{name} {rule}: the theorem applied"
            );
        }
    }
}

#[test]
fn every_opening_value_agrees_with_the_brute_force() {
    for rule in [Superko::Positional, Superko::Situational] {
        for name in BOARDS {
            let board = board(name);
            let expected = brute_openings(&board, rule);
            for options in every_option_set() {
                let mut solver = Solver::new(board, rule, options);
                assert_eq!(
                    solver.opening_values(),
                    expected,
                    "{name} {rule} with {options:?}"
                );
            }
        }
    }
}

#[test]
fn the_empty_board_value_agrees_with_the_brute_force() {
    for rule in [Superko::Positional, Superko::Situational] {
        for name in BOARDS {
            let board = board(name);
            let expected = Plain::start().exact(&board, rule);
            let mut solver = Solver::new(board, rule, Options::default());
            let mut game = Game::new(board, rule).unwrap();
            assert_eq!(solver.value(&mut game), Some(expected), "{name} {rule}");
            assert_eq!(
                empty_board_value(&solver.opening_values()),
                expected,
                "{name} {rule}: Theorems 1 and 3"
            );
        }
    }
}

/// Random games: at every state along them the solver, with a table that
/// lives on from one state to the next and shares its results between
/// histories, agrees with the brute force on the same history; with the
/// default horizons and with horizons short enough that most searches meet
/// them (`Options::deepening`), where the table keeps what each proved.
#[test]
fn values_along_random_games_agree_with_the_brute_force() {
    let mut random = SplitMix::new(39);
    let short = Options {
        deepening: 2,
        ..Options::default()
    };
    let summaries = Options {
        list_keys: 0,
        ..short
    };
    let proof_numbers = Options {
        proof_numbers: 1,
        ..Options::default()
    };
    for rule in [Superko::Positional, Superko::Situational] {
        for (name, options) in [
            ("1x4", Options::default()),
            ("1x5", Options::default()),
            ("2x2", Options::default()),
            ("1x5", short),
            ("2x2", short),
            ("1x5", summaries),
            ("2x2", summaries),
            ("1x5", proof_numbers),
            ("2x2", proof_numbers),
        ] {
            let board = board(name);
            let mut solver = Solver::new(board, rule, options);
            for _ in 0..6 {
                let mut game = Game::new(board, rule).unwrap();
                let mut plain = Plain::start();
                loop {
                    assert_eq!(
                        solver.value(&mut game),
                        Some(plain.exact(&board, rule)),
                        "{name} {rule} after {} turns",
                        game.turns()
                    );
                    let moves = game.legal_moves();
                    let mv = moves[random.below(moves.len() as u64) as usize];
                    let Some(Ok(next)) = plain.after(&board, rule, mv) else {
                        break;
                    };
                    game.play(mv).unwrap();
                    plain = next;
                }
            }
        }
    }
}

#[test]
fn a_placement_that_recreates_a_position_is_refused() {
    // 1x2: Black A1, White B1 captures it; Black A1 would capture White
    // and bring back the position after Black's first move.
    let board = board("1x2");
    let a1 = Move::Place(Point::new(0));
    let b1 = Move::Place(Point::new(1));
    for rule in [Superko::Positional, Superko::Situational] {
        let mut game = Game::new(board, rule).unwrap();
        game.play(a1).unwrap();
        game.play(b1).unwrap();
        assert_eq!(game.play(a1), Err(Refusal::Superko));
        assert_eq!(game.legal_moves(), vec![Move::Pass]);
        game.play(Move::Pass).unwrap();
        // White A1 would fill White's own last liberty.
        assert_eq!(game.play(a1), Err(Refusal::Illegal));
        game.play(Move::Pass).unwrap();
        assert!(game.is_over());
        assert_eq!(game.play(Move::Pass), Err(Refusal::Over));
        assert!(game.undo());
        assert!(!game.is_over());
    }
}

#[test]
fn a_pass_adds_a_situation_but_no_position() {
    let board = board("1x3");
    // Black B1 standing, with White to move, then (after White's pass)
    // with Black to move: the items of the seen set.
    let white_to_move = 2;
    let black_to_move = 2 | 1 << 6;
    for rule in [Superko::Positional, Superko::Situational] {
        let mut game = Game::new(board, rule).unwrap();
        game.play(Move::Place(Point::new(1))).unwrap();
        let before = game.seen().hash();
        game.play(Move::Pass).unwrap();
        let changed = game.seen().hash() != before;
        assert_eq!(changed, rule == Superko::Situational, "{rule}");
        assert!(game.seen().contains(white_to_move));
        assert_eq!(
            game.seen().contains(black_to_move),
            rule == Superko::Situational
        );
    }
}

#[test]
fn boards_too_large_or_not_plain_are_refused() {
    assert!(Game::new(board("5x6"), Superko::Positional).is_err());
    assert!(Game::new(board("2x5c"), Superko::Positional).is_err());
    assert!(Game::new(board("5x5"), Superko::Positional).is_ok());
}

/// `best_move` on every state along random games: its value is the brute
/// force's, and the brute force gives the move that value.
#[test]
fn the_best_move_reaches_the_brute_force_value() {
    let mut random = SplitMix::new(7);
    for rule in [Superko::Positional, Superko::Situational] {
        for name in ["1x4", "1x5", "2x2"] {
            let board = board(name);
            let mut solver = Solver::new(board, rule, Options::default());
            for _ in 0..4 {
                let mut game = Game::new(board, rule).unwrap();
                let mut plain = Plain::start();
                while let Some((best, value)) = solver.best_move(&mut game) {
                    assert_eq!(value, plain.exact(&board, rule), "{name} {rule}");
                    let reached = match plain.after(&board, rule, best) {
                        Some(Ok(next)) => -next.exact(&board, rule),
                        Some(Err(margin)) => margin,
                        None => panic!("{name} {rule}: {best:?} is not legal"),
                    };
                    assert_eq!(reached, value, "{name} {rule}: {best:?}");
                    let moves = game.legal_moves();
                    let mv = moves[random.below(moves.len() as u64) as usize];
                    let Some(Ok(next)) = plain.after(&board, rule, mv) else {
                        break;
                    };
                    game.play(mv).unwrap();
                    plain = next;
                }
            }
        }
    }
}

#[test]
fn a_search_past_its_deadline_stops_and_says_so() {
    // 1x9's lines are deep: the search runs on the solver's deep stack.
    super::solve::with_deep_stack(|| {
        let board = board("1x9");
        let mut solver = Solver::new(board, Superko::Positional, Options::default());
        let mut game = Game::new(board, Superko::Positional).unwrap();
        solver.set_deadline(Some(std::time::Instant::now()));
        assert_eq!(solver.best_move(&mut game), None);
        assert!(solver.stopped());
        // A new deadline forgets the stop; 1x3 finishes within it.
        let board = self::board("1x3");
        let mut solver = Solver::new(board, Superko::Positional, Options::default());
        solver.set_deadline(Some(std::time::Instant::now()));
        solver.set_deadline(None);
        let mut game = Game::new(board, Superko::Positional).unwrap();
        assert_eq!(solver.best_move(&mut game).map(|(_, v)| v), Some(3));
        assert!(!solver.stopped());
    });
}

/// The table's sharing between histories on boards too large for the brute
/// force: along random games on 1x6 and 2x3, at every state, the
/// solver whose table lives on from one state to the next (and shares
/// results between the histories of every game played so far) agrees with
/// a solver without a table, itself checked against the brute force
/// above. A footprint that left out a refusal or a move's legality would
/// let an entry serve a history where its proof does not hold.
#[test]
fn sharing_between_histories_agrees_with_the_solver_without_a_table() {
    let mut random = SplitMix::new(3939);
    let plain = Options {
        table_bits: 0,
        ..Options::default()
    };
    let small_table = Options {
        table_bits: 8,
        deepening: 3,
        ..Options::default()
    };
    let summaries = Options {
        list_keys: 0,
        ..Options::default()
    };
    for rule in [Superko::Positional, Superko::Situational] {
        for (name, games) in [("1x6", 12), ("2x3", 12)] {
            let board = board(name);
            let mut shared = Solver::new(board, rule, Options::default());
            let mut crowded = Solver::new(board, rule, small_table);
            let mut summarised = Solver::new(board, rule, summaries);
            let mut reference = Solver::new(board, rule, plain);
            for _ in 0..games {
                let mut game = Game::new(board, rule).unwrap();
                while !game.is_over() {
                    let expected = reference.value(&mut game);
                    assert_eq!(
                        shared.value(&mut game),
                        expected,
                        "{name} {rule} after {} turns",
                        game.turns()
                    );
                    assert_eq!(crowded.value(&mut game), expected, "{name} {rule}");
                    assert_eq!(summarised.value(&mut game), expected, "{name} {rule}");
                    let moves = game.legal_moves();
                    game.play(moves[random.below(moves.len() as u64) as usize])
                        .unwrap();
                }
            }
            assert!(shared.stats().table_shared > 0, "{name} {rule}");
            assert!(summarised.stats().table_shared > 0, "{name} {rule}");
        }
    }
}

/// Recalling unknown results (`Options::recall_unknown`, on by default)
/// changes no value: every opening of 1x6, 1x7, 2x3, 2x4 and 3x3, and every
/// state along random games on 1x6 and 2x3 with the tables living on, as
/// the search without a horizon finds them (itself checked against the
/// brute force above), with the default horizon and with short ones that
/// most searches meet; and the recall happened.
#[test]
fn recalled_unknown_results_keep_the_values_of_the_search_without_a_horizon() {
    let whole = Options {
        deepening: 0,
        ..Options::default()
    };
    let horizons = [
        Options::default(),
        Options {
            deepening: 2,
            ..Options::default()
        },
        Options {
            deepening: 5,
            deepening_step: 0,
            table_bits: 8,
            ..Options::default()
        },
        Options {
            deepening: 6,
            mtdf: false,
            ..Options::default()
        },
    ];
    for rule in [Superko::Positional, Superko::Situational] {
        for name in ["1x6", "1x7", "2x3", "2x4", "3x3"] {
            let board = board(name);
            let expected = Solver::new(board, rule, whole).opening_values();
            for options in horizons {
                let mut solver = Solver::new(board, rule, options);
                assert_eq!(
                    solver.opening_values(),
                    expected,
                    "{name} {rule} with {options:?}"
                );
                assert!(
                    solver.stats().recalled > 0 || options == Options::default(),
                    "{name} {rule}: recalled with {options:?}"
                );
            }
        }
    }
    let mut random = SplitMix::new(1212);
    for rule in [Superko::Positional, Superko::Situational] {
        for name in ["1x6", "2x3"] {
            let board = board(name);
            let mut reference = Solver::new(board, rule, whole);
            let mut solvers: Vec<Solver> = horizons
                .iter()
                .map(|&options| Solver::new(board, rule, options))
                .collect();
            random_games_agree(name, rule, &mut reference, &mut solvers, &mut random);
            assert!(
                solvers.iter().all(|s| s.stats().recalled > 0),
                "{name} {rule}"
            );
        }
    }
}

/// Footprints against plain sets of tagged keys: random children absorbed
/// and taken as the lower bound's, with the child's own item dropped from
/// what must be seen and (for a placement) added to what must not; and
/// `holds` against a plain test of each key, on a bit-map seen set and a
/// hash-set one.
#[test]
fn footprints_merge_as_plain_sets_and_hold_where_the_seen_set_agrees() {
    use std::collections::BTreeSet;
    let mut random = SplitMix::new(4096);
    for points in [9, 20] {
        let mut seen = Seen::new(points);
        // Black's stones, then White's on other points.
        let items: Vec<u64> = (0..200)
            .map(|_| {
                let black = random.below(1 << points);
                let white = random.below(1 << points) & !black;
                black | (white << points)
            })
            .collect();
        for &item in &items[..100] {
            seen.insert(item);
        }
        let key = |i: usize| seen.key(items[i]);
        for round in 0..400 {
            let mut random_footprint = |size: u64| {
                let mut plain = BTreeSet::new();
                let mut footprint = Footprint::default();
                for _ in 0..random.below(size + 1) {
                    let i = random.below(items.len() as u64) as usize;
                    let tagged = if random.below(2) == 0 {
                        must_see(key(i))
                    } else {
                        must_not_see(key(i))
                    };
                    footprint.push(tagged);
                    plain.insert(tagged);
                }
                footprint.normalize();
                (footprint, plain)
            };
            let (mut parent, mut expected) = random_footprint(1 + round % 40);
            let (child, child_plain) = random_footprint(1 + round % 60);
            let added = key(random.below(items.len() as u64) as usize);
            let mut scratch = Vec::new();
            parent.absorb(&child, added, &mut scratch);
            expected.extend(
                child_plain
                    .iter()
                    .copied()
                    .filter(|&k| k != must_see(added)),
            );
            assert_eq!(
                parent.keys(),
                expected.iter().copied().collect::<Vec<_>>(),
                "round {round}"
            );
            let mut lower = Footprint::default();
            lower.set_from_child(&child, added, true);
            let mut expected: BTreeSet<u64> = child_plain
                .iter()
                .copied()
                .filter(|&k| k != must_see(added))
                .collect();
            expected.insert(must_not_see(added));
            assert_eq!(
                lower.keys(),
                expected.iter().copied().collect::<Vec<_>>(),
                "round {round}"
            );
            let plain_holds = parent
                .keys()
                .iter()
                .all(|&k| seen.contains_key(k >> 1) == (k & 1 == 1));
            assert_eq!(holds(&seen, parent.keys()), plain_holds, "round {round}");
        }
        // A footprint built from the seen set itself holds; flipping one
        // key's tag makes it fail.
        let mut own = Footprint::default();
        for &item in &items {
            own.push(if seen.contains(item) {
                must_see(seen.key(item))
            } else {
                must_not_see(seen.key(item))
            });
        }
        own.normalize();
        assert!(holds(&seen, own.keys()));
        let mut flipped = own.keys().to_vec();
        flipped[7] ^= 1;
        assert!(!holds(&seen, &flipped));
    }
}

/// Footprints with a summary (`Footprint::with_limit`) against plain sets
/// of tagged keys: built by the same random absorbs and lower bounds, a
/// summarised footprint lists exactly the plain set's items that must be
/// seen, and admits no seen set that the plain set rejects; it admits most
/// of those the plain set admits (a summary that rejected everything would
/// be sound and useless); and a seen set holding one item the summary took
/// in is rejected.
#[test]
fn summarised_footprints_demand_at_least_their_keys() {
    use std::collections::BTreeSet;
    let mut random = SplitMix::new(512);
    let points = 9;
    let items: Vec<u64> = (0..3000)
        .map(|_| {
            let black = random.below(1 << points);
            let white = random.below(1 << points) & !black;
            black | (white << points)
        })
        .collect();
    let keys = Seen::new(points);
    let key = |i: usize| keys.key(items[i]);
    let (mut admitted, mut plain_admitted) = (0, 0);
    for round in 0..300 {
        let limit = (round % 5) * 4;
        let mut footprint = Footprint::with_limit(limit);
        let mut plain = BTreeSet::new();
        let mut scratch = Vec::new();
        for _ in 0..1 + round % 7 {
            let mut child = Footprint::with_limit(limit);
            let mut child_plain = BTreeSet::new();
            // Items that must be seen come from the first 40, the others
            // from the rest.
            for _ in 0..random.below(200) {
                let tagged = if random.below(4) == 0 {
                    must_see(key(random.below(40) as usize))
                } else {
                    must_not_see(key(40 + random.below(2960) as usize))
                };
                child.push(tagged);
                child_plain.insert(tagged);
            }
            child.normalize();
            let added = key(random.below(40) as usize);
            let child_plain = child_plain.into_iter().filter(|&k| k != must_see(added));
            if random.below(3) == 0 {
                let mut lower = Footprint::with_limit(limit);
                lower.set_from_child(&child, added, false);
                footprint.union(&lower, &mut scratch);
            } else {
                footprint.absorb(&child, added, &mut scratch);
            }
            plain.extend(child_plain);
        }
        let must: Vec<u64> = plain.iter().copied().filter(|k| k & 1 == 1).collect();
        if footprint.bloom().is_some() {
            assert_eq!(footprint.keys(), must, "round {round}");
        } else {
            assert_eq!(footprint.keys(), plain.iter().copied().collect::<Vec<_>>());
        }
        // Seen sets: the items that must be seen, and a few others, some of
        // them items that must not be.
        for _ in 0..20 {
            let mut seen = Seen::new(points);
            for (i, &item) in items.iter().enumerate().take(40) {
                if plain.contains(&must_see(key(i))) || random.below(2) == 0 {
                    seen.insert(item);
                }
            }
            let unseen: Vec<u64> = plain.iter().copied().filter(|k| k & 1 == 0).collect();
            if !unseen.is_empty() && random.below(4) == 0 {
                let k = unseen[random.below(unseen.len() as u64) as usize] >> 1;
                let i = (40..items.len()).find(|&i| key(i) == k).unwrap();
                seen.insert(items[i]);
            }
            for _ in 0..random.below(30) {
                seen.insert(items[40 + random.below(2960) as usize]);
            }
            let plain_holds = plain
                .iter()
                .all(|&k| seen.contains_key(k >> 1) == (k & 1 == 1));
            let holds = footprint.holds(&seen);
            assert!(!holds || plain_holds, "round {round}: admitted wrongly");
            plain_admitted += usize::from(plain_holds);
            admitted += usize::from(holds);
        }
    }
    assert!(plain_admitted > 300, "{plain_admitted}");
    assert!(
        10 * admitted >= 9 * plain_admitted,
        "{admitted} of {plain_admitted}"
    );
}

/// The points each side keeps (`super::alive`) bound the value of every
/// state along random games, whatever the history: the brute force's value
/// (1x5, 2x2) or the solver's without these bounds (1x7, 2x3, itself
/// checked against the brute force and the solver without a table) lies within 2 A_us - n and n - 2 A_them; and
/// the bound is reached with points kept on some state of each board, so
/// that a bound counting too much would fail.
#[test]
fn the_points_each_side_keeps_bound_every_value() {
    let mut random = SplitMix::new(5);
    let reference = Options {
        alive: false,
        ..Options::default()
    };
    for rule in [Superko::Positional, Superko::Situational] {
        for (name, games, brute) in [
            ("1x5", 40, true),
            ("2x2", 40, true),
            ("1x7", 30, false),
            ("2x3", 30, false),
        ] {
            let board = board(name);
            let n = board.points() as i32;
            let mut solver = Solver::new(board, rule, reference);
            let mut kept_somewhere = false;
            for _ in 0..games {
                let mut game = Game::new(board, rule).unwrap();
                let mut plain = Plain::start();
                while !game.is_over() {
                    let value = if brute {
                        plain.exact(&board, rule)
                    } else {
                        solver.value(&mut game).unwrap()
                    };
                    let node = game.node();
                    let (us, them) = (node.position.us(), node.position.them());
                    let ours = alive::safe_points(&board, us, them).len() as i32;
                    let theirs = alive::safe_points(&board, them, us).len() as i32;
                    assert!(
                        2 * ours - n <= value && value <= n - 2 * theirs,
                        "{name} {rule}: {value} outside {} to {} at {:?}",
                        2 * ours - n,
                        n - 2 * theirs,
                        node
                    );
                    kept_somewhere |= (ours > 0 && value == 2 * ours - n)
                        || (theirs > 0 && value == n - 2 * theirs);
                    let moves = game.legal_moves();
                    let mv = moves[random.below(moves.len() as u64) as usize];
                    if let Some(Ok(next)) = plain.after(&board, rule, mv) {
                        plain = next;
                    }
                    game.play(mv).unwrap();
                }
            }
            assert!(kept_somewhere, "{name} {rule}: a bound met");
        }
    }
}

/// Unconditional life on a line and on a rectangle, by hand: `.X.X.` keeps
/// all five points (two alive stones, three one-point eyes); a string with
/// one eye, or whose second region has an empty point it does not touch,
/// keeps nothing; an eye the opponent has a stone in is no one-point eye.
#[test]
fn the_points_kept_by_hand() {
    let line = board("1x7");
    let set = |points: &[usize]| {
        let mut set = PointSet::EMPTY;
        for &p in points {
            set.insert(Point::new(p));
        }
        set
    };
    // .X.X...: the string at B1 has A1 and C1, the one at D1 has C1 and
    // the region E1-G1, whose empty points F1 and G1 are not its liberties.
    assert_eq!(
        alive::safe_points(&line, set(&[1, 3]), PointSet::EMPTY),
        PointSet::EMPTY
    );
    // .X.X.X.: every stone alive, every empty point an eye.
    assert_eq!(
        alive::safe_points(&line, set(&[1, 3, 5]), PointSet::EMPTY),
        line.all()
    );
    // .X.X.O on 1x6: both strings alive (E1, White's stone F1's liberty,
    // is a liberty of D1), A1 and C1 one-point eyes, E1 not (it touches
    // White's stone).
    let six = board("1x6");
    let kept = alive::safe_points(&six, set(&[1, 3]), set(&[5]));
    assert_eq!(kept, set(&[0, 1, 2, 3]));
    // XX.XX.O on 1x7: B1-A1 has one region only.
    assert_eq!(
        alive::safe_points(&line, set(&[0, 1, 3, 4]), set(&[6])),
        PointSet::EMPTY
    );
    // 2x3: XXX on row 1, X.X on row 2, one string with one eye (B2): not
    // alive.
    let rectangle = board("2x3");
    assert_eq!(
        alive::safe_points(&rectangle, set(&[0, 1, 2, 3, 5]), PointSet::EMPTY),
        PointSet::EMPTY
    );
}

/// The memory budget: the table's entries within a sixteenth, the arena's
/// two copies within the rest with the entries and their tags.
#[test]
fn the_table_and_arena_fit_their_memory() {
    for mib in [1u64, 3, 256, 1000, 4096] {
        let bytes = mib << 20;
        let options = Options::default().with_memory(bytes);
        let entries = (1u64 << options.table_bits) * super::solve::ENTRY_BYTES;
        assert!(
            entries <= bytes / 16 && 2 * entries > bytes / 16,
            "{mib} MiB"
        );
        let table = (1u64 << options.table_bits) * super::solve::SLOT_BYTES;
        assert!(table + 16 * options.arena_keys <= bytes, "{mib} MiB");
    }
}

/// A crowded arena along random games on 1x6 and 2x3: entries evicted and
/// long footprints left unstored, every value the same as the solver's
/// without a table, every slot's tag its entry's state after each search;
/// and the enhanced transposition cut-offs found.
#[test]
fn evictions_and_transposition_cutoffs_keep_every_value() {
    let mut random = SplitMix::new(77);
    let reference = Options {
        table_bits: 0,
        deepening: 0,
        ..Options::default()
    };
    let crowded = Options {
        arena_keys: 1 << 8,
        table_bits: 8,
        ..Options::default()
    };
    for rule in [Superko::Positional, Superko::Situational] {
        for name in ["1x6", "2x3"] {
            let board = board(name);
            let mut plain = Solver::new(board, rule, reference);
            let mut small = Solver::new(board, rule, crowded);
            let mut full = Solver::new(board, rule, Options::default());
            for _ in 0..10 {
                let mut game = Game::new(board, rule).unwrap();
                while !game.is_over() {
                    let expected = plain.value(&mut game);
                    assert_eq!(small.value(&mut game), expected, "{name} {rule}");
                    assert_eq!(full.value(&mut game), expected, "{name} {rule}");
                    assert!(small.tags_agree() && full.tags_agree(), "{name} {rule}");
                    let moves = game.legal_moves();
                    game.play(moves[random.below(moves.len() as u64) as usize])
                        .unwrap();
                }
            }
            let stats = small.stats();
            assert!(
                stats.evicted > 0 && stats.too_long > 0,
                "{name} {rule}: {stats:?}"
            );
            assert!(full.stats().etc > 0, "{name} {rule}");
        }
    }
}

/// The openings shared out between two threads, each with a solver and a
/// table of its own: the same values, in the same order, as one thread and
/// as the brute force on 1x1 to 1x5 and 2x2, and on 1x6 (where the brute
/// force takes many minutes) as the solver without a table;
/// under both rules, with the default table and with a crowded one.
#[test]
fn two_threads_find_the_values_of_one_and_of_the_brute_force() {
    use super::solve::solve_openings;
    let crowded = Options {
        arena_keys: 1 << 8,
        table_bits: 6,
        ..Options::default()
    };
    let plain = Options {
        table_bits: 0,
        deepening: 0,
        ..Options::default()
    };
    for rule in [Superko::Positional, Superko::Situational] {
        for name in ["1x1", "1x2", "1x3", "1x4", "1x5", "1x6", "2x2"] {
            let board = board(name);
            let expected = if name == "1x6" {
                Solver::new(board, rule, plain).opening_values()
            } else {
                brute_openings(&board, rule)
            };
            for options in [Options::default(), crowded] {
                let one = solve_openings(board, rule, options, 1, 0, None);
                assert_eq!(one.values, expected, "{name} {rule}, one thread");
                assert_eq!(one.solvers.len(), 1);
                let two = solve_openings(board, rule, options, 2, 0, None);
                assert_eq!(two.values, expected, "{name} {rule}, two threads");
                assert_eq!(
                    two.solvers.len(),
                    opening_points(&board).len().min(2),
                    "{name}: one thread an opening at most"
                );
                assert!(!two.stopped());
                assert_eq!(two.states.len(), expected.len());
                assert_eq!(
                    two.stats().nodes,
                    two.states.iter().sum::<u64>(),
                    "{name}: every state belongs to one opening"
                );
            }
        }
    }
}

/// `solve_openings`'s reports (`Progress`): one `Solved` an opening with
/// the value and states of the result, and the iterations of the deepening
/// adding up to every state searched (and every store and footprint key),
/// each search from the root ending in
/// exactly one proven iteration, every other one unknown at a horizon
/// shorter than the next; on one thread and on two, with short horizons
/// that most searches pass.
#[test]
fn the_progress_reports_add_up_to_the_solved_openings() {
    use super::solve::{solve_openings, Iteration, Progress};
    use std::sync::{Arc, Mutex};
    let options = Options {
        deepening: 3,
        deepening_step: 2,
        ..Options::default()
    };
    for name in ["1x6", "2x3", "2x4"] {
        let board = board(name);
        for threads in [1, 2] {
            type Event = (usize, Option<Iteration>, Option<(i32, u64)>);
            let events: Arc<Mutex<Vec<Event>>> = Arc::default();
            let kept = events.clone();
            let report = Arc::new(move |progress: Progress<'_>| {
                let event = match progress {
                    Progress::Iteration { opening, iteration } => (opening, Some(*iteration), None),
                    Progress::Solved {
                        opening,
                        value,
                        states,
                    } => (opening, None, Some((value, states))),
                };
                kept.lock().unwrap().push(event);
            });
            let openings = solve_openings(
                board,
                Superko::Positional,
                options,
                threads,
                0,
                Some(report),
            );
            let events = events.lock().unwrap();
            let mut solved: Vec<(usize, (i32, u64))> = events
                .iter()
                .filter_map(|&(i, _, s)| s.map(|s| (i, s)))
                .collect();
            solved.sort_unstable();
            let points = opening_points(&board);
            let expected: Vec<(usize, (i32, u64))> = openings
                .values
                .iter()
                .zip(&openings.states)
                .map(|(&(p, v), &s)| (points.iter().position(|&q| q == p).unwrap(), (v, s)))
                .collect();
            assert_eq!(solved, expected, "{name} on {threads}");
            let iterations: Vec<(usize, Iteration)> = events
                .iter()
                .filter_map(|&(i, it, _)| it.map(|it| (i, it)))
                .collect();
            let stats = openings.stats();
            assert_eq!(
                iterations.iter().map(|(_, it)| it.states).sum::<u64>(),
                stats.nodes,
                "{name} on {threads}"
            );
            assert_eq!(
                iterations.iter().map(|(_, it)| it.recalled).sum::<u64>(),
                stats.recalled,
                "{name} on {threads}"
            );
            assert_eq!(
                iterations.iter().map(|(_, it)| it.stores).sum::<u64>(),
                stats.table_stores,
                "{name} on {threads}"
            );
            assert_eq!(
                iterations
                    .iter()
                    .map(|(_, it)| it.footprint_keys)
                    .sum::<u64>(),
                stats.footprint_keys,
                "{name} on {threads}"
            );
            assert_eq!(
                iterations.iter().filter(|(_, it)| it.proven).count() as u64,
                stats.searches,
                "{name} on {threads}"
            );
            assert!(
                iterations.iter().any(|(_, it)| !it.proven),
                "{name}: some horizon was met"
            );
            for opening in 0..points.len() {
                let mine: Vec<&Iteration> = iterations
                    .iter()
                    .filter(|(i, _)| *i == opening)
                    .map(|(_, it)| it)
                    .collect();
                assert!(mine.last().is_some_and(|it| it.proven), "{name} {opening}");
                for pair in mine.windows(2) {
                    if !pair[0].proven {
                        assert_eq!((pair[1].alpha, pair[1].beta), (pair[0].alpha, pair[0].beta));
                        assert!(pair[1].horizon > pair[0].horizon, "{name} {opening}");
                    }
                }
            }
        }
    }
}

/// The proof-number search (`Options::proof_numbers`) against the
/// alpha-beta search, on boards past the brute force's reach: every
/// opening of 1x6, 1x7, 1x8, 2x3, 2x4 and 3x3 under both rules, with
/// its option sets above (on 1x8 and 3x3 the first three; the alpha-beta search of the default
/// options is checked against the brute force and the search without a
/// table above); and every state along random games on 1x6 and 2x3 with
/// the tables living on, sharing decisions between histories, against
/// the search without a table; the proof-number search decided windows
/// and its decisions served other histories.
#[test]
fn the_proof_number_search_finds_the_values_of_the_alpha_beta_search() {
    super::solve::with_deep_stack(|| {
        for rule in [Superko::Positional, Superko::Situational] {
            for name in ["1x6", "1x7", "1x8", "2x3", "2x4", "3x3"] {
                let board = board(name);
                let expected = Solver::new(board, rule, Options::default()).opening_values();
                // On the larger boards the sets that share a table: a table
                // without sharing, or one that forgets, takes minutes there.
                let sets = proof_number_option_sets();
                let sets = match name {
                    "1x8" | "3x3" => &sets[..3],
                    _ => &sets[..],
                };
                for &options in sets {
                    let mut solver = Solver::new(board, rule, options);
                    assert_eq!(
                        solver.opening_values(),
                        expected,
                        "{name} {rule} with {options:?}"
                    );
                    assert!(solver.stats().table_stores > 0, "{name} {rule}");
                }
            }
        }
        let reference = Options {
            table_bits: 0,
            ..Options::default()
        };
        let mut random = SplitMix::new(4242);
        for rule in [Superko::Positional, Superko::Situational] {
            for name in ["1x6", "2x3"] {
                let board = board(name);
                let mut plain = Solver::new(board, rule, reference);
                let mut solvers: Vec<Solver> = proof_number_option_sets()
                    .into_iter()
                    .map(|options| Solver::new(board, rule, options))
                    .collect();
                random_games_agree(name, rule, &mut plain, &mut solvers, &mut random);
                for solver in &solvers[..3] {
                    assert!(solver.stats().table_shared > 0, "{name} {rule}");
                }
            }
        }
    });
}

/// Plays eight random games on `name` under `rule`, and checks that every
/// solver of `solvers` gives `reference`'s value at every turn of them
/// (their tables kept from one position to the next).
fn random_games_agree(
    name: &str,
    rule: Superko,
    reference: &mut Solver,
    solvers: &mut [Solver],
    random: &mut SplitMix,
) {
    for _ in 0..8 {
        let mut game = Game::new(board(name), rule).unwrap();
        while !game.is_over() {
            let expected = reference.value(&mut game);
            for solver in solvers.iter_mut() {
                assert_eq!(
                    solver.value(&mut game),
                    expected,
                    "{name} {rule} after {} turns",
                    game.turns()
                );
            }
            let moves = game.legal_moves();
            game.play(moves[random.below(moves.len() as u64) as usize])
                .unwrap();
        }
    }
}
