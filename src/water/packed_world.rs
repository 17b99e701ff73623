//! Water worlds wider than the adapter's largest texture: the masses kept in the step's packed
//! layout alone ([`crate::gpu::packed`]: four cells of a row a texel, a wall's mass stored
//! negated, `shaders/water/pack.wgsl`), so that a world may be four times as wide as the
//! adapter's `max_texture_dimension_2d` (65,536 cells on lavapipe and most GPUs, whose largest
//! side is 16,384), as tall as that side.
//!
//! The water keeps one cell a texel (mass and wall bits beside the packed pair) wherever the grid
//! fits a texture: the renderer, the brush, the statistics and readbacks read that. A world past
//! the side has the packed pair alone ([`GpuWater::is_packed_world`](super::gpu::GpuWater::is_packed_world)):
//! runs of steps continue from the packed texture the last one left, with no pack or unpack;
//! the state goes up packed by [`pack`] and comes back by [`unpack`]; the brush and new walls
//! are one pass over the box of texels they touch (`shaders/water/edit_packed.wgsl`); the
//! statistics and the state hash read the packed texels (`water/stats_packed.wgsl`,
//! `water/hash_packed.wgsl`) and give what they give for the same water kept one cell a texel.
//! Such a world is not drawn yet, and takes no bodies.

use super::{Arithmetic, Boundary, WaterState};
use crate::gpu::GpuError;
use crate::gpu::packed::CELLS_PER_TEXEL;
use crate::grid::Grid;

/// A packed world's textures, as [`crate::model::ModelInfo::textures`] lists a model's: the
/// packed mass, a ping-pong pair, four bytes a cell each ([`crate::model::memory`] estimates from
/// it).
pub const TEXTURES: &[(&str, u32, u32)] = &[("packed mass, rgba32float", 4, 2)];

/// Whether a `(width, height)` grid is a packed world on an adapter whose largest texture side
/// is `max_side`: a side past it.
pub fn is_packed_world((width, height): (usize, usize), max_side: u32) -> bool {
    width > max_side as usize || height > max_side as usize
}

/// The largest water world, `(width, height)` in cells, on an adapter whose largest texture side
/// is `max_side`: four cells a texel across, a texel a row down.
pub fn largest(max_side: u32) -> (usize, usize) {
    (CELLS_PER_TEXEL * max_side as usize, max_side as usize)
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

/// `state`'s masses in the packed layout, texel by texel, row-major, as `water/pack.wgsl` packs
/// them: `|m|` in an open cell, `-|m|` in a wall (`-0.0`: walls hold no water after
/// [`WaterState::validate`](super::WaterState)), padding cells past the last column as the step
/// reads the cells beyond the edges (`+0.0` with [`Boundary::Open`], `-0.0` with
/// [`Boundary::Wall`]). In fixed point each mass is first rounded down to the unit
/// ([`super::fixed::quantize`]), as every upload of fixed-point water rounds it.
pub fn pack(state: &WaterState, boundary: Boundary, arithmetic: Arithmetic) -> Vec<[f32; 4]> {
    let (h, w) = state.shape();
    let pw = w.div_ceil(CELLS_PER_TEXEL);
    let outside = if boundary == Boundary::Wall { -0.0 } else { 0.0 };
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
    fn a_world_is_four_texture_sides_wide_and_one_tall() {
        assert_eq!(largest(16384), (65536, 16384));
        assert!(!is_packed_world((16384, 16384), 16384));
        assert!(is_packed_world((32768, 8192), 16384));
        assert!(check_size(32768, 8192, 16384).is_ok());
        let e = check_size(65537, 8, 16384).unwrap_err().to_string();
        assert!(e.contains("65537x8") && e.contains("65536") && !e.contains('\n'), "{e}");
        assert!(check_size(8, 16385, 16384).is_err());
        assert!(check_size(0, 8, 16384).is_err());
    }
}
