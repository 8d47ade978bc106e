//! `smallgo serve` (feature `serve`): the tables over HTTP, as a JSON API
//! and a page (docs/serve.md). The HTTP is tiny_http's; this module routes
//! a request by its path (`/v1/boards`, `/v1/BOARD`, `/v1/BOARD/mainline`),
//! decodes the path's segments and the query, and answers each request
//! with one JSON object: the answer (`api`), or an error with a 4xx status
//! and a message naming the fault. The boards and their values are
//! `boards`'s. `/` is the page, `page.html` and `page.js` embedded in the
//! binary: a board played by clicks, every legal point labelled from the
//! API.
//!
//! A few threads take the requests tiny_http has read, each answering one
//! at a time; a request that panics is answered with a 500 and the server
//! goes on. Nothing a client sends names a file: the board's name is
//! parsed into a board, and the values come only from the tables found
//! at start.

mod api;
mod boards;

use std::io::Write;
use std::net::SocketAddr;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Arc;

use percent_encoding::percent_decode_str;
use serde_json::{json, Value as Json};

use crate::table::library::Tablebase;
use crate::table::library::SOLVE_ON_THE_SPOT_STATES;

use api::{ApiError, Request};
use boards::Boards;

/// The longest request target (path and query) read, in bytes.
pub const MAX_URL: usize = 8192;

/// How the server is started.
#[derive(Debug, Clone)]
pub struct Options {
    pub bind: String,
    pub port: u16,
    pub tables: Option<PathBuf>,
}

/// Starts the server and answers requests until the process is stopped.
/// It prints `listening on http://ADDRESS:PORT/` on standard output once it
/// listens (the port the system chose for port 0). An error says why it
/// could not start.
pub fn run(options: &Options) -> Result<(), String> {
    let address = format!("{}:{}", options.bind, options.port);
    let socket: SocketAddr = match address.parse() {
        Ok(socket) => socket,
        Err(_) => format!("[{}]:{}", options.bind, options.port)
            .parse()
            .map_err(|_| format!("--bind {}: not an IP address", options.bind))?,
    };
    let tablebase = Tablebase::with_sources(options.tables.as_deref(), false);
    let boards = Arc::new(Boards::new(tablebase));
    let server = tiny_http::Server::http(socket)
        .map_err(|error| format!("cannot listen on {socket}: {error}"))?;
    let server = Arc::new(server);
    let listening = server
        .server_addr()
        .to_ip()
        .map_or(socket.to_string(), |a| a.to_string());
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening on http://{listening}/")
            .and_then(|()| out.flush())
            .map_err(|error| format!("cannot write to standard output: {error}"))?;
    }
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 8);
    let handles: Vec<_> = (0..workers)
        .map(|_| {
            let server = Arc::clone(&server);
            let boards = Arc::clone(&boards);
            std::thread::spawn(move || loop {
                match server.recv() {
                    Ok(request) => answer(&boards, request),
                    Err(error) => log::error!("serve: receiving a request: {error}"),
                }
            })
        })
        .collect();
    for handle in handles {
        let _ = handle.join();
    }
    Ok(())
}

/// The page (docs/serve.md, the page), embedded in the binary.
const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("page.js");

/// The page's file `url` names, and its content type.
fn page_file(method: &tiny_http::Method, url: &str) -> Option<(&'static str, &'static str)> {
    if !matches!(method, tiny_http::Method::Get | tiny_http::Method::Head) {
        return None;
    }
    match url.split_once('?').map_or(url, |(path, _)| path) {
        "/" | "/index.html" => Some((PAGE, "text/html; charset=utf-8")),
        "/page.js" => Some((SCRIPT, "text/javascript; charset=utf-8")),
        _ => None,
    }
}

