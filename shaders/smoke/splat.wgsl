// Uses: smoke/params.wgsl (SOLID, SOURCE, has, lerp); the pass's bindings (impulse).
// The impulse uniform and its weights, shared by impulse.wgsl and staggered_impulse.wgsl (each
// declares `var<uniform> impulse: Impulse`). CPU mirror: `impulse_weight` in src/smoke/cpu.rs,
// `face_weight` in src/smoke/staggered/cpu.rs.

struct Impulse {
    center: vec2<f32>,   // (col, row), cells
    velocity: vec2<f32>, // added, cells per time unit (y down)
    radius: f32,         // cells
    temperature: f32,
    density: f32,
    sources: u32,        // 1: cover the source cells instead of the disc
    dye: vec3<f32>,      // colour the cells move towards (staggered grid)
    origin: vec2<u32>,   // staggered_impulse.wgsl: the first (col, row) of the nodes it covers
};

// Rideout's soft disc at `at` (cell (r, c)'s centre is (c + 1/2, r + 1/2)):
// min((radius - d) / 2, 1) inside the disc, 0 outside.
fn disc(at: vec2<f32>) -> f32 {
    let o = at - impulse.center;
    let d = sqrt(o.x * o.x + o.y * o.y);
    if d < impulse.radius {
        return min((impulse.radius - d) * 0.5, 1.0);
    }
    return 0.0;
}

// The weight of the cell at p (solid bits `bits`): 1 on a source cell for the sources'
// impulse, the disc for a splat, 0 in solids.
fn weight(p: vec2<i32>, bits: u32) -> f32 {
    if has(bits, SOLID) {
        return 0.0;
    }
    if impulse.sources != 0u {
        return select(0.0, 1.0, has(bits, SOURCE));
    }
    return disc(vec2<f32>(p) + 0.5);
}

// The weight of the face centred at `at`: the disc for a splat; 0 for the sources' impulse,
// which carries no velocity.
fn face_weight(at: vec2<f32>) -> f32 {
    if impulse.sources != 0u {
        return 0.0;
    }
    return disc(at);
}

// A collocated cell's advected fields.
struct Cell {
    velocity: vec2<f32>, // cells per time unit
    temperature: f32,
    density: f32,
};

// The impulse at weight `a` on a collocated cell: temperature and density move towards the
// impulse's, x (1 - a) + value a, and the velocity gains a * impulse.velocity.
fn apply_impulse(a: f32, c: Cell) -> Cell {
    return Cell(
        c.velocity + a * impulse.velocity,
        lerp(c.temperature, impulse.temperature, a),
        lerp(c.density, impulse.density, a),
    );
}
