// Uses: common/body.wgsl (Body); water/body_region.wgsl (BodyRegion, region_texel).
// Water pass: the bodies' regions of the packed mass that water/bodies.wgsl wrote into the
// other texture of the ping-pong, copied back, so that the step reads the whole grid from one
// texture. One invocation a texel of a region, the dispatch's z the body.
// CPU mirror: none (a copy; the displacement's mirror is `displace` in src/water/bodies.rs).

@group(0) @binding(0) var<uniform> region: BodyRegion;
@group(0) @binding(1) var<uniform> bodies: array<Body, 16>;
@group(0) @binding(2) var mass_in: texture_storage_2d<rgba32float, read>;
@group(0) @binding(3) var mass_out: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= region.size.x || id.y >= region.size.y || id.z >= region.count {
        return;
    }
    let t = region_texel(region, bodies[id.z], id);
    let packed = vec2<i32>(textureDimensions(mass_in));
    if t.x < 0 || t.y < 0 || t.x >= packed.x || t.y >= packed.y {
        return;
    }
    textureStore(mass_out, t, textureLoad(mass_in, t));
}
