//! CPU reference of the gas model: one function per compute pass, read beside
//! `shaders/gas/{predict,faces,limit,apply}.wgsl`.
//!
//! Source: the "two cells of unit area" description of a cellular fluid with momentum,
//! dtosoftware, "Fluid dynamics part 2" (2012, dtosoftware.wordpress.com). Units are cells and steps: density per cell, momentum = density x
//! cells/step. Vectors are `(x, y)` with x towards increasing column (right) and y towards
//! increasing row (down).
//!
//! Each cell owns the faces to its forward neighbours ([`FORWARD`]: east, south, and with
//! 8-way flow south-east and south-west); the other four faces of a cell are owned by its
//! backward neighbours. A step is three passes over the old state:
//! 1. [`faces`]: every owned face's mass flow `F` and momentum flow `P`, from cell `a` (owner)
//!    to cell `b` (neighbour), per unit length times the face's length `L` ([`face_length`]):
//!    `F = m_f . d + nu (rho_a - rho_b) / h`, `P = (m_f . d) m_f / rho_f + c^2 rho_f d +
//!    nu (m_a - m_b) / h + friction ((m_a - m_b) . perp) perp / h`, with `rho_f`, `m_f` the
//!    means of the two cells (face-midpoint values), `d` the face's unit normal, `h` the
//!    distance between the cells and `nu` the exchange ([`exchange`]: `D`, or Rusanov's). The
//!    pressure `c^2 rho_f` is eddy's extension (`pressure = 0` is the source's model).
//! 2. [`limit`]: a cell that would send out more mass than it holds gets a factor `< 1` that
//!    scales every face it is the source of, so no density goes negative.
//! 3. [`apply`]: the source of each face loses what the destination gains (mass and momentum
//!    conserved up to rounding); then the flux to the mirror image beyond each wall
//!    ([`ghost`]), the source's reflection of momentum into walls, damping, drain, sources.
//!
//! With [`Reconstruction::Linear`] (the default) a pass 0, [`predict`], reconstructs each cell's
//! limited slopes and advances it half a step (MUSCL-Hancock), and pass 1 is [`faces_predicted`]
//! on the face states it gives ([`step`]).

use super::lattice::{AXIS_LENGTH_8, FORWARD, direction, directions, face_count, face_distance, face_length, unit};
use super::{FluxScheme, GasParams, GasState, Neighbours, Reconstruction};
use crate::body::forces::Force;
use crate::grid::Grid;

/// Below this face density no momentum is carried (avoids dividing by ~0 in vacuum).
pub const RHO_EPSILON: f32 = 1e-6;

/// Largest speed `|m| / rho` a cell keeps after a step (cells/step): the CFL limit of this
/// explicit scheme. The mass limiter bounds what leaves a cell but not its momentum, so without
/// a cap a cell emptied of mass keeps its momentum and its velocity `m / rho` grows without
/// bound. Acts only where the flow is this fast; momentum is conserved elsewhere.
pub const MAX_SPEED: f32 = 0.5;

/// The limiter leaves this share of a cell's density unsent, so rounding cannot make it
/// negative.
pub const LIMIT_SAFETY: f32 = 0.999_99;

/// Flows across one face, from its owner to its neighbour: mass `f`, momentum `p = (x, y)`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Flux {
    /// Mass flow (density units per step), positive from owner to neighbour.
    pub f: f32,
    /// Momentum flow, owner to neighbour.
    pub p: (f32, f32),
}

/// The faces of every cell, `(H, W)` of `[Flux; 4]` in [`FORWARD`] order.
pub type Faces = Grid<[Flux; 4]>;

/// Velocity along `d` of a cell `(rho, mx, my)`; 0 in vacuum (`rho <=` [`RHO_EPSILON`]).
fn normal_speed(cell: (f32, f32, f32), d: (f32, f32)) -> f32 {
    let (rho, mx, my) = cell;
    if rho > RHO_EPSILON { (mx * d.0 + my * d.1).abs() / rho } else { 0.0 }
}

/// The exchange coefficient `nu` of a face (cells^2/step): `D` with the central flux; with
/// Rusanov's, the larger of `D` and `alpha h / 2`, where `alpha = max(|u_a . d|, |u_b . d|) +
/// c` is the fastest signal speed at the face (local Lax-Friedrichs; Rusanov 1961, LeVeque
/// "Finite Volume Methods for Hyperbolic Problems" 2002, eq. 12.12) and `h` the distance
/// between the two cells. eddy adds this dissipation to the flux of the face-mean state
/// `f((q_a + q_b) / 2)` (the source's face values), where LeVeque's form averages the two
/// fluxes, `(f(q_a) + f(q_b)) / 2`; both are consistent and first-order.
pub fn exchange(a: (f32, f32, f32), b: (f32, f32, f32), d: (f32, f32), h: f32, p: &GasParams) -> f32 {
    match p.flux {
        FluxScheme::Central => p.diffusion,
        FluxScheme::Rusanov => {
            let alpha = normal_speed(a, d).max(normal_speed(b, d)) + p.sound_speed();
            p.diffusion.max(0.5 * alpha * h)
        }
    }
}

