//! CPU reference of the water model: a literal port of Elsts' sequential push loop.
//!
//! Source: J. Elsts, "Simple Fluid Simulation With Cellular Automata" (w-shadow.com, 2009),
//! Processing sketch `water_sim`, functions `simulate_compression()` and
//! `get_stable_state_b()`. Read beside `shaders/water/rules.wgsl` (`outflows` is the body of the
//! loop, [`outflows`] here too; `walk` the `new_mass` updates, gathered).
//!
//! Differences from the original, all of layout only: the grid is `(H, W)` with row 0 at the top,
//! so "below" is `row + 1` (the original's `y - 1`); the original's border ring of air (whose
//! mass it zeroes each step) is [`Boundary::Open`], and a solid border is [`Boundary::Wall`].

use super::{Boundary, Brush, WaterParams, WaterState};
use crate::grid::Grid;

/// How much of `total_mass` the lower of two stacked cells holds at rest (Elsts,
/// `get_stable_state_b`): a full cell holds `max_mass`, plus `max_compress` for each full cell
/// of water above it.
pub fn get_stable_state_b(total_mass: f32, p: &WaterParams) -> f32 {
    if total_mass <= p.max_mass {
        p.max_mass
    } else if total_mass < 2.0 * p.max_mass + p.max_compress {
        (p.max_mass * p.max_mass + total_mass * p.max_compress) / (p.max_mass + p.max_compress)
    } else {
        (total_mass + p.max_compress) / 2.0
    }
}

/// Processing's `constrain(v, lo, hi)`.
fn constrain(v: f32, lo: f32, hi: f32) -> f32 {
    v.max(lo).min(hi)
}

/// One step of the water automaton, in place: Elsts' `simulate_compression()`.
///
/// `state.mass` is `(H, W)` in units of a full cell (1.0 = `max_mass`); `state.solid` is
/// `(H, W)`, non-zero = ground. Every flow is computed from the previous step's masses (`mass`)
/// and accumulated into `new_mass`, so the flows do not depend on the loop order; the rounding
/// of the sums does, and `shaders/water/rules.wgsl` adds them in this loop's order to match it
/// to the bit.
pub fn simulate_compression(state: &mut WaterState, p: &WaterParams) {
    compression_step(&mut state.mass, &state.solid, p);
}

/// [`simulate_compression`] of `mass` with the cells non-zero in `blocks` `(H, W)` as ground
/// (the walls, and with bodies the cells they cover: [`super::bodies`]). A ground cell's mass is
/// kept as it is: no flow reaches it. Fixed-point water takes [`super::fixed::compression_step`].
pub fn compression_step(field: &mut Grid<f32>, blocks: &Grid<u8>, p: &WaterParams) {
    if p.arithmetic == super::Arithmetic::Fixed {
        return super::fixed::compression_step(field, blocks, p);
    }
    *field = push_loop(field, |y, x| outflows(field, blocks, p, y, x));
}

/// Elsts' push loop over a grid of `mass` (full cells, or fixed point's units): each cell, row by
/// row from the top left, gives its `outflows` ([`NEIGHBOURS`] order) to its neighbours, each
/// taken from its own and added to the neighbour's in the loop's order; what leaves the grid is
/// lost (open boundary). Returns the new masses.
pub(super) fn push_loop<T>(mass: &Grid<T>, outflows: impl Fn(isize, isize) -> [Option<T>; 4]) -> Grid<T>
where
    T: Copy + std::ops::AddAssign + std::ops::SubAssign,
{
    let (h, w) = mass.shape();
    let mut next = mass.clone();
    for y in 0..h as isize {
        for x in 0..w as isize {
            for (flow, (dy, dx)) in outflows(y, x).into_iter().zip(NEIGHBOURS) {
                let Some(flow) = flow else { continue };
                next[(y as usize, x as usize)] -= flow;
                if next.get(y + dy, x + dx).is_some() {
                    next[((y + dy) as usize, (x + dx) as usize)] += flow;
                }
            }
        }
    }
    next
}

