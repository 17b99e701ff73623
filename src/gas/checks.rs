//! The experiments that hold the gas model to the physics it discretises, isothermal
//! compressible flow (`p = c^2 rho`, `c^2` = [`GasParams::pressure`]): a blob carried by a
//! uniform flow, a small pressure pulse, and a shock tube against [`super::exact`]. They run the
//! CPU reference ([`cpu::step`]); the GPU is held to it by the GPU-vs-CPU tests. `tests/gas_physics.rs`
//! asserts on them and `examples/gas_physics.rs` prints the tables in the README.
//!
//! Every experiment sets damping = drain = 1 and friction = 0, so that what is measured is
//! transport and pressure alone. Units: cells and steps.

use super::exact::{Riemann, Side};
use super::{GasParams, GasState, cpu, lattice};
use crate::grid::Grid;

/// `params` with damping = drain = 1 and friction = 0 (nothing but transport and pressure).
pub fn undamped(params: GasParams) -> GasParams {
    GasParams { damping: 1.0, drain: 1.0, friction: 0.0, ..params }
}

/// A gas state with density `rho(col, row)` and velocity `u(col, row)` at cell centres
/// (`(c + 0.5, r + 0.5)`), no walls but the grid's edge, no sources.
pub fn state_from(w: usize, h: usize, rho: impl Fn(f64, f64) -> f64, u: impl Fn(f64, f64) -> (f64, f64)) -> GasState {
    let at = |r: usize, c: usize| (c as f64 + 0.5, r as f64 + 0.5);
    let density = Grid::from_fn(w, h, |r, c| {
        let (x, y) = at(r, c);
        rho(x, y) as f32
    });
    let momentum = |k: usize| {
        Grid::from_fn(w, h, |r, c| {
            let (x, y) = at(r, c);
            let v = u(x, y);
            (rho(x, y) * if k == 0 { v.0 } else { v.1 }) as f32
        })
    };
    GasState {
        momentum_x: momentum(0),
        momentum_y: momentum(1),
        density,
        solid: Grid::filled(w, h, 0),
        source: Grid::filled(w, h, 0),
        bodies: Vec::new(),
    }
}

/// Runs `steps` steps of the CPU reference, calling `each(step, state)` after every one.
pub fn run(state: &mut GasState, params: &GasParams, steps: u32, each: impl FnMut(u32, &GasState)) {
    run_with(state, params, cpu::LIMITER, steps, each);
}

/// [`run`] with `limiter` for the linear reconstruction ([`cpu::step_with`]).
pub fn run_with(
    state: &mut GasState,
    params: &GasParams,
    limiter: cpu::Limiter,
    steps: u32,
    mut each: impl FnMut(u32, &GasState),
) {
    for n in 1..=steps {
        cpu::step_with(state, params, limiter);
        each(n, state);
    }
}

/// Centroid `(x, y)` of the excess density `rho - ambient` over the grid, in cell-centre
/// coordinates (cells).
pub fn excess_centroid(s: &GasState, ambient: f64) -> (f64, f64) {
    let (h, w) = s.density.shape();
    let (mut m, mut mx, mut my) = (0.0, 0.0, 0.0);
    for r in 0..h {
        for c in 0..w {
            let e = s.density[(r, c)] as f64 - ambient;
            m += e;
            mx += e * (c as f64 + 0.5);
            my += e * (r as f64 + 0.5);
        }
    }
    (mx / m, my / m)
}

/// Result of [`translation`].
#[derive(Clone, Copy, Debug)]
pub struct Translation {
    /// The flow's velocity `(x, y)`, cells/step.
    pub velocity: (f64, f64),
    /// The blob's centroid velocity, measured (cells/step).
    pub measured: (f64, f64),
    /// `|measured - velocity| / |velocity|`.
    pub error: f64,
    /// The largest speed any cell reached (cells/step).
    pub max_speed: f32,
}

