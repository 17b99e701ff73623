//! The packed layout (`shaders/common/packed.wgsl`): four cells of a row in one `rgba32float`
//! texel, cell `(row y, column 4x + k)` in component `k` of texel `(x, y)`, padding cells past
//! the last column 0; per-cell bits four to an `r32uint` texel, cell `k`'s in byte `k`. Passes
//! that run four cells an invocation use it (the Jacobi iterations, [`crate::solver::packed`],
//! packing their right-hand side with `solver/pack.wgsl` and unpacking the pressure with
//! `common/unpack.wgsl`, whose CPU mirrors are [`pack`] and [`unpack`]; the water step, with
//! its own `water/pack.wgsl`, which carries the solid cells in the masses' signs, and
//! `common/unpack.wgsl` with `MAGNITUDE`).

use crate::grid::Grid;

/// Cells per packed texel.
pub const CELLS_PER_TEXEL: usize = 4;

/// The wall bits of a padding cell past a grid's last column in a packed wall texel
/// ([`pack_bits`]' `padding`): a wall (bit 0 of `crate::solver::wall_bits`).
pub const WALL_PADDING: u32 = 1;

/// Texels of the packed layout of a `width x height` grid, `(ceil(width / 4), height)`.
pub fn packed_size(width: u32, height: u32) -> (u32, u32) {
    (width.div_ceil(CELLS_PER_TEXEL as u32), height)
}

/// `field` `(H, W)` in the packed layout, texel by texel, row-major, times `scale`, as
/// `solver/pack.wgsl` writes the right-hand side; padding cells 0.
pub fn pack(field: &Grid<f32>, scale: f32) -> Vec<[f32; 4]> {
    let (h, w) = field.shape();
    let (pw, _) = packed_size(w as u32, h as u32);
    let mut texels = vec![[0.0; 4]; pw as usize * h];
    for r in 0..h {
        for c in 0..w {
            texels[r * pw as usize + c / CELLS_PER_TEXEL][c % CELLS_PER_TEXEL] = scale * field[(r, c)];
        }
    }
    texels
}

/// The packed texels of a `width`-wide grid back into its `(H, W)` field, as
/// `common/unpack.wgsl` writes it (padding dropped).
pub fn unpack(texels: &[[f32; 4]], width: usize) -> Grid<f32> {
    let pw = width.div_ceil(CELLS_PER_TEXEL);
    let height = texels.len() / pw.max(1);
    Grid::from_fn(width, height, |r, c| texels[r * pw + c / CELLS_PER_TEXEL][c % CELLS_PER_TEXEL])
}

/// Per-cell `bits` (row-major, `width` cells a row, each below 256) packed four to a `u32`,
/// cell `k` of a texel in byte `k`; padding cells get `padding`.
pub fn pack_bits(bits: &[u32], width: usize, padding: u32) -> Vec<u32> {
    let pw = width.div_ceil(CELLS_PER_TEXEL);
    let height = bits.len() / width.max(1);
    let mut texels = Vec::with_capacity(pw * height);
    for r in 0..height {
        for x in 0..pw {
            let mut texel = 0;
            for k in 0..CELLS_PER_TEXEL {
                let c = x * CELLS_PER_TEXEL + k;
                texel |= if c < width { bits[r * width + c] } else { padding } << (8 * k);
            }
            texels.push(texel);
        }
    }
    texels
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_and_unpack_are_inverse_at_any_width() {
        for w in 1..=9 {
            let field = Grid::from_fn(w, 3, |r, c| (r * 10 + c) as f32);
            let texels = pack(&field, 1.0);
            assert_eq!(texels.len(), w.div_ceil(4) * 3);
            assert_eq!(unpack(&texels, w), field);
            // Cells keep their place, padding cells are 0: (row 1, columns 4, 5) in texel (1, 1).
            if w == 6 {
                assert_eq!(texels[3], [14.0, 15.0, 0.0, 0.0]);
            }
        }
    }
}
