//! Contacts: free bodies collide with the walls, the grid's edges and each other, through
//! `rapier2d` (rigid-body collision is not what eddy exists for). The fluid's coupling
//! ([`super::dynamics::advance`]) gives each free body its velocity for the next step; where a
//! body could touch something during that step, [`resolve`] hands every body to a rapier world
//! for one step of `dt` with no gravity (the fluid's force and gravity are already in the
//! velocities) and takes back, for each free body rapier found in contact, rapier's velocity
//! and the push out of any overlap its pose took besides: contacts without bounce (restitution 0)
//! and with Coulomb friction [`FRICTION`]. Driven bodies are kinematic there: they push free
//! ones and are never pushed. A free body's mass in the contact is its own with its added mass
//! ([`super::dynamics::added_mass`]; the mean of its two axes'), since the fluid it carries
//! moves with it. The acceleration the coupling carries ([`Body::acceleration`]) is left as the
//! fluid's alone: the fluid still pushes a body that a wall has stopped (the water it carried
//! runs on into the wall), and that push is the contact's to take, at the next step's contacts;
//! carried into the coupling's added-mass term, which answers it in advance, the stop would
//! pull the body back off the wall (a heavy disc landing on a ledge in smoke jumped back up a
//! third of its fall that way).
//!
//! **When.** A body's fastest point moves at most `max_step` cells a step
//! ([`super::dynamics::Dynamics::max_step`], driven bodies too), so two bodies close by at most
//! `2 max_step` a step. [`gap`] is a lower bound of the distance from a free body to anything it
//! can touch (the discs around the bodies, [`Body::reach`]; the wall cells within [`SCAN`]
//! cells; the edges), which shrinks by at most `2 max_step` a step. [`resolve`] does nothing
//! where every free body's gap is at least [`margin`] (`2 max_step` plus [`SLOP`]): nothing
//! can touch within the step. So after a resolution, none can be needed for the next
//! [`steps_clear`] steps, and a GPU model reads its bodies back only at those *contact points*
//! ([`ContactPlan`]), never in between: the CPU mirrors, which resolve after every step, do
//! nothing in between either, and GPU and CPU runs take the same contacts at the same steps.
//!
//! **A limit.** A body that lands at about a cell a step squeezes the fluid out of the last
//! cell's gap in one step, and the projection's pressure throws it back: in smoke at dt 0.5,
//! inviscid, a heavy disc landing on a ledge at a cell a step jumped back up at three quarters of
//! its landing speed, and higher at each landing after. At the default dt (landing at a quarter
//! of a cell a step) it comes to rest at once (`tests/smoke_bodies.rs`).
//!
//! The walls are the non-zero cells of a mask `(H, W)` of walls alone ([`super::walls`] takes
//! them from a mask that marks bodies too): as rapier voxels, a cell `(r, c)` the square
//! `[c, c + 1] x [r, r + 1]`, taken within the reach of the bodies in question. The grid's edges
//! are walls here too (half-planes), as they are to the coupling.

use super::dynamics::{self, Dynamics};
use super::{Body, Shape};
use crate::grid::Grid;
use rapier2d::prelude::*;

/// How far past two steps' travel a contact is looked for, cells.
pub const SLOP: f32 = 0.25;

/// The Coulomb friction coefficient of every contact (bodies on walls and on each other):
/// about wet wood's on wood.
pub const FRICTION: f32 = 0.3;

/// Below this (cells), the difference between where rapier put a body and where its velocity
/// takes it is the rounding of poses (an ulp of 4096 is 5e-4), not a push out of an overlap
/// ([`resolve`]).
pub const POSE_ROUNDING: f32 = 1e-3;

/// How far past a body's reach the walls are looked for, cells: a wall farther than this
/// counts as this far, which bounds the steps between contact points.
pub const SCAN: f32 = 64.0;

