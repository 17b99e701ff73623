//! A run is never lost: Ctrl-C and SIGTERM save the state reached, and a save that does not
//! finish leaves the file that was there.

use eddy_fluid::model::AnyState;
use eddy_fluid::npz::Npz;

/// Ctrl-C and SIGTERM sent to the `eddy` command (feature `cli`).
#[cfg(feature = "cli")]
mod signals {
    use eddy_fluid::ModelKind;
    use eddy_fluid::model::AnyState;
    use std::path::Path;
    use std::process::{Command, Stdio};
    use std::time::Duration;

    /// Starts a long smoke run in `cwd`, waits until it says it is stepping, lets it step for a
    /// second, sends `signal`, and returns its exit status and stderr.
    fn interrupt(cwd: &Path, extra: &[&str], signal: &str) -> (Option<i32>, String) {
        interrupt_times(cwd, extra, signal, 1)
    }

    /// As [`interrupt`], sending `signal` `times` times back to back.
    fn interrupt_times(cwd: &Path, extra: &[&str], signal: &str, times: usize) -> (Option<i32>, String) {
        use std::io::BufRead;
        let mut child = Command::new(env!("CARGO_BIN_EXE_eddy"))
            .args(["run", "--mode", "smoke", "--size", "96x64", "--steps", "100000000"])
            .args(extra)
            .current_dir(cwd)
            .env("NODEVICE_SELECT", "1")
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let stderr = child.stderr.take().unwrap();
        let reader = std::thread::spawn(move || {
            for line in std::io::BufReader::new(stderr).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        // The runner prints "smoke: ... (96x64 cells), N steps" just before the first step.
        let mut lines = Vec::new();
        while !lines.iter().any(|l: &String| l.contains("cells), ")) {
            match rx.recv_timeout(Duration::from_secs(120)) {
                Ok(line) => lines.push(line),
                Err(e) => panic!("the run did not start stepping ({e}): {lines:?}"),
            }
        }
        std::thread::sleep(Duration::from_millis(1000));
        let pid = child.id().to_string();
        let mut args = vec![signal];
        args.extend(std::iter::repeat_n(pid.as_str(), times)); // `kill -INT p p`: one right after the other
        let sent = Command::new("kill").args(&args).status().unwrap();
        assert!(sent.success(), "kill {signal} failed");
        let status = child.wait().unwrap();
        reader.join().unwrap();
        lines.extend(rx.try_iter());
        (status.code(), lines.join("\n"))
    }

    /// The step number in `... at step N (...`.
    fn reported_step(stderr: &str) -> u64 {
        let after = stderr.split("at step ").nth(1).unwrap_or_else(|| panic!("no `at step` in: {stderr}"));
        after.split(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap()
    }

    #[test]
    fn sigint_saves_the_state_reached_to_save() {
        let dir = tempfile::tempdir().unwrap();
        let (code, stderr) = interrupt(dir.path(), &["--save", "out.npz"], "-INT");
        assert_eq!(code, Some(130), "{stderr}");
        assert!(stderr.contains("interrupted at step") && stderr.contains("out.npz"), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        let step = reported_step(&stderr);
        assert!(step > 0, "it ran some steps before the signal: {stderr}");
        let (state, saved) = AnyState::load_npz(&dir.path().join("out.npz"), None).unwrap();
        assert_eq!(saved, step, "the file holds the step the message reports");
        assert_eq!((state.kind(), state.shape()), (ModelKind::Smoke, (64, 96)));
        assert!(state.first_non_finite().is_none());
    }

    /// Ctrl-C in `eddy bench` keeps the rows measured so far: printed, and written to --json
    /// (marked `interrupted`) before it exits 130 with a line that says how many.
    #[test]
    fn sigint_in_bench_keeps_the_rows_measured() {
        use std::io::BufRead;
        let dir = tempfile::tempdir().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_eddy"))
            .args(["bench", "--mode", "water", "--sizes", "32,48,64,96,128,192", "--runs", "3", "--seconds", "0.3"])
            .args(["--no-cpu", "--json", "out.json"])
            .current_dir(dir.path())
            .env("NODEVICE_SELECT", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap()).lines().map_while(Result::ok);
        // The second size's note: the first row is done.
        assert!(stderr.any(|l| l.contains("at 48x48: GPU")), "the bench did not reach its second row");
        let sent = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
        assert!(sent.success());
        let rest: Vec<String> = stderr.collect();
        let out = child.wait_with_output().unwrap();
        let (stdout, rest) = (String::from_utf8_lossy(&out.stdout), rest.join("\n"));
        assert_eq!(out.status.code(), Some(130), "{rest}");
        assert!(rest.contains("bench interrupted: ") && rest.contains("written to out.json"), "{rest}");
        assert!(stdout.contains("| 32x32 |"), "the first row was printed: {stdout}");
        let json = std::fs::read_to_string(dir.path().join("out.json")).unwrap();
        assert!(json.contains("\"interrupted\": true") && json.contains("\"grid\": ["), "{json}");
        assert!(!rest.contains("panicked"), "{rest}");
    }

    /// The frames folder is replaced by a file mid-run (as a full disk or a removed folder
    /// would fail a write): the run stops with one line naming the frame, and the state it
    /// reached is saved to --save first.
    #[test]
    fn a_frame_that_cannot_be_written_mid_run_keeps_the_state() {
        use std::io::BufRead;
        let dir = tempfile::tempdir().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_eddy"))
            .args(["run", "--mode", "gas", "--size", "48x32", "--steps", "100000000", "--every", "5"])
            .args(["--frames", "frames", "--save", "out.npz"])
            .current_dir(dir.path())
            .env("NODEVICE_SELECT", "1")
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines().map_while(Result::ok);
        assert!(lines.any(|l| l.contains("cells), ")), "the run did not start stepping");
        std::thread::sleep(Duration::from_millis(500));
        std::fs::rename(dir.path().join("frames"), dir.path().join("frames-before")).unwrap();
        std::fs::write(dir.path().join("frames"), b"not a folder any more").unwrap();
        let stderr: Vec<String> = lines.collect();
        let status = child.wait().unwrap();
        let stderr = stderr.join("\n");
        assert_eq!(status.code(), Some(1), "{stderr}");
        // Which error the write meets depends on where it was when the folder went (creating
        // its temporary file, or renaming it): the line names the frame either way.
        assert!(stderr.contains("frames/frame_") && stderr.contains("is saved to out.npz"), "{stderr}");
        let step: u64 = stderr.split("the state at step ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        let (state, saved) = AnyState::load_npz(&dir.path().join("out.npz"), None).unwrap();
        assert_eq!((saved, state.kind()), (step, ModelKind::Gas));
        assert!(step > 0);
    }

    /// `timeout -s INT` delivers one interrupt twice within microseconds (to the process, then
    /// its group): that is one Ctrl-C, and the state is saved.
    #[test]
    fn two_signals_at_once_are_one_interrupt() {
        let dir = tempfile::tempdir().unwrap();
        let (code, stderr) = interrupt_times(dir.path(), &["--save", "out.npz"], "-INT", 2);
        assert_eq!(code, Some(130), "{stderr}");
        assert!(!stderr.contains("without saving"), "{stderr}");
        let (_, saved) = AnyState::load_npz(&dir.path().join("out.npz"), None).unwrap();
        assert_eq!(saved, reported_step(&stderr));
    }

    #[test]
    fn sigterm_without_save_writes_eddy_interrupted() {
        let dir = tempfile::tempdir().unwrap();
        let (code, stderr) = interrupt(dir.path(), &[], "-TERM");
        assert_eq!(code, Some(130), "{stderr}");
        let path = dir.path().join("eddy-interrupted-smoke.npz");
        let (state, saved) = AnyState::load_npz(&path, None).unwrap();
        assert_eq!(saved, reported_step(&stderr));
        assert_eq!(state.kind(), ModelKind::Smoke);
    }
}

#[test]
fn an_unfinished_save_leaves_the_previous_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.npz");
    let good = AnyState::Water(eddy_fluid::water::WaterState::from_scene(
        &eddy_fluid::scene::Scene::preset("basin", 24, 16, 0).unwrap(),
    ));
    good.save_npz(&path, 7).unwrap();
    let before = std::fs::read(&path).unwrap();
    {
        // A save that stops half-way (a crash, a full disk, a signal): it is dropped unfinished.
        let mut npz = Npz::create(&path).unwrap();
        npz.write_f32("mass", &eddy_fluid::Grid::filled(24, 16, 9.0)).unwrap();
    }
    assert_eq!(std::fs::read(&path).unwrap(), before, "the file at the path is untouched");
    let files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(files, vec![std::ffi::OsString::from("state.npz")], "no temporary file is left behind");
    assert_eq!(AnyState::load_npz(&path, None).unwrap(), (good.clone(), 7));

    // A finished save replaces it whole, keeping the permissions of the file it replaces (the
    // temporary file it was written to is owner-only); a new file is readable by all.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o644, "a new file");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        let other = AnyState::Water(eddy_fluid::water::WaterState::empty(24, 16));
        other.save_npz(&path, 9).unwrap();
        assert_eq!(AnyState::load_npz(&path, None).unwrap(), (other, 9));
        assert_eq!(mode(&path), 0o640, "a replaced file keeps its mode");
    }
}

/// Saving through a symbolic link writes the file it points to and keeps the link.
#[cfg(unix)]
#[test]
fn saving_through_a_symlink_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real");
    std::fs::create_dir(&real).unwrap();
    let link = dir.path().join("link.npz");
    std::os::unix::fs::symlink("real/target.npz", &link).unwrap(); // dangling until the save
    let state = AnyState::Water(eddy_fluid::water::WaterState::empty(6, 4));
    state.save_npz(&link, 3).unwrap();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link is still a link");
    assert_eq!(AnyState::load_npz(&real.join("target.npz"), None).unwrap(), (state.clone(), 3));
    state.save_npz(&link, 4).unwrap();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(AnyState::load_npz(&link, None).unwrap().1, 4);
}
