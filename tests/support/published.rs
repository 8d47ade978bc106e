//! The published figures of `tests/published.csv` (the reference work's
//! results at komi 0, the published legal position counts), read for the
//! tests that check the solver and the counter against them. The program
//! itself never reads them.

/// The published result of `board` at komi 0 (`draw`, `B+9`, as
/// `root_result` writes them), if there is one.
pub(crate) fn result(board: &str) -> Option<&'static str> {
    figures("result")
        .find(|(name, _)| *name == board)
        .map(|(_, value)| value)
}

/// Black's margin a published result fixes at komi 0 (0 for a draw).
pub(crate) fn black_margin(result: &str) -> f64 {
    match result {
        "draw" => 0.0,
        _ => result
            .strip_prefix("B+")
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("published.csv: '{result}' is not a result")),
    }
}

/// The (board, value) pairs of one kind (`result` or `legal`), in the
/// file's order; the source, the last field, may hold commas.
pub(crate) fn figures(kind: &'static str) -> impl Iterator<Item = (&'static str, &'static str)> {
    include_str!("../published.csv")
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .skip(1)
        .map(|line| {
            let fields: Vec<&str> = line.splitn(4, ',').collect();
            assert_eq!(fields.len(), 4, "published.csv: {line}");
            (fields[0], fields[1], fields[2])
        })
        .filter(move |(k, _, _)| *k == kind)
        .map(|(_, board, value)| (board, value))
}
