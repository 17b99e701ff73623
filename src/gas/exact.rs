//! The exact solution of the isothermal Riemann problem, against which the gas model is tested.
//!
//! With pressure on, the gas model discretises isothermal compressible flow,
//! `d rho/dt + div m = 0`, `dm/dt + div(m m^T / rho) + c^2 grad rho = 0`. In one dimension, two
//! uniform states `(rho_l, u_l) | (rho_r, u_r)` meeting at `x = 0` at `t = 0` separate into a
//! left wave and a right wave (each a rarefaction or a shock) around a uniform middle state
//! `(rho_star, u_star)`, all functions of `xi = x / t` alone. Across a rarefaction the Riemann
//! invariant `u +- c ln rho` is constant; across a shock the Rankine-Hugoniot conditions give
//! `u_star - u_k = -+ c (rho_star - rho_k) / sqrt(rho_star rho_k)`. Sources: LeVeque, "Finite
//! Volume Methods for Hyperbolic Problems" (2002), section 14.9 and 15.3 (isothermal flow); Toro,
//! "Riemann Solvers and Numerical Methods for Fluid Dynamics" (3rd ed. 2009), ch. 4 for the
//! same construction with the ideal-gas law.
//!
//! Units: anything consistent; in eddy densities per cell, speeds in cells/step.

/// One side's state: density (> 0) and velocity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Side {
    /// Density, > 0.
    pub rho: f64,
    /// Velocity along x.
    pub u: f64,
}

/// The solved Riemann problem: its middle state and wave speeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Riemann {
    /// Left state.
    pub left: Side,
    /// Right state.
    pub right: Side,
    /// Sound speed `c > 0`.
    pub c: f64,
    /// The middle state between the two waves.
    pub star: Side,
}

impl Riemann {
    /// Solves the problem `left | right` with sound speed `c` (Newton's method on the middle
    /// density, to a relative change below 1e-14).
    ///
    /// # Panics
    /// When a density or `c` is not positive (an isothermal rarefaction never reaches vacuum,
    /// `u + c ln rho` being constant across it, so every other pair of states has a solution),
    /// or Newton's method has not converged in 100 iterations (not seen: density ratios up to
    /// 1e6 converge in a few).
    pub fn solve(left: Side, right: Side, c: f64) -> Self {
        assert!(left.rho > 0.0 && right.rho > 0.0 && c > 0.0, "densities and c must be > 0");
        // u_star = u_l - phi(rho, rho_l) = u_r + phi(rho, rho_r); phi is increasing in rho.
        let phi = |rho: f64, k: f64| -> (f64, f64) {
            if rho <= k {
                (c * (rho / k).ln(), c / rho)
            } else {
                let s = (rho * k).sqrt();
                (c * (rho - k) / s, c * (0.5 / s + 0.5 * k / (rho * s)))
            }
        };
        let mut rho = (left.rho * right.rho).sqrt();
        let mut converged = false;
        for _ in 0..100 {
            let ((fl, dl), (fr, dr)) = (phi(rho, left.rho), phi(rho, right.rho));
            let g = fl + fr + right.u - left.u;
            let next = (rho - g / (dl + dr)).max(0.5 * rho);
            converged = ((next - rho) / rho).abs() < 1e-14;
            rho = next;
            if converged {
                break;
            }
        }
        assert!(converged, "the isothermal Riemann problem {left:?} | {right:?} did not converge");
        let u = left.u - phi(rho, left.rho).0;
        Self { left, right, c, star: Side { rho, u } }
    }

    /// Speed of the right wave's leading edge: the shock speed `u_r + c sqrt(rho_star / rho_r)`,
    /// or a rarefaction's head `u_r + c`. Nothing to the right of `x = t * this` moves.
    pub fn right_front(&self) -> f64 {
        if self.star.rho > self.right.rho {
            self.right.u + self.c * (self.star.rho / self.right.rho).sqrt()
        } else {
            self.right.u + self.c
        }
    }