/// The gap below which [`resolve`] hands a free body to rapier, cells: `2 max_step + SLOP`.
pub fn margin(d: &Dynamics) -> f32 {
    2.0 * d.max_step + SLOP
}

/// A lower bound of the distance from body `i` to `walls` (`(H, W)`, non-zero = wall), the
/// grid's edges and the other bodies (driven ones only where `i` is free), in cells, at most
/// [`SCAN`]: each body counts as the disc of its reach around its centre. Moving a body's
/// centre by `e` cells changes it by at most `e`.
pub fn gap(i: usize, bodies: &[Body], walls: &Grid<u8>, d: &Dynamics) -> f32 {
    let b = &bodies[i];
    let reach = b.reach();
    let (w, h) = d.size;
    let mut gap = (b.x.min(w - b.x).min(b.y).min(h - b.y) - reach).min(SCAN);
    for (j, o) in bodies.iter().enumerate() {
        if j != i && (b.is_free() || o.is_free()) {
            gap = gap.min(((o.x - b.x).hypot(o.y - b.y)) - reach - o.reach());
        }
    }
    // The wall cells whose squares come within SCAN of the disc.
    let (rows, cols) = walls.shape();
    let span = |centre: f32, len: usize| {
        let lo = (centre - reach - SCAN).floor().max(0.0);
        let hi = (centre + reach + SCAN).ceil().min(len as f32);
        (lo as usize, (hi as usize).max(lo as usize))
    };
    let (r0, r1) = span(b.y, rows);
    let (c0, c1) = span(b.x, cols);
    let mut nearest = f32::INFINITY;
    for r in r0..r1 {
        let dy = (r as f32 - b.y).max(b.y - (r as f32 + 1.0)).max(0.0);
        if dy * dy >= nearest {
            continue;
        }
        for c in c0..c1 {
            if walls[(r, c)] != 0 {
                let dx = (c as f32 - b.x).max(b.x - (c as f32 + 1.0)).max(0.0);
                nearest = nearest.min(dx * dx + dy * dy);
            }
        }
    }
    gap.min(nearest.sqrt() - reach)
}

/// Steps from here until contacts may need resolving again (the next contact point), at least
/// 1; `None` without free bodies (see the module docs).
pub fn steps_clear(bodies: &[Body], walls: &Grid<u8>, d: &Dynamics) -> Option<u64> {
    let gap =
        (0..bodies.len()).filter(|&i| bodies[i].is_free()).map(|i| gap(i, bodies, walls, d)).min_by(f32::total_cmp)?;
    let m = margin(d);
    Some(if gap < m { 1 } else { ((gap - m) / (2.0 * d.max_step)) as u64 + 1 })
}

/// The contacts of the free bodies that may touch something within the coming step (their
/// [`gap`] below [`margin`]): each such body rapier finds in contact gets the velocity that
/// carries it where rapier's step put it (module docs), bounded as the coupling bounds it.
/// Returns whether any body changed. Where it is stays; the next step moves it.
pub fn resolve(bodies: &mut [Body], walls: &Grid<u8>, d: &Dynamics) -> bool {
    !resolve_with(bodies, walls, d, 0.5 * d.max_step).is_empty()
}

