//! Free bodies: how the fluid's force and torque, and gravity, change a free body's velocity
//! each step ([`advance`], pass `shaders/common/body_dynamics.wgsl`), after the step's forces
//! pass has measured them and before the next step moves the body.
//!
//! Units as [`crate::body`] and [`crate::body::forces`]: the fluid's density is 1 a cell, so a
//! body of density ratio `s` ([`super::Body::density`]) and area `A` (cells^2) has mass `m = s
//! A` and moment of inertia `I = s J` about its centre (`J = A r^2 / 2` for a disc of radius
//! `r`, `A (a^2 + b^2) / 3` for a box of half sides `a`, `b`).
//!
//! **Gravity** `g` (cells per time unit^2, down) pulls with `(s - 1) A g`: the body's weight
//! less the fluid's buoyancy. The fluid's hydrostatic pressure, which holds the fluid itself up
//! against gravity, is taken whole rather than solved for: its force on any closed body is `A g`
//! up (Archimedes), and the pressure the projection solves is the rest, what the flow adds.
//!
//! **The added-mass instability.** A body that speeds up pushes the fluid around it, and the
//! projection answers within the step with a pressure force `-m_a a` (`m_a` the added mass: for
//! a disc the displaced fluid's `A`, Lamb, "Hydrodynamics" (1932), sect. 68). A coupling that
//! moves the body by the last step's force alone takes `a_(n+1) = (F - m_a a_n) / m`, whose
//! error grows by `-m_a / m` a step: it blows up for any body lighter than its added mass (a
//! disc lighter than the fluid). Here each step solves
//!
//! `(m + M) a_(n+1) = F_n + W + M a_n`,
//!
//! with `M` an estimate of the added mass (Förster, Wall & Ramm, "Artificial added mass
//! instabilities in sequential staggered coupling", CMAME 196 (2007); the "added-mass
//! correction" of partitioned fluid-structure solvers): the `M a_n` put back cancels the
//! `-m_a a_n` inside `F_n` where `M` is right, so the error shrinks by `(M - m_a) / (m + M)` a
//! step (stable while `M > (m_a - m) / 2`), and the steady answer `(m + m_a) a = F + W` does not
//! depend on `M` at all. `M` is, in the body's own axes, the exact added mass of the ellipse
//! inside the shape (`pi b^2` along a box's `x`, `pi a^2` along its `y`; a disc's `A` both
//! ways), and for turning `pi (a^2 - b^2)^2 / 8` (a disc's is 0), each at least what the
//! staircase of cells and a box's corners add ([`added_mass`]): with the ideal values alone a
//! light disc's spin, which an ideal disc's fluid never feels, grew 2.5 times a step, and a
//! light square's too. Too large an `M` is stable too, only slower to settle. How much of the
//! staircase's layer counts for turning is the model's ([`Dynamics::turning_layer`]): a tenth
//! in smoke and water ([`TURNING_LAYER`]); the gas's mirror faces push a turning staircase
//! harder ([`crate::gas::bodies::TURNING_LAYER`]).
//!
//! **In water** ([`Coupling::Hydrostatic`]) the fluid's pressure is the automaton's, which is
//! hydrostatic: it holds the buoyancy (the water a body displaces pushes it up by its weight,
//! Archimedes) but does not answer the body's acceleration within the step as a projection does.
//! So gravity pulls with the whole weight `s A g`, nothing is carried from the last step, and the
//! water a body displaces, the fraction `f = -F_y / (A g)` of its area that the buoyancy says is
//! under water (0 to 1), moves with it as added mass, `f M`, and drags it: quadratic drag
//! `-(C_d / 2) f L |v| v` with `L = 2 sqrt(A / pi)` (the diameter of the disc of the body's
//! area; `C_d` the drag coefficient, about 1 for bluff bodies, Hoerner, "Fluid-Dynamic Drag"
//! (1965), ch. 3), and against turning `-C_d f |w| w R^4 / 4` (that drag on the two arms of a
//! rod of half-length `R = L / 2` turning at `w`). The drag is taken implicitly (the speed it
//! acts on is the new one, its rate the old speed's), so it never reverses a body however light.
//! The automaton's water carries no waves away as real water does, which damps a floating
//! body's bobbing within a few periods; so the water also damps the body linearly, at a
//! fraction `zeta` of critical damping ([`crate::water::bodies::DAMPING_RATIO`]) for the
//! stiffness of a waterline `L` wide (`g L`; turning, `g L^3 / 12`), times `f`.
//! Each step solves, in the body's axes, `(m + f M) v' = (m + f M) v + dt (F + W) - dt k v'`,
//! `k` the drag's and the damping's rates.
//!
//! Then the velocity is bounded as [`super::Body`]s are everywhere: its fastest point moves at
//! most `max_step` cells a step (the smoke's [`crate::smoke::MAX_BODY_STEP`]), scaled down
//! whole; and a body whose centre has reached an edge of the grid stops there (the part of its
//! velocity towards that edge is dropped; the contacts keep its shape inside). The acceleration kept for the next step is the velocity's
//! change over the step, as the fluid felt it. Last, where a body may touch a wall, an edge or
//! another body within the next step, [`super::contact`] takes its contacts.

