// Uses: common/grid.wgsl (beyond_bit, inside); common/reduce.wgsl (BIG, Quantities);
//   solver/level.wgsl (edge).
// Pressure solve statistics, for shaders/common/reduce.wgsl: over the open cells, the sums of
// the squared residual r = b - A p and of the squared right-hand side b = scale * rhs (scale 1
// on the solver's own levels, h^2 when `rhs` holds the divergence), so |r| / |b| is the solve's
// relative residual. Walls: bit 0 of `solid` (the solver's 1/0 walls and the smoke model's
// solid bits both); beyond the edges in `dirichlet` the pressure is 0, beyond the others no flux.
// CPU mirror: `residual` and `norm` in src/solver/mod.rs (`SmokeStats::of` uses them).

struct Scale {
    rhs: f32,
    dirichlet: u32, // bit e: edge e holds the pressure at 0 (beyond_bit)
};

@group(0) @binding(1) var<uniform> scale: Scale;
@group(0) @binding(2) var pressure: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var rhs: texture_storage_2d<r32float, read>;
@group(0) @binding(4) var solid: texture_storage_2d<r32uint, read>;

fn grid_size() -> vec2<u32> {
    return textureDimensions(pressure);
}

fn wall_free(q: vec2<i32>) -> bool {
    return inside(q, grid_size()) && (textureLoad(solid, q).r & 1u) == 0u;
}

fn cell_quantities(p: vec2<i32>) -> Quantities {
    var q: Quantities;
    q.sum = vec4<f32>(0.0);
    q.lo = vec2<f32>(BIG);
    q.hi = vec2<f32>(-BIG);
    if wall_free(p) {
        let centre = textureLoad(pressure, p).r;
        var lap = 0.0;
        for (var k = 0u; k < 4u; k++) {
            let n = p + edge(k);
            if wall_free(n) {
                lap += textureLoad(pressure, n).r - centre;
            } else if (beyond_bit(n, grid_size()) & scale.dirichlet) != 0u {
                lap -= centre;
            }
        }
        let b = scale.rhs * textureLoad(rhs, p).r;
        let r = b - lap;
        q.sum = vec4<f32>(r * r, b * b, 0.0, 0.0);
    }
    return q;
}
