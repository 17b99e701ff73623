//! The gas's lattice: the faces a cell exchanges through (four, or eight with diagonals), their
//! directions, unit normals, lengths and the distances they span. Shared by the CPU reference
//! ([`super::cpu`]), the bodies ([`super::bodies`]) and the GPU's parameters (`params.wgsl`
//! holds the same numbers).

use super::Neighbours;

/// Offsets `(dcol, drow)` of the faces a cell owns: E, S, SE, SW. 4-way flow uses the first two.
pub const FORWARD: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

/// Unit vector of face `k` (diagonals scaled by exactly `1/sqrt(2)`, as in `params.wgsl`).
pub fn unit(k: usize) -> (f32, f32) {
    let (dx, dy) = FORWARD[k];
    let n = if k < 2 { 1.0 } else { std::f32::consts::FRAC_1_SQRT_2 };
    (dx as f32 * n, dy as f32 * n)
}

/// Length of an axis face with 8-way flow: 2/3 (see [`face_length`]).
pub const AXIS_LENGTH_8: f32 = 0.666_666_7;

/// Length of a diagonal face with 8-way flow: `sqrt(2) / 6` (see [`face_length`]).
pub const DIAGONAL_LENGTH_8: f32 = 0.235_702_26;

/// Distance between the centres of diagonal neighbours: `sqrt(2)` cells.
pub const DIAGONAL_DISTANCE: f32 = std::f32::consts::SQRT_2;

/// Length `L_k` of face `k` (the weight of its flux; cells): 1 with 4-way flow; with 8-way,
/// [`AXIS_LENGTH_8`] = 2/3 for the axis faces and [`DIAGONAL_LENGTH_8`] = `sqrt(2)/6` for the
/// diagonals. `L_axis + sqrt(2) L_diagonal = 1` makes uniform flow move mass at its velocity,
/// gives a uniform density gradient the pressure force `c^2 grad rho` and sound the speed `c`;
/// `L_axis = 2 sqrt(2) L_diagonal` makes the leading error of the gradient and the divergence,
/// and of the diffusion when `nu` is the same on every face (central flux), isotropic.
/// Derivation: the module docs of [`crate::gas`].
pub fn face_length(n: Neighbours, k: usize) -> f32 {
    match (n, k < 2) {
        (Neighbours::Four, _) => 1.0,
        (Neighbours::Eight, true) => AXIS_LENGTH_8,
        (Neighbours::Eight, false) => DIAGONAL_LENGTH_8,
    }
}

/// Distance `h_k` between the centres of the two cells face `k` separates: 1 or `sqrt(2)` cells.
pub fn face_distance(k: usize) -> f32 {
    if k < 2 { 1.0 } else { DIAGONAL_DISTANCE }
}

/// Number of faces in use.
pub fn face_count(n: Neighbours) -> usize {
    match n {
        Neighbours::Four => 2,
        Neighbours::Eight => 4,
    }
}

/// Direction `j` of the eight (four with 4-way flow) a cell exchanges with: `j < 4` is
/// [`FORWARD`]`[j]` (a face the cell owns), `j >= 4` is `-FORWARD[j - 4]` (W, N, NW, NE: owned
/// by the backward neighbour). Returns the offset `(dcol, drow)`, the unit vector and the face
/// index `k` in [`FORWARD`].
pub fn direction(j: usize) -> ((isize, isize), (f32, f32), usize) {
    let k = j % 4;
    let ((dc, dr), (ux, uy)) = (FORWARD[k], unit(k));
    if j < 4 { ((dc, dr), (ux, uy), k) } else { ((-dc, -dr), (-ux, -uy), k) }
}

/// The directions ([`direction`]) in use with `n`: E, S (+ SE, SW), W, N (+ NW, NE).
pub fn directions(n: Neighbours) -> impl Iterator<Item = usize> {
    let count = face_count(n);
    (0..count).chain(4..4 + count)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The face lengths satisfy the two conditions of their derivation (module docs of
    /// `crate::gas`): consistency and isotropy, to f32 rounding.
    #[test]
    fn face_lengths_are_consistent_and_isotropic() {
        let (a, d, h) = (AXIS_LENGTH_8 as f64, DIAGONAL_LENGTH_8 as f64, DIAGONAL_DISTANCE as f64);
        assert!((a + 2f64.sqrt() * d - 1.0).abs() < 1e-7, "L_axis + sqrt(2) L_diag = {}", a + 2f64.sqrt() * d);
        assert!(
            (a - 2.0 * 2f64.sqrt() * d).abs() < 1e-7,
            "L_axis = 2 sqrt(2) L_diag: {a} vs {}",
            2.0 * 2f64.sqrt() * d
        );
        assert!((h - 2f64.sqrt()).abs() < 1e-7);
        // The same sum over the actual faces: sum_k L_k h_k d_k d_k^T = I in both neighbourhoods.
        for n in [Neighbours::Four, Neighbours::Eight] {
            let mut m = [[0.0f64; 2]; 2];
            for k in 0..face_count(n) {
                let (u, w) = (unit(k), (face_length(n, k) * face_distance(k)) as f64);
                let u = [u.0 as f64, u.1 as f64];
                for i in 0..2 {
                    for j in 0..2 {
                        m[i][j] += w * u[i] * u[j];
                    }
                }
            }
            assert!(
                (m[0][0] - 1.0).abs() < 1e-6 && (m[1][1] - 1.0).abs() < 1e-6 && m[0][1].abs() < 1e-6,
                "{n:?}: {m:?}"
            );
        }
    }
}
