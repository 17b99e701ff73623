//! Water worlds past the adapter's largest texture: the masses kept in the step's packed layout
//! alone ([`crate::gpu::packed`]: four cells of a row a texel, a wall's mass stored negated,
//! `shaders/water/pack.wgsl`), so that a world may be four times as wide as the adapter's
//! `max_texture_dimension_2d` (65,536 cells on lavapipe and most GPUs, whose largest side is
//! 16,384) and four times as tall, memory allowing.
//!
//! The water keeps one cell a texel (mass and wall bits beside the packed pair) wherever the grid
//! fits a texture: the renderer, the brush, the statistics and readbacks read that. A world past
//! the side has the packed pair alone ([`GpuWater::is_packed_world`](super::gpu::GpuWater::is_packed_world)):
//! runs of steps continue from the packed texture the last one left, with no pack or unpack;
//! the state goes up packed by [`pack`] and comes back by [`unpack`]; the brush and new walls
//! are one pass over the box of texels they touch (`shaders/water/edit_packed.wgsl`); the
//! statistics and the state hash read the packed texels (`water/stats_packed.wgsl`,
//! `water/hash_packed.wgsl`) and give what they give for the same water kept one cell a texel.
//! Such a world takes no bodies.
//!
//! **Pages.** A world taller than a texture's side, or whose packed texture would hold more than
//! the adapter allows in one resource ([`DeviceCaps::max_texture_bytes`]), is cut across into
//! pages of rows ([`pages`]), each a ping-pong pair of its own with [`HALO`] rows above and below
//! its own that hold copies of its neighbours' edge rows (the step reads a row above and two
//! below the rows it steps) or, at the world's top and bottom, the cells beyond the edge. Each
//! step runs the step over every page's own rows and then copies each page's edge rows into its
//! neighbours' halos, so a paged world steps to the bits of the same world in one texture. Every
//! other pass runs page by page with the page's first row. Still water sleeps page by page, each
//! page with tiles of its own ([`super::tiles`]): a tile that changed within reach of its page's
//! edge wakes the tile beyond it in the next page (`shaders/water/wake_edges.wgsl`), as it wakes
//! its neighbours within the page.

use super::{Arithmetic, Boundary, WaterState};
use crate::gpu::packed::CELLS_PER_TEXEL;
use crate::gpu::{DeviceCaps, GpuError};
use crate::grid::Grid;
use std::ops::Range;

/// A packed world's textures, as [`crate::model::ModelInfo::textures`] lists a model's: the
/// packed mass, a ping-pong pair, four bytes a cell each ([`crate::model::memory`] estimates from
/// it).
pub const TEXTURES: &[(&str, u32, u32)] = &[("packed mass, rgba32float", 4, 2)];

/// Rows a page of a paged world keeps above its own rows and below them: the step of a row reads
/// the row above it and the two below (`shaders/water/walk.wgsl`).
pub const HALO: u32 = 2;

/// Bytes a packed texel holds.
const TEXEL_BYTES: u64 = 16;

/// Bytes a row of a packed world `width` cells wide holds.
fn row_bytes(width: u32) -> u64 {
    u64::from(width.div_ceil(CELLS_PER_TEXEL as u32)) * TEXEL_BYTES
}

/// The rows of halo each of `pages` pages keeps above and below its own: [`HALO`] in a paged
/// world, none in one page.
pub fn halo(pages: usize) -> u32 {
    if pages > 1 { HALO } else { 0 }
}

/// Whether a `(width, height)` grid is a packed world on an adapter whose largest texture side
/// is `max_side`: a side past it.
pub fn is_packed_world((width, height): (usize, usize), max_side: u32) -> bool {
    width > max_side as usize || height > max_side as usize
}

/// The largest water world, `(width, height)` in cells, on an adapter whose largest texture side
/// is `max_side`: four texture sides across (four cells a texel) and four down (in pages).
pub fn largest(max_side: u32) -> (usize, usize) {
    (CELLS_PER_TEXEL * max_side as usize, 4 * max_side as usize)
}

/// Checks that a `width x height` water world fits an adapter whose largest texture side is
/// `max_side` ([`largest`]).
///
/// # Errors
/// [`GpuError::WorldTooLarge`] when a side is 0 or past [`largest`].
pub fn check_size(width: usize, height: usize, max_side: u32) -> Result<(), GpuError> {
    let (most_wide, most_tall) = largest(max_side);
    if width == 0 || height == 0 || width > most_wide || height > most_tall {
        return Err(GpuError::WorldTooLarge { width, height, max_width: most_wide, max_height: most_tall });
    }
    Ok(())
}

/// The pages of a packed world `width` cells across and `height` rows down on an adapter with
/// `caps`, as ranges of the world's rows: one page (without halo) where one texture of the
/// adapter's holds the world, else pages of near equal rows (at least [`HALO`] each on any
/// adapter whose texture holds 8 rows), each with its [`HALO`] rows above and below within the
/// texture side and [`DeviceCaps::max_texture_bytes`].
pub fn pages(width: u32, height: u32, caps: &DeviceCaps) -> Vec<Range<u32>> {
    pages_within(width, height, caps.max_texture_side, caps.max_texture_bytes)
}

