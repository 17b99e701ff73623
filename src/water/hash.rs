//! The water's state hash: 64 bits that say whether two states are the same to the bit (a run
//! and its replay, the same run on two adapters), computed on the GPU (`shaders/water/hash.wgsl`)
//! and, the same way, on the CPU ([`state_hash`]).
//!
//! The words hashed ([`crate::gpu::state_hash`], which says how) are one a cell, numbered
//! `i = row W + col` in a `W`-wide grid: the cell's mass's bits, with the top bit set where the
//! cell is a wall (a mass is never negative, so that bit is free).

use crate::gpu::state_hash::hash_words;
use crate::grid::Grid;

/// The hash of a water state: `mass` and `solid` `(H, W)`, non-zero = wall (module docs).
///
/// # Panics
/// If the grids' shapes differ.
pub fn state_hash(mass: &Grid<f32>, solid: &Grid<u8>) -> u64 {
    assert_eq!(mass.shape(), solid.shape(), "mass and solid of one grid");
    let words = mass.as_slice().iter().zip(solid.as_slice());
    hash_words(words.map(|(&m, &s)| m.to_bits() | if s != 0 { 1 << 31 } else { 0 }))
}
