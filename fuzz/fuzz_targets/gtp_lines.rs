//! Arbitrary text as GTP input, line by line, through the engine's own
//! parsing and commands: every line gets a reply or is skipped, never a
//! panic. Small boards are solved on the spot (no built-in tables, so each
//! run starts alike).
#![no_main]

use libfuzzer_sys::fuzz_target;
use smallgo::gtp::engine::{Engine, Reply, Settings};
use smallgo::gtp::parse;
use smallgo::Library;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut engine = Engine::new(Library::new(None, true), Settings { resign: false });
    for raw in text.lines().take(64) {
        let Some(line) = parse::clean(raw) else {
            continue;
        };
        let Some(command) = parse::command_line(&line) else {
            continue;
        };
        match engine.execute(command.name, &command.arguments) {
            Reply::Quit => break,
            Reply::Analyze(request) => {
                let _ = engine.kata_analyze_line(&request);
            }
            Reply::Success(_) | Reply::Failure(_) => {}
        }
    }
});
