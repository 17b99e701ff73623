//! Water that sleeps (`eddy_fluid::water::tiles`), on the CPU: the step over the awake tiles
//! alone against the dense step (`water::cpu::compression_step`, Elsts' loop), bit for bit, every
//! step, on scenes with water falling, sloshing, leaking out of an open boundary and at rest, with
//! edits (water poured and erased, walls drawn and cut), at several tile sizes.

use eddy_fluid::grid::Grid;
use eddy_fluid::scene::Scene;
use eddy_fluid::water::tiles::{self, REACH, Tiles};
use eddy_fluid::water::{Boundary, Brush, WaterParams, WaterState, cpu};

/// What a run does to the state before a step: `(step, state)`.
type Edits<'a> = dyn Fn(usize, &mut WaterState) + 'a;

/// Runs `steps` steps of `state` both ways, with `edits` applied to both at their steps, and
/// asserts every step's masses equal bit for bit; returns the awake fraction after each step.
fn sparse_against_dense(
    name: &str,
    state: &WaterState,
    p: &WaterParams,
    size: (usize, usize),
    steps: usize,
    edits: &Edits<'_>,
) -> Vec<f64> {
    let mut dense = state.clone();
    let mut sparse = state.clone();
    let mut tiles = Tiles::new((state.mass.width(), state.mass.height()), size);
    let mut awake = Vec::new();
    for step in 0..steps {
        edits(step, &mut dense);
        let before = (sparse.mass.clone(), sparse.solid.clone());
        edits(step, &mut sparse);
        tiles.wake_around_edit((&before.0, &before.1), (&sparse.mass, &sparse.solid));
        cpu::compression_step(&mut dense.mass, &dense.solid, p);
        tiles::compression_step(&mut sparse.mass, &sparse.solid, p, &mut tiles);
        let differ =
            dense.mass.as_slice().iter().zip(sparse.mass.as_slice()).position(|(a, b)| a.to_bits() != b.to_bits());
        if let Some(i) = differ {
            let (r, c) = (i / state.mass.width(), i % state.mass.width());
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

/// A brush stroke's dab as the viewer's fluid tool or eraser makes it.
fn dab(x: f32, y: f32, radius: f32, add: f32, scale: f32) -> Brush {
    Brush { center: (x, y), radius, scale, add }
}

/// The dense and the sparse step agree bit for bit at every step of 3000, in a basin of still
/// water (the `basin` preset: water falls, sloshes and comes to rest), a U-tube with water poured
/// into one arm (it levels through the bottom), the `random` preset with the open boundary (water
/// leaks out of the grid's edges), and a scene edited as it runs (water poured, erased, a wall
/// drawn across a flow and cut again), with tiles of 8 x 8, 32 x 8 (a workgroup's packed texels)
/// and the smallest, 2 x 2. Also: tiles sleep where the water has come to rest; the awake
/// fractions are printed.
#[test]
fn the_step_over_awake_tiles_is_the_dense_step_bit_for_bit() {
    let (w, h) = (96usize, 64usize);
    let wall = WaterParams::default();
    let open = WaterParams { boundary: Boundary::Open, ..WaterParams::default() };
    let scene = |name: &str| WaterState::from_scene(&Scene::preset(name, w, h, 3).unwrap());
    let none = |_: usize, _: &mut WaterState| {};
    let pour = |step: usize, s: &mut WaterState| {
        if step < 400 && step.is_multiple_of(5) {
            cpu::brush(s, &dab(0.8 * w as f32, 6.0, 3.0, 1.0, 1.0));
        }
    };
    let edited = |step: usize, s: &mut WaterState| match step {
        50..=52 => cpu::brush(s, &dab(20.0, 8.0, 5.0, 1.0, 1.0)),
        300 => cpu::brush(s, &dab(48.0, 40.0, 6.0, 0.0, 0.0)),
        600 => {
            for c in 30..60 {
                s.solid[(40, c)] = 1;
                s.mass[(40, c)] = 0.0;
            }
        }
        1200 => {
            for c in 40..44 {
                s.solid[(40, c)] = 0;
            }
        }
        _ => {}
    };
    let cases: [(&str, WaterState, &WaterParams, &Edits<'_>); 4] = [
        ("basin", scene("basin"), &wall, &none),
        ("u-tube, poured", scene("u-tube"), &wall, &pour),
        ("random, open boundary", scene("random"), &open, &none),
        ("basin, edited", scene("basin"), &wall, &edited),
    ];
    for (name, state, p, edits) in cases {
        for size in [(8, 8), (32, 8), (REACH, REACH)] {
            let awake = sparse_against_dense(name, &state, p, size, 3000, edits);
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