/// A Gaussian blob (peak excess density 1 over ambient 1, standard deviation 4 cells) in a flow
/// of uniform `velocity` (cells/step); returns the excess density's centroid velocity over
/// `steps` steps. The grid's outermost ring of cells are sources holding ambient gas at that
/// velocity (the uniform flow is an exact solution, so they act as a far field), and it is
/// large enough that the blob and its sound ring stay clear of them. Exact: the blob moves with
/// the flow (Galilean invariance of the Euler equations).
///
/// # Panics
/// When `velocity` is zero or `steps` is 0 (there is nothing to measure).
pub fn translation(params: &GasParams, velocity: (f64, f64), steps: u32) -> Translation {
    assert!(steps > 0 && velocity != (0.0, 0.0), "a translation run needs a flow and steps");
    let p = GasParams { wind: (velocity.0 as f32, velocity.1 as f32), ..undamped(*params) };
    let (sigma, c) = (4.0, p.sound_speed() as f64);
    let t = steps as f64;
    let speed = velocity.0.hypot(velocity.1);
    // The ring's width: the blob's sigma spread by the exchange (at most (|u| + c) h / 2 with
    // h up to sqrt(2)); six of those beyond c t keep its excess mass off the frame.
    let nu = (p.diffusion as f64).max(0.75 * (speed + c));
    let width = (sigma * sigma + 2.0 * nu * t).sqrt();
    let half = (c * t + speed * t / 2.0 + 6.0 * width).ceil() as usize + 2;
    let n = 2 * half;
    let start = (half as f64 - velocity.0 * t / 2.0, half as f64 - velocity.1 * t / 2.0);
    let mut s = state_from(
        n,
        n,
        |x, y| 1.0 + (-((x - start.0).powi(2) + (y - start.1).powi(2)) / (2.0 * sigma * sigma)).exp(),
        |_, _| velocity,
    );
    for r in 0..n {
        for c in 0..n {
            if r == 0 || c == 0 || r == n - 1 || c == n - 1 {
                s.source[(r, c)] = 1;
            }
        }
    }
    let before = excess_centroid(&s, 1.0);
    let mut fastest = 0.0f32;
    run(&mut s, &p, steps, |_, s| fastest = fastest.max(s.stats().max_speed));
    let after = excess_centroid(&s, 1.0);
    let measured = ((after.0 - before.0) / t, (after.1 - before.1) / t);
    let error = (measured.0 - velocity.0).hypot(measured.1 - velocity.1) / speed;
    Translation { velocity, measured, error, max_speed: fastest }
}

/// Result of [`sound_speed`].
#[derive(Clone, Copy, Debug)]
pub struct SoundSpeed {
    /// `c = sqrt(pressure)`, cells/step.
    pub exact: f64,
    /// Spreading speed from the pulse's second moment `M_xx + M_yy` (cells/step): tests
    /// consistency (`L_axis + sqrt(2) L_diag = 1`), not direction: for a pulse symmetric under
    /// quarter turns, the second moment along a diagonal is exactly the mean of those along x
    /// and y, and at leading order any weights give an isotropic speed.
    pub spread: f64,
    /// Speed of the pulse's crest along the axes between `steps / 2` and `steps` (mean of four
    /// rays); slightly above `c` for a spreading cylindrical wave, whose crest starts behind
    /// `c t` and closes in. This one sees direction (the scheme's dispersion).
    pub crest_axes: f64,
    /// The same along the diagonals.
    pub crest_diagonals: f64,
}

/// Crest of the excess density along the ray from `centre` in direction `(dc, dr)` (a step of
/// `|(dc, dr)|` cells): the distance of the largest sample, refined by a parabola through it and
/// its neighbours.
fn crest(s: &GasState, centre: (usize, usize), dir: (isize, isize)) -> f64 {
    crest_and_peak(s, centre, dir).0
}

