// Water pass 2 of 2: gather, four cells an invocation in the packed layout. A cell keeps its
// mass minus its outflows, plus what its four neighbours sent it (each neighbour's flow
// towards it, from pass 1). This is the push loop's `new_mass[x][y] -= Flow;
// new_mass[neighbour] += Flow`, read from the receiving side: no scatter, no atomics, the same
// result whatever the thread order. Padding cells past the grid's last column stay empty (the
// flow an open boundary sends out of the grid is lost there, as out of the grid's edges).
// CPU mirror: `simulate_compression` (src/water/cpu.rs).

@group(0) @binding(0) var<uniform> params: WaterParams;
@group(0) @binding(1) var mass_in: texture_storage_2d<rgba32float, read>;
@group(0) @binding(2) var down_in: texture_storage_2d<rgba32float, read>;
@group(0) @binding(3) var left_in: texture_storage_2d<rgba32float, read>;
@group(0) @binding(4) var right_in: texture_storage_2d<rgba32float, read>;
@group(0) @binding(5) var up_in: texture_storage_2d<rgba32float, read>;
@group(0) @binding(6) var mass_out: texture_storage_2d<rgba32float, write>;

// The flows texel at q of `flows`, or 0 outside the grid (nothing flows in from outside).
fn flows_at(flows: texture_storage_2d<rgba32float, read>, q: vec2<i32>, size: vec2<i32>) -> vec4<f32> {
    if q.x < 0 || q.y < 0 || q.x >= size.x || q.y >= size.y {
        return vec4<f32>(0.0);
    }
    return textureLoad(flows, q);
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = vec2<i32>(textureDimensions(mass_in));
    let q = vec2<i32>(id.xy);
    if q.x >= size.x || q.y >= size.y {
        return;
    }
    let own_left = textureLoad(left_in, q);
    let own_right = textureLoad(right_in, q);
    // What the neighbours send: the cell above its down flow, below its up flow, the cell to
    // the left its right flow, to the right its left flow.
    let from_above = flows_at(down_in, q + UP, size);
    let from_below = flows_at(up_in, q + DOWN, size);
    let from_left = vec4<f32>(flows_at(right_in, q + LEFT, size).w, own_right.xyz);
    let from_right = vec4<f32>(own_left.yzw, flows_at(left_in, q + RIGHT, size).x);
    // The push loop's own order of updates to a cell (row-major from the top left): the cell
    // above pushes down into it and the cell to the left pushes right before the cell itself
    // is processed; it then gives its outflows one by one, in the order it takes them from
    // `remaining_mass`; the cells to the right and below push after. Keeping that order makes
    // the result the CPU's to the bit, and >= 0: each outflow is at most what remains, and
    // rounding is monotonic, so no partial sum can round below the CPU's remaining mass.
    var m = textureLoad(mass_in, q);
    m += from_above;
    m += from_left;
    m = m - textureLoad(down_in, q) - own_left - own_right - textureLoad(up_in, q);
    m += from_right;
    m += from_below;
    let column = 4 * q.x + vec4<i32>(0, 1, 2, 3);
    textureStore(mass_out, q, select(m, vec4<f32>(0.0), column >= vec4<i32>(i32(params.width))));
}
