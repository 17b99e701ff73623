// Uses: water/params.wgsl (WaterParams); water/walk.wgsl (walk, STRIP).
// The water step in one pass, over every cell (the walk: water/walk.wgsl, with the rules in
// f32, water/rules.wgsl, or in integer units, water/rules_fixed.wgsl): one invocation a column
// of STRIP rows of two texels. CPU mirror: `simulate_compression` (src/water/cpu.rs; fixed
// point: `compression_step` in src/water/fixed.rs).

@group(0) @binding(0) var<uniform> params: WaterParams;
@group(0) @binding(1) var mass_in: texture_storage_2d<rgba32float, read>;
@group(0) @binding(2) var mass_out: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = vec2<i32>(textureDimensions(mass_in));
    let x = 2 * i32(id.x);
    let y0 = i32(id.y) * STRIP;
    if x >= size.x || y0 >= size.y {
        return;
    }
    _ = walk(x, y0, min(y0 + STRIP, size.y), size, 0, size.y);
}