/// Answers one request, whatever happens on the way.
fn answer(boards: &Boards, request: tiny_http::Request) {
    let method = request.method().clone();
    let url = request.url().to_string();
    if let Some((body, kind)) = page_file(&method, &url) {
        let response =
            tiny_http::Response::from_string(body).with_header(header("Content-Type", kind));
        if let Err(error) = request.respond(response) {
            log::debug!("serve: answering {url}: {error}");
        }
        return;
    }
    let (status, body) = match catch_unwind(AssertUnwindSafe(|| route(boards, &method, &url))) {
        Ok(Ok(body)) => (200, body),
        Ok(Err(error)) => (error.status, error.body()),
        Err(_) => {
            let error = ApiError {
                status: 500,
                message: "the server failed on this request".to_string(),
            };
            (error.status, error.body())
        }
    };
    log::debug!("{method} {url}: {status}");
    let mut response = tiny_http::Response::from_string(body.to_string())
        .with_status_code(status)
        .with_header(header("Content-Type", "application/json; charset=utf-8"));
    if status == 405 {
        response = response.with_header(header("Allow", "GET, HEAD"));
    }
    if let Err(error) = request.respond(response) {
        log::debug!("serve: answering {url}: {error}");
    }
}

fn header(name: &str, value: &str) -> tiny_http::Header {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes())
        .expect("a header of ASCII text")
}

/// The answer to `METHOD URL`, or the fault.
fn route(boards: &Boards, method: &tiny_http::Method, url: &str) -> Result<Json, ApiError> {
    if !matches!(method, tiny_http::Method::Get | tiny_http::Method::Head) {
        return Err(ApiError {
            status: 405,
            message: format!("{method}: only GET and HEAD are answered"),
        });
    }
    if url.len() > MAX_URL {
        return Err(ApiError {
            status: 414,
            message: format!(
                "the request target has {} bytes, more than the {MAX_URL} read",
                url.len()
            ),
        });
    }
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let segments = path
        .strip_prefix('/')
        .ok_or_else(|| not_found(path))?
        .split('/')
        .map(|segment| {
            percent_decode_str(segment)
                .decode_utf8()
                .map(|s| s.into_owned())
                .map_err(|_| {
                    ApiError::bad_request("the path is not UTF-8 once its %-escapes are decoded")
                })
        })
        .collect::<Result<Vec<String>, ApiError>>()?;
    let query: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect();
    let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
    match segments[..] {
        ["v1", "boards"] => {
            no_query(&query)?;
            Ok(boards_json(boards))
        }
        ["v1", board] => {
            let board = boards.board(board)?;
            let request = Request::parse(board, &query)?;
            api::position(&boards.values(board)?, &request)
        }
        ["v1", board, "mainline"] => {
            let board = boards.board(board)?;
            let request = Request::parse(board, &query)?;
            api::mainline(&boards.values(board)?, &request)
        }
        _ => Err(not_found(path)),
    }
}

fn not_found(path: &str) -> ApiError {
    let mut shown: String = path.chars().take(80).collect();
    if shown.len() < path.len() {
        shown.push_str("...");
    }
    ApiError {
        status: 404,
        message: format!(
            "no such resource: '{}'; the API has /v1/boards, /v1/BOARD and /v1/BOARD/mainline",
            shown.escape_debug()
        ),
    }
}

fn no_query(query: &[(String, String)]) -> Result<(), ApiError> {
    match query.first() {
        Some((name, _)) => Err(ApiError::bad_request(format!(
            "unknown parameter '{}': /v1/boards takes none",
            name.chars().take(40).collect::<String>()
        ))),
        None => Ok(()),
    }
}

/// `GET /v1/boards`: the boards with a table, and how large a board is
/// solved on the spot.
fn boards_json(boards: &Boards) -> Json {
    let list: Vec<Json> = boards
        .with_tables()
        .iter()
        .map(|board| {
            json!({
                "board": board.name(),
                "rows": board.rows(),
                "columns": board.columns(),
                "points": board.points(),
                "topology": board.topology().word(),
            })
        })
        .collect();
    json!({
        "kind": "boards",
        "boards": list,
        "solve_on_the_spot": {
            "max_states": SOLVE_ON_THE_SPOT_STATES,
            "max_kept": boards::MAX_SOLVED,
        },
        "max_shapes": boards::MAX_SHAPES,
    })
}
