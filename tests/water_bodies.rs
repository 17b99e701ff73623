//! Bodies in the water (`src/water/bodies.rs`): the GPU's passes against the CPU reference, and
//! both against physics the model did not write: Archimedes' principle (a box of density ratio
//! `s` floats with the fraction `s` of its height under the surface) and the conservation of
//! the water's mass while bodies push it about.

mod common;

use eddy_fluid::GpuModel;
use eddy_fluid::Simulation;
use eddy_fluid::body::{Body, Shape};
use eddy_fluid::grid::Grid;
use eddy_fluid::water::{Boundary, Brush, CpuWater, GpuWater, WaterParams, WaterState, bodies};

/// A basin 64 x 48 with water 24 cells deep (before the automaton compresses it) and a box 16
/// wide and 8 tall of density ratio `s` dropped onto it from 2 cells above.
fn basin(s: f32) -> WaterState {
    let (w, h) = (64, 48);
    let box_ = Body { density: Some(s), ..Body::new(Shape::Box { half_width: 8.0, half_height: 4.0 }, 32.0, 18.0) };
    WaterState {
        mass: Grid::from_fn(w, h, |r, _| if r >= 24 { 1.0 } else { 0.0 }),
        solid: Grid::filled(w, h, 0),
        bodies: vec![box_],
    }
}

/// The first body's draft in `state`, cells: how deep its bottom (a box 8 tall, turned by a
/// small angle: its centre's depth plus half its height) lies under the water's level in column
/// 2, well clear of it.
fn draft(state: &WaterState, p: &WaterParams) -> f32 {
    let b = state.bodies[0];
    let mask = bodies::rasterise(&state.solid, &state.bodies);
    let level = bodies::column_level(&state.mass, &mask, 2, 47, p).unwrap();
    b.y + 4.0 * b.angle.cos() - level
}

fn total(mass: &Grid<f32>) -> f64 {
    mass.as_slice().iter().map(|&m| m as f64).sum()
}

/// Archimedes: after 1500 steps (about ten periods of the box's bobbing, which the water's
/// damping stills within a few), the box's draft, its bottom's depth under the level of
/// the water well clear of it, averaged over the next 500 steps, is `s` times its height to
/// within a cell (the tolerance: the surface is read from the automaton's masses, whose
/// waves and the box's remaining bob move it by a few tenths of a cell).
#[test]
fn a_box_floats_with_its_density_ratio_of_it_under_water() {
    let p = WaterParams::default();
    let mut table = Vec::new();
    for s in [0.25f32, 0.5, 0.75] {
        let mut sim = CpuWater::new(basin(s), p).unwrap();
        sim.step(1500).unwrap();
        let mut drafts = Vec::new();
        for _ in 0..50 {
            sim.step(10).unwrap();
            drafts.push(draft(sim.state(), &p));
            let angle = sim.state().bodies[0].angle;
            assert!(angle.abs() < 0.2, "s = {s}: the box tipped to {angle} rad");
        }
        let draft = drafts.iter().sum::<f32>() / drafts.len() as f32;
        table.push((s, draft));
        assert!((draft - 8.0 * s).abs() < 1.0, "s = {s}: draft {draft:.2} cells, expected {:.2}", 8.0 * s);
    }
    eprintln!("density ratio, draft / height: {table:?}");
}

/// Archimedes on the GPU, as on the CPU reference above: the same basins, the same steps, the
/// draft read from states read back (50 reads of 10 steps each after 1500).
#[test]
fn on_the_gpu_a_box_floats_with_its_density_ratio_of_it_under_water() {
    let g = common::gpu();
    let p = WaterParams::default();
    for s in [0.25f32, 0.5, 0.75] {
        let mut sim = GpuWater::new(&g.device, &g.queue, &basin(s), p).unwrap();
        sim.step(1500).unwrap();
        let mut drafts = Vec::new();
        for _ in 0..50 {
            sim.step(10).unwrap();
            drafts.push(draft(&sim.read_state().unwrap(), &p));
        }
        let draft = drafts.iter().sum::<f32>() / drafts.len() as f32;
        assert!((draft - 8.0 * s).abs() < 1.0, "s = {s}: draft {draft:.2} cells, expected {:.2}", 8.0 * s);
    }
    g.check().unwrap();
}

