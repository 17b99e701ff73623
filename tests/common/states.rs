//! Random states and field comparisons: what the desktop tests (`common`) and the browser tests
//! (`tests/web.rs`, compiled to wasm32) share. No files, no device.
#![allow(dead_code)]

use eddy_fluid::Grid;
use eddy_fluid::water::WaterState;

/// A random water state: solid with probability `p_solid`, otherwise mass uniform in 0..1.5,
/// or exactly 0 a quarter of the time (dry cells matter for the `m <= 0` branches).
pub fn random_water(width: usize, height: usize, seed: u64, p_solid: f32) -> WaterState {
    let mut rng = fastrand::Rng::with_seed(seed);
    let solid = Grid::from_fn(width, height, |_, _| (rng.f32() < p_solid) as u8);
    let mass =
        Grid::from_fn(width, height, |r, c| if solid[(r, c)] != 0 || rng.f32() < 0.25 { 0.0 } else { rng.f32() * 1.5 });
    WaterState { mass, solid, bodies: Vec::new() }
}

/// The first cell, `(row, col)`, whose bits differ between `a` and `b` (`None`: the same to the
/// bit).
pub fn first_difference(a: &Grid<f32>, b: &Grid<f32>) -> Option<(usize, usize)> {
    let i = a.as_slice().iter().zip(b.as_slice()).position(|(x, y)| x.to_bits() != y.to_bits())?;
    Some((i / a.width(), i % a.width()))
}

/// Largest absolute difference and where (row, col).
pub fn max_abs_diff(a: &Grid<f32>, b: &Grid<f32>) -> (f32, (usize, usize)) {
    assert_eq!(a.shape(), b.shape());
    let w = a.width();
    let (i, d) = a
        .as_slice()
        .iter()
        .zip(b.as_slice())
        .map(|(x, y)| (x - y).abs())
        .enumerate()
        .fold((0, 0.0f32), |best, (i, d)| if d > best.1 || d.is_nan() { (i, d) } else { best });
    (d, (i / w, i % w))
}

/// A random gas state: walls with probability `p_wall`, sources with 0.03, density uniform in
/// 0.2..3 elsewhere, velocity components uniform in -0.6..0.6 (some above the speed cap).
pub fn random_gas(width: usize, height: usize, seed: u64, p_wall: f32) -> eddy_fluid::gas::GasState {
    let mut rng = fastrand::Rng::with_seed(seed);
    let solid = Grid::from_fn(width, height, |_, _| (rng.f32() < p_wall) as u8);
    let source = Grid::from_fn(width, height, |r, c| (solid[(r, c)] == 0 && rng.f32() < 0.03) as u8);
    let density = Grid::from_fn(width, height, |r, c| if solid[(r, c)] != 0 { 0.0 } else { 0.2 + 2.8 * rng.f32() });
    let mut momentum = |_| Grid::from_fn(width, height, |r, c| density[(r, c)] * (rng.f32() - 0.5) * 1.2);
    let (momentum_x, momentum_y) = (momentum(0), momentum(1));
    eddy_fluid::gas::GasState { density, momentum_x, momentum_y, solid, source, bodies: Vec::new() }
}

/// Two bodies moving through a 64 x 48 gas, within its 0.25 cells/step: a disc on a
/// diagonal and a box drifting left as it turns.
pub fn moving_gas_bodies() -> Vec<eddy_fluid::body::Body> {
    use eddy_fluid::body::{Body, Shape};
    vec![
        Body { vx: 0.2, vy: 0.12, ..Body::new(Shape::Circle { radius: 6.5 }, 20.0, 15.0) },
        Body { vx: -0.1, spin: 0.015, ..Body::new(Shape::Box { half_width: 7.0, half_height: 2.5 }, 45.0, 32.0) },
    ]
}

