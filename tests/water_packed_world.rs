//! Packed worlds (`eddy_fluid::water::packed_world`): water past the adapter's largest texture
//! side, kept in the step's packed layout alone. The adapter's side is lowered to 64 texels in
//! the caps, so that small worlds are packed worlds, and each is held, bit for bit, to the same
//! water kept one cell a texel (whose passes `tests/water_gpu_vs_cpu.rs`, `tests/water_tiles.rs`
//! and `tests/water_fixed.rs` hold to the CPU mirror): masses, state hash and statistics after
//! runs of steps with every edit a packed world takes between them.

mod common;

use eddy_fluid::gpu::{DeviceCaps, GpuError};
use eddy_fluid::grid::Grid;
use eddy_fluid::water::hash::state_hash;
use eddy_fluid::water::{Arithmetic, Boundary, Brush, GpuWater, WaterParams};
use eddy_fluid::{GpuModel, Simulation};

/// The caps of the test adapter with its largest texture side lowered to `side` and `strip`.
fn caps(g: &eddy_fluid::gpu::Gpu, side: u32, strip: u32) -> DeviceCaps {
    DeviceCaps { max_texture_side: side, strip, ..DeviceCaps::of(&g.device) }
}

/// Holds `world` to `cells` (the same `w x h` water, started with `boundary` in `arithmetic`) as
/// uploaded and after each of 8 runs of 40 steps with the edits of [`edit`] before them.
fn runs(
    name: &str,
    [world, cells]: [&mut GpuWater; 2],
    size: (usize, usize),
    boundary: Boundary,
    arithmetic: Arithmetic,
) {
    assert_same(&format!("{name}, uploaded"), world, cells);
    for run in 0..8 {
        edit(world, run, size, boundary, arithmetic);
        edit(cells, run, size, boundary, arithmetic);
        world.step(40).unwrap();
        cells.step(40).unwrap();
        assert_same(&format!("{name}, run {run}"), world, cells);
    }
}

/// The edits of run `run` of the packed world tests on `sim`, a `w x h` world started with
/// `boundary` in `arithmetic`: the brush pouring and erasing, a wall drawn across the middle row
/// and cut, the boundary switched, fixed point switched on.
fn edit(sim: &mut GpuWater, run: usize, (w, h): (usize, usize), boundary: Boundary, arithmetic: Arithmetic) {
    let pour = Brush { center: (w as f32 * 0.3, 4.0), radius: 5.5, scale: 1.0, add: 0.7 };
    let erase = Brush { center: (w as f32 - 3.0, h as f32 * 0.5), radius: 9.0, scale: 0.0, add: 0.0 };
    match run {
        1 => sim.brush(&pour),
        2 => sim.brush(&erase),
        3 => {
            let line = walls(sim, (3..w - 9).map(|c| (h / 2, c)), 1);
            sim.upload_solid(&line).unwrap();
        }
        4 => {
            let switched = match boundary {
                Boundary::Wall => Boundary::Open,
                Boundary::Open => Boundary::Wall,
            };
            sim.set_params(WaterParams { boundary: switched, ..sim.params() }).unwrap();
        }
        5 => {
            let cut = walls(sim, (10..30).map(|c| (h / 2, c)), 0);
            sim.upload_solid(&cut).unwrap();
        }
        6 if arithmetic == Arithmetic::Float => {
            let fixed = WaterParams { arithmetic: Arithmetic::Fixed, ..sim.params() };
            sim.set_params(fixed).unwrap();
        }
        _ => {}
    }
}

/// The walls of `sim` with `cells` set to `v`.
fn walls(sim: &GpuWater, cells: impl Iterator<Item = (usize, usize)>, v: u8) -> Grid<u8> {
    let mut solid = sim.solid_mask().clone();
    for (r, c) in cells {
        solid[(r, c)] = v;
    }
    solid
}

