//! Rigid bodies that move through the fluid: a shape, where it is, how it turns and
//! how fast it moves. The models rasterise their bodies into the solid mask every step (a cell
//! is covered when its centre is inside a body) and give the faces beside a body the body's
//! velocity there, so the fluid cannot pass through it and is pushed aside as it moves.
//!
//! Coordinates are in cells, from the grid's top-left corner: x to the right, y down, so cell
//! `(r, c)`'s centre is `(c + 0.5, r + 0.5)`. Angles are in radians from x towards y (clockwise
//! on the screen, since y points down). Velocities are in cells per time unit, angular
//! velocities in radians per time unit. Each step a body moves by `dt` times its velocity and
//! turns by `dt` times its angular velocity ([`Body::advance`]). A *driven* body keeps the
//! velocity it is given (the fluid does not push it back); a *free* one, with a density
//! ([`Body::density`]), changes it under the fluid's force and torque and gravity
//! ([`dynamics`]).
//!
//! The GPU twin of [`Body::contains`] and [`Body::velocity_at`] is `shaders/common/body.wgsl`,
//! with the same arithmetic in the same order.

pub mod contact;
pub mod dynamics;
pub mod forces;
pub mod table;

use crate::grid::Grid;
use std::fmt;

/// Most bodies a model holds (the GPU's body table, 64 bytes a body).
pub const MAX_BODIES: usize = 16;

/// A body's shape, in its own frame (before rotation), in cells.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// A disc of this radius.
    Circle {
        /// Radius, cells.
        radius: f32,
    },
    /// A rectangle `2 half_width` by `2 half_height` (a plate is a long, thin one).
    Box {
        /// Half its extent along the body's own x axis, cells.
        half_width: f32,
        /// Half its extent along the body's own y axis, cells.
        half_height: f32,
    },
}

/// A rigid body: its shape, centre, orientation and motion (units in the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Body {
    /// Its shape.
    pub shape: Shape,
    /// Centre, cells from the left edge.
    pub x: f32,
    /// Centre, cells from the top edge (down).
    pub y: f32,
    /// Rotation, radians from x towards y.
    pub angle: f32,
    /// Velocity along x, cells per time unit.
    pub vx: f32,
    /// Velocity along y (down), cells per time unit.
    pub vy: f32,
    /// Angular velocity, radians per time unit, in the sense of `angle`.
    pub spin: f32,
    /// `None`: a driven body, which keeps its velocity. `Some(s)`: a free body, `s` times as
    /// dense as the fluid (> 0), moved by the fluid's force and torque and by gravity
    /// ([`dynamics`]).
    pub density: Option<f32>,
    /// A free body's acceleration over its last step `(ax, ay, angular)`, cells and radians per
    /// time unit^2: the coupling's added-mass term carries it into the next step
    /// ([`dynamics::advance`]); 0 for a driven body and a free one placed anew.
    pub acceleration: [f32; 3],
}

/// Thickness of a `plate` ([`Body::parse`]), cells: two, so that at any angle it covers a
/// chain of cells that shares faces (a thinner one would let fluid through its gaps).
pub const PLATE_THICKNESS: f32 = 2.0;

/// The largest centre coordinate and size a body may have, cells: 4 times the largest grid side
/// ([`crate::scene::MAX_SIDE`]).
pub const MAX_EXTENT: f32 = 4.0 * crate::scene::MAX_SIDE as f32;

impl Body {
    /// A body of `shape` at rest at `(x, y)`, unrotated.
    pub fn new(shape: Shape, x: f32, y: f32) -> Self {
        Self { shape, x, y, angle: 0.0, vx: 0.0, vy: 0.0, spin: 0.0, density: None, acceleration: [0.0; 3] }
    }

    /// Whether the fluid moves the body ([`Body::density`] given).
    pub fn is_free(&self) -> bool {
        self.density.is_some()
    }

