//! Water that sleeps (`eddy_fluid::water::tiles`), on the CPU: the step over the awake tiles
//! alone against the dense step (`water::cpu::compression_step`, Elsts' loop), bit for bit, every
//! step, on scenes with water falling, sloshing, leaking out of an open boundary and at rest, with
//! edits (water poured and erased, walls drawn and cut), at several tile sizes.

mod common;

use eddy_fluid::gpu::DeviceCaps;
use eddy_fluid::grid::Grid;
use eddy_fluid::scene::Scene;
use eddy_fluid::water::tiles::{self, REACH, Tiles};
use eddy_fluid::water::{Boundary, Brush, GpuWater, WaterParams, WaterState, cpu};
use eddy_fluid::{GpuModel, Simulation};

/// An edit a run makes before a step, on the CPU's state and the GPU's alike.
#[derive(Clone)]
enum Edit {
    /// A dab of the brush (the viewer's fluid tool or eraser).
    Brush(Brush),
    /// The walls: these cells become ground (emptied) or open.
    Walls(Vec<(usize, usize)>, u8),
}

impl Edit {
    fn apply(&self, s: &mut WaterState) {
        match self {
            Edit::Brush(b) => cpu::brush(s, b),
            Edit::Walls(cells, v) => {
                for &(r, c) in cells {
                    s.solid[(r, c)] = *v;
                    if *v != 0 {
                        s.mass[(r, c)] = 0.0;
                    }
                }
            }
        }
    }

    fn apply_gpu(&self, sim: &mut GpuWater) {
        match self {
            Edit::Brush(b) => sim.brush(b),
            Edit::Walls(cells, v) => {
                let mut solid = sim.solid_mask().clone();
                for &(r, c) in cells {
                    solid[(r, c)] = *v;
                }
                sim.upload_solid(&solid).unwrap();
            }
        }
    }
}

/// A run's edits: those before step `step` (0-based).
type Edits = fn(usize) -> Vec<Edit>;

/// A brush dab: `add` water, the old mass times `scale`.
fn dab(x: f32, y: f32, radius: f32, add: f32, scale: f32) -> Edit {
    Edit::Brush(Brush { center: (x, y), radius, scale, add })
}

fn no_edits(_: usize) -> Vec<Edit> {
    Vec::new()
}

/// A stream poured into the U-tube's right arm for 400 steps.
fn pour(step: usize) -> Vec<Edit> {
    if step < 400 && step.is_multiple_of(5) { vec![dab(0.8 * 96.0, 6.0, 3.0, 1.0, 1.0)] } else { Vec::new() }
}

/// Water poured, then erased; a wall drawn across the basin's water, then cut.
fn edited(step: usize) -> Vec<Edit> {
    match step {
        50..=52 => vec![dab(20.0, 8.0, 5.0, 1.0, 1.0)],
        300 => vec![dab(48.0, 40.0, 6.0, 0.0, 0.0)],
        600 => vec![Edit::Walls((30..60).map(|c| (40, c)).collect(), 1)],
        1200 => vec![Edit::Walls((40..44).map(|c| (40, c)).collect(), 0)],
        _ => Vec::new(),
    }
}

/// The scenes, 96 x 64: a basin of still water (the `basin` preset: water falls, sloshes and
/// comes to rest), a U-tube with water poured into one arm (it levels through the bottom), the
/// `random` preset with the open boundary (water leaks out of the grid's edges), and the basin
/// edited as it runs.
fn cases() -> Vec<(&'static str, WaterState, WaterParams, Edits)> {
    let scene = |name: &str| WaterState::from_scene(&Scene::preset(name, 96, 64, 3).unwrap());
    let open = WaterParams { boundary: Boundary::Open, ..WaterParams::default() };
    vec![
        ("basin", scene("basin"), WaterParams::default(), no_edits),
        ("u-tube, poured", scene("u-tube"), WaterParams::default(), pour),
        ("random, open boundary", scene("random"), open, no_edits),
        ("basin, edited", scene("basin"), WaterParams::default(), edited),
    ]
}

