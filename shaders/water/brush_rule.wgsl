// Uses: water/params.wgsl (FIXED_MAX_MASS, FIXED_UNIT).
// The water brush's rule for one open cell, shared by the brush over one cell a texel
// (water/brush.wgsl) and a packed world's edits (water/edit_packed.wgsl): inside the disc the
// mass becomes max(mass * scale + add, 0); a body's cell keeps the water under it; in
// fixed-point water the mass is then rounded down to the unit (and to at most FIXED_MAX_MASS), so
// that the step takes whole units (src/water/fixed.rs). A wall's cell is each pass's to empty.
// CPU mirror: `brush` in src/water/cpu.rs, and `fixed::quantize` after it (`CpuWater::brush`).

struct Brush {
    center: vec2<f32>, // (col, row) in cells; cell (c, r) has its centre at (c + 0.5, r + 0.5)
    radius: f32,       // cells
    scale: f32,        // 1: keep, 0: erase
    add: f32,          // mass added per cell
    fixed: u32,        // 1: fixed-point water, whose masses are whole units
    _pad1: f32,
    _pad2: f32,
};

// Open cell `(col, row)`'s mass `m` after brush `b`; `body`: a body covers the cell.
fn brushed(m: f32, col: f32, row: f32, b: Brush, body: bool) -> f32 {
    if body {
        return m;
    }
    var out = m;
    let d = vec2<f32>(col + 0.5, row + 0.5) - b.center;
    if dot(d, d) <= b.radius * b.radius {
        out = max(m * b.scale + b.add, 0.0);
    }
    if b.fixed != 0u {
        out = floor(min(out, FIXED_MAX_MASS) * FIXED_UNIT) * (1.0 / FIXED_UNIT);
    }
    return out;
}