/// Whether cell `(r, c)` is ground: non-zero in `blocks`, or outside the grid with the wall
/// boundary (outside is air of mass 0 whose water is removed with the open boundary).
pub(super) fn is_ground(blocks: &Grid<u8>, boundary: Boundary, r: isize, c: isize) -> bool {
    match blocks.get(r, c) {
        Some(&s) => s != 0,
        None => boundary == Boundary::Wall,
    }
}

/// The neighbours a cell pushes to, in the loop's order: below, left, right, above (`(dr, dc)`,
/// row 0 at the top); the bodies' displacement shares a covered cell's water in the same order.
pub const NEIGHBOURS: [(isize, isize); 4] = [(1, 0), (0, -1), (0, 1), (-1, 0)];

/// The pushes that leave cell `(y, x)` in Elsts' loop, in its order ([`NEIGHBOURS`]: down, left,
/// right, up): `Some(flow)` where the loop pushes (a flow of 0 included), `None` where it does
/// not (ground beyond, or no water left to give). Every flow reads the last step's `mass` and
/// what remains of the cell's own; [`compression_step`] pushes them, `super::tiles` gathers them.
pub fn outflows(mass: &Grid<f32>, blocks: &Grid<u8>, p: &WaterParams, y: isize, x: isize) -> [Option<f32>; 4] {
    let ground = |r: isize, c: isize| is_ground(blocks, p.boundary, r, c);
    let mass_at = |r: isize, c: isize| mass.get(r, c).copied().unwrap_or(0.0);
    // Flows above MinFlow are halved: "leads to smoother flow".
    let halve = |flow: f32| if flow > p.min_flow { flow * 0.5 } else { flow };
    let mut out = [None; 4];
    // Skip inert ground blocks
    if ground(y, x) {
        return out;
    }
    // Custom push-only flow
    let mut remaining_mass = mass_at(y, x);
    if remaining_mass <= 0.0 {
        return out;
    }
    // The block below this one
    if !ground(y + 1, x) {
        let below = mass_at(y + 1, x);
        let flow = halve(get_stable_state_b(remaining_mass + below, p) - below);
        let flow = constrain(flow, 0.0, p.max_speed.min(remaining_mass));
        out[0] = Some(flow);
        remaining_mass -= flow;
    }
    // Left, then right: equalise the amount of water in this block and its neighbour
    for (k, dx) in [(1, -1), (2, 1)] {
        if remaining_mass <= 0.0 {
            return out;
        }
        if !ground(y, x + dx) {
            let flow = halve((mass_at(y, x) - mass_at(y, x + dx)) * p.side_share);
            let flow = constrain(flow, 0.0, remaining_mass);
            out[k] = Some(flow);
            remaining_mass -= flow;
        }
    }
    if remaining_mass <= 0.0 {
        return out;
    }
    // Up. Only compressed water flows upwards.
    if !ground(y - 1, x) {
        let above = mass_at(y - 1, x);
        let flow = halve(remaining_mass - get_stable_state_b(remaining_mass + above, p));
        out[3] = Some(constrain(flow, 0.0, p.max_speed.min(remaining_mass)));
    }
    out
}

/// The brush (`shaders/water/brush.wgsl`, its rule for a cell in `brush_rule.wgsl`): inside the
/// disc, an open cell becomes `max(mass * scale + add, 0)`; every solid cell is emptied, and a
/// body's cells keep the water under the body ([`super::bodies`]).
pub fn brush(state: &mut WaterState, b: &Brush) {
    let (h, w) = state.mass.shape();
    let covered = (!state.bodies.is_empty()).then(|| super::bodies::rasterise(&state.solid, &state.bodies));
    for row in 0..h {
        for col in 0..w {
            let (dx, dy) = (col as f32 + 0.5 - b.center.0, row as f32 + 0.5 - b.center.1);
            let a_body = covered.as_ref().is_some_and(|c| crate::body::is_body(c[(row, col)]));
            let m = &mut state.mass[(row, col)];
            if state.solid[(row, col)] != 0 {
                *m = 0.0;
            } else if !a_body && dx * dx + dy * dy <= b.radius * b.radius {
                *m = (*m * b.scale + b.add).max(0.0);
            }
        }
    }
}