    /// Its area, cells^2: `pi r^2`, `4 half_width half_height`.
    pub fn area(&self) -> f32 {
        match self.shape {
            Shape::Circle { radius } => std::f32::consts::PI * radius * radius,
            Shape::Box { half_width, half_height } => 4.0 * half_width * half_height,
        }
    }

    /// Whether point `(px, py)` (cells) is inside the body (its boundary included).
    pub fn contains(&self, px: f32, py: f32) -> bool {
        let (dx, dy) = (px - self.x, py - self.y);
        match self.shape {
            Shape::Circle { radius } => dx * dx + dy * dy <= radius * radius,
            Shape::Box { half_width, half_height } => {
                let (s, c) = self.angle.sin_cos();
                // Into the body's frame: rotate by -angle.
                let (lx, ly) = (c * dx + s * dy, c * dy - s * dx);
                lx.abs() <= half_width && ly.abs() <= half_height
            }
        }
    }

    /// The rigid motion's velocity at point `(px, py)` (cells), cells per time unit:
    /// `(vx - spin (py - y), vy + spin (px - x))`.
    pub fn velocity_at(&self, px: f32, py: f32) -> (f32, f32) {
        (self.vx - self.spin * (py - self.y), self.vy + self.spin * (px - self.x))
    }

    /// One step of `dt` time units: `x += vx dt`, `y += vy dt`, `angle += spin dt`.
    pub fn advance(&mut self, dt: f32) {
        self.x += self.vx * dt;
        self.y += self.vy * dt;
        self.angle += self.spin * dt;
    }

    /// The speed of the body's fastest point, per time unit (or per step, as its velocity):
    /// `|v| + |spin| reach`.
    pub fn fastest(&self) -> f32 {
        (self.vx * self.vx + self.vy * self.vy).sqrt() + self.spin.abs() * self.reach()
    }

    /// Refuses a centre or size beyond [`MAX_EXTENT`] cells (f32 keeps 1/64 of a cell there;
    /// a radius of 1e30 squares to infinity and covers every cell).
    ///
    /// # Errors
    /// A message naming the value and the limit.
    pub fn check_extent(&self) -> Result<(), String> {
        let (a, b) = match self.shape {
            Shape::Circle { radius } => (radius, 0.0),
            Shape::Box { half_width, half_height } => (half_width, half_height),
        };
        let values = [("x", self.x), ("y", self.y), ("its size", a.max(b))];
        match values.iter().find(|(_, v)| v.abs() > MAX_EXTENT) {
            Some((name, v)) => Err(format!(
                "{name} is {} cells: a body's centre and size are at most {MAX_EXTENT} cells (4 times the largest \
                 grid side) from the grid's corner",
                crate::params::readable(*v as f64, 3)
            )),
            None => Ok(()),
        }
    }

    /// Half the side of a square around the centre that holds the whole body, cells.
    pub fn reach(&self) -> f32 {
        match self.shape {
            Shape::Circle { radius } => radius,
            Shape::Box { half_width, half_height } => (half_width * half_width + half_height * half_height).sqrt(),
        }
    }