fn assert_same(name: &str, world: &GpuWater, cells: &GpuWater) {
    let (a, b) = (world.read_mass().unwrap(), cells.read_mass().unwrap());
    if let Some((r, c)) = common::first_difference(&b, &a) {
        panic!(
            "{name}: the packed world differs first at (row {r}, col {c}): {:e}, one cell a texel {:e}",
            a[(r, c)],
            b[(r, c)]
        );
    }
    let hash = world.state_hash().unwrap();
    assert_eq!(hash, cells.state_hash().unwrap(), "{name}: hash");
    assert_eq!(hash, state_hash(&a, world.solid_mask()), "{name}: hash against the CPU's of the masses read");
    assert_eq!(world.stats().unwrap(), cells.stats().unwrap(), "{name}: statistics");
}

/// A packed world steps, takes the brush, new walls, a boundary switched and fixed point
/// switched on exactly as the water kept one cell a texel does, dense and sleeping: random states
/// (15% walls) on worlds 97 to 203 cells wide (a packed world at a side of 64 texels), with
/// padding in the last texel and heights that end mid-strip, both boundaries and both
/// arithmetics, 8 runs of 40 steps with an edit before most.
#[test]
fn a_packed_world_steps_and_takes_edits_as_one_cell_a_texel_does_bit_for_bit() {
    let g = common::gpu();
    let mut seed = 300;
    for arithmetic in [Arithmetic::Float, Arithmetic::Fixed] {
        for boundary in [Boundary::Wall, Boundary::Open] {
            for ((w, h), strip, sleep) in [((150, 40), 32, false), ((203, 57), 5, true), ((97, 64), 8, true)] {
                seed += 1;
                let name = format!("{arithmetic:?} {boundary:?} {w}x{h} strip {strip} sleeping {sleep}");
                let p = WaterParams { boundary, arithmetic, ..WaterParams::default() };
                let state = common::random_water(w, h, seed, 0.15);
                let mut world = GpuWater::with_caps(&g.device, &caps(&g, 64, strip), &g.queue, &state, p).unwrap();
                let mut cells = GpuWater::with_caps(&g.device, &caps(&g, 16384, strip), &g.queue, &state, p).unwrap();
                assert!(world.is_packed_world() && !cells.is_packed_world(), "{name}");
                if sleep {
                    world.set_sleeping(Some(2)).unwrap();
                    cells.set_sleeping(Some(2)).unwrap();
                }
                runs(&name, [&mut world, &mut cells], (w, h), boundary, arithmetic);
            }
        }
    }
    g.check().unwrap();
}

/// A paged world (`water::packed_world`, "Pages": taller than a texture's side, or past the bytes
/// one texture holds) steps and takes every edit as the same water in one texture does, bit for
/// bit: worlds of 2 to 5 pages at a side of 64 texels (pages 43 to 60 rows, the last mid-strip),
/// and one of 6 pages cut by the bytes a texture holds, dense and sleeping (tiles a page, woken
/// across the pages' edges), with the brush and walls across the pages' edges (the
/// middle row is one), both boundaries (the halos past the world's top and bottom are rewritten)
/// and both arithmetics, 8 runs of 40 steps; the pages draw as the one texture does
/// (`a_packed_world_draws_as_one_cell_a_texel_does`).
#[test]
fn a_paged_world_steps_and_takes_edits_as_one_texture_does_bit_for_bit() {
    let g = common::gpu();
    let mut seed = 400;
    for arithmetic in [Arithmetic::Float, Arithmetic::Fixed] {
        for boundary in [Boundary::Wall, Boundary::Open] {
            let by_bytes = DeviceCaps { max_texture_bytes: 25 * 16 * 20, ..caps(&g, 64, 8) };
            for ((w, h), paged, sleep) in [
                ((150, 200), caps(&g, 64, 32), false),
                ((203, 131), caps(&g, 64, 5), true),
                ((97, 256), caps(&g, 64, 8), true),
                ((100, 90), by_bytes, true),
            ] {
                seed += 1;
                let name = format!("{arithmetic:?} {boundary:?} {w}x{h} strip {} sleeping {sleep}", paged.strip);
                let p = WaterParams { boundary, arithmetic, ..WaterParams::default() };
                let state = common::random_water(w, h, seed, 0.15);
                let mut world = GpuWater::with_caps(&g.device, &paged, &g.queue, &state, p).unwrap();
                let mut cells =
                    GpuWater::with_caps(&g.device, &caps(&g, 16384, paged.strip), &g.queue, &state, p).unwrap();
                let pages = world.packed_world_pages().len();
                assert!(pages > 1 && !cells.is_packed_world(), "{name}: {pages} pages");
                if sleep {
                    world.set_sleeping(Some(2)).unwrap();
                    cells.set_sleeping(Some(2)).unwrap();
                }
                runs(&format!("{name} ({pages} pages)"), [&mut world, &mut cells], (w, h), boundary, arithmetic);
            }
        }
    }
    g.check().unwrap();
}

