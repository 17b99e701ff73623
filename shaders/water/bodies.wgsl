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
// renderer. One invocation a texel of a region, the dispatch's z the body; a workgroup of 8 x 8
// texels first finds which cells of its tile (and 2 cells around: the neighbours' neighbours)
// the bodies cover now and before, once a cell, in workgroup memory.
// CPU mirror: `rasterise` and `displace` in src/water/bodies.rs.

@group(0) @binding(0) var<uniform> params: WaterParams;
@group(0) @binding(1) var<uniform> region: BodyRegion;
// 16: MAX_BODIES in src/body/mod.rs (a test holds them equal).
@group(0) @binding(2) var<uniform> bodies: array<Body, 16>;
@group(0) @binding(3) var<uniform> before: array<Body, 16>;
@group(0) @binding(4) var solid: texture_storage_2d<r32uint, read_write>;
@group(0) @binding(5) var mass_in: texture_storage_2d<rgba32float, read>;
@group(0) @binding(6) var mass_out: texture_storage_2d<rgba32float, write>;

// The tile: the workgroup's 8 texels (32 cells) by 8 rows, and 2 cells on every side.
const TILE_W: i32 = 36;
const TILE_H: i32 = 12;
// A tile cell's flags: open now (inside the grid, no wall, no body); a body's now; a body's
// before. A wall or a cell outside the grid has none.
const OPEN: u32 = 1u;
const NOW: u32 = 2u;
const BEFORE: u32 = 4u;

var<workgroup> flags: array<u32, 432>;
var<workgroup> masses: array<f32, 432>;

// Whether cell q is inside the grid.
fn inside(q: vec2<i32>) -> bool {
    return q.x >= 0 && q.y >= 0 && q.x < i32(params.width) && q.y < i32(textureDimensions(solid).y);
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

// Tile cell `d` (from the tile's corner).
fn at(d: vec2<i32>) -> i32 {
    return d.y * TILE_W + d.x;
}

// The open neighbours of tile cell d.
fn receivers(d: vec2<i32>) -> u32 {
    var n = 0u;
    for (var j = 0; j < 4; j++) {
        n += flags[at(d + neighbour(j))] & OPEN;
    }
    return n;
}

// Whether tile cell d gives its water away: a body covers it now, none did before, and it has an
// open neighbour.
fn gives(d: vec2<i32>) -> bool {
    return (flags[at(d)] & (NOW | BEFORE)) == NOW && receivers(d) > 0u;
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    // (wid.z and region.count are the same for the whole workgroup: the barrier is uniform.)
    if wid.z >= region.count {
        return;
    }
    let corner = region_texel(region, bodies[wid.z], vec3<u32>(wid.xy * 8u, 0u));
    let origin = vec2<i32>(4 * corner.x - 2, corner.y - 2);
    for (var k = i32(lid); k < TILE_W * TILE_H; k += 64) {
        let q = origin + vec2<i32>(k % TILE_W, k / TILE_W);
        var f = 0u;
        var m = 0.0;
        if inside(q) && (textureLoad(solid, q).r & SOLID_SELF) == 0u {
            let centre = vec2<f32>(f32(q.x) + 0.5, f32(q.y) + 0.5);
            var now = false;
            var then = false;
            for (var i = 0u; i < region.count; i++) {
                now = now || body_contains(bodies[i], centre);
                then = then || body_contains(before[i], centre);
            }
            f = select(OPEN, NOW, now) | select(0u, BEFORE, then);
            m = abs(textureLoad(mass_in, vec2<i32>(q.x / 4, q.y))[q.x % 4]);
        }
        flags[k] = f;
        masses[k] = m;
    }
    workgroupBarrier();
    let t = region_texel(region, bodies[wid.z], id);
    let packed = vec2<i32>(textureDimensions(mass_in));
    if id.x >= region.size.x || id.y >= region.size.y || t.x < 0 || t.y < 0 || t.x >= packed.x || t.y >= packed.y {
        return;
    }
    let old = textureLoad(mass_in, t);
    var out = old;
    for (var k = 0; k < 4; k++) {
        let q = vec2<i32>(4 * t.x + k, t.y);
        let d = q - origin;
        let f = flags[at(d)];
        // Padding past the last column and walls are left as they are.
        if f == 0u {
            continue;
        }
        let bits = textureLoad(solid, q).r & ~SOLID_BODY;
        if (f & NOW) != 0u {
            out[k] = select(-abs(old[k]), -0.0, gives(d));
            textureStore(solid, q, vec4<u32>(bits | SOLID_BODY, 0u, 0u, 0u));
        } else {
            var m = abs(old[k]);
            for (var j = 0; j < 4; j++) {
                let n = d + neighbour(j);
                if gives(n) {
                    m = m + masses[at(n)] / f32(receivers(n));
                }
            }
            out[k] = m;
            textureStore(solid, q, vec4<u32>(bits, 0u, 0u, 0u));
        }
    }
    textureStore(mass_out, t, out);
}