/// [`crest`] and the excess density there (`rho - 1` at the parabola's top).
fn crest_and_peak(s: &GasState, centre: (usize, usize), (dc, dr): (isize, isize)) -> (f64, f64) {
    let len = ((dc * dc + dr * dr) as f64).sqrt();
    let sample = |k: isize| -> Option<f64> {
        let (r, c) = (centre.1 as isize + k * dr, centre.0 as isize + k * dc);
        s.density.get(r, c).map(|&v| v as f64)
    };
    let mut best = 1;
    let mut k = 1;
    while let Some(v) = sample(k) {
        if v > sample(best).unwrap_or(f64::MIN) {
            best = k;
        }
        k += 1;
    }
    let (a, b, c) = (sample(best - 1).unwrap_or(0.0), sample(best).unwrap_or(0.0), sample(best + 1).unwrap_or(0.0));
    let (shift, top) = parabola_top(a, b, c);
    ((best as f64 + shift) * len, top - 1.0)
}

/// The top of the parabola through three samples a step apart, `(a, b, c)` with `b` the largest:
/// its offset from `b`'s position (steps, within +-1/2) and its value.
fn parabola_top(a: f64, b: f64, c: f64) -> (f64, f64) {
    let denom = a - 2.0 * b + c;
    let shift = if denom.abs() > 0.0 { 0.5 * (a - c) / denom } else { 0.0 };
    (shift, b - 0.25 * (a - c) * shift)
}

/// The second moment `sum e |x - mid|^2` of the excess density `e` and its total `sum e`.
fn moments(s: &GasState, mid: f64) -> (f64, f64) {
    let (h, w) = s.density.shape();
    let (mut m, mut total) = (0.0, 0.0);
    for r in 0..h {
        for c in 0..w {
            let e = s.density[(r, c)] as f64 - 1.0;
            let (x, y) = (c as f64 + 0.5 - mid, r as f64 + 0.5 - mid);
            m += e * (x * x + y * y);
            total += e;
        }
    }
    (m, total)
}

/// A small pressure pulse (Gaussian excess density `amplitude` over ambient 1, standard
/// deviation `sigma` cells) at rest in the middle of a grid big enough that the ring does not
/// reach the walls; returns how fast it spreads, and how fast its crest runs along the axes and
/// along the diagonals.
///
/// Exact: linear acoustics with a constant exchange `nu`, `rho_t + div m = nu lap rho`,
/// `m_t + c^2 grad rho = nu lap m`. Multiplying by `|x|^2` and integrating by parts, the second
/// moment `M = sum (rho - 1) |x|^2` of a pulse released from rest obeys
/// `M(t) = M(0) + 4 nu E t + 2 c^2 E t^2` (`E` the excess mass), whatever the pulse's shape or
/// the wave's dispersion; `nu` only adds the linear term (Rusanov's exchange varies with the
/// local speed, negligibly at amplitude 0.01). The speed is read from the `t^2` term of the
/// moments at `0`, `steps / 2` and `steps`.
///
/// # Panics
/// When `steps < 2` or the pressure is 0 (no sound).
pub fn sound_speed(params: &GasParams, amplitude: f64, sigma: f64, steps: u32) -> SoundSpeed {
    assert!(steps >= 2 && params.pressure > 0.0, "a sound-speed run needs pressure and >= 2 steps");
    let p = undamped(*params);
    let c = p.sound_speed() as f64;
    let (mut s, half, mid) = pulse(amplitude, sigma, c, steps);
    let centre = (half, half);
    let crests = |s: &GasState| {
        let mean = |dirs: [(isize, isize); 4]| dirs.iter().map(|&d| crest(s, centre, d)).sum::<f64>() / 4.0;
        (mean([(1, 0), (0, 1), (-1, 0), (0, -1)]), mean([(1, 1), (-1, 1), (1, -1), (-1, -1)]))
    };
    let (m0, mass) = moments(&s, mid);
    let t1 = steps / 2;
    run(&mut s, &p, t1, |_, _| {});
    let (first, (m1, _)) = (crests(&s), moments(&s, mid));
    run(&mut s, &p, steps - t1, |_, _| {});
    let (second, (m2, _)) = (crests(&s), moments(&s, mid));
    // Through (0, m0), (t1, m1), (t2, m2): the t^2 coefficient is 2 c^2 E.
    let (a, b) = (t1 as f64, steps as f64);
    let q = ((m2 - m0) / b - (m1 - m0) / a) / (b - a);
    let dt = b - a;
    SoundSpeed {
        exact: c,
        spread: (q / (2.0 * mass)).max(0.0).sqrt(),
        crest_axes: (second.0 - first.0) / dt,
        crest_diagonals: (second.1 - first.1) / dt,
    }
}