/// Sleeping in pages wakes what crosses a page's edge: a block of water dropped from the top of
/// a dry 40 x 150 world in 3 pages (a side of 64 texels) falls through both pages' edges while
/// the dry tiles sleep, and lands as in one texture, bit for bit, after every run of 20 steps: a
/// tile that changed within reach of its page's edge wakes the tile beyond it in the next page
/// (`water/wake_edges.wgsl`; without it the two pages' steps disagree at the first edge).
#[test]
fn water_falling_through_the_pages_edges_wakes_them() {
    let g = common::gpu();
    let p = WaterParams { boundary: Boundary::Wall, ..WaterParams::default() };
    let (w, h) = (40, 150);
    let mut state = eddy_fluid::water::WaterState::empty(w, h);
    for r in 2..10 {
        for c in 12..28 {
            state.mass[(r, c)] = 1.0;
        }
    }
    // Strips of one row: tiles of 8 pairs are 64 x 8 cells, 7 tile rows a page.
    let mut world = GpuWater::with_caps(&g.device, &caps(&g, 64, 1), &g.queue, &state, p).unwrap();
    let mut cells = GpuWater::with_caps(&g.device, &caps(&g, 16384, 1), &g.queue, &state, p).unwrap();
    assert_eq!(world.packed_world_pages().len(), 3);
    world.set_sleeping(Some(8)).unwrap();
    cells.set_sleeping(Some(8)).unwrap();
    let mut least_awake = 1.0f64;
    for run in 0..12 {
        world.step(20).unwrap();
        cells.step(20).unwrap();
        assert_same(&format!("run {run}"), &world, &cells);
        least_awake = least_awake.min(world.awake_tiles().unwrap().unwrap().fraction());
    }
    // The water reached the floor, past both edges (rows 50 and 100).
    let mass = world.read_mass().unwrap();
    let bottom: f32 = (120..150).flat_map(|r| (0..w).map(move |c| (r, c))).map(|rc| mass[rc]).sum();
    assert!(bottom > 100.0, "{bottom} full cells below row 120");
    assert!(least_awake < 0.5, "the dry tiles never slept: {least_awake}");
    g.check().unwrap();
}

