// Uses: common/grid.wgsl (DOWN, LEFT, RIGHT, UP); smoke/params.wgsl (SOLID, SOLID_DOWN, SOLID_LEFT,
//   SOLID_RIGHT, SOLID_UP, SmokeParams, has); smoke/projection_cells.wgsl (projected).
// Smoke pass 4 of 4: subtract the pressure gradient (GPU Gems 38.2, Helmholtz-Hodge
// projection), v -= gradient_factor (pR - pL, pD - pU), a solid or outside neighbour taking the
// centre's pressure; free slip: the x component is zeroed next to a solid on the left or right,
// the y component next to one above or below (Rideout's SubtractGradient and vMask). Solid
// cells get velocity 0.
// The formula is projection_cells.wgsl's. CPU mirror: `gradient` in src/smoke/cpu.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var velocity: texture_storage_2d<rg32float, read>;
@group(0) @binding(2) var pressure: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var velocity_out: texture_storage_2d<rg32float, write>;

fn pressure_at(q: vec2<i32>, is_wall: bool, centre: f32) -> f32 {
    if is_wall {
        return centre;
    }
    return textureLoad(pressure, q).r;
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(velocity);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    let bits = textureLoad(solid, p).r;
    var v = vec2<f32>(0.0);
    if !has(bits, SOLID) {
        let centre = textureLoad(pressure, p).r;
        let left = pressure_at(p + LEFT, has(bits, SOLID_LEFT), centre);
        let right = pressure_at(p + RIGHT, has(bits, SOLID_RIGHT), centre);
        let up = pressure_at(p + UP, has(bits, SOLID_UP), centre);
        let down = pressure_at(p + DOWN, has(bits, SOLID_DOWN), centre);
        v = projected(p, bits, left, right, up, down);
    }
    textureStore(velocity_out, p, vec4<f32>(v, 0.0, 0.0));
}
