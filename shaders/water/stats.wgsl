// Uses: common/reduce.wgsl (BIG, Quantities, non_finite); water/params.wgsl (SOLID_SELF,
//   WaterParams).
// Water statistics per cell, for shaders/common/reduce.wgsl: sums of mass, wet cells
// (mass > min_mass) and non-finite masses over the grid; minimum and maximum mass over open
// cells. CPU mirror: `WaterStats::of` (src/water/mod.rs).

@group(0) @binding(1) var<uniform> params: WaterParams;
@group(0) @binding(2) var mass: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read>;

fn grid_size() -> vec2<u32> {
    return textureDimensions(mass);
}

fn cell_quantities(p: vec2<i32>) -> Quantities {
    let m = textureLoad(mass, p).r;
    let open = (textureLoad(solid, p).r & SOLID_SELF) == 0u;
    var q: Quantities;
    q.sum = vec4<f32>(m, select(0.0, 1.0, m > params.min_mass), non_finite(m), 0.0);
    q.lo = vec2<f32>(select(BIG, m, open), BIG);
    q.hi = vec2<f32>(select(-BIG, m, open), -BIG);
    return q;
}