/// Result of [`pulse_ring`]: the scheme's ring against the exact one
/// ([`super::acoustics::gaussian_pulse_2d_crest`]). Distances in cells from the pulse's
/// centre, excess densities over the ambient 1.
#[derive(Clone, Copy, Debug)]
pub struct PulseRing {
    /// The exact crest's radius.
    pub exact_radius: f64,
    /// The exact crest's excess density.
    pub exact_peak: f64,
    /// The scheme's crest radius along the axes (mean of four rays) and the diagonals.
    pub radius: (f64, f64),
    /// Its crest's excess density along the axes and the diagonals.
    pub peak: (f64, f64),
}

impl PulseRing {
    /// The fraction of the exact crest's amplitude the scheme keeps, along the axes and the
    /// diagonals.
    pub fn kept(&self) -> (f64, f64) {
        (self.peak.0 / self.exact_peak, self.peak.1 / self.exact_peak)
    }
}

/// The pulse of [`sound_speed`] (Gaussian excess `amplitude`, standard deviation `sigma`
/// cells, at rest, no walls in reach) after `steps` steps, against the exact linear solution
/// ([`super::acoustics`]): the ring's radius and amplitude along the axes and the diagonals.
///
/// # Panics
/// When the pressure is 0 (no sound).
pub fn pulse_ring(params: &GasParams, amplitude: f64, sigma: f64, steps: u32) -> PulseRing {
    pulse_ring_with(params, cpu::LIMITER, amplitude, sigma, steps)
}

/// [`pulse_ring`] with `limiter` for the linear reconstruction.
///
/// # Panics
/// When the pressure is 0 (no sound).
pub fn pulse_ring_with(params: &GasParams, limiter: cpu::Limiter, amplitude: f64, sigma: f64, steps: u32) -> PulseRing {
    assert!(params.pressure > 0.0, "a pulse needs pressure");
    let p = undamped(*params);
    let c = p.sound_speed() as f64;
    let (mut s, half, _) = pulse(amplitude, sigma, c, steps);
    run_with(&mut s, &p, limiter, steps, |_, _| {});
    let (radius, peak) = ring(&s, half);
    let (exact_radius, exact_peak) = super::acoustics::gaussian_pulse_2d_crest(steps as f64, amplitude, sigma, c);
    PulseRing { exact_radius, exact_peak, radius, peak }
}

/// The crest of a ring of excess density around cell `(half, half)`: its radius along the axes
/// and along the diagonals (cells from that cell's centre; each the mean of four rays), and its
/// excess density over the ambient 1 there, as `((axes, diagonals), (axes, diagonals))`.
pub fn ring(s: &GasState, half: usize) -> ((f64, f64), (f64, f64)) {
    let mean = |dirs: [(isize, isize); 4]| {
        let v: Vec<(f64, f64)> = dirs.iter().map(|&d| crest_and_peak(s, (half, half), d)).collect();
        (v.iter().map(|x| x.0).sum::<f64>() / 4.0, v.iter().map(|x| x.1).sum::<f64>() / 4.0)
    };
    let axes = mean([(1, 0), (0, 1), (-1, 0), (0, -1)]);
    let diagonals = mean([(1, 1), (-1, 1), (1, -1), (-1, -1)]);
    ((axes.0, diagonals.0), (axes.1, diagonals.1))
}