/// The flux across the face from cell `a` to cell `b` (unit direction `d`, centres `h` cells
/// apart), per unit face length: the formulas of the source's "two cells of unit area", face
/// values = means of the two cells, and an exchange `nu (x_a - x_b) / h` of density and
/// momentum with `nu` from [`exchange`]. Momentum is carried by the face values' own flux
/// `(m_f . d) m_f / rho_f`; the source carried it with the whole mass flow `F` (exchange
/// included), which with eddy's momentum exchange counted the exchange twice: a blob in a
/// pressure-free flow lagged it by 2.7% and reached the speed cap (measured with
/// [`super::checks::translation`]).
pub fn face_flux(a: (f32, f32, f32), b: (f32, f32, f32), d: (f32, f32), h: f32, p: &GasParams) -> Flux {
    face_flux_between(a, b, (a, b), d, h, p)
}

/// [`face_flux`] from the states `a` and `b` at the face (the linear reconstruction's), with
/// the friction exchanging the tangential momentum of the two cells `shear = (cell_a, cell_b)`
/// themselves: friction is the model's shear viscosity, a difference of cell values across the
/// face; on the reconstructed states, whose jump can run against the cells' (a steep limiter
/// puts `a`'s face state past `b`'s), it would feed shear instead of smoothing it.
pub fn face_flux_between(
    a: (f32, f32, f32),
    b: (f32, f32, f32),
    shear: ((f32, f32, f32), (f32, f32, f32)),
    d: (f32, f32),
    h: f32,
    p: &GasParams,
) -> Flux {
    let (ra, ax, ay) = a;
    let (rb, bx, by) = b;
    let ((_, sax, say), (_, sbx, sby)) = shear;
    let rho_f = 0.5 * (ra + rb);
    let (mx, my) = (0.5 * (ax + bx), 0.5 * (ay + by));
    let perp = (-d.1, d.0);
    let nu = exchange(a, b, d, h, p) / h;
    let advected = mx * d.0 + my * d.1;
    let f = advected + nu * (ra - rb);
    let (mut along, mut across) = (0.0, 0.0);
    if rho_f > RHO_EPSILON {
        along = advected * advected / rho_f;
        across = (mx * perp.0 + my * perp.1) * advected / rho_f;
    }
    along += p.pressure * rho_f; // eddy's extension: isothermal pressure c^2 rho (0 = the source's model)
    across += p.friction / h * ((sax - sbx) * perp.0 + (say - sby) * perp.1);
    // The particles that cross by the exchange carry their cell's momentum: nu (m_a - m_b) / h.
    Flux { f, p: (along * d.0 + across * perp.0 + nu * (ax - bx), along * d.1 + across * perp.1 + nu * (ay - by)) }
}

fn open(s: &GasState, r: isize, c: isize) -> bool {
    s.solid.get(r, c).is_some_and(|&v| v == 0)
}

fn cell(s: &GasState, r: isize, c: isize) -> (f32, f32, f32) {
    let at = (r as usize, c as usize);
    (s.density[at], s.momentum_x[at], s.momentum_y[at])
}

/// The mirror image ("ghost") of the gas across a wall, seen from open cell `(r, c)` through
/// its blocked direction `(dc, dr)`, and the cell it mirrors. A flat wall is a mirror: beyond an
/// edge face the ghost is the cell itself with the normal momentum reversed; beyond a diagonal
/// face along a wall it is the open axis neighbour with the momentum across the wall reversed
/// (so a channel's wall rows flow like its middle rows). In a corner (both axis neighbours walls,
/// or both open) the ghost is the cell with its momentum reversed. The flux to a ghost carries
/// no mass across an edge or into a corner; along a wall, what leaves one cell through a ghost
/// face enters its axis neighbour through the mirrored face, bit for bit (mass stays conserved).
/// Walls are exact mirrors when they run along rows or columns; a 45-degree staircase acts as a
/// row of corners. Returns the ghost `(rho, mx, my)` and the mirrored cell as `(row, col)`.
/// Source: the reflecting boundary of finite-volume methods, LeVeque (2002) section 7.3.3.
pub fn ghost(s: &GasState, r: isize, c: isize, delta: (isize, isize)) -> ((f32, f32, f32), (usize, usize)) {
    let rule = mirror_rule(s, r, c, delta);
    (rule.image(s, (0.0, 0.0)), rule.mirrored_cell())
}

/// How the gas beyond a wall mirrors the open cells ([`ghost`]): the mirrored cell `(row, col)`,
/// the direction `(dcol, drow)` in which the mirror image of the line through the wall goes on
/// from it (so `-onward` is the direction from the mirrored cell towards the face the ghost
/// mirrors), and which momentum components the image reverses.
struct MirrorRule {
    mirror: (isize, isize),
    onward: (isize, isize),
    flip: (bool, bool),
}

impl MirrorRule {
    fn flip(&self, q: (f32, f32, f32)) -> (f32, f32, f32) {
        flipped(q, self.flip)
    }

    fn mirrored_cell(&self) -> (usize, usize) {
        (self.mirror.0 as usize, self.mirror.1 as usize)
    }

    /// The ghost: the mirrored cell's image, seen from a frame moving at `v` (a body's; 0 for a
    /// wall, [`super::bodies::wall_velocity`]).
    fn image(&self, s: &GasState, v: (f32, f32)) -> (f32, f32, f32) {
        self.flip(in_frame(cell(s, self.mirror.0, self.mirror.1), v))
    }
}

