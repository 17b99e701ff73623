// Uses: smoke/packed_start.wgsl (starts); smoke/params.wgsl (SOLID, SmokeParams, has);
//   smoke/projection_cells.wgsl (divergence_at).
// Collocated smoke pass 2, in the form that packs the Jacobi iterations' input itself: the
// divergence of divergence.wgsl, four cells an invocation, into the divergence texture, and
// -alpha div (the pack's scale times it) and the starting pressure (the last solve's with warm
// starts, else 0) straight into the packed layout of packed.wgsl, padding cells 0. It replaces
// the divergence pass and the solve's pack (solver/pack.wgsl) in a step, to the bit: the same
// values in the same textures, in one pass with a quarter of the invocations; the pressure
// texture is left as it is until gradient_packed.wgsl writes the result.
// CPU mirror: `divergence` in src/smoke/cpu.rs, `pack` in src/gpu/packed.rs.

// solver/pack.wgsl's uniform: the right-hand side's scale.
struct PackParams {
    scale: f32,
}

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var<uniform> pack: PackParams;
@group(0) @binding(2) var velocity: texture_storage_2d<rg32float, read>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var pressure: texture_storage_2d<r32float, read>;
@group(0) @binding(5) var divergence_out: texture_storage_2d<r32float, write>;
@group(0) @binding(6) var rhs_packed: texture_storage_2d<rgba32float, write>;
@group(0) @binding(7) var pressure_packed: texture_storage_2d<rgba32float, write>;

// Cell q's divergence (projection_cells.wgsl's), written to the divergence texture; returns it times
// the pack's scale, or 0 for a padding cell (past the grid's last column).
fn cell(q: vec2<i32>) -> f32 {
    if q.x >= i32(textureDimensions(solid).x) {
        return 0.0;
    }
    let bits = textureLoad(solid, q).r;
    var div = 0.0;
    if !has(bits, SOLID) {
        div = divergence_at(q, bits);
    }
    textureStore(divergence_out, q, vec4<f32>(div, 0.0, 0.0, 0.0));
    return pack.scale * div;
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let packed = textureDimensions(rhs_packed);
    if id.x >= packed.x || id.y >= packed.y {
        return;
    }
    let q = vec2<i32>(4 * i32(id.x), i32(id.y));
    let b = vec4<f32>(cell(q), cell(q + vec2<i32>(1, 0)), cell(q + vec2<i32>(2, 0)), cell(q + vec2<i32>(3, 0)));
    textureStore(rhs_packed, id.xy, b);
    textureStore(pressure_packed, id.xy, starts(q));
}