    /// A body from its text form, as `--body` takes it: a shape, a colon, then comma-separated
    /// `key=value` pairs, e.g. `circle:x=40,y=32,r=8,vx=0.5` or `box:x=30,y=20,w=10,h=4,angle=0.3`.
    /// Shapes and their sizes: `circle` (`r` the radius), `box` (`w`, `h` the full width and
    /// height), `plate` (`length`; [`PLATE_THICKNESS`] thick). Every shape takes `x`, `y` (the
    /// centre, required), `angle` (radians), `vx`, `vy` (cells per time unit) and `spin`
    /// (radians per time unit), all 0 unless given, and `density`: a free body that many times
    /// as dense as the fluid ([`MIN_DENSITY`] to [`MAX_DENSITY`]; without it, a driven body).
    ///
    /// # Errors
    /// A message naming the unknown shape or key, the missing or repeated key, the value that
    /// is not a finite number, or the size that is not positive.
    pub fn parse(spec: &str) -> Result<Body, String> {
        let form = "write it as SHAPE:KEY=VALUE,... e.g. circle:x=40,y=32,r=8,vx=0.5";
        let (shape, rest) =
            spec.split_once(':').ok_or_else(|| format!("body '{spec}': no ':' after the shape; {form}"))?;
        let sizes: &[&str] = match shape.trim() {
            "circle" => &["r"],
            "box" => &["w", "h"],
            "plate" => &["length"],
            other => return Err(format!("body '{spec}': unknown shape '{other}' (circle, box or plate)")),
        };
        let keys = ["x", "y", "angle", "vx", "vy", "spin", "density"];
        let mut values: Vec<(&str, f32)> = Vec::new();
        for pair in rest.split(',').filter(|p| !p.trim().is_empty()) {
            let (k, v) =
                pair.split_once('=').ok_or_else(|| format!("body '{spec}': '{pair}' is not KEY=VALUE; {form}"))?;
            let k = k.trim();
            if !keys.contains(&k) && !sizes.contains(&k) {
                let known: Vec<&str> = sizes.iter().chain(keys.iter()).copied().collect();
                return Err(format!("body '{spec}': a {shape} has no '{k}' (it takes {})", known.join(", ")));
            }
            if values.iter().any(|(seen, _)| *seen == k) {
                return Err(format!("body '{spec}': '{k}' is given twice"));
            }
            let v: f32 = v.trim().parse().map_err(|_| format!("body '{spec}': {k}='{}' is not a number", v.trim()))?;
            if !v.is_finite() {
                return Err(format!("body '{spec}': {k} must be finite"));
            }
            values.push((k, v));
        }
        let get = |k: &str| values.iter().find(|(seen, _)| *seen == k).map(|&(_, v)| v);
        let required = |k: &str| get(k).ok_or_else(|| format!("body '{spec}': '{k}' is missing; {form}"));
        for k in sizes {
            if required(k)? <= 0.0 {
                return Err(format!("body '{spec}': {k} must be positive (cells)"));
            }
        }
        let shape = match shape.trim() {
            "circle" => Shape::Circle { radius: required("r")? },
            "box" => Shape::Box { half_width: required("w")? / 2.0, half_height: required("h")? / 2.0 },
            _ => Shape::Box { half_width: required("length")? / 2.0, half_height: PLATE_THICKNESS / 2.0 },
        };
        let or0 = |k| get(k).unwrap_or(0.0);
        let body = Body {
            shape,
            x: required("x")?,
            y: required("y")?,
            angle: or0("angle"),
            vx: or0("vx"),
            vy: or0("vy"),
            spin: or0("spin"),
            density: get("density"),
            acceleration: [0.0; 3],
        };
        body.check_extent().map_err(|e| format!("body '{spec}': {e}"))?;
        check_density(body.density).map_err(|e| format!("body '{spec}': {e}"))?;
        Ok(body)
    }

    /// The body as a row of the `.npz` table `bodies`, float32 `(N, 13)`: `[kind, x, y, angle,
    /// vx, vy, spin, a, b, density, ax, ay, angular]`, kind 0 a circle (`a` its radius, `b` 0), 1
    /// a box (`a`, `b` its half width and half height); `density` 0 for a driven body, then
    /// [`Body::acceleration`].
    pub fn to_row(&self) -> [f32; ROW] {
        let (kind, a, b) = match self.shape {
            Shape::Circle { radius } => (0.0, radius, 0.0),
            Shape::Box { half_width, half_height } => (1.0, half_width, half_height),
        };
        let [ax, ay, angular] = self.acceleration;
        let density = self.density.unwrap_or(0.0);
        [kind, self.x, self.y, self.angle, self.vx, self.vy, self.spin, a, b, density, ax, ay, angular]
    }

