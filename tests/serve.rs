//! `smallgo serve` as a client meets it: the real binary listens on a port
//! the system chose, and plain HTTP requests over a `TcpStream` read its
//! JSON answers. Every move's value, order and depth agree with
//! `smallgo analyze position` and the GTP engine (positions from moves,
//! from setup stones through `loadsgf`, on plain and circular boards and
//! a shape), the mainline is the engine's `smallgo-pv`, and what a client
//! sends wrong (paths that climb out, bad moves, huge komi, long query
//! strings, other methods) gets a 4xx with a JSON body naming the fault
//! while the server goes on answering. The page is played in headless
//! Chromium (`tests/browser/play.mjs`, through puppeteer-core) and what it
//! shows is compared with `smallgo analyze position`.
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

    use crate::support::command::{gtp_answers, smallgo};

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
                    m["point"].as_str().unwrap().to_string(),
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
                    assert_eq!(json["kind"], "position");
                    if !json["ended"].is_null() {
                        break;
                    }
                    let (expected, value) = analyze(&name, &moves, komi);
                    assert_eq!(listed(&json), expected, "{name} {moves:?} komi {komi}");
                    let (black, white) = (
                        can_force(&json["value"]["black_can_force"]),
                        can_force(&json["value"]["white_can_force"]),
                    );
                    assert!(
                        value.contains(&black) && value.contains(&white),
                        "{name} {moves:?}: {value} against {black}; {white}"
                    );
                    compared += 1;
                    // Each move's depth and result are its child's, one ply on.
                    let entries = json["moves"].as_array().unwrap();
                    for entry in entries.iter().filter(|m| !m["outcome"]["winner"].is_null()) {
                        let mut child_moves = moves.clone();
                        child_moves.push(entry["point"].as_str().unwrap().to_string());
                        let child = server.ok(&target(board, &child_moves, komi));
                        let (after, outcome) = (&child["result"], &entry["outcome"]);
                        for key in ["winner", "margin", "score"] {
                            assert_eq!(after[key], outcome[key], "{name} {child_moves:?}");
                        }
                        // A game over has no plies left (`null`, as docs/json.md has it).
                        let child_plies = match child["ended"].is_null() {
                            true => after["plies"].as_u64().unwrap(),
                            false => 0,
                        };
                        assert_eq!(outcome["plies"].as_u64().unwrap(), child_plies + 1);
                    }
                    // The best moves are those with the first move's result.
                    for entry in entries {
                        let same = entry["outcome"]["score"] == entries[0]["outcome"]["score"];
                        assert_eq!(entry["best"] == true, same, "{name} {moves:?}: {entry}");
                    }
                    let pick = next(&mut seed) % entries.len();
                    let pick = if walk == 0 { 0 } else { pick };
                    moves.push(entries[pick]["point"].as_str().unwrap().to_string());
                }
            }
        }
        assert!(compared >= 40, "{compared} positions compared");
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
            let answers = gtp_answers(&commands);
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
                .map(|m| m["point"].as_str().unwrap().to_string())
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
                .map(|s| s["point"].as_str().unwrap())
                .collect();
            assert_eq!(line["kind"], "mainline");
            assert_eq!(pv.join(" "), answers[n - 2], "{board}: mainline");
            assert_eq!(json["result"]["score"], answers[n - 1], "{board}: value");
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
        assert_eq!(boards["kind"], "boards");
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
            assert_eq!(server.ok("/v1/3x3")["result"]["score"], "B+9");
        }
        // A request line past what tiny_http reads, and bytes that are no
        // HTTP at all: whatever the answer, the server goes on.
        let mut stream = TcpStream::connect(&server.address).unwrap();
        let _ = stream.write_all(&[0xff; 70_000]);
        drop(stream);
        assert_eq!(server.ok("/v1/3x3")["result"]["score"], "B+9");
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

    /// The version of puppeteer-core that scripts/test.sh installs into
    /// `target/browser`, and that the browser test's message names.
    const PUPPETEER: &str = "puppeteer-core@24.43.1";

    /// What headless Chromium needs, or a message saying what to install:
    /// the browser (`CHROMIUM`, default `/usr/bin/chromium`), node, and
    /// puppeteer-core in `target/browser`.
    fn browser_tools() -> (String, std::path::PathBuf) {
        let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
        assert!(
            std::path::Path::new(&chromium).is_file(),
            "the page's test needs headless Chromium at {chromium}: install the Debian \
             package chromium (scripts/test.sh does), or name the browser in CHROMIUM"
        );
        let node = Command::new("node").arg("--version").output();
        assert!(
            node.is_ok_and(|o| o.status.success()),
            "the page's test needs node: install the Debian packages nodejs and npm \
             (scripts/test.sh does)"
        );
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
        assert!(
            folder
                .join("node_modules/puppeteer-core/package.json")
                .is_file(),
            "the page's test needs puppeteer-core in {}: run `npm install --no-save \
             --prefix target/browser {PUPPETEER}` (scripts/test.sh does)",
            folder.display()
        );
        (chromium, folder)
    }

    /// What `smallgo analyze position` prints for a position: its moves
    /// and labels in its order, and its result line (`B+5 at komi 4`).
    fn engine_view(moves: &[String], komi: &str) -> (Vec<(String, String)>, String) {
        let (listed, _) = analyze("3x3", moves, komi);
        let mut arguments = vec!["analyze", "position", "3x3", "--komi", komi];
        arguments.extend(moves.iter().map(String::as_str));
        let result = smallgo(&arguments)
            .stdout
            .lines()
            .find_map(|l| l.strip_prefix("result"))
            .unwrap_or("")
            .trim()
            .to_string();
        (listed, result)
    }

    /// The class a label's point is coloured with on the page.
    fn outcome_of(label: &str) -> &'static str {
        match label.chars().next() {
            Some('+') => "win",
            Some('=') => "draw",
            _ => "loss",
        }
    }

    /// The page in a real browser: headless Chromium, driven by
    /// tests/browser/play.mjs (puppeteer-core), sets the komi, starts a new
    /// game and plays a 3x3 game to its end by clicks on the points (the
    /// engine's move and the worst one in turn, the pass button when no
    /// point is legal), then undoes and redoes the last move. At every
    /// position the points shown, their labels and order, the pass
    /// button's value and the status line are those of `smallgo analyze
    /// position`; each point's class follows its label, and each class
    /// has one colour of its own.
    #[test]
    fn a_game_played_by_clicks_in_chromium_shows_the_engines_values() {
        let (chromium, folder) = browser_tools();
        let script =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser/play.mjs");
        let server = Server::start(&[]);
        let komi = "4";
        let run = Command::new("node")
            .arg(&script)
            .arg(format!("http://{}/", server.address))
            .args([komi, "80"])
            .env("CHROMIUM", &chromium)
            .env("PUPPETEER", &folder)
            .stdin(Stdio::null())
            .output()
            .expect("node runs");
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(
            run.status.success(),
            "play.mjs failed: {}\n{stdout}",
            String::from_utf8_lossy(&run.stderr)
        );
        let seen: Vec<Json> = stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect();
        let mut fills = std::collections::BTreeMap::new();
        let mut previous: Vec<String> = Vec::new();
        for (index, position) in seen.iter().enumerate() {
            let moves: Vec<String> = position["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_string())
                .collect();
            let at = format!("after {moves:?}");
            assert_eq!(position["error"], "", "{at}");
            if index > 0 && position["final"].is_null() {
                assert_eq!(moves.len(), previous.len() + 1, "one click, one move {at}");
                assert_eq!(moves[..previous.len()], previous[..], "{at}");
            }
            previous = moves.clone();
            let (listed, result) = engine_view(&moves, komi);
            let points: Vec<(String, String)> = position["points"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    let label = p["label"].as_str().unwrap_or("").to_string();
                    let class = p["class"].as_str().unwrap_or("");
                    assert_eq!(class, outcome_of(&label), "{at}: {p}");
                    let fill = p["fill"].as_str().unwrap().to_string();
                    let first = fills
                        .entry(class.to_string())
                        .or_insert_with(|| fill.clone());
                    assert_eq!(*first, fill, "{at}: every {class} point has one colour");
                    (p["move"].as_str().unwrap().to_string(), label)
                })
                .collect();
            let engine_points: Vec<(String, String)> = listed
                .iter()
                .filter(|(m, _)| m != "pass")
                .cloned()
                .collect();
            assert_eq!(points, engine_points, "{at}: the points shown");
            let pass = position["pass"].as_str().unwrap();
            match listed.iter().find(|(m, _)| m == "pass") {
                Some((_, label)) => assert_eq!(
                    pass,
                    format!("{label} ({})", outcome_of(label)),
                    "{at}: the pass button's value"
                ),
                None => assert_eq!(pass, "-", "{at}"),
            }
            let status = position["status"].as_str().unwrap();
            if listed.is_empty() {
                assert!(status.starts_with("game over"), "{at}: {status}");
            } else {
                assert!(
                    status.ends_with(&format!("gives {result}")),
                    "{at}: {status} / {result}"
                );
            }
        }
        let last = seen.last().unwrap();
        assert_eq!(last["final"], true, "play.mjs ends with the final position");
        assert!(
            last["status"].as_str().unwrap().starts_with("game over"),
            "the game is played to its end in 80 plies: {last}"
        );
        assert_eq!(
            fills.len(),
            3,
            "the game met wins, draws and losses: {fills:?}"
        );
        let distinct: std::collections::BTreeSet<_> = fills.values().collect();
        assert_eq!(
            distinct.len(),
            3,
            "each result has its own colour: {fills:?}"
        );
    }
}
