//! Win/draw/loss tables as a user meets them: `smallgo export --wdl`, its
//! file verified and, damaged, refused by `smallgo verify`; the engine
//! naming the tables that serve a board (`smallgo-table-info`), playing
//! whole games from one at its komi, falling back to the full values at
//! another, and refusing a board that has only a table of another komi.

use std::path::Path;

use crate::support::command::{smallgo, Smallgo};
use crate::support::files::shipped_table;

/// Exports `board`'s shipped table at `komi` into `folder/name`.
fn export(board: &str, komi: &str, folder: &Path, name: &str) -> String {
    let out = folder.join(name);
    let full = shipped_table(&format!("{board}.sgtb"));
    let outcome = smallgo(&[
        "export",
        "--wdl",
        "--komi",
        komi,
        full.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(outcome.status.success(), "{}", outcome.stderr);
    assert!(
        outcome.stdout.contains("win/draw/loss part:"),
        "{}",
        outcome.stdout
    );
    out.to_str().unwrap().to_string()
}

/// The GTP answers to `commands`, the `=` or `?` kept.
fn answers(arguments: &[&str], commands: &[&str]) -> Vec<String> {
    let mut input = commands.join("\n");
    input.push_str("\nquit\n");
    let text = Smallgo::new(arguments).input(&input).run().stdout;
    let mut answers: Vec<String> = text.split("\n\n").map(|a| a.trim().to_string()).collect();
    answers.truncate(commands.len());
    answers
}

#[test]
fn an_export_verifies_and_a_damaged_one_fails() {
    let folder = tempfile::tempdir().unwrap();
    let path = export("3x4", "-2", folder.path(), "3x4.wdl");
    let outcome = smallgo(&["verify", &path]);
    assert!(outcome.status.success(), "{}", outcome.stderr);
    assert!(
        outcome.stdout.contains("ok (win/draw/loss at komi -2"),
        "{}",
        outcome.stdout
    );
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() - 10;
    bytes[at] ^= 0x40;
    let damaged = folder.path().join("3x4.damaged.wdl");
    std::fs::write(&damaged, &bytes).unwrap();
    let outcome = smallgo(&["verify", damaged.to_str().unwrap()]);
    assert!(!outcome.status.success());
    assert!(
        outcome.stderr.contains("3x4.damaged.wdl") && outcome.stderr.contains("checksum"),
        "{}",
        outcome.stderr
    );
    // A komi beyond every margin, and a file that is no table.
    let full = shipped_table("3x4.sgtb");
    let out = folder.path().join("x.wdl");
    let outcome = smallgo(&[
        "export",
        "--wdl",
        "--komi",
        "13",
        full.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(!outcome.status.success());
    assert!(
        outcome.stderr.contains("beyond every margin"),
        "{}",
        outcome.stderr
    );
    assert!(!out.exists());
}

/// Both sides played by the engine from the win/draw/loss table at its
/// komi end the game with the result the full table gives at the start.
#[test]
fn the_engine_plays_whole_games_from_the_table_at_its_komi() {
    let folder = tempfile::tempdir().unwrap();
    for (komi, board) in [("-2", "3x4"), ("0", "3x4"), ("4", "2x5")] {
        let name = format!("{board}.wdl");
        export(board, komi, folder.path(), &name);
        let (rows, columns) = board.split_once('x').unwrap();
        let size = format!("rectangular_boardsize {columns} {rows}");
        let komi_command = format!("komi {komi}");
        let expected = answers(&[], &[&size, &komi_command, "smallgo-value"])[2].clone();
        let mut commands = vec![
            size.clone(),
            komi_command.clone(),
            "smallgo-table-info".into(),
        ];
        for ply in 0..80 {
            commands.push(format!("genmove {}", if ply % 2 == 0 { "b" } else { "w" }));
        }
        commands.push("final_score".into());
        let tables = folder.path().to_str().unwrap();
        let commands: Vec<&str> = commands.iter().map(String::as_str).collect();
        let replies = answers(&["--tables", tables], &commands);
        assert!(
            replies[2].contains(&format!("wdl komi {komi} ")) && replies[2].ends_with("serves"),
            "{replies:?}"
        );
        assert!(
            replies[2].starts_with("= full built-in table"),
            "{replies:?}"
        );
        let moves = &replies[3..replies.len() - 1];
        assert!(moves.iter().all(|m| m.starts_with("= ")), "{moves:?}");
        let score = replies.last().unwrap().trim_start_matches("= ").to_string();
        let winner = |result: &str| result.chars().next();
        assert_eq!(
            winner(&score),
            winner(expected.trim_start_matches("= ")),
            "{board} komi {komi}: the game ended {score}, the full table says {expected}"
        );
        std::fs::remove_file(folder.path().join(&name)).unwrap();
    }
}

#[test]
fn another_komi_falls_back_or_is_refused() {
    let folder = tempfile::tempdir().unwrap();
    export("3x5", "7.5", folder.path(), "3x5.wdl");
    let tables = folder.path().to_str().unwrap();
    // With the full table built in, another komi plays from it.
    let replies = answers(
        &["--tables", tables],
        &[
            "rectangular_boardsize 5 3",
            "komi 2",
            "genmove b",
            "komi 7",
            "genmove b",
        ],
    );
    assert!(replies.iter().all(|r| r.starts_with('=')), "{replies:?}");
    // Without it, the board is played from the table alone, at its komi.
    let alone = ["--tables", tables, "--without-built-in-tables"];
    let replies = answers(
        &alone,
        &[
            "rectangular_boardsize 5 3",
            "smallgo-table-info",
            "komi 2",
            "genmove b",
            "komi 7",
            "genmove b",
            "komi 7.2",
            "genmove b",
            "smallgo-value",
        ],
    );
    assert_eq!(replies[0], "=", "{replies:?}");
    assert!(
        replies[1].starts_with("= full none\nwdl komi 7.5"),
        "{replies:?}"
    );
    assert_eq!(
        replies[3],
        "? the win/draw/loss table of 3x5 is for komi 7.5, not 2"
    );
    // 7.5 stands for every komi between 7 and 8, not for 7.
    assert!(replies[5].starts_with("? "), "{replies:?}");
    assert!(replies[7].starts_with("= "), "{replies:?}");
    assert!(replies[8].starts_with("? "), "{replies:?}");
}