fn mirror_rule(s: &GasState, r: isize, c: isize, (dc, dr): (isize, isize)) -> MirrorRule {
    let me = (r, c);
    if dc == 0 {
        return MirrorRule { mirror: me, onward: (0, -dr), flip: (false, true) };
    }
    if dr == 0 {
        return MirrorRule { mirror: me, onward: (-dc, 0), flip: (true, false) };
    }
    match (open(s, r, c + dc), open(s, r + dr, c)) {
        (true, false) => MirrorRule { mirror: (r, c + dc), onward: (dc, -dr), flip: (false, true) },
        (false, true) => MirrorRule { mirror: (r + dr, c), onward: (-dc, dr), flip: (true, false) },
        _ => MirrorRule { mirror: me, onward: (-dc, -dr), flip: (true, true) },
    }
}

/// What lies beyond a blocked direction of an open cell: a wall (inside the grid, or a wall or
/// slip edge of the box) or an open edge ([`GasParams::edges`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Beyond {
    /// A wall cell, or the grid's edge where it is a wall or a slip edge: the mirror image
    /// ([`ghost`]).
    Wall,
    /// An inflow edge: the ghost holds `(rho, mx, my)` = [`GasParams::inflow_density`] moving
    /// at [`GasParams::inflow`] along the edge's inward normal ([`crate::edge::inward`]), on
    /// both sides of the face with the linear reconstruction (a Dirichlet ghost, LeVeque 2002,
    /// section 7.2). The flags: momentum components reversed (see [`Beyond::Outflow`]).
    Inflow((f32, f32, f32), (bool, bool)),
    /// An outflow edge: the ghost is the cell itself, or with the linear reconstruction its own
    /// predicted state at the face and centre (zero gradient, the transmissive boundary of Toro
    /// 2009, section 6.3.3): the face carries the cell's own physical flux out, and a wave meets
    /// nothing that reflects it but the scheme's one-sided slopes. The flags `(x, y)` reverse
    /// momentum components where a diagonal step out of a corner cell also crosses a wall edge:
    /// the ghost is then the open edge's, mirrored in the wall (so gas flowing along a wall
    /// leaves through the corner's diagonal face too, instead of meeting a corner's mirror that
    /// turns it back).
    Outflow((bool, bool)),
}

/// What lies beyond open cell `(r, c)` in direction `(dc, dr)` where that is not an open cell
/// (`shaders/gas/walls.wgsl`'s `beyond`): [`Beyond::Wall`] unless the step leaves the grid
/// through an open edge; then [`Beyond::Inflow`] if it crosses an inflow edge (the first of
/// left, right, top, bottom), else [`Beyond::Outflow`], each mirrored in a wall or slip edge
/// that a diagonal step crosses with it.
pub fn beyond(s: &GasState, p: &GasParams, r: isize, c: isize, (dc, dr): (isize, isize)) -> Beyond {
    use crate::edge::{BOTTOM, EdgeKind, LEFT, RIGHT, TOP};
    let (h, w) = s.density.shape();
    let (tr, tc) = (r + dr, c + dc);
    let x = if tc < 0 {
        Some(LEFT)
    } else if tc >= w as isize {
        Some(RIGHT)
    } else {
        None
    };
    let y = if tr < 0 {
        Some(TOP)
    } else if tr >= h as isize {
        Some(BOTTOM)
    } else {
        None
    };
    let is_open = |e: Option<usize>| e.is_some_and(|e| p.edges[e].is_open());
    if !is_open(x) && !is_open(y) {
        return Beyond::Wall;
    }
    let flip = (x.is_some() && !is_open(x), y.is_some() && !is_open(y));
    let inflow = [x, y].into_iter().flatten().find(|&e| p.edges[e] == EdgeKind::Inflow);
    match inflow {
        Some(e) => {
            let (nx, ny) = crate::edge::inward(e);
            let k = p.inflow_density * p.inflow;
            Beyond::Inflow((p.inflow_density, k * nx, k * ny), flip)
        }
        None => Beyond::Outflow(flip),
    }
}

/// `(rho, mx, my)` with the momentum components that `flip` names reversed: a mirror rule's
/// ([`MirrorRule`]) or an open edge's mirrored in a wall edge ([`Beyond`]).
fn flipped((rho, mx, my): (f32, f32, f32), flip: (bool, bool)) -> (f32, f32, f32) {
    (rho, if flip.0 { -mx } else { mx }, if flip.1 { -my } else { my })
}

/// The cell one step from open cell `(r, c)` in direction `delta`, or what stands beyond it
/// where that is a wall or outside ([`beyond`]): a wall's [`ghost`], an inflow's state, or
/// beyond an outflow edge the cell itself.
pub fn neighbour_or_ghost(
    s: &GasState,
    p: &GasParams,
    r: isize,
    c: isize,
    (dc, dr): (isize, isize),
) -> (f32, f32, f32) {
    if open(s, r + dr, c + dc) {
        return cell(s, r + dr, c + dc);
    }
    match beyond(s, p, r, c, (dc, dr)) {
        Beyond::Wall => {
            // The mirror in the frame of what blocks the way (a body's, or a wall's at rest).
            let v = super::bodies::wall_velocity(s, r, c, (dc, dr));
            out_of_frame(mirror_rule(s, r, c, (dc, dr)).image(s, v), v)
        }
        Beyond::Inflow(g, flip) => flipped(g, flip),
        Beyond::Outflow(flip) => flipped(cell(s, r, c), flip),
    }
}