/// A box heavier than water sinks to the floor; one very light (s = 0.001, the lightest a free
/// body may be) stays on top, its bottom on average within a cell of the surface, without
/// flying off or diving.
#[test]
fn a_heavy_box_sinks_and_a_very_light_one_rides_on_top() {
    let p = WaterParams::default();
    let mut heavy = CpuWater::new(basin(2.0), p).unwrap();
    heavy.step(800).unwrap();
    let b = heavy.state().bodies[0];
    assert!(b.y + b.reach() >= 47.0, "a box twice as dense as water rests at y = {}", b.y);

    let mut light = CpuWater::new(basin(0.001), p).unwrap();
    light.step(400).unwrap();
    let mut drafts = Vec::new();
    for _ in 0..40 {
        light.step(10).unwrap();
        drafts.push(draft(light.state(), &p));
    }
    // It rides the automaton's waves, which lift it by up to a cell or two against the far
    // column's level; on average it sits on the surface.
    let mean = drafts.iter().sum::<f32>() / drafts.len() as f32;
    assert!(mean.abs() < 1.0, "the light box's mean draft {mean:.2} cells: {drafts:?}");
    assert!(drafts.iter().all(|d| d.abs() < 2.5), "the light box left the surface: {drafts:?}");
}

/// Mass: bodies that sink, float, and are driven through the water push it about and hold none
/// back; the total (counting what a body covers) changes only by the rounding of the sums, a
/// relative 1e-6 over 1000 steps, with the wall boundary (nothing leaves the grid).
#[test]
fn bodies_push_water_about_and_the_mass_is_kept() {
    let mut state = basin(0.5);
    state.bodies.push(Body { density: Some(3.0), ..Body::new(Shape::Circle { radius: 4.0 }, 12.0, 10.0) });
    state.bodies.push(Body {
        vx: 0.03,
        spin: 0.02,
        ..Body::new(Shape::Box { half_width: 1.5, half_height: 6.0 }, 8.0, 36.0)
    });
    let start = total(&state.mass);
    let p = WaterParams { boundary: Boundary::Wall, ..WaterParams::default() };
    let mut sim = CpuWater::new(state, p).unwrap();
    assert_eq!(total(&sim.state().mass), start, "placing the bodies moved water, and kept it");
    for _ in 0..10 {
        sim.step(100).unwrap();
        let now = total(&sim.state().mass);
        assert!(((now - start) / start).abs() < 1e-6, "mass {now} from {start}");
    }
    // The driven paddle turned and moved 0.03 cells a step.
    assert!((sim.state().bodies[2].x - 38.0).abs() < 1e-3, "{:?}", sim.state().bodies[2]);
}

/// A 70 x 40 basin half full, with a free box about to land on the water, a free disc under it,
/// and a driven plate sweeping through it and turning.
fn busy_basin() -> WaterState {
    let (w, h) = (70, 40);
    let mut state = WaterState {
        mass: Grid::from_fn(w, h, |r, c| {
            if r >= 20 {
                1.0 + 0.02 * (r - 20) as f32
            } else if r == 19 {
                0.1 * (c % 7) as f32
            } else {
                0.0
            }
        }),
        solid: Grid::from_fn(w, h, |r, c| (r >= 36 && c < 6) as u8),
        bodies: Vec::new(),
    };
    for (m, &s) in state.mass.as_mut_slice().iter_mut().zip(state.solid.as_slice()) {
        *m *= f32::from(1 - s); // the walls hold none
    }
    state.bodies.push(Body {
        density: Some(0.5),
        vy: 0.2,
        ..Body::new(Shape::Box { half_width: 6.0, half_height: 3.0 }, 35.0, 15.0)
    });
    state.bodies.push(Body { density: Some(0.8), vx: -0.1, ..Body::new(Shape::Circle { radius: 4.3 }, 52.0, 28.0) });
    state.bodies.push(Body {
        vx: 0.25,
        spin: 0.03,
        angle: 0.4,
        ..Body::new(Shape::Box { half_width: 5.0, half_height: 1.0 }, 14.0, 26.0)
    });
    state
}

/// The bodies of the GPU and the CPU agree, where they are and how they move, within `tol` (cells
/// and cells/step; radians and radians/step).
fn assert_bodies_close(name: &str, gpu: &[Body], cpu: &[Body], tol: f32) {
    assert_eq!(gpu.len(), cpu.len(), "{name}");
    for (g, c) in gpu.iter().zip(cpu) {
        for (a, b) in [(g.x, c.x), (g.y, c.y), (g.angle, c.angle), (g.vx, c.vx), (g.vy, c.vy), (g.spin, c.spin)] {
            assert!((a - b).abs() <= tol, "{name}: the GPU's {g:?}, the CPU's {c:?}");
        }
    }
}