use super::{Body, Shape};
use crate::body::forces::Force;
use crate::gpu::{DeviceCaps, Kernel};

/// How the fluid's force answers a body (module docs): which terms [`advance`] adds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Coupling {
    /// Smoke's: the projection's pressure answers the body's acceleration within the step (the
    /// added-mass correction `M a` is carried), and the hydrostatic pressure is taken whole
    /// (gravity pulls with `(s - 1) A g`).
    Projected,
    /// Water's: the automaton's pressure is hydrostatic and holds the buoyancy; gravity pulls with
    /// the whole weight `s A g`, the displaced fraction of the added mass moves with the body and
    /// the water drags it.
    Hydrostatic {
        /// `C_d` of the drag, dimensionless.
        drag_coefficient: f32,
        /// `zeta` of the waves' damping, the fraction of critical damping (module docs).
        damping_ratio: f32,
    },
}

/// What [`advance`] needs besides the body and its force.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dynamics {
    /// The step, time units.
    pub dt: f32,
    /// Gravity's acceleration, cells per time unit^2, down (+y).
    pub gravity: f32,
    /// The farthest a body's fastest point may move in one step, cells.
    pub max_step: f32,
    /// The grid `(W, H)`, cells: its edges are walls to the bodies.
    pub size: (f32, f32),
    /// How the fluid's force answers the body.
    pub coupling: Coupling,
    /// The least added moment of inertia for turning, as a share of the fluid layer a cell thick
    /// along the body's perimeter taken at its reach (`turning_layer P R^2`, [`added_mass`]):
    /// what the cells' staircase pushes as it turns. [`TURNING_LAYER`] in smoke and water.
    pub turning_layer: f32,
}

/// Smoke's and water's [`Dynamics::turning_layer`]: a tenth of the staircase's layer (with less,
/// a light disc's spin in smoke grew 2.5 times a step).
pub const TURNING_LAYER: f32 = 0.1;

/// A free body's mass `s A`, cell masses (the fluid's density is 1 a cell).
pub fn mass(body: &Body) -> f32 {
    body.density.unwrap_or(0.0) * body.area()
}

/// A free body's moment of inertia about its centre, `s J` (module docs), cell masses x cells^2.
pub fn inertia(body: &Body) -> f32 {
    let j = match body.shape {
        Shape::Circle { radius } => 0.5 * body.area() * radius * radius,
        Shape::Box { half_width, half_height } => {
            body.area() * (half_width * half_width + half_height * half_height) / 3.0
        }
    };
    body.density.unwrap_or(0.0) * j
}

/// The estimate of the added mass along the body's own `x` and `y` axes and of its added moment
/// of inertia, `(M_x, M_y, M_turn)` (module docs): the ideal fluid's for the ellipse inside the
/// shape (Lamb (1932), sect. 71-72: `pi b^2`, `pi a^2`, `pi (a^2 - b^2)^2 / 8`), but at least
/// what the cells' staircase boundary carries (a layer of fluid a cell thick along the
/// perimeter `P`; for turning the share `turning_layer` of that layer at the body's reach `R`,
/// `turning_layer P R^2`, [`Dynamics::turning_layer`]), and
/// for turning at least half the fluid a box's corners sweep (`(pi R^4 / 2 - J) / 2`, `J` the
/// box's own area's moment): a square turning pushes fluid with its corners, which the circle
/// inside it does not.
pub fn added_mass(body: &Body, turning_layer: f32) -> (f32, f32, f32) {
    use std::f32::consts::PI;
    let reach = body.reach();
    let (ideal, perimeter, corners) = match body.shape {
        Shape::Circle { radius } => ((body.area(), body.area(), 0.0), 2.0 * PI * radius, 0.0),
        Shape::Box { half_width: a, half_height: b } => {
            let d = a * a - b * b;
            let own = body.area() * (a * a + b * b) / 3.0;
            let swept = 0.5 * (0.5 * PI * reach * reach * reach * reach - own);
            ((PI * b * b, PI * a * a, PI * d * d / 8.0), 4.0 * (a + b), swept)
        }
    };
    let turn = ideal.2.max(turning_layer * perimeter * reach * reach).max(corners);
    (ideal.0.max(perimeter), ideal.1.max(perimeter), turn)
}