/// `(rho, mx, my)` seen from a frame moving at `v` (cells/step): `(rho, m - rho v)`.
fn in_frame((rho, mx, my): (f32, f32, f32), v: (f32, f32)) -> (f32, f32, f32) {
    (rho, mx - rho * v.0, my - rho * v.1)
}

/// `(rho, mx, my)` seen from a frame moving at `v` back in the grid's: `(rho, m + rho v)`.
fn out_of_frame((rho, mx, my): (f32, f32, f32), v: (f32, f32)) -> (f32, f32, f32) {
    (rho, mx + rho * v.0, my + rho * v.1)
}

/// The flux from open cell `(r, c)` to its ghost through blocked direction `j` ([`direction`]),
/// weighted by the face length, and the cell the ghost mirrors (`None` beyond an open edge,
/// whose ghost is no cell: gas it sends in is not limited). With the linear reconstruction
/// (`predicted` given) the two face states are the cell's predicted state at the face
/// ([`Predicted::face`]) and the mirror image of the mirrored cell's at its face the other way
/// round (`-onward`); the friction exchanges the two predicted centres. At a flat wall the
/// mirrored cell is the cell itself, so the ghost's face state is the cell's own mirrored; along
/// a wall the face into a ghost and its mirrored partner (the mirrored cell's face into its own
/// ghost) see mirrored states, so their fluxes mirror each other bit for bit and mass stays
/// conserved. Beyond an open edge ([`beyond`]) the ghost's face state and centre are the
/// inflow's state, or (outflow) the cell's own face state and centre, mirrored in a wall edge
/// that the step crosses too. Where a body's cell blocks the way, all this is in the body's
/// frame (its velocity `V` at the face, [`super::bodies::wall_velocity`]): the states' momenta
/// less `rho V`, and the flux back in the grid's frame `(f, P + V f)` (module docs of
/// [`super::bodies`]).
fn ghost_flux(
    s: &GasState,
    r: isize,
    c: isize,
    j: usize,
    p: &GasParams,
    predicted: Option<&Grid<Predicted>>,
) -> (Flux, Option<(usize, usize)>) {
    let (delta, d, k) = direction(j);
    let h = face_distance(k);
    let (flux, mirror) = match beyond(s, p, r, c, delta) {
        Beyond::Wall => {
            let rule = mirror_rule(s, r, c, delta);
            let v = super::bodies::wall_velocity(s, r, c, delta);
            let seen = |q| in_frame(q, v);
            let mut flux = match predicted {
                None => face_flux(seen(cell(s, r, c)), rule.image(s, v), d, h, p),
                Some(predicted) => {
                    let (own, other) = (&predicted[(r as usize, c as usize)], &predicted[rule.mirrored_cell()]);
                    let back = direction_index((-rule.onward.0, -rule.onward.1));
                    let (left, right) = (seen(own.face(j)), rule.flip(seen(other.face(back))));
                    face_flux_between(left, right, (seen(own.centre()), rule.flip(seen(other.centre()))), d, h, p)
                }
            };
            flux.p = (flux.p.0 + v.0 * flux.f, flux.p.1 + v.1 * flux.f);
            (flux, Some(rule.mirrored_cell()))
        }
        edge => {
            let (face, centre) = match predicted {
                None => (cell(s, r, c), cell(s, r, c)),
                Some(predicted) => {
                    let own = &predicted[(r as usize, c as usize)];
                    (own.face(j), own.centre())
                }
            };
            let (ghost_face, ghost_centre) = match edge {
                Beyond::Inflow(g, flip) => (flipped(g, flip), flipped(g, flip)),
                Beyond::Outflow(flip) => (flipped(face, flip), flipped(centre, flip)),
                Beyond::Wall => unreachable!("matched above"),
            };
            (face_flux_between(face, ghost_face, (centre, ghost_centre), d, h, p), None)
        }
    };
    let l = face_length(p.neighbours, k);
    (Flux { f: l * flux.f, p: (l * flux.p.0, l * flux.p.1) }, mirror)
}

/// The direction index `j` ([`direction`]) of a unit step `(dcol, drow)`.
fn direction_index(delta: (isize, isize)) -> usize {
    (0..8).find(|&j| direction(j).0 == delta).expect("a unit step")
}

/// A slope limiter: the slope a cell's linear reconstruction takes along a line of cells from
/// its backward difference `back = q_i - q_(i-1)` and forward difference `fwd = q_(i+1) - q_i`
/// (per step along the line). All three are 0 at an extremum (`back * fwd <= 0`), so the face
/// states stay between the cell and its neighbours (total variation diminishing, Sweby 1984);
/// they differ in how steep a slope they allow. LeVeque (2002), chapter 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limiter {
    /// The smaller of the two differences: the most dissipative.
    Minmod,
    /// Monotonized central (van Leer 1977): the central difference `(back + fwd) / 2`, at most
    /// twice either one-sided difference: the steepest of the three.
    MonotonizedCentral,
    /// Van Leer's harmonic mean `2 back fwd / (back + fwd)` (van Leer 1974).
    VanLeer,
}