/// The GPU's passes against the CPU reference: the bodies placed (the water in their cells
/// pushed out), then 1 and 12 steps of moving, displacing, stepping around them and, for the
/// free ones, answering the water's force. The displacement and the step add in the CPU's
/// order (on lavapipe the masses agree to the bit; 1e-6 allows a GPU's division its rounding);
/// the forces sum the body's cells in another (a tree of 64 partial sums), so the free bodies'
/// velocities agree to rounding (measured 3e-9 over 12 steps; allowed 1e-5 cells/step).
#[test]
fn the_gpu_places_moves_and_floats_bodies_as_the_cpu_does() {
    let g = common::gpu();
    let p = WaterParams::default();
    let state = busy_basin();
    let mut gpu_sim = GpuWater::new(&g.device, &g.queue, &state, p).unwrap();
    let mut cpu_sim = CpuWater::new(state.clone(), p).unwrap();
    let placed = gpu_sim.read_state().unwrap();
    common::assert_fields_close("water-bodies-placed", &placed, cpu_sim.state(), 1e-6);
    assert_bodies_close("water-bodies-placed", &placed.bodies, &cpu_sim.state().bodies, 0.0);
    for (steps, name) in [(1, "water-bodies-1-step"), (11, "water-bodies-12-steps")] {
        gpu_sim.step(steps).unwrap();
        cpu_sim.step(steps).unwrap();
        let read = gpu_sim.read_state().unwrap();
        common::assert_fields_close(name, &read, cpu_sim.state(), 1e-6);
        assert_bodies_close(name, &read.bodies, &cpu_sim.state().bodies, 1e-5);
    }
    // The test proves something: the free bodies changed their velocities, and the water moved.
    for (now, then) in cpu_sim.state().bodies.iter().zip(&state.bodies).take(2) {
        assert!((now.vx - then.vx).abs() + (now.vy - then.vy).abs() > 1e-3, "{now:?} kept its velocity");
    }
    g.check().unwrap();
}

/// The brush pours and erases around bodies, not into them, on both: a pour over a floating box
/// and an erase over the disc under water after 6 steps, then 2 more steps.
#[test]
fn the_brush_leaves_the_water_under_a_body_on_the_gpu_as_on_the_cpu() {
    let g = common::gpu();
    let p = WaterParams::default();
    let state = busy_basin();
    let mut gpu_sim = GpuWater::new(&g.device, &g.queue, &state, p).unwrap();
    let mut cpu_sim = CpuWater::new(state, p).unwrap();
    gpu_sim.step(6).unwrap();
    cpu_sim.step(6).unwrap();
    let under = |s: &WaterState| {
        let mask = bodies::rasterise(&s.solid, &s.bodies);
        let cells: Vec<f32> = (0..s.mass.height())
            .flat_map(|r| (0..s.mass.width()).map(move |c| (r, c)))
            .filter(|&at| eddy_fluid::body::is_body(mask[at]))
            .map(|at| s.mass[at])
            .collect();
        cells
    };
    let before = under(cpu_sim.state());
    for brush in [Brush::pour((35.0, 18.0), 8.0), Brush::erase((52.0, 28.0), 6.0)] {
        gpu_sim.brush(&brush);
        cpu_sim.brush(&brush);
    }
    assert_eq!(under(cpu_sim.state()), before, "the brush reached the water under a body");
    gpu_sim.step(2).unwrap();
    cpu_sim.step(2).unwrap();
    let read = gpu_sim.read_state().unwrap();
    common::assert_fields_close("water-bodies-brush", &read, cpu_sim.state(), 1e-6);
    g.check().unwrap();
}

/// The force log holds the CPU reference's forces for each step.
#[test]
fn the_gpu_logs_the_water_force_the_cpu_reference_finds() {
    let g = common::gpu();
    let p = WaterParams::default();
    let state = busy_basin();
    let mut gpu_sim = GpuWater::new(&g.device, &g.queue, &state, p).unwrap();
    let mut cpu = state.clone();
    bodies::place(&mut cpu.mass, &cpu.solid, &cpu.bodies);
    gpu_sim.step(3).unwrap();
    let logged = gpu_sim.force_log().unwrap().read(&g.device, &g.queue).unwrap();
    assert_eq!(logged.len(), 3);
    for step in &logged {
        let forces = bodies::step(&mut cpu.mass, &cpu.solid, &mut cpu.bodies, &p);
        for (gf, cf) in step.forces.iter().zip(&forces) {
            let scale = cf.fx.abs().max(cf.fy.abs()).max(1e-3);
            assert!((gf.fx - cf.fx).abs() < 1e-4 * scale && (gf.fy - cf.fy).abs() < 1e-4 * scale, "{gf:?} {cf:?}");
            assert!((gf.torque - cf.torque).abs() < 1e-3 * scale.max(cf.torque.abs()), "{gf:?} {cf:?}");
        }
    }
    // The box under water feels the water's push.
    assert!(logged[2].forces[1].fy < 0.0, "{:?}", logged[2].forces);
    g.check().unwrap();
}

