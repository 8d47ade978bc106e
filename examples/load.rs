//! A load test of `smallgo serve`, on the loopback address only: CLIENTS
//! clients, each on its own keep-alive connection, send RATE requests a
//! second between them for SECONDS seconds, and the run prints the
//! requests answered, the errors, the requests a second and the latency's
//! percentiles.
//!
//! ```text
//! smallgo serve --port 8080 &
//! cargo run --release --example load -- 127.0.0.1:8080 [CLIENTS [RATE [SECONDS]]]
//! ```
//!
//! The requests are positions along the perfect lines of several boards
//! at two komi (every prefix of each line, read first from
//! `/v1/BOARD/mainline`), their mainlines, and `/v1/boards`, taken in turn.
//! Each client sends on a fixed schedule (RATE / CLIENTS a second), and a
//! request's latency is counted from the time it was due, so that a slow
//! answer that delays the next requests counts against them too; RATE 0
//! sends as fast as the answers come. An error is a failed connection, a
//! status other than 200, or a body that is not a JSON object.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// The boards and komi whose perfect lines give the requests.
const BOARDS: [&str; 6] = ["3x3", "4x4", "3x5", "2x8", "2x6c", "3x4"];
const KOMI: [&str; 2] = ["0", "0.5"];

/// One keep-alive connection.
struct Connection {
    address: SocketAddr,
    reader: Option<BufReader<TcpStream>>,
}

impl Connection {
    fn new(address: SocketAddr) -> Connection {
        Connection {
            address,
            reader: None,
        }
    }

    /// `GET target`: the status and body, or why there is none.
    fn get(&mut self, target: &str) -> Result<(u16, Vec<u8>), String> {
        let result = self.try_get(target);
        if result.is_err() {
            self.reader = None;
        }
        result
    }

    fn try_get(&mut self, target: &str) -> Result<(u16, Vec<u8>), String> {
        if self.reader.is_none() {
            let stream = TcpStream::connect(self.address).map_err(|e| e.to_string())?;
            stream.set_nodelay(true).map_err(|e| e.to_string())?;
            stream
                .set_read_timeout(Some(Duration::from_secs(30)))
                .map_err(|e| e.to_string())?;
            self.reader = Some(BufReader::new(stream));
        }
        let reader = self.reader.as_mut().expect("connected");
        let request = format!("GET {target} HTTP/1.1\r\nHost: load\r\n\r\n");
        reader
            .get_mut()
            .write_all(request.as_bytes())
            .map_err(|e| e.to_string())?;
        let mut line = String::new();
        reader.read_line(&mut line).map_err(|e| e.to_string())?;
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|code| code.parse().ok())
            .ok_or_else(|| format!("no status line: {line:?}"))?;
        let mut length = None;
        loop {
            line.clear();
            reader.read_line(&mut line).map_err(|e| e.to_string())?;
            if line == "\r\n" || line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse::<usize>().ok();
                }
            }
        }
        let length = length.ok_or("no Content-Length")?;
        let mut body = vec![0; length];
        reader.read_exact(&mut body).map_err(|e| e.to_string())?;
        Ok((status, body))
    }
}

/// The requests, from the perfect lines of `BOARDS`.
fn targets(address: SocketAddr) -> Result<Vec<String>, String> {
    let mut connection = Connection::new(address);
    let mut targets = vec!["/v1/boards".to_string()];
    for board in BOARDS {
        for komi in KOMI {
            let mainline = format!("/v1/{board}/mainline?komi={komi}");
            let (status, body) = connection.get(&mainline)?;
            if status != 200 {
                return Err(format!("{mainline}: status {status}"));
            }
            let json: serde_json::Value =
                serde_json::from_slice(&body).map_err(|e| format!("{mainline}: {e}"))?;
            let moves: Vec<String> = json["mainline"]
                .as_array()
                .ok_or(format!("{mainline}: no mainline"))?
                .iter()
                .filter_map(|step| step["point"].as_str().map(str::to_string))
                .collect();
            for played in 0..moves.len() {
                targets.push(format!(
                    "/v1/{board}?moves={}&komi={komi}",
                    moves[..played].join(",")
                ));
            }
            targets.push(mainline);
        }
    }
    Ok(targets)
}

/// What one client saw: the latency of each answer, and the errors.
struct Tally {
    latencies: Vec<Duration>,
    errors: u64,
    first_error: Option<String>,
}

