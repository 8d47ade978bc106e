//! `smallgo serve` as a client meets it: the real binary listens on a port
//! the system chose, and plain HTTP requests over a `TcpStream` read its
//! JSON answers. Every move's value, order and depth agree with
//! `smallgo analyze position` and the GTP engine (positions from moves,
//! from setup stones through `loadsgf`, on plain and circular boards and
//! a shape), the mainline is the engine's `smallgo-pv`, and what a client
//! sends wrong (paths that climb out, bad moves, huge komi, long query
//! strings, other methods) gets a 4xx with a JSON body naming the fault
//! while the server goes on answering.
//!
//! The server is the feature `serve`'s: `cargo test --release --features
//! serve --target-dir target/serve --lib --test integration serve::` runs
//! these and the unit tests of `src/serve/`. Without the feature,
//! `smallgo serve` refuses with a message saying how to get it.

use crate::support::command::smallgo;

#[test]
fn without_the_feature_serve_says_how_to_build_it() {
    if cfg!(feature = "serve") {
        return;
    }
    let outcome = smallgo(&["serve", "--port", "0"]);
    assert!(!outcome.status.success());
    assert!(
        outcome.stderr.contains("--features serve"),
        "{}",
        outcome.stderr
    );
}

#[cfg(feature = "serve")]
mod with_serve {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::TcpStream;
    use std::process::{Child, Command, Stdio};
    use std::time::Duration;

    use serde_json::Value as Json;

    use crate::support::command::{smallgo, Smallgo};

    /// A running server, killed when dropped.
    struct Server {
        child: Child,
        address: String,
    }

    impl Drop for Server {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }

    impl Server {
        /// `smallgo serve --port 0 ARGUMENTS`, once it listens.
        fn start(arguments: &[&str]) -> Server {
            let mut child = Command::new(env!("CARGO_BIN_EXE_smallgo"))
                .args(["serve", "--port", "0"])
                .args(arguments)
                .env("RUST_LOG", "warn")
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn()
                .expect("smallgo serve starts");
            let mut line = String::new();
            BufReader::new(child.stdout.take().unwrap())
                .read_line(&mut line)
                .unwrap();
            let address = line
                .trim()
                .strip_prefix("listening on http://")
                .and_then(|rest| rest.strip_suffix('/'))
                .unwrap_or_else(|| panic!("not a listening line: {line:?}"))
                .to_string();
            Server { child, address }
        }

        /// The status and body of `GET target`, read whole.
        fn raw(&self, method: &str, target: &str) -> (u16, String) {
            let mut stream = TcpStream::connect(&self.address).unwrap();
            stream
                .set_read_timeout(Some(Duration::from_secs(60)))
                .unwrap();
            let request =
                format!("{method} {target} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
            // A server that refuses early may close before it has read all.
            let _ = stream.write_all(request.as_bytes());
            let mut bytes = Vec::new();
            let _ = stream.read_to_end(&mut bytes);
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let (head, body) = text
                .split_once("\r\n\r\n")
                .unwrap_or_else(|| panic!("{method} {target}: no HTTP answer: {text:?}"));
            let status = head
                .split_whitespace()
                .nth(1)
                .and_then(|code| code.parse().ok())
                .unwrap_or_else(|| panic!("no status in {head:?}"));
            (status, body.to_string())
        }

        /// The status and JSON body of `GET target`.
        fn get(&self, target: &str) -> (u16, Json) {
            let (status, body) = self.raw("GET", target);
            let json = serde_json::from_str(&body)
                .unwrap_or_else(|e| panic!("GET {target}: not JSON ({e}): {body:?}"));
            (status, json)
        }

        /// The JSON of `GET target`, which must succeed.
        fn ok(&self, target: &str) -> Json {
            let (status, json) = self.get(target);
            assert_eq!(status, 200, "GET {target}: {json}");
            json
        }
    }

    /// `/v1/BOARD?moves=...&komi=K`.
    fn target(board: &str, moves: &[String], komi: &str) -> String {
        format!("/v1/{board}?moves={}&komi={komi}", moves.join(","))
    }

    /// The moves and labels `smallgo analyze position` prints, in its
    /// order, and its value line.
    fn analyze(board: &str, moves: &[String], komi: &str) -> (Vec<(String, String)>, String) {
        let mut arguments = vec!["analyze", "position", board, "--komi", komi];
        arguments.extend(moves.iter().map(String::as_str));
        let outcome = smallgo(&arguments);
        assert!(
            outcome.status.success(),
            "{arguments:?}: {}",
            outcome.stderr
        );
        let value = outcome
            .stdout
            .lines()
            .find(|l| l.starts_with("value "))
            .unwrap_or("")
            .to_string();
        let listed = outcome
            .stdout
            .lines()
            .skip_while(|l| !l.starts_with("moves for"))
            .skip(1)
            .map(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                (words[0].to_string(), words[1].to_string())
            })
            .collect();
        (listed, value)
    }

