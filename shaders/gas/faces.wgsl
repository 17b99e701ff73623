// Uses: gas/faces_constant.wgsl | gas/faces_linear.wgsl (face_states, owner); gas/params.wgsl
//   (GasParams, WALL, face_distance, face_flux_between, face_length, forward, neighbour_is_wall,
//   unit).
// Gas pass 1: the flux across every face a cell owns (E, S, and with 8-way flow SE, SW),
// evaluated at the face's two states (`face_states`: the two cells' values in
// faces_constant.wgsl, the predicted states of MUSCL-Hancock in faces_linear.wgsl). Zero where
// either cell is a wall or the neighbour is outside.
// CPU mirror: `faces` and `faces_predicted` in src/gas/cpu.rs (`owned_faces`).
// Output: face_f = mass flow of faces 0..3, face_px / face_py = momentum flow x / y.

@group(0) @binding(0) var<uniform> params: GasParams;
// Binding 1: the cells' state (faces_constant.wgsl) or their predicted half-step state
// (faces_linear.wgsl).
@group(0) @binding(2) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(3) var face_f: texture_storage_2d<rgba32float, write>;
@group(0) @binding(4) var face_px: texture_storage_2d<rgba32float, write>;
@group(0) @binding(5) var face_py: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(solid);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    let bits = textureLoad(solid, p).r;
    var f = vec4<f32>(0.0);
    var px = vec4<f32>(0.0);
    var py = vec4<f32>(0.0);
    if (bits & WALL) == 0u {
        let a = owner(p);
        for (var k = 0u; k < params.faces; k++) {
            if !neighbour_is_wall(bits, k) {
                let st = face_states(a, k, p + forward(k));
                let flux = face_length(params, k) * face_flux_between(st[0], st[1], st[2], st[3], unit(k), face_distance(k), params);
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
