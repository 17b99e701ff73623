//! How much memory a model needs at a grid size, estimated before anything is allocated.
//!
//! The estimate is arithmetic on the model's table ([`super::ModelInfo::textures`]): every
//! texture eddy allocates holds one texel per cell, so the GPU side is `W x H x` the bytes per
//! cell of all of them, plus what the run adds (a checkpoint of the state for `eddy run`, a
//! frame target, the readback staging buffer, the statistics rows). The host side is the state
//! as [`super::AnyState`] holds it (f32 fields, u8 masks) twice, the starting state and a
//! readback for saving, plus half the textures again for the packed copies that uploads and
//! readbacks stage, plus what the process takes whatever the grid; the peaks measured on
//! lavapipe at two or three sizes per model lie under it (`MEASURED_PEAKS`). On an adapter
//! whose device type is `Cpu` (lavapipe, llvmpipe, WARP) "GPU" memory is system memory, so both
//! sides are checked against what the machine has available (`MemAvailable` in `/proc/meminfo`).
//! wgpu reports no memory size for real GPUs, so there only the host side and the largest single
//! texture are checked up front, and an allocation the device refuses comes back as
//! [`GpuError::OutOfMemory`] with the estimate.
//!
//! wgpu exposes no limit on the bytes of one texture; eddy takes 99% of the adapter's
//! `max_buffer_size` as that limit ([`crate::gpu::TEXTURE_SHARE`]). On lavapipe (`max_buffer_size` =
//! 2^31 - 1) a 4 GiB `rgba32float` texture at 16384x16384 fails, and so does 11585x11585
//! (2147395600 bytes, just under the limit: the driver adds its own padding), while 11580x11580
//! (2145542400 bytes) works.

use super::ModelKind;
use crate::gpu::GpuError;

/// What a run adds to the model's own textures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extras {
    /// A GPU copy of the state (what `eddy run` rolls back to when a value becomes non-finite).
    pub checkpoint: bool,
    /// A frame target of `(W * s) x (H * s)` RGBA8 pixels.
    pub frame_scale: Option<u32>,
}

/// Bytes a model needs at one grid size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// GPU memory: textures, checkpoint, frame target, staging.
    pub gpu: u64,
    /// Host memory: the state on the CPU, twice.
    pub host: u64,
    /// The largest single texture.
    pub largest_texture: u64,
    /// Its name.
    pub largest_name: &'static str,
    /// Of `gpu`, the bytes per cell (the rest does not grow with the grid).
    pub gpu_per_cell: u64,
    /// Of `host`, the bytes per cell (all of it).
    pub host_per_cell: u64,
}

/// What the process takes whatever the grid, bytes: the program, the driver (lavapipe compiles
/// every pipeline into host memory) and its buffers; measured 97-260 MB (MEASURED_PEAKS).
const PROCESS: u64 = 320 << 20;

/// Peak resident memory of `eddy run --mode M --size NxN --steps 2 --save x.npz` on lavapipe
/// (llvmpipe, LLVM 15, 2 cores), bytes, measured with GNU time's `%M`: the estimate must be
/// at least these (`the_estimate_bounds_the_measured_peaks`). Per cell the peaks grow by 56
/// (water), 178 (gas) and 286 (smoke) bytes, against 42, 132 and 276 before the staging copies
/// were counted: at 9000x9000 the old smoke estimate was under what the run took.
#[cfg(test)]
const MEASURED_PEAKS: [(ModelKind, usize, u64); 7] = [
    (ModelKind::Water, 2048, 324_204 << 10),
    (ModelKind::Water, 3072, 611_316 << 10),
    (ModelKind::Gas, 2048, 921_848 << 10),
    (ModelKind::Gas, 3072, 1_832_548 << 10),
    (ModelKind::Smoke, 1024, 450_204 << 10),
    (ModelKind::Smoke, 2048, 1_425_248 << 10),
    (ModelKind::Smoke, 3072, 2_890_372 << 10),
];

/// Largest staging buffer a readback uses (see `gpu::read_texture`).
const STAGING: u64 = 64 << 20;

/// The estimate for `kind` at `width x height` cells with `extras`, on an adapter whose 2D
/// textures are as large as the grid.
pub fn estimate(kind: ModelKind, width: usize, height: usize, extras: Extras) -> Estimate {
    estimate_on(kind, width, height, extras, (u32::MAX, u64::MAX))
}