/// The pulse of [`sound_speed`] and [`pulse_ring`]: a Gaussian excess density `amplitude` over
/// ambient 1 (standard deviation `sigma` cells) at rest in the middle of a square grid big
/// enough that its ring, running `steps` steps at `c` cells/step, stays clear of the edge; with
/// the middle cell's index `half` (row and column) and its centre's coordinate `mid`.
pub fn pulse(amplitude: f64, sigma: f64, c: f64, steps: u32) -> (GasState, usize, f64) {
    let half = (c * steps as f64 + 6.0 * sigma).ceil() as usize + 2;
    let n = 2 * half + 1;
    let mid = half as f64 + 0.5;
    let s = state_from(
        n,
        n,
        |x, y| 1.0 + amplitude * (-((x - mid).powi(2) + (y - mid).powi(2)) / (2.0 * sigma * sigma)).exp(),
        |_, _| (0.0, 0.0),
    );
    (s, half, mid)
}

/// Result of [`sound_wave`]: a packet of sound after its run, against the exact simple wave.
#[derive(Clone, Copy, Debug)]
pub struct SoundWave {
    /// The sound speed `c` (cells/step).
    pub exact: f64,
    /// The packet's speed from its excess density's centroid (cells/step; positive to the
    /// right). The exact simple wave's centroid runs a little faster than `c` (its crest
    /// travels at `c (1 + ln rho)`): 0.2% at amplitude 0.01.
    pub speed: f64,
    /// The crest's excess density at the end (its samples' parabola's top) over `amplitude`:
    /// the amplitude kept (1 for the exact wave, which keeps its values and only moves them).
    pub kept: f64,
    /// `sum |e - e_exact| / sum |e_exact|` of the excess density `e` along the channel at the
    /// end: the L1 error against the exact wave.
    pub error: f64,
}

/// A packet of sound running along a channel 4 cells wide (walls along it): a Gaussian excess
/// density `amplitude` (standard deviation `sigma` cells) moving right (`direction` 1) or left
/// (-1) as a simple wave, `u = direction c ln(rho)` (a Riemann invariant of the isothermal
/// equations is constant across it: along the other family's characteristics, `du = -+ c
/// drho / rho`), for `distance / c` steps, against the exact simple wave: each value `rho_0`
/// carried at its characteristic speed `direction c (1 + ln rho_0)` (before the wave breaks,
/// far beyond these runs; LeVeque 2002, ch. 13, simple waves). The channel leaves `6 sigma +
/// 4` cells between the packet and each end.
///
/// # Panics
/// When the pressure is 0 (no sound) or `direction` is not 1 or -1.
pub fn sound_wave(
    params: &GasParams,
    limiter: cpu::Limiter,
    amplitude: f64,
    sigma: f64,
    distance: f64,
    direction: f64,
) -> SoundWave {
    assert!(params.pressure > 0.0, "sound needs pressure");
    assert!(direction == 1.0 || direction == -1.0, "direction is 1 or -1");
    let p = undamped(*params);
    let c = p.sound_speed() as f64;
    let margin = 6.0 * sigma + 4.0;
    let width = (distance + 2.0 * margin).ceil() as usize;
    let start = if direction > 0.0 { margin } else { width as f64 - margin };
    let rho0 = |x: f64| 1.0 + amplitude * (-(x - start).powi(2) / (2.0 * sigma * sigma)).exp();
    let mut s = state_from(width, 4, |x, _| rho0(x), |x, _| (direction * c * rho0(x).ln(), 0.0));
    let profile = |s: &GasState| -> Vec<f64> {
        (0..width).map(|col| (0..4).map(|r| s.density[(r, col)] as f64 - 1.0).sum::<f64>() / 4.0).collect()
    };
    let centroid = |e: &[f64]| {
        let total: f64 = e.iter().sum();
        e.iter().enumerate().map(|(i, v)| v * (i as f64 + 0.5)).sum::<f64>() / total
    };
    let steps = (distance / c).round() as u32;
    let before = centroid(&profile(&s));
    run_with(&mut s, &p, limiter, steps, |_, _| {});
    let e = profile(&s);
    let t = steps as f64;
    // The exact simple wave at each cell centre x: rho_0(xi) from x = xi + direction c t
    // (1 + ln rho_0(xi)), by Newton's method from xi = x - direction c t.
    let exact = |x: f64| -> f64 {
        let mut xi = x - direction * c * t;
        for _ in 0..50 {
            let r = rho0(xi);
            let slope = -(xi - start) / (sigma * sigma) * (r - 1.0);
            let f = xi + direction * c * t * (1.0 + r.ln()) - x;
            let step = f / (1.0 + direction * c * t * slope / r);
            xi -= step;
            if step.abs() < 1e-12 {
                break;
            }
        }
        rho0(xi) - 1.0
    };
    let reference: Vec<f64> = (0..width).map(|i| exact(i as f64 + 0.5)).collect();
    let error = e.iter().zip(&reference).map(|(a, b)| (a - b).abs()).sum::<f64>()
        / reference.iter().map(|v| v.abs()).sum::<f64>();
    let best = (0..width).max_by(|&a, &b| e[a].total_cmp(&e[b])).expect("a channel");
    let (_, crest) = parabola_top(e[best.max(1) - 1], e[best], e[(best + 1).min(width - 1)]);
    SoundWave { exact: c, speed: (centroid(&e) - before) / t, kept: crest / amplitude, error }
}

