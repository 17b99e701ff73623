// Water pass 2 of 2: gather. A cell keeps its mass minus its outflows, plus what its four
// neighbours sent it (each neighbour's flow towards it, from pass 1).
// This is the push loop's `new_mass[x][y] -= Flow; new_mass[neighbour] += Flow`, read from
// the receiving side: no scatter, no atomics, the same result whatever the thread order.
// CPU mirror: `simulate_compression` (src/water/cpu.rs).

@group(0) @binding(0) var mass_in: texture_storage_2d<r32float, read>;
@group(0) @binding(1) var flows: texture_storage_2d<rgba32float, read>;
@group(0) @binding(2) var mass_out: texture_storage_2d<r32float, write>;

fn flow_at(p: vec2<i32>, size: vec2<u32>) -> vec4<f32> {
    if !inside(p, size) {
        return vec4<f32>(0.0); // nothing flows in from outside the grid
    }
    return textureLoad(flows, p);
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(mass_in);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    let own = flow_at(p, size);
    // The push loop's own order of updates to this cell (row-major from the top left): the
    // cell above pushes down into it and the cell to the left pushes right before the cell
    // itself is processed; it then gives its outflows one by one, in the order it takes them
    // from `remaining_mass`; the cells to the right and below push after. Keeping that order
    // makes the result the CPU's to the bit, and >= 0: each outflow is at most what remains, and
    // rounding is monotonic, so no partial sum can round below the CPU's remaining mass.
    var m = textureLoad(mass_in, p).r;
    m += flow_at(p + UP, size).x;     // the cell above flows down into this one
    m += flow_at(p + LEFT, size).z;   // the cell to the left flows right
    m = m - own.x - own.y - own.z - own.w;
    m += flow_at(p + RIGHT, size).y;  // the cell to the right flows left
    m += flow_at(p + DOWN, size).w;   // the cell below flows up
    textureStore(mass_out, p, vec4<f32>(m, 0.0, 0.0, 0.0));
}
