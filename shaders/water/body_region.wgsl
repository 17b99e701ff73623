// Uses: common/body.wgsl (Body).
// The water's body passes' region: a rectangle of `size` texels (packed, four cells of a row a
// texel) around each body, `half` texels left of and rows above the texel holding its centre
// (src/water/gpu.rs, `BodyRegion`); the dispatch's z is the body. `count`: bodies in the table.
struct BodyRegion {
    half: vec2<i32>,
    size: vec2<u32>,
    count: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
};

// The packed texel of invocation `id` in body `b`'s rectangle of `region`.
fn region_texel(region: BodyRegion, b: Body, id: vec3<u32>) -> vec2<i32> {
    let centre = vec2<i32>(i32(floor(b.centre.x / 4.0)), i32(floor(b.centre.y)));
    return centre - region.half + vec2<i32>(id.xy);
}
