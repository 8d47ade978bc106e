//! The proof-number search of one null window (`Options::proof_numbers`):
//! depth-first proof-number search (df-pn, with Pawlewicz and Lew's 1 + 1/4
//! thresholds) over the states with their whole history, so with no
//! horizon. Superko makes every game finite and the states with their
//! seen sets form a graph without cycles (each placement adds a position
//! never seen, a pass sets the pass flag, two end the game), so the search
//! ends with a proof or a disproof.
//!
//! The question at a state with threshold t is "is the mover's value at
//! least t?"; at a child it is the same with 1 - t. A state is *proven*
//! (yes) when a child is disproven, or the ending pass (after the
//! opponent's pass) scores t or more; *disproven* (no) when every move is
//! refused or leads to a proven child. Only these decisions are stored in
//! the solver's table (lower bound t or more for yes, upper bound t - 1 or
//! less for no), with the footprints of the alpha-beta search
//! (`super::Footprint`, the module paragraph of `super`): a yes takes the
//! disproven child's footprint and its placement's legality, a no the
//! refusals and every child's footprint, built as the children are decided
//! (a child decided in an earlier visit is found in the table again, and
//! one whose entry is gone is searched again). A decision therefore holds
//! for every seen set its footprint admits, exactly as a bound of the
//! alpha-beta search, and the two share the table.
//!
//! The proof and disproof numbers of undecided states are estimates and
//! nothing more: they are kept in a table of their own (`Numbers`), keyed
//! by the state, the whole seen set's 128-bit hash and t, direct-mapped
//! and overwritten freely. A wrong or lost number costs time, never a
//! value.

use super::{allowed_placements, Solver, NO_MOVE, PASS, WAYS};
use crate::superko::{Node, Seen, MAX_POINTS};

/// A number too large to be reached: the disproof number of a proven
/// state and the proof number of a disproven one.
const INFINITE: u32 = u32::MAX;

/// The most an undecided state's numbers grow to.
const LARGEST: u32 = u32::MAX - 2;

/// An undecided state's numbers in `Solver::numbers`.
#[derive(Clone, Copy, Default)]
pub(super) struct Numbers {
    /// The state (`Solver::state_key`) mixed with t; 0 for an empty slot.
    state: u64,
    /// The seen set's hash.
    seen: u128,
    pn: u32,
    dn: u32,
}

/// A move of a state in the proof-number search, and its child's numbers.
#[derive(Clone, Copy)]
struct Kid {
    mv: u8,
    node: Node,
    key: u64,
    pn: u32,
    dn: u32,
}

/// Whether a (proof, disproof) pair is decided.
#[inline]
fn decided(numbers: (u32, u32)) -> bool {
    numbers.0 == 0 || numbers.1 == 0
}

impl Solver {
    /// Decides whether the mover's value at `node` under `seen` is at least
    /// `t`, by the proof-number search: the fail-soft bound (at least `t`
    /// when it is, at most `t - 1` when not), with its footprint in the
    /// root's frame as `search` leaves it; 0 when stopped.
    pub(super) fn prove(&mut self, seen: &mut Seen, node: Node, t: i32) -> i32 {
        if self.numbers.is_empty() {
            self.numbers = vec![Numbers::default(); 1 << self.options.table_bits.clamp(10, 22)];
        }
        self.horizon = u64::MAX;
        loop {
            let numbers = self.mid(seen, node, t, LARGEST + 1, LARGEST + 1);
            if self.stopped {
                return 0;
            }
            if decided(numbers) {
                return self.frames[1].bound;
            }
        }
    }

    /// The slot of a state's numbers under a seen set and threshold.
    #[inline]
    fn numbers_slot(&self, state: u64, seen: u128) -> usize {
        (crate::superko::mix(state ^ seen as u64 ^ (seen >> 64) as u64) as usize)
            & (self.numbers.len() - 1)
    }

    /// The numbers kept for a state, (1, 1) if none.
    #[inline]
    fn numbers_of(&self, state: u64, seen: u128) -> (u32, u32) {
        let slot = &self.numbers[self.numbers_slot(state, seen)];
        if slot.state == state && slot.seen == seen {
            (slot.pn, slot.dn)
        } else {
            (1, 1)
        }
    }

    /// The state key that the numbers keep: the state with t mixed in.
    #[inline]
    fn numbers_key(&self, node: &Node, t: i32) -> u64 {
        (self.state_key(node) ^ (u64::from(t as u8) << 52)).max(1)
    }