/// One step of a free body's velocity under the fluid's `force` over the step and gravity (the
/// module docs); a driven body is left as it is. The CPU mirror of `body_dynamics.wgsl`, the
/// same arithmetic in the same order.
pub fn advance(body: &mut Body, force: Force, d: &Dynamics) {
    let Some(s) = body.density else { return };
    let area = body.area();
    let (m, i) = (s * area, inertia(body));
    let (mx, my, mt) = added_mass(body, d.turning_layer);
    let (sin, cos) = body.angle.sin_cos();
    let old = (body.vx, body.vy, body.spin);
    let (vx, vy, spin) = match d.coupling {
        Coupling::Projected => {
            // The force with gravity's, and the last acceleration, in the body's axes.
            let (fx, fy) = (force.fx, force.fy + (s - 1.0) * area * d.gravity);
            let [ax, ay, at] = body.acceleration;
            let fbx = cos * fx + sin * fy;
            let fby = cos * fy - sin * fx;
            let abx = cos * ax + sin * ay;
            let aby = cos * ay - sin * ax;
            let nbx = (fbx + mx * abx) / (m + mx);
            let nby = (fby + my * aby) / (m + my);
            let new_turn = (force.torque + mt * at) / (i + mt);
            (old.0 + d.dt * (cos * nbx - sin * nby), old.1 + d.dt * (sin * nbx + cos * nby), old.2 + d.dt * new_turn)
        }
        Coupling::Hydrostatic { drag_coefficient, damping_ratio } => {
            // The displaced fraction, from the buoyancy; the force with the whole weight.
            let f = if d.gravity > 0.0 { (-force.fy / (area * d.gravity)).clamp(0.0, 1.0) } else { 0.0 };
            let (fx, fy) = (force.fx, force.fy + s * area * d.gravity);
            let fbx = cos * fx + sin * fy;
            let fby = cos * fy - sin * fx;
            let vbx = cos * old.0 + sin * old.1;
            let vby = cos * old.1 - sin * old.0;
            // The drag's rates: (C_d / 2) f L |v| with L = 2 r, and C_d f |w| r^4 / 4.
            let r = (area / std::f32::consts::PI).sqrt();
            let k = drag_coefficient * f * r * (old.0 * old.0 + old.1 * old.1).sqrt();
            let kt = drag_coefficient * f * old.2.abs() * r * r * r * r / 4.0;
            let (ex, ey, et) = (m + f * mx, m + f * my, i + f * mt);
            // The waves' damping: zeta of critical for the stiffness g L (turning, g L^3 / 12).
            let z = 2.0 * damping_ratio * (10.0 * f).min(1.0);
            let (kx, ky) = (k + z * (d.gravity * 2.0 * r * ex).sqrt(), k + z * (d.gravity * 2.0 * r * ey).sqrt());
            let kt = kt + z * (d.gravity * 8.0 * r * r * r / 12.0 * et).sqrt();
            let nbx = (vbx + d.dt * fbx / ex) / (1.0 + d.dt * kx / ex);
            let nby = (vby + d.dt * fby / ey) / (1.0 + d.dt * ky / ey);
            let turn = (old.2 + d.dt * force.torque / et) / (1.0 + d.dt * kt / et);
            (cos * nbx - sin * nby, sin * nbx + cos * nby, turn)
        }
    };
    let (vx, vy, spin) = bound(body, (vx, vy, spin), d);
    body.acceleration = [(vx - old.0) / d.dt, (vy - old.1) / d.dt, (spin - old.2) / d.dt];
    (body.vx, body.vy, body.spin) = (vx, vy, spin);
}

/// The uniform of `body_dynamics.wgsl` (`struct Dynamics`, 48 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct Uniform {
    dt: f32,
    gravity: f32,
    max_step: f32,
    count: u32,
    size: [f32; 2],
    hydrostatic: u32,
    drag_coefficient: f32,
    damping_ratio: f32,
    turning_layer: f32,
    _pad: [u32; 2],
}

/// The free bodies' pass, `shaders/common/body_dynamics.wgsl`, over a model's body table and
/// force log: recorded after the model's forces pass and before the log counts the step.
pub struct BodyDynamics {
    kernel: Kernel,
    group: wgpu::BindGroup,
    uniform: wgpu::Buffer,
}

