// Uses: common/reduce.wgsl (BIG, Quantities, non_finite); gas/params.wgsl (RHO_EPSILON, WALL).
// Gas statistics per cell, for shaders/common/reduce.wgsl: sums of density, momentum x and y,
// and cells with a non-finite value, over the grid; the smallest density and the largest speed
// |m| / rho and, in `more`, the kinetic energy |m|^2 / (2 rho) (where rho > RHO_EPSILON) over
// open cells. CPU mirror: `GasStats::of`
// (src/gas/mod.rs).

@group(0) @binding(1) var state: texture_storage_2d<rgba32float, read>;
@group(0) @binding(2) var solid: texture_storage_2d<r32uint, read>;

fn grid_size() -> vec2<u32> {
    return textureDimensions(state);
}

fn cell_quantities(p: vec2<i32>) -> Quantities {
    let s = textureLoad(state, p);
    let open = (textureLoad(solid, p).r & WALL) == 0u;
    let bad = max(non_finite(s.x), max(non_finite(s.y), non_finite(s.z)));
    var speed = -BIG;
    var energy = 0.0;
    if open && s.x > RHO_EPSILON {
        speed = sqrt(s.y * s.y + s.z * s.z) / s.x;
        energy = 0.5 * (s.y * s.y + s.z * s.z) / s.x;
    }
    var q: Quantities;
    q.sum = vec4<f32>(s.x, s.y, s.z, bad);
    q.lo = vec2<f32>(select(BIG, s.x, open), BIG);
    q.hi = vec2<f32>(speed, -BIG);
    q.more = vec4<f32>(energy, 0.0, 0.0, 0.0);
    return q;
}
