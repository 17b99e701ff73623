//! The cylinder wake at Re = 100 and below the onset of shedding: the Strouhal number
//! of eddy's vortex street against the published one. Williamson, "Vortex dynamics in the
//! cylinder wake", Annu. Rev. Fluid Mech. 28 (1996), fig. 3, and his fit St = 0.1816 - 3.3265 /
//! Re + 1.6e-4 Re (Phys. Fluids 31, 1988): St = 0.164 at Re = 100, for an unconfined cylinder.
//!
//! The box stands for open flow (`eddy_fluid::smoke::wake::Wake`): a uniform inflow through the left
//! edge, outflow through the right, free-slip top and bottom edges (no boundary layers growing
//! from the inlet; with no-slip side walls the `channel` scene measured St 0.195, 19% high), the
//! cylinder 8 D from the inlet and 12 D from the outlet, D = 20 cells, a blockage D / H of 1/12.
//! Viscosity nu = U D / Re, the `channel` pipeline's multigrid and MacCormack.
//!
//! Measured on an NVIDIA H200 (`examples/strouhal.rs`, 6-7 cycles over 42 D / U after 25 D / U),
//! Re = 100 unless said, with the earlier outflow (its faces shifted to balance the box's net
//! flux, no pressure condition there); the outflow held at pressure 0 moved this test's box by
//! -0.4% on lavapipe. A shorter window does not do: after 400 time units the swing still grows
//! (its halves 0.96 and 1.08 over the next 800), after 300 more so (St 3-4% low).
//!
//! | D, cells | blockage | inlet, D upstream | box | St | from Williamson's |
//! |---|---|---|---|---|---|
//! | 24 | 1/12 | 3 | 320 x 288 | 0.1802 | +9.7% |
//! | 48 | 1/12 | 3 | 640 x 576 | 0.1841 | +12.0% |
//! | 24 | 1/12 | 6 | 512 x 288 | 0.1659 | +1.0% |
//! | 16 | 1/12 | 8 | 320 x 192 | 0.1634 | -0.6% |
//! | 20 | 1/12 | 8 | 400 x 240 | 0.1652 | +0.5% (this test's box; over its window, 1,000 time units after 600, on lavapipe: 0.1671, +1.9%, with the outflow held at pressure 0; 0.1678, +2.3%, with the earlier one; the test's step 1: 0.1637, -0.4%) |
//! | 24 | 1/12 | 8 | 512 x 288 | 0.1650 | +0.4% |
//! | 32 | 1/12 | 8 | 640 x 384 | 0.1668 | +1.5% |
//! | 24 | 1/12 | 10 | 576 x 288 | 0.1642 | -0.1% |
//! | 24, Re 60 / 150 / 200 | 1/12 | 8 | 512 x 288 | 0.1373 / 0.1825 / 0.1927 | +1.2% / -0.5% / -2.2% |
//!
//! With the inlet 3 D upstream the street shed 10% fast whatever the grid, blockage, step or
//! solver tolerance (and faster on finer grids): the uniform inflow held that close is what
//! raised St. This test holds St within 5% (the 6 cycles of its window pin the period to about
//! 1%; the grids above spread over 4%) and the wake periodic. Below the onset of shedding (Re
//! 30) the same kind of box's wake is steady.

mod common;

use eddy_fluid::Simulation;
use eddy_fluid::smoke::GpuSmoke;
use eddy_fluid::smoke::wake::{Wake, period, swing as swing_of};

/// Williamson's St at Re = 100 (his universal curve, 1996; 0.1643 from his 1988 fit).
const WILLIAMSON_ST: f64 = 0.164;

/// The wake of `setup` on the GPU, and its probe.
fn wake(g: &eddy_fluid::gpu::Gpu, setup: &Wake) -> (GpuSmoke, (usize, usize)) {
    let params = setup.params();
    params.validate().unwrap();
    (GpuSmoke::new(&g.device, &g.queue, &setup.state(), params).unwrap(), setup.probe())
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

/// The period from the zero crossings of v at a probe 2 D behind the cylinder, over 1,000 time
/// units after 600, sampled every 2. The step is 1 time unit, twice the `channel` pipeline's (the
/// inflow crosses a cell a step, about 1.5 beside the cylinder, which MacCormack's
/// semi-Lagrangian traces allow), in half the time: about 3 minutes on lavapipe beside the Re 30
/// test, against 6 at 0.5. Allowed: 5% of Williamson's (the wake's target). Measured on lavapipe
/// over this window: St 0.1637, -0.4%, the swing's halves 1.04 and 1.06 (at the step 0.5:
/// 0.1671, +1.9%; see the module docs). The wake must oscillate (the probe's v swings
/// by more than 0.3 U) and be periodic (the swing of each half of the window within 10% of the
/// other's).
#[test]
fn the_cylinder_wake_at_re_100_sheds_within_5_percent_of_williamsons_strouhal_number() {
    let g = common::gpu();
    let (w, h, d, u) = (400usize, 240usize, 20.0f32, 1.0f32);
    let setup = Wake { dt: 1.0, ..Wake::new((w, h), d, 100.0) };
    let (mut sim, probe) = wake(&g, &setup);
    // 600 time units for the street to form and settle, then 1,000 sampled every 4 steps.
    let dt = setup.dt as f64;
    let every = (2.0 / dt) as u32;
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
    assert!(off.abs() <= 0.05, "St {st:.4} is {:+.1}% from Williamson's {WILLIAMSON_ST}", 100.0 * off);
    g.check().unwrap();
}

/// Below the onset of shedding (Re about 47; Williamson 1996, sect. 2) the wake is steady: at
/// Re = 30 the same kick dies away. D 16 cells, blockage 1/12, 288 x 192, 600 time units to
/// settle, then 200 sampled: the probe's v swings by less than 0.01 U (against 1.1 U at Re =
/// 100; measured 8.9e-4, 2.0e-3 with the earlier outflow) and less in the second half of the window than in the first (it decays, as a stable
/// wake's disturbance does, where a shedding wake's would hold or grow).
#[test]
fn below_the_onset_the_wake_is_steady() {
    let g = common::gpu();
    let setup = Wake::new((288, 192), 16.0, 30.0);
    let (mut sim, probe) = wake(&g, &setup);
    let dt = setup.dt;
    sim.step((600.0 / dt) as u32).unwrap();
    let v = sample(&mut sim, probe, (200.0 / dt) as u32 / 4, 4);
    let (swing, first, second) = (swing_of(&v), swing_of(&v[..v.len() / 2]), swing_of(&v[v.len() / 2..]));
    eprintln!("Re 30: v swings by {swing:.2e} over the last 200 time units ({first:.2e}, then {second:.2e})");
    assert!(swing < 0.01, "the wake at Re 30 is not steady: v swings by {swing}");
    assert!(second < first, "the disturbance does not decay: {first} then {second}");
    g.check().unwrap();
}