/// [`pages`] on an adapter whose textures have at most `max_side` rows and `max_bytes` bytes.
pub fn pages_within(width: u32, height: u32, max_side: u32, max_bytes: u64) -> Vec<Range<u32>> {
    let rows_held = (max_bytes / row_bytes(width)).min(u64::from(max_side)) as u32;
    if height <= rows_held {
        return std::iter::once(0..height).collect();
    }
    let most = rows_held.saturating_sub(2 * HALO).max(1);
    let count = height.div_ceil(most);
    // The first `height % count` pages a row more than the rest.
    let (rows, longer) = (height / count, height % count);
    let start = |i: u32| i * rows + i.min(longer);
    (0..count).map(|i| start(i)..start(i + 1)).collect()
}

/// The bytes of the largest packed texture of a packed world `width x height` on an adapter
/// whose textures have at most `max_side` rows and `max_bytes` bytes ([`pages_within`]).
pub fn largest_texture_bytes(width: u32, height: u32, max_side: u32, max_bytes: u64) -> u64 {
    let pages = pages_within(width, height, max_side, max_bytes);
    let halo = halo(pages.len());
    let rows = pages.iter().map(|r| texture_rows(r, halo)).max().unwrap_or(0);
    row_bytes(width) * u64::from(rows)
}

/// The rows of page `rows`'s texture, halo included, with `halo` rows of halo.
pub fn texture_rows(rows: &Range<u32>, halo: u32) -> u32 {
    rows.len() as u32 + 2 * halo
}

/// `state`'s masses in the packed layout, texel by texel, row-major, as `water/pack.wgsl` packs
/// them: `|m|` in an open cell, `-|m|` in a wall (`-0.0`: walls hold no water after
/// [`WaterState::validate`](super::WaterState)), padding cells past the last column as the step
/// reads the cells beyond the edges (`+0.0` with [`Boundary::Open`], `-0.0` with
/// [`Boundary::Wall`]). In fixed point each mass is first rounded down to the unit
/// ([`super::fixed::quantize`]), as every upload of fixed-point water rounds it.
pub fn pack(state: &WaterState, boundary: Boundary, arithmetic: Arithmetic) -> Vec<[f32; 4]> {
    let (h, w) = state.shape();
    let pw = w.div_ceil(CELLS_PER_TEXEL);
    let outside = outside(boundary);
    let magnitude = |m: f32| match arithmetic {
        Arithmetic::Float => m.abs(),
        Arithmetic::Fixed => super::fixed::quantize(m.abs()),
    };
    let mut texels = vec![[outside; 4]; pw * h];
    for r in 0..h {
        for c in 0..w {
            let m = magnitude(state.mass[(r, c)]);
            texels[r * pw + c / CELLS_PER_TEXEL][c % CELLS_PER_TEXEL] = if state.solid[(r, c)] != 0 { -m } else { m };
        }
    }
    texels
}

/// What the step reads beyond the world's edges with `boundary`: no water, in a wall (`-0.0`)
/// or open air (`+0.0`) (`outside_mass` in `shaders/water/params.wgsl`).
fn outside(boundary: Boundary) -> f32 {
    if boundary == Boundary::Wall { -0.0 } else { 0.0 }
}

/// The texels of the page of rows `rows` with `halo` rows above and below, from `texels`, a
/// packed world `texels_wide` texels across ([`pack`]): the halo rows past the world's edges as
/// the step reads the cells beyond them with `boundary`.
pub fn page_texels(
    texels: &[[f32; 4]],
    texels_wide: usize,
    rows: &Range<u32>,
    halo: u32,
    boundary: Boundary,
) -> Vec<[f32; 4]> {
    let height = (texels.len() / texels_wide) as i64;
    let (first, last) = (i64::from(rows.start) - i64::from(halo), i64::from(rows.end) + i64::from(halo));
    let mut page = Vec::with_capacity((last - first) as usize * texels_wide);
    for r in first..last {
        match (0..height).contains(&r) {
            true => page.extend_from_slice(&texels[r as usize * texels_wide..(r as usize + 1) * texels_wide]),
            false => page.extend(std::iter::repeat_n([outside(boundary); 4], texels_wide)),
        }
    }
    page
}

/// The masses of packed `texels` of a `width`-wide world, `(H, W)`: the magnitudes, as
/// `common/unpack.wgsl` with `MAGNITUDE` unpacks them (padding dropped).
pub fn unpack(texels: &[[f32; 4]], width: usize) -> Grid<f32> {
    let mut mass = crate::gpu::packed::unpack(texels, width);
    for m in mass.as_mut_slice() {
        *m = m.abs();
    }
    mass
}