/// A packed world's limits: up to four texture sides across and four down, refused past them with
/// the largest world in the line; and no bodies, at the start or later.
#[test]
fn a_packed_world_refuses_what_it_cannot_hold() {
    use eddy_fluid::body::{Body, Shape};
    let g = common::gpu();
    let p = WaterParams::default();
    let new = |w: usize, h: usize| {
        let state = common::random_water(w, h, 7, 0.1);
        GpuWater::with_caps(&g.device, &caps(&g, 64, 8), &g.queue, &state, p)
    };
    assert!(new(256, 64).unwrap().is_packed_world());
    assert_eq!(new(100, 65).unwrap().packed_world_pages().len(), 2);
    for (w, h) in [(257, 8), (100, 257)] {
        let Err(eddy_fluid::Error::Gpu(e @ GpuError::WorldTooLarge { .. })) = new(w, h) else {
            panic!("{w}x{h} was not refused as too large")
        };
        let line = e.to_string();
        assert!(line.contains(&format!("{w}x{h}")) && line.contains("1..=256 cells across"), "{line}");
        assert!(line.contains("1..=256 down"), "{line}");
    }
    let disc = Body::new(Shape::Circle { radius: 4.0 }, 20.0, 10.0);
    let mut state = common::random_water(100, 30, 8, 0.0);
    state.bodies = vec![disc];
    let refused = GpuWater::with_caps(&g.device, &caps(&g, 64, 8), &g.queue, &state, p).err().unwrap().to_string();
    assert!(refused.contains("takes no bodies") && refused.contains("64x64"), "{refused}");
    state.bodies.clear();
    let mut world = GpuWater::with_caps(&g.device, &caps(&g, 64, 8), &g.queue, &state, p).unwrap();
    let before = world.read_mass().unwrap();
    let later = world.set_bodies(&[disc]).err().unwrap().to_string();
    assert!(later.contains("takes no bodies"), "{later}");
    assert_eq!(world.read_mass().unwrap(), before, "a refused body changed the water");
    g.check().unwrap();
}

/// A packed world is drawn from its packed masses (`render/water.wgsl` with `PACKED`; a paged
/// world a draw a page) as the same water kept one cell a texel is: the same pixels, in Elsts'
/// colours and with a colour map, after steps and a brush (walls, thin and compressed water,
/// air), for a world in one texture and one in 3 pages.
#[test]
fn a_packed_world_draws_as_one_cell_a_texel_does() {
    use eddy_fluid::colour::ColourMap;
    use eddy_fluid::render::{FrameTarget, WaterRenderer};
    let g = common::gpu();
    let p = WaterParams::default();
    let mut renderer = WaterRenderer::new(&g.device, FrameTarget::FORMAT).unwrap();
    for ((w, h), pages) in [((150, 40), 1), ((60, 150), 3)] {
        let state = common::random_water(w, h, 9, 0.15);
        let mut world = GpuWater::with_caps(&g.device, &caps(&g, 64, 8), &g.queue, &state, p).unwrap();
        let mut cells = GpuWater::with_caps(&g.device, &caps(&g, 16384, 8), &g.queue, &state, p).unwrap();
        for sim in [&mut world, &mut cells] {
            sim.step(30).unwrap();
            sim.brush(&Brush { center: (40.0, 10.0), radius: 6.0, scale: 1.0, add: 1.4 });
        }
        assert_eq!(world.packed_world_pages().len(), pages);
        assert!(cells.packed_world_pages().is_empty());
        // The whole grid, and zoomed in as the viewer draws it: an area larger than the target.
        let zoomed = eddy_fluid::render::Area { origin: (-700.0, -150.0), size: (2700.0, 720.0) };
        for (map, area) in [(ColourMap::Own, None), (ColourMap::Viridis, None), (ColourMap::Own, Some(zoomed))] {
            let mut draw = |sim: &GpuWater| {
                let target = FrameTarget::new(&g.device, (w as u32, h as u32), 2).unwrap();
                target
                    .render(&g.device, &g.queue, |encoder, view, size| {
                        let area = area.unwrap_or(eddy_fluid::render::Area::full(size));
                        renderer.draw(&g.device, encoder, view, area, sim, map);
                        Ok(())
                    })
                    .unwrap()
            };
            let (a, b) = (draw(&world), draw(&cells));
            let differing = a.pixels().zip(b.pixels()).filter(|(x, y)| x != y).count();
            assert_eq!(differing, 0, "{w}x{h} {map:?} {area:?}: {differing} pixels differ");
            // Not a blank frame: ground, water and air all show.
            let colours: std::collections::HashSet<_> = a.pixels().map(|p| p.0).collect();
            assert!(colours.len() > 3, "{map:?} {area:?}: {} colours", colours.len());
        }
    }
    g.check().unwrap();
}