    /// The server's moves as (move, label), in its order.
    fn listed(json: &Json) -> Vec<(String, String)> {
        json["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["move"].as_str().unwrap().to_string(),
                    m["label"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    }

    /// `can force +9 in 15 plies` for one side's half of a value.
    fn can_force(half: &Json) -> String {
        if half.is_null() {
            "cannot force the game to end".to_string()
        } else {
            format!(
                "can force {:+} in {} plies",
                half["margin"].as_i64().unwrap(),
                half["plies"]
            )
        }
    }

    /// A simple generator for the walks (the same walk every run).
    fn next(seed: &mut u64) -> usize {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*seed >> 33) as usize
    }

    #[test]
    fn every_move_agrees_with_analyze_position_and_depths_follow_from_the_children() {
        let server = Server::start(&[]);
        let mut seed = 7;
        let mut compared = 0;
        for (board, komi) in [
            ("3x3", "0"),
            ("2x4", "2.5"),
            ("1x5", "0"),
            ("2x4c", "-1"),
            ("3x4", "4"),
            ("..%23%2F...", "0"),
        ] {
            let name = board.replace("%23", "#").replace("%2F", "/");
            for walk in 0..2 {
                let mut moves: Vec<String> = Vec::new();
                for _ in 0..6 {
                    let json = server.ok(&target(board, &moves, komi));
                    if json["over"] == true {
                        break;
                    }
                    let (expected, value) = analyze(&name, &moves, komi);
                    assert_eq!(listed(&json), expected, "{name} {moves:?} komi {komi}");
                    let (mover, opponent) = (
                        can_force(&json["value"]["mover"]),
                        can_force(&json["value"]["opponent"]),
                    );
                    assert!(
                        value.contains(&mover) && value.contains(&opponent),
                        "{name} {moves:?}: {value} against {mover}; {opponent}"
                    );
                    compared += 1;
                    // Each move's depth and result are its child's, one ply on.
                    let entries = json["moves"].as_array().unwrap();
                    for entry in entries.iter().filter(|m| m["outcome"] != "draw") {
                        let mut child_moves = moves.clone();
                        child_moves.push(entry["move"].as_str().unwrap().to_string());
                        let child = server.ok(&target(board, &child_moves, komi));
                        assert_eq!(child["black_margin"], entry["black_margin"], "{name}");
                        let child_plies = child["plies"].as_u64().unwrap();
                        assert_eq!(entry["plies"].as_u64().unwrap(), child_plies + 1);
                    }
                    // The best moves are those with the first move's result.
                    for entry in entries {
                        let same = entry["black_margin"] == entries[0]["black_margin"];
                        assert_eq!(entry["best"] == true, same, "{name} {moves:?}: {entry}");
                    }
                    let pick = next(&mut seed) % entries.len();
                    let pick = if walk == 0 { 0 } else { pick };
                    moves.push(entries[pick]["move"].as_str().unwrap().to_string());
                }
            }
        }
        assert!(compared >= 40, "{compared} positions compared");
    }

    /// Answers of the GTP engine to `commands`, one string per command.
    fn gtp(commands: &[String]) -> Vec<String> {
        let mut input = commands.join("\n");
        input.push_str("\nquit\n");
        let text = Smallgo::new(&[]).input(&input).run().stdout;
        let mut answers: Vec<String> = text
            .split("\n\n")
            .map(|a| a.trim_start_matches(['=', '?']).trim().to_string())
            .collect();
        answers.truncate(commands.len());
        answers
    }

    #[test]
    fn setup_stones_and_the_mainline_agree_with_the_gtp_engine() {
        let server = Server::start(&[]);
        let folder = tempfile::tempdir().unwrap();
        // (board, SGF size, topology, black, white, player, komi, moves)
        let cases = [
            ("3x3", "3", "", "B2", "A1", "W", "0", "C1"),
            ("4x4", "4", "", "B2,C3", "B3", "B", "1", ""),
            (
                "2x5c",
                "5:2",
                "TOPOLOGY[circular]",
                "A1",
                "C2",
                "W",
                "2",
                "pass",
            ),
            ("2x4", "4:2", "", "", "", "W", "0.5", "B1"),
        ];
        for (board, size, topology, black, white, player, komi, moves) in cases {
            let vertices = |list: &str| -> String {
                let b: smallgo::Board = board.parse().unwrap();
                list.split(',')
                    .filter(|v| !v.is_empty())
                    .map(|v| {
                        let point = b.parse_point(v).unwrap();
                        let column = (b'a' + b.column(point) as u8) as char;
                        let row = (b'a' + (b.rows() - 1 - b.row(point)) as u8) as char;
                        format!("[{column}{row}]")
                    })
                    .collect()
            };
            let mut sgf = format!("(;GM[1]FF[4]SZ[{size}]KM[{komi}]{topology}PL[{player}]");
            if !black.is_empty() {
                sgf.push_str(&format!("AB{}", vertices(black)));
            }
            if !white.is_empty() {
                sgf.push_str(&format!("AW{}", vertices(white)));
            }
            sgf.push(')');
            let file = folder.path().join(format!("{board}.sgf"));
            std::fs::write(&file, &sgf).unwrap();
            let to_move = if player == "B" { "black" } else { "white" };
            let query = format!(
                "/v1/{board}?black={black}&white={white}&to_move={to_move}&komi={komi}&moves={moves}"
            );
            let json = server.ok(&query);
            let line = server.ok(&query.replacen(board, &format!("{board}/mainline"), 1));
            let mut commands = vec![format!("loadsgf {}", file.display())];
            let mover = if moves.is_empty() {
                to_move
            } else {
                if player == "B" {
                    "white"
                } else {
                    "black"
                }
            };
            if !moves.is_empty() {
                commands.push(format!("play {to_move} {moves}"));
            }
            commands.extend([
                "smallgo-move-labels".to_string(),
                "smallgo-best-moves".to_string(),
                "smallgo-pv".to_string(),
                "smallgo-value".to_string(),
            ]);
            let answers = gtp(&commands);
            let n = answers.len();
            assert_eq!(json["to_move"], mover, "{board}");
            // Labels per point, in point order (pass aside).
            let mut labels: Vec<(String, String)> = listed(&json)
                .into_iter()
                .filter(|(m, _)| m != "pass")
                .collect();
            let b: smallgo::Board = board.parse().unwrap();
            labels.sort_by_key(|(m, _)| b.parse_point(m).unwrap());
            let labels: Vec<String> = labels.iter().map(|(m, l)| format!("{m} {l}")).collect();
            assert_eq!(labels.join(" "), answers[n - 4], "{board}: labels");
            let best: Vec<String> = json["moves"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["best"] == true)
                .map(|m| m["move"].as_str().unwrap().to_string())
                .collect();
            let mut engine_best: Vec<String> = answers[n - 3]
                .split_whitespace()
                .map(String::from)
                .collect();
            let mut best_sorted = best.clone();
            best_sorted.sort();
            engine_best.sort();
            assert_eq!(best_sorted, engine_best, "{board}: best moves");
            let pv: Vec<&str> = line["mainline"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["move"].as_str().unwrap())
                .collect();
            assert_eq!(pv.join(" "), answers[n - 2], "{board}: mainline");
            assert_eq!(json["result"], answers[n - 1], "{board}: value");
            assert_eq!(json["setup"]["to_move"], to_move);
        }
    }

    #[test]
    fn the_boards_are_listed_and_a_tables_folder_serves_first() {
        let folder = tempfile::tempdir().unwrap();
        let built = smallgo(&["build", "2x3", "--tables", folder.path().to_str().unwrap()]);
        assert!(built.status.success(), "{}", built.stderr);
        let server = Server::start(&["--tables", folder.path().to_str().unwrap()]);
        let boards = server.ok("/v1/boards");
        let names: Vec<&str> = boards["boards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["board"].as_str().unwrap())
            .collect();
        for name in ["1x1", "3x3", "4x4", "2x8", "3x5", "2x3", "4x4c"] {
            assert!(names.contains(&name), "{name} in {names:?}");
        }
        let json = server.ok("/v1/2x3");
        let source = json["source"].as_str().unwrap();
        assert!(source.ends_with("2x3.sgtb"), "{source}");
        // A board without a table, small enough, is solved on the spot.
        let solved = server.ok("/v1/..%23%2F...?moves=A1");
        assert_eq!(solved["board"], "..#/...");
        assert_eq!(solved["source"], "solved on the spot");
        assert_eq!(
            solved["moves"].as_array().unwrap().len(),
            5,
            "4 points and pass"
        );
    }

    #[test]
    fn faults_get_a_4xx_naming_them_and_the_server_goes_on() {
        let server = Server::start(&[]);
        let long = format!("/v1/3x3?moves={}", "A1,".repeat(20_000));
        let huge_komi = format!("/v1/3x3?komi={}", "9".repeat(2000));
        let cases: Vec<(&str, String, u16, &str)> = vec![
            ("GET", "/../../etc/passwd".into(), 404, "no such resource"),
            (
                "GET",
                "/v1/3x3/../../../etc/passwd".into(),
                404,
                "no such resource",
            ),
            (
                "GET",
                "/v1/..%2F..%2Fetc%2Fpasswd".into(),
                400,
                "is not a board",
            ),
            (
                "GET",
                "/v1/%2e%2e%2f%2e%2e%2fetc%2fpasswd".into(),
                400,
                "is not a board",
            ),
            ("GET", "/v1/3x3.sgtb".into(), 400, "is not a board"),
            ("GET", "/v1/%ff".into(), 400, "not UTF-8"),
            ("GET", "/v1/5x5".into(), 404, "no table of board 5x5"),
            ("GET", "/v1/0x3".into(), 400, "board 0x3 is not allowed"),
            (
                "GET",
                "/v1/3x3?moves=B2,B2".into(),
                400,
                "move 2 'B2' is not legal",
            ),
            ("GET", "/v1/3x3?moves=Z9".into(), 400, "is not on board 3x3"),
            ("GET", "/v1/3x3?moves=%00".into(), 400, "is not a move"),
            ("GET", "/v1/3x3?komi=1e400".into(), 400, "komi"),
            ("GET", "/v1/3x3?komi=inf".into(), 400, "komi"),
            ("GET", huge_komi, 400, "komi"),
            (
                "GET",
                "/v1/3x3?black=A1&white=A2,B1".into(),
                400,
                "no liberty",
            ),
            (
                "GET",
                "/v1/3x3?side=white".into(),
                400,
                "unknown parameter 'side'",
            ),
            ("GET", "/v1/3x3?komi=1&komi=2".into(), 400, "given twice"),
            ("GET", "/v1/boards?x=1".into(), 400, "takes none"),
            ("GET", long, 414, "more than the 8192"),
            ("POST", "/v1/3x3".into(), 405, "only GET and HEAD"),
            ("DELETE", "/v1/boards".into(), 405, "only GET and HEAD"),
        ];
        for (method, path, status, said) in &cases {
            let (got, body) = server.raw(method, path);
            let json: Json = serde_json::from_str(&body)
                .unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {body:?}"));
            let shown: String = path.chars().take(60).collect();
            assert_eq!(got, *status, "{method} {shown}: {json}");
            let message = json["error"].as_str().unwrap();
            assert!(message.contains(said), "{method} {shown}: {message}");
            assert_eq!(json["status"], *status);
            // Still answering.
            assert_eq!(server.ok("/v1/3x3")["result"], "B+9");
        }
        // A request line past what tiny_http reads, and bytes that are no
        // HTTP at all: whatever the answer, the server goes on.
        let mut stream = TcpStream::connect(&server.address).unwrap();
        let _ = stream.write_all(&[0xff; 70_000]);
        drop(stream);
        assert_eq!(server.ok("/v1/3x3")["result"], "B+9");
    }

    #[test]
    fn the_page_and_its_script_are_served_from_the_binary() {
        let server = Server::start(&[]);
        let (status, page) = server.raw("GET", "/?board=3x3&moves=B2&komi=0");
        assert_eq!(status, 200);
        assert!(page.contains("<script src=\"page.js\">"), "{page}");
        for outside in ["src=\"http", "href=\"http", "src=\"//", "href=\"//"] {
            assert!(
                !page.contains(outside),
                "the page loads nothing from elsewhere"
            );
        }
        let (status, script) = server.raw("GET", "/page.js");
        assert_eq!(status, 200);
        for used in [
            "/v1/boards",
            "/mainline?",
            "data-move",
            "TOPOLOGY[circular]",
        ] {
            assert!(script.contains(used), "page.js uses {used}");
        }
        assert_eq!(server.raw("POST", "/").0, 405);
    }

    #[test]
    fn concurrent_clients_get_the_same_answers() {
        let server = Server::start(&[]);
        let expected = server.ok("/v1/4x4?moves=B2,C3&komi=0.5");
        std::thread::scope(|scope| {
            for _ in 0..8 {
                scope.spawn(|| {
                    for _ in 0..25 {
                        assert_eq!(server.ok("/v1/4x4?moves=B2,C3&komi=0.5"), expected);
                    }
                });
            }
        });
    }
}