/// [`resolve`], pushing bodies out of overlaps at most `push_out` cells a step (none at 0: the
/// contacts then only stop bodies closing in, for bodies whose overlap is a guess, as in a
/// browser's [`ContactPlan`]). Returns the free bodies rapier found in contact, whose
/// velocities it set.
fn resolve_with(bodies: &mut [Body], walls: &Grid<u8>, d: &Dynamics, push_out: f32) -> Vec<usize> {
    let m = margin(d);
    let near: Vec<usize> = (0..bodies.len()).filter(|&i| bodies[i].is_free() && gap(i, bodies, walls, d) < m).collect();
    if near.is_empty() {
        return near;
    }
    let mut world = PhysicsWorld::new();
    world.gravity = Vector::ZERO;
    world.integration_parameters = IntegrationParameters {
        dt: d.dt,
        length_unit: 1.0,
        normalized_prediction_distance: m,
        normalized_max_corrective_velocity: push_out / d.dt,
        ..IntegrationParameters::default()
    };
    let fixed = world.insert_body(RigidBodyBuilder::fixed());
    let (w, h) = d.size;
    let edges = [
        (Vector::X, Vector::ZERO),
        (-Vector::X, Vector::new(w, 0.0)),
        (Vector::Y, Vector::ZERO),
        (-Vector::Y, Vector::new(0.0, h)),
    ];
    for (normal, at) in edges {
        let edge =
            ColliderBuilder::new(SharedShape::halfspace(normal)).translation(at).friction(FRICTION).restitution(0.0);
        world.insert_collider(edge, Some(fixed));
    }
    let cells = walls_near(&near, bodies, walls, m);
    if !cells.is_empty() {
        let walls = ColliderBuilder::voxels(Vector::ONE, &cells).friction(FRICTION).restitution(0.0);
        world.insert_collider(walls, Some(fixed));
    }
    let handles: Vec<(RigidBodyHandle, ColliderHandle)> =
        bodies.iter().map(|b| world.insert(rigid_body(b, d), collider(b))).collect();
    world.step();
    let mut touching = Vec::new();
    for &i in &near {
        let (body, collider) = handles[i];
        if !world.narrow_phase.contact_pairs_with(collider).any(|p| p.has_any_active_contact()) {
            continue;
        }
        let moved = &world.bodies[body];
        let (v, w) = (moved.linvel(), moved.angvel());
        let (at, angle) = (moved.translation(), moved.rotation().angle());
        let b = &mut bodies[i];
        // Rapier's velocity, and the push out of an overlap its pose took beyond that: the
        // difference between where it put the body and where that velocity takes it, where it
        // is more than the rounding of a pose (which, taken as a velocity, would nudge every
        // body near a wall by an ulp of where it is, a step).
        let turned = (angle - b.angle + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU) - std::f32::consts::PI;
        let mut push = (at.x - b.x - v.x * d.dt, at.y - b.y - v.y * d.dt, turned - w * d.dt);
        if push.0.hypot(push.1) < POSE_ROUNDING && push.2.abs() * b.reach() < POSE_ROUNDING {
            push = (0.0, 0.0, 0.0);
        }
        let wanted = (v.x + push.0 / d.dt, v.y + push.1 / d.dt, w + push.2 / d.dt);
        (b.vx, b.vy, b.spin) = dynamics::bound(b, wanted, d);
        touching.push(i);
    }
    touching
}

/// The wall cells of `walls` within `margin` of the reach of bodies `near`, as voxel
/// coordinates `(c, r)`.
fn walls_near(near: &[usize], bodies: &[Body], walls: &Grid<u8>, margin: f32) -> Vec<IVector> {
    let (rows, cols) = walls.shape();
    let mut taken = std::collections::BTreeSet::new();
    for &i in near {
        let b = &bodies[i];
        let span = b.reach() + margin + 1.0;
        let r0 = (b.y - span).floor().max(0.0) as usize;
        let r1 = ((b.y + span).ceil().max(0.0) as usize).min(rows);
        let c0 = (b.x - span).floor().max(0.0) as usize;
        let c1 = ((b.x + span).ceil().max(0.0) as usize).min(cols);
        for r in r0..r1 {
            for c in c0..c1 {
                if walls[(r, c)] != 0 {
                    taken.insert((r, c));
                }
            }
        }
    }
    taken.into_iter().map(|(r, c)| IVector::new(c as i32, r as i32)).collect()
}

