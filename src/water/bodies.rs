//! Bodies in the water: boxes and discs that the water holds up, pushes and drags, and that push
//! the water out of their way. The CPU mirrors of the water's body passes (named beside each
//! function), which [`super::CpuWater`] runs and `tests/water_bodies.rs` holds
//! [`super::GpuWater`] to.
//!
//! Each step, before the automaton's own:
//! 1. every body moves by one step of its velocity ([`crate::body::Body::advance`], `dt` = 1
//!    step: velocities are in cells/step);
//! 2. the cells the bodies cover are rasterised anew ([`rasterise`]: a cell that is not a wall is
//!    covered by the first body holding its centre, `2 + i`, as in smoke and gas), and **the water
//!    of a cell a body newly covers is pushed out** ([`displace`]): in equal shares to its four
//!    neighbours that are open now, so the automaton's mass is conserved up to rounding. A cell
//!    with no open neighbour (a pocket the bodies and walls close) keeps its water under the body,
//!    where no flow reaches it and it still counts, until the body leaves the cell;
//! 3. the automaton steps with the bodies' cells as ground ([`super::cpu::compression_step`]);
//! 4. **each body's force and torque** is the water's pressure on it ([`forces`]), and a
//!    free body's velocity changes under it, its weight and the water's drag
//!    ([`crate::body::dynamics::advance`] with [`Coupling::Hydrostatic`]).
//!
//! **The water's force** is Archimedes' in a hydrostatic pressure ([`forces`]). The automaton
//! holds its water up by compression (`max_compress` more mass a cell for each full cell above
//! it), but that is a poor gauge of pressure: a hundredth of a cell's mass is half a cell of
//! depth, and the water a sinking body pushes under itself stays compressed there for hundreds of
//! steps (measured: a box of density ratio 0.5 read that way floated with a third of it under
//! water, not half). So the pressure is read from where the water's free surface is, as a
//! hydrostatic pressure `g (y - l(x))` under a surface `l(x)` that runs straight between the
//! levels in the open columns on either side of the body ([`level`]): its force on the body is
//! `-g` times the submerged area's integral of its gradient, `F = g S (l', -1)` (`S` the area of
//! the body under the surface, `l'` the surface's slope: water higher on one side pushes the
//! body to the other), applied at the submerged area's centroid, the centre of buoyancy, which
//! rights a floating box. The water's density is 1 a cell and `g` is
//! [`WaterParams::gravity`] (cells per step^2, down), which acts on bodies only: the
//! automaton's water falls by its own rules. A body of density ratio `s` floats with the
//! fraction `s` of it under the surface.

use super::WaterParams;
use crate::body::dynamics::{Coupling, Dynamics};
use crate::body::forces::Force;
use crate::body::{Body, WALL};
use crate::error::Error;
use crate::grid::Grid;

/// The fastest a point of a body in the water may move, cells/step: half the automaton's
/// fastest flow (one cell a step), so that each cell a body newly covers lies on its leading
/// edge, beside the open cells its water is pushed into.
pub const MAX_BODY_STEP: f32 = 0.5;

/// The water's drag coefficient `C_d` on a body ([`Coupling::Hydrostatic`]): about 1 for bluff
/// bodies (Hoerner, "Fluid-Dynamic Drag" (1965), ch. 3: a cylinder across the flow 1.2, a cube
/// 1.05).
pub const DRAG_COEFFICIENT: f32 = 1.0;

/// The fraction of critical damping `zeta` of a floating body's bobbing and rocking
/// ([`Coupling::Hydrostatic`]): what the waves a heaving body makes carry away, which the
/// automaton's water does not. At 0.2 a floating box stops bobbing within a few periods.
pub const DAMPING_RATIO: f32 = 0.2;

/// Refuses bodies the water cannot move: more than a model holds, or a driven one whose fastest
/// point moves faster than [`MAX_BODY_STEP`].
///
/// # Errors
/// [`Error::Message`] saying how many a model holds, or which body is too fast, how fast, and the
/// limit.
pub fn check(bodies: &[Body]) -> Result<(), Error> {
    crate::body::check_count(bodies.len()).map_err(Error::Message)?;
    for (i, b) in bodies.iter().enumerate() {
        let v = b.fastest();
        if v.is_nan() || (!b.is_free() && v > MAX_BODY_STEP) {
            return Err(Error::Message(format!(
                "body {i} moves at {v:.3} cells/step at its fastest point (|v| + |spin| x its reach): bodies in water \
                 move at most {MAX_BODY_STEP} cells/step, half the water's fastest flow; slow it down"
            )));
        }
    }
    Ok(())
}

