//! The `eddy` command's entry: arguments parsed, the command run, its errors as one line and
//! its exit status. `src/main.rs` calls [`main`]; so does a program of one's own that
//! registers a model first ([`crate::model::register`]), to run it with `eddy`'s commands.

use super::Exit;
use super::out::note;
use clap::Parser;
use std::process::ExitCode;

/// Runs the `eddy` command on this process's arguments (`view` by default, `run`, `bench`; see
/// `eddy --help`): every registered model is one of its `--mode`s, with its parameters as
/// options. Returns the exit status: 0, 1 when the command failed, 2 for a usage error, 130
/// when interrupted.
pub fn main() -> ExitCode {
    main_with(std::env::args_os())
}

/// [`main`] on `args` (the program's name first, as `std::env::args_os` gives it), for a test
/// or a program that makes its own command line.
pub fn main_with(args: impl IntoIterator<Item = impl Into<std::ffi::OsString> + Clone>) -> ExitCode {
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).try_init();
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let command = args.get(1).and_then(|c| c.to_str()).map(str::to_string);
    let args = match super::Cli::try_parse_from(args) {
        Ok(a) => a,
        Err(e) => return clap_error(e, command),
    };
    let result = match args.command.unwrap_or(super::Command::View(args.view)) {
        super::Command::Run(a) => super::run::run(a),
        super::Command::Bench(a) => super::bench::bench(a),
        super::Command::View(a) => view(a),
    };
    // A failed print never stopped the command (cli::out); say once that lines were lost.
    let lost = super::out::stdout_failed().map(|kind| {
        note!(
            "eddy: error: standard output failed ({kind}), so the lines after that were not printed; \
             the command itself went on to its end"
        );
    });
    match result {
        Ok(()) if lost.is_some() => ExitCode::FAILURE,
        Ok(()) => ExitCode::SUCCESS,
        Err(Exit::Usage(e)) => {
            note!("{}", one_line(&*e));
            ExitCode::from(2)
        }
        Err(Exit::Failed(e)) => {
            note!("{}", one_line(&*e));
            // A grid too large for the adapter or the machine is a command-line matter (--size),
            // however it was found: before allocating, or by the device refusing.
            if too_large(&*e) { ExitCode::from(2) } else { ExitCode::FAILURE }
        }
        Err(Exit::Interrupted(line)) => {
            note!("eddy: {line}");
            ExitCode::from(130)
        }
    }
}

/// `eddy: error: ...`: the error and those of its causes it does not already say, on one line.
fn one_line(e: &dyn std::error::Error) -> String {
    let mut line = format!("eddy: error: {e}");
    let mut source = e.source();
    while let Some(s) = source {
        let cause = s.to_string();
        if !line.contains(&cause) {
            line.push_str(&format!(": {cause}"));
        }
        source = s.source();
    }
    line.replace('\n', " ")
}

/// Whether `e` (or an error it wraps) says the grid does not fit the adapter or the machine.
fn too_large(e: &(dyn std::error::Error + 'static)) -> bool {
    use crate::gpu::GpuError;
    let gpu = e.downcast_ref::<GpuError>().or_else(|| match e.downcast_ref::<crate::Error>() {
        Some(crate::Error::Gpu(g)) => Some(g),
        _ => None,
    });
    matches!(
        gpu,
        Some(
            GpuError::TooLarge { .. }
                | GpuError::GridTooLarge { .. }
                | GpuError::WorldTooLarge { .. }
                | GpuError::FrameTooLarge { .. }
                | GpuError::OutOfMemory(_)
        )
    )
}

/// clap's errors as one line and exit status 2 (help and version print as clap prints them).
fn clap_error(e: clap::Error, command: Option<String>) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    // clap's message: "error: ..." and its indented continuation lines, then a tip, then usage.
    let text = e.render().to_string();
    let mut lines = text.lines();
    let mut message =
        lines.next().unwrap_or("bad arguments").trim_start_matches("error: ").trim_end_matches(':').to_string();
    for l in lines.by_ref().take_while(|l| !l.trim().is_empty()) {
        message.push_str(&format!(" {}", l.trim()));
    }
    let tip = text.lines().find_map(|l| l.trim().strip_prefix("tip: ")).map(|t| format!(" ({t})")).unwrap_or_default();
    // The help of the command the user ran, when there is one.
    let command = command.filter(|c| ["run", "view", "bench"].contains(&c.as_str()));
    let see = match command {
        Some(c) => format!("`eddy {c} --help`"),
        None => "`eddy --help`, `eddy run --help` or `eddy view --help`".to_string(),
    };
    note!("eddy: error: {message}{tip}; see {see}");
    ExitCode::from(2)
}

