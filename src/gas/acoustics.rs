//! Exact linear acoustics for the gas model's checks: the 2D Gaussian pressure pulse, which the
//! scheme's ring is held to: its radius, its roundness and the amplitude it keeps.
//!
//! Isothermal flow linearised about rest at density 1 (`p = c^2 rho`): the excess density obeys
//! the wave equation `rho'_tt = c^2 lap rho'`. Released from rest as a Gaussian
//! `A exp(-r^2 / (2 sigma^2))`, its Hankel transform `A sigma^2 exp(-k^2 sigma^2 / 2)` evolves as
//! `cos(c k t)`, so
//!
//! `rho'(r, t) = A sigma^2 int_0^inf exp(-k^2 sigma^2 / 2) cos(c k t) J0(k r) k dk`,
//!
//! evaluated here by Simpson's rule. No dissipation: what a scheme keeps of the amplitude is
//! measured against this.

/// The Bessel function `J0(x)` by the polynomial approximations of Abramowitz & Stegun,
/// *Handbook of Mathematical Functions* (1964), 9.4.1 (`|x| <= 3`, error below 5e-8) and 9.4.3
/// (`|x| > 3`, the modulus and phase, errors below 1.6e-8 and 7e-8).
#[allow(clippy::approx_constant)] // the coefficients as published (0.78539816 is pi/4 to 8 places)
pub fn bessel_j0(x: f64) -> f64 {
    let x = x.abs();
    if x <= 3.0 {
        let y = (x / 3.0).powi(2);
        let c = [1.0, -2.2499997, 1.2656208, -0.3163866, 0.0444479, -0.0039444, 0.0002100];
        return c.iter().rev().fold(0.0, |acc, &a| acc * y + a);
    }
    let y = 3.0 / x;
    let f = [0.79788456, -0.00000077, -0.00552740, -0.00009512, 0.00137237, -0.00072805, 0.00014476];
    let t = [-0.78539816, -0.04166397, -0.00003954, 0.00262573, -0.00054125, -0.00029333, 0.00013558];
    let poly = |c: &[f64; 7]| c.iter().rev().fold(0.0, |acc, &a| acc * y + a);
    poly(&f) * (x + poly(&t)).cos() / x.sqrt()
}

