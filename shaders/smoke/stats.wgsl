// Uses: common/grid.wgsl (DOWN, LEFT, RIGHT, UP); common/reduce.wgsl (BIG, Quantities, non_finite);
//   smoke/params.wgsl (SOLID, SOLID_DOWN, SOLID_LEFT, SOLID_RIGHT, SOLID_UP, SmokeParams, has).
// Smoke statistics per cell, for shaders/common/reduce.wgsl. Over open cells: sums of density,
// density x row (for the centroid) and the squared divergence of the current velocity (the
// divergence left after the last projection, computed as divergence.wgsl does, or on the
// staggered grid as staggered_centres.wgsl wrote it), the smallest
// density, the largest speed and temperature; in `more`, the kinetic energy 1/2 |v|^2. Over all cells: cells with a non-finite value.
// CPU mirror: `SmokeStats::of` (src/smoke/mod.rs).

@group(0) @binding(1) var<uniform> params: SmokeParams;
@group(0) @binding(2) var velocity: texture_storage_2d<rg32float, read>;
@group(0) @binding(3) var temperature: texture_storage_2d<r32float, read>;
@group(0) @binding(4) var density: texture_storage_2d<r32float, read>;
@group(0) @binding(5) var pressure: texture_storage_2d<r32float, read>;
@group(0) @binding(6) var divergence: texture_storage_2d<r32float, read>;
@group(0) @binding(7) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(8) var divergence_after: texture_storage_2d<r32float, read>; // staggered grid

fn grid_size() -> vec2<u32> {
    return textureDimensions(density);
}

fn velocity_at(q: vec2<i32>, is_wall: bool) -> vec2<f32> {
    if is_wall {
        return vec2<f32>(0.0);
    }
    return textureLoad(velocity, q).xy;
}

fn cell_quantities(p: vec2<i32>) -> Quantities {
    let bits = textureLoad(solid, p).r;
    let v = textureLoad(velocity, p).xy;
    let t = textureLoad(temperature, p).r;
    let d = textureLoad(density, p).r;
    let bad = max(max(non_finite(v.x), non_finite(v.y)), max(max(non_finite(t), non_finite(d)),
        max(non_finite(textureLoad(pressure, p).r), non_finite(textureLoad(divergence, p).r))));
    var q: Quantities;
    q.sum = vec4<f32>(0.0, 0.0, 0.0, bad);
    q.lo = vec2<f32>(BIG);
    q.hi = vec2<f32>(-BIG);
    if !has(bits, SOLID) {
        let left = velocity_at(p + LEFT, has(bits, SOLID_LEFT)).x;
        let right = velocity_at(p + RIGHT, has(bits, SOLID_RIGHT)).x;
        let up = velocity_at(p + UP, has(bits, SOLID_UP)).y;
        let down = velocity_at(p + DOWN, has(bits, SOLID_DOWN)).y;
        var div = params.half_inverse_cell_size * ((right - left) + (down - up));
        if params.staggered != 0u {
            div = textureLoad(divergence_after, p).r;
        }
        q.sum = vec4<f32>(d, d * f32(p.y), div * div, bad);
        q.lo = vec2<f32>(d, BIG);
        q.hi = vec2<f32>(sqrt(v.x * v.x + v.y * v.y), t);
        q.more = vec4<f32>(0.5 * (v.x * v.x + v.y * v.y), 0.0, 0.0, 0.0);
    }
    return q;
}