/// [`estimate`] on an adapter whose 2D textures have at most `max_side` texels a side and
/// `max_bytes` bytes: water past the side keeps its packed textures alone
/// ([`crate::water::packed_world::TEXTURES`]), in pages that each fit (its largest texture a
/// page's).
pub fn estimate_on(
    kind: ModelKind,
    width: usize,
    height: usize,
    extras: Extras,
    (max_side, max_bytes): (u32, u64),
) -> Estimate {
    let info = kind.info();
    let packed = kind.is_packed_world((width, height), max_side);
    let textures = if packed { crate::water::packed_world::TEXTURES } else { info.textures };
    let cells = width as u64 * height as u64;
    let mut per_cell: u64 = textures.iter().map(|&(_, bytes, n)| bytes as u64 * n as u64).sum();
    let &(largest_name, largest, _) = textures.iter().max_by_key(|t| t.1).expect("a model has textures");
    if extras.checkpoint {
        per_cell += info.state_bytes_per_cell as u64;
    }
    if let Some(s) = extras.frame_scale {
        per_cell += (s as u64 * s as u64) * 4;
    }
    // The state twice (the start and a readback for saving) and half the textures again: uploads
    // and readbacks stage packed copies (measured, see MEASURED_PEAKS). A packed world packs and
    // unpacks on the CPU: its packed texels twice.
    let staged = if packed { per_cell } else { per_cell / 2 };
    let host_per_cell = 2 * info.host_bytes_per_cell as u64 + staged;
    Estimate {
        gpu: cells * per_cell + STAGING.min(cells * 16) + height as u64 * 64,
        host: cells * host_per_cell + PROCESS,
        largest_texture: match packed {
            true => crate::water::packed_world::largest_texture_bytes(width as u32, height as u32, max_side, max_bytes),
            false => cells * largest as u64,
        },
        largest_name,
        gpu_per_cell: per_cell,
        host_per_cell,
    }
}

/// `12.9 GB`, `640 MB`.
pub fn human(bytes: u64) -> String {
    if bytes >= 1_000_000_000 {
        format!("{:.1} GB", bytes as f64 / 1e9)
    } else {
        format!("{:.0} MB", (bytes as f64 / 1e6).max(1.0))
    }
}

/// Memory the machine can give now, bytes (`MemAvailable` in `/proc/meminfo`); `None` where
/// there is no such file (other systems than Linux) or it cannot be read.
pub fn available_host_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// What a state file may declare before any of it is decompressed ([`crate::npz::ReadLimits`]):
/// sides up to the widest grid a model takes where the largest texture side is `max_side` (the
/// device's `max_texture_dimension_2d` where a device is open, else [`crate::scene::MAX_SIDE`]):
/// water's, four times it ([`crate::water::packed_world::largest`]); the model's own limit is
/// checked when the state is made into one. Arrays that decompress to at most half the memory
/// the machine has available (4 GiB where that is unknown).
#[cfg(feature = "npz")]
pub fn read_limits(max_side: Option<u32>) -> crate::npz::ReadLimits {
    crate::npz::ReadLimits {
        max_side: crate::water::packed_world::largest(max_side.unwrap_or(crate::scene::MAX_SIDE)).0,
        max_bytes: available_host_memory().map_or(crate::npz::ReadLimits::default().max_bytes, |m| m / 2),
    }
}

/// `a` and `b` as [`human`] writes them, or in bytes where that would make them look equal.
fn human_pair(a: u64, b: u64) -> (String, String) {
    let (ha, hb) = (human(a), human(b));
    if ha == hb { (format!("{a} bytes"), format!("{b} bytes")) } else { (ha, hb) }
}

/// Checks that `kind` at `width x height` fits the adapter (`info`, `limits`) and the machine.
/// Without `info` (a device an application brought) the adapter's memory is taken to be its own,
/// not the machine's.
///
/// # Errors
/// [`GpuError::TooLarge`] with one line: what is needed, what there is, and the largest square
/// grid that passes every check.
pub fn check(
    kind: ModelKind,
    size: (usize, usize),
    extras: Extras,
    info: Option<&wgpu::AdapterInfo>,
    limits: &wgpu::Limits,
) -> Result<Estimate, GpuError> {
    let unified =
        info.filter(|i| crate::gpu::DeviceCaps::from_adapter(i, limits).unified_memory).map(|i| i.name.as_str());
    check_against(kind, size, extras, unified, limits, available_host_memory())
}

