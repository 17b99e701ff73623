// Gas pass 1 of 3 with the linear reconstruction (MUSCL): the flux across every face a cell
// owns, as faces.wgsl, from the two face states instead of the two cells' values: owner a and
// neighbour b along the face's direction k, the cell before a and the one beyond b (mirror
// images through walls, walls.wgsl), a + slope_a / 2 and b - slope_b / 2 in density and
// velocity, each slope limited.
// Zero where either cell is a wall or the neighbour is outside.
// CPU mirror: `faces_linear` in src/gas/cpu.rs (the reconstruction: reconstruct.wgsl).

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
                let bits_b = textureLoad(solid, q).r;
                let before = neighbour_or_ghost(p, bits, 4u + k);
                let beyond = neighbour_or_ghost(q, bits_b, k);
                let states = reconstruct(before, a, b, beyond);
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
