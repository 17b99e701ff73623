// Uses: water/params.wgsl (outside_mass, FIXED_UNIT, FIXED_MAX_MASS); the pass's bindings
//   (params, mass_in).
// Elsts' rules in integer arithmetic (fixed-point water, src/water/fixed.rs: the unit, and what
// differs from the floats of water/rules.wgsl), four cells at a time, for the walk
// (water/walk.wgsl), declaring the names water/rules.wgsl does. A mass is a whole number of
// units (1/FIXED_UNIT of a full cell); the texels hold it as an f32, which the walk takes in
// (`mass_texel`) and gives back (`stored`) exactly. Every flow is rounded down to a whole unit,
// so every adapter computes the same bits, and the sums keep the mass exactly. CPU mirror:
// `outflows` and `compression_step` in src/water/fixed.rs.
//
// A solid cell (its texel lane's sign bit set, water/pack.wgsl) is held as a negative number,
// -1 - its mass in units, so that the walk's `open` reads it and `stored` gives the lane back as
// it was: -0.0, an empty solid cell, is -1.

// A texel's four cells' masses, in units.
alias Lanes = vec4<i32>;

// Stored masses in units: an open cell's rounded down (clamped to FIXED_MAX_MASS), a solid
// cell's as -1 - its magnitude's.
fn in_units(v: vec4<f32>) -> Lanes {
    let units = vec4<i32>(floor(min(abs(v), vec4<f32>(FIXED_MAX_MASS)) * FIXED_UNIT));
    return select(units, vec4<i32>(-1) - units, bitcast<vec4<i32>>(v) < vec4<i32>(0));
}

// The mass texel at q in units; outside the grid, empty cells: open (0) with the open boundary,
// solid (-1) with the wall boundary.
fn mass_texel(q: vec2<i32>, size: vec2<i32>) -> Lanes {
    if q.x < 0 || q.y < 0 || q.x >= size.x || q.y >= size.y {
        return in_units(vec4<f32>(outside_mass(params)));
    }
    return in_units(textureLoad(mass_in, q));
}

// What the step stores of a texel's masses in units: as f32 full cells, exactly (a power of two
// apart), at most FIXED_MAX_MASS (a step that would give a cell more gives it that, as
// `fixed::compression_step` does; an f32 holds every whole unit up to it exactly); a solid
// cell's negated.
fn stored(m: Lanes) -> vec4<f32> {
    let solid = m < vec4<i32>(0);
    let most = vec4<i32>(i32(FIXED_MAX_MASS * FIXED_UNIT));
    let full = vec4<f32>(min(select(m, vec4<i32>(-1) - m, solid), most)) * (1.0 / FIXED_UNIT);
    return select(full, -full, solid);
}

// Whether each lane's cell is open (not solid).
fn open(v: Lanes) -> vec4<bool> {
    return v >= vec4<i32>(0);
}

// Halve flows above MinFlow, rounded down ("leads to smoother flow"), then clamp to [0, hi].
fn limit(flow: Lanes, hi: Lanes) -> Lanes {
    let f = select(flow, flow >> vec4<u32>(1u), flow > vec4<i32>(params.units_min_flow));
    return clamp(f, vec4<i32>(0), hi);
}

// floor(a / d) for 0 <= a < 2^31 and d > 0, exactly, without an integer division (which a CPU
// adapter's vector units lack, and a GPU emulates): an estimate through f32, within one of the
// quotient whatever the f32 rounding (the quotient here is below 2^16), then corrected by the
// remainder. Every adapter so gets the same bits as the CPU mirror's `/`. Lanes outside that
// range give what they give; the caller drops them.
fn floor_div(a: Lanes, d: i32) -> Lanes {
    var q = vec4<i32>(floor(vec4<f32>(a) * (1.0 / f32(d))));
    var r = a - q * d;
    q = select(q, q - vec4<i32>(1), r < vec4<i32>(0));
    r = select(r, r + vec4<i32>(d), r < vec4<i32>(0));
    return select(q, q + vec4<i32>(1), r >= vec4<i32>(d));
}

// get_stable_state_b in units, rounded down: its middle branch as M + (T - M) C / (M + C), equal
// to Elsts' (M^2 + T C) / (M + C) before rounding, which fits 32 bits where it is taken (T - M
// is below M + C there, and (M + C) C below 2^31: `fixed::Units::of`). A lane's untaken branches
// may wrap; select drops them.
fn stable(total: Lanes) -> Lanes {
    let m = params.units_max_mass;
    let c = params.units_max_compress;
    let compressed = vec4<i32>(m) + floor_div((total - vec4<i32>(m)) * c, m + c);
    let over = (total + vec4<i32>(c)) >> vec4<u32>(1u);
    return select(select(over, compressed, total < vec4<i32>(2 * m + c)), vec4<i32>(m), total <= vec4<i32>(m));
}

// floor(d x side share) for d >= 0 (a negative difference gives no flow), the share in 65536ths:
// the product taken in two halves of 16 bits so that neither passes 2^31.
fn side(d: Lanes) -> Lanes {
    let p = max(d, vec4<i32>(0));
    let s = params.units_side_share;
    return (p >> vec4<u32>(16u)) * s + (((p & vec4<i32>(0xffff)) * s) >> vec4<u32>(16u));
}

// Four cells' outflows, in the order the push loop takes them from the remaining mass.
struct Flows {
    down: Lanes,
    left: Lanes,
    right: Lanes,
    up: Lanes,
}

// The outflows of four cells of masses `m` and neighbours' `left_mass`, `right_mass`, `below`,
// `above` (negative where solid): water/rules.wgsl's `outflows` in units.
fn outflows(m: Lanes, left_mass: Lanes, right_mass: Lanes, below: Lanes, above: Lanes) -> Flows {
    let zero = vec4<i32>(0);
    let wet = m > zero;
    let speed = vec4<i32>(params.units_max_speed);
    var f: Flows;
    var remaining = m;
    f.down = select(zero, limit(stable(remaining + below) - below, min(speed, remaining)), wet & open(below));
    remaining -= f.down;
    f.left = select(zero, limit(side(m - left_mass), remaining), wet & (remaining > zero) & open(left_mass));
    remaining -= f.left;
    f.right = select(zero, limit(side(m - right_mass), remaining), wet & (remaining > zero) & open(right_mass));
    remaining -= f.right;
    f.up = select(zero, limit(remaining - stable(remaining + above), min(speed, remaining)),
                  wet & (remaining > zero) & open(above));
    return f;
}