    /// A body from a row of [`Body::to_row`]'s table, or of its first [`DRIVEN_ROW`] columns
    /// (a driven body, as states saved before free bodies hold them).
    ///
    /// # Errors
    /// A message when the row is neither length, the kind is not 0 or 1, a value is not finite,
    /// a size not positive, or a density outside [`MIN_DENSITY`] to [`MAX_DENSITY`] (0: driven).
    pub fn from_row(row: &[f32]) -> Result<Body, String> {
        if row.len() != ROW && row.len() != DRIVEN_ROW {
            return Err(format!("a body's row has {} values: {ROW} (or {DRIVEN_ROW}, a driven body's)", row.len()));
        }
        if let Some(bad) = row.iter().find(|v| !v.is_finite()) {
            return Err(format!("a body's row holds {bad}, not a finite number"));
        }
        let mut full = [0.0; ROW];
        full[..row.len()].copy_from_slice(row);
        let [kind, x, y, angle, vx, vy, spin, a, b, density, ax, ay, angular] = full;
        let shape = match kind {
            0.0 => Shape::Circle { radius: a },
            1.0 => Shape::Box { half_width: a, half_height: b },
            _ => return Err(format!("a body's kind is {kind}: 0 (circle) or 1 (box)")),
        };
        if a <= 0.0 || (kind == 1.0 && b <= 0.0) {
            return Err("a body's size (columns 7 and 8) must be positive".into());
        }
        let density = (density != 0.0).then_some(density);
        check_density(density)?;
        let acceleration = if density.is_some() { [ax, ay, angular] } else { [0.0; 3] };
        let body = Body { shape, x, y, angle, vx, vy, spin, density, acceleration };
        body.check_extent()?;
        Ok(body)
    }

    /// The body in the GPU's layout (`struct Body` in `shaders/common/body.wgsl`).
    pub fn gpu(&self) -> GpuBody {
        let row = self.to_row();
        GpuBody {
            centre: [self.x, self.y],
            velocity: [self.vx, self.vy],
            angle: self.angle,
            spin: self.spin,
            size: [row[7], row[8]],
            kind: row[0] as u32,
            reach2: 1.01 * self.reach() * self.reach() + 0.01,
            density: row[9],
            acceleration: self.acceleration,
            _pad: [0; 2],
        }
    }

    /// A body from the GPU's layout.
    pub fn from_gpu(g: &GpuBody) -> Body {
        let shape = if g.kind == 0 {
            Shape::Circle { radius: g.size[0] }
        } else {
            Shape::Box { half_width: g.size[0], half_height: g.size[1] }
        };
        Body {
            shape,
            x: g.centre[0],
            y: g.centre[1],
            angle: g.angle,
            vx: g.velocity[0],
            vy: g.velocity[1],
            spin: g.spin,
            density: (g.density > 0.0).then_some(g.density),
            acceleration: g.acceleration,
        }
    }
}

impl fmt::Display for Body {
    /// The text form [`Body::parse`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.shape {
            Shape::Circle { radius } => write!(f, "circle:r={radius}")?,
            Shape::Box { half_width, half_height } => write!(f, "box:w={},h={}", 2.0 * half_width, 2.0 * half_height)?,
        }
        write!(f, ",x={},y={},angle={},vx={},vy={},spin={}", self.x, self.y, self.angle, self.vx, self.vy, self.spin)?;
        match self.density {
            Some(density) => write!(f, ",density={density}"),
            None => Ok(()),
        }
    }
}

/// A body as the GPU holds it (64 bytes; mirrors `struct Body` in `shaders/common/body.wgsl`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct GpuBody {
    /// `(x, y)`, cells.
    pub centre: [f32; 2],
    /// `(vx, vy)`, cells per time unit.
    pub velocity: [f32; 2],
    /// Radians.
    pub angle: f32,
    /// Radians per time unit.
    pub spin: f32,
    /// A circle's `(radius, 0)`, a box's `(half_width, half_height)`, cells.
    pub size: [f32; 2],
    /// 0 circle, 1 box.
    pub kind: u32,
    /// The squared distance from the centre beyond which no point is inside, with a margin
    /// that rounding cannot cross (`1.01 reach^2 + 0.01`, cells^2): a cheap first test.
    pub reach2: f32,
    /// A free body's density relative to the fluid's; 0 for a driven body.
    pub density: f32,
    /// [`Body::acceleration`].
    pub acceleration: [f32; 3],
    _pad: [u32; 2],
}