/// Runs `steps` steps of `state` both ways on the CPU, the edits applied to both, and asserts
/// every step's masses equal bit for bit; returns the awake fraction after each step.
fn sparse_against_dense(
    name: &str,
    state: &WaterState,
    p: &WaterParams,
    size: (usize, usize),
    steps: usize,
    edits: Edits,
) -> Vec<f64> {
    let mut dense = state.clone();
    let mut sparse = state.clone();
    let mut tiles = Tiles::new((state.mass.width(), state.mass.height()), size);
    let mut awake = Vec::new();
    for step in 0..steps {
        let before = (sparse.mass.clone(), sparse.solid.clone());
        for e in edits(step) {
            e.apply(&mut dense);
            e.apply(&mut sparse);
        }
        tiles.wake_around_edit((&before.0, &before.1), (&sparse.mass, &sparse.solid));
        cpu::compression_step(&mut dense.mass, &dense.solid, p);
        tiles::compression_step(&mut sparse.mass, &sparse.solid, p, &mut tiles);
        if let Some((r, c)) = common::first_difference(&dense.mass, &sparse.mass) {
            panic!(
                "{name}, tiles {size:?}: step {} differs first at (row {r}, col {c}): dense {:e}, sparse {:e}",
                step + 1,
                dense.mass[(r, c)],
                sparse.mass[(r, c)]
            );
        }
        awake.push(tiles.awake_fraction());
    }
    awake
}

/// The dense and the sparse step agree bit for bit at every step of 3000 on each of [`cases`],
/// with tiles of 8 x 8, 32 x 8 (a workgroup's packed texels) and the smallest, 2 x 2. The awake
/// fractions are printed.
#[test]
fn the_step_over_awake_tiles_is_the_dense_step_bit_for_bit() {
    for (name, state, p, edits) in cases() {
        for size in [(8, 8), (32, 8), (REACH, REACH)] {
            let awake = sparse_against_dense(name, &state, &p, size, 3000, edits);
            let at = |k: usize| awake[k - 1];
            println!(
                "{name}, tiles {size:?}: awake after 10 steps {:.3}, 1000 {:.3}, 2000 {:.3}, 3000 {:.3}",
                at(10),
                at(1000),
                at(2000),
                at(3000)
            );
        }
    }
}

/// On the GPU, the step over the awake tiles (`water/step_tiles.wgsl`, dispatched indirectly
/// over the list the step before it wrote) against the CPU's dense step, bit for bit, on each
/// of [`cases`] with the edits made through the GPU model (the brush, the walls): 300 steps one
/// at a time, then 700 in runs of 7 (a run packs the mass once, so the tiles that sleep are
/// carried across the ping-pong; runs of one where edits come), compared after each; and after each, the tiles awake for the
/// next step are as many as the CPU's mirror of the bookkeeping (`Tiles`, the GPU's tile size)
/// says. Tiles of 128 x 8, 32 x 16 and 16 x 128 cells (strips of 2, 1 and 4 rows).
#[test]
fn the_gpu_step_over_awake_tiles_is_the_dense_step_bit_for_bit() {
    let g = common::gpu();
    for (name, state, p, edits) in cases() {
        for (strip, pairs) in [(2, 16), (1, 4), (4, 2)] {
            let caps = DeviceCaps { strip, ..DeviceCaps::of(&g.device) };
            let mut sim = GpuWater::with_caps(&g.device, &caps, &g.queue, &state, p).unwrap();
            sim.set_sleeping(Some(pairs)).unwrap();
            let (tw, th) = sim.tile_cells().unwrap();
            let mut tiles = Tiles::new((96, 64), (tw as usize, th as usize));
            let mut cpu_state = state.clone();
            let mut step = 0;
            let mut fractions = Vec::new();
            while step < 1000 {
                // Runs of 7 where no edit falls inside one (the GPU's edits come between runs).
                let inside = (step + 1..step + 7).any(|s| !edits(s).is_empty());
                let run = if step < 300 || inside { 1 } else { 7 };
                for s in step..step + run {
                    let before = (cpu_state.mass.clone(), cpu_state.solid.clone());
                    for e in edits(s) {
                        e.apply(&mut cpu_state);
                        e.apply_gpu(&mut sim);
                    }
                    tiles.wake_around_edit((&before.0, &before.1), (&cpu_state.mass, &cpu_state.solid));
                    tiles::compression_step(&mut cpu_state.mass, &cpu_state.solid, &p, &mut tiles);
                }
                sim.step(run as u32).unwrap();
                step += run;
                let mass = sim.read_mass().unwrap();
                if let Some((r, c)) = common::first_difference(&cpu_state.mass, &mass) {
                    panic!(
                        "{name}, {pairs} pairs: step {step} differs first at (row {r}, col {c}): CPU {:e}, GPU {:e}",
                        cpu_state.mass[(r, c)],
                        mass[(r, c)]
                    );
                }
                let t = sim.awake_tiles().unwrap().unwrap();
                assert_eq!(t.all as usize, tiles.awake.as_slice().len());
                assert_eq!(
                    t.awake as usize,
                    tiles.awake_count(),
                    "{name}, {pairs} pairs: awake tiles after step {step}"
                );
                fractions.push(t.fraction());
            }
            let last = fractions.last().unwrap();
            println!("{name}: tiles of {tw} x {th} cells, awake at the end {last:.3}");
        }
    }
    g.check().unwrap();
}