/// The limiter of [`Reconstruction::Linear`] (`LIMITER` in `shaders/gas/reconstruct.wgsl`):
/// the one that keeps most of the 2D acoustic pulse (72% of the exact crest in 8-way, against
/// minmod's 46% and van Leer's 63%), at the price of a 0.1-0.17% overshoot in the shock tube
/// (measured with `examples/gas_physics.rs limiters`, table in the README).
pub const LIMITER: Limiter = Limiter::MonotonizedCentral;

/// The limited slope of `limiter` from the differences `back` and `fwd` (see [`Limiter`]).
/// CPU mirror of `limited_slope` in `shaders/gas/reconstruct.wgsl`, operation for operation.
pub fn limited_slope(limiter: Limiter, back: f32, fwd: f32) -> f32 {
    if back * fwd <= 0.0 {
        return 0.0;
    }
    match limiter {
        Limiter::Minmod => {
            if back.abs() < fwd.abs() {
                back
            } else {
                fwd
            }
        }
        Limiter::MonotonizedCentral => {
            let m = (2.0 * back.abs()).min(2.0 * fwd.abs()).min(0.5 * (back + fwd).abs());
            if back > 0.0 { m } else { -m }
        }
        Limiter::VanLeer => 2.0 * back * fwd / (back + fwd),
    }
}

/// The primitive variables `(rho, ux, uy)` of a state `(rho, mx, my)`: density and velocity
/// `m / rho`, the velocity 0 in vacuum (`rho <=` [`RHO_EPSILON`]).
pub fn primitive((rho, mx, my): (f32, f32, f32)) -> (f32, f32, f32) {
    if rho > RHO_EPSILON { (rho, mx / rho, my / rho) } else { (rho, 0.0, 0.0) }
}

/// The MUSCL-Hancock predictor's result for one cell (`shaders/gas/predict.wgsl` writes it to
/// four textures): its primitive state half a step on and its limited slopes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Predicted {
    /// `(rho, ux, uy)` half a step on (density per cell, velocity in cells/step).
    pub half: (f32, f32, f32),
    /// The limited slope of `(rho, ux, uy)` along each face direction `k` ([`FORWARD`]), per
    /// step of `FORWARD[k]`: `k = 0` is `d/dx` (per cell to the right), `k = 1` is `d/dy` (per
    /// cell down), the diagonals per diagonal step. Unused directions (4-way) hold 0.
    pub slopes: [(f32, f32, f32); 4],
}

impl Predicted {
    /// The state `(rho, rho ux, rho uy)` at this cell's face in direction `j` ([`direction`]):
    /// the half-step state plus (forward, `j < 4`) or minus (backward) half the slope along the
    /// face's line, the density clamped at 0 (the predictor can carry it below in an expansion
    /// into vacuum; the mass limiter then guards the cells).
    pub fn face(&self, j: usize) -> (f32, f32, f32) {
        let (h, s) = (self.half, self.slopes[j % 4]);
        let w = if j < 4 {
            (h.0 + 0.5 * s.0, h.1 + 0.5 * s.1, h.2 + 0.5 * s.2)
        } else {
            (h.0 - 0.5 * s.0, h.1 - 0.5 * s.1, h.2 - 0.5 * s.2)
        };
        conserved((w.0.max(0.0), w.1, w.2))
    }

    /// The cell's state half a step on, `(rho, rho ux, rho uy)`.
    pub fn centre(&self) -> (f32, f32, f32) {
        conserved(self.half)
    }
}

/// The state `(rho, rho ux, rho uy)` of the primitive variables `(rho, ux, uy)`.
fn conserved((rho, ux, uy): (f32, f32, f32)) -> (f32, f32, f32) {
    (rho, rho * ux, rho * uy)
}

/// Pass 0 of [`Reconstruction::Linear`] (`predict.wgsl`), the predictor of MUSCL-Hancock (van
/// Leer 1984; Toro, "Riemann Solvers and Numerical Methods for Fluid Dynamics", 3rd ed. 2009,
/// section 14.4, and its unsplit form, section 16.5): per open cell, in the primitive variables
/// `w = (rho, ux, uy)` ([`primitive`]), the slope along each face direction limited by `limiter`
/// from the cells behind and beyond (read through walls as their mirror images,
/// [`neighbour_or_ghost`]), and the state half a step on from the quasi-linear isothermal Euler
/// equations with the x and y slopes as the gradient:
/// `rho' = rho - (u rho_x + rho u_x + v rho_y + rho v_y) / 2`,
/// `u' = u - (u u_x + v u_y + c^2 rho_x / rho) / 2`, `v' = v - (u v_x + v v_y + c^2 rho_y / rho) / 2`
/// (`dt = 1` step, `c^2` = [`GasParams::pressure`]); in vacuum (`rho <=` [`RHO_EPSILON`]) the
/// state stays. Reconstructing the velocity rather than the momentum keeps each face's velocity
/// between its neighbours' (the density and momentum limited apart made `m / rho` overshoot 9%
/// past the exact speed behind the shock tube's shock, and emptied the `wind` preset's wakes to
/// the speed cap): the usual remedy near strong density jumps and vacuum (Toro, on MUSCL-type
/// schemes). Walls get [`Predicted::default`].
pub fn predict(s: &GasState, p: &GasParams, limiter: Limiter) -> Grid<Predicted> {
    let (h, w) = s.density.shape();
    Grid::from_fn(w, h, |r, c| {
        let (r, c) = (r as isize, c as isize);
        let mut out = Predicted::default();
        if !open(s, r, c) {
            return out;
        }
        let here = primitive(cell(s, r, c));
        let slope = |q0: f32, q1: f32, q2: f32| limited_slope(limiter, q1 - q0, q2 - q1);
        for (k, &(dc, dr)) in FORWARD.iter().enumerate().take(face_count(p.neighbours)) {
            let back = primitive(neighbour_or_ghost(s, p, r, c, (-dc, -dr)));
            let fwd = primitive(neighbour_or_ghost(s, p, r, c, (dc, dr)));
            out.slopes[k] = (slope(back.0, here.0, fwd.0), slope(back.1, here.1, fwd.1), slope(back.2, here.2, fwd.2));
        }
        let (rho, u, v) = here;
        let (x, y) = gradient(&out.slopes, p.neighbours);
        out.half = if rho > RHO_EPSILON {
            let c2 = p.pressure;
            (
                rho - 0.5 * (u * x.0 + rho * x.1 + v * y.0 + rho * y.2),
                u - 0.5 * (u * x.1 + v * y.1 + c2 * x.0 / rho),
                v - 0.5 * (u * x.2 + v * y.2 + c2 * y.0 / rho),
            )
        } else {
            here
        };
        out
    })
}

