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
//! Measured on an NVIDIA H200 (what is now `examples/cylinder.rs`, from a probe of v behind
//! the cylinder, 6-7 cycles over 42 D / U after 25 D / U), Re = 100 unless said, with the
//! earlier outflow (its faces shifted to balance the box's net flux, no pressure condition
//! there); the outflow held at pressure 0 moved this test's box by
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
//! 1%; the grids above spread over 4%) and the wake periodic, and the fluid's force on the
//! cylinder (`eddy_fluid::body::forces`: the cylinder is a body held still) to the published
//! mean drag and lift amplitude. Below the onset of shedding (Re 20 and 40) the same kind of box's
//! wake is steady, and its drag and recirculation bubble are held to the published steady
//! solutions (`eddy_fluid::smoke::wake::PUBLISHED`).

mod common;

use eddy_fluid::GpuModel;
use eddy_fluid::Simulation;
use eddy_fluid::body::forces::Reference;
use eddy_fluid::smoke::GpuSmoke;
use eddy_fluid::smoke::wake::{PUBLISHED, Wake, bubble_length, drag_from_momentum, period, swing as swing_of};

/// Williamson's St at Re = 100 (his universal curve, 1996; 0.1643 from his 1988 fit).
const WILLIAMSON_ST: f64 = 0.164;

/// The wake of `setup` on the GPU.
fn wake(g: &eddy_fluid::gpu::Gpu, setup: &Wake) -> GpuSmoke {
    let params = setup.params();
    params.validate().unwrap();
    GpuSmoke::new(&g.device, &g.queue, &setup.state(), params).unwrap()
}

/// The drag and lift coefficients of every step logged since the last read (U 1, D the
/// cylinder's diameter).
fn coefficients(g: &eddy_fluid::gpu::Gpu, sim: &mut GpuSmoke, setup: &Wake) -> Vec<(f32, f32)> {
    let cylinder = setup.state().bodies[0];
    let reference = Reference::across(&cylinder, 1.0, (1.0, 0.0));
    let logged = sim.force_log().unwrap().read(&g.device, &g.queue).unwrap();
    logged.iter().map(|s| s.forces[0].coefficients(&reference)).collect()
}

/// Steps `time` time units, reading the force log as it goes (it holds 256 steps).
fn settle(g: &eddy_fluid::gpu::Gpu, sim: &mut GpuSmoke, setup: &Wake, time: f32) -> Vec<(f32, f32)> {
    let mut left = (time / setup.dt).round() as u32;
    let mut forces = Vec::new();
    while left > 0 {
        let n = left.min(200);
        sim.step(n).unwrap();
        forces.extend(coefficients(g, sim, setup));
        left -= n;
    }
    forces
}

fn mean(v: impl Iterator<Item = f32>) -> f64 {
    let (sum, n) = v.fold((0.0, 0), |(s, n), x| (s + x as f64, n + 1));
    sum / n as f64
}

/// The period of the lift on the cylinder (from the fluid's force on it every step, read from
/// the force log), over 1,000 time units after 600. The step is 1 time unit, twice the `channel`
/// pipeline's (the inflow crosses a cell a step, about 1.5 beside the cylinder, which
/// MacCormack's semi-Lagrangian traces allow), in half the time: about 3 minutes on lavapipe
/// beside the steady tests, against 6 at 0.5. Allowed: 5% of Williamson's (the wake's target).
/// Measured on lavapipe over this window: St 0.1647, +0.4% (from the zero crossings of v at a
/// probe 2 D behind the cylinder, as the module docs' table was measured: 0.1637, -0.2%; at
/// the step 0.5: 0.1671, +1.9%). The wake must oscillate (C_L swings by more than 0.3) and be
/// periodic (the swing of each half of the window within 10% of the other's).
///
/// The mean drag coefficient and the lift coefficient's amplitude (half its swing) over the same
/// window, against Park, Kwon & Choi (1998; 1.33, 0.332) and Liu, Zheng & Sung (1998; 1.350,
/// 0.339), unconfined cylinders. Measured: C_D 1.485 (+10.8% from their mean), C_L amplitude
/// 0.309 (-7.9%); allowed 20% for C_D, 25% for C_L (confined between slip walls at a blockage
/// of 1/12, with the inlet 8 D upstream: the steady wakes below see their drag 17-19% above the
/// unconfined solutions, of which halving the blockage takes 4.7% at Re 40; the smoke model's
/// page has the table).
#[test]
fn the_cylinder_wake_at_re_100_sheds_within_5_percent_of_williamsons_strouhal_number() {
    let g = common::gpu();
    let (w, h, d, u) = (400usize, 240usize, 20.0f32, 1.0f32);
    let setup = Wake { dt: 1.0, ..Wake::new((w, h), d, 100.0) };
    let mut sim = wake(&g, &setup);
    // 600 time units for the street to form and settle, then 1,000 sampled every step.
    let dt = setup.dt as f64;
    settle(&g, &mut sim, &setup, 600.0);
    let forces = settle(&g, &mut sim, &setup, 1000.0);
    assert_eq!(forces.len() as f64, 1000.0 / dt, "a force every step of the window");
    let lift: Vec<f32> = forces.iter().map(|f| f.1).collect();
    let swing = swing_of(&lift);
    // Periodic: the swing of each half of the window within 10% of the other's.
    let (first, second) = (swing_of(&lift[..lift.len() / 2]), swing_of(&lift[lift.len() / 2..]));
    assert!((first / second - 1.0).abs() < 0.1, "not yet periodic: the lift's swing went from {first} to {second}");
    let (t, cycles) = period(&lift, dt).expect("the wake oscillates");
    let st = d as f64 / (t * u as f64);
    let off = st / WILLIAMSON_ST - 1.0;
    let drag = mean(forces.iter().map(|f| f.0));
    let lift_amplitude = 0.5 * swing as f64;
    eprintln!(
        "Re 100, D {d} cells, blockage 1/{}, slip side walls: period {t:.2} time units over {cycles} cycles, \
         St {st:.4} ({:+.1}% from Williamson's {WILLIAMSON_ST}); mean C_D {drag:.4}, C_L amplitude \
         {lift_amplitude:.4} (its halves' swings {first:.3}, {second:.3})",
        h as f32 / d,
        100.0 * off,
    );
    assert!(swing > 0.3, "the wake hardly oscillates: C_L swings by {swing}");
    assert!(off.abs() <= 0.05, "St {st:.4} is {:+.1}% from Williamson's {WILLIAMSON_ST}", 100.0 * off);
    let published = PUBLISHED.iter().filter(|p| p.reynolds == 100.0);
    let (their_drag, their_lift) = (mean(published.clone().map(|p| p.drag)), mean(published.map(|p| p.lift)));
    assert!((drag / their_drag - 1.0).abs() <= 0.2, "mean C_D {drag:.4} against {their_drag:.4}");
    assert!(
        (lift_amplitude / their_lift - 1.0).abs() <= 0.25,
        "C_L amplitude {lift_amplitude:.4} against {their_lift:.4}"
    );
    g.check().unwrap();
}

