//! The styled looks (`eddy::render::Look::Styled`): each model's look drawn on the GPU is held
//! to its CPU mirror (`shade`) pixel by pixel, to what simple fields must give (a uniform field
//! is flat, a step edge lies where the step is, known pixels have the documented colours) and
//! to a golden image of a fixed state.
//!
//! Tolerances: the GPU and the mirror differ by rounding to 8 bits and by the adapter's `exp`,
//! `sqrt` and `normalize`, which WGSL lets differ by a few ulp: 3/255 a channel covers both.
//! A golden image may differ by 6/255 a channel (another adapter's arithmetic), and on average
//! by 0.5/255.

mod common;

use eddy_fluid::Grid;
use eddy_fluid::model::{AnyModel, AnyState, ModelKind, ModelParams};
use eddy_fluid::render::{Area, Blend, Look, gas_schlieren, smoke_lit, water_surface};
use eddy_fluid::water::WaterState;
use image::{GenericImageView, RgbaImage};

/// Pixels a cell in these tests.
const SCALE: u32 = 3;

/// `model` drawn over a target cleared to transparent, `SCALE` pixels a cell.
fn draw(gpu: &eddy_fluid::gpu::Gpu, model: &mut AnyModel) -> RgbaImage {
    common::draw_over_transparent(gpu, model, SCALE)
}

fn styled(gpu: &eddy_fluid::gpu::Gpu, state: &AnyState, blend: Blend) -> AnyModel {
    let kind = state.kind();
    let mut model = AnyModel::new(&gpu.device, &gpu.queue, state, &ModelParams::defaults(kind), 0).unwrap();
    model.set_look(Look::Styled);
    model.set_blend(blend);
    model
}

/// Asserts every pixel of `image` is within 3/255 of `mirror`'s colour for its centre.
fn assert_matches_mirror(name: &str, image: &RgbaImage, mirror: impl Fn((f32, f32)) -> [f32; 4]) {
    let mut worst = (0i32, (0, 0), [0u8; 4], [0u8; 4]);
    for (x, y, p) in image.enumerate_pixels() {
        let want = mirror((x as f32 + 0.5, y as f32 + 0.5)).map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8);
        let diff = (0..4).map(|i| (p.0[i] as i32 - want[i] as i32).abs()).max().unwrap();
        if diff > worst.0 {
            worst = (diff, (x, y), p.0, want);
        }
    }
    let (diff, at, got, want) = worst;
    assert!(diff <= 3, "{name}: pixel {at:?} is {got:?} on the GPU and {want:?} in the mirror");
}

/// Every pixel of `image` equal to `colour` within 1/255 a channel.
fn assert_flat(name: &str, image: &RgbaImage, colour: [u8; 4]) {
    for (x, y, p) in image.enumerate_pixels() {
        let diff = (0..4).map(|i| (p.0[i] as i32 - colour[i] as i32).abs()).max().unwrap();
        assert!(diff <= 1, "{name}: pixel ({x}, {y}) is {:?}, not the flat {colour:?}", p.0);
    }
}

/// sRGB-encoded colour (0 to 1) as bytes.
fn bytes(c: [f32; 3], a: f32) -> [u8; 4] {
    [c[0], c[1], c[2], a].map(|v| (v * 255.0).round() as u8)
}

fn area(size: (u32, u32)) -> Area {
    Area::full((size.0 * SCALE, size.1 * SCALE))
}

/// Smoke `w` x `h` with `density` and `dye(r, c)` and a 3 x 3 solid block at (row 4, col 4).
fn smoke(
    w: usize,
    h: usize,
    solid_block: bool,
    dye: impl Fn(usize, usize) -> [f32; 3],
) -> eddy_fluid::smoke::SmokeState {
    let solid = Grid::from_fn(w, h, |r, c| (solid_block && (4..7).contains(&r) && (4..7).contains(&c)) as u8);
    let scene = eddy_fluid::scene::Scene {
        solid: solid.clone(),
        fluid: Grid::filled(w, h, 0.0),
        source: Grid::filled(w, h, 0),
    };
    let mut s = eddy_fluid::smoke::SmokeState::from_scene(&scene, 0.0);
    let colours = Grid::from_fn(w, h, |r, c| if solid[(r, c)] != 0 { [0.0; 3] } else { dye(r, c) });
    s.dye = [0, 1, 2].map(|i| colours.map(|d| d[i]));
    s.density = colours.map(|d| d[0].max(d[1].max(d[2])));
    s
}

