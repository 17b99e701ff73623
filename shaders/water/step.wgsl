// Uses: water/params.wgsl (WaterParams); water/walk.wgsl (walk, STRIP).
// The water step in one pass, over every cell (the walk: water/walk.wgsl, with the rules in
// f32, water/rules.wgsl, or in integer units, water/rules_fixed.wgsl): one invocation a column
// of STRIP rows of two texels. In a paged world (src/water/packed_world.rs, "Pages") a page's
// texture holds HALO rows above and below its own, copies of its neighbours' (or the cells past
// the world's edge), which the walk reads and does not step. CPU mirror: `simulate_compression`
// (src/water/cpu.rs; fixed point: `compression_step` in src/water/fixed.rs).

@group(0) @binding(0) var<uniform> params: WaterParams;
@group(0) @binding(1) var mass_in: texture_storage_2d<rgba32float, read>;
@group(0) @binding(2) var mass_out: texture_storage_2d<rgba32float, write>;

// Rows of halo above and below the rows stepped (0: the texture is the world's).
override HALO: i32 = 0;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = vec2<i32>(textureDimensions(mass_in));
    let x = 2 * i32(id.x);
    let y0 = HALO + i32(id.y) * STRIP;
    let end = size.y - HALO;
    if x >= size.x || y0 >= end {
        return;
    }
    _ = walk(x, y0, min(y0 + STRIP, end), size, 0, size.y);
}
