// Gas walls as mirrors: the flux from an open cell to the "ghost" beyond a blocked face.
// Shared by limit.wgsl and apply.wgsl (both bind `state` and `solid`). CPU mirror: `direction`,
// `ghost` and `ghost_flux` in src/gas/cpu.rs, where the rule is explained.

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

struct GhostFlux {
    flux: vec3<f32>,     // (f, px, py) from the cell to the ghost, times the face length
    mirror: vec2<i32>,   // the cell the ghost mirrors (its limiter factor scales inflow)
};

fn ghost_flux(p: vec2<i32>, bits: u32, j: u32, params: GasParams) -> GhostFlux {
    let a = textureLoad(state, p).xyz;
    let delta = direction(j);
    var g = vec3<f32>(a.x, -a.y, -a.z);
    var mirror = p;
    if delta.x == 0 {
        g = vec3<f32>(a.x, a.y, -a.z);
    } else if delta.y == 0 {
        g = vec3<f32>(a.x, -a.y, a.z);
    } else {
        let h_wall = neighbour_is_wall(bits, select(BIT_W, BIT_E, delta.x > 0));
        let v_wall = neighbour_is_wall(bits, select(BIT_N, BIT_S, delta.y > 0));
        if !h_wall && v_wall {
            mirror = p + vec2<i32>(delta.x, 0);
            let b = textureLoad(state, mirror).xyz;
            g = vec3<f32>(b.x, b.y, -b.z);
        } else if h_wall && !v_wall {
            mirror = p + vec2<i32>(0, delta.y);
            let b = textureLoad(state, mirror).xyz;
            g = vec3<f32>(b.x, -b.y, b.z);
        }
    }
    let k = j % 4u;
    var out: GhostFlux;
    out.flux = face_length(params, k) * face_flux(a, g, direction_unit(j), face_distance(k), params);
    out.mirror = mirror;
    return out;
}
