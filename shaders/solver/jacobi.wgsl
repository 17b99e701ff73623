// Pressure solve: one Jacobi iteration of the Poisson problem (GPU Gems 38.3, on the solver's
// finest level): p' = (sum of the four neighbours' p, a wall or the grid's edge reading p - b)
// / 4 at every open cell, 0 in walls; ping-ponged between two textures.
// CPU mirror: `jacobi` in src/solver/mod.rs.

@group(0) @binding(0) var pressure: texture_storage_2d<r32float, read>;
@group(0) @binding(1) var rhs: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(3) var pressure_out: texture_storage_2d<r32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(pressure);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    var value = 0.0;
    if open_cell(solid, p) {
        let centre = textureLoad(pressure, p).r;
        var sum = 0.0;
        for (var k = 0u; k < 4u; k++) {
            let q = p + edge(k);
            sum += select(centre, textureLoad(pressure, q).r, open_cell(solid, q));
        }
        value = (sum - textureLoad(rhs, p).r) * 0.25;
    }
    textureStore(pressure_out, p, vec4<f32>(value, 0.0, 0.0, 0.0));
}