impl BodyDynamics {
    /// The pass over `table` (the model's body table) and `log` (its force log's buffer).
    pub fn new(device: &wgpu::Device, caps: &DeviceCaps, table: &wgpu::Buffer, log: &wgpu::Buffer) -> Self {
        let kernel = Kernel::new(device, caps, "body_dynamics", crate::shaders::BODY_DYNAMICS);
        let uniform = crate::gpu::uniform_buffer(device, "body dynamics", std::mem::size_of::<Uniform>());
        let group = kernel
            .bind_group(device, &[uniform.as_entire_binding(), table.as_entire_binding(), log.as_entire_binding()]);
        Self { kernel, group, uniform }
    }

    /// Records the write of `d` and the bodies' count into the pass's uniform.
    pub fn encode_params(&self, device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder, d: &Dynamics, count: usize) {
        let u = Uniform {
            dt: d.dt,
            gravity: d.gravity,
            max_step: d.max_step,
            count: count as u32,
            size: [d.size.0, d.size.1],
            hydrostatic: matches!(d.coupling, Coupling::Hydrostatic { .. }) as u32,
            drag_coefficient: match d.coupling {
                Coupling::Projected => 0.0,
                Coupling::Hydrostatic { drag_coefficient, .. } => drag_coefficient,
            },
            damping_ratio: match d.coupling {
                Coupling::Projected => 0.0,
                Coupling::Hydrostatic { damping_ratio, .. } => damping_ratio,
            },
            turning_layer: d.turning_layer,
            _pad: [0; 2],
        };
        crate::gpu::in_order::write_buffer(device, encoder, &self.uniform, 0, bytemuck::bytes_of(&u));
    }

    /// Records the pass over `count` bodies (the driven ones are left as they are).
    pub fn dispatch(&self, pass: &mut wgpu::ComputePass<'_>, count: usize) {
        self.kernel.dispatch(pass, &self.group, count as u32, 1);
    }
}

/// A velocity `(vx, vy, spin)` for `body` as every free body's is bounded (module docs): scaled
/// down whole so that its fastest point moves at most `max_step` cells a step, and without the
/// part towards an edge its centre has reached (a backstop: the contacts keep its shape inside,
/// [`super::contact`]).
pub fn bound(body: &Body, (mut vx, mut vy, mut spin): (f32, f32, f32), d: &Dynamics) -> (f32, f32, f32) {
    let reach = body.reach();
    let fastest = ((vx * vx + vy * vy).sqrt() + spin.abs() * reach) * d.dt;
    if fastest > d.max_step {
        let k = d.max_step / fastest;
        (vx, vy, spin) = (vx * k, vy * k, spin * k);
    }
    if (body.x <= 0.0 && vx < 0.0) || (body.x >= d.size.0 && vx > 0.0) {
        vx = 0.0;
    }
    if (body.y <= 0.0 && vy < 0.0) || (body.y >= d.size.1 && vy > 0.0) {
        vy = 0.0;
    }
    (vx, vy, spin)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A box's moment of inertia is `m (w^2 + h^2) / 12` for full sides `w`, `h`; a disc's `m r^2 /
    /// 2`; a plate's added mass across it a flat plate's.
    #[test]
    fn mass_properties_of_each_shape() {
        let disc = Body { density: Some(2.0), ..Body::new(Shape::Circle { radius: 3.0 }, 0.0, 0.0) };
        let m = mass(&disc);
        assert!((m - 2.0 * std::f32::consts::PI * 9.0).abs() < 1e-4);
        assert!((inertia(&disc) - m * 9.0 / 2.0).abs() < 1e-3);
        let plate =
            Body { density: Some(0.5), ..Body::new(Shape::Box { half_width: 6.0, half_height: 1.0 }, 0.0, 0.0) };
        assert_eq!(mass(&plate), 0.5 * 12.0 * 2.0);
        assert!((inertia(&plate) - mass(&plate) * (144.0 + 4.0) / 12.0).abs() < 1e-3);
        // Across itself a flat plate of width 2a carries pi a^2 (Lamb (1932), sect. 71); along
        // itself, the fluid a cell thick along its perimeter.
        let (mx, my, _) = added_mass(&plate, TURNING_LAYER);
        assert!((my - std::f32::consts::PI * 36.0).abs() < 1e-3 && mx == 28.0, "{mx} {my}");
        assert_eq!(mass(&Body::new(Shape::Circle { radius: 3.0 }, 0.0, 0.0)), 0.0, "a driven body has no mass here");
    }
}