/// The gradient `(d/dx, d/dy)` of each primitive variable from its slopes along the face
/// directions: `sum_k L_k d_k s_k` over the faces in use, which `sum_k L_k h_k d_k d_k^T = I`
/// (the face lengths' derivation, [`face_length`]) makes exact for a linear field: with 4-way
/// faces the x and y slopes; with 8-way `d/dx = (2/3) s_E + (s_SE - s_SW) / 6`,
/// `d/dy = (2/3) s_S + (s_SE + s_SW) / 6`, which weighs the directions as the fluxes do (with
/// the axis slopes alone the predictor made the 2D pulse's diagonals keep 3.8% less than its
/// axes; with these, see the README).
fn gradient(slopes: &[(f32, f32, f32); 4], n: Neighbours) -> ((f32, f32, f32), (f32, f32, f32)) {
    let [e, s, se, sw] = *slopes;
    match n {
        Neighbours::Four => (e, s),
        Neighbours::Eight => {
            let mix = |axis: f32, a: f32, b: f32| AXIS_LENGTH_8 * axis + SIXTH * (a + b);
            (
                (mix(e.0, se.0, -sw.0), mix(e.1, se.1, -sw.1), mix(e.2, se.2, -sw.2)),
                (mix(s.0, se.0, sw.0), mix(s.1, se.1, sw.1), mix(s.2, se.2, sw.2)),
            )
        }
    }
}

/// `L_diagonal / sqrt(2) = 1/6`: the weight of a diagonal slope in [`gradient`] with 8-way faces.
const SIXTH: f32 = 0.166_666_67;

/// Pass 1 (`faces.wgsl` with `faces_constant.wgsl`): the flux across every face each cell
/// owns; zero where either cell is a wall or the neighbour is outside the grid (the grid edge is
/// a wall).
pub fn faces(s: &GasState, p: &GasParams) -> Faces {
    owned_faces(s, p, |a, b, _| {
        let (a, b) = (cell(s, a.0, a.1), cell(s, b.0, b.1));
        ((a, b), (a, b))
    })
}

/// Pass 1 of [`Reconstruction::Linear`] (`faces.wgsl` with `faces_linear.wgsl`): as [`faces`],
/// with the flux of the face between owner `a` and neighbour `b` evaluated at the predicted
/// face states ([`Predicted::face`]: `a`'s forward, `b`'s backward) instead of the cells'
/// values, so the flux's exchange acts on the jump between the two face states, which is
/// second-order small where the flow is smooth, and the flux is centred half a step on (second
/// order in time). The friction exchanges the two cells' predicted centres
/// ([`Predicted::centre`]): friction is the model's shear viscosity, a difference of cell
/// values across the face; on the reconstructed face states, whose jump can run against the
/// cells' (a steep limiter puts `a`'s face state past `b`'s), it would feed shear instead of
/// smoothing it.
pub fn faces_predicted(s: &GasState, predicted: &Grid<Predicted>, p: &GasParams) -> Faces {
    owned_faces(s, p, |a, b, k| {
        let (a, b) = (&predicted[(a.0 as usize, a.1 as usize)], &predicted[(b.0 as usize, b.1 as usize)]);
        ((a.face(k), b.face(k + 4)), (a.centre(), b.centre()))
    })
}

/// The face states and the cell states the friction exchanges, `((left, right), (shear_a,
/// shear_b))`, each `(rho, mx, my)`.
type FaceInput = (((f32, f32, f32), (f32, f32, f32)), ((f32, f32, f32), (f32, f32, f32)));