/// A random smoke state: solid with probability `p_solid`, sources with 0.05; velocity
/// components uniform in -8..8 cells per time unit (back-traces of up to one cell at the default
/// dt), temperature 0..10, density and each dye channel 0..1, pressure and divergence -1..1; 0
/// in solids.
pub fn random_smoke(width: usize, height: usize, seed: u64, p_solid: f32) -> eddy_fluid::smoke::SmokeState {
    let mut rng = fastrand::Rng::with_seed(seed);
    let solid = Grid::from_fn(width, height, |_, _| (rng.f32() < p_solid) as u8);
    let source = Grid::from_fn(width, height, |r, c| (solid[(r, c)] == 0 && rng.f32() < 0.05) as u8);
    let mut field = |lo: f32, hi: f32| {
        Grid::from_fn(width, height, |r, c| if solid[(r, c)] != 0 { 0.0 } else { lo + (hi - lo) * rng.f32() })
    };
    eddy_fluid::smoke::SmokeState {
        velocity_x: field(-8.0, 8.0),
        velocity_y: field(-8.0, 8.0),
        temperature: field(0.0, 10.0),
        density: field(0.0, 1.0),
        pressure: field(-1.0, 1.0),
        divergence: field(-1.0, 1.0),
        dye: [field(0.0, 1.0), field(0.0, 1.0), field(0.0, 1.0)],
        bodies: Vec::new(),
        solid,
        source,
        v_cycle_plan: None,
    }
}

/// [`random_smoke`] with its velocity on the staggered grid's faces: each open face uniform in
/// -8..8 cells per time unit, closed faces 0, and the faces on the grid's edge 0 (as a box with
/// wall edges holds them: a run with other edges sets them when it starts).
pub fn random_smoke_staggered(width: usize, height: usize, seed: u64, p_solid: f32) -> eddy_fluid::smoke::SmokeState {
    let mut s = random_smoke(width, height, seed, p_solid);
    let mut rng = fastrand::Rng::with_seed(seed ^ 0x5eed);
    s.velocity_x = Grid::from_fn(width + 1, height, |_, _| -8.0 + 16.0 * rng.f32());
    s.velocity_y = Grid::from_fn(width, height + 1, |_, _| -8.0 + 16.0 * rng.f32());
    let mut s = s.validated(std::path::Path::new("random")).expect("a valid random state");
    eddy_fluid::smoke::staggered::hold_edges(&mut s, &eddy_fluid::smoke::SmokeParams::default());
    s
}

/// `pressure` less its mean over each connected region of open cells (4-neighbour, `solid` 0):
/// the pressure of a closed region is defined up to a constant (pure Neumann walls), and
/// multigrid's coarse corrections move that constant by rounding-sized amounts that differ
/// between backends. Comparing pinned pressures compares what the velocity sees.
pub fn pin_pressure(pressure: &Grid<f32>, solid: &Grid<u8>) -> Grid<f32> {
    let (h, w) = solid.shape();
    let mut region = vec![usize::MAX; h * w];
    let mut means = Vec::new();
    for start in 0..h * w {
        if solid.as_slice()[start] != 0 || region[start] != usize::MAX {
            continue;
        }
        let id = means.len();
        let (mut stack, mut cells) = (vec![start], Vec::new());
        region[start] = id;
        while let Some(i) = stack.pop() {
            cells.push(i);
            let (r, c) = (i / w, i % w);
            let near = [(r > 0, i.wrapping_sub(w)), (r + 1 < h, i + w), (c > 0, i.wrapping_sub(1)), (c + 1 < w, i + 1)];
            for (ok, j) in near {
                if ok && solid.as_slice()[j] == 0 && region[j] == usize::MAX {
                    region[j] = id;
                    stack.push(j);
                }
            }
        }
        let sum: f64 = cells.iter().map(|&i| pressure.as_slice()[i] as f64).sum();
        means.push((sum / cells.len() as f64) as f32);
    }
    Grid::from_fn(w, h, |r, c| {
        let i = r * w + c;
        if region[i] == usize::MAX { pressure[(r, c)] } else { pressure[(r, c)] - means[region[i]] }
    })
}
