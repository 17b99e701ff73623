// Uses: common/grid.wgsl (LEFT, UP, inside); smoke/params.wgsl (SmokeParams);
//   smoke/staggered_held.wgsl (held).
// Staggered smoke pass: the gradient subtraction of staggered_gradient.wgsl, four cells an
// invocation, reading the pressure where the packed Jacobi iterations left it (the packed
// layout of packed.wgsl) and unpacking it into the pressure texture as it goes: it replaces the
// solve's unpack (common/unpack.wgsl) and the gradient pass when they follow the iterations, to
// the bit (the same pressures, copied; the same faces). One invocation per texel column x of
// ceil((W + 1) / 4) and row of H + 1: the u and v faces at columns 4x .. 4x + 3 of its row where
// they exist, and the pressure of those of its cells inside the grid. Beyond the grid the
// pressure is 0 (padding cells hold 0; texels past the packed texture's edge read as 0).
// CPU mirror: `subtract_gradient` in src/smoke/staggered/mod.rs, `unpack` in src/gpu/packed.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var u: texture_storage_2d<r32float, read_write>;
@group(0) @binding(2) var v: texture_storage_2d<r32float, read_write>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var pressure_packed: texture_storage_2d<rgba32float, read>;
@group(0) @binding(5) var pressure_out: texture_storage_2d<r32float, write>;

// The packed pressure texel (x, y); 0 beyond the packed texture.
fn pressure_texel(x: i32, y: i32) -> vec4<f32> {
    let q = vec2<i32>(x, y);
    if inside(q, textureDimensions(pressure_packed)) {
        return textureLoad(pressure_packed, q);
    }
    return vec4<f32>(0.0);
}

// The faces at cell p (staggered_gradient.wgsl's body) given its pressure `here`, its left
// neighbour's `left` and the one above's `up`, and whether its left neighbour is held; writes
// the cell's pressure into the pressure texture. Returns whether p is held.
fn cell(p: vec2<i32>, here: f32, left: f32, up: f32, held_left: bool) -> bool {
    let held_here = held(p);
    // Both faces at p need cell p held.
    if held_here {
        if inside(p, textureDimensions(u)) && held_left {
            let g = (here - left) / params.cell_size;
            textureStore(u, p, vec4<f32>(textureLoad(u, p).r - g, 0.0, 0.0, 0.0));
        }
        if inside(p, textureDimensions(v)) && held(p + UP) {
            let g = (here - up) / params.cell_size;
            textureStore(v, p, vec4<f32>(textureLoad(v, p).r - g, 0.0, 0.0, 0.0));
        }
    }
    if inside(p, textureDimensions(pressure_out)) {
        textureStore(pressure_out, p, vec4<f32>(here, 0.0, 0.0, 0.0));
    }
    return held_here;
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let faces = textureDimensions(u) + vec2<u32>(0u, 1u); // (W + 1) x (H + 1)
    let x = i32(id.x);
    let p = vec2<i32>(4 * x, i32(id.y));
    if p.x >= i32(faces.x) || p.y >= i32(faces.y) {
        return;
    }
    let row = pressure_texel(x, p.y);
    let above = pressure_texel(x, p.y - 1);
    let left = pressure_texel(x - 1, p.y).w;
    // Columns past W + 1 (the last texel's) are beyond every face: `cell` finds them unheld
    // (beyond the right edge) or outside every texture, and writes nothing.
    let held_0 = cell(p, row.x, left, above.x, held(p + LEFT));
    let held_1 = cell(p + vec2<i32>(1, 0), row.y, row.x, above.y, held_0);
    let held_2 = cell(p + vec2<i32>(2, 0), row.z, row.y, above.z, held_1);
    cell(p + vec2<i32>(3, 0), row.w, row.z, above.w, held_2);
}