/// The shock tube: a channel `width x height` cells (the grid's edges are its walls), density
/// `left` in columns `< membrane` and `right` beyond, all at rest.
#[derive(Clone, Copy, Debug)]
pub struct ShockTube {
    /// Cells along the channel.
    pub width: usize,
    /// Cells across it.
    pub height: usize,
    /// Column where the right state begins.
    pub membrane: usize,
    /// Density on the left, per cell.
    pub left: f32,
    /// Density on the right.
    pub right: f32,
}

impl ShockTube {
    /// Densities 1 | 0.125 (ratio 8) in a 4-cell channel, with room for `steps` steps at sound
    /// speed `c` before either wave reaches an end (plus 20 cells).
    pub fn ratio_8(c: f64, steps: u32) -> Self {
        let r = Riemann::solve(Side { rho: 1.0, u: 0.0 }, Side { rho: 0.125, u: 0.0 }, c);
        let t = steps as f64;
        let membrane = (-r.left_front() * t).ceil() as usize + 20;
        let width = membrane + (r.right_front() * t).ceil() as usize + 20;
        Self { width, height: 4, membrane, left: 1.0, right: 0.125 }
    }

    /// The initial state.
    pub fn state(&self) -> GasState {
        let m = self.membrane as f64;
        let (l, r) = (self.left as f64, self.right as f64);
        state_from(self.width, self.height, |x, _| if x < m { l } else { r }, |_, _| (0.0, 0.0))
    }

    /// The exact solution for sound speed `c`.
    pub fn exact(&self, c: f64) -> Riemann {
        Riemann::solve(Side { rho: self.left as f64, u: 0.0 }, Side { rho: self.right as f64, u: 0.0 }, c)
    }
}

/// Cells beyond the exact shock that a captured shock with exchange `nu_x` (cells^2/step, the
/// effective coefficient along the channel) may move by more than [`AHEAD_TOLERANCE`]: its
/// upstream foot. Linearising the steady equations with exchange `nu` ahead of a shock moving
/// at `s` into gas at rest gives perturbations `exp(-x (s - c) / nu)`: decay length
/// `l = nu / (s - c)`; the foot reaches `l ln((rho_star - rho_r) / (tol rho_r))`, plus 2 cells
/// for the shock's centre. Meant for a right-moving shock into gas at rest (`s > c`); for any
/// other problem the result is meaningless (negative or NaN).
pub fn foot_allowance(exact: &Riemann, nu_x: f64) -> f64 {
    let l = nu_x / (exact.right_front() - exact.c);
    let jump = (exact.star.rho - exact.right.rho) / (AHEAD_TOLERANCE as f64 * exact.right.rho);
    l * jump.ln() + 2.0
}

