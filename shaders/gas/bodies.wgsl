// Uses: common/body.wgsl (Body, body_contains); gas/params.wgsl (BEFORE_SHIFT, BODY_SHIFT,
//   GasParams, WALL, direction, neighbour_is_wall).
// Gas pass, the bodies rasterised: each cell's solid bits (params.wgsl) from the
// walls (`walls`: the wall and source bits and the walls' neighbour bits, written on the CPU)
// and the bodies where they are now. A cell that is not a wall is covered by the first body
// holding its centre (bit 0, and the body's index + 1 at BODY_SHIFT); a neighbour covered by a
// body sets its neighbour bit. The bits 0..8 the cell had before go to BEFORE_SHIFT, for the
// handoff (handoff.wgsl). Each invocation reads and writes its own texel only. One invocation a
// cell. CPU mirror: `rasterise` in src/gas/bodies.rs (its mask; the bits follow from it).

@group(0) @binding(0) var<uniform> params: GasParams;
// 16: MAX_BODIES in src/body/mod.rs (a test holds them equal).
@group(0) @binding(1) var<uniform> bodies: array<Body, 16>;
@group(0) @binding(2) var walls: texture_storage_2d<r32uint, read>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read_write>;

// The index + 1 of the first body that holds the centre of cell q, or 0. Last to first, so the
// first wins, with the loop's control the same for every invocation.
fn covering(q: vec2<i32>) -> u32 {
    let centre = vec2<f32>(f32(q.x) + 0.5, f32(q.y) + 0.5);
    var out = 0u;
    for (var i = params.bodies; i > 0u; i--) {
        if body_contains(bodies[i - 1u], centre) {
            out = i;
        }
    }
    return out;
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(walls);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    let before = textureLoad(solid, p).r & 511u;
    var bits = textureLoad(walls, p).r;
    if (bits & WALL) == 0u {
        let body = covering(p);
        if body != 0u {
            bits |= WALL | (body << BODY_SHIFT);
        }
    }
    for (var j = 0u; j < 8u; j++) {
        // A neighbour outside the grid or a wall has its bit from `walls` already.
        if !neighbour_is_wall(bits, j) && covering(p + direction(j)) != 0u {
            bits |= 2u << j;
        }
    }
    textureStore(solid, p, vec4<u32>(bits | (before << BEFORE_SHIFT), 0u, 0u, 0u));
}
