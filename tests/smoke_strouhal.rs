//! The cylinder wake at Re = 100 and below the onset of shedding (issue 24): the Strouhal number of eddy's vortex street
//! against the published one. Williamson, "Vortex dynamics in the cylinder wake", Annu. Rev.
//! Fluid Mech. 28 (1996), fig. 3 and his fit St = 0.2731 - 1.1129 / sqrt(Re) + 0.4821 / Re
//! (Williamson & Brown 1998): St = 0.164 at Re = 100, for an unconfined cylinder.
//!
//! The box stands for open flow: a uniform inflow through the left edge, outflow through the
//! right, free-slip top and bottom edges (no boundary layers growing from the inlet; with
//! no-slip side walls the `channel` scene measured St 0.195, 19% high), the cylinder 3 D from the
//! inlet and 10 D from the outlet, D = 24 cells, a blockage D / H of 1/12. Viscosity nu = U D /
//! Re, the `channel` pipeline's multigrid and MacCormack.
//!
//! Measured, each over a periodic window (the swing of its two halves within 10%), Re = 100:
//!
//! | D, cells | blockage | box | St | from Williamson's 0.164 |
//! |---|---|---|---|---|
//! | 16 | 1/16 | 256 x 256 | 0.1776 | +8.3% |
//! | 24 | 1/12 | 320 x 288 | 0.1785-0.1802 | +8.9-9.9% (windows from 500 or 600 time units) |
//! | 16 | 1/8 | 256 x 128 | 0.1779 | +8.5% (an FFT over 1,200 time units) |
//!
//! So the 8-9% is neither the grid (D 16 to 24) nor the blockage (1/16 to 1/8): eddy's wake
//! sheds about 9% fast, for a reason not found yet (issue 24 stays open on its 5% target). This
//! test holds it within 12% (the 6 cycles of its window pin the period to about 1%) and periodic,
//! so that a change that moves the shedding shows. Below the onset of shedding (Re 30) the same
//! box's wake is steady.

mod common;

use eddy::Simulation;
use eddy::grid::Grid;
use eddy::smoke::{EdgeKind, GpuSmoke, SmokeParams, SmokePreset, SmokeState};

/// Williamson's St at Re = 100 (his universal curve, 1996; 0.1644 from the fit).
const WILLIAMSON_ST: f64 = 0.164;

/// The period of `v` sampled every `dt`: from its first to its last upward crossing of its
/// mean, linearly interpolated, over the whole cycles between them.
fn period(v: &[f32], dt: f64) -> Option<(f64, usize)> {
    let mean = v.iter().map(|&x| x as f64).sum::<f64>() / v.len() as f64;
    let ups: Vec<f64> = v
        .windows(2)
        .enumerate()
        .filter(|(_, w)| (w[0] as f64) < mean && (w[1] as f64) >= mean)
        .map(|(i, w)| (i as f64 + (mean - w[0] as f64) / (w[1] as f64 - w[0] as f64)) * dt)
        .collect();
    let cycles = ups.len().checked_sub(1).filter(|&c| c > 0)?;
    Some(((ups[cycles] - ups[0]) / cycles as f64, cycles))
}

/// The period from the zero crossings of v at a probe 2 D behind the cylinder, over 1,000 time
/// units after 600 (about 2 minutes on lavapipe). Allowed: 12% of Williamson's (measured +9.9%,
/// see the module docs; issue 24 asks 5%). The wake must oscillate (the probe's v swings by more
/// than 0.3 U) and be periodic (the swing of each half of the window within 10% of the other's).
/// The box of the module docs, `w x h` cells with a cylinder of `d` cells, at Reynolds number
/// `re`, with the kick across the wake, on the GPU.
fn wake(g: &eddy::gpu::Gpu, (w, h): (usize, usize), d: f32, re: f32) -> (GpuSmoke, SmokeParams, (usize, usize)) {
    let u = 1.0f32;
    let (xc, yc) = (3.0 * d, h as f32 / 2.0 + 0.5);
    let mut scene = eddy::scene::Scene {
        solid: Grid::filled(w, h, 0),
        fluid: Grid::filled(w, h, 0.0),
        source: Grid::filled(w, h, 0),
    };
    scene.fill_solid_disc((xc, yc), d / 2.0);
    let params = SmokeParams {
        edges: [EdgeKind::Inflow, EdgeKind::Outflow, EdgeKind::Slip, EdgeKind::Slip],
        inflow: u,
        viscosity: u * d / re,
        vorticity: 0.0,
        // The viscous diffusion's Jacobi iterations (the pressure is multigrid's), which converge
        // by 4k / (1 + 4k) an iteration, k = nu dt: 10 reach 1e-5 at Re 100, D 24 (k 0.12) and
        // 1e-3 at Re 30, D 16 (k 0.27), from the velocity before the diffusion.
        jacobi_iterations: 10,
        ..SmokeParams::preset(SmokePreset::Channel)
    };
    params.validate().unwrap();
    // A kick across the wake (v = 0.2 U over 2 D behind the cylinder, one side of it) so that
    // the street need not wait for rounding, or the half cell the cylinder sits off the
    // centreline, to break the symmetry: from rest it took some 1,100 time units to saturate
    // (an FFT over a window that was still growing gave 0.164, by chance).
    let mut state = SmokeState::from_scene(&scene, 0.0);
    for r in (yc - d) as usize..yc as usize {
        for c in (xc + d) as usize..(xc + 3.0 * d) as usize {
            state.velocity_y[(r, c)] = 0.2 * u;
        }
    }
    let sim = GpuSmoke::new(&g.device, &g.queue, &state, params).unwrap();
    // The probe: the v face on the centreline 2 D behind the cylinder.
    (sim, params, (h / 2, (xc + 2.0 * d) as usize))
}