/// The rapier body of `b`: dynamic with its mass and added mass where free, kinematic (moved
/// at its velocity, never pushed) where driven.
fn rigid_body(b: &Body, d: &Dynamics) -> RigidBody {
    let builder = match b.is_free() {
        true => {
            let (mx, my, mt) = dynamics::added_mass(b, d.turning_layer);
            let mass = dynamics::mass(b) + 0.5 * (mx + my);
            let inertia = dynamics::inertia(b) + mt;
            RigidBodyBuilder::dynamic().additional_mass_properties(MassProperties::new(Vector::ZERO, mass, inertia))
        }
        false => RigidBodyBuilder::kinematic_velocity_based(),
    };
    builder
        .translation(Vector::new(b.x, b.y))
        .rotation(b.angle)
        .linvel(Vector::new(b.vx, b.vy))
        .angvel(b.spin)
        .can_sleep(false)
        .build()
}

/// The rapier collider of `b`'s shape (massless: [`rigid_body`] gives the mass).
fn collider(b: &Body) -> Collider {
    let shape = match b.shape {
        Shape::Circle { radius } => ColliderBuilder::ball(radius),
        Shape::Box { half_width, half_height } => ColliderBuilder::cuboid(half_width, half_height),
    };
    shape.density(0.0).friction(FRICTION).restitution(0.0).build()
}

/// A GPU model's contact points ([`steps_clear`]): where the next is, and the stage there
/// ([`ContactPlan::plan`]): its bodies read back from the GPU's table, [`resolve`]d, and those
/// that changed written back, before the next step is recorded. The models call it from
/// [`crate::GpuModel::plan_solver`], so every run that keeps to the plan points
/// ([`crate::GpuModel::steps_to_plan`]) takes its contacts where the CPU mirror does.
#[derive(Debug, Default)]
pub struct ContactPlan {
    /// The step count of the next contact point.
    next: u64,
    /// Natively, the step count at which a copy of the table is asked for ahead of the next
    /// point (half way there), and that copy with the step count it was asked for at: at the
    /// point, where the bodies it holds were still clear far enough, the point moves on without
    /// reading the table as it is then (see [`ContactPlan::plan`]).
    #[cfg(not(target_arch = "wasm32"))]
    ask: u64,
    #[cfg(not(target_arch = "wasm32"))]
    ahead: Option<Ahead>,
    /// In a browser, which may not wait: the copy of the table asked for at a point, with its
    /// step count and the map's result once it arrived.
    #[cfg(target_arch = "wasm32")]
    pending: Option<Pending>,
}

/// A copy of the body table asked for ahead of a contact point: its step count, its
/// submission (waited for alone, not the steps after it) and its map.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug)]
struct Ahead {
    step: u64,
    copy: wgpu::Buffer,
    submission: wgpu::SubmissionIndex,
    mapped: futures_channel::oneshot::Receiver<Result<(), wgpu::BufferAsyncError>>,
}

#[cfg(not(target_arch = "wasm32"))]
impl Ahead {
    /// Records and submits a copy of the first `n` bodies of `table` and maps it.
    fn ask(device: &wgpu::Device, queue: &wgpu::Queue, table: &wgpu::Buffer, n: usize, step: u64) -> Self {
        let (copy, submission) = super::table::copy_submitted(device, queue, table, n);
        let (tx, mapped) = futures_channel::oneshot::channel();
        copy.slice(..).map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        Self { step, copy, submission, mapped }
    }

    /// The bodies, waiting for the copy's submission only.
    fn read(self, device: &wgpu::Device) -> Result<Vec<Body>, crate::gpu::GpuError> {
        use crate::gpu::GpuError;
        let wait = wgpu::PollType::Wait { submission_index: Some(self.submission), timeout: None };
        device.poll(wait)?;
        let mut mapped = self.mapped;
        match mapped.try_recv() {
            Ok(Some(r)) => r.map_err(|e| GpuError::Readback(e.to_string()))?,
            _ => return Err(GpuError::Readback("the bodies' copy was not mapped once its submission ran".into())),
        }
        mapped_bodies(&self.copy)
    }
}