/// The frame of pass 1: per open cell `a = (r, c)`, the flux across each face `k` it owns whose
/// neighbour `b` is open, evaluated at what `input(a, b, k)` gives ([`face_flux_between`]),
/// times the face length.
fn owned_faces(
    s: &GasState,
    p: &GasParams,
    input: impl Fn((isize, isize), (isize, isize), usize) -> FaceInput,
) -> Faces {
    let (h, w) = s.density.shape();
    Grid::from_fn(w, h, |r, c| {
        let (r, c) = (r as isize, c as isize);
        let mut out = [Flux::default(); 4];
        if !open(s, r, c) {
            return out;
        }
        for (k, face) in out.iter_mut().enumerate().take(face_count(p.neighbours)) {
            let (dc, dr) = FORWARD[k];
            if open(s, r + dr, c + dc) {
                let ((left, right), shear) = input((r, c), (r + dr, c + dc), k);
                let flux = face_flux_between(left, right, shear, unit(k), face_distance(k), p);
                let l = face_length(p.neighbours, k);
                *face = Flux { f: l * flux.f, p: (l * flux.p.0, l * flux.p.1) };
            }
        }
        out
    })
}

/// Pass 2 (`limit.wgsl`): per cell, the factor (<= 1) that scales every face it sends mass
/// through, so that it never sends more than it has: `rho / out * LIMIT_SAFETY` when the total
/// outflow `out` exceeds `rho`, else 1. `predicted`: the linear reconstruction's, for the faces
/// into walls (`ghost_flux`); `None` with the constant one.
pub fn limit(s: &GasState, faces: &Faces, predicted: Option<&Grid<Predicted>>, p: &GasParams) -> Grid<f32> {
    let (h, w) = s.density.shape();
    let n = face_count(p.neighbours);
    Grid::from_fn(w, h, |r, c| {
        let mut out = 0.0f32;
        for k in 0..n {
            out += faces[(r, c)][k].f.max(0.0); // owned faces: positive = leaving
        }
        for k in 0..n {
            let (dc, dr) = FORWARD[k];
            if let Some(face) = faces.get(r as isize - dr, c as isize - dc) {
                out += (-face[k].f).max(0.0); // faces owned by the backward neighbour
            }
        }
        if open(s, r as isize, c as isize) {
            for j in directions(p.neighbours) {
                let (delta, _, _) = direction(j);
                if !open(s, r as isize + delta.1, c as isize + delta.0) {
                    out += ghost_flux(s, r as isize, c as isize, j, p, predicted).0.f.max(0.0); // into a ghost
                }
            }
        }
        let rho = s.density[(r, c)];
        if out > rho { rho / out * LIMIT_SAFETY } else { 1.0 }
    })
}

/// Pass 3 (`apply.wgsl`): moves each face's (limited) flux from source to destination, then
/// the flux to the ghost beyond each blocked face ([`ghost`]; its mass scaled by the factor of
/// the cell it leaves; `predicted` as in [`limit`]), reflects momentum pointing into an
/// edge-adjacent wall; then damps momentum, drains density towards the ambient 1, caps the
/// speed at [`MAX_SPEED`], and resets source cells to ambient density moving at `wind`.
/// Returns the gas's push on each body over the step: the momentum the fluxes into its faces
/// carry and the momentum that bounces off them, summed as the GPU sums it
/// ([`super::bodies::ForceSums`]; cell masses x cells / step^2, torque about its centre).
pub fn apply(
    s: &mut GasState,
    faces: &Faces,
    factor: &Grid<f32>,
    predicted: Option<&Grid<Predicted>>,
    p: &GasParams,
) -> Vec<Force> {
    let (h, w) = s.density.shape();
    let mut pushed = super::bodies::ForceSums::new(&s.bodies);
    let n = face_count(p.neighbours);
    // Ghosts read the neighbours' old values: keep them.
    let old = s.clone();
    // The limiter factor of whichever cell a face's mass leaves.
    let scale = |f: f32, owner: (usize, usize), other: (isize, isize)| -> f32 {
        if f >= 0.0 { factor[owner] } else { factor[(other.0 as usize, other.1 as usize)] }
    };
    for r in 0..h {
        for c in 0..w {
            if s.solid[(r, c)] != 0 {
                continue;
            }
            let (mut rho, mut mx, mut my) = cell(s, r as isize, c as isize);
            for k in 0..n {
                let face = faces[(r, c)][k];
                let (dc, dr) = FORWARD[k];
                let t = scale(face.f, (r, c), (r as isize + dr, c as isize + dc));
                rho -= t * face.f;
                mx -= t * face.p.0;
                my -= t * face.p.1;
            }
            for k in 0..n {
                let (dc, dr) = FORWARD[k];
                let (br, bc) = (r as isize - dr, c as isize - dc);
                if let Some(face) = faces.get(br, bc) {
                    let face = face[k];
                    let t = scale(face.f, (br as usize, bc as usize), (r as isize, c as isize));
                    rho += t * face.f;
                    mx += t * face.p.0;
                    my += t * face.p.1;
                }
            }
            // Walls: the flux to the ghost beyond each blocked face (pressure pushes back; along
            // a wall, the flow goes on as if the wall were a mirror), its mass scaled by the
            // limiter factor of the cell it leaves: this one, or the one the ghost mirrors.
            for j in directions(p.neighbours) {
                let (delta, _, _) = direction(j);
                if !open(s, r as isize + delta.1, c as isize + delta.0) {
                    let (face, mirror) = ghost_flux(&old, r as isize, c as isize, j, p, predicted);
                    let t = if face.f >= 0.0 { factor[(r, c)] } else { mirror.map_or(1.0, |m| factor[m]) };
                    rho -= t * face.f;
                    mx -= t * face.p.0;
                    my -= t * face.p.1;
                    pushed.push(s, (r, c), delta, (t * face.p.0, t * face.p.1));
                }
            }
            // Walls: the momentum component into an edge-adjacent wall bounces off (not at an
            // open edge), relative to the wall (a body's moves).
            for (dc, dr) in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
                if !open(s, r as isize + dr, c as isize + dc)
                    && beyond(s, p, r as isize, c as isize, (dc, dr)) == Beyond::Wall
                {
                    let v = super::bodies::wall_velocity(&old, r as isize, c as isize, (dc, dr));
                    let into = (mx - rho * v.0) * dc as f32 + (my - rho * v.1) * dr as f32;
                    if into > 0.0 {
                        mx -= 2.0 * into * dc as f32;
                        my -= 2.0 * into * dr as f32;
                        pushed.push(s, (r, c), (dc, dr), (2.0 * into * dc as f32, 2.0 * into * dr as f32));
                    }
                }
            }
            mx *= p.damping;
            my *= p.damping;
            rho = rho * p.drain + (1.0 - p.drain) * super::AMBIENT_DENSITY;
            let (speed2, cap) = (mx * mx + my * my, MAX_SPEED * rho);
            if speed2 > cap * cap {
                let k = cap / speed2.sqrt();
                mx *= k;
                my *= k;
            }
            if s.source[(r, c)] != 0 {
                rho = super::AMBIENT_DENSITY;
                mx = super::AMBIENT_DENSITY * p.wind.0;
                my = super::AMBIENT_DENSITY * p.wind.1;
            }
            // The limiter keeps rho >= 0 up to rounding; the last ulp (e.g. -1e-45) is clamped.
            s.density[(r, c)] = rho.max(0.0);
            s.momentum_x[(r, c)] = mx;
            s.momentum_y[(r, c)] = my;
        }
    }
    pushed.forces()
}

