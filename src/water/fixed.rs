//! Fixed-point water ([`super::Arithmetic::Fixed`]): Elsts' rules in integer arithmetic, so that
//! every adapter steps the same water to the same bits (the state hash, [`super::hash`], is the
//! same natively, in a browser and on any GPU), and the total mass is kept exactly.
//!
//! **The unit.** A mass is a whole number of [`UNIT`]ths of a full cell (1/16384: a mass of 1.0
//! is 16384 units). The masses stay `f32` in the state, the textures and files, always whole
//! multiples of the unit; a float of at most [`MAX_MASS`] full cells holds such a multiple
//! exactly (24 bits of mantissa), so converting to units and back loses nothing. Masses are
//! rounded down to the unit (and to at most [`MAX_MASS`]) where they enter: a state uploaded, a
//! brush stroke, a switch from float to fixed ([`quantize`]).
//!
//! **What differs from Elsts' floats** ([`super::cpu::outflows`], `shaders/water/rules.wgsl`):
//! - every flow is rounded down to a whole unit: halving a flow above MinFlow is a shift right,
//!   the side share takes `floor(difference x share)`, and the stable state's division rounds
//!   down. A flow smaller than a unit is none, so water comes to rest exactly: Elsts' small flows
//!   that never quite stop do stop, and still water sleeps ([`super::tiles`]) sooner;
//! - the parameters are rounded to the nearest unit (MaxCompress 0.02 is 328 units, 0.020020),
//!   the side share to the nearest 1/65536;
//! - the stable state's middle branch, `(M^2 + T C) / (M + C)`, is computed as the equal
//!   `M + (T - M) C / (M + C)`, which fits 32 bits;
//! - the sums are exact, so the total mass is kept to the unit, step after step.
//!
//! CPU mirror of `shaders/water/rules_fixed.wgsl`.

use super::{Boundary, WaterParams};
use crate::error::ParamError;
use crate::grid::Grid;

/// Units in a full cell's mass (1.0).
pub const UNIT: f32 = 16384.0;

/// The largest mass a cell holds in fixed point, full cells: `2^24` units, the most an `f32`
/// holds exactly in whole units. Masses above it are clamped where they enter ([`quantize`]),
/// and a step that would give a cell more gives it this much (then, and only then, the total
/// mass is not kept); the compression at the foot of a column of water reaches it only some
/// 51,000 cells deep.
pub const MAX_MASS: f32 = 1024.0;

/// [`MAX_MASS`] in units.
pub const MAX_UNITS: i32 = 1 << 24;

/// The side share's denominator: the share is a whole number of 65536ths.
pub const SHARE_ONE: i32 = 1 << 16;

/// The rules' constants in units ([`WaterParams`] rounded to the nearest unit; the side share
/// in 65536ths), as `shaders/water/params.wgsl` holds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Units {
    /// MaxMass.
    pub max_mass: i32,
    /// MaxCompress.
    pub max_compress: i32,
    /// MinFlow.
    pub min_flow: i32,
    /// MaxSpeed.
    pub max_speed: i32,
    /// The side share, 65536ths.
    pub side_share: i32,
}

/// `m` full cells in whole units, rounded down, clamped to `0..=MAX_MASS` (a solid cell's
/// negated mass counts as its magnitude).
pub fn to_units(m: f32) -> i32 {
    (m.abs().min(MAX_MASS) * UNIT).floor() as i32
}

/// `units` as full cells (exact for every mass fixed point holds).
pub fn from_units(units: i32) -> f32 {
    units as f32 / UNIT
}

/// `m` rounded down to a whole number of units and clamped to `0..=MAX_MASS`; NaN (never a
/// valid mass) becomes 0.
pub fn quantize(m: f32) -> f32 {
    if m.is_nan() { 0.0 } else { from_units(to_units(m.max(0.0))) }
}

/// Every mass of `mass` [`quantize`]d.
pub fn quantize_grid(mass: &mut Grid<f32>) {
    for m in mass.as_mut_slice() {
        *m = quantize(*m);
    }
}

