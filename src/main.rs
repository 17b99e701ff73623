//! The `eddy` command: `view` (default), `run`, `bench`. See `eddy --help`; the command itself
//! lives in the library (`eddy_fluid::cli`), where a program that registers a model of its own
//! runs it too.

fn main() -> std::process::ExitCode {
    quiet_device_select();
    eddy_fluid::cli::main()
}

/// Mesa's device-select Vulkan layer prints `error: XDG_RUNTIME_DIR is invalid or not set` for
/// every Vulkan instance when `XDG_RUNTIME_DIR` is not a directory (containers, CI, ssh without a
/// login session). The layer only matters to pick a GPU with `MESA_VK_DEVICE_SELECT`; so when
/// `XDG_RUNTIME_DIR` is unusable and the user set neither that nor `NODEVICE_SELECT`, eddy turns
/// the layer off for itself with `NODEVICE_SELECT=1`. Done first thing in `main`, before any
/// thread exists, which is what makes `set_var` sound.
fn quiet_device_select() {
    let runtime_ok = std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|d| std::path::Path::new(&d).is_dir());
    let user_chose =
        std::env::var_os("NODEVICE_SELECT").is_some() || std::env::var_os("MESA_VK_DEVICE_SELECT").is_some();
    if !runtime_ok && !user_chose {
        // SAFETY: called at the start of `main`, before any other thread is spawned.
        unsafe { std::env::set_var("NODEVICE_SELECT", "1") };
    }
}