    /// Speed of the left wave's leading edge (negative: it moves left): the shock speed
    /// `u_l - c sqrt(rho_star / rho_l)`, or a rarefaction's head `u_l - c`.
    pub fn left_front(&self) -> f64 {
        if self.star.rho > self.left.rho {
            self.left.u - self.c * (self.star.rho / self.left.rho).sqrt()
        } else {
            self.left.u - self.c
        }
    }

    /// The edges `(left, right)` of the uniform middle state, as speeds: a rarefaction's tail
    /// (`u_star -+ c`) or the shock.
    pub fn star_edges(&self) -> (f64, f64) {
        let l = if self.star.rho > self.left.rho { self.left_front() } else { self.star.u - self.c };
        let r = if self.star.rho > self.right.rho { self.right_front() } else { self.star.u + self.c };
        (l, r)
    }

    /// The state at `xi = x / t`.
    pub fn sample(&self, xi: f64) -> Side {
        let (lo, hi) = self.star_edges();
        if xi <= self.left_front() {
            self.left
        } else if xi < lo {
            // Left rarefaction fan: u - c = xi, u + c ln rho constant.
            let u = xi + self.c;
            Side { rho: self.left.rho * ((self.left.u - u) / self.c).exp(), u }
        } else if xi <= hi {
            self.star
        } else if xi < self.right_front() {
            // Right rarefaction fan: u + c = xi, u - c ln rho constant.
            let u = xi - self.c;
            Side { rho: self.right.rho * ((u - self.right.u) / self.c).exp(), u }
        } else {
            self.right
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The middle state satisfies both jump conditions it was solved from, checked here in
    /// their original forms: mass and momentum fluxes balance across the shock in its frame.
    #[test]
    fn shock_satisfies_rankine_hugoniot() {
        let c = 0.3;
        let r = Riemann::solve(Side { rho: 1.0, u: 0.0 }, Side { rho: 0.125, u: 0.0 }, c);
        let (s, a, b) = (r.right_front(), r.star, r.right);
        let mass = |q: Side| q.rho * (q.u - s);
        let momentum = |q: Side| q.rho * (q.u - s) * (q.u - s) + c * c * q.rho;
        assert!((mass(a) - mass(b)).abs() < 1e-12, "{} vs {}", mass(a), mass(b));
        assert!((momentum(a) - momentum(b)).abs() < 1e-12);
        // Across the rarefaction: the Riemann invariant u + c ln rho is the same on both sides.
        let inv = |q: Side| q.u + c * q.rho.ln();
        assert!((inv(r.left) - inv(a)).abs() < 1e-12);
        // The fan joins continuously to both sides.
        let (lo, _) = r.star_edges();
        assert!((r.sample(lo - 1e-9).rho - a.rho).abs() < 1e-6);
        assert!((r.sample(r.left_front() + 1e-9).rho - 1.0).abs() < 1e-6);
    }

    /// Mirror images: swapping the sides and the sign of x swaps the waves.
    #[test]
    fn mirror_symmetry() {
        let (l, r) = (Side { rho: 2.0, u: 0.1 }, Side { rho: 0.5, u: -0.05 });
        let a = Riemann::solve(l, r, 0.2);
        let b = Riemann::solve(Side { rho: r.rho, u: -r.u }, Side { rho: l.rho, u: -l.u }, 0.2);
        assert!((a.star.rho - b.star.rho).abs() < 1e-12 && (a.star.u + b.star.u).abs() < 1e-12);
        for xi in [-0.5, -0.2, 0.0, 0.13, 0.4] {
            let (p, q) = (a.sample(xi), b.sample(-xi));
            assert!((p.rho - q.rho).abs() < 1e-9 && (p.u + q.u).abs() < 1e-9, "at {xi}: {p:?} vs {q:?}");
        }
    }
}
