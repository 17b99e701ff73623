// Uses: common/reduce.wgsl (BIG, Quantities, non_finite); water/params.wgsl (WaterParams).
// What one water cell adds to the statistics (common/reduce.wgsl), shared by the statistics over
// one cell a texel (water/stats.wgsl) and over a packed world (water/stats_packed.wgsl): its
// mass, whether it is wet (mass > min_mass), whether it is non-finite; its mass to the minimum and
// maximum over open cells. CPU mirror: `WaterStats::of` (src/water/mod.rs).

fn water_quantities(m: f32, open: bool, params: WaterParams) -> Quantities {
    var q: Quantities;
    q.sum = vec4<f32>(m, select(0.0, 1.0, m > params.min_mass), non_finite(m), 0.0);
    q.lo = vec2<f32>(select(BIG, m, open), BIG);
    q.hi = vec2<f32>(select(-BIG, m, open), -BIG);
    return q;
}