    /// Whether the state is decided for threshold `t` without a search: a
    /// total position, or an entry of the table admitted under `seen`
    /// whose bound settles it. If so, the footprint goes to frame `into`'s
    /// result and its bound to the frame's `bound`; `Some(true)` for
    /// proven, `Some(false)` for disproven.
    fn known(&mut self, seen: &Seen, node: &Node, t: i32, into: usize) -> Option<bool> {
        if self.options.total && self.is_total(node) {
            let value = node.position.area_score(&self.board);
            let frame = &mut self.frames[into];
            frame.result.clear();
            frame.bound = value;
            return Some(value >= t);
        }
        if self.table.is_empty() {
            return None;
        }
        let state = self.state_key(node);
        let slot = self.slot(state);
        for at in slot..slot + WAYS {
            if self.tags[at] != state {
                continue;
            }
            let entry = &self.table[at];
            let (lower, upper) = (i32::from(entry.lower), i32::from(entry.upper));
            if (lower < t && upper >= t) || !self.admits(seen, entry) {
                continue;
            }
            let entry = *entry;
            self.stats.table_hits += 1;
            self.stats.table_cutoffs += 1;
            if entry.whole != seen.hash() as u32 {
                self.stats.table_shared += 1;
            }
            let frame = &mut self.frames[into];
            if entry.len == super::WHOLE_ENTRY {
                frame.result.fill();
            } else {
                frame
                    .result
                    .set(entry.keys(&self.arena), entry.bloom(&self.arena));
            }
            let yes = lower >= t;
            frame.bound = if yes { lower } else { upper };
            return Some(yes);
        }
        None
    }

    /// The move of a state's first admitted entry, for the order of ties.
    fn hinted(&self, seen: &Seen, node: &Node) -> u8 {
        if self.table.is_empty() {
            return NO_MOVE;
        }
        let state = self.state_key(node);
        let slot = self.slot(state);
        (slot..slot + WAYS)
            .find(|&at| self.tags[at] == state && self.admits(seen, &self.table[at]))
            .map_or(NO_MOVE, |at| self.table[at].best)
    }

    /// One visit of df-pn at `node`: searches below it until its proof
    /// number reaches `th_pn` or its disproof number `th_dn`, or it is
    /// decided; returns its numbers. A decided state leaves its footprint
    /// and bound in its frame (one deeper than the caller's) and stores
    /// them in the table.
    fn mid(&mut self, seen: &mut Seen, node: Node, t: i32, th_pn: u32, th_dn: u32) -> (u32, u32) {
        let d = self.depth as usize + 1;
        if self.frames.len() <= d + 1 {
            let limit = self.options.list_keys as usize;
            self.frames.resize_with(d + 2, || super::Frame::new(limit));
        }
        if self.stopped {
            return (1, 1);
        }
        self.stats.nodes += 1;
        if (self.budget != 0 && self.stats.nodes >= self.budget)
            || (self.stats.nodes.is_multiple_of(super::CLOCK_STATES)
                && self
                    .deadline
                    .is_some_and(|deadline| std::time::Instant::now() >= deadline))
        {
            self.stopped = true;
            return (1, 1);
        }
        self.depth += 1;
        self.stats.max_depth = self.stats.max_depth.max(self.depth);
        if self.profile.len() <= d {
            self.profile.resize(d + 1, [0; 4]);
        }
        self.profile[d][0] += 1;
        let numbers = self.visit(seen, node, t, th_pn, th_dn, d);
        self.depth -= 1;
        numbers
    }

