// Multigrid pass from the finest level, packed (packed.wgsl), one invocation per cell of the
// level below: the residual r = b - A p of its open fine cells (residual.wgsl's, in its order of
// operations: A p = sum over open neighbours of (p_n - p), a neighbour beyond an edge held at
// pressure 0 reading the finest level's ghost, 0), summed as restrict.wgsl sums them (children
// in row-major order, laid as the level's `offset` says) into the coarse right-hand side, and
// the coarse correction started at 0: residual.wgsl and restrict.wgsl in one pass, reading four
// cells a texel and writing no residual texture.
// CPU mirror: `residual` in src/solver/mod.rs and `restrict` in src/solver/multigrid.rs.

@group(0) @binding(0) var<uniform> level: Level;
@group(0) @binding(1) var pressure: texture_storage_2d<rgba32float, read>;
@group(0) @binding(2) var rhs: texture_storage_2d<rgba32float, read>;
@group(0) @binding(3) var walls: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var coarse_rhs: texture_storage_2d<r32float, write>;
@group(0) @binding(5) var coarse_pressure: texture_storage_2d<r32float, write>;

// Fine cell q's value in a packed field (q inside the level).
fn packed_cell(t: texture_storage_2d<rgba32float, read>, q: vec2<i32>) -> f32 {
    return textureLoad(t, vec2<i32>(q.x >> 2u, q.y))[q.x & 3];
}

// Fine cell q's wall bits (level.wgsl's; q inside the level).
fn bits_at(q: vec2<i32>) -> u32 {
    return (textureLoad(walls, vec2<i32>(q.x >> 2u, q.y)).r >> (8u * u32(q.x & 3))) & 0xffu;
}

// The residual of open fine cell q (bits `bits`).
fn residual_at(q: vec2<i32>, bits: u32) -> f32 {
    let size = level.size;
    let centre = packed_cell(pressure, q);
    var lap = 0.0;
    for (var k = 0u; k < 4u; k++) {
        if edge_open(bits, k) {
            let n = q + edge(k);
            lap += neighbour(packed_cell(pressure, clamped(n, size)), n, size, level, k, centre) - centre;
        }
    }
    return packed_cell(rhs, q) - lap;
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(coarse_rhs);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    var sum = 0.0;
    for (var i = 0; i < 2; i++) {
        for (var j = 0; j < 2; j++) {
            let q = 2 * p + vec2<i32>(j, i) - level.offset;
            if inside(q, level.size) {
                let bits = bits_at(q);
                if (bits & WALL) == 0u {
                    sum += residual_at(q, bits);
                }
            }
        }
    }
    textureStore(coarse_rhs, p, vec4<f32>(sum, 0.0, 0.0, 0.0));
    textureStore(coarse_pressure, p, vec4<f32>(0.0));
}
