// Water pass 1 of 2: each cell's outflows, exactly as Elsts' push loop computes them, four
// cells an invocation in the packed layout (common/packed.wgsl: four cells of a row a texel).
// CPU mirror: the body of the loop in `simulate_compression` (src/water/cpu.rs).
//
// Every flow reads only the previous step's masses (the original reads `mass[][]` and writes
// `new_mass[][]`), so a cell's four outflows are a pure function of its 3x3 neighbourhood.
// Outputs, one packed texture per direction: the mass leaving each of the four cells this step
// down, left, right and up. Each cell's branches of the scalar rule become per-lane selects
// with the same arithmetic in the same order, so a lane's result is the scalar rule's to the bit.
//
// Packed four cells a texel, a step runs about 2.5x faster on lavapipe than one cell an
// invocation (which ran ~60 steps/s at 1024x1024 with rows of 64 cells a workgroup, against ~40
// for 8x8 and 16x16 tiles).

@group(0) @binding(0) var<uniform> params: WaterParams;
@group(0) @binding(1) var mass_in: texture_storage_2d<rgba32float, read>;
@group(0) @binding(2) var solid: texture_storage_2d<r32uint, read>; // SOLID_* bits a cell, see params.wgsl
@group(0) @binding(3) var down_out: texture_storage_2d<rgba32float, write>;
@group(0) @binding(4) var left_out: texture_storage_2d<rgba32float, write>;
@group(0) @binding(5) var right_out: texture_storage_2d<rgba32float, write>;
@group(0) @binding(6) var up_out: texture_storage_2d<rgba32float, write>;

// The mass texel at q, or 0 outside the grid (open boundary: empty air; wall boundary: never
// used, the cell beside it being solid).
fn mass_texel(q: vec2<i32>, size: vec2<i32>) -> vec4<f32> {
    if q.x < 0 || q.y < 0 || q.x >= size.x || q.y >= size.y {
        return vec4<f32>(0.0);
    }
    return textureLoad(mass_in, q);
}

// Halve flows above MinFlow ("leads to smoother flow"), then clamp to [0, hi].
fn limit(flow: vec4<f32>, hi: vec4<f32>) -> vec4<f32> {
    let f = select(flow, flow * 0.5, flow > vec4<f32>(params.min_flow));
    return clamp(f, vec4<f32>(0.0), hi);
}

// get_stable_state_b (params.wgsl) of each lane: its three branches computed with the same
// arithmetic, then selected.
fn stable(total: vec4<f32>) -> vec4<f32> {
    let m = params.max_mass;
    let c = params.max_compress;
    let compressed = (m * m + total * c) / (m + c);
    let over = (total + c) / 2.0;
    return select(select(over, compressed, total < vec4<f32>(2.0 * m + c)), vec4<f32>(m), total <= vec4<f32>(m));
}

// Whether each lane's SOLID_* bit `bit` is clear.
fn clear(bits: vec4<u32>, bit: u32) -> vec4<bool> {
    return (bits & vec4<u32>(bit)) == vec4<u32>(0u);
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = vec2<i32>(textureDimensions(mass_in));
    let q = vec2<i32>(id.xy);
    if q.x >= size.x || q.y >= size.y {
        return;
    }
    let m = textureLoad(mass_in, q);
    let bits = cell_bits(textureLoad(solid, q).r);
    let left_texel = mass_texel(q + LEFT, size);
    let right_texel = mass_texel(q + RIGHT, size);
    let left_mass = vec4<f32>(left_texel.w, m.xyz);
    let right_mass = vec4<f32>(m.yzw, right_texel.x);
    let below = mass_texel(q + DOWN, size);
    let above = mass_texel(q + UP, size);
    let zero = vec4<f32>(0.0);
    let wet = !(!clear(bits, SOLID_SELF) | (m <= zero));
    var remaining = m;

    // Down: fill the cell below to its stable state.
    let down = select(zero, limit(stable(remaining + below) - below, min(vec4<f32>(params.max_speed), remaining)),
                      wet & clear(bits, SOLID_BELOW));
    remaining -= down;
    // Left and right: equalise with the neighbour, a side_share of the difference of the
    // *original* masses (Elsts uses mass[x][y], not remaining_mass).
    let left = select(zero, limit((m - left_mass) * params.side_share, remaining),
                      wet & (remaining > zero) & clear(bits, SOLID_LEFT));
    remaining -= left;
    let right = select(zero, limit((m - right_mass) * params.side_share, remaining),
                       wet & (remaining > zero) & clear(bits, SOLID_RIGHT));
    remaining -= right;
    // Up: only compressed water flows upwards.
    let up = select(zero, limit(remaining - stable(remaining + above), min(vec4<f32>(params.max_speed), remaining)),
                    wet & (remaining > zero) & clear(bits, SOLID_ABOVE));
    textureStore(down_out, q, down);
    textureStore(left_out, q, left);
    textureStore(right_out, q, right);
    textureStore(up_out, q, up);
}