/// The bodies of a mapped copy of the body table; unmaps it.
fn mapped_bodies(copy: &wgpu::Buffer) -> Result<Vec<Body>, crate::gpu::GpuError> {
    let bytes = copy.slice(..).get_mapped_range().map_err(|e| crate::gpu::GpuError::Readback(e.to_string()))?.to_vec();
    copy.unmap();
    Ok(bytemuck::pod_collect_to_vec::<u8, super::GpuBody>(&bytes).iter().map(Body::from_gpu).collect())
}

#[cfg(target_arch = "wasm32")]
#[derive(Debug)]
struct Pending {
    step: u64,
    copy: wgpu::Buffer,
    mapped: futures_channel::oneshot::Receiver<Result<(), wgpu::BufferAsyncError>>,
}

impl ContactPlan {
    /// Contacts due after the next step (a model made with its bodies at step count `step`, or
    /// given new ones, or new walls): the CPU mirrors take contacts after each step's
    /// dynamics, so the first after a change is the next step's.
    pub fn replan(&mut self, step: u64) {
        self.next = step + 1;
        #[cfg(not(target_arch = "wasm32"))]
        {
            (self.ask, self.ahead) = (u64::MAX, None);
        }
    }

    /// Steps that may be recorded from step count `step` before the next contact point, or
    /// natively the step a copy is asked for ahead of it (`Some(0)`: due now); `None` without
    /// free bodies among `bodies`.
    pub fn steps_to_plan(&self, bodies: &[Body], step: u64) -> Option<u64> {
        #[cfg(not(target_arch = "wasm32"))]
        let next = self.next.min(self.ask);
        #[cfg(target_arch = "wasm32")]
        let next = self.next;
        bodies.iter().any(Body::is_free).then(|| next.saturating_sub(step))
    }