fn client(
    address: SocketAddr,
    targets: &[String],
    first: usize,
    interval: Option<Duration>,
    start: Instant,
    end: Instant,
) -> Tally {
    let mut connection = Connection::new(address);
    let mut tally = Tally {
        latencies: Vec::new(),
        errors: 0,
        first_error: None,
    };
    let mut sent: u32 = 0;
    let mut next = first;
    loop {
        let due = match interval {
            Some(interval) => start + interval * sent,
            None => Instant::now(),
        };
        if due >= end {
            break;
        }
        let now = Instant::now();
        if due > now {
            std::thread::sleep(due - now);
        }
        let target = &targets[next % targets.len()];
        next += 1;
        sent += 1;
        let outcome = connection.get(target);
        let latency = due.elapsed();
        let fault = match outcome {
            Ok((200, body)) if body.first() == Some(&b'{') && body.last() == Some(&b'}') => None,
            Ok((status, _)) => Some(format!("{target}: status {status}")),
            Err(error) => Some(format!("{target}: {error}")),
        };
        match fault {
            None => tally.latencies.push(latency),
            Some(fault) => {
                tally.errors += 1;
                tally.first_error.get_or_insert(fault);
            }
        }
    }
    tally
}

fn milliseconds(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}

fn main() -> std::process::ExitCode {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: load ADDRESS:PORT [CLIENTS [RATE [SECONDS]]] (a loopback address)";
    let Some(address) = arguments.first().and_then(|a| a.parse::<SocketAddr>().ok()) else {
        eprintln!("{usage}");
        return std::process::ExitCode::from(2);
    };
    if !address.ip().is_loopback() {
        eprintln!("load: {address} is not a loopback address: this test loads only this machine");
        return std::process::ExitCode::from(2);
    }
    let number = |at: usize, default: u64| -> Option<u64> {
        arguments.get(at).map_or(Some(default), |a| a.parse().ok())
    };
    let (Some(clients), Some(rate), Some(seconds)) =
        (number(1, 50), number(2, 1000), number(3, 60))
    else {
        eprintln!("{usage}");
        return std::process::ExitCode::from(2);
    };
    let clients = clients.max(1);
    let targets = match targets(address) {
        Ok(targets) => targets,
        Err(error) => {
            eprintln!("load: cannot read the perfect lines: {error}");
            return std::process::ExitCode::FAILURE;
        }
    };
    // Each client's interval between requests, for RATE between them all.
    let interval = (rate > 0).then(|| Duration::from_secs_f64(clients as f64 / rate as f64));
    println!(
        "load: {clients} clients, {} for {seconds} s, {} distinct requests, on {address}",
        if rate > 0 {
            format!("{rate} requests/s")
        } else {
            "as fast as answered".to_string()
        },
        targets.len()
    );
    let start = Instant::now();
    let end = start + Duration::from_secs(seconds);
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..clients as usize)
            .map(|k| {
                let targets = &targets;
                // Clients start spread over one interval, at different requests.
                let offset = interval.map_or(Duration::ZERO, |i| i * k as u32 / clients as u32);
                let first = k * targets.len() / clients as usize;
                scope.spawn(move || client(address, targets, first, interval, start + offset, end))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a client"))
            .collect()
    });
    let elapsed = start.elapsed();
    let mut latencies: Vec<Duration> = tallies
        .iter()
        .flat_map(|t| t.latencies.iter().copied())
        .collect();
    latencies.sort();
    let errors: u64 = tallies.iter().map(|t| t.errors).sum();
    let answered = latencies.len();
    let percentile = |p: f64| -> f64 {
        if latencies.is_empty() {
            return f64::NAN;
        }
        let at = ((answered as f64 * p).ceil() as usize).clamp(1, answered) - 1;
        milliseconds(latencies[at])
    };
    println!(
        "requests {}  answered {answered}  errors {errors}  in {:.1} s",
        answered as u64 + errors,
        elapsed.as_secs_f64()
    );
    println!(
        "requests/s {:.0}  latency ms: p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2}",
        answered as f64 / elapsed.as_secs_f64(),
        percentile(0.50),
        percentile(0.90),
        percentile(0.99),
        percentile(1.0)
    );
    if let Some(error) = tallies.iter().find_map(|t| t.first_error.as_ref()) {
        println!("first error: {error}");
    }
    if errors > 0 {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    }
}