/// Refuses bodies in fixed-point water ([`super::fixed`]): their displacement shares water in
/// floats, which would break its exact, adapter-independent masses.
///
/// # Errors
/// [`Error::Message`] when there are bodies and `p` is fixed-point.
pub fn check_arithmetic(bodies: &[Body], p: &WaterParams) -> Result<(), Error> {
    if !bodies.is_empty() && p.arithmetic == super::Arithmetic::Fixed {
        return Err(Error::Message(
            "fixed-point water takes no bodies yet (their displacement shares water in floats): set arithmetic to float for bodies"
                .into(),
        ));
    }
    Ok(())
}

/// Pass `water/bodies.wgsl`'s coverage: `walls` (non-zero = wall) with each cell that is not a
/// wall and whose centre the first of `bodies` holds marked `2 + i` (the other cells 0).
pub fn rasterise(walls: &Grid<u8>, bodies: &[Body]) -> Grid<u8> {
    let mut mask = walls.map(|&v| if v != 0 { WALL } else { 0 });
    crate::body::rasterise(&mut mask, bodies);
    mask
}

/// The four neighbours a cell's water is pushed into, in the order their shares are added: the
/// automaton's order of outflows.
pub use super::cpu::NEIGHBOURS;

/// Pass `water/bodies.wgsl`'s displacement: the water of each cell `now` covers with a body and
/// `before` did not hold one (a body cell or a wall) goes, in equal shares, to its
/// [`NEIGHBOURS`] that are open in `now` (inside the grid, neither wall nor body); one with no
/// open neighbour keeps it. Every share comes from `mass` as it was (a gather: each open cell
/// adds its neighbours' shares in [`NEIGHBOURS`]' order).
pub fn displace(mass: &mut Grid<f32>, before: &Grid<u8>, now: &Grid<u8>) {
    let (h, w) = mass.shape();
    let open = |r: isize, c: isize| now.get(r, c).is_some_and(|&v| v == 0);
    let receivers = |r: isize, c: isize| NEIGHBOURS.iter().filter(|(dr, dc)| open(r + dr, c + dc)).count();
    // Newly covered with somewhere to go.
    let gives = |r: isize, c: isize| {
        now.get(r, c).is_some_and(|&v| crate::body::is_body(v))
            && before.get(r, c).is_some_and(|&v| v == 0)
            && receivers(r, c) > 0
    };
    let old = mass.clone();
    for r in 0..h as isize {
        for c in 0..w as isize {
            let at = (r as usize, c as usize);
            if gives(r, c) {
                mass[at] = 0.0;
            } else if open(r, c) {
                let mut m = old[at];
                for (dr, dc) in NEIGHBOURS {
                    let (nr, nc) = (r + dr, c + dc);
                    if gives(nr, nc) {
                        m += old[(nr as usize, nc as usize)] / receivers(nr, nc) as f32;
                    }
                }
                mass[at] = m;
            }
        }
    }
}

/// How far outside a body's columns [`level`] looks for open water: 4 columns.
pub const LEVEL_REACH: isize = 4;

/// The water's free surface `y` (cells from the top, down) in column `c`, seen from row `below`
/// up: from the first open cell at or above `below` (past a floor of walls or bodies), scanning
/// up while the cells are open and full (`>= max_mass`), the first cell that is not full is
/// filled from its bottom to its mass (`level = r + 1 - m / max_mass`), and a wall or body cell
/// above full water caps it (`r + 1`). `None` when `c` is outside the grid or has no open cell
/// at or above `below`.
pub fn column_level(mass: &Grid<f32>, mask: &Grid<u8>, c: isize, below: isize, p: &WaterParams) -> Option<f32> {
    let (h, w) = mass.shape();
    if c < 0 || c >= w as isize {
        return None;
    }
    let mut start = below.min(h as isize - 1);
    while start >= 0 && mask[(start as usize, c as usize)] != 0 {
        start -= 1;
    }
    if start < 0 {
        return None;
    }
    let mut r = start;
    while r >= 0 && mask[(r as usize, c as usize)] == 0 {
        let m = mass[(r as usize, c as usize)];
        if m < p.max_mass {
            return Some(r as f32 + 1.0 - m / p.max_mass);
        }
        r -= 1;
    }
    Some(r as f32 + 1.0)
}