    /// The next contact point `clear` steps after step count `step` ([`steps_clear`]), and
    /// natively a copy asked for half way there.
    fn plan_next(&mut self, step: u64, clear: u64) {
        self.next = step + clear;
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.ask = if clear >= 4 { step + clear / 2 } else { u64::MAX };
        }
    }

    /// At a contact point (step count `step`), the contacts of the bodies in `table` (the
    /// model's body table, `list.len()` bodies) on `walls` ([`resolve`]): waits for the GPU to
    /// finish the steps submitted so far, writes the velocities of the bodies that changed back
    /// into the table (the queue's write, before anything submitted later) and plans the next
    /// point; `list` becomes the bodies read back (and `log`'s copies in flight, older, are not
    /// handed on). Elsewhere, or without free bodies, does nothing.
    ///
    /// Natively, half way to each point a copy of the table is asked for (a copy submitted
    /// then, not waited for); at the point, where the bodies in it were far enough from
    /// everything that none can touch anything before a point later than this one, the point
    /// moves on there, having waited only for the copy (the GPU keeps the steps after it), and
    /// nothing is resolved (nothing needs it: [`steps_clear`] from the copy's step holds).
    ///
    /// In a browser nothing may wait: the contacts are taken on `list`, where the model's CPU
    /// copy has the bodies (moved on at the velocities last read), and a copy of the table is
    /// asked for, which brings the free bodies of `list` up to date when it arrives (moved on by
    /// the steps it took). So there the contacts see the bodies as a frame or so ago moved on,
    /// not as they are, and push none out of an overlap (which may be the guess's).
    ///
    /// # Errors
    /// [`crate::gpu::GpuError::DeviceLost`] / [`crate::gpu::GpuError::Readback`] when the
    /// table cannot be read back; nothing changes.
    #[allow(clippy::too_many_arguments)]
    pub fn plan(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        table: &wgpu::Buffer,
        list: &mut [Body],
        log: &mut super::forces::ForceLog,
        walls: &Grid<u8>,
        d: &Dynamics,
        step: u64,
    ) -> Result<(), crate::gpu::GpuError> {
        #[cfg(target_arch = "wasm32")]
        self.arrived(list, d, step)?;
        if self.steps_to_plan(list, step) != Some(0) {
            return Ok(());
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let n = list.len();
            if step < self.next {
                // Half way: the copy ahead.
                self.ahead = Some(Ahead::ask(device, queue, table, n, step));
                self.ask = u64::MAX;
                return Ok(());
            }
            if let Some(ahead) = self.ahead.take() {
                let asked = ahead.step;
                let read = ahead.read(device)?;
                let end = steps_clear(&read, walls, d).map(|clear| asked + clear);
                if let Some(end) = end.filter(|&end| end > step) {
                    self.plan_next(step, end - step);
                    return Ok(());
                }
            }
            let copy = super::table::copy(device, queue, table, n);
            let read = crate::gpu::wait(device, super::table::read(device, &copy, n))??;
            list.copy_from_slice(&read);
            log.bodies_replaced();
        }
        #[cfg(target_arch = "wasm32")]
        if self.pending.is_none() {
            let copy = super::table::copy(device, queue, table, list.len());
            let (tx, mapped) = futures_channel::oneshot::channel();
            copy.slice(..).map_async(wgpu::MapMode::Read, move |r| {
                let _ = tx.send(r);
            });
            self.pending = Some(Pending { step, copy, mapped });
        }
        // In a browser the bodies are where the CPU guesses: stop them closing in, but push
        // none out of an overlap the guess may have made; and the GPU's velocities have taken a
        // step of the fluid and gravity since the guess's, so every body in contact takes its
        // answer, changed or not (a crate resting on a ledge would otherwise creep into it by
        // the step's gravity).
        let push_out = if cfg!(target_arch = "wasm32") { 0.0 } else { 0.5 * d.max_step };
        for i in resolve_with(list, walls, d, push_out) {
            super::table::write_velocity(queue, table, i, &list[i]);
        }
        #[cfg(target_arch = "wasm32")]
        let _ = log; // the browser's list is a guess, not read back
        self.plan_next(step, steps_clear(list, walls, d).unwrap_or(1));
        Ok(())
    }

    /// The browser's copy of the table, if it arrived: the free bodies of `list` as it found
    /// them, moved on at their velocities by the steps since it was asked for.
    #[cfg(target_arch = "wasm32")]
    fn arrived(&mut self, list: &mut [Body], d: &Dynamics, step: u64) -> Result<(), crate::gpu::GpuError> {
        use crate::gpu::GpuError;
        let Some(pending) = &mut self.pending else { return Ok(()) };
        let mapped = match pending.mapped.try_recv() {
            Ok(None) => return Ok(()),
            Ok(Some(r)) => r.map_err(|e| GpuError::Readback(e.to_string())),
            Err(_) => Err(GpuError::DeviceLost("map callback dropped".into())),
        };
        let pending = self.pending.take().expect("pending");
        mapped?;
        let read = mapped_bodies(&pending.copy)?;
        if read.len() == list.len() {
            for (body, mut now) in list.iter_mut().zip(read) {
                if body.is_free() && now.is_free() {
                    for _ in pending.step..step {
                        now.advance(d.dt);
                    }
                    *body = now;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::dynamics::Coupling;

    fn dynamics(size: (f32, f32)) -> Dynamics {
        Dynamics {
            dt: 1.0,
            gravity: 0.02,
            max_step: 0.5,
            size,
            coupling: Coupling::Projected,
            turning_layer: dynamics::TURNING_LAYER,
        }
    }

    fn disc(x: f32, y: f32, r: f32, density: f32) -> Body {
        Body { density: Some(density), ..Body::new(Shape::Circle { radius: r }, x, y) }
    }

    /// Steps `bodies` as a model does: move, fall by `g` (free ones), contacts. Returns the
    /// deepest overlap of a free disc with the floor (the wall rows from `floor` down).
    fn fall(bodies: &mut [Body], walls: &Grid<u8>, d: &Dynamics, floor: f32, steps: usize) -> f32 {
        let mut deepest = 0.0f32;
        for _ in 0..steps {
            for b in bodies.iter_mut() {
                b.advance(d.dt);
                if b.is_free() {
                    b.vy += d.gravity * d.dt;
                    (b.vx, b.vy, b.spin) = dynamics::bound(b, (b.vx, b.vy, b.spin), d);
                }
                if let Shape::Circle { radius } = b.shape {
                    deepest = deepest.max(b.y + radius - floor);
                }
            }
            resolve(bodies, walls, d);
        }
        deepest
    }

    fn floor_at(w: usize, h: usize, floor: usize) -> Grid<u8> {
        Grid::from_fn(w, h, |r, _| (r >= floor) as u8)
    }

    #[test]
    fn a_falling_disc_comes_to_rest_on_a_wall_floor() {
        let (w, h, floor) = (40, 40, 30);
        let solid = floor_at(w, h, floor);
        let d = dynamics((w as f32, h as f32));
        let mut bodies = [disc(20.0, 10.0, 4.0, 2.0)];
        let deepest = fall(&mut bodies, &solid, &d, floor as f32, 300);
        let b = bodies[0];
        // At rest on the floor: its bottom on row 30's top edge, to rapier's slop.
        assert!((b.y + 4.0 - floor as f32).abs() < 0.05, "rests at y = {}", b.y);
        assert!(b.vy.abs() < 1e-3 && b.vx.abs() < 1e-3, "still moving: {b:?}");
        assert!(deepest < 0.3, "it sank {deepest} cells into the floor on the way");
    }

    #[test]
    fn a_box_falling_on_its_corner_settles_flat() {
        let (w, h, floor) = (40, 40, 30);
        let solid = floor_at(w, h, floor);
        let d = dynamics((w as f32, h as f32));
        let tilted = Body { angle: 0.4, ..Body::new(Shape::Box { half_width: 5.0, half_height: 2.0 }, 20.0, 20.0) };
        let mut bodies = [Body { density: Some(2.0), ..tilted }];
        fall(&mut bodies, &solid, &d, floor as f32, 600);
        let b = bodies[0];
        let flat = (b.angle / std::f32::consts::FRAC_PI_2).round() * std::f32::consts::FRAC_PI_2;
        assert!((b.angle - flat).abs() < 0.02, "it rests at angle {}", b.angle);
        // Flat on a long side (the half height 2 below the centre) or, turned, a short one.
        let below = if (flat / std::f32::consts::FRAC_PI_2).round() as i32 % 2 == 0 { 2.0 } else { 5.0 };
        assert!((b.y + below - floor as f32).abs() < 0.05, "rests at y = {}", b.y);
    }

    #[test]
    fn two_discs_meeting_head_on_stop_together_keeping_their_momentum() {
        // No walls near, no gravity: equal discs at 0.4 cells/step towards each other stop
        // (no bounce), and the total momentum stays 0; unequal ones move on together at the
        // velocity that keeps it (their masses with the added mass, module docs).
        let d = Dynamics { gravity: 0.0, ..dynamics((100.0, 100.0)) };
        let solid = Grid::filled(100, 100, 0u8);
        for (s1, s2) in [(1.0, 1.0), (1.0, 3.0)] {
            let mut bodies =
                [Body { vx: 0.4, ..disc(40.0, 50.0, 5.0, s1) }, Body { vx: -0.4, ..disc(60.0, 50.0, 5.0, s2) }];
            let m = |b: &Body| {
                let (mx, my, _) = dynamics::added_mass(b, d.turning_layer);
                dynamics::mass(b) + 0.5 * (mx + my)
            };
            let momentum = |b: &[Body]| m(&b[0]) * b[0].vx + m(&b[1]) * b[1].vx;
            let before = momentum(&bodies);
            fall(&mut bodies, &solid, &d, f32::INFINITY, 60);
            let after = momentum(&bodies);
            assert!((after - before).abs() < 1e-3 * m(&bodies[0]), "momentum {before} became {after} ({s1}, {s2})");
            assert!((bodies[0].vx - bodies[1].vx).abs() < 1e-3, "they part: {bodies:?}");
            let apart = bodies[1].x - bodies[0].x;
            assert!((apart - 10.0).abs() < 0.05, "centres {apart} apart, radii sum 10 ({s1}, {s2})");
        }
    }

    #[test]
    fn a_driven_body_pushes_a_free_one_and_is_not_pushed() {
        let d = Dynamics { gravity: 0.0, ..dynamics((100.0, 100.0)) };
        let solid = Grid::filled(100, 100, 0u8);
        let pusher = Body { vx: 0.3, ..Body::new(Shape::Box { half_width: 3.0, half_height: 8.0 }, 20.0, 50.0) };
        let mut bodies = [pusher, disc(40.0, 50.0, 4.0, 0.5)];
        fall(&mut bodies, &solid, &d, f32::INFINITY, 80);
        assert_eq!(bodies[0].vx, 0.3, "the driven body keeps its velocity");
        assert!((bodies[1].vx - 0.3).abs() < 0.01, "the free disc is pushed along at {}", bodies[1].vx);
        assert!(bodies[1].x - bodies[0].x >= 7.0 - 0.05, "the disc is inside the pusher: {bodies:?}");
    }

    #[test]
    fn nothing_is_resolved_before_the_contact_point_steps_clear_gives() {
        // A disc moving at the bound towards a wall column, a disc towards another and one
        // towards the grid's edge: the first step whose contacts change anything comes no
        // sooner than steps_clear said at the start (the CPU mirrors resolve every step, the
        // GPU models only at the points: they agree only if this holds).
        let (w, h) = (120, 200);
        let solid = Grid::from_fn(w, h, |_, c| (c >= 100) as u8);
        let d = Dynamics { gravity: 0.0, ..dynamics((w as f32, h as f32)) };
        let cases = [
            vec![Body { vx: 0.5, ..disc(60.0, 100.0, 5.0, 1.0) }],
            vec![Body { vx: 0.5, ..disc(20.0, 100.0, 5.0, 1.0) }, Body { vx: -0.5, ..disc(60.0, 100.0, 5.0, 1.0) }],
            vec![Body { vy: -0.5, ..disc(50.0, 40.0, 3.0, 1.0) }],
        ];
        for start in cases {
            let clear = steps_clear(&start, &solid, &d).expect("free bodies");
            assert!(clear > 5, "the case starts far from contact ({clear})");
            let mut bodies = start.clone();
            let mut first = None;
            for step in 1..=200u64 {
                for b in bodies.iter_mut() {
                    b.advance(d.dt);
                }
                if resolve(&mut bodies, &solid, &d) {
                    first = Some(step);
                    break;
                }
            }
            let first = first.expect("they meet within 200 steps");
            assert!(first >= clear, "a contact at step {first}, before the point at {clear}");
            // One body closing on a wall closes half as fast as the bound assumes.
            assert!(first <= 2 * clear + 2, "the point at {clear} is far too soon for {first}");
        }
    }

    #[test]
    fn walls_beyond_the_scan_count_as_scan_away_and_edges_bound_the_gap() {
        let d = dynamics((400.0, 400.0));
        let solid = Grid::filled(400, 400, 0u8);
        let bodies = [disc(200.0, 200.0, 10.0, 1.0)];
        assert_eq!(gap(0, &bodies, &solid, &d), SCAN);
        let near_edge = [disc(15.0, 200.0, 10.0, 1.0)];
        assert_eq!(gap(0, &near_edge, &solid, &d), 5.0);
        let mut walled = solid.clone();
        walled[(200, 230)] = 1; // its square starts 30 cells right of the centre
        assert_eq!(gap(0, &bodies, &walled, &d), 20.0);
    }
}