/// Two overlapping coloured blobs, some thin smoke between.
fn blobs(r: usize, c: usize) -> [f32; 3] {
    let g = |cr: f32, cc: f32, s: f32| (-((r as f32 - cr).powi(2) + (c as f32 - cc).powi(2)) / (2.0 * s * s)).exp();
    let (a, b) = (g(12.0, 14.0, 4.0), g(18.0, 22.0, 5.0));
    [0.9 * a + 0.2 * b, 0.3 * a + 0.5 * b, 0.1 * a + 1.0 * b]
}

/// The mirror of a smoke state's lit look.
fn smoke_mirror(s: &eddy_fluid::smoke::SmokeState, blend: Blend) -> impl Fn((f32, f32)) -> [f32; 4] + '_ {
    let (h, w) = s.density.shape();
    let area = area((w as u32, h as u32));
    move |p| {
        let fields = smoke_lit::Fields { dye: Some(&s.dye), density: &s.density, solid: &s.solid };
        smoke_lit::shade(&fields, area, smoke_lit::Lighting::default(), blend, p)
    }
}

#[test]
fn lit_smoke_matches_its_mirror_opaque_and_over_a_layer() {
    let gpu = common::gpu();
    let s = smoke(36, 30, true, blobs);
    for blend in [Blend::Opaque, Blend::Alpha] {
        let image = draw(&gpu, &mut styled(&gpu, &AnyState::Smoke(s.clone()), blend));
        assert_matches_mirror(&format!("lit smoke, {blend:?}"), &image, smoke_mirror(&s, blend));
    }
}

/// Uniform dye gives one colour everywhere (no gradient, the same shadow and glow at every
/// pixel, the grid's edge clamped); empty smoke is the documented background (0.03, 0.04, 0.08),
/// or transparent over a layer.
#[test]
fn lit_smoke_is_flat_where_the_dye_is_uniform_and_background_where_empty() {
    let gpu = common::gpu();
    let uniform = smoke(24, 20, false, |_, _| [0.6, 0.3, 0.15]);
    let image = draw(&gpu, &mut styled(&gpu, &AnyState::Smoke(uniform), Blend::Opaque));
    let first = image.get_pixel(0, 0).0;
    assert!(first[0] > first[1] && first[1] > first[2], "uniform orange dye drawn {first:?}");
    assert_flat("uniform dye", &image, first);
    let empty = smoke(24, 20, false, |_, _| [0.0; 3]);
    let image = draw(&gpu, &mut styled(&gpu, &AnyState::Smoke(empty.clone()), Blend::Opaque));
    assert_flat("empty smoke", &image, bytes([0.03, 0.04, 0.08], 1.0));
    let image = draw(&gpu, &mut styled(&gpu, &AnyState::Smoke(empty), Blend::Alpha));
    assert_flat("empty smoke over a layer", &image, [0, 0, 0, 0]);
}

/// White smoke filling the left half: the opacity falls from nearly 1 to 0 across the column of
/// pixels at the middle (between the centres of cells W/2 - 1 and W/2), so the pixel row's
/// brightness halfway between its two ends lies within a cell of x = W/2.
#[test]
fn lit_smoke_puts_a_step_edge_where_the_step_is() {
    let gpu = common::gpu();
    let (w, h) = (32usize, 16usize);
    let s = smoke(w, h, false, |_, c| if c < w / 2 { [1.0; 3] } else { [0.0; 3] });
    let mut model = styled(&gpu, &AnyState::Smoke(s), Blend::Opaque);
    model.set_lighting(smoke_lit::Lighting { bloom: 0.0, ..Default::default() });
    let image = draw(&gpu, &mut model);
    let row = (h as u32 / 2) * SCALE;
    let lum = |x: u32| image.get_pixel(x, row).0[1] as f32;
    let (left, right) = (lum(SCALE), lum(image.width() - 1));
    let half = 0.5 * (left + right);
    let crossing = (0..image.width()).find(|&x| lum(x) < half).unwrap() as f32 / SCALE as f32;
    assert!(left > 100.0 && right < 20.0, "the smoke side {left}, the empty side {right}");
    assert!((crossing - w as f32 / 2.0).abs() <= 1.0, "the edge drawn at x = {crossing} cells, not {}", w / 2);
}

