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
// texels first finds which bodies can reach its tile (and 2 cells around: the neighbours'
// neighbours), then which of the tile's cells those cover now and before, once a cell, in
// workgroup memory.
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
// A tile cell's flags: a body's now; a body's before (a wall is neither). Only a body's cells
// (now or before) have their solid bits read into the tile; the rest are read where needed.
const NOW: u32 = 1u;
const BEFORE: u32 = 2u;

var<workgroup> flags: array<u32, 432>;
var<workgroup> tile_bits: array<u32, 432>;

// Whether body b can hold a point of the box of cells from `lo` to `hi` (its reach2 against the
// box's nearest point; a reach2 below 0 holds none).
fn reaches(b: Body, lo: vec2<f32>, hi: vec2<f32>) -> bool {
    let d = max(max(lo - b.centre, b.centre - hi), vec2<f32>(0.0));
    return b.reach2 >= 0.0 && dot(d, d) <= b.reach2;
}

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

// Tile cell `d` (from the tile's corner `origin`).
fn at(d: vec2<i32>) -> i32 {
    return d.y * TILE_W + d.x;
}

// Whether tile cell d (cell `origin + d`) is open now: inside the grid, no body now, no wall.
fn open_now(d: vec2<i32>, origin: vec2<i32>) -> bool {
    let q = origin + d;
    if !inside(q) || (flags[at(d)] & NOW) != 0u {
        return false;
    }
    return (textureLoad(solid, q).r & SOLID_SELF) == 0u;
}

// The open neighbours of tile cell d.
fn receivers(d: vec2<i32>, origin: vec2<i32>) -> u32 {
    var n = 0u;
    for (var j = 0; j < 4; j++) {
        n += u32(open_now(d + neighbour(j), origin));
    }
    return n;
}

// Tile cell d's water (cell `origin + d`'s stored mass, its magnitude).
fn water(d: vec2<i32>, origin: vec2<i32>) -> f32 {
    let q = origin + d;
    return abs(textureLoad(mass_in, vec2<i32>(q.x / 4, q.y))[q.x % 4]);
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    // (wid.z and region.count are the same for the whole workgroup: the barriers are uniform.)
    if wid.z >= region.count {
        return;
    }
    let corner = region_texel(region, bodies[wid.z], vec3<u32>(wid.xy * 8u, 0u));
    let origin = vec2<i32>(4 * corner.x - 2, corner.y - 2);
    // Each invocation finds the same bodies near the tile (no barrier for sharing them).
    let lo = vec2<f32>(origin);
    let hi = lo + vec2<f32>(f32(TILE_W), f32(TILE_H));
    var near_bodies = 0u;
    for (var i = 0u; i < region.count; i++) {
        if reaches(bodies[i], lo, hi) || reaches(before[i], lo, hi) {
            near_bodies |= 1u << i;
        }
    }
    for (var k = i32(lid); k < TILE_W * TILE_H; k += 64) {
        let q = origin + vec2<i32>(k % TILE_W, k / TILE_W);
        var f = 0u;
        var bits = 0u;
        if inside(q) {
            let centre = vec2<f32>(f32(q.x) + 0.5, f32(q.y) + 0.5);
            var now = false;
            var then = false;
            var left = near_bodies;
            while left != 0u {
                let i = firstTrailingBit(left);
                left &= left - 1u;
                now = now || body_contains(bodies[i], centre);
                then = then || body_contains(before[i], centre);
            }
            if now || then {
                // A wall is no body's.
                bits = textureLoad(solid, q).r;
                if (bits & SOLID_SELF) == 0u {
                    f = select(0u, NOW, now) | select(0u, BEFORE, then);
                }
            }
        }
        flags[k] = f;
        tile_bits[k] = bits;
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
        if !inside(q) {
            continue; // padding past the last column, as it is
        }
        let d = q - origin;
        let f = flags[at(d)];
        let bits = tile_bits[at(d)];
        if (f & NOW) != 0u {
            // Newly covered with somewhere to put its water: it gives it all.
            let gives = f == NOW && receivers(d, origin) > 0u;
            out[k] = select(-abs(old[k]), -0.0, gives);
            if (bits & SOLID_BODY) == 0u {
                textureStore(solid, q, vec4<u32>(bits | SOLID_BODY, 0u, 0u, 0u));
            }
            continue;
        }
        // Open now, or a wall: its neighbours' shares, in NEIGHBOURS' order.
        var m = abs(old[k]);
        var given = false;
        for (var j = 0; j < 4; j++) {
            let n = d + neighbour(j);
            if flags[at(n)] == NOW {
                let r = receivers(n, origin);
                if r > 0u {
                    m = m + water(n, origin) / f32(r);
                    given = true;
                }
            }
        }
        if f == BEFORE {
            // A cell a body left: the water it kept under it, and any shares.
            out[k] = m;
            textureStore(solid, q, vec4<u32>(bits & ~SOLID_BODY, 0u, 0u, 0u));
        } else if given && (textureLoad(solid, q).r & SOLID_SELF) == 0u {
            // (A wall is no one's receiver: it keeps its stored -0.)
            out[k] = m;
        }
    }
    textureStore(mass_out, t, out);
}
