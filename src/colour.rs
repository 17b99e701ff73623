//! Colour maps and legends: how a field's values become colours, and what the viewer's colour bar
//! and the runner's frames say about it.
//!
//! Scalar fields are drawn through a colour map: a 256-entry lookup table ([`ColourMap::lut`])
//! sampled from a `colorous` gradient (the matplotlib maps of van der Walt and Smith, perceptually
//! uniform; Google's Turbo; ColorBrewer's diverging maps), uploaded as a `256 x 1` texture that the
//! render shaders index with the field's value scaled to `[0, 1]` over the legend's range. A few
//! fields have a look of their own ([`ColourMap::Own`]): water drawn as Elsts draws it, white smoke,
//! the dye's own colours, the gas velocity's direction wheel.

use std::fmt;

/// A colour map: the field's own look, or a `colorous` gradient over the legend's range.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ColourMap {
    /// The field's own colours (water after Elsts, white smoke, the dye, the direction wheel);
    /// fields without one use [`ColourMap::Inferno`] or, when signed, [`ColourMap::BlueRed`].
    #[default]
    Own,
    /// Perceptually uniform, black - purple - orange - pale yellow (matplotlib's `inferno`).
    Inferno,
    /// Perceptually uniform, black - purple - pink - pale yellow (matplotlib's `magma`).
    Magma,
    /// Perceptually uniform, dark blue - green - yellow (matplotlib's `viridis`).
    Viridis,
    /// Perceptually uniform, blue - magenta - yellow (matplotlib's `plasma`).
    Plasma,
    /// Perceptually uniform and readable with colour-vision deficiency (Nuñez et al. 2018).
    Cividis,
    /// Google's Turbo (Mikhailov 2019): a rainbow with smooth lightness; not uniform.
    Turbo,
    /// Black to white.
    Greys,
    /// Diverging: blue (low) - white - red (high) (ColorBrewer's RdBu, reversed).
    BlueRed,
    /// Diverging: purple (low) - white - orange (high) (ColorBrewer's PuOr, reversed).
    PurpleOrange,
}

impl ColourMap {
    /// Every map, [`ColourMap::Own`] first.
    pub const ALL: [ColourMap; 10] = [
        ColourMap::Own,
        ColourMap::Inferno,
        ColourMap::Magma,
        ColourMap::Viridis,
        ColourMap::Plasma,
        ColourMap::Cividis,
        ColourMap::Turbo,
        ColourMap::Greys,
        ColourMap::BlueRed,
        ColourMap::PurpleOrange,
    ];

    /// Its name, as `--colour-map` takes it.
    pub fn name(self) -> &'static str {
        match self {
            ColourMap::Own => "own",
            ColourMap::Inferno => "inferno",
            ColourMap::Magma => "magma",
            ColourMap::Viridis => "viridis",
            ColourMap::Plasma => "plasma",
            ColourMap::Cividis => "cividis",
            ColourMap::Turbo => "turbo",
            ColourMap::Greys => "greys",
            ColourMap::BlueRed => "blue-red",
            ColourMap::PurpleOrange => "purple-orange",
        }
    }

    /// The map named `name` (case-insensitive).
    ///
    /// # Errors
    /// A message listing the names, when `name` is none of them.
    pub fn from_name(name: &str) -> Result<Self, String> {
        Self::ALL.into_iter().find(|m| m.name().eq_ignore_ascii_case(name.trim())).ok_or_else(|| {
            let names: Vec<_> = Self::ALL.iter().map(|m| m.name()).collect();
            format!("{name:?} is not a colour map; the maps are {}", names.join(", "))
        })
    }

    /// Whether it is diverging (meant for signed fields, white at the middle of the range).
    pub fn diverging(self) -> bool {
        matches!(self, ColourMap::BlueRed | ColourMap::PurpleOrange)
    }

    /// The colour at `t` in `[0, 1]` (clamped), as sRGB bytes; `None` for [`ColourMap::Own`].
    pub fn at(self, t: f64) -> Option<[u8; 3]> {
        let t = if t.is_finite() { t.clamp(0.0, 1.0) } else { 0.0 };
        let (gradient, t) = match self {
            ColourMap::Own => return None,
            ColourMap::Inferno => (colorous::INFERNO, t),
            ColourMap::Magma => (colorous::MAGMA, t),
            ColourMap::Viridis => (colorous::VIRIDIS, t),
            ColourMap::Plasma => (colorous::PLASMA, t),
            ColourMap::Cividis => (colorous::CIVIDIS, t),
            ColourMap::Turbo => (colorous::TURBO, t),
            ColourMap::Greys => (colorous::GREYS, 1.0 - t),
            ColourMap::BlueRed => (colorous::RED_BLUE, 1.0 - t),
            ColourMap::PurpleOrange => (colorous::PURPLE_ORANGE, 1.0 - t),
        };
        let c = gradient.eval_continuous(t);
        Some([c.r, c.g, c.b])
    }

    /// The lookup table the render shaders sample: 256 RGBA8 texels (sRGB-encoded, alpha 255),
    /// entry `i` the colour at `i / 255`. All zero for [`ColourMap::Own`], which draws without it.
    pub fn lut(self) -> [[u8; 4]; 256] {
        std::array::from_fn(|i| match self.at(i as f64 / 255.0) {
            Some([r, g, b]) => [r, g, b, 255],
            None => [0; 4],
        })
    }
}