/// The excess density of a 2D Gaussian pulse (peak `amplitude` over the ambient density,
/// standard deviation `sigma` cells) released from rest, at distance `r` cells from its centre
/// after `t` steps at sound speed `c` cells/step: the integral in the module docs, within about
/// 1e-6 of `amplitude` (bounded by [`bessel_j0`]'s error; Simpson's rule on a step well inside
/// the integrand's shortest oscillation, up to where the Gaussian factor is below 1e-16).
pub fn gaussian_pulse_2d(r: f64, t: f64, amplitude: f64, sigma: f64, c: f64) -> f64 {
    let k_max = 8.6 / sigma;
    // The integrand oscillates with period at least 2 pi / (c t + r) in k; 24 steps a period.
    let period = std::f64::consts::TAU / (c * t + r + sigma);
    let n = ((k_max / period * 24.0).ceil() as usize).max(200).next_multiple_of(2);
    let h = k_max / n as f64;
    let f = |k: f64| (-0.5 * k * k * sigma * sigma).exp() * (c * k * t).cos() * bessel_j0(k * r) * k;
    let mut sum = f(0.0) + f(k_max);
    for i in 1..n {
        sum += f(i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
    }
    amplitude * sigma * sigma * sum * h / 3.0
}

/// The crest of [`gaussian_pulse_2d`] at step `t`: `(radius, excess density)` of its largest
/// value over `r >= 0`, found on a 0.01-cell grid of `r` out to `c t + 6 sigma` and refined by a
/// parabola.
pub fn gaussian_pulse_2d_crest(t: f64, amplitude: f64, sigma: f64, c: f64) -> (f64, f64) {
    let step = 0.01;
    let n = ((c * t + 6.0 * sigma) / step).ceil() as usize;
    let value = |i: usize| gaussian_pulse_2d(i as f64 * step, t, amplitude, sigma, c);
    let (mut best, mut best_v) = (0, value(0));
    // Coarse scan first (every 0.25 cells), then the fine grid around the best.
    for i in (0..=n).step_by(25) {
        let v = value(i);
        if v > best_v {
            (best, best_v) = (i, v);
        }
    }
    for i in best.saturating_sub(25)..=(best + 25).min(n) {
        let v = value(i);
        if v > best_v {
            (best, best_v) = (i, v);
        }
    }
    if best == 0 {
        return (0.0, best_v);
    }
    let (a, b, c2) = (value(best - 1), best_v, value(best + 1));
    let denom = a - 2.0 * b + c2;
    let shift = if denom < 0.0 { 0.5 * (a - c2) / denom } else { 0.0 };
    ((best as f64 + shift) * step, b - 0.25 * (a - c2) * shift)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn j0_matches_the_published_table() {
        // Abramowitz & Stegun Table 9.1, and the first zero of J0 (9.5.2: j_{0,1} = 2.4048255577).
        for (x, j0) in [
            (0.0, 1.0),
            (1.0, 0.7651976866),
            (2.0, 0.2238907791),
            (2.4048255577, 0.0),
            (5.0, -0.1775967713),
            (10.0, -0.2459357645),
            (-1.0, 0.7651976866),
        ] {
            assert!((bessel_j0(x) - j0).abs() < 1e-7, "J0({x}) = {} (table {j0})", bessel_j0(x));
        }
    }

    #[test]
    fn at_t_0_the_pulse_is_its_gaussian() {
        let (a, sigma) = (0.01, 3.0);
        for r in [0.0f64, 1.0, 3.0, 6.0, 10.0] {
            let exact = a * (-r * r / (2.0 * sigma * sigma)).exp();
            let v = gaussian_pulse_2d(r, 0.0, a, sigma, 0.3);
            // Within 1e-6 of the amplitude: J0's approximation error (5e-8) bounds it.
            assert!((v - exact).abs() < 1e-6 * a, "r = {r}: {v} against {exact}");
        }
    }

    #[test]
    fn the_pulse_keeps_its_excess_mass() {
        // 2 pi int rho' r dr = 2 pi A sigma^2 at every t (the wave equation conserves it).
        let (a, sigma, c) = (0.01, 3.0, 0.3);
        for t in [0.0, 50.0, 200.0] {
            let (dr, r_max) = (0.05, c * t + 12.0 * sigma);
            let n = (r_max / dr) as usize;
            let mass: f64 =
                (0..n).map(|i| (i as f64 + 0.5) * dr).map(|r| gaussian_pulse_2d(r, t, a, sigma, c) * r * dr).sum();
            let exact = a * sigma * sigma;
            assert!((mass - exact).abs() < 1e-3 * exact, "t = {t}: {mass} against {exact}");
        }
    }

    #[test]
    fn late_crests_run_at_the_sound_speed() {
        // A cylindrical wave's crest starts behind c t and closes in: between t = 200 and 400 it
        // moves at c within 2% and stays within one sigma of c t.
        let (a, sigma, c) = (0.01, 3.0, 0.3);
        let (r1, _) = gaussian_pulse_2d_crest(200.0, a, sigma, c);
        let (r2, peak) = gaussian_pulse_2d_crest(400.0, a, sigma, c);
        let speed = (r2 - r1) / 200.0;
        assert!((speed - c).abs() < 0.02 * c, "crest speed {speed} against {c}");
        assert!((r2 - c * 400.0).abs() < sigma, "crest at {r2} against c t = {}", c * 400.0);
        // A 2D ring's amplitude falls like 1 / sqrt(r).
        let (_, peak1) = gaussian_pulse_2d_crest(200.0, a, sigma, c);
        let ratio = peak / peak1;
        let expected = (r1 / r2).sqrt();
        assert!((ratio - expected).abs() < 0.05 * expected, "amplitude ratio {ratio} against {expected}");
    }
}
