//! `smallgo export --wdl --komi K FULL.sgtb -o OUT.wdl`: a win/draw/loss
//! table for one komi made from a full table (`table::wdl::export`), with
//! the bytes of each of its parts printed.

use std::ops::Range;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use super::{output_failed, parse_exact_komi, EXIT_FAILURE};
use crate::gtp::komi::Komi;
use crate::table::format::TableBytes;
use crate::table::mapped::{read_or_map, FileBytes};
use crate::table::probe::READ_WHOLE_BYTES;
use crate::table::wdl::export::{export_from, ExportReport};
use crate::table::wdl::ranks::NEAR;
use crate::table::{error_chain, Origin, TableError};

#[derive(Args, Debug)]
pub struct ExportArguments {
    /// Make a win/draw/loss table for one komi (the one kind there is).
    #[arg(long, required = true)]
    wdl: bool,

    /// The komi (White receives it): the table serves every komi on the
    /// same side of each whole number (6.5 serves any between 6 and 7).
    #[arg(long, value_name = "K", value_parser = parse_exact_komi, allow_negative_numbers = true)]
    komi: Komi,

    /// The full table to read.
    #[arg(value_name = "FULL.sgtb")]
    table: PathBuf,

    /// The file to write, whole or not at all (RxC.wdl, or RxC. and any
    /// suffix, for the engine's --tables folder).
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: PathBuf,
}

fn bytes_a_state(bytes: u64, states: u64) -> f64 {
    bytes as f64 / states.max(1) as f64
}

/// `smallgo export`.
pub fn run(arguments: &ExportArguments) -> ExitCode {
    let fail = |message: String| {
        eprintln!("smallgo: export: {message}");
        ExitCode::from(EXIT_FAILURE)
    };
    let started = Instant::now();
    // The full table is read whole if small, else mapped, its pages let go
    // as the checksum and then the export read them.
    let file = match read_or_map(&arguments.table, READ_WHOLE_BYTES) {
        Ok(file) => file,
        Err(error) => return fail(error_chain(&error)),
    };
    let bytes: &[u8] = match &file {
        FileBytes::Read(bytes) => bytes,
        FileBytes::Mapped(map) => map.bytes(),
    };
    let release = |span: Range<usize>| {
        if let FileBytes::Mapped(map) = &file {
            map.release(span);
        }
    };
    let origin = Origin::File(arguments.table.clone());
    let view = match TableBytes::new_releasing(bytes, &release) {
        Ok(view) => view,
        Err(fault) => return fail(error_chain(&TableError::Corrupt { origin, fault })),
    };
    let board = view.header().board;
    let proxy = arguments.komi.proxy();
    let points = board.points() as f64;
    if proxy.abs() > points {
        return fail(format!(
            "komi {} is beyond every margin of {board} ({points} points): every game \
             would have the same result",
            arguments.komi.text()
        ));
    }
    let komi2 = (2.0 * proxy) as i32;
    let pool = match super::build::thread_pool() {
        Ok(pool) => pool,
        Err(message) => return fail(message),
    };
    let origin = origin.to_string();
    let phase = |what: &str| {
        let peak = crate::common::host::peak_memory().unwrap_or(0);
        log::info!(
            "{board}: {what} ({:.1} s in, peak memory so far {:.1} MiB)",
            started.elapsed().as_secs_f64(),
            peak as f64 / (1u64 << 20) as f64
        );
    };
    let made = pool.install(|| export_from(&view, &origin, &release, &phase, komi2, NEAR));
    let (bytes, report) = match made {
        Ok(made) => made,
        Err(message) => return fail(message),
    };
    if let Err(error) = crate::common::files::write_output(&arguments.output, &bytes) {
        return fail(format!("{}: {error}", arguments.output.display()));
    }
    let ExportReport {
        states,
        derived,
        file_bytes,
        wdl_bytes,
        depth_bytes,
        index_bytes,
        blocks,
        results,
        longest,
        far,
        followed,
        held_bytes,
        index_memory,
    } = report;
    let peak = crate::common::host::peak_memory().unwrap_or(0);
    let full_bytes = std::fs::metadata(&arguments.table).map_or(0, |m| m.len());
    let share = |part: [u64; 3]| format!("{} wins, {} draws, {} losses", part[2], part[1], part[0]);
    let written = outln!(
        "{}: {board} at komi {}, {states} states in {blocks} blocks, {:.1} s\n\
         Black to move: {}\nWhite to move: {}\n\
         states that may store less: {derived}\n\
         longest forced line: {longest} plies ({followed} losses a winner follows, \
         {far} of their distances past a byte)\n\
         results and distances held: {held_bytes} bytes, {:.2} bytes a state\n\
         peak memory: {peak} bytes, {:.2} bytes a state (the index {index_memory} bytes)\n\
         win/draw/loss part: {wdl_bytes} bytes, {:.4} bytes a state\n\
         depth part: {depth_bytes} bytes, {:.4} bytes a state\n\
         directory, header and block table: {index_bytes} bytes, {:.4} bytes a state\n\
         file: {file_bytes} bytes, {:.4} bytes a state (the full table: {full_bytes} bytes, \
         {:.4} bytes a state)",
        arguments.output.display(),
        crate::table::wdl::komi_text(komi2),
        started.elapsed().as_secs_f64(),
        share(results[0]),
        share(results[1]),
        bytes_a_state(held_bytes, states),
        bytes_a_state(peak, states),
        bytes_a_state(wdl_bytes, states),
        bytes_a_state(depth_bytes, states),
        bytes_a_state(index_bytes, states),
        bytes_a_state(file_bytes, states),
        bytes_a_state(full_bytes, states),
    );
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => output_failed(&error),
    }
}
