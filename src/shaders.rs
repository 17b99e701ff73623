//! The WGSL sources, embedded at compile time and composed from `shaders/`.
//!
//! WGSL has no `#include`; a pass that uses shared pieces (`shaders/common/`, a model's
//! `params.wgsl`) is the concatenation of those files and its own, in that order.
//! [`ALL`] lists every composed module; `tests/shader_validation.rs` validates each with naga
//! and checks that every `.wgsl` file under `shaders/` is part of at least one.
//!
//! Each line is one pass: `NAME = "id": [the files it is composed of] => { its CPU twins; }`, the
//! twins as Rust paths the compiler checks (a twin renamed or removed breaks the build), or
//! `=> {} "why it has none"` ([`TWINS`]).

macro_rules! modules {
    ($($(#[$doc:meta])* $name:ident = $id:literal: [$($file:literal),+] => { $($twin:path;)* } $($why:literal)?;)+) => {
        $(
            $(#[$doc])*
            pub const $name: &str =
                concat!($(include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/shaders/", $file)), "\n"),+);
        )+
        /// Every composed module: `(name, source, the files under shaders/ it is made of)`.
        pub const ALL: &[(&str, &str, &[&str])] = &[$(($id, $name, &[$($file),+])),+];
        /// Every composed module's CPU twins: `(name, the twins' Rust paths, why it has none)`.
        pub const TWINS: &[(&str, &[&str], &str)] = &[$(($id, &[$(stringify!($twin)),*], concat!("" $(, $why)?))),+];
        /// Names every CPU twin of the table, so that a twin renamed or removed breaks the
        /// build, not a comment. Invoked once, at the crate's root (`lib.rs`), which stands above
        /// the models the twins live in: this module, below them, names none of them itself.
        macro_rules! check_twins {
            () => {
                const _: () = { $($(let _ = $twin;)*)+ };
            };
        }
    };
}

modules! {
    /// Staggered smoke: semi-Lagrangian advection of the face velocities.
    SMOKE_STAGGERED_ADVECT_VELOCITY = "smoke/staggered_advect_velocity": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/faces.wgsl", "smoke/edges.wgsl", "smoke/edge_rules.wgsl", "smoke/staggered_sample.wgsl", "smoke/staggered_advect_velocity.wgsl"] => { crate::smoke::staggered::cpu::advect_velocity; };
    /// Staggered smoke: MacCormack's correction of the face velocities.
    SMOKE_STAGGERED_MACCORMACK_VELOCITY = "smoke/staggered_maccormack_velocity": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/faces.wgsl", "smoke/edges.wgsl", "smoke/edge_rules.wgsl", "smoke/staggered_sample.wgsl", "smoke/staggered_maccormack_velocity.wgsl"] => { crate::smoke::staggered::cpu::advect_velocity; };
    /// Staggered smoke: MacCormack's correction of temperature, density and the dye.
    SMOKE_STAGGERED_MACCORMACK_SCALARS = "smoke/staggered_maccormack_scalars": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/staggered_sample.wgsl", "smoke/staggered_maccormack_scalars.wgsl"] => { crate::smoke::staggered::cpu::advect_scalars; };
    /// Staggered smoke: the vorticity at cell centres.
    SMOKE_STAGGERED_VORTICITY = "smoke/staggered_vorticity": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/faces.wgsl", "smoke/staggered_vorticity.wgsl"] => { crate::smoke::staggered::cpu::vorticity; };
    /// Staggered smoke: vorticity confinement's force at cell centres.
    SMOKE_STAGGERED_CONFINEMENT = "smoke/staggered_confinement": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/faces.wgsl", "smoke/staggered_confinement.wgsl"] => { crate::smoke::staggered::cpu::confinement_force; };
    /// Staggered smoke: one Jacobi iteration of the implicit viscous diffusion.
    SMOKE_STAGGERED_VISCOSITY = "smoke/staggered_viscosity": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/faces.wgsl", "smoke/edges.wgsl", "smoke/staggered_viscosity.wgsl"] => { crate::smoke::staggered::cpu::viscosity_iteration; };
    /// Staggered smoke: semi-Lagrangian advection of temperature, density and the dye.
    SMOKE_STAGGERED_ADVECT_SCALARS = "smoke/staggered_advect_scalars": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/staggered_sample.wgsl", "smoke/staggered_advect_scalars.wgsl"] => { crate::smoke::staggered::cpu::advect_scalars; };
    /// Staggered smoke: the forces on the faces (confinement's, buoyancy).
    SMOKE_STAGGERED_FORCES = "smoke/staggered_forces": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/faces.wgsl", "smoke/staggered_forces.wgsl"] => { crate::smoke::staggered::cpu::confinement; crate::smoke::staggered::cpu::buoyancy; };
    /// Staggered smoke: impulse on cells and faces.
    SMOKE_STAGGERED_IMPULSE = "smoke/staggered_impulse": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/faces.wgsl", "smoke/splat.wgsl", "smoke/staggered_impulse.wgsl"] => { crate::smoke::staggered::cpu::impulse; };
    /// Staggered smoke: the impulse's dye, in place over the impulse's rectangle.
    SMOKE_STAGGERED_IMPULSE_DYE = "smoke/staggered_impulse_dye": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/splat.wgsl", "smoke/staggered_impulse_dye.wgsl"] => { crate::smoke::staggered::cpu::impulse; };
    /// Staggered smoke: the impulse rectangle's dye copied aside for the impulse's dye pass.
    SMOKE_STAGGERED_IMPULSE_DYE_STASH = "smoke/staggered_impulse_dye_stash": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/splat.wgsl", "smoke/staggered_impulse_dye_stash.wgsl"] => {} "changes no field: copies the splat rectangle's dye to the other ping-pong texture (tests/smoke_gpu_vs_cpu.rs covers the splats)";
    /// Staggered smoke: the divergence and the pressure solve's right-hand side h^2 div.
    SMOKE_STAGGERED_DIVERGENCE = "smoke/staggered_divergence": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/staggered_divergence.wgsl"] => { crate::smoke::staggered::divergence; };
    /// Staggered smoke: subtract the pressure gradient on open faces and outflow edges' faces.
    SMOKE_STAGGERED_GRADIENT = "smoke/staggered_gradient": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/faces.wgsl", "smoke/edges.wgsl", "smoke/staggered_held.wgsl", "smoke/staggered_gradient.wgsl"] => { crate::smoke::staggered::subtract_gradient; };
    /// Staggered smoke: the divergence, the right-hand side and the starting pressure packed for the Jacobi iterations.
    SMOKE_STAGGERED_DIVERGENCE_PACKED = "smoke/staggered_divergence_packed": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/packed_start.wgsl", "smoke/staggered_divergence_packed.wgsl"] => { crate::smoke::staggered::divergence; crate::gpu::packed::pack; };
    /// Staggered smoke: the gradient subtraction from the packed Jacobi iterations' pressure, unpacking it.
    SMOKE_STAGGERED_GRADIENT_PACKED = "smoke/staggered_gradient_packed": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/faces.wgsl", "smoke/edges.wgsl", "smoke/staggered_held.wgsl", "smoke/staggered_gradient_packed.wgsl"] => { crate::smoke::staggered::subtract_gradient; crate::gpu::packed::unpack; };
    /// Smoke: each body advances one step.
    SMOKE_BODIES_MOVE = "smoke/bodies_move": ["smoke/params.wgsl", "common/body.wgsl", "smoke/bodies_move.wgsl"] => { crate::body::Body::advance; };
    /// Staggered smoke: the bodies rasterised into the solid bits.
    SMOKE_STAGGERED_BODIES = "smoke/staggered_bodies": ["common/grid.wgsl", "smoke/params.wgsl", "common/body.wgsl", "smoke/staggered_bodies.wgsl"] => { crate::smoke::staggered::bodies::rasterise; };
    /// Staggered smoke: the closed faces beside the bodies at their velocity.
    SMOKE_STAGGERED_BODY_FACES = "smoke/staggered_body_faces": ["common/grid.wgsl", "smoke/params.wgsl", "common/body.wgsl", "smoke/staggered_body_faces.wgsl"] => { crate::smoke::staggered::bodies::rasterise; };
    /// Staggered smoke: the fluid's force and torque on each body, into the force log.
    SMOKE_STAGGERED_BODY_FORCES = "smoke/staggered_body_forces": ["common/grid.wgsl", "smoke/params.wgsl", "common/body.wgsl", "common/force_log.wgsl", "smoke/staggered_body_forces.wgsl"] => { crate::smoke::staggered::bodies::forces; };
    /// Free bodies: each one's velocity under the fluid's force just logged and gravity.
    BODY_DYNAMICS = "common/body_dynamics": ["common/body.wgsl", "common/force_log.wgsl", "common/body_dynamics.wgsl"] => { crate::body::dynamics::advance; };
    /// The force log's head counts a step.
    FORCE_LOG_HEAD = "common/force_log_head": ["common/force_log.wgsl", "common/force_log_head.wgsl"] => { crate::body::forces::ForceLog::encode_step; };
    /// Staggered smoke: the pressure solve's walls from the rasterised solid bits.
    SMOKE_STAGGERED_SOLVER_WALLS = "smoke/staggered_solver_walls": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/edges.wgsl", "smoke/staggered_solver_walls.wgsl"] => { crate::solver::packed::packed_walls; crate::solver::wall_bits; };
    /// Staggered smoke: cell-centre velocity and the divergence after the projection.
    SMOKE_STAGGERED_CENTRES = "smoke/staggered_centres": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/staggered_centres.wgsl"] => { crate::smoke::staggered::cpu::centres; };
    /// A packed field back to one cell a texel.
    UNPACK = "common/unpack": ["common/unpack.wgsl"] => { crate::gpu::packed::unpack; };
    /// Any model: the state hash of a float texture of its state, a row's sums an invocation.
    HASH_FLOAT = "common/hash_float": ["common/hash_lanes.wgsl", "common/hash_part.wgsl", "common/hash_float.wgsl"] => { crate::gpu::state_hash::lanes; };
    /// Any model: the state hash of an unsigned integer texture of its state (walls, sources, bodies).
    HASH_UINT = "common/hash_uint": ["common/hash_lanes.wgsl", "common/hash_part.wgsl", "common/hash_uint.wgsl"] => { crate::gpu::state_hash::lanes; };
    /// The roofline's texture copy (`eddy bench`): one rgba32float texel read and written.
    COPY = "common/copy": ["common/copy.wgsl"] => {} "the bench's roofline copy: computes nothing";
    /// Packed Jacobi: the pressure and the right-hand side into four cells a texel.
    SOLVER_PACK = "solver/pack": ["solver/pack.wgsl"] => { crate::gpu::packed::pack; };
    /// Packed Jacobi: one iteration, four cells an invocation.
    SOLVER_JACOBI_PACKED = "solver/jacobi_packed": ["common/packed.wgsl", "solver/jacobi_iterate.wgsl", "solver/jacobi_packed.wgsl"] => { crate::solver::jacobi; };
    /// Two Jacobi iterations a dispatch, four cells a texel, each invocation a column of texels.
    SOLVER_JACOBI_PAIR = "solver/jacobi_pair": ["common/packed.wgsl", "solver/jacobi_iterate.wgsl", "solver/jacobi_rows.wgsl", "solver/jacobi_pair.wgsl"] => { crate::solver::jacobi; };
    /// Four Jacobi iterations a dispatch (temporal blocking in registers), four cells a texel,
    /// each invocation a column of texels.
    SOLVER_JACOBI_QUAD = "solver/jacobi_quad": ["common/packed.wgsl", "solver/jacobi_iterate.wgsl", "solver/jacobi_rows.wgsl", "solver/quad_walk.wgsl", "solver/jacobi_quad.wgsl"] => { crate::solver::jacobi; };
    /// Pressure solve statistics: squared residual and right-hand side per row.
    SOLVER_STATS = "solver/stats": ["common/grid.wgsl", "solver/level.wgsl", "solver/stats.wgsl", "common/reduce.wgsl"] => { crate::solver::residual; crate::solver::norm; };
    /// Multigrid: every coarse level's passes in one workgroup.
    SOLVER_COARSE = "solver/coarse": ["common/grid.wgsl", "solver/level.wgsl", "solver/coarse.wgsl"] => { crate::solver::multigrid::Multigrid::cycle; };
    /// Multigrid: the next level's walls from this one's, on the GPU (moving bodies).
    SOLVER_COARSEN_WALLS = "solver/coarsen_walls": ["common/grid.wgsl", "solver/level.wgsl", "solver/coarsen_walls.wgsl"] => { crate::solver::multigrid::coarsen; };
    /// Multigrid, a level packed four cells a texel: two red-black sweeps a dispatch (the Jacobi
    /// quad's walk).
    SOLVER_SMOOTH_QUAD = "solver/smooth_quad": ["common/grid.wgsl", "common/packed.wgsl", "solver/level.wgsl", "solver/jacobi_rows.wgsl", "solver/quad_walk.wgsl", "solver/smooth_quad.wgsl"] => { crate::solver::multigrid::smooth; };
    /// Multigrid: a packed level's residual summed onto the coarse kernel's first level.
    SOLVER_RESTRICT_PACKED = "solver/restrict_packed": ["common/grid.wgsl", "solver/level.wgsl", "solver/restrict_cells.wgsl", "solver/restrict_packed.wgsl"] => { crate::solver::multigrid::restrict; };
    /// Multigrid: a packed level's residual summed onto the packed level below.
    SOLVER_RESTRICT_TO_PACKED = "solver/restrict_to_packed": ["common/grid.wgsl", "solver/level.wgsl", "solver/restrict_cells.wgsl", "solver/restrict_to_packed.wgsl"] => { crate::solver::multigrid::restrict; };
    /// Multigrid: the coarse kernel's first level's correction added to the packed level above.
    SOLVER_PROLONG_PACKED = "solver/prolong_packed": ["common/grid.wgsl", "common/packed.wgsl", "solver/level.wgsl", "solver/prolong_cells.wgsl", "solver/prolong_packed.wgsl"] => { crate::solver::multigrid::prolong; };
    /// Multigrid: a packed level's correction added to the packed level above.
    SOLVER_PROLONG_FROM_PACKED = "solver/prolong_from_packed": ["common/grid.wgsl", "common/packed.wgsl", "solver/level.wgsl", "solver/prolong_cells.wgsl", "solver/prolong_from_packed.wgsl"] => { crate::solver::multigrid::prolong; };
    /// Multigrid: a level's walls into the packed layout (moving bodies).
    SOLVER_PACK_WALLS = "solver/pack_walls": ["solver/pack_walls.wgsl"] => { crate::gpu::packed::pack_bits; };
    /// Water step: each cell's outflows and the gather of its inflows, four cells a texel.
    WATER_STEP = "water/step": ["water/params.wgsl", "water/rules.wgsl", "water/walk.wgsl", "water/step.wgsl"] => { crate::water::cpu::simulate_compression; };
    /// Fixed-point water's step: the same walk, the rules in integer units.
    WATER_STEP_FIXED = "water/step_fixed": ["water/params.wgsl", "water/rules_fixed.wgsl", "water/walk.wgsl", "water/step.wgsl"] => { crate::water::fixed::compression_step; };
    /// Water: the step over the awake tiles alone (water that sleeps), listing those awake for the next.
    WATER_STEP_TILES = "water/step_tiles": ["water/params.wgsl", "water/rules.wgsl", "water/walk.wgsl", "water/tile_grid.wgsl", "water/list_once.wgsl", "water/step_tiles.wgsl"] => { crate::water::tiles::compression_step; crate::water::tiles::Tiles::wake_around_changes; };
    /// Fixed-point water: the step over the awake tiles alone.
    WATER_STEP_TILES_FIXED = "water/step_tiles_fixed": ["water/params.wgsl", "water/rules_fixed.wgsl", "water/walk.wgsl", "water/tile_grid.wgsl", "water/list_once.wgsl", "water/step_tiles.wgsl"] => { crate::water::tiles::compression_step; crate::water::fixed::compression_step; };
    /// Water: the tiles around the bodies, into the list of the step at hand (water that sleeps, with bodies).
    WATER_WAKE_BODIES = "water/wake_bodies": ["common/body.wgsl", "water/body_region.wgsl", "water/tile_grid.wgsl", "water/list_once.wgsl", "water/wake_bodies.wgsl"] => { crate::water::tiles::Tiles::wake_cells; };
    /// Water: the tiles edits asked for, into the list of a run's first step.
    WATER_WAKE_REQUESTS = "water/wake_requests": ["water/tile_grid.wgsl", "water/list_once.wgsl", "water/wake_requests.wgsl"] => { crate::water::tiles::Tiles::wake_cells; };
    /// Water in pages: the tiles of a page's edge rows the pages beside it woke, into its step's list.
    WATER_WAKE_EDGES = "water/wake_edges": ["water/tile_grid.wgsl", "water/list_once.wgsl", "water/wake_edges.wgsl"] => { crate::water::tiles::Tiles::wake_cells; };
    /// Water: the state hash, a row's sums an invocation.
    WATER_HASH = "water/hash": ["water/params.wgsl", "common/hash_lanes.wgsl", "water/hash.wgsl"] => { crate::water::hash::state_hash; };
    /// Water: the state hash of a packed world, a row's sums an invocation.
    WATER_HASH_PACKED = "water/hash_packed": ["water/params.wgsl", "water/page.wgsl", "common/hash_lanes.wgsl", "water/hash_packed.wgsl"] => { crate::water::hash::state_hash; };
    /// Water: the list of the tiles a run of steps over the awake tiles changed.
    WATER_CHANGED_TILES = "water/changed_tiles": ["water/tile_grid.wgsl", "water/changed_tiles.wgsl"] => {} "lists what the steps over the awake tiles noted: tests/water_tiles.rs holds the unpacked masses to the CPU's";
    /// Water: the unpack of the tiles a run changed.
    WATER_UNPACK_TILES = "water/unpack_tiles": ["water/unpack_tiles.wgsl"] => { crate::gpu::packed::unpack; };
    /// Water: the mass into the step's packed layout, solid cells' masses negated.
    WATER_PACK = "water/pack": ["water/params.wgsl", "water/pack.wgsl"] => {} "a layout (solid cells as negated masses), held through the step: tests/water_gpu_vs_cpu.rs packs, steps and unpacks against the step's twin";
    /// Water statistics: per-row sums, minima and maxima.
    WATER_STATS = "water/stats": ["common/grid.wgsl", "water/params.wgsl", "water/quantities.wgsl", "water/stats.wgsl", "common/reduce.wgsl"] => { crate::water::WaterStats::of; };
    /// Water statistics of a packed world: per-row sums, minima and maxima.
    WATER_STATS_PACKED = "water/stats_packed": ["water/params.wgsl", "water/page.wgsl", "water/quantities.wgsl", "water/stats_packed.wgsl", "common/reduce.wgsl"] => { crate::water::WaterStats::of; };
    /// Water bodies: each moves one step, the table as it was kept.
    WATER_BODIES_MOVE = "water/bodies_move": ["common/body.wgsl", "water/body_region.wgsl", "water/bodies_move.wgsl"] => { crate::body::Body::advance; };
    /// Water bodies: the cells they cover made solid, the water of those newly covered pushed out.
    WATER_BODIES = "water/bodies": ["water/params.wgsl", "common/body.wgsl", "water/body_region.wgsl", "water/bodies.wgsl"] => { crate::water::bodies::displace; };
    /// Water bodies: the displacement's regions copied back.
    WATER_BODIES_COPY = "water/bodies_copy": ["common/body.wgsl", "water/body_region.wgsl", "water/bodies_copy.wgsl"] => {} "a copy of the displacement's output, held through it: tests/water_bodies.rs compares the GPU's steps with bodies to the CPU reference";
    /// Water bodies: Archimedes' force from the levels beside each body, into the force log.
    WATER_BODY_FORCES = "water/body_forces": ["water/params.wgsl", "common/body.wgsl", "common/force_log.wgsl", "water/body_region.wgsl", "water/body_forces.wgsl"] => { crate::water::bodies::forces; };
    /// Water brush: pour / erase in a disc.
    WATER_BRUSH = "water/brush": ["water/params.wgsl", "water/brush_rule.wgsl", "water/brush.wgsl"] => { crate::water::cpu::brush; };
    /// Water: a packed world's brush and wall edits, over a box of texels.
    WATER_EDIT_PACKED = "water/edit_packed": ["water/params.wgsl", "water/brush_rule.wgsl", "water/edit_packed.wgsl"] => { crate::water::cpu::brush; crate::water::packed_world::pack; };
    /// Gas pass 0 with the linear reconstruction: MUSCL-Hancock's limited slopes and half-step states.
    GAS_PREDICT = "gas/predict": ["common/grid.wgsl", "gas/params.wgsl", "common/body.wgsl", "gas/reconstruct.wgsl", "gas/walls.wgsl", "gas/predict.wgsl"] => { crate::gas::cpu::predict; };
    /// Gas pass 1: face fluxes.
    GAS_FACES = "gas/faces": ["common/grid.wgsl", "gas/params.wgsl", "gas/faces_constant.wgsl", "gas/faces.wgsl"] => { crate::gas::cpu::faces; };
    /// Gas pass 1 with the linear reconstruction (the predicted face states).
    GAS_FACES_LINEAR = "gas/faces_linear": ["common/grid.wgsl", "gas/params.wgsl", "gas/reconstruct.wgsl", "gas/predicted.wgsl", "gas/faces_linear.wgsl", "gas/faces.wgsl"] => { crate::gas::cpu::faces_predicted; };
    /// Gas pass 2: outflow limiter.
    GAS_LIMIT = "gas/limit": ["common/grid.wgsl", "gas/params.wgsl", "common/body.wgsl", "gas/walls.wgsl", "gas/ghost_constant.wgsl", "gas/ghost.wgsl", "gas/limit.wgsl"] => { crate::gas::cpu::limit; };
    /// Gas pass 2 with the linear reconstruction (its faces into walls read the predicted states).
    GAS_LIMIT_LINEAR = "gas/limit_linear": ["common/grid.wgsl", "gas/params.wgsl", "common/body.wgsl", "gas/walls.wgsl", "gas/reconstruct.wgsl", "gas/predicted.wgsl", "gas/ghost_linear.wgsl", "gas/ghost.wgsl", "gas/limit_linear.wgsl", "gas/limit.wgsl"] => { crate::gas::cpu::limit; };
    /// Gas pass 3: gather, walls, damping, drain, sources.
    GAS_APPLY = "gas/apply": ["common/grid.wgsl", "gas/params.wgsl", "common/body.wgsl", "gas/walls.wgsl", "gas/ghost_constant.wgsl", "gas/ghost.wgsl", "gas/apply.wgsl"] => { crate::gas::cpu::apply; };
    /// Gas pass 3 with the linear reconstruction.
    GAS_APPLY_LINEAR = "gas/apply_linear": ["common/grid.wgsl", "gas/params.wgsl", "common/body.wgsl", "gas/walls.wgsl", "gas/reconstruct.wgsl", "gas/predicted.wgsl", "gas/ghost_linear.wgsl", "gas/ghost.wgsl", "gas/apply_linear.wgsl", "gas/apply.wgsl"] => { crate::gas::cpu::apply; };
    /// Gas bodies: each moves one step.
    GAS_BODIES_MOVE = "gas/bodies_move": ["gas/params.wgsl", "common/body.wgsl", "gas/bodies_move.wgsl"] => { crate::body::Body::advance; };
    /// Gas bodies: rasterised into the solid bits over the walls'.
    GAS_BODIES = "gas/bodies": ["common/grid.wgsl", "gas/params.wgsl", "common/body.wgsl", "gas/bodies.wgsl"] => { crate::gas::bodies::rasterise; };
    /// Gas bodies: the gas of the cells whose coverage changed handed over.
    GAS_HANDOFF = "gas/handoff": ["common/grid.wgsl", "gas/params.wgsl", "gas/handoff.wgsl"] => { crate::gas::bodies::handoff; };
    /// Gas bodies: the gas's push on each over the step (apply's sums) into the force log.
    GAS_BODY_FORCES = "gas/body_forces": ["gas/params.wgsl", "common/force_log.wgsl", "gas/body_forces.wgsl"] => { crate::gas::bodies::ForceSums::forces; };
    /// Gas statistics: per-row sums, minima and maxima.
    GAS_STATS = "gas/stats": ["common/grid.wgsl", "gas/params.wgsl", "gas/stats.wgsl", "common/reduce.wgsl"] => { crate::gas::GasStats::of; };
    /// Gas brush: add density and momentum in a disc.
    GAS_BRUSH = "gas/brush": ["gas/brush.wgsl"] => { crate::gas::cpu::brush; };
    /// Smoke pass 1: semi-Lagrangian advection of velocity, temperature, density, then buoyancy
    /// and the scene sources' impulse.
    SMOKE_ADVECT = "smoke/advect": ["smoke/params.wgsl", "smoke/splat.wgsl", "smoke/buoyancy.wgsl", "smoke/advect.wgsl"] => { crate::smoke::cpu::advect; crate::smoke::cpu::buoyancy; crate::smoke::cpu::impulse; };
    /// Smoke: the viewer's splats (an impulse over a disc).
    SMOKE_IMPULSE = "smoke/impulse": ["smoke/params.wgsl", "smoke/splat.wgsl", "smoke/impulse.wgsl"] => { crate::smoke::cpu::impulse; };
    /// Smoke pass 2: divergence (and the pressure cleared).
    SMOKE_DIVERGENCE = "smoke/divergence": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/projection_cells.wgsl", "smoke/divergence.wgsl"] => { crate::smoke::cpu::divergence; };
    /// Smoke pass 4: subtract the pressure gradient, free slip at solids.
    SMOKE_GRADIENT = "smoke/gradient": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/projection_cells.wgsl", "smoke/gradient.wgsl"] => { crate::smoke::cpu::gradient; };
    /// Collocated smoke: the divergence, packing the Jacobi iterations' right-hand side and starting pressure.
    SMOKE_DIVERGENCE_PACKED = "smoke/divergence_packed": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/projection_cells.wgsl", "smoke/packed_start.wgsl", "smoke/divergence_packed.wgsl"] => { crate::smoke::cpu::divergence; crate::gpu::packed::pack; };
    /// Collocated smoke: the gradient subtraction from the packed Jacobi iterations' pressure, unpacking it.
    SMOKE_GRADIENT_PACKED = "smoke/gradient_packed": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/projection_cells.wgsl", "smoke/gradient_packed.wgsl"] => { crate::smoke::cpu::gradient; crate::gpu::packed::unpack; };
    /// Smoke statistics: per-row sums, minima and maxima, divergence after projection.
    SMOKE_STATS = "smoke/stats": ["common/grid.wgsl", "smoke/params.wgsl", "smoke/stats.wgsl", "common/reduce.wgsl"] => { crate::smoke::SmokeStats::of; };
    /// Render: water mass to colour (full-screen triangle + fragment colour map).
    RENDER_WATER = "render/water": ["render/fullscreen.wgsl", "render/water.wgsl"] => {} "a renderer: tests/model.rs holds its pixels to the colour map";
    /// Render: gas density or velocity, resampled at cell corners.
    RENDER_GAS = "render/gas": ["render/fullscreen.wgsl", "render/gas.wgsl"] => {} "a renderer: tests/model.rs holds its pixels to the colour map and the direction wheel";
    /// Render: a smoke field (density, temperature, speed, pressure or divergence).
    RENDER_SMOKE = "render/smoke": ["render/fullscreen.wgsl", "render/smoke.wgsl"] => {} "a renderer: tests/model.rs holds its pixels to the colour map";
    /// Smoke's styled look: the dye lit, shaded, self-shadowed, with a glow.
    RENDER_SMOKE_LIT = "render/smoke_lit": ["render/fullscreen.wgsl", "render/smoke_lit.wgsl"] => { crate::render::smoke_lit::shade; };
    /// Water's styled look: the surface, its depth tint and foam.
    RENDER_WATER_SURFACE = "render/water_surface": ["render/fullscreen.wgsl", "render/water_surface.wgsl"] => { crate::render::water_surface::shade; };
    /// Water's styled look: the foam kept between draws.
    RENDER_WATER_FOAM = "render/water_foam": ["render/water_foam.wgsl"] => { crate::render::water_surface::foam; };
    /// Gas's styled look: a numerical schlieren image of the density.
    RENDER_GAS_SCHLIEREN = "render/gas_schlieren": ["render/fullscreen.wgsl", "render/gas_schlieren.wgsl"] => { crate::render::gas_schlieren::shade; };
    /// Render: any scalar field by a colour map over a range ([`crate::render::FieldRenderer`]).
    RENDER_FIELD = "render/field": ["render/fullscreen.wgsl", "render/field.wgsl"] => {} "a renderer: examples/custom_model.rs holds its pixels to the colour map";
    /// Render: the colour scale of a signed smoke field (divergence, vorticity), its largest
    /// magnitude rounded up, written for the draw's uniform.
    RENDER_FIELD_SCALE = "render/field_scale": ["render/field_scale.wgsl"] => { crate::render::field_scale; };
}

/// The reduction's half of a statistics pass (`shaders/common/reduce.wgsl`), for a model written
/// outside eddy: its own per-cell half comes first, this after, and [`crate::gpu::Reduction`]
/// runs the pair. The per-cell half declares:
/// - `fn grid_size() -> vec2<u32>`, the grid's `(W, H)`;
/// - `fn cell_quantities(p: vec2<i32>) -> Quantities`, what cell `p` contributes: `q.sum` and
///   `q.more` (eight sums), `q.lo` (two minima), `q.hi` (two maxima). `var q: Quantities` starts
///   all 0; an unused minimum or maximum holds `BIG` or `-BIG`;
/// - its bindings, in group 0 from binding 1 up (binding 0 is the rows' results).
///
/// It may call `non_finite(x)` (1 for NaN and infinities, else 0) and use `BIG` (3e38), both
/// declared here. [`crate::gpu::Totals`] gives back the same slots: `sum`, `more`, `min(k)`,
/// `max(k)`, `count(k)`. `examples/custom_model.rs` fills the first two sums and one minimum
/// and maximum.
pub const REDUCE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/shaders/common/reduce.wgsl"));
