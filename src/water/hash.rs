//! The water's state hash: 64 bits that say whether two states are the same to the bit (a run
//! and its replay, the same run on two adapters), computed on the GPU (`shaders/water/hash.wgsl`)
//! and, the same way, on the CPU ([`state_hash`]).
//!
//! Each cell `(row, col)` of a `W`-wide grid, index `i = row W + col`, gives a word `v`: its
//! mass's bits, with the top bit set where the cell is a wall (a mass is never negative, so that
//! bit is free). Two 32-bit lanes, `lane0 = pcg(v ^ pcg(i))` and `lane1 = pcg(v + pcg(i ^
//! 0x9e3779b9))` (`pcg`: the PCG output permutation as a hash, Jarzynski & Olano, "Hash Functions
//! for GPU Rendering", JCGT 9(3), 2020), are summed over the cells with wrapping; the hash is
//! `lane1 << 32 | lane0`. A sum does not depend on the order the cells are added in, so every
//! adapter and thread count gives the same hash for the same bits, and a cell that differs
//! changes it but for a chance of about 2^-64.

use crate::grid::Grid;

/// The PCG hash of `x` (`pcg` in `shaders/water/hash.wgsl`).
pub fn pcg(x: u32) -> u32 {
    let state = x.wrapping_mul(747_796_405).wrapping_add(2_891_336_453);
    let word = ((state >> ((state >> 28) + 4)) ^ state).wrapping_mul(277_803_737);
    (word >> 22) ^ word
}

/// The two lanes of cell `index` with word `v` (module docs).
pub fn lanes(index: u32, v: u32) -> (u32, u32) {
    (pcg(v ^ pcg(index)), pcg(v.wrapping_add(pcg(index ^ 0x9e37_79b9))))
}

/// The hash of a water state: `mass` and `solid` `(H, W)`, non-zero = wall (module docs).
///
/// # Panics
/// If the grids' shapes differ.
pub fn state_hash(mass: &Grid<f32>, solid: &Grid<u8>) -> u64 {
    assert_eq!(mass.shape(), solid.shape(), "mass and solid of one grid");
    let (mut lo, mut hi) = (0u32, 0u32);
    for (i, (&m, &s)) in mass.as_slice().iter().zip(solid.as_slice()).enumerate() {
        let v = m.to_bits() | if s != 0 { 1 << 31 } else { 0 };
        let (a, b) = lanes(i as u32, v);
        lo = lo.wrapping_add(a);
        hi = hi.wrapping_add(b);
    }
    (u64::from(hi) << 32) | u64::from(lo)
}

/// The hash as `eddy run` and Python print it: 16 hexadecimal digits.
pub fn hex(hash: u64) -> String {
    format!("{hash:016x}")
}
