// Gas walls as mirrors: the "ghost" beyond a blocked face, the mirror image of the open cells.
// Shared by predict.wgsl, limit.wgsl and apply.wgsl (all bind `state` and `solid`); ghost.wgsl
// has the flux into a ghost. CPU mirror: `direction`, `ghost`, `MirrorRule` and
// `neighbour_or_ghost` in src/gas/cpu.rs, where the rule is explained.

// Direction j of eight: 0..3 forward (E, S, SE, SW, the faces a cell owns), 4..7 backward
// (W, N, NW, NE). Its wall bit is neighbour_is_wall(bits, j).
fn direction(j: u32) -> vec2<i32> {
    if j < 4u {
        return forward(j);
    }
    return -forward(j - 4u);
}

fn direction_unit(j: u32) -> vec2<f32> {
    if j < 4u {
        return unit(j);
    }
    return -unit(j - 4u);
}

// Wall bits of the axis directions E, S, W, N.
const BIT_E: u32 = 0u;
const BIT_S: u32 = 1u;
const BIT_W: u32 = 4u;
const BIT_N: u32 = 5u;

// The directions in use (E, S, W, N; with 8-way also the diagonals) that are blocked by a wall,
// as a mask over j; 0 for a wall cell. Loops walk its set bits in increasing j (the CPU
// mirror's order) and stop when none is left, so cells away from walls skip them entirely
// (a plain `if` inside the loop would not: llvmpipe runs both sides of a branch with masks).
fn blocked(bits: u32, params: GasParams) -> u32 {
    if (bits & WALL) != 0u {
        return 0u;
    }
    let used = select(0x33u, 0xffu, params.faces == 4u);
    return (bits >> 1u) & used;
}

// How the gas beyond a wall mirrors the open cells: the mirrored cell, the direction in which
// the mirror image of the line through the wall goes on from it (-onward points from the
// mirrored cell to the face the ghost mirrors), and the sign each momentum component takes in
// the image. CPU mirror: `mirror_rule`.
struct Mirror {
    cell: vec2<i32>,
    onward: vec2<i32>,
    sign: vec2<f32>,
};

fn mirror_rule(p: vec2<i32>, bits: u32, j: u32) -> Mirror {
    let delta = direction(j);
    var out: Mirror;
    out.cell = p;
    out.onward = -delta;
    out.sign = vec2<f32>(-1.0, -1.0);
    if delta.x == 0 {
        out.sign = vec2<f32>(1.0, -1.0);
    } else if delta.y == 0 {
        out.sign = vec2<f32>(-1.0, 1.0);
    } else {
        let h_wall = neighbour_is_wall(bits, select(BIT_W, BIT_E, delta.x > 0));
        let v_wall = neighbour_is_wall(bits, select(BIT_N, BIT_S, delta.y > 0));
        if !h_wall && v_wall {
            out.cell = p + vec2<i32>(delta.x, 0);
            out.onward = vec2<i32>(delta.x, -delta.y);
            out.sign = vec2<f32>(1.0, -1.0);
        } else if h_wall && !v_wall {
            out.cell = p + vec2<i32>(0, delta.y);
            out.onward = vec2<i32>(-delta.x, delta.y);
            out.sign = vec2<f32>(-1.0, 1.0);
        }
    }
    return out;
}

fn mirrored(q: vec3<f32>, m: Mirror) -> vec3<f32> {
    return vec3<f32>(q.x, q.yz * m.sign);
}

// The ghost of a mirror rule: the mirror image of the gas beyond the wall, the mirrored cell's
// image. CPU mirror: `ghost`, `MirrorRule::image`.
fn image(m: Mirror) -> vec3<f32> {
    return mirrored(textureLoad(state, m.cell).xyz, m);
}

// The cell one step from open cell p in direction j, or its ghost where that is a wall.
// CPU mirror: `neighbour_or_ghost`.
fn neighbour_or_ghost(p: vec2<i32>, bits: u32, j: u32) -> vec3<f32> {
    if neighbour_is_wall(bits, j) {
        return image(mirror_rule(p, bits, j));
    }
    return textureLoad(state, p + direction(j)).xyz;
}

// The direction index j (0..7, `direction`) of a unit step (dcol, drow).
fn direction_index(delta: vec2<i32>) -> u32 {
    for (var j = 0u; j < 8u; j++) {
        if all(direction(j) == delta) {
            return j;
        }
    }
    return 0u;
}
