//! The published figures of `tests/published.csv` (the reference work's
//! results at komi 0, the published legal position counts), read for the
//! tests that check the solver and the counter against them. The program
//! itself never reads them.

/// The results at komi 0, as `root_result` writes them (`draw`, `B+9`),
/// by board name, in the file's order.
pub fn results() -> Vec<(String, String)> {
    rows("result")
        .map(|(board, value)| (board.to_string(), value.to_string()))
        .collect()
}

/// The published result of `board` at komi 0, if there is one.
pub fn result(board: &str) -> Option<String> {
    rows("result")
        .find(|(name, _)| *name == board)
        .map(|(_, value)| value.to_string())
}

/// The legal position counts, by board name, in the file's order.
pub fn legal_positions() -> Vec<(String, u64)> {
    rows("legal")
        .map(|(board, value)| {
            let count = value
                .parse()
                .unwrap_or_else(|_| panic!("published.csv: {board}: '{value}' is not a count"));
            (board.to_string(), count)
        })
        .collect()
}

/// The published legal position count of `board`.
pub fn legal(board: &str) -> u64 {
    legal_positions()
        .into_iter()
        .find(|(name, _)| name == board)
        .unwrap_or_else(|| panic!("published.csv has no legal count of {board}"))
        .1
}

/// Black's margin a published result fixes at komi 0 (0 for a draw).
pub fn black_margin(result: &str) -> f64 {
    match result {
        "draw" => 0.0,
        _ => result
            .strip_prefix("B+")
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("published.csv: '{result}' is not a result")),
    }
}

/// The (board, value) pairs of one kind; the source, the last field, may
/// hold commas.
fn rows(kind: &'static str) -> impl Iterator<Item = (&'static str, &'static str)> {
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