/// Water with a floor, a pool, a drop and a ledge: the surface look matches its mirror; a second
/// draw after steps grows foam where the mass changed (held to the foam pass's mirror); a draw
/// without steps since holds the foam still.
#[test]
fn water_surface_and_its_foam_match_their_mirrors() {
    let gpu = common::gpu();
    let (w, h) = (40usize, 30usize);
    let solid = Grid::from_fn(w, h, |r, c| (r >= h - 2 || (r == 14 && (5..12).contains(&c))) as u8);
    let mass = Grid::from_fn(w, h, |r, c| {
        if solid[(r, c)] != 0 {
            0.0
        } else if r >= 20 {
            1.0 + 0.02 * (r - 20) as f32
        } else if r == 19 {
            0.4
        } else if (5..8).contains(&r) && (25..29).contains(&c) {
            1.0
        } else {
            0.0
        }
    });
    let state = WaterState { mass, solid: solid.clone(), bodies: Vec::new() };
    let params = ModelParams::defaults(ModelKind::Water);
    let ModelParams::Water(wp) = &params else { panic!("water") };
    let (max_compress, min_mass) = (wp.max_compress, wp.min_mass);
    for blend in [Blend::Opaque, Blend::Alpha] {
        let mut model = styled(&gpu, &AnyState::Water(state.clone()), blend);
        let first = draw(&gpu, &mut model);
        let zero = Grid::filled(w, h, [0.0f32; 2]);
        let drawn = water_surface::foam(&state.mass, &zero, &solid, 0, min_mass);
        let a = area((w as u32, h as u32));
        let name = format!("water surface, {blend:?}");
        assert_matches_mirror(&name, &first, |p| water_surface::shade(&drawn, &solid, max_compress, a, blend, p));
        model.step(4).unwrap();
        let AnyState::Water(after) = model.read_state().unwrap() else { panic!("water") };
        let second = draw(&gpu, &mut model);
        let foamed = water_surface::foam(&after.mass, &drawn, &solid, 4, min_mass);
        assert!(foamed.as_slice().iter().any(|f| f[1] > 0.5), "four steps of a falling drop made no foam");
        let name = format!("water foam, {blend:?}");
        assert_matches_mirror(&name, &second, |p| water_surface::shade(&foamed, &solid, max_compress, a, blend, p));
        assert_eq!(draw(&gpu, &mut model), second, "a draw with no step since changed the foam");
    }
}

/// Still water filling the box at mass 1 is one flat colour (the shallow blue lightened at the
/// top of the rim: m - ISO = 0.5 > RIM, so none); a level surface at row H/2 (mass 1 below, 0
/// above) is drawn at y = H/2 cells within a pixel, with air above (the documented AIR colour)
/// and ground where solid.
#[test]
fn water_surface_is_flat_when_full_and_level_at_a_step() {
    let gpu = common::gpu();
    let (w, h) = (20usize, 16usize);
    let full = WaterState { mass: Grid::filled(w, h, 1.0), solid: Grid::filled(w, h, 0), bodies: Vec::new() };
    let image = draw(&gpu, &mut styled(&gpu, &AnyState::Water(full), Blend::Opaque));
    assert_flat("full water", &image, bytes([0.25, 0.62, 0.88], 1.0));
    let level = WaterState {
        mass: Grid::from_fn(w, h, |r, _| if r >= h / 2 { 1.0 } else { 0.0 }),
        solid: Grid::from_fn(w, h, |_, c| (c == 0) as u8),
        bodies: Vec::new(),
    };
    let image = draw(&gpu, &mut styled(&gpu, &AnyState::Water(level), Blend::Opaque));
    let edge = h as u32 / 2 * SCALE;
    let x = 10 * SCALE;
    let air = bytes([0.88, 0.93, 0.97], 1.0);
    assert_flat("air above", &image.view(SCALE, 0, image.width() - SCALE, edge - 1).to_image(), air);
    let below = image.get_pixel(x, edge + 1).0;
    assert!(below[2] > 200 && below[0] < 200, "just under the surface {below:?}");
    assert_eq!(image.get_pixel(1, 1).0, bytes([0.42, 0.31, 0.22], 1.0), "the ground colour");
}

fn gas(density: Grid<f32>, solid: Grid<u8>) -> AnyState {
    let (h, w) = density.shape();
    let zero = Grid::filled(w, h, 0.0);
    AnyState::Gas(eddy_fluid::gas::GasState {
        density,
        momentum_x: zero.clone(),
        momentum_y: zero,
        solid,
        source: Grid::filled(w, h, 0),
        bodies: Vec::new(),
    })
}

/// A pulse and a wall: the schlieren look matches its mirror.
#[test]
fn gas_schlieren_matches_its_mirror() {
    let gpu = common::gpu();
    let (w, h) = (36usize, 28usize);
    let solid = Grid::from_fn(w, h, |r, c| ((10..14).contains(&r) && (20..23).contains(&c)) as u8);
    let density = Grid::from_fn(w, h, |r, c| {
        let d2 = (r as f32 - 14.0).powi(2) + (c as f32 - 12.0).powi(2);
        if solid[(r, c)] != 0 { 0.0 } else { 1.0 + 0.3 * (-d2 / 18.0).exp() }
    });
    let image = draw(&gpu, &mut styled(&gpu, &gas(density.clone(), solid.clone()), Blend::Opaque));
    let a = area((w as u32, h as u32));
    let strength = gas_schlieren::SCHLIEREN_STRENGTH;
    assert_matches_mirror("gas schlieren", &image, |p| gas_schlieren::shade(&density, &solid, strength, a, p));
}

