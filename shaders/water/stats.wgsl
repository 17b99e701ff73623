// Uses: common/reduce.wgsl (Quantities); water/params.wgsl (SOLID_SELF, WaterParams);
//   water/quantities.wgsl (water_quantities).
// Water statistics per cell, for shaders/common/reduce.wgsl, over one cell a texel: sums of
// mass, wet cells (mass > min_mass) and non-finite masses over the grid; minimum and maximum
// mass over open cells. CPU mirror: `WaterStats::of` (src/water/mod.rs).

@group(0) @binding(1) var<uniform> params: WaterParams;
@group(0) @binding(2) var mass: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read>;

fn grid_size() -> vec2<u32> {
    return textureDimensions(mass);
}

fn cell_quantities(p: vec2<i32>) -> Quantities {
    let open = (textureLoad(solid, p).r & SOLID_SELF) == 0u;
    return water_quantities(textureLoad(mass, p).r, open, params);
}