/// Largest minus smallest.
fn swing_of(v: &[f32]) -> f32 {
    v.iter().fold(f32::NEG_INFINITY, |m, &x| m.max(x)) - v.iter().fold(f32::INFINITY, |m, &x| m.min(x))
}

/// `n` samples of the probe's v, one every `every` steps.
fn sample(sim: &mut GpuSmoke, probe: (usize, usize), n: u32, every: u32) -> Vec<f32> {
    (0..n)
        .map(|_| {
            sim.step(every).unwrap();
            sim.read_state().unwrap().velocity_y[probe]
        })
        .collect()
}

#[test]
fn the_cylinder_wake_at_re_100_sheds_within_12_percent_of_williamsons_strouhal_number() {
    let g = common::gpu();
    let (w, h, d, u) = (320usize, 288usize, 24.0f32, 1.0f32);
    let (mut sim, params, probe) = wake(&g, (w, h), d, 100.0);
    // 600 time units for the street to form and settle, then 1,000 sampled every 4 steps.
    let (every, dt) = (4u32, params.dt as f64);
    sim.step((600.0 / dt) as u32).unwrap();
    let v = sample(&mut sim, probe, (1000.0 / dt) as u32 / every, every);
    let swing = swing_of(&v);
    // Periodic: the swing of each half of the window within 10% of the other's.
    let (first, second) = (swing_of(&v[..v.len() / 2]), swing_of(&v[v.len() / 2..]));
    eprintln!("swing: first half {first:.3}, second half {second:.3}");
    assert!((first / second - 1.0).abs() < 0.1, "not yet periodic: the swing went from {first} to {second}");
    let (t, cycles) = period(&v, every as f64 * dt).expect("the wake oscillates");
    let st = d as f64 / (t * u as f64);
    let off = st / WILLIAMSON_ST - 1.0;
    eprintln!(
        "Re 100, D {d} cells, blockage 1/{}, slip side walls: period {t:.2} time units over {cycles} cycles, \
         St {st:.4} ({:+.1}% from Williamson's {WILLIAMSON_ST}); v swings by {swing:.3}",
        h as f32 / d,
        100.0 * off
    );
    assert!(swing > 0.3 * u, "the wake hardly oscillates: v swings by {swing}");
    assert!(off.abs() <= 0.12, "St {st:.4} is {:+.1}% from Williamson's {WILLIAMSON_ST}", 100.0 * off);
    g.check().unwrap();
}

/// Below the onset of shedding (Re about 47; Williamson 1996, sect. 2) the wake is steady: at
/// Re = 30 the same kick dies away. D 16 cells, blockage 1/12, 600 time units to settle, then
/// 200 sampled: the probe's v swings by less than 0.01 U (against 1.2 U at Re = 100; measured
/// 4.4e-3) and less in the second half of the window than in the first (it decays, as a stable
/// wake's disturbance does, where a shedding wake's would hold or grow).
#[test]
fn below_the_onset_the_wake_is_steady() {
    let g = common::gpu();
    let (mut sim, params, probe) = wake(&g, (192, 192), 16.0, 30.0);
    let dt = params.dt;
    sim.step((600.0 / dt) as u32).unwrap();
    let v = sample(&mut sim, probe, (200.0 / dt) as u32 / 4, 4);
    let (swing, first, second) = (swing_of(&v), swing_of(&v[..v.len() / 2]), swing_of(&v[v.len() / 2..]));
    eprintln!("Re 30: v swings by {swing:.2e} over the last 200 time units ({first:.2e}, then {second:.2e})");
    assert!(swing < 0.01, "the wake at Re 30 is not steady: v swings by {swing}");
    assert!(second < first, "the disturbance does not decay: {first} then {second}");
    g.check().unwrap();
}
