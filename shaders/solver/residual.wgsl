// Multigrid pass: the residual r = b - A p, A p = sum over open neighbours of (p_n - p), p_n
// the ghost beyond a held edge (level.wgsl); 0 in walls. CPU mirror: `residual` in src/solver/mod.rs (same order of operations).

@group(0) @binding(0) var<uniform> level: Level;
@group(0) @binding(1) var pressure: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var rhs: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var residual: texture_storage_2d<r32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(pressure);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    var r = 0.0;
    let bits = textureLoad(solid, p).r;
    if (bits & WALL) == 0u {
        let centre = textureLoad(pressure, p).r;
        var lap = 0.0;
        for (var k = 0u; k < 4u; k++) {
            if edge_open(bits, k) {
                let q = p + edge(k);
                lap += neighbour(textureLoad(pressure, clamped(q, size)).r, q, size, level, k, centre) - centre;
            }
        }
        r = textureLoad(rhs, p).r - lap;
    }
    textureStore(residual, p, vec4<f32>(r, 0.0, 0.0, 0.0));
}
