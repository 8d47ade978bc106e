//! Faults at the GTP engine's and the SGF commands' edges, each as a user
//! or a hostile controller meets it: replies that file contents could split
//! or forge, ids, over-long lines and files, FIFOs and devices where a file
//! is expected (to read and to write), symbolic links, standard output that
//! is full, and progress that must outlive a failed report. Every run that
//! could hang on a regression has a time limit, so that it fails instead.
//! Tests that need root (device nodes) say so and pass when not run as
//! root.

use std::fs;
use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::thread;
use std::time::Duration;

use crate::support::command::{Outcome, Smallgo};
use crate::support::files::make_fifo;
use crate::support::gtp_engine::{EngineCommand, GtpEngine};

/// The longest a run that must not block may take.
const LIMIT: Duration = Duration::from_secs(20);

fn engine(folder: &Path) -> GtpEngine {
    GtpEngine::start(&EngineCommand::smallgo(&[]), "smallgo", Some(folder)).expect("smallgo starts")
}

/// Sends `line` and reads the whole reply, as raw lines, stray ones
/// included; panics on a fault (the engine's replies have a time limit).
fn ask(engine: &mut GtpEngine, line: &str) -> Vec<String> {
    engine
        .ask(line)
        .unwrap_or_else(|fault| panic!("{fault}"))
        .all_lines()
}

/// Whether this process runs as root (device nodes need it).
fn is_root() -> bool {
    unsafe { libc::geteuid() == 0 }
}

/// Runs smallgo with `input` in `folder`, within `LIMIT`.
fn run_in(folder: &Path, arguments: &[&str], input: &str) -> Outcome {
    Smallgo::new(arguments)
        .folder(folder)
        .input(input)
        .run_within(LIMIT)
        .unwrap_or_else(|| panic!("smallgo {arguments:?} did not end within {LIMIT:?}"))
}

/// SGF values with blank lines and control characters come back quoted on
/// one line, so the reply to the next command is the engine's own.
#[test]
fn file_values_cannot_split_or_forge_a_reply() {
    let folder = tempfile::tempdir().unwrap();
    let files = [
        "(;GM[1]SZ[3]KM[1\n\n= 5])",
        "(;GM[1]SZ[3\n\n= 5])",
        "(;GM[2\n\n= 5])",
        "(;SZ[3]TOPOLOGY[x\n\n= 5])",
        "(;SZ[3]PL[X\n\n= 5])",
        "(;SZ[3];B[a\n\n= 5])",
        "(;SZ[3]AB[a\r\x07\n\n= 5])",
    ];
    let mut engine = engine(folder.path());
    for (i, text) in files.iter().enumerate() {
        let name = format!("bad{i}.sgf");
        fs::write(folder.path().join(&name), text).unwrap();
        let reply = ask(&mut engine, &format!("loadsgf {name}"));
        assert_eq!(reply.len(), 1, "{text:?}: {reply:?}");
        assert!(reply[0].starts_with("? cannot load"), "{text:?}: {reply:?}");
        assert!(
            !reply[0].chars().any(|c| c.is_control()),
            "{text:?}: {reply:?}"
        );
        assert!(reply[0].contains("\\n\\n= 5"), "{text:?}: {reply:?}");
        assert_eq!(ask(&mut engine, "name"), ["= smallgo"], "after {text:?}");
    }
}

/// An id alone before a comment is kept in the reply, as GTP says.
#[test]
fn an_id_alone_is_kept_in_the_reply() {
    let folder = tempfile::tempdir().unwrap();
    let mut engine = engine(folder.path());
    let reply = ask(&mut engine, "1 #name");
    assert_eq!(reply.len(), 1, "{reply:?}");
    assert!(reply[0].starts_with("?1 "), "{reply:?}");
    assert_eq!(ask(&mut engine, "2 name"), ["=2 smallgo"]);
}

/// A line far longer than GTP needs is answered `? line too long` (with
/// its id), read past, and the engine serves on.
#[test]
fn over_long_lines_are_refused_and_read_past() {
    let folder = tempfile::tempdir().unwrap();
    let mut engine = engine(folder.path());
    let long = format!("7 name {}\n", "x".repeat(4 << 20));
    engine
        .send_raw(long.as_bytes())
        .unwrap_or_else(|fault| panic!("{fault}"));
    let reply = engine
        .read_reply()
        .unwrap_or_else(|fault| panic!("{fault}"))
        .all_lines();
    assert_eq!(reply, ["?7 line too long"]);
    assert_eq!(ask(&mut engine, "name"), ["= smallgo"]);
}