impl Units {
    /// `p`'s constants in units.
    ///
    /// # Errors
    /// [`ParamError`] naming the constant out of fixed point's range: MaxMass below a unit or
    /// above [`MAX_MASS`], MaxCompress past the 32 bits the rules work in (`(MaxMass +
    /// MaxCompress) x MaxCompress` must stay below 2^31 units squared, 8 full cells squared), or
    /// a side share that rounds to nothing.
    pub fn of(p: &WaterParams) -> Result<Self, ParamError> {
        let round = |v: f32| (f64::from(v) * f64::from(UNIT)).round();
        let or_float = ", or set arithmetic to float";
        let (m, c) = (round(p.max_mass), round(p.max_compress));
        if !(1.0..=f64::from(MAX_MASS) * f64::from(UNIT)).contains(&m) {
            let why = format!("fixed-point water takes 1/{UNIT} to {MAX_MASS} full cells: change --max-mass{or_float}");
            return Err(ParamError::new("max-mass", p.max_mass, why));
        }
        if (m + c) * c >= f64::from(i32::MAX) {
            let (sum, c_full) = (p.max_mass + p.max_compress, p.max_compress);
            let why = format!(
                "fixed-point water needs (max-mass + max-compress) x max-compress below 8 full cells squared \
                 (here {sum} x {c_full} = {}): lower --max-compress{or_float}",
                sum * c_full
            );
            return Err(ParamError::new("max-compress", p.max_compress, why));
        }
        let share = (f64::from(p.side_share) * f64::from(SHARE_ONE)).round();
        if share < 1.0 {
            let why = format!("fixed-point water needs at least 1/{SHARE_ONE}: raise --side-share{or_float}");
            return Err(ParamError::new("side-share", p.side_share, why));
        }
        let clamp = |v: f64| v.min(f64::from(i32::MAX)) as i32;
        Ok(Self {
            max_mass: m as i32,
            max_compress: c as i32,
            min_flow: clamp(round(p.min_flow)),
            max_speed: clamp(round(p.max_speed)),
            side_share: share as i32,
        })
    }

    /// Elsts' `get_stable_state_b` in units ([`super::cpu::get_stable_state_b`]): how much of
    /// `total` the lower of two stacked cells holds at rest, rounded down.
    pub fn stable(&self, total: i32) -> i32 {
        let (m, c) = (self.max_mass, self.max_compress);
        if total <= m {
            m
        } else if total < 2 * m + c {
            m + (total - m) * c / (m + c)
        } else {
            (total + c) >> 1
        }
    }

    /// A flow above MinFlow halved (rounded down): "leads to smoother flow".
    fn halve(&self, flow: i32) -> i32 {
        if flow > self.min_flow { flow >> 1 } else { flow }
    }

    /// `floor(difference x side share)` for a difference `d` of at most 2^31 units: the share's
    /// product split in two halves of 16 bits, as the shader does, so no product passes 2^31.
    pub fn side(&self, d: i32) -> i32 {
        let d = d.max(0);
        (d >> 16) * self.side_share + (((d & 0xffff) * self.side_share) >> 16)
    }
}

/// [`super::cpu::outflows`] in units: the pushes that leave cell `(y, x)` in Elsts' loop, in its
/// order (down, left, right, up), `Some(flow)` where the loop pushes.
fn outflows(
    mass: &Grid<i32>,
    blocks: &Grid<u8>,
    u: &Units,
    boundary: Boundary,
    y: isize,
    x: isize,
) -> [Option<i32>; 4] {
    let ground = |r: isize, c: isize| super::cpu::is_ground(blocks, boundary, r, c);
    let mass_at = |r: isize, c: isize| mass.get(r, c).copied().unwrap_or(0);
    let mut out = [None; 4];
    if ground(y, x) {
        return out;
    }
    let mut remaining = mass_at(y, x);
    if remaining <= 0 {
        return out;
    }
    if !ground(y + 1, x) {
        let below = mass_at(y + 1, x);
        let flow = u.halve(u.stable(remaining + below) - below).max(0).min(u.max_speed.min(remaining));
        out[0] = Some(flow);
        remaining -= flow;
    }
    for (k, dx) in [(1, -1), (2, 1)] {
        if remaining <= 0 {
            return out;
        }
        if !ground(y, x + dx) {
            let flow = u.halve(u.side(mass_at(y, x) - mass_at(y, x + dx))).max(0).min(remaining);
            out[k] = Some(flow);
            remaining -= flow;
        }
    }
    if remaining <= 0 {
        return out;
    }
    if !ground(y - 1, x) {
        let above = mass_at(y - 1, x);
        let flow = u.halve(remaining - u.stable(remaining + above));
        out[3] = Some(flow.max(0).min(u.max_speed.min(remaining)));
    }
    out
}

/// One step of fixed-point water, in place ([`super::cpu::compression_step`] in units): `field`'s
/// masses are taken in whole units ([`to_units`]) and given back as such.
///
/// # Panics
/// If `p` is out of fixed point's range ([`Units::of`]; [`WaterParams::validate`] refuses those).
pub fn compression_step(field: &mut Grid<f32>, blocks: &Grid<u8>, p: &WaterParams) {
    let u = Units::of(p).expect("parameters validated for fixed point");
    let mass = field.map(|&m| to_units(m));
    let next = super::cpu::push_loop(&mass, |y, x| outflows(&mass, blocks, &u, p.boundary, y, x));
    for ((out, &n), &s) in field.as_mut_slice().iter_mut().zip(next.as_slice()).zip(blocks.as_slice()) {
        // Ground keeps what it holds (no flow reaches it); a cell holds at most MAX_MASS.
        if s == 0 {
            *out = from_units(n.min(MAX_UNITS));
        }
    }
}