/// The water's level beside `body`, `((x_left, level_left), (x_right, level_right))` (cells;
/// a level is a `y`, down): [`column_level`] from the row below the body's lowest point, in the
/// first column to its left (and to its right) that is clear of its reach and open there, at
/// most [`LEVEL_REACH`] columns out. A side with none takes the other's level; `None` when
/// neither has one.
pub fn level(mass: &Grid<f32>, mask: &Grid<u8>, body: &Body, p: &WaterParams) -> Option<((f32, f32), (f32, f32))> {
    let reach = body.reach();
    let below = (body.y + reach).floor() as isize + 1;
    let side = |first: isize, step: isize| {
        (0..LEVEL_REACH).find_map(|k| {
            let c = first + step * k;
            column_level(mass, mask, c, below, p).map(|l| (c as f32 + 0.5, l))
        })
    };
    let left = side((body.x - reach).floor() as isize - 1, -1);
    let right = side((body.x + reach).floor() as isize + 1, 1);
    match (left, right) {
        (Some(l), Some(r)) => Some((l, r)),
        (Some(l), None) => Some((l, (l.0 + 1.0, l.1))),
        (None, Some(r)) => Some(((r.0 - 1.0, r.1), r)),
        (None, None) => None,
    }
}

/// Pass `water/body_forces.wgsl`: each body's force and torque (about its centre) from the water
/// around it, Archimedes' in a hydrostatic pressure `p = g (y - l(x))` under a surface `l` that
/// runs straight between the levels beside the body ([`level`]): `F = g S (l', -1)` with `S` the
/// area of the body's cells under the surface (each cell `(r, c)` of it counting the fraction
/// `clamp(r + 1 - l(c + 1/2), 0, 1)`), `l'` the surface's slope, and the torque of `F` applied at
/// the centroid of that area (the centre of buoyancy). `g` is [`WaterParams::gravity`].
pub fn forces(mass: &Grid<f32>, mask: &Grid<u8>, bodies: &[Body], p: &WaterParams) -> Vec<Force> {
    let (h, w) = mass.shape();
    bodies
        .iter()
        .enumerate()
        .map(|(i, body)| {
            let Some(((xl, ll), (xr, lr))) = level(mass, mask, body, p) else { return Force::default() };
            let slope = (lr - ll) / (xr - xl);
            let reach = body.reach();
            let rows = (body.y - reach).floor().max(0.0) as usize..((body.y + reach).ceil() as usize + 1).min(h);
            let cols = (body.x - reach).floor().max(0.0) as usize..((body.x + reach).ceil() as usize + 1).min(w);
            let (mut area, mut mx, mut my) = (0.0f32, 0.0f32, 0.0f32);
            for r in rows {
                for c in cols.clone() {
                    if crate::body::body_index(mask[(r, c)]) != Some(i) {
                        continue;
                    }
                    let x = c as f32 + 0.5;
                    let under = (r as f32 + 1.0 - (ll + slope * (x - xl))).clamp(0.0, 1.0);
                    area += under;
                    mx += under * x;
                    my += under * (r as f32 + 0.5);
                }
            }
            let (fx, fy) = (p.gravity * area * slope, -p.gravity * area);
            let torque = match area > 0.0 {
                true => (mx / area - body.x) * fy - (my / area - body.y) * fx,
                false => 0.0,
            };
            Force { fx, fy, torque }
        })
        .collect()
}

/// What the free bodies' pass needs of `p` on a `(W, H)` grid: a step of 1, `p`'s gravity, the
/// bodies' bound on a step ([`MAX_BODY_STEP`]), the grid's edges, the hydrostatic coupling with
/// [`DRAG_COEFFICIENT`].
pub fn dynamics(p: &WaterParams, (w, h): (usize, usize)) -> Dynamics {
    Dynamics {
        dt: 1.0,
        gravity: p.gravity,
        max_step: MAX_BODY_STEP,
        size: (w as f32, h as f32),
        coupling: Coupling::Hydrostatic { drag_coefficient: DRAG_COEFFICIENT, damping_ratio: DAMPING_RATIO },
        turning_layer: crate::body::dynamics::TURNING_LAYER,
    }
}

/// The bodies placed where they are, without moving (a model made with bodies, or given new
/// ones): the water of the cells they cover pushed out ([`displace`], from the walls alone).
/// Returns the mask of walls and bodies.
pub fn place(mass: &mut Grid<f32>, walls: &Grid<u8>, bodies: &[Body]) -> Grid<u8> {
    let now = rasterise(walls, bodies);
    displace(mass, &rasterise(walls, &[]), &now);
    now
}

