// Pressure solve: one Jacobi iteration of the Poisson problem (GPU Gems 38.3, on the solver's
// finest level): p' = (sum of the four neighbours' p, a wall or the grid's edge reading p - b)
// / 4 at every open cell, 0 in walls; ping-ponged between two textures. The neighbours' walls
// come from the cell's own wall bits (one texel), the sum in `EDGES` order.
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
    let bits = textureLoad(solid, p).r;
    var value = 0.0;
    if (bits & WALL) == 0u {
        let c = textureLoad(pressure, p).r;
        let up = select(c, textureLoad(pressure, p + UP).r, edge_open(bits, 0u));
        let left = select(c, textureLoad(pressure, p + LEFT).r, edge_open(bits, 1u));
        let right = select(c, textureLoad(pressure, p + RIGHT).r, edge_open(bits, 2u));
        let down = select(c, textureLoad(pressure, p + DOWN).r, edge_open(bits, 3u));
        value = (up + left + right + down - textureLoad(rhs, p).r) * 0.25;
    }
    textureStore(pressure_out, p, vec4<f32>(value, 0.0, 0.0, 0.0));
}
