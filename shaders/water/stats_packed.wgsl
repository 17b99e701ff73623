// Uses: common/reduce.wgsl (Quantities); water/params.wgsl (WaterParams); water/page.wgsl (Page);
//   water/quantities.wgsl (water_quantities).
// Water statistics per cell, for shaders/common/reduce.wgsl, over a packed world
// (src/water/packed_world.rs): as water/stats.wgsl, each cell read from its texel, the wall bit
// its stored sign (water/pack.wgsl), its mass the magnitude; a reduction a page of a paged world,
// over its own rows. CPU mirror: `WaterStats::of`
// (src/water/mod.rs).

@group(0) @binding(1) var<uniform> params: WaterParams;
@group(0) @binding(2) var mass: texture_storage_2d<rgba32float, read>;
@group(0) @binding(3) var<uniform> page: Page;

fn grid_size() -> vec2<u32> {
    return vec2<u32>(params.width, page.rows);
}

fn cell_quantities(p: vec2<i32>) -> Quantities {
    let stored = textureLoad(mass, vec2<i32>(p.x / 4, p.y + i32(page.halo)))[p.x % 4];
    let open = (bitcast<u32>(stored) & 0x80000000u) == 0u;
    return water_quantities(abs(stored), open, params);
}