/// Standard output that cannot take the replies fails the engine, with a
/// message.
#[test]
fn a_full_standard_output_fails_the_engine() {
    let full = fs::OpenOptions::new().write(true).open("/dev/full");
    let Ok(full) = full else {
        println!("skipped: no /dev/full here");
        return;
    };
    let outcome = Smallgo::new(&[])
        .input("name\nname\n")
        .stdout(full)
        .run_within(LIMIT)
        .expect("the engine ends");
    assert!(!outcome.status.success(), "{outcome:?}");
    assert!(
        outcome.stderr.contains("standard output"),
        "{}",
        outcome.stderr
    );
}

/// `PL[W]` without moves survives `printsgf`: the game read back is the
/// same game, White to play.
#[test]
fn the_player_to_move_survives_printsgf() {
    let folder = tempfile::tempdir().unwrap();
    fs::write(folder.path().join("white.sgf"), "(;SZ[3]PL[W])").unwrap();
    let mut engine = engine(folder.path());
    assert_eq!(ask(&mut engine, "loadsgf white.sgf"), ["= white"]);
    let value = ask(&mut engine, "smallgo-value");
    assert_eq!(ask(&mut engine, "printsgf again.sgf"), ["= "]);
    assert_eq!(ask(&mut engine, "loadsgf again.sgf"), ["= white"]);
    assert_eq!(ask(&mut engine, "smallgo-value"), value);
}

/// FIFOs where a file is read are refused at once, naming the FIFO.
#[test]
fn fifos_to_read_are_refused_without_blocking() {
    let folder = tempfile::tempdir().unwrap();
    let fifo = folder.path().join("game.fifo");
    make_fifo(&fifo);
    let mut engine = engine(folder.path());
    let reply = ask(&mut engine, "loadsgf game.fifo");
    assert_eq!(
        reply,
        ["? cannot open 'game.fifo': a FIFO, not a regular file"]
    );
    let review = run_in(folder.path(), &["review", "game.fifo"], "");
    assert!(!review.status.success());
    assert!(
        review.stderr.contains("game.fifo") && review.stderr.contains("a FIFO"),
        "{}",
        review.stderr
    );
    let count = run_in(
        folder.path(),
        &["count", "2x2", "--samples", "0", "--state", "game.fifo"],
        "",
    );
    assert!(!count.status.success());
    assert!(
        count.stderr.contains("game.fifo") && count.stderr.contains("a FIFO"),
        "{}",
        count.stderr
    );
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
}

/// Files larger than any game are refused before they are read, and so
/// are trees of too many nodes.
#[test]
fn huge_games_are_refused() {
    let folder = tempfile::tempdir().unwrap();
    let mut big = String::from("(;SZ[3]");
    big.push_str(&";B[]".repeat(1_100_000));
    big.push(')');
    fs::write(folder.path().join("big.sgf"), &big).unwrap();
    let mut many = String::from("(;SZ[3]");
    many.push_str(&";".repeat(200_000));
    many.push(')');
    fs::write(folder.path().join("many.sgf"), &many).unwrap();
    let mut engine = engine(folder.path());
    let reply = ask(&mut engine, "loadsgf big.sgf");
    assert!(reply[0].contains("bytes allowed"), "{reply:?}");
    let reply = ask(&mut engine, "loadsgf many.sgf");
    assert!(reply[0].contains("more than 100000 nodes"), "{reply:?}");
    let review = run_in(folder.path(), &["review", "many.sgf"], "");
    assert!(!review.status.success());
    assert!(review.stderr.contains("nodes"), "{}", review.stderr);
}

/// A reader of FIFO `path`, there from the moment this returns: the FIFO
/// is opened without blocking (a reader thread that had yet to reach its
/// `open` would leave the writer facing a FIFO nobody reads).
fn read_fifo(path: &Path) -> fs::File {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .unwrap()
}

/// What a writer sent into the FIFO `reader` reads, up to the writer's
/// close (the text of one SGF game fits in the pipe's buffer).
fn fifo_text(mut reader: fs::File) -> String {
    let start = std::time::Instant::now();
    let mut bytes = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        match reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => bytes.extend_from_slice(&buffer[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                assert!(
                    start.elapsed() < LIMIT,
                    "the FIFO's writer did not close it"
                );
                thread::sleep(Duration::from_millis(10));
            }
            Err(e) => panic!("reading the FIFO: {e}"),
        }
    }
    String::from_utf8(bytes).unwrap()
}