/// [`check`] with the machine's available memory given (`None`: unknown, not checked), and
/// `unified` the name of an adapter that keeps its GPU memory in the machine's (`None`: its own).
fn check_against(
    kind: ModelKind,
    (width, height): (usize, usize),
    extras: Extras,
    unified: Option<&str>,
    limits: &wgpu::Limits,
    available: Option<u64>,
) -> Result<Estimate, GpuError> {
    let texture_limit = (limits.max_buffer_size as f64 * crate::gpu::TEXTURE_SHARE) as u64;
    let e = estimate_on(kind, width, height, extras, (limits.max_texture_dimension_2d, texture_limit));
    // The largest square grid whose `per_cell` bytes fit `budget` (with the fixed bytes: about).
    let side = |per_cell: u64, budget: f64| (budget.max(0.0) / per_cell.max(1) as f64).sqrt().floor() as u64;
    let largest_per_cell = kind.info().textures.iter().map(|t| t.1).max().unwrap_or(1) as u64;
    let mut problem: Option<(String, String)> = None;
    // A square past the largest texture side never fits, but water's, which is kept packed in
    // pages up to four sides a side.
    let mut fits = match kind {
        ModelKind::Water => crate::water::packed_world::largest(limits.max_texture_dimension_2d).0 as u64,
        _ => side(largest_per_cell, texture_limit as f64).min(u64::from(limits.max_texture_dimension_2d)),
    };
    if e.largest_texture > texture_limit {
        let (needs, has) = human_pair(e.largest_texture, texture_limit);
        problem = Some((
            format!("a texture of {needs} ({})", e.largest_name),
            format!("the adapter allows {has} in one resource (99% of its max_buffer_size)"),
        ));
    }
    if let Some(available) = available {
        let needed = e.host + if unified.is_some() { e.gpu } else { 0 };
        let per_cell = e.host_per_cell + if unified.is_some() { e.gpu_per_cell } else { 0 };
        let fixed = needed - per_cell * (width as u64 * height as u64);
        fits = fits.min(side(per_cell, available as f64 * 0.9 - fixed as f64));
        if needed > available && problem.is_none() {
            let (needs, has) = human_pair(needed, available);
            let has = if let Some(name) = unified {
                format!("this machine has {has} available, and {name} keeps GPU memory in it")
            } else {
                format!("this machine has {has} available")
            };
            problem = Some((format!("about {needs}"), has));
        }
    }
    match problem {
        None => Ok(e),
        Some((needs, has)) => Err(GpuError::TooLarge {
            what: format!("{kind} at {width}x{height}"),
            needs,
            has,
            fits: format!("{fits}x{fits}"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smoke_at_16k_needs_about_44_gb_of_textures() {
        let e = estimate(ModelKind::Smoke, 16384, 16384, Extras::default());
        // 165 bytes per cell of textures: the collocated grid's 48 (about 13 GB on its own here),
        // the staggered faces' 16, the solver levels' 24, the divergence after and vorticity's
        // 8, confinement's force's 8, the dye's 48, the packed Jacobi iterations' 13 (three
        // rgba32float textures of four cells a texel, the walls a byte a cell).
        assert!((44.3e9..44.6e9).contains(&(e.gpu as f64)), "{}", human(e.gpu));
        // Water's largest texture is a byte-for-byte fourth of a packed one: 4 bytes a cell.
        let w = estimate(ModelKind::Water, 16384, 16384, Extras::default());
        assert_eq!(w.largest_texture, 16384 * 16384 * 4);
    }

    /// On a CPU adapter the GPU side lives in the machine's memory: the whole estimate bounds
    /// every peak measured (with the checkpoint `eddy run` keeps).
    #[test]
    fn the_estimate_bounds_the_measured_peaks() {
        for (kind, n, peak) in MEASURED_PEAKS {
            let e = estimate(kind, n, n, Extras { checkpoint: true, frame_scale: None });
            let total = e.gpu + e.host;
            println!("{kind} {n}x{n}: estimate {} against a measured peak of {}", human(total), human(peak));
            assert!(
                total >= peak,
                "{kind} at {n}x{n}: estimate {} under the measured peak {}",
                human(total),
                human(peak)
            );
        }
    }

    /// A packed water world (past lavapipe's texture side of 16384) keeps its packed textures
    /// alone: 8 bytes a cell on the GPU, not 20, and packs and unpacks on the CPU. Its estimate
    /// bounds the peak measured for `eddy run --mode water --size 32768x8192 --steps 2 --save
    /// x.npz` on lavapipe (GNU time's `%M`: 7,965,580 KiB), and of one in pages.
    #[test]
    fn a_packed_world_estimate_bounds_its_measured_peak() {
        let e = estimate_on(
            ModelKind::Water,
            32768,
            8192,
            Extras { checkpoint: true, frame_scale: None },
            (16384, u64::MAX),
        );
        assert_eq!((e.gpu_per_cell, e.largest_texture), (12, 32768 * 8192 * 4));
        assert!(e.gpu + e.host >= 7_965_580 << 10, "{}", human(e.gpu + e.host));
        assert_eq!(estimate_on(ModelKind::Water, 4096, 4096, Extras::default(), (16384, u64::MAX)).gpu_per_cell, 20);
        // In two pages (lavapipe's resource holds 16,220 rows 32768 wide): the largest texture a
        // page's, and `--size 32768x16384 --steps 2 --save` peaked at 13,736,664 KiB.
        let lavapipe = (16384, ((1u64 << 31) - 1) * 99 / 100);
        let e = estimate_on(ModelKind::Water, 32768, 16384, Extras { checkpoint: true, frame_scale: None }, lavapipe);
        assert_eq!(e.largest_texture, 32768 * (8192 + 4) * 4);
        assert!(e.gpu + e.host >= 13_736_664 << 10, "{}", human(e.gpu + e.host));
    }

    /// A grid whose state does not fit the machine is refused with one line naming both
    /// amounts, and the grid the line suggests passes the same check (while one a tenth wider
    /// does not): the suggestion is an answer, not a guess.
    #[test]
    fn a_grid_too_large_for_the_machine_is_refused_with_a_grid_that_fits() {
        // lavapipe's one-resource limit, about the 2 GB the machine is given here (enough that
        // the fixed part, PROCESS, leaves most of it to the grid).
        let limits = wgpu::Limits { max_buffer_size: (1 << 31) - 1, ..wgpu::Limits::default() };
        let cpu = Some("llvmpipe");
        let available = Some(2_000_000_000);
        let refused = check_against(ModelKind::Smoke, (4096, 4096), Extras::default(), cpu, &limits, available);
        let Err(e @ GpuError::TooLarge { .. }) = refused else { panic!("{refused:?}") };
        let line = e.to_string();
        println!("{line}");
        assert!(!line.contains('\n') && line.starts_with("smoke at 4096x4096 needs about "), "{line}");
        let GpuError::TooLarge { what, needs, has, fits } = e else { unreachable!() };
        assert_eq!(what, "smoke at 4096x4096");
        // 4096^2 cells x (the textures, twice the state, half the textures again) bytes: GBs.
        assert!(needs.starts_with("about ") && needs.ends_with(" GB"), "{needs}");
        assert!(has.contains("2.0 GB available") && has.contains("llvmpipe keeps GPU memory"), "{has}");
        let side: usize = fits.split('x').next().unwrap().parse().unwrap();
        assert!(side > 1000 && side < 4096, "{fits}");
        let at = |n: usize| check_against(ModelKind::Smoke, (n, n), Extras::default(), cpu, &limits, available);
        assert!(at(side).is_ok(), "the suggested {fits} is refused too");
        assert!(at(side * 11 / 10).is_err(), "{fits} is far below what fits");
        // A discrete GPU keeps its textures in its own memory: only the host side counts, so
        // the same grid passes there.
        let host = estimate(ModelKind::Smoke, 4096, 4096, Extras::default()).host;
        let roomy = Some(host + host / 4);
        assert!(check_against(ModelKind::Smoke, (4096, 4096), Extras::default(), None, &limits, roomy).is_ok());
        // Unknown free memory (no /proc/meminfo): only the per-texture limit is checked.
        assert!(check_against(ModelKind::Smoke, (4096, 4096), Extras::default(), cpu, &limits, None).is_ok());
        // Water past a texture's side is a packed world in pages, whose suggested square may be
        // past the side too (lavapipe's 16384, 24 GB available).
        let limits = wgpu::Limits { max_texture_dimension_2d: 16384, ..limits };
        let water = |n: usize, m: usize| {
            check_against(ModelKind::Water, (n, m), Extras::default(), cpu, &limits, Some(24_000_000_000))
        };
        let Err(GpuError::TooLarge { fits, .. }) = water(65536, 16384) else { panic!("65536x16384 fits") };
        let side: usize = fits.split('x').next().unwrap().parse().unwrap();
        assert!(side > 16384 && water(side, side).is_ok() && water(side * 11 / 10, side * 11 / 10).is_err(), "{fits}");
    }
}