/// An 80 x 48 basin half full over a wall ledge (rows 40 and down, columns 0..24), with two
/// crates drifting into each other on the water and a heavy disc sinking onto the ledge.
fn crates_and_ledge() -> WaterState {
    let (w, h) = (80, 48);
    let solid = Grid::from_fn(w, h, |r, c| (r >= 40 && c < 24) as u8);
    let mass = Grid::from_fn(w, h, |r, c| if r >= 24 && solid[(r, c)] == 0 { 1.0 } else { 0.0 });
    let crate_ = |x: f32, hw: f32, vx: f32| Body {
        density: Some(0.5),
        vx,
        ..Body::new(Shape::Box { half_width: hw, half_height: hw / 2.0 }, x, 24.0 - hw / 2.0 + 1.0)
    };
    let disc = Body { density: Some(3.0), ..Body::new(Shape::Circle { radius: 4.0 }, 12.0, 22.0) };
    WaterState { mass, solid, bodies: vec![crate_(36.0, 8.0, 0.25), crate_(62.0, 6.0, -0.25), disc] }
}

/// Whether two bodies, each shrunk by `slack` cells all round, share a point of the grid's
/// quarter-cell lattice: an overlap deeper than `slack`.
fn overlap(a: &Body, b: &Body, (w, h): (usize, usize), slack: f32) -> bool {
    let shrink = |body: &Body| {
        let shape = match body.shape {
            Shape::Circle { radius } => Shape::Circle { radius: radius - slack },
            Shape::Box { half_width, half_height } => {
                Shape::Box { half_width: half_width - slack, half_height: half_height - slack }
            }
        };
        Body { shape, ..*body }
    };
    let (a, b) = (shrink(a), shrink(b));
    (0..4 * h).any(|r| {
        (0..4 * w).any(|c| {
            let (x, y) = (c as f32 / 4.0, r as f32 / 4.0);
            a.contains(x, y) && b.contains(x, y)
        })
    })
}

/// Contacts in water (`src/body/contact.rs`): the crates drift together and stop against each
/// other without passing through (never overlapping by more than 0.2 cells: rapier's slop is
/// 0.005, and a step's travel at most 0.5), the disc comes to rest on the ledge (its bottom
/// within 0.1 cell of the ledge's top), and the water's mass is kept (a relative 1e-6, as
/// without contacts). On the GPU, which takes the contacts only at its contact points, as on the
/// CPU reference, which takes them after every step: after 40 and 60 steps, the crates touching
/// since step 31 and the disc landing, the bodies agree to 1e-3 cells (measured 8e-5; their
/// velocities come from the water's forces, which sum in another order, and rapier's answer
/// to poses that differ by rounding differs by the rounding of a pose near 40 cells, 4e-6
/// cells a step) and the water to 1e-6. Later the two part, as any chaotic pair does: friction
/// decides stick or slip from those differences, and a cell a body covers or not moves a
/// cell's water (after 240 steps the bodies differed by 0.2 cells).
#[test]
fn crates_collide_and_a_sinking_disc_lands_on_a_ledge_on_the_gpu_as_on_the_cpu() {
    let g = common::gpu();
    let p = WaterParams { boundary: Boundary::Wall, ..WaterParams::default() };
    let state = crates_and_ledge();
    let size = (state.mass.width(), state.mass.height());
    let start = total(&state.mass);
    let mut gpu_sim = GpuWater::new(&g.device, &g.queue, &state, p).unwrap();
    let mut cpu_sim = CpuWater::new(state, p).unwrap();
    let mut touched = false;
    for (steps, name) in [(40, "water-contacts-40"), (20, "water-contacts-60")] {
        for _ in 0..steps {
            cpu_sim.step(1).unwrap();
            let b = &cpu_sim.state().bodies;
            assert!(!overlap(&b[0], &b[1], size, 0.2), "the crates overlap: {b:?}");
            touched |= overlap(&b[0], &b[1], size, -0.3);
        }
        gpu_sim.step(steps).unwrap();
        let read = gpu_sim.read_state().unwrap();
        assert_bodies_close(name, &read.bodies, &cpu_sim.state().bodies, 1e-3);
        common::assert_fields_close(name, &read, cpu_sim.state(), 1e-6);
    }
    assert!(touched, "the crates never came within 0.3 cells of each other");
    for _ in 0..540 {
        cpu_sim.step(1).unwrap();
        let b = &cpu_sim.state().bodies;
        assert!(!overlap(&b[0], &b[1], size, 0.2), "the crates overlap: {b:?}");
    }
    let b = &cpu_sim.state().bodies;
    println!("crates at x {:.3}, {:.3}; disc at y {:.3} (ledge top 40)", b[0].x, b[1].x, b[2].y);
    assert!((b[2].y + 4.0 - 40.0).abs() < 0.1, "the disc is not on the ledge: {:?}", b[2]);
    let now = total(&cpu_sim.state().mass);
    assert!(((now - start) / start).abs() < 1e-6, "mass {now} from {start}");
    g.check().unwrap();
}
