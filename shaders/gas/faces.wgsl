// Gas pass 1 of 3: the flux across every face a cell owns (E, S, and with 8-way flow SE, SW),
// from the old state, evaluated at the face's two states (`face_states`: the two cells' values
// in faces_constant.wgsl, the linear reconstruction's in faces_linear.wgsl). Zero where either
// cell is a wall or the neighbour is outside.
// CPU mirror: `faces` and `faces_linear` in src/gas/cpu.rs (`owned_faces`).
// Output: face_f = mass flow of faces 0..3, face_px / face_py = momentum flow x / y.

@group(0) @binding(0) var<uniform> params: GasParams;
@group(0) @binding(1) var state: texture_storage_2d<rgba32float, read>; // (rho, mx, my, 0)
@group(0) @binding(2) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(3) var face_f: texture_storage_2d<rgba32float, write>;
@group(0) @binding(4) var face_px: texture_storage_2d<rgba32float, write>;
@group(0) @binding(5) var face_py: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(state);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    let bits = textureLoad(solid, p).r;
    var f = vec4<f32>(0.0);
    var px = vec4<f32>(0.0);
    var py = vec4<f32>(0.0);
    if (bits & WALL) == 0u {
        let a = textureLoad(state, p).xyz;
        for (var k = 0u; k < params.faces; k++) {
            if !neighbour_is_wall(bits, k) {
                let q = p + forward(k);
                let b = textureLoad(state, q).xyz;
                let states = face_states(p, bits, k, a, q, b);
                let flux = face_length(params, k) * face_flux_between(states[0], states[1], a, b, unit(k), face_distance(k), params);
                f[k] = flux.x;
                px[k] = flux.y;
                py[k] = flux.z;
            }
        }
    }
    textureStore(face_f, p, f);
    textureStore(face_px, p, px);
    textureStore(face_py, p, py);
}
