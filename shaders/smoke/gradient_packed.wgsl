// Uses: common/grid.wgsl (inside); smoke/params.wgsl (SOLID, SOLID_DOWN, SOLID_LEFT, SOLID_RIGHT,
//   SOLID_UP, SmokeParams, has); smoke/projection_cells.wgsl (projected).
// Collocated smoke pass 4, in the form that reads the Jacobi iterations' packed result: the
// gradient subtraction of gradient.wgsl, four cells an invocation, the pressures taken from the
// packed layout of packed.wgsl and unpacked into the pressure texture as it goes. It replaces
// the solve's unpack (common/unpack.wgsl) and the gradient pass in a step, to the bit (the same
// pressures, copied; the same velocities). A neighbour beyond the grid or in a wall is never
// read (its SOLID_* bit is set: the cell's own pressure stands in), so texels past the packed
// texture's edge are read as 0 only to keep every load in bounds.
// CPU mirror: `gradient` in src/smoke/cpu.rs, `unpack` in src/gpu/packed.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var velocity: texture_storage_2d<rg32float, read>;
@group(0) @binding(2) var pressure_packed: texture_storage_2d<rgba32float, read>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var velocity_out: texture_storage_2d<rg32float, write>;
@group(0) @binding(5) var pressure_out: texture_storage_2d<r32float, write>;

// The packed pressure texel (x, y); 0 beyond the packed texture.
fn pressure_texel(x: i32, y: i32) -> vec4<f32> {
    let q = vec2<i32>(x, y);
    if inside(q, textureDimensions(pressure_packed)) {
        return textureLoad(pressure_packed, q);
    }
    return vec4<f32>(0.0);
}

// Cell q's velocity less its pressure gradient (projection_cells.wgsl's), from its pressure `centre`
// and its neighbours' (left, right, up, down: read only where their SOLID_* bit is clear), and
// its pressure unpacked; nothing for a padding cell.
fn cell(q: vec2<i32>, centre: f32, left: f32, right: f32, up: f32, down: f32) {
    if q.x >= i32(textureDimensions(solid).x) {
        return;
    }
    let bits = textureLoad(solid, q).r;
    var v = vec2<f32>(0.0);
    if !has(bits, SOLID) {
        let l = select(left, centre, has(bits, SOLID_LEFT));
        let r = select(right, centre, has(bits, SOLID_RIGHT));
        let u = select(up, centre, has(bits, SOLID_UP));
        let d = select(down, centre, has(bits, SOLID_DOWN));
        v = projected(q, bits, l, r, u, d);
    }
    textureStore(velocity_out, q, vec4<f32>(v, 0.0, 0.0));
    textureStore(pressure_out, q, vec4<f32>(centre, 0.0, 0.0, 0.0));
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let packed = textureDimensions(pressure_packed);
    if id.x >= packed.x || id.y >= packed.y {
        return;
    }
    let x = i32(id.x);
    let y = i32(id.y);
    let q = vec2<i32>(4 * x, y);
    let p = pressure_texel(x, y);
    let above = pressure_texel(x, y - 1);
    let below = pressure_texel(x, y + 1);
    cell(q, p.x, pressure_texel(x - 1, y).w, p.y, above.x, below.x);
    cell(q + vec2<i32>(1, 0), p.y, p.x, p.z, above.y, below.y);
    cell(q + vec2<i32>(2, 0), p.z, p.y, p.w, above.z, below.z);
    cell(q + vec2<i32>(3, 0), p.w, p.z, pressure_texel(x + 1, y).x, above.w, below.w);
}
