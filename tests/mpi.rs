//! Builds across the processes of a real MPI job: `mpirun -np K smallgo
//! build` writes byte for byte the table one process writes, whatever K;
//! processes that disagree refuse to start; a process that dies ends the
//! job with a message naming it. Without the `mpi` feature, a build
//! started by `mpirun` refuses to run.
//!
//! The MPI tests need Open MPI (`mpirun`) and run under `--features mpi`:
//! `cargo test --release --features mpi --target-dir target/mpi --test
//! integration mpi::` (the folder of its own keeps `target/release/smallgo`
//! free of any MPI library).

#[cfg(feature = "mpi")]
mod with_mpi {
    use std::path::Path;
    use std::time::{Duration, Instant};

    use crate::support::builds::holding_its_lock;
    use crate::support::command::Smallgo;

    /// `mpirun` with `processes` processes on this one machine, as root if
    /// need be.
    fn mpirun(processes: usize) -> String {
        format!("mpirun --oversubscribe --allow-run-as-root --bind-to none -np {processes}")
    }

    /// The bytes of each process's index, from the summary's `index` line
    /// (`1.5 MiB, 512 B (by process)`).
    fn index_bytes(stdout: &str) -> Vec<f64> {
        let line = stdout
            .lines()
            .find_map(|l| l.strip_prefix("index "))
            .unwrap_or_else(|| panic!("no index line in {stdout}"));
        let figures = line.trim().trim_end_matches("(by process)");
        figures
            .split(',')
            .map(|figure| {
                let (number, unit) = figure.trim().split_once(' ').unwrap();
                let scale = match unit {
                    "B" => 1.0,
                    "KiB" => 1024.0,
                    "MiB" => 1024.0 * 1024.0,
                    "GiB" => 1024.0 * 1024.0 * 1024.0,
                    other => panic!("unit {other}"),
                };
                number.parse::<f64>().unwrap() * scale
            })
            .collect()
    }