/// Uniform gas is the documented light colour (0.93, 0.91, 0.86) everywhere; a density step at
/// x = W/2 darkens only the cells beside it: the darkest pixel of a row lies within a cell of
/// the step, and pixels more than 2 cells from it are the light colour.
#[test]
fn gas_schlieren_is_light_where_uniform_and_dark_at_a_step() {
    let gpu = common::gpu();
    let (w, h) = (30usize, 12usize);
    let light = bytes([0.93, 0.91, 0.86], 1.0);
    let image = draw(&gpu, &mut styled(&gpu, &gas(Grid::filled(w, h, 1.3), Grid::filled(w, h, 0)), Blend::Opaque));
    assert_flat("uniform gas", &image, light);
    let step = Grid::from_fn(w, h, |_, c| if c < w / 2 { 2.0 } else { 1.0 });
    let image = draw(&gpu, &mut styled(&gpu, &gas(step, Grid::filled(w, h, 0)), Blend::Opaque));
    let row = h as u32 / 2 * SCALE;
    let darkest = (0..image.width()).min_by_key(|&x| image.get_pixel(x, row).0[0]).unwrap() as f32 / SCALE as f32;
    assert!((darkest - w as f32 / 2.0).abs() <= 1.0, "the darkest pixel at x = {darkest} cells");
    assert!(image.get_pixel(image.width() / 2, row).0[0] < 60, "the step is not dark");
    for x in (0..image.width()).filter(|&x| (x as f32 / SCALE as f32 - w as f32 / 2.0).abs() > 2.0) {
        assert_eq!(image.get_pixel(x, row).0, light, "pixel {x} far from the step");
    }
}

/// Golden images of each look at a fixed state, `tests/golden/look-*.png`: a change to a look
/// shows here. `EDDY_BLESS=1` writes them afresh (then look at them before committing).
#[test]
fn each_look_matches_its_golden_image() {
    let gpu = common::gpu();
    let water = {
        let (w, h) = (40usize, 30usize);
        let solid = Grid::from_fn(w, h, |r, c| (r >= h - 2 || (r >= 16 && c < 6)) as u8);
        let mass = Grid::from_fn(w, h, |r, c| {
            let surface = 18.0 + 3.0 * (c as f32 * 0.3).sin();
            if solid[(r, c)] != 0 || (r as f32) < surface - 1.0 {
                0.0
            } else if (r as f32) < surface {
                surface - r as f32
            } else {
                1.0 + 0.02 * (r as f32 - surface)
            }
        });
        AnyState::Water(WaterState { mass, solid, bodies: Vec::new() })
    };
    let smoke = AnyState::Smoke(smoke(36, 30, true, blobs));
    let gas = {
        let (w, h) = (36usize, 28usize);
        let density = Grid::from_fn(w, h, |r, c| {
            let d = ((r as f32 - 14.0).powi(2) + (c as f32 - 12.0).powi(2)).sqrt();
            1.0 + 0.2 * (d * 0.8).sin() * (-d / 10.0).exp() + if c > 28 { 0.5 } else { 0.0 }
        });
        gas(density, Grid::filled(w, h, 0))
    };
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    for (name, state) in [("water", water), ("smoke", smoke), ("gas", gas)] {
        let image = draw(&gpu, &mut styled(&gpu, &state, Blend::Opaque));
        let path = dir.join(format!("look-{name}.png"));
        if std::env::var_os("EDDY_BLESS").is_some() {
            std::fs::create_dir_all(&dir).unwrap();
            image.save(&path).unwrap();
            continue;
        }
        let golden = image::open(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (EDDY_BLESS=1 cargo test --test looks writes it)", path.display()))
            .to_rgba8();
        assert_eq!(golden.dimensions(), image.dimensions(), "{name}: the golden image's size");
        let diffs: Vec<i32> =
            golden.as_raw().iter().zip(image.as_raw()).map(|(&a, &b)| (a as i32 - b as i32).abs()).collect();
        let (worst, mean) = (*diffs.iter().max().unwrap(), diffs.iter().sum::<i32>() as f64 / diffs.len() as f64);
        if worst > 6 || mean > 0.5 {
            let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-failures");
            std::fs::create_dir_all(&out).unwrap();
            image.save(out.join(format!("look-{name}.png"))).unwrap();
            panic!(
                "{name}: differs from {} by up to {worst}/255, {mean:.2} on average (drawn: target/test-failures)",
                path.display()
            );
        }
    }
}