/// The walls of `solid` over the box of texel columns `texels` and `rows`, a word a texel, bit
/// `k` for its cell `k` (`wall_bits` in `water/edit_packed.wgsl`); cells past the last column 0.
pub fn wall_bits(solid: &Grid<u8>, rows: std::ops::Range<usize>, texels: std::ops::Range<usize>) -> Vec<u32> {
    let (_, w) = solid.shape();
    let mut words = Vec::with_capacity(rows.len() * texels.len());
    for r in rows {
        for x in texels.clone() {
            let wall = |k: usize| {
                let c = x * CELLS_PER_TEXEL + k;
                (c < w && solid[(r, c)] != 0) as u32
            };
            words.push((0..CELLS_PER_TEXEL).map(|k| wall(k) << k).sum());
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_keeps_the_walls_in_the_signs_and_unpacking_gives_the_masses_back() {
        let mass = Grid::from_fn(6, 2, |r, c| if (r + c) % 3 == 0 { 0.0 } else { 0.25 * (r * 6 + c) as f32 });
        let solid = Grid::from_fn(6, 2, |r, c| u8::from(r == 1 && c == 2));
        let mut mass_open = mass.clone();
        mass_open[(1, 2)] = 0.0;
        let state = WaterState { mass: mass_open.clone(), solid, bodies: Vec::new() };
        let texels = pack(&state, Boundary::Wall, Arithmetic::Float);
        assert_eq!(texels.len(), 2 * 2);
        // Row 1, column 2: texel (0, 1), component 2, a wall: -0.0.
        assert_eq!(texels[2][2].to_bits(), (-0.0f32).to_bits());
        // Padding past column 5 reads as the wall outside.
        assert_eq!(texels[1][2].to_bits(), (-0.0f32).to_bits());
        assert_eq!(pack(&state, Boundary::Open, Arithmetic::Float)[1][3].to_bits(), 0.0f32.to_bits());
        // In fixed point, rounded down to the unit (1/16384): 0.25 is whole, the wall stays -0.0.
        let fixed = pack(&state, Boundary::Wall, Arithmetic::Fixed);
        assert_eq!(fixed[2][2].to_bits(), (-0.0f32).to_bits());
        assert_eq!(fixed[0][1], 0.25);
        assert_eq!(unpack(&texels, 6), mass_open);
        assert_eq!(wall_bits(&state.solid, 1..2, 0..2), vec![0b100, 0]);
    }

    #[test]
    fn a_world_is_four_texture_sides_wide_and_four_tall() {
        assert_eq!(largest(16384), (65536, 65536));
        assert!(!is_packed_world((16384, 16384), 16384));
        assert!(is_packed_world((32768, 8192), 16384));
        assert!(check_size(32768, 8192, 16384).is_ok());
        let e = check_size(65537, 8, 16384).unwrap_err().to_string();
        assert!(e.contains("65537x8") && e.contains("65536") && !e.contains('\n'), "{e}");
        assert!(check_size(8, 65536, 16384).is_ok());
        assert!(check_size(8, 65537, 16384).is_err());
        assert!(check_size(0, 8, 16384).is_err());
    }

    /// One page where one texture holds the world; else pages of near equal rows covering it
    /// once, each within the side and the bytes with its halo.
    #[test]
    fn pages_cover_the_rows_once_within_a_texture() {
        let caps = |side: u32, bytes: u64| DeviceCaps {
            runs_on_cpu: true,
            unified_memory: true,
            strip: 32,
            storage_textures_per_stage: 8,
            max_texture_side: side,
            max_texture_bytes: bytes,
            lazy_pipelines: false,
        };
        assert_eq!(pages(64, 64, &caps(64, 1 << 30)), vec![0..64]);
        assert_eq!(pages(64, 65, &caps(64, 1 << 30)), vec![0..33, 33..65]);
        // 16 texels of 16 bytes a row, 20 rows a texture by the bytes: at most 16 rows a page.
        assert_eq!(pages(64, 40, &caps(64, 20 * 256)), vec![0..14, 14..27, 27..40]);
        for (h, side) in [(200, 64), (1000, 64), (61, 64), (129, 16)] {
            let p = pages(100, h, &caps(side, 1 << 30));
            assert_eq!(p.first().unwrap().start, 0);
            assert_eq!(p.last().unwrap().end, h);
            assert!(p.windows(2).all(|w| w[0].end == w[1].start), "{p:?}");
            let halo = halo(p.len());
            assert!(p.iter().all(|r| texture_rows(r, halo) <= side), "{h} rows, side {side}: {p:?}");
            assert!(p.iter().all(|r| r.len() as u32 >= HALO), "{h} rows, side {side}: {p:?}");
        }
        // The wider the world, the fewer rows the bytes allow.
        assert_eq!(pages(65536, 100, &caps(16384, (1 << 31) - 1)).len(), 1);
        let tall = pages(65536, 16384, &caps(16384, (1u64 << 31) - 1));
        assert_eq!(tall.len(), 3, "{tall:?}");
    }
}