    /// The board's states, from the summary.
    fn states(stdout: &str) -> u64 {
        stdout
            .lines()
            .find_map(|l| l.strip_prefix("states "))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("no states line in {stdout}"))
    }

    fn table(folder: &Path, board: &str) -> Vec<u8> {
        let path = folder.join(format!("{board}.sgtb"));
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    #[test]
    fn every_job_size_writes_the_single_process_table() {
        for board in ["2x5", "3x4", "4x4", "2x4c"] {
            let single = tempfile::tempdir().unwrap();
            let alone = Smallgo::new(&["build", board, "--tables"])
                .arg(single.path())
                .run();
            assert!(alone.status.success(), "{board}: {}", alone.stderr);
            let expected = table(single.path(), board);
            let mut whole_index = 0.0;
            for processes in 1..=3 {
                let folder = tempfile::tempdir().unwrap();
                let job = Smallgo::new(&["build", board, "--tables"])
                    .arg(folder.path())
                    .under(&mpirun(processes))
                    .run();
                assert!(
                    job.status.success(),
                    "{board}, {processes} processes: {}",
                    job.stderr
                );
                assert!(
                    table(folder.path(), board) == expected,
                    "{board}: {processes} processes wrote other bytes"
                );
                assert!(job
                    .stdout
                    .contains(&format!("processes           {processes}")));
                // Every figure of the plain build's summary, and in its
                // order.
                let labels = |summary: &str| -> Vec<String> {
                    summary
                        .lines()
                        .map(|line| line[..20.min(line.len())].to_string())
                        .collect()
                };
                let job_labels = labels(&job.stdout);
                let mut in_order = job_labels.iter();
                for label in labels(&alone.stdout) {
                    assert!(
                        in_order.any(|l| *l == label),
                        "{board}: '{label}' missing in the job's summary:\n{}",
                        job.stdout
                    );
                }
                // Each process indexes its own run of codes only: the
                // parts add up to the whole (a line or a ko word at each
                // end), and, where there are enough table blocks (4,096
                // positions) to share, none holds most of it.
                let index = index_bytes(&job.stdout);
                assert_eq!(index.len(), processes, "{board}: {}", job.stdout);
                if processes == 1 {
                    whole_index = index[0];
                } else {
                    let sum: f64 = index.iter().sum();
                    assert!(
                        (sum - whole_index).abs() <= 0.01 * whole_index + 512.0 * processes as f64
                            && (states(&job.stdout) < 100_000
                                || index.iter().all(|&bytes| bytes <= 0.9 * whole_index)),
                        "{board}, {processes} processes: index {index:?} of {whole_index}"
                    );
                }
                // Only the table, its manifest and nothing of the work.
                let mut names: Vec<String> = std::fs::read_dir(folder.path())
                    .unwrap()
                    .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect();
                names.sort();
                assert_eq!(names.len(), 2, "{board}: left {names:?}");
                assert!(names.contains(&format!("{board}.sgtb")));
            }
        }
    }

    #[test]
    fn processes_that_disagree_refuse_to_start() {
        let folder = tempfile::tempdir().unwrap();
        let binary = env!("CARGO_BIN_EXE_smallgo");
        let tables = folder.path().to_str().unwrap();
        // Two programs in one job: the second builds another board.
        let job = Smallgo::new(&["build", "2x5", "--tables", tables, ":", "-np", "1"])
            .arg(binary)
            .arg("build")
            .arg("3x4")
            .arg("--tables")
            .arg(tables)
            .under(&mpirun(1))
            .run();
        assert!(!job.status.success());
        assert!(
            job.stderr
                .contains("process 1 differs from process 0 in board"),
            "{}",
            job.stderr
        );
        assert!(std::fs::read_dir(folder.path()).unwrap().next().is_none());
    }

    /// The processes of a job: (rank, pid) of each `smallgo` whose
    /// environment says it belongs to an MPI job under `parent`'s folder.
    fn ranks_in(folder: &Path) -> Vec<(usize, u32)> {
        let mut found = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let Ok(command) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
                continue;
            };
            let command = String::from_utf8_lossy(&command);
            if !command.contains(folder.to_str().unwrap()) || command.starts_with("mpirun") {
                continue;
            }
            let Ok(environment) = std::fs::read(format!("/proc/{pid}/environ")) else {
                continue;
            };
            let rank = environment
                .split(|&b| b == 0)
                .filter_map(|v| std::str::from_utf8(v).ok())
                .find_map(|v| v.strip_prefix("OMPI_COMM_WORLD_RANK="))
                .and_then(|r| r.parse().ok());
            if let Some(rank) = rank {
                found.push((rank, pid));
            }
        }
        found
    }

    #[test]
    fn a_process_that_dies_ends_the_job_and_is_named() {
        let folder = tempfile::tempdir().unwrap();
        // 3x5 takes long enough to be killed while it works.
        let running = Smallgo::new(&["build", "3x5", "--tables"])
            .arg(folder.path())
            .under(&mpirun(2))
            .start();
        let started = Instant::now();
        let victim = loop {
            let ranks = ranks_in(folder.path());
            if let Some(&(_, pid)) = ranks.iter().find(|(rank, _)| *rank == 1) {
                break pid;
            }
            assert!(started.elapsed() < Duration::from_secs(60), "no rank 1");
            std::thread::sleep(Duration::from_millis(50));
        };
        std::thread::sleep(Duration::from_millis(500));
        // SAFETY: sending a signal to a process id has no memory effects.
        assert_eq!(unsafe { libc::kill(victim as i32, libc::SIGKILL) }, 0);
        let ended = running
            .finish_within(Duration::from_secs(120))
            .expect("the job ends, not hangs, when a process dies");
        assert!(!ended.status.success());
        assert!(
            ended.stderr.contains("rank 1"),
            "the message names the process: {}",
            ended.stderr
        );
        assert!(!folder.path().join("3x5.sgtb").exists());
    }

    /// Starts a 3x5 build of two processes that saves a checkpoint before
    /// every level, and kills rank 1 once both have saved one.
    fn killed_with_checkpoints(folder: &Path) {
        let running = Smallgo::new(&["build", "3x5", "--checkpoint-interval", "0", "--tables"])
            .arg(folder)
            .under(&mpirun(2))
            .start();
        let works = folder.join("3x5.sgtb.mpi");
        let started = Instant::now();
        let victim = loop {
            let saved = (0..2).all(|r| works.join(format!("rank-{r}/checkpoint")).exists());
            let ranks = ranks_in(folder);
            if let Some(&(_, pid)) = ranks.iter().find(|(rank, _)| *rank == 1) {
                if saved {
                    break pid;
                }
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "no checkpoints"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        // SAFETY: sending a signal to a process id has no memory effects.
        assert_eq!(unsafe { libc::kill(victim as i32, libc::SIGKILL) }, 0);
        let ended = running
            .finish_within(Duration::from_secs(120))
            .expect("the job ends when a process dies");
        assert!(!ended.status.success(), "killed before the end");
    }

    fn single_process_table(board: &str) -> Vec<u8> {
        let single = tempfile::tempdir().unwrap();
        let alone = Smallgo::new(&["build", board, "--tables"])
            .arg(single.path())
            .run();
        assert!(alone.status.success(), "{}", alone.stderr);
        table(single.path(), board)
    }

    #[test]
    fn a_killed_job_resumes_from_every_process_checkpoint_to_the_same_bytes() {
        let folder = tempfile::tempdir().unwrap();
        killed_with_checkpoints(folder.path());
        let again = Smallgo::new(&["build", "3x5", "--tables"])
            .arg(folder.path())
            .under(&mpirun(2))
            .log("info")
            .run();
        assert!(again.status.success(), "{}", again.stderr);
        assert_eq!(
            again.stderr.matches("resuming at margin").count(),
            2,
            "both processes resume: {}",
            again.stderr
        );
        assert!(table(folder.path(), "3x5") == single_process_table("3x5"));
        assert!(!folder.path().join("3x5.sgtb.mpi").exists());
    }

    #[test]
    fn processes_without_a_checkpoint_in_common_start_afresh_to_the_same_bytes() {
        let folder = tempfile::tempdir().unwrap();
        killed_with_checkpoints(folder.path());
        let works = folder.path().join("3x5.sgtb.mpi");
        std::fs::remove_file(works.join("rank-1/checkpoint")).unwrap();
        let again = Smallgo::new(&["build", "3x5", "--tables"])
            .arg(folder.path())
            .under(&mpirun(2))
            .run();
        assert!(again.status.success(), "{}", again.stderr);
        assert!(
            again
                .stderr
                .contains("no checkpoint in common; starting afresh"),
            "{}",
            again.stderr
        );
        assert!(table(folder.path(), "3x5") == single_process_table("3x5"));

        // Three processes do not take up the checkpoints of two.
        killed_with_checkpoints(folder.path());
        let three = Smallgo::new(&["build", "3x5", "--tables"])
            .arg(folder.path())
            .under(&mpirun(3))
            .log("info")
            .run();
        assert!(three.status.success(), "{}", three.stderr);
        assert!(
            !three.stderr.contains("resuming at margin"),
            "{}",
            three.stderr
        );
        assert!(table(folder.path(), "3x5") == single_process_table("3x5"));
    }

    /// A job that resumes from checkpoints, one of them edited with its
    /// checksum made right (its count of edges), checks every state of its
    /// table before the rename: it fails, naming the check, and removes
    /// the working folders, so that the next job starts afresh and writes
    /// the right table.
    #[test]
    fn a_job_resumed_from_an_edited_checkpoint_writes_no_wrong_table() {
        let folder = tempfile::tempdir().unwrap();
        killed_with_checkpoints(folder.path());
        let works = folder.path().join("3x5.sgtb.mpi");
        let checkpoint = works.join("rank-0/checkpoint");
        let mut bytes = std::fs::read(&checkpoint).unwrap();
        let body = bytes.len() - 4;
        let edges = u64::from_le_bytes(bytes[24..32].try_into().unwrap()) + 1;
        bytes[24..32].copy_from_slice(&edges.to_le_bytes());
        let checksum = crc32fast::hash(&bytes[..body]);
        bytes[body..].copy_from_slice(&checksum.to_le_bytes());
        std::fs::write(&checkpoint, bytes).unwrap();
        let job = Smallgo::new(&["build", "3x5", "--tables"])
            .arg(folder.path())
            .under(&mpirun(2))
            .log("info")
            .run();
        assert!(!job.status.success(), "{}", job.stderr);
        assert!(
            job.stderr.contains("resuming at margin")
                && job.stderr.contains("the table failed its check")
                && job.stderr.contains("the next build starts afresh"),
            "{}",
            job.stderr
        );
        assert!(!folder.path().join("3x5.sgtb").exists());
        assert!(!works.exists());
        let again = Smallgo::new(&["build", "3x5", "--tables"])
            .arg(folder.path())
            .under(&mpirun(2))
            .run();
        assert!(again.status.success(), "{}", again.stderr);
        assert!(table(folder.path(), "3x5") == single_process_table("3x5"));
    }

    /// The id of a process that has ended.
    fn a_dead_process_id() -> u32 {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let id = child.id();
        child.wait().unwrap();
        id
    }

    /// A job removes the temporary table a killed job left (its process is
    /// gone), as a build by one process does.
    #[test]
    fn a_job_removes_the_temporaries_of_jobs_now_gone() {
        let folder = tempfile::tempdir().unwrap();
        let stale = folder
            .path()
            .join(format!(".3x4.sgtb.tmp.{}", a_dead_process_id()));
        std::fs::write(&stale, b"half a table").unwrap();
        let job = Smallgo::new(&["build", "3x4", "--tables"])
            .arg(folder.path())
            .under(&mpirun(2))
            .run();
        assert!(job.status.success(), "{}", job.stderr);
        assert!(!stale.exists(), "{} stays", stale.display());
        assert!(
            job.stderr
                .contains(&format!("removed stale temporary {}", stale.display())),
            "{}",
            job.stderr
        );
        assert!(table(folder.path(), "3x4") == single_process_table("3x4"));
    }

    /// While a build of 3x5 by one process runs, a job building 3x5 into
    /// the same folder is refused at once, naming that process.
    #[test]
    fn a_job_is_refused_while_another_build_of_its_board_runs() {
        let folder = tempfile::tempdir().unwrap();
        let log = folder.path().join("first.log");
        let first = holding_its_lock("3x5", folder.path(), &log);
        let job = Smallgo::new(&["build", "3x5", "--tables"])
            .arg(folder.path())
            .under(&mpirun(2))
            .run_within(Duration::from_secs(60))
            .expect("the job is refused");
        assert!(!job.status.success());
        assert!(
            job.stderr.contains("another build of 3x5 (process "),
            "{}",
            job.stderr
        );
        assert!(first.finish().status.success());
        assert!(table(folder.path(), "3x5") == single_process_table("3x5"));
    }

    /// `--json` under `mpirun`: the plain build's `build` object, every key
    /// of it, with the job's processes and each one's figures in
    /// `by_process`.
    #[test]
    fn a_jobs_summary_is_the_plain_builds_json_object() {
        let single = tempfile::tempdir().unwrap();
        let alone = Smallgo::new(&["build", "2x5", "--json", "--tables"])
            .arg(single.path())
            .run();
        let alone = crate::json::object(&alone, "build");
        let folder = tempfile::tempdir().unwrap();
        let job = Smallgo::new(&["build", "2x5", "--json", "--tables"])
            .arg(folder.path())
            .under(&mpirun(2))
            .run();
        let job = crate::json::object(&job, "build");
        let keys = |object: &serde_json::Value| -> Vec<String> {
            object.as_object().unwrap().keys().cloned().collect()
        };
        assert_eq!(keys(&job), keys(&alone), "{job}\n{alone}");
        for key in ["states", "solver_edges", "result", "best_first_moves"] {
            assert_eq!(job[key], alone[key], "{key}");
        }
        assert_eq!(job["table"]["crc32"], alone["table"]["crc32"]);
        assert_eq!(job["processes"], 2, "{job}");
        let ranks = job["by_process"].as_array().unwrap();
        assert_eq!(ranks.len(), 2, "{job}");
        for (rank, figures) in ranks.iter().enumerate() {
            assert_eq!(figures["rank"], rank, "{job}");
            assert!(figures["index_bytes"].as_u64().unwrap() > 0, "{job}");
            assert!(figures["sent_bytes"].is_u64(), "{job}");
        }
        assert_eq!(alone["by_process"].as_array().unwrap().len(), 1);
    }
}

#[cfg(not(feature = "mpi"))]
#[test]
fn a_build_without_mpi_refuses_an_mpi_job() {
    use crate::support::command::Smallgo;
    let folder = tempfile::tempdir().unwrap();
    // What `mpirun -np 2` tells each process it starts.
    let job = Smallgo::new(&["build", "2x5", "--tables"])
        .arg(folder.path())
        .under("env OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=0")
        .run();
    assert!(!job.status.success());
    assert!(
        job.stderr.contains("this smallgo has no MPI"),
        "{}",
        job.stderr
    );
    assert!(std::fs::read_dir(folder.path()).unwrap().next().is_none());
}