/// The effective exchange along x (cells^2/step) of gas at rest with `params`: the sum over the
/// faces of `L nu / h (dx)^2`, `nu` from [`cpu::exchange`].
pub fn exchange_along_x(params: &GasParams) -> f64 {
    let rest = (1.0, 0.0, 0.0);
    (0..lattice::face_count(params.neighbours))
        .map(|k| {
            let (dx, _) = lattice::FORWARD[k];
            let h = lattice::face_distance(k);
            let nu = cpu::exchange(rest, rest, lattice::unit(k), h, params);
            (lattice::face_length(params.neighbours, k) * nu / h) as f64 * (dx * dx) as f64
        })
        .sum()
}

/// A cell "moves" when its density changes by more than this share of the right state's.
pub const AHEAD_TOLERANCE: f32 = 1e-3;

/// Result of [`shock_tube`]: the measured profile and how it compares with the exact solution.
#[derive(Clone, Debug)]
pub struct ShockTubeRun {
    /// The tube.
    pub tube: ShockTube,
    /// Steps run.
    pub steps: u32,
    /// The exact solution.
    pub exact: Riemann,
    /// Density along the channel (mean over its rows), per column.
    pub density: Vec<f32>,
    /// Velocity `m_x / rho` along the channel (mean over its rows), per column.
    pub velocity: Vec<f32>,
    /// Distance (cells) beyond the exact right front of the furthest cell whose density moved
    /// by more than [`AHEAD_TOLERANCE`] of the right state's (negative: short of the front).
    pub ahead: f64,
    /// `(max - min) / rho_star` of the density over the middle half of the exact plateau
    /// (between the rarefaction's tail and the shock): its flatness, oscillations included.
    pub plateau_spread: f64,
    /// `mean / rho_star - 1` over the same cells: how far the plateau's level is from exact.
    pub plateau_level: f64,
    /// `max / rho_star - 1` from the middle of the plateau through the shock: the overshoot of
    /// an oscillation at the shock (0 for a monotone profile).
    pub overshoot: f64,
    /// The largest speed any cell reached (cells/step).
    pub max_speed: f32,
    /// The largest speed at the end (cells/step): without [`ShockTubeRun::max_speed`]'s
    /// start-up, where the sharp jump first breaks into the two waves.
    pub end_speed: f32,
    /// Largest difference between the rows of a column, relative to its density (the channel
    /// flow should stay one-dimensional).
    pub across: f64,
}

/// Runs the shock tube for `steps` steps with `params` (undamped, see [`undamped`]) and
/// measures it against the exact solution. The plateau is measured over the middle half of its
/// exact extent: the rarefaction's corner is smoothed over `~3 sqrt(2 nu t)` cells by the
/// exchange `nu`, which is diffusion, not oscillation.
pub fn shock_tube(tube: ShockTube, params: &GasParams, steps: u32) -> ShockTubeRun {
    shock_tube_with(tube, params, cpu::LIMITER, steps)
}