/// A steady wake at `re` (below the onset of shedding, Re about 47; Williamson 1996, sect. 2):
/// D 16 cells in 288 x 192 (blockage 1/12), `settle` time units, then a window of 100: the lift
/// stays near 0 (its swing below 0.02) and its disturbance (the kick) decays (or is already below
/// 1e-3, rounding's level), the drag coefficient is steady (its
/// window's halves within 0.1%) and held to the published steady solutions, the same drag comes
/// out of the momentum the stream loses between the box's ends within 7% (the force on the body
/// checked by a conservation law, not by its own sums; the balance cannot be exact, as the
/// semi-Lagrangian advection conserves momentum only approximately), and the recirculation
/// bubble's length is held to the published ones.
fn steady_wake(re: f32, settle_time: f32, drag_within: f64, bubble_within: f64) {
    let g = common::gpu();
    let setup = Wake::new((288, 192), 16.0, re);
    let mut sim = wake(&g, &setup);
    settle(&g, &mut sim, &setup, settle_time);
    let forces = settle(&g, &mut sim, &setup, 100.0);
    let half = forces.len() / 2;
    let lift: Vec<f32> = forces.iter().map(|f| f.1).collect();
    let (first, second) = (swing_of(&lift[..half]), swing_of(&lift[half..]));
    let drag = mean(forces.iter().map(|f| f.0));
    let (drag_first, drag_second) =
        (mean(forces[..half].iter().map(|f| f.0)), mean(forces[half..].iter().map(|f| f.0)));
    let state = sim.read_state().unwrap();
    let balance = drag_from_momentum(&setup, &state);
    let bubble = bubble_length(&setup, &state).expect("the bubble ends in the box");
    eprintln!(
        "Re {re}: C_D {drag:.4} (halves {drag_first:.4}, {drag_second:.4}; from the momentum balance {balance:.4}), \
         bubble L/D {bubble:.3}, C_L swings {first:.2e} then {second:.2e}"
    );
    // Steady: the lift's swing small, and decaying unless already at rounding's level.
    let decays = second < first || second < 1e-3;
    assert!(first < 0.02 && decays, "the wake at Re {re} is not steady: C_L swings {first}, then {second}");
    assert!((drag_first / drag_second - 1.0).abs() < 1e-3, "the drag still changes: {drag_first}, then {drag_second}");
    assert!((balance / drag - 1.0).abs() < 0.07, "C_D {drag} on the body, {balance} from the momentum balance");
    for p in PUBLISHED.iter().filter(|p| p.reynolds == re) {
        if !p.drag.is_nan() {
            let off = drag / p.drag as f64 - 1.0;
            assert!(off.abs() <= drag_within, "C_D {drag:.4} is {:+.1}% from {}'s {}", 100.0 * off, p.source, p.drag);
        }
        let off = bubble as f64 / p.bubble as f64 - 1.0;
        assert!(off.abs() <= bubble_within, "L/D {bubble:.3} is {:+.1}% from {}'s {}", 100.0 * off, p.source, p.bubble);
    }
    g.check().unwrap();
}

/// Re 20, after 400 time units. Measured: C_D 2.411 (+17.9% from Dennis & Chang's 2.045, +20.6%
/// from Fornberg's 2.000), L/D 0.932 (-0.9%, +2.4%, +0.2% from Dennis & Chang's, Fornberg's and
/// Coutanceau & Bouard's); the momentum balance's C_D 2.297, 4.8% lower. Allowed: C_D
/// within 24% (the blockage: see the module docs and the smoke model's page, where halving it
/// lowers C_D by 4.7% at Re 40), L/D within 8%.
#[test]
fn at_re_20_the_wake_is_steady_with_the_published_drag_and_bubble() {
    steady_wake(20.0, 400.0, 0.24, 0.08);
}

/// Re 40, after 600 time units. Measured: C_D 1.784 (+17.2% from Dennis & Chang's 1.522, +19.1%
/// from Fornberg's 1.498; from the momentum balance 1.726, 3.3% lower), L/D 2.161 (-7.8%, -3.5%,
/// +1.5%). Allowed as at Re 20, L/D within 10% (Dennis & Chang's bubble is the longest of the
/// three).
#[test]
fn at_re_40_the_wake_is_steady_with_the_published_drag_and_bubble() {
    steady_wake(40.0, 600.0, 0.24, 0.10);
}
