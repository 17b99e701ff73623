// Uses: water/params.wgsl (WaterParams, outside_mass); the pass's bindings (params, mass_in).
// Elsts' rules in f32, four cells at a time, for the walk (water/walk.wgsl): every cell's
// outflows exactly as the push loop computes them. CPU mirror: `outflows` in src/water/cpu.rs.
// water/rules_fixed.wgsl declares the same names in integer arithmetic.

// A texel's four cells' masses as the rules compute with them.
alias Lanes = vec4<f32>;

// The mass texel at q (a solid cell's negated); outside the grid, empty cells: +0.0 with the
// open boundary, -0.0 (solid) with the wall boundary.
fn mass_texel(q: vec2<i32>, size: vec2<i32>) -> Lanes {
    if q.x < 0 || q.y < 0 || q.x >= size.x || q.y >= size.y {
        return vec4<f32>(outside_mass(params));
    }
    return textureLoad(mass_in, q);
}

// Whether each lane's cell, of stored mass `v`, is open (not solid): its sign bit is clear.
fn open(v: vec4<f32>) -> vec4<bool> {
    return bitcast<vec4<i32>>(v) >= vec4<i32>(0);
}

// Halve flows above MinFlow ("leads to smoother flow"), then clamp to [0, hi].
fn limit(flow: vec4<f32>, hi: vec4<f32>) -> vec4<f32> {
    let f = select(flow, flow * 0.5, flow > vec4<f32>(params.min_flow));
    return clamp(f, vec4<f32>(0.0), hi);
}

// get_stable_state_b (params.wgsl) of each lane: its three branches computed with the same
// arithmetic, then selected.
fn stable(total: vec4<f32>) -> vec4<f32> {
    let m = params.max_mass;
    let c = params.max_compress;
    let compressed = (m * m + total * c) / (m + c);
    let over = (total + c) / 2.0;
    return select(select(over, compressed, total < vec4<f32>(2.0 * m + c)), vec4<f32>(m), total <= vec4<f32>(m));
}

// Four cells' outflows, in the order the push loop takes them from the remaining mass.
struct Flows {
    down: vec4<f32>,
    left: vec4<f32>,
    right: vec4<f32>,
    up: vec4<f32>,
}

// The outflows of four cells with stored masses `m` and neighbours' `left_mass`, `right_mass`,
// `below`, `above` (negative where solid): the body of Elsts' loop, per lane. A solid cell's
// stored mass is <= 0, so it is never wet, as the loop skips it.
fn outflows(m: vec4<f32>, left_mass: vec4<f32>, right_mass: vec4<f32>, below: vec4<f32>, above: vec4<f32>) -> Flows {
    let zero = vec4<f32>(0.0);
    let wet = m > zero;
    var f: Flows;
    var remaining = m;
    // Down: fill the cell below to its stable state.
    f.down = select(zero, limit(stable(remaining + below) - below, min(vec4<f32>(params.max_speed), remaining)),
                    wet & open(below));
    remaining -= f.down;
    // Left and right: equalise with the neighbour, a side_share of the difference of the
    // *original* masses (Elsts uses mass[x][y], not remaining_mass).
    f.left = select(zero, limit((m - left_mass) * params.side_share, remaining),
                    wet & (remaining > zero) & open(left_mass));
    remaining -= f.left;
    f.right = select(zero, limit((m - right_mass) * params.side_share, remaining),
                     wet & (remaining > zero) & open(right_mass));
    remaining -= f.right;
    // Up: only compressed water flows upwards.
    f.up = select(zero, limit(remaining - stable(remaining + above), min(vec4<f32>(params.max_speed), remaining)),
                  wet & (remaining > zero) & open(above));
    return f;
}

// What the step stores of a texel's new masses: as they are.
fn stored(m: Lanes) -> vec4<f32> {
    return m;
}
