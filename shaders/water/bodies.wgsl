// Uses: common/body.wgsl (Body, body_contains); water/body_region.wgsl (BodyRegion,
//   region_texel); water/params.wgsl (SOLID_BODY, SOLID_SELF, WaterParams).
// Water pass, the displacement: over each body's region of the packed mass (four cells of a
// row a texel, a solid cell's mass stored negated), the cells the bodies cover now become solid
// (their mass negated, so the step flows around them) and the water of each cell a body newly
// covers (covered now, open before: `before` holds the bodies as they were) goes in equal shares
// to its four neighbours (down, left, right, up) that are open now; a cell with none keeps it
// under the body. Every share comes from `mass_in` as it was (a gather, in the CPU's order of
// neighbours); the region is written to `mass_out` and copied back by water/bodies_copy.wgsl.
// Each covered cell's SOLID_BODY bit is set in `solid` (cleared where no body is), for the
// renderer. One invocation a texel of a region, the dispatch's z the body.
// CPU mirror: `rasterise` and `displace` in src/water/bodies.rs.

@group(0) @binding(0) var<uniform> params: WaterParams;
@group(0) @binding(1) var<uniform> region: BodyRegion;
// 16: MAX_BODIES in src/body/mod.rs (a test holds them equal).
@group(0) @binding(2) var<uniform> bodies: array<Body, 16>;
@group(0) @binding(3) var<uniform> before: array<Body, 16>;
@group(0) @binding(4) var solid: texture_storage_2d<r32uint, read_write>;
@group(0) @binding(5) var mass_in: texture_storage_2d<rgba32float, read>;
@group(0) @binding(6) var mass_out: texture_storage_2d<rgba32float, write>;

// Whether cell q is inside the grid.
fn inside(q: vec2<i32>) -> bool {
    return q.x >= 0 && q.y >= 0 && q.x < i32(params.width) && q.y < i32(textureDimensions(solid).y);
}

// The stored (packed) mass of cell q, inside the grid.
fn stored(q: vec2<i32>) -> f32 {
    return textureLoad(mass_in, vec2<i32>(q.x / 4, q.y))[q.x % 4];
}

fn is_wall(q: vec2<i32>) -> bool {
    return (textureLoad(solid, q).r & SOLID_SELF) != 0u;
}

// Whether the first of `count` bodies of the table now (`now`) or before holds cell q's centre.
fn covered_now(q: vec2<i32>) -> bool {
    let centre = vec2<f32>(f32(q.x) + 0.5, f32(q.y) + 0.5);
    var out = false;
    for (var i = 0u; i < region.count; i++) {
        out = out || body_contains(bodies[i], centre);
    }
    return out;
}

fn covered_before(q: vec2<i32>) -> bool {
    let centre = vec2<f32>(f32(q.x) + 0.5, f32(q.y) + 0.5);
    var out = false;
    for (var i = 0u; i < region.count; i++) {
        out = out || body_contains(before[i], centre);
    }
    return out;
}

// Open now: inside the grid, no wall, no body.
fn open_now(q: vec2<i32>) -> bool {
    return inside(q) && !is_wall(q) && !covered_now(q);
}

// The four neighbours in the order their shares are added (src/water/bodies.rs, NEIGHBOURS).
fn neighbour(j: i32) -> vec2<i32> {
    switch j {
        case 0: { return vec2<i32>(0, 1); }
        case 1: { return vec2<i32>(-1, 0); }
        case 2: { return vec2<i32>(1, 0); }
        default: { return vec2<i32>(0, -1); }
    }
}

fn receivers(q: vec2<i32>) -> u32 {
    var n = 0u;
    for (var j = 0; j < 4; j++) {
        n += u32(open_now(q + neighbour(j)));
    }
    return n;
}

// Whether cell q gives its water away this step: a body covers it now, none did before, and it
// has an open neighbour.
fn gives(q: vec2<i32>) -> bool {
    return inside(q) && !is_wall(q) && covered_now(q) && !covered_before(q) && receivers(q) > 0u;
}

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
    let old = textureLoad(mass_in, t);
    var out = old;
    for (var k = 0; k < 4; k++) {
        let q = vec2<i32>(4 * t.x + k, t.y);
        // Padding past the last column and walls are left as they are.
        if !inside(q) || is_wall(q) {
            continue;
        }
        let bits = textureLoad(solid, q).r & ~SOLID_BODY;
        if covered_now(q) {
            out[k] = select(-abs(old[k]), -0.0, gives(q));
            textureStore(solid, q, vec4<u32>(bits | SOLID_BODY, 0u, 0u, 0u));
        } else {
            var m = abs(old[k]);
            for (var j = 0; j < 4; j++) {
                let n = q + neighbour(j);
                if gives(n) {
                    m = m + abs(stored(n)) / f32(receivers(n));
                }
            }
            out[k] = m;
            textureStore(solid, q, vec4<u32>(bits, 0u, 0u, 0u));
        }
    }
    textureStore(mass_out, t, out);
}