/// Columns of a body's row in the `.npz` table `bodies` ([`Body::to_row`]).
pub const ROW: usize = 13;

/// Columns of a driven body's row in states saved before free bodies: the first 9 of [`ROW`].
pub const DRIVEN_ROW: usize = 9;

/// The lightest free body, times the fluid's density (a bubble of air in water). The coupling
/// ([`dynamics`]) stayed stable in smoke at every density tried down to 1e-5, for a disc, a
/// square and a plate, inviscid and viscous (`cargo run --release --example free_bodies`).
pub const MIN_DENSITY: f32 = 0.001;

/// The densest free body, times the fluid's density (gold in water is 19).
pub const MAX_DENSITY: f32 = 1000.0;

/// Refuses a free body's density outside [`MIN_DENSITY`] to [`MAX_DENSITY`] (`None`, a driven
/// body, passes).
///
/// # Errors
/// A message naming the density and the range.
pub fn check_density(density: Option<f32>) -> Result<(), String> {
    match density {
        Some(s) if !(MIN_DENSITY..=MAX_DENSITY).contains(&s) => Err(format!(
            "density {s}: a free body is {MIN_DENSITY} to {MAX_DENSITY} times as dense as the fluid (leave density out \
             for a body that moves as it is told)"
        )),
        _ => Ok(()),
    }
}

/// The size the viewer gives a body it places on a `(w, h)`-cell grid: a sixteenth of the
/// shorter side, at least 3 cells (a circle's radius, a box's half width).
pub fn default_size((w, h): (u32, u32)) -> f32 {
    (w.min(h) as f32 / 16.0).max(3.0)
}

/// The `solid` value of a wall cell in a mask `(H, W)` that also marks bodies' cells: `1`; with
/// bodies, `2 + i` marks a cell body `i` covers (rasterised again each step, smoke and gas; water keeps its bodies out of its mask).
pub const WALL: u8 = 1;

/// Whether a `solid` value marks a body's cell (`2 + i` for body `i`).
pub fn is_body(solid: u8) -> bool {
    solid > WALL
}

/// The index of the body covering a cell with this `solid` value, if any.
pub fn body_index(solid: u8) -> Option<usize> {
    is_body(solid).then(|| usize::from(solid - 2))
}

/// The walls alone of a mask `(H, W)` that also marks bodies' cells (1 where [`WALL`]).
pub fn walls(solid: &Grid<u8>) -> Grid<u8> {
    solid.map(|&v| (v == WALL) as u8)
}

/// Refuses more bodies than a model's body table holds ([`MAX_BODIES`]).
///
/// # Errors
/// A message saying how many there are and how many a model holds.
pub fn check_count(count: usize) -> Result<(), String> {
    match count > MAX_BODIES {
        true => Err(format!("{count} bodies: a model holds at most {MAX_BODIES}")),
        false => Ok(()),
    }
}

/// Gives body `index` of `bodies` the velocity `(vx, vy)` and `spin` (cells and radians per time
/// unit), where it is staying as it is.
///
/// # Errors
/// [`crate::Error::Message`] when there is no body `index` or a value is not finite; nothing
/// changes.
pub fn drive(bodies: &mut [Body], index: usize, (vx, vy): (f32, f32), spin: f32) -> Result<(), crate::Error> {
    let count = bodies.len();
    let Some(body) = bodies.get_mut(index) else {
        return Err(crate::Error::Message(format!("no body {index}: this model has {count} (numbered from 0)")));
    };
    if ![vx, vy, spin].iter().all(|v| v.is_finite()) {
        return Err(crate::Error::Message(format!("body {index}: its velocity and spin must be finite numbers")));
    }
    (body.vx, body.vy, body.spin) = (vx, vy, spin);
    Ok(())
}

