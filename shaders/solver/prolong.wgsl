// Multigrid pass: adds the coarse correction to the fine pressure, p += e of the parent cell,
// at open fine cells (piecewise constant; the parent as the level's `offset` lays the coarse
// level). CPU mirror: `prolong` in src/solver/multigrid.rs.

@group(0) @binding(0) var<uniform> level: Level;
@group(0) @binding(1) var pressure: texture_storage_2d<r32float, read_write>;
@group(0) @binding(2) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(3) var correction: texture_storage_2d<r32float, read>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(pressure);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    if open_cell(solid, p) {
        let e = textureLoad(correction, (p + level.offset) / 2).r;
        textureStore(pressure, p, vec4<f32>(textureLoad(pressure, p).r + e, 0.0, 0.0, 0.0));
    }
}