/// One whole step, forward in time by one step. [`Reconstruction::Constant`]: [`faces`],
/// [`limit`], [`apply`] (forward Euler, first order). [`Reconstruction::Linear`]:
/// MUSCL-Hancock, [`predict`] (with [`LIMITER`]), [`faces_predicted`], [`limit`] and [`apply`]:
/// one forward-Euler update with fluxes centred half a step on, second order in space and time
/// where the flow is smooth (Toro 2009, section 14.4), and the mass limiter keeps the density
/// non-negative as in the constant scheme. Then the free bodies answer the gas's push
/// ([`super::bodies::dynamics`]) and take their contacts. Returns the gas's push on each body
/// ([`apply`]'s).
pub fn step(s: &mut GasState, p: &GasParams) -> Vec<Force> {
    step_with(s, p, LIMITER)
}

/// [`step`] with another slope limiter for [`Reconstruction::Linear`] (`examples/gas_physics.rs`
/// compares them; the GPU has [`LIMITER`] only).
pub fn step_with(s: &mut GasState, p: &GasParams, limiter: Limiter) -> Vec<Force> {
    super::bodies::step(s, p);
    let forces = match p.reconstruction {
        Reconstruction::Constant => {
            let f = faces(s, p);
            let k = limit(s, &f, None, p);
            apply(s, &f, &k, None, p)
        }
        Reconstruction::Linear => {
            let predicted = predict(s, p, limiter);
            let f = faces_predicted(s, &predicted, p);
            let k = limit(s, &f, Some(&predicted), p);
            apply(s, &f, &k, Some(&predicted), p)
        }
    };
    // The free bodies answer the gas's push (`body_dynamics.wgsl`), then take their contacts.
    if s.bodies.iter().any(crate::body::Body::is_free) {
        let (h, w) = s.density.shape();
        let d = super::bodies::dynamics((w, h));
        for (body, &force) in s.bodies.iter_mut().zip(&forces) {
            crate::body::dynamics::advance(body, force, &d);
        }
        crate::body::contact::resolve(&mut s.bodies, &crate::body::walls(&s.solid), &d);
    }
    forces
}

/// The brush (`shaders/gas/brush.wgsl`): inside the disc, an open cell gets
/// `density = max(density * scale + add, 0)`, and momentum `momentum * scale + add * (velocity +
/// radial * (cell - center) / radius)`: a push along a drag, or an outward blast. Every solid
/// cell is emptied.
pub fn brush(s: &mut GasState, b: &super::GasBrush) {
    let (h, w) = s.density.shape();
    for r in 0..h {
        for c in 0..w {
            let at = (r, c);
            let (dx, dy) = (c as f32 + 0.5 - b.center.0, r as f32 + 0.5 - b.center.1);
            if s.solid[at] != 0 {
                (s.density[at], s.momentum_x[at], s.momentum_y[at]) = (0.0, 0.0, 0.0);
                continue;
            }
            if dx * dx + dy * dy > b.radius * b.radius {
                continue;
            }
            let (ux, uy) = (b.velocity.0 + b.radial * dx / b.radius, b.velocity.1 + b.radial * dy / b.radius);
            s.density[at] = (s.density[at] * b.scale + b.add).max(0.0);
            s.momentum_x[at] = s.momentum_x[at] * b.scale + b.add * ux;
            s.momentum_y[at] = s.momentum_y[at] * b.scale + b.add * uy;
        }
    }
}