/// Where nothing moves, everything sleeps: a grid of still air with a wall sleeps after the first
/// step, and a tile stays asleep until an edit within 2 cells of it (the reach of one step)
/// wakes it and the tiles beside it that the reach crosses into.
#[test]
fn dry_tiles_sleep_and_an_edit_wakes_the_tiles_within_its_reach() {
    let p = WaterParams::default();
    let mut state = WaterState::empty(64, 32);
    for c in 0..64 {
        state.solid[(20, c)] = 1;
    }
    let mut tiles = Tiles::new((64, 32), (8, 8));
    assert_eq!(tiles.awake_count(), 8 * 4);
    assert_eq!(tiles::compression_step(&mut state.mass, &state.solid, &p, &mut tiles), 32);
    assert_eq!(tiles.awake_count(), 0, "nothing changed, so nothing is awake");
    assert_eq!(tiles::compression_step(&mut state.mass, &state.solid, &p, &mut tiles), 0);
    // A cell in the middle of tile (1, 2): that tile alone.
    tiles.wake_cells(12..13, 20..21);
    assert_eq!(awake_tiles(&tiles), vec![(1, 2)]);
    // A cell 2 from the tile's left edge (column 18, the tile starts at 16): still that tile
    // alone; 1 from it (column 17): the tile to the left too, since the change reaches it.
    tiles.awake.as_mut_slice().fill(false);
    tiles.wake_cells(12..13, 18..19);
    assert_eq!(awake_tiles(&tiles), vec![(1, 2)]);
    tiles.wake_cells(12..13, 17..18);
    assert_eq!(awake_tiles(&tiles), vec![(1, 1), (1, 2)]);
    // At the grid's corner: no tile past the edge.
    tiles.awake.as_mut_slice().fill(false);
    tiles.wake_cells(31..32, 63..64);
    assert_eq!(awake_tiles(&tiles), vec![(3, 7)]);
    // A drop of water: it falls, waking the tiles it falls through, lands on the wall (row 20)
    // and spreads along it (Elsts' side flows share it out, ever thinner): then only the tiles
    // around row 19 are awake, the ones it fell through asleep again.
    let before = (state.mass.clone(), state.solid.clone());
    state.mass[(2, 20)] = 1.0;
    tiles.wake_around_edit((&before.0, &before.1), (&state.mass, &state.solid));
    let mut dense = state.mass.clone();
    for _ in 0..60 {
        cpu::compression_step(&mut dense, &state.solid, &p);
        tiles::compression_step(&mut state.mass, &state.solid, &p, &mut tiles);
        assert_eq!(bits(&dense), bits(&state.mass));
    }
    let wet: Vec<usize> = (0..32).filter(|&r| (0..64).any(|c| state.mass[(r, c)] > 0.0)).collect();
    assert_eq!(wet, vec![19], "the drop lies on the wall");
    let awake = awake_tiles(&tiles);
    assert!(!awake.is_empty() && awake.iter().all(|&(r, _)| r == 2), "{awake:?}");
}