#[cfg(feature = "viewer")]
fn view(mut args: super::ViewArgs) -> super::Result {
    use super::usage;
    use crate::model::SessionOptions;
    use crate::viewer::{Start, ViewerOptions};
    if let Some(n) = args.steps_per_frame
        && !(1..=1000).contains(&n)
    {
        return Err(usage("--steps-per-frame must be 1..=1000 (more freezes the window between frames)"));
    }
    let script_path = args.script.clone();
    let script = match &args.script {
        Some(path) => {
            let script = crate::script::Script::load(path, args.sim.stated_mode()).map_err(usage)?;
            super::check_script_outputs(&script, &[("--screenshot", args.screenshot.as_deref())])?;
            args.sim.fill_from(&script);
            Some(script)
        }
        None => None,
    };
    let setup = args.sim.setup()?;
    let kind = setup.kind;
    if let Some(f) = &args.field {
        kind.view(f).map_err(|e| usage(format!("--field {e}")))?;
    }
    let colour_map = args.colour_map.as_deref().map(crate::colour::ColourMap::from_name).transpose().map_err(usage)?;
    let look = args.look.as_deref().map(crate::render::Look::from_name).transpose().map_err(usage)?;
    if let Some(path) = &args.screenshot {
        let quits = script.as_ref().is_some_and(|s| s.actions.iter().any(|t| t.action == crate::script::Action::Quit));
        if args.frames.is_none() && !quits {
            return Err(usage(
                "--screenshot is taken when the viewer ends: give --frames N (or a --script that quits)",
            ));
        }
        crate::files::check_writable_file(path).map_err(|e| usage(format!("--screenshot: {e}")))?;
        super::check_extension("--screenshot", path, "png")?;
    }
    let size = setup.size();
    let (start, seed) = match setup.origin {
        super::setup::Origin::State { path, step, .. } => {
            let (state, _) = crate::model::AnyState::load_npz(&path, Some(kind))?;
            (Start::State(Box::new(state), step), 1)
        }
        super::setup::Origin::Png(path, _) => (Start::Scene(crate::scene::SceneSource::Png(path)), 1),
        super::setup::Origin::Preset { name, seed, .. } => {
            (Start::Scene(crate::scene::SceneSource::Preset(name)), seed)
        }
    };
    let options = ViewerOptions {
        session: SessionOptions { params: setup.params, start, size, seed },
        steps_per_frame: args.steps_per_frame,
        scale: args.scale,
        field: args.field,
        colour_map,
        look,
        frames: args.frames,
        screenshot: args.screenshot,
        script,
        demo: args.demo,
        panel: !args.no_panel,
        paused: args.paused,
        sleep: args.sleep,
        stop: Some(stop_on_signals()),
    };
    let stop = options.stop.clone();
    crate::viewer::run(options).map_err(|e| match e.downcast::<crate::viewer::UsageError>() {
        // The script named by its path, as `eddy run` names it.
        Ok(u) => usage(match &script_path {
            Some(path) => u.0.replacen("script:", &format!("script {}:", path.display()), 1),
            None => u.0,
        }),
        Err(e) => e.into(),
    })?;
    if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::SeqCst)) {
        return Err(Exit::Interrupted(
            "the viewer was stopped by a signal (after finishing any GIF being recorded)".into(),
        ));
    }
    Ok(())
}

/// A flag that Ctrl-C and SIGTERM set, for the viewer to end as closing its window does
/// (finishing a GIF being recorded); a second signal more than a second later exits at once.
#[cfg(feature = "viewer")]
fn stop_on_signals() -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    use std::sync::atomic::{AtomicBool, Ordering};
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let first = std::sync::OnceLock::new();
    let _ = ctrlc::set_handler(move || {
        let at = *first.get_or_init(std::time::Instant::now);
        if flag.swap(true, Ordering::SeqCst) && at.elapsed().as_secs_f64() > 1.0 {
            note!("eddy: second interrupt: exiting at once");
            std::process::exit(130);
        }
    });
    stop
}

#[cfg(not(feature = "viewer"))]
fn view(_: super::ViewArgs) -> super::Result {
    Err(super::usage(
        "this eddy was built without the `viewer` feature; rebuild with default features, or use `eddy run`",
    ))
}