/// Removes body `index` of `bodies` (the later ones move down one).
///
/// # Errors
/// [`crate::Error::Message`] when there is no body `index`; nothing changes.
pub fn remove(bodies: &mut Vec<Body>, index: usize) -> Result<(), crate::Error> {
    if index >= bodies.len() {
        return Err(crate::Error::Message(format!(
            "no body {index} to remove: this model has {} (numbered from 0)",
            bodies.len()
        )));
    }
    bodies.remove(index);
    Ok(())
}

/// The index + 1 of the first of `bodies` that covers the centre of cell `(r, c)`, or 0.
pub fn covering(bodies: &[Body], r: usize, c: usize) -> usize {
    let (px, py) = (c as f32 + 0.5, r as f32 + 0.5);
    bodies.iter().position(|b| b.contains(px, py)).map_or(0, |i| i + 1)
}

/// Rasterises `bodies` into `solid` `(H, W)` in place: each cell that is not a [`WALL`] becomes
/// `2 + i` where body `i` is the first holding its centre ([`covering`]), else 0 (open). The
/// CPU mirror of the models' rasterisations (smoke's, gas's and water's).
pub fn rasterise(solid: &mut Grid<u8>, bodies: &[Body]) {
    let (h, w) = solid.shape();
    for r in 0..h {
        for c in 0..w {
            if solid[(r, c)] != WALL {
                let id = covering(bodies, r, c);
                solid[(r, c)] = if id == 0 { 0 } else { (id + 1) as u8 };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_each_shape_and_prints_it_back() {
        let c = Body::parse("circle:x=40,y=32,r=8,vx=0.5").unwrap();
        assert_eq!(c, Body { vx: 0.5, ..Body::new(Shape::Circle { radius: 8.0 }, 40.0, 32.0) });
        let b = Body::parse("box: x=3, y=4, w=10, h=2, angle=0.25, spin=-1").unwrap();
        assert_eq!(b.shape, Shape::Box { half_width: 5.0, half_height: 1.0 });
        assert_eq!((b.angle, b.spin), (0.25, -1.0));
        let p = Body::parse("plate:x=1,y=2,length=12").unwrap();
        assert_eq!(p.shape, Shape::Box { half_width: 6.0, half_height: PLATE_THICKNESS / 2.0 });
        let f = Body { acceleration: [0.5, -0.25, 2.0], ..Body::parse("circle:x=4,y=5,r=3,density=0.5").unwrap() };
        assert_eq!(f.density, Some(0.5));
        assert!(f.is_free() && !c.is_free());
        for body in [c, b, p] {
            assert_eq!(Body::parse(&body.to_string()).unwrap(), body);
            assert_eq!(Body::from_row(&body.to_row()).unwrap(), body);
            assert_eq!(Body::from_gpu(&body.gpu()), body);
        }
        // The text form leaves the acceleration out (a body placed anew starts without one).
        assert_eq!(Body::parse(&f.to_string()).unwrap(), Body { acceleration: [0.0; 3], ..f });
        assert_eq!(Body::from_row(&f.to_row()).unwrap(), f);
        assert_eq!(Body::from_gpu(&f.gpu()), f);
        // A row of 9, saved before free bodies, is a driven body.
        assert_eq!(Body::from_row(&c.to_row()[..DRIVEN_ROW]).unwrap(), c);
    }

    #[test]
    fn refuses_bad_text_with_what_is_wrong() {
        for (spec, says) in [
            ("circle x=1", "no ':'"),
            ("star:x=1,y=1", "unknown shape 'star'"),
            ("circle:x=1,y=1", "'r' is missing"),
            ("circle:x=1,r=2", "'y' is missing"),
            ("circle:x=1,y=1,r=0", "r must be positive"),
            ("circle:x=1,y=1,r=2,w=3", "a circle has no 'w'"),
            ("circle:x=1,y=1,r=2,x=3", "'x' is given twice"),
            ("circle:x=one,y=1,r=2", "x='one' is not a number"),
            ("circle:x=inf,y=1,r=2", "x must be finite"),
            ("box:x=1,y=1,w=2", "'h' is missing"),
            ("box:x=1,y=1,w=2,h", "'h' is not KEY=VALUE"),
            ("circle:x=1,y=1,r=2,density=0", "density 0: a free body is 0.001 to 1000"),
            ("circle:x=1,y=1,r=2,density=2000", "density 2000"),
        ] {
            let e = Body::parse(spec).unwrap_err();
            assert!(e.contains(says), "{spec}: {e}");
        }
        assert!(Body::from_row(&[2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0]).is_err());
        assert!(Body::from_row(&[0.0, f32::NAN, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]).is_err());
        assert!(Body::from_row(&[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]).is_err());
        assert!(Body::from_row(&[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]).unwrap_err().contains("8 values"));
        let mut dense = Body::new(Shape::Circle { radius: 1.0 }, 0.0, 0.0).to_row();
        dense[9] = -3.0;
        assert!(Body::from_row(&dense).unwrap_err().contains("density -3"));
    }

    #[test]
    fn the_shaders_body_tables_hold_max_bodies() {
        use crate::shaders::*;
        for source in [
            SMOKE_STAGGERED_BODIES,
            SMOKE_STAGGERED_BODY_FACES,
            SMOKE_STAGGERED_BODY_FORCES,
            GAS_BODIES,
            GAS_PREDICT,
            GAS_LIMIT,
            GAS_LIMIT_LINEAR,
            GAS_APPLY,
            GAS_APPLY_LINEAR,
            WATER_BODIES,
            WATER_BODIES_COPY,
            WATER_BODY_FORCES,
        ] {
            assert!(source.contains(&format!("array<Body, {MAX_BODIES}>")), "a body table of another size");
        }
        assert_eq!(std::mem::size_of::<GpuBody>(), 64, "struct Body in shaders/common/body.wgsl is 64 bytes");
        // The force log's shape: its steps and bodies a step.
        assert!(FORCE_LOG_HEAD.contains(&format!("const FORCE_LOG_STEPS: u32 = {}u;", forces::LOG_STEPS)));
        assert!(FORCE_LOG_HEAD.contains(&format!("const LOGGED_BODIES: u32 = {MAX_BODIES}u;")));
        let slots = forces::LOG_STEPS * MAX_BODIES;
        assert!(FORCE_LOG_HEAD.contains(&format!("forces: array<vec4<f32>, {slots}>")));
        // The gas's sums: three a body, at the scales its CPU mirror rounds to.
        let sums = format!("body_sums: array<atomic<i32>, {}>", 3 * MAX_BODIES);
        assert!(GAS_APPLY.contains(&sums) && GAS_BODY_FORCES.contains(&sums));
        let (force, torque) = (crate::gas::bodies::FORCE_SCALE, crate::gas::bodies::TORQUE_SCALE);
        assert!(GAS_APPLY.contains(&format!("const FORCE_SCALE: f32 = {force:.1};")));
        assert!(GAS_APPLY.contains(&format!("const TORQUE_SCALE: f32 = {torque:.1};")));
    }

    #[test]
    fn a_rotated_box_covers_its_rotated_corners() {
        // A 10 x 2 box turned a quarter turn is 2 wide and 10 tall.
        let b = Body {
            angle: std::f32::consts::FRAC_PI_2,
            ..Body::new(Shape::Box { half_width: 5.0, half_height: 1.0 }, 20.0, 20.0)
        };
        assert!(b.contains(20.0, 24.5) && b.contains(20.5, 15.5));
        assert!(!b.contains(24.5, 20.0) && !b.contains(21.5, 20.0));
        // A rigid rotation: the velocity is perpendicular to the radius, |v| = spin r.
        let s = Body { spin: 2.0, ..b };
        assert_eq!(s.velocity_at(23.0, 20.0), (0.0, 6.0));
        assert_eq!(s.velocity_at(20.0, 23.0), (-6.0, 0.0));
    }
}