/// [`shock_tube`] with `limiter` for the linear reconstruction.
pub fn shock_tube_with(tube: ShockTube, params: &GasParams, limiter: cpu::Limiter, steps: u32) -> ShockTubeRun {
    let p = undamped(*params);
    let c = p.sound_speed() as f64;
    let exact = tube.exact(c);
    let mut s = tube.state();
    let mut fastest = 0.0f32;
    run_with(&mut s, &p, limiter, steps, |_, s| fastest = fastest.max(s.stats().max_speed));
    let end_speed = s.stats().max_speed;
    let (h, w) = s.density.shape();
    let mut density = vec![0.0f32; w];
    let mut velocity = vec![0.0f32; w];
    let mut across = 0.0f64;
    for c in 0..w {
        let column: Vec<f32> = (0..h).map(|r| s.density[(r, c)]).collect();
        let lo = column.iter().copied().fold(f32::INFINITY, f32::min);
        let hi = column.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        density[c] = column.iter().sum::<f32>() / h as f32;
        velocity[c] =
            (0..h).map(|r| s.momentum_x[(r, c)] / s.density[(r, c)].max(cpu::RHO_EPSILON)).sum::<f32>() / h as f32;
        across = across.max(((hi - lo) / density[c]) as f64);
    }
    let t = steps as f64;
    let m = tube.membrane as f64;
    let front = m + exact.right_front() * t;
    let moved = (0..w).rev().find(|&c| ((density[c] - tube.right) / tube.right).abs() > AHEAD_TOLERANCE);
    let ahead = moved.map_or(f64::NEG_INFINITY, |c| c as f64 + 0.5 - front);
    let (lo, hi) = exact.star_edges();
    let (x0, x1) = (m + lo * t, m + hi * t);
    let quarter = 0.25 * (x1 - x0);
    let plateau: Vec<f64> = (0..w)
        .filter(|&c| (x0 + quarter..x1 - quarter).contains(&(c as f64 + 0.5)))
        .map(|c| density[c] as f64)
        .collect();
    let rho_star = exact.star.rho;
    let (min, max) = plateau.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
    let plateau_spread = (max - min) / rho_star;
    let plateau_level = plateau.iter().sum::<f64>() / plateau.len() as f64 / rho_star - 1.0;
    let peak = (0..w)
        .filter(|&c| (x0 + 2.0 * quarter..=front + 5.0).contains(&(c as f64 + 0.5)))
        .map(|c| density[c] as f64)
        .fold(f64::NEG_INFINITY, f64::max);
    let overshoot = (peak / rho_star - 1.0).max(0.0);
    ShockTubeRun {
        tube,
        steps,
        exact,
        density,
        velocity,
        ahead,
        plateau_spread,
        plateau_level,
        overshoot,
        max_speed: fastest,
        end_speed,
        across,
    }
}

/// Result of [`preset_run`].
#[derive(Clone, Copy, Debug)]
pub struct PresetRun {
    /// The largest speed any open cell reached (cells/step).
    pub max_speed: f32,
    /// Whether every value stayed finite.
    pub finite: bool,
    /// The smallest density of an open cell at any step.
    pub min_density: f32,
}

/// Runs the scene preset `name` (`explosion`, `wind`) at `(w, h)` for `steps` steps with
/// `params` as given (damping and drain included), tracking the largest speed.
///
/// # Panics
/// When `name` is not a preset.
pub fn preset_run(name: &str, size: (usize, usize), params: &GasParams, steps: u32) -> PresetRun {
    preset_run_with(name, size, params, cpu::LIMITER, steps)
}

/// [`preset_run`] with `limiter` for the linear reconstruction.
///
/// # Panics
/// When `name` is not a preset.
pub fn preset_run_with(
    name: &str,
    (w, h): (usize, usize),
    params: &GasParams,
    limiter: cpu::Limiter,
    steps: u32,
) -> PresetRun {
    let scene = crate::scene::Scene::preset(name, w, h, 0).expect("a gas preset");
    let mut s = GasState::from_scene(&scene);
    let mut out = PresetRun { max_speed: 0.0, finite: true, min_density: f32::INFINITY };
    run_with(&mut s, params, limiter, steps, |_, s| {
        let st = s.stats();
        out.max_speed = out.max_speed.max(st.max_speed);
        out.finite &= st.non_finite == 0;
        out.min_density = out.min_density.min(st.min_density);
    });
    out
}