/// One step of water with bodies (module docs): the bodies move, push the water out of the cells
/// they newly cover, the automaton steps around them, and the free ones answer the water's
/// pressure, then take their contacts with the walls and each other
/// ([`crate::body::contact::resolve`]). Returns the forces on the bodies over the step. Without
/// bodies, the automaton's step alone.
pub fn step(mass: &mut Grid<f32>, walls: &Grid<u8>, bodies: &mut [Body], p: &WaterParams) -> Vec<Force> {
    if bodies.is_empty() {
        super::cpu::compression_step(mass, walls, p);
        return Vec::new();
    }
    let before = rasterise(walls, bodies);
    for b in bodies.iter_mut() {
        b.advance(1.0);
    }
    let now = rasterise(walls, bodies);
    displace(mass, &before, &now);
    super::cpu::compression_step(mass, &now, p);
    let forces = forces(mass, &now, bodies, p);
    let d = dynamics(p, (mass.width(), mass.height()));
    for (b, &f) in bodies.iter_mut().zip(&forces) {
        crate::body::dynamics::advance(b, f, &d);
    }
    crate::body::contact::resolve(bodies, walls, &d);
    forces
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::Shape;

    #[test]
    fn a_box_in_still_water_feels_the_weight_of_the_water_it_displaces() {
        // A 4 x 2 box (rows 7 and 8) in water whose surface is at y = 7.25: 1.75 cells of each
        // of its 4 columns under it, so up, g times 7, at the centroid of the submerged part
        // (straight below the centre: no torque).
        let p = WaterParams { gravity: 0.05, ..WaterParams::default() };
        let (w, h) = (12, 12);
        let walls = Grid::filled(w, h, 0u8);
        let mut mass = Grid::from_fn(w, h, |r, _| {
            if r >= 8 {
                1.0
            } else if r == 7 {
                0.75
            } else {
                0.0
            }
        });
        let body = Body::new(Shape::Box { half_width: 2.0, half_height: 1.0 }, 6.0, 8.0);
        let mask = place(&mut mass, &walls, &[body]);
        // Read clear of the cells the water was pushed into.
        assert_eq!(level(&mass, &mask, &body, &p), Some(((2.5, 7.25), (9.5, 7.25))));
        let f = forces(&mass, &mask, &[body], &p)[0];
        assert!((f.fy + 0.05 * 7.0).abs() < 1e-5 && f.fx == 0.0 && f.torque.abs() < 1e-5, "{f:?}");
    }

    #[test]
    fn water_higher_on_one_side_pushes_a_body_towards_the_other() {
        let p = WaterParams { gravity: 0.05, ..WaterParams::default() };
        let (w, h) = (16, 12);
        let walls = Grid::filled(w, h, 0u8);
        // Level at y = 4 on the left, y = 8 on the right.
        let mut mass = Grid::from_fn(w, h, |r, c| if (c < 8 && r >= 4) || r >= 8 { 1.0 } else { 0.0 });
        let body = Body::new(Shape::Box { half_width: 2.0, half_height: 2.0 }, 8.0, 9.0);
        let mask = place(&mut mass, &walls, &[body]);
        let f = forces(&mass, &mask, &[body], &p)[0];
        assert!(f.fx > 0.0 && f.fy < 0.0, "{f:?}");
    }

    #[test]
    fn displacement_moves_water_and_keeps_it() {
        let (w, h) = (9, 9);
        let walls = Grid::filled(w, h, 0u8);
        let mut mass = Grid::filled(w, h, 1.0f32);
        let body = Body::new(Shape::Box { half_width: 1.5, half_height: 1.5 }, 4.5, 4.5);
        let mask = place(&mut mass, &walls, &[body]);
        let total: f32 = mass.as_slice().iter().sum();
        assert_eq!(total, 81.0);
        // The ring of eight cells gave theirs away; the centre, walled in by the body, kept its.
        assert_eq!(mass[(4, 4)], 1.0);
        assert_eq!(mass[(3, 3)], 0.0);
        assert!(crate::body::is_body(mask[(4, 4)]));
        // Beside the middle of a side: one cell's whole share; at a corner's sides, a half's.
        assert_eq!(mass[(2, 4)], 2.0);
        assert_eq!(mass[(2, 3)], 1.5);
    }
}