impl fmt::Display for ColourMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a field's values are coloured: what a colour bar or legend shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Legend {
    /// A colour map over `[low, high]` (`unit`), values beyond the ends clamped to the end colours.
    Scale {
        /// Value drawn at the low end (map position 0).
        low: f32,
        /// Value drawn at the high end (map position 1).
        high: f32,
        /// The field's unit.
        unit: &'static str,
        /// The map (never [`ColourMap::Own`]).
        map: ColourMap,
    },
    /// A field drawn in its own colours, with what they mean (e.g. water's blues).
    Own(&'static str),
    /// A velocity: hue gives the direction (the colour wheel), brightness the speed, full at
    /// `full_speed` (`unit`).
    Direction {
        /// Speed drawn at full brightness.
        full_speed: f32,
        /// Its unit.
        unit: &'static str,
    },
}

/// The colour the gas velocity view draws for direction `angle` (radians, `atan2(y, x)` with y
/// down the screen) at full speed: the same hue wheel as `shaders/render/gas.wgsl`, as sRGB bytes.
pub fn direction_colour(angle: f32) -> [u8; 3] {
    let h = angle / std::f32::consts::TAU + 0.5;
    let channel = |offset: f32| {
        let x = ((h + offset).rem_euclid(1.0) * 6.0 - 3.0).abs() - 1.0;
        (x.clamp(0.0, 1.0) * 255.0).round() as u8
    };
    [channel(0.0), channel(2.0 / 3.0), channel(1.0 / 3.0)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_list_the_maps() {
        for map in ColourMap::ALL {
            assert_eq!(ColourMap::from_name(map.name()), Ok(map));
        }
        assert!(ColourMap::from_name("jet").unwrap_err().contains("viridis"));
    }

    /// The perceptually uniform maps get lighter from end to end (their defining property: the
    /// lightness is monotonic); Rec. 709 luma of the sRGB bytes stands in for lightness.
    #[test]
    fn sequential_maps_rise_in_lightness() {
        let luma = |c: [u8; 4]| 0.2126 * c[0] as f32 + 0.7152 * c[1] as f32 + 0.0722 * c[2] as f32;
        for map in [ColourMap::Inferno, ColourMap::Magma, ColourMap::Viridis, ColourMap::Cividis, ColourMap::Greys] {
            let lut = map.lut();
            assert!(luma(lut[255]) > luma(lut[0]) + 150.0, "{map}");
            assert!(lut.windows(16).all(|w| luma(w[15]) >= luma(w[0]) - 2.0), "{map} is not monotonic");
        }
    }

    /// Diverging maps are light in the middle and blue at the low end.
    #[test]
    fn blue_red_is_blue_low_red_high() {
        let lut = ColourMap::BlueRed.lut();
        assert!(lut[0][2] > lut[0][0] && lut[255][0] > lut[255][2]);
        assert!(lut[128].iter().take(3).all(|&c| c > 220));
        assert_eq!(ColourMap::Own.at(0.5), None);
    }

    /// The wheel's two ends: rightward (angle 0) cyan and leftward red, complementary hues.
    /// That the shader draws this wheel is held by `tests/model.rs`
    /// (`gas_velocity_draws_the_direction_wheel`), which renders it.
    #[test]
    fn direction_wheel_puts_right_and_left_opposite() {
        assert_eq!(direction_colour(0.0), [0, 255, 255]);
        assert_eq!(direction_colour(std::f32::consts::PI), [255, 0, 0]);
    }
}