/// The outputs `printsgf` and `review -o` are named: a symbolic link stays
/// a link and its target is written; a FIFO being read gets the text; a
/// FIFO nobody reads is refused at once; a folder is refused.
fn check_outputs(write: &dyn Fn(&Path, &str) -> Result<(), String>) {
    let folder = tempfile::tempdir().unwrap();
    let at = |name: &str| folder.path().join(name);
    // A link to a file, and a link to a name not made yet.
    fs::write(at("target.sgf"), "old").unwrap();
    std::os::unix::fs::symlink("target.sgf", at("link.sgf")).unwrap();
    std::os::unix::fs::symlink("new.sgf", at("dangling.sgf")).unwrap();
    for (link, target) in [("link.sgf", "target.sgf"), ("dangling.sgf", "new.sgf")] {
        write(&at(link), link).unwrap_or_else(|e| panic!("{link}: {e}"));
        assert!(fs::symlink_metadata(at(link))
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(fs::read_to_string(at(target)).unwrap().starts_with("(;"));
    }
    // A FIFO with a reader gets the game.
    make_fifo(&at("read.fifo"));
    let read = read_fifo(&at("read.fifo"));
    write(&at("read.fifo"), "read.fifo").unwrap();
    let text = fifo_text(read);
    assert!(text.starts_with("(;"), "{text:?}");
    // A FIFO nobody reads, and a folder.
    make_fifo(&at("unread.fifo"));
    let error = write(&at("unread.fifo"), "unread.fifo").unwrap_err();
    assert!(error.contains("FIFO"), "{error}");
    fs::create_dir(at("folder.sgf")).unwrap();
    let error = write(&at("folder.sgf"), "folder.sgf").unwrap_err();
    assert!(error.contains("a folder"), "{error}");
    for name in ["read.fifo", "unread.fifo"] {
        assert!(fs::symlink_metadata(at(name))
            .unwrap()
            .file_type()
            .is_fifo());
    }
    // A device node of its own (root only) stays a device.
    if !is_root() {
        println!("skipped the device node: not root");
        return;
    }
    let null = at("null");
    let made = std::process::Command::new("mknod")
        .arg(&null)
        .args(["c", "1", "3"])
        .status();
    if !made.is_ok_and(|s| s.success()) {
        println!("skipped the device node: mknod failed");
        return;
    }
    write(&null, "null").unwrap();
    assert!(fs::symlink_metadata(&null)
        .unwrap()
        .file_type()
        .is_char_device());
}

#[test]
fn printsgf_writes_links_fifos_and_devices_as_meant() {
    check_outputs(&|path, _| {
        let folder = path.parent().unwrap();
        let mut engine = engine(folder);
        let reply = ask(
            &mut engine,
            &format!("printsgf {}", path.file_name().unwrap().to_str().unwrap()),
        );
        match reply[0].as_str() {
            "= " => Ok(()),
            other => Err(other.to_string()),
        }
    });
}

#[test]
fn review_writes_links_fifos_and_devices_as_meant() {
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests/sgf/gnugo-selfplay-3x3.sgf");
    check_outputs(&|path, _| {
        let outcome = Smallgo::new(&["review"])
            .arg(&game)
            .arg("-o")
            .arg(path)
            .run_within(LIMIT)
            .expect("review ends");
        if outcome.status.success() {
            Ok(())
        } else {
            Err(outcome.stderr)
        }
    });
}

/// A count whose report cannot be written keeps its progress file, so the
/// next run has the counts at once.
#[test]
fn a_count_that_cannot_print_keeps_its_progress() {
    let Ok(full) = fs::OpenOptions::new().write(true).open("/dev/full") else {
        println!("skipped: no /dev/full here");
        return;
    };
    let folder = tempfile::tempdir().unwrap();
    let outcome = Smallgo::new(&["count", "3x3", "--samples", "0"])
        .folder(folder.path())
        .stdout(full)
        .run_within(Duration::from_secs(120))
        .expect("count ends");
    assert!(!outcome.status.success(), "{outcome:?}");
    assert!(
        folder.path().join("3x3.count").is_file(),
        "the progress is gone: {}",
        outcome.stderr
    );
    let again = Smallgo::new(&["count", "3x3", "--samples", "0"])
        .folder(folder.path())
        .run_within(Duration::from_secs(120))
        .expect("count ends");
    assert!(again.status.success(), "{again:?}");
    assert!(again.stdout.contains("resumed"), "{}", again.stdout);
    assert!(!folder.path().join("3x3.count").exists());
}

/// Margins are the exact decimal difference of the integer margin and the
/// komi as typed, in every reply that shows one and in `review`.
#[test]
fn margins_are_exact_for_any_komi() {
    let folder = tempfile::tempdir().unwrap();
    let mut engine = engine(folder.path());
    ask(&mut engine, "boardsize 3");
    assert_eq!(ask(&mut engine, "komi 9.0000001"), ["= "]);
    // 3x3 is B+9 at komi 0.
    assert_eq!(ask(&mut engine, "smallgo-value"), ["= W+0.0000001"]);
    assert_eq!(ask(&mut engine, "final_score"), ["= W+9.0000001"]);
    let labels = ask(&mut engine, "smallgo-move-labels")[0].clone();
    assert!(labels.contains("B2 -0.0000001"), "{labels}");
    assert_eq!(ask(&mut engine, "komi 8.9999999"), ["= "]);
    assert_eq!(ask(&mut engine, "smallgo-value"), ["= B+0.0000001"]);
    assert_eq!(ask(&mut engine, "komi -2.3"), ["= "]);
    assert_eq!(ask(&mut engine, "smallgo-value"), ["= B+11.3"]);
    let game = ask(&mut engine, "printsgf")[0].clone();
    assert!(game.contains("KM[-2.3]"), "{game}");
    // A komi closer to 9 than a double can tell still loses by it.
    assert_eq!(ask(&mut engine, "komi 9.000000000000000000001"), ["= "]);
    assert_eq!(
        ask(&mut engine, "smallgo-value"),
        ["= W+0.000000000000000000001"]
    );
    fs::write(folder.path().join("game.sgf"), "(;SZ[3];B[bb])").unwrap();
    let review = run_in(
        folder.path(),
        &["review", "game.sgf", "--komi", "9.0000001"],
        "",
    );
    assert!(review.status.success(), "{review:?}");
    assert!(
        review.stdout.contains("komi 9.0000001") && review.stdout.contains("W+0.0000001"),
        "{}",
        review.stdout
    );
}

/// `count --state LINK` saves through the link, which stays a link.
#[test]
fn a_count_saves_through_a_symbolic_link() {
    let folder = tempfile::tempdir().unwrap();
    let link = folder.path().join("link.count");
    std::os::unix::fs::symlink("saved.count", &link).unwrap();
    let outcome = run_in(
        folder.path(),
        &["count", "2x2", "--samples", "0", "--state", "link.count"],
        "",
    );
    assert!(outcome.status.success(), "{outcome:?}");
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let saved = fs::read_to_string(folder.path().join("saved.count")).unwrap();
    assert!(saved.starts_with("smallgo count progress"), "{saved}");
}

/// `-o /dev/stdout` and `printsgf /dev/stdout` with standard output a file
/// write into that output, in order with the rest, and replace nothing.
#[test]
fn dev_stdout_is_written_in_order_not_replaced() {
    let folder = tempfile::tempdir().unwrap();
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests/sgf/gnugo-selfplay-3x3.sgf");
    let out = folder.path().join("out.txt");
    let outcome = Smallgo::new(&["review"])
        .arg(&game)
        .arg("-o")
        .arg("/dev/stdout")
        .stdout(fs::File::create(&out).unwrap())
        .run_within(LIMIT)
        .expect("review ends");
    assert!(outcome.status.success(), "{outcome:?}");
    let text = fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("(;"), "{text}");
    assert!(text.contains("moves changed the result"), "{text}");
    let out = folder.path().join("gtp.txt");
    let outcome = Smallgo::new(&[])
        .input("name\nprintsgf /dev/stdout\nname\n")
        .stdout(fs::File::create(&out).unwrap())
        .run_within(LIMIT)
        .expect("the engine ends");
    assert!(outcome.status.success(), "{outcome:?}");
    let text = fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(lines[0], "= smallgo");
    assert!(lines[1].starts_with("(;"), "{text}");
    assert_eq!(&lines[2..], ["= ", "= smallgo"], "{text}");
}