fn awake_tiles(t: &Tiles) -> Vec<(usize, usize)> {
    let (ny, nx) = t.awake.shape();
    (0..ny).flat_map(|r| (0..nx).map(move |c| (r, c))).filter(|&(r, c)| t.awake[(r, c)]).collect()
}

fn bits(g: &Grid<f32>) -> Vec<u32> {
    g.as_slice().iter().map(|v| v.to_bits()).collect()
}

#[test]
#[should_panic(expected = "each side at least 2")]
fn tiles_narrower_than_a_steps_reach_are_refused() {
    Tiles::new((16, 16), (1, 8));
}

/// The GPU's reach of a step (`water/step_tiles.wgsl`, which flags the changes near a tile's
/// edges) is the CPU mirror's.
#[test]
fn the_shaders_reach_is_the_mirrors() {
    let line = format!("const REACH: i32 = {REACH};");
    assert!(eddy_fluid::shaders::WATER_STEP_TILES.contains(&line), "{line} is not in water/step_tiles.wgsl");
}

/// Water that sleeps with bodies in it: each step the tiles around the bodies wake
/// (`water/wake_bodies.wgsl`), since their displacement edits the water there, and the rest sleep.
/// In a 192 x 96 basin with a crate half as dense as water, a disc twice as dense sinking and a
/// driven plate sweeping the surface, the sleeping water's masses and bodies are the dense
/// step's bit for bit after every run (1000 steps: one at a time, then in runs of 10, with a
/// driven body's new motion between runs), and some tiles sleep.
#[test]
fn sleeping_water_with_bodies_is_the_dense_step_bit_for_bit() {
    use eddy_fluid::body::{Body, Shape};
    let g = common::gpu();
    let (w, h) = (192, 96);
    let mut state = WaterState::empty(w, h);
    for r in 60..h {
        for c in 0..w {
            state.mass[(r, c)] = 1.0;
        }
    }
    state.bodies = vec![
        Body { density: Some(0.5), ..Body::new(Shape::Box { half_width: 8.0, half_height: 4.0 }, 40.0, 50.0) },
        Body { density: Some(2.0), ..Body::new(Shape::Circle { radius: 5.0 }, 140.0, 40.0) },
        Body { vx: 0.2, ..Body::new(Shape::Box { half_width: 6.0, half_height: 1.0 }, 70.0, 62.0) },
    ];
    let p = WaterParams::default();
    let caps = DeviceCaps { strip: 2, ..DeviceCaps::of(&g.device) };
    let mut dense = GpuWater::with_caps(&g.device, &caps, &g.queue, &state, p).unwrap();
    let mut sparse = GpuWater::with_caps(&g.device, &caps, &g.queue, &state, p).unwrap();
    sparse.set_sleeping(Some(4)).unwrap();
    let mut step = 0;
    let mut fewest = u32::MAX;
    while step < 1000 {
        if step == 500 {
            for sim in [&mut dense, &mut sparse] {
                let mut encoder = g.device.create_command_encoder(&Default::default());
                sim.encode_drive(&mut encoder, 2, (-0.2, 0.0), 0.01).unwrap();
                g.queue.submit([encoder.finish()]);
            }
        }
        let run = if step < 200 { 1 } else { 10 };
        dense.step(run).unwrap();
        sparse.step(run).unwrap();
        step += run;
        let (d, s) = (dense.read_state().unwrap(), sparse.read_state().unwrap());
        if let Some((r, c)) = common::first_difference(&d.mass, &s.mass) {
            panic!(
                "step {step}: the sleeping water differs first at (row {r}, col {c}): {:e} against {:e}",
                d.mass[(r, c)],
                s.mass[(r, c)]
            );
        }
        assert_eq!(d.bodies, s.bodies, "step {step}: the bodies");
        let t = sparse.awake_tiles().unwrap().unwrap();
        fewest = fewest.min(t.awake);
        if step == 1000 {
            println!("with bodies: {} of {} tiles awake after 1000 steps, {fewest} at the fewest", t.awake, t.all);
        }
    }
    let all = sparse.awake_tiles().unwrap().unwrap().all;
    assert!(fewest < all, "some tiles should sleep: at the fewest {fewest} of {all} awake");
    g.check().unwrap();
}