    /// The body of `mid`, at frame `d`.
    fn visit(
        &mut self,
        seen: &mut Seen,
        node: Node,
        t: i32,
        th_pn: u32,
        th_dn: u32,
        d: usize,
    ) -> (u32, u32) {
        let start = self.stats.nodes;
        let n = self.points as i32;
        if let Some(yes) = self.known(seen, &node, t, d) {
            self.profile[d][1] += 1;
            return if yes { (0, INFINITE) } else { (INFINITE, 0) };
        }
        let state = self.state_key(&node);
        let (rule, points) = (self.rule, self.points);

        // The moves, refusals into the footprint of a disproof; the ending
        // pass decides at once or drops out (a proven child).
        let mut kids = [Kid {
            mv: NO_MOVE,
            node,
            key: 0,
            pn: 1,
            dn: 1,
        }; MAX_POINTS + 1];
        let mut count = 0;
        let refused = allowed_placements(
            &self.board,
            (rule, points),
            seen,
            &node,
            &mut self.frames[d].upper,
            |mv, next, key, captured| {
                kids[count] = Kid {
                    mv,
                    node: next,
                    key,
                    pn: 1,
                    dn: 1,
                };
                if captured {
                    kids[..=count].rotate_right(1);
                }
                count += 1;
            },
        );
        self.stats.refusals += refused;
        // Upper bound of a disproof so far (the most any decided move
        // reaches).
        let mut most = -n - 1;
        if node.passed {
            let score = node.position.area_score(&self.board);
            if score >= t {
                let frame = &mut self.frames[d];
                frame.result.clear();
                frame.bound = score;
                self.decide(seen, state, d, score, n, PASS, start);
                return (0, INFINITE);
            }
            most = score;
        } else {
            let pass = Node {
                position: node.position.swapped(),
                black_to_move: !node.black_to_move,
                passed: true,
            };
            kids[count] = Kid {
                mv: PASS,
                node: pass,
                key: seen.key(pass.item(rule, points)),
                pn: 1,
                dn: 1,
            };
            count += 1;
        }
        let hint = self.hinted(seen, &node);
        if hint != NO_MOVE {
            if let Some(at) = kids[..count].iter().position(|k| k.mv == hint) {
                kids[..=at].rotate_right(1);
            }
        }

        // The children decided without a search, and the others' numbers.
        let mut at = 0;
        while at < count {
            let kid = kids[at];
            let item = kid.node.item(rule, points);
            let added = seen.insert_key(item, kid.key);
            let known = self.known(seen, &kid.node, 1 - t, d + 1);
            if known.is_none() {
                let (pn, dn) = self.numbers_of(self.numbers_key(&kid.node, 1 - t), seen.hash());
                kids[at].pn = pn;
                kids[at].dn = dn;
            }
            if added {
                seen.remove_key(item, kid.key);
            }
            match known {
                Some(false) => {
                    self.stats.etc += 1;
                    return self.proven(seen, state, d, kid, start);
                }
                Some(true) => {
                    self.decided_child(d, kid, &mut most);
                    kids.copy_within(at + 1..count, at);
                    count -= 1;
                }
                None => at += 1,
            }
        }

        loop {
            if count == 0 {
                return self.disproven(seen, state, d, most, start);
            }
            // The proof number is the least of the children's disproof
            // numbers, the disproof number the sum of their proof numbers.
            let (mut best, mut second) = (0, INFINITE);
            let mut sum = 0u32;
            for (i, kid) in kids[..count].iter().enumerate() {
                sum = sum.saturating_add(kid.pn);
                if kid.dn < kids[best].dn {
                    second = kids[best].dn;
                    best = i;
                } else if i != best && kid.dn < second {
                    second = kid.dn;
                }
            }
            let (pn, dn) = (kids[best].dn.min(LARGEST), sum.min(LARGEST));
            if pn >= th_pn || dn >= th_dn {
                let key = self.numbers_key(&node, t);
                let slot = self.numbers_slot(key, seen.hash());
                self.numbers[slot] = Numbers {
                    state: key,
                    seen: seen.hash(),
                    pn,
                    dn,
                };
                return (pn, dn);
            }
            let kid = kids[best];
            let child_pn = th_dn - (dn - kid.pn);
            let child_dn = th_pn.min(
                second
                    .saturating_add(second / 4)
                    .max(second.saturating_add(1)),
            );
            let item = kid.node.item(rule, points);
            let added = seen.insert_key(item, kid.key);
            let (cpn, cdn) = self.mid(seen, kid.node, 1 - t, child_pn, child_dn);
            if added {
                seen.remove_key(item, kid.key);
            }
            if self.stopped {
                return (1, 1);
            }
            if cdn == 0 {
                return self.proven(seen, state, d, kid, start);
            }
            if cpn == 0 {
                self.decided_child(d, kid, &mut most);
                kids.copy_within(best + 1..count, best);
                count -= 1;
            } else {
                kids[best].pn = cpn;
                kids[best].dn = cdn;
            }
        }
    }

    /// A child proven (its value at least 1 - t) is one more move that
    /// reaches at most t - 1: its footprint joins the disproof's, its bound
    /// the most reached.
    fn decided_child(&mut self, d: usize, kid: Kid, most: &mut i32) {
        let (here, below) = self.frames.split_at_mut(d + 1);
        let frame = &mut here[d];
        frame
            .upper
            .absorb(&below[0].result, kid.key, &mut frame.scratch);
        *most = (*most).max(-below[0].bound);
    }

    /// The state is proven by a disproven child (its footprint in the
    /// frame below): the bound, footprint and entry of the proof.
    fn proven(&mut self, seen: &Seen, state: u64, d: usize, kid: Kid, start: u64) -> (u32, u32) {
        let n = self.points as i32;
        let (here, below) = self.frames.split_at_mut(d + 1);
        let frame = &mut here[d];
        frame
            .result
            .set_from_child(&below[0].result, kid.key, kid.mv != PASS);
        frame.bound = -below[0].bound;
        let bound = frame.bound;
        self.decide(seen, state, d, bound, n, kid.mv, start);
        (0, INFINITE)
    }

    /// The state is disproven: every move refused or leading to a proven
    /// child, the most reached `most`.
    fn disproven(
        &mut self,
        seen: &Seen,
        state: u64,
        d: usize,
        most: i32,
        start: u64,
    ) -> (u32, u32) {
        let n = self.points as i32;
        let frame = &mut self.frames[d];
        std::mem::swap(&mut frame.result, &mut frame.upper);
        let bound = most.max(-n);
        frame.bound = bound;
        self.decide(seen, state, d, -n, bound, NO_MOVE, start);
        (INFINITE, 0)
    }

    /// Stores a decision found under frame `d`'s footprint (made the whole
    /// seen set first when the table is not shared between histories).
    #[allow(clippy::too_many_arguments)]
    fn decide(
        &mut self,
        seen: &Seen,
        state: u64,
        d: usize,
        lower: i32,
        upper: i32,
        best: u8,
        start: u64,
    ) {
        if !self.options.share {
            self.frames[d].result.fill();
        }
        self.store(seen, state, d, lower, upper, best, start);
    }
}
