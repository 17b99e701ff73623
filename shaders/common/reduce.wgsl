// Uses: gas/stats.wgsl | smoke/stats.wgsl | solver/stats.wgsl | water/stats.wgsl |
//   water/stats_packed.wgsl (cell_quantities, grid_size).
// Statistics by reduction, one invocation per grid row: it adds up (Kahan-compensated) the
// per-cell sums of the model's `cell_quantities`, takes the minima and maxima, and writes one
// `Partial` per row; the CPU adds the rows in f64 (`Reduction` in src/gpu/reduce.rs). A model's
// `stats.wgsl` is composed before this file and declares `grid_size()` and
// `cell_quantities(p)` with its bindings from 1 up. Reading H partials back instead of W x H
// cells is what keeps statistics cheap.
// CPU mirrors: each model's `*Stats::of` (src/water/mod.rs, src/smoke/mod.rs, src/gas/mod.rs).
// Where a model's non-finite count is not 0, its other statistics mean nothing (WGSL's min and
// max of a NaN may return either operand), and a product taken in f32 here (a squared
// divergence) can overflow where the CPU's f64 does not: read them only when the count is 0.
// The Kahan compensation relies on the compiler not reassociating floating point; one that did
// (fast-math) would only lose the compensation's accuracy, not the sums.

struct Partial {
    sum: vec4<f32>,
    lo: vec2<f32>,
    hi: vec2<f32>,
    more: vec4<f32>,
};

// What one cell contributes: eight sums (`sum`, then `more`), two minima, two maxima (unused
// slots hold 0, BIG, -BIG; a `var q: Quantities` starts all zero, so a model that needs only
// four sums leaves `more` alone).
struct Quantities {
    sum: vec4<f32>,
    lo: vec2<f32>,
    hi: vec2<f32>,
    more: vec4<f32>,
};

const BIG: f32 = 3.0e38;

@group(0) @binding(0) var<storage, read_write> partials: array<Partial>;

// 1 for NaN and +-infinity (exponent bits all set), else 0: a bit test, which no compiler may
// fold away as it may `x != x`.
fn non_finite(x: f32) -> f32 {
    return select(0.0, 1.0, (bitcast<u32>(x) & 0x7f800000u) == 0x7f800000u);
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = grid_size();
    if id.x >= size.y || id.y > 0u {
        return;
    }
    let row = i32(id.x);
    var sum = vec4<f32>(0.0);
    var carry = vec4<f32>(0.0);
    var more = vec4<f32>(0.0);
    var more_carry = vec4<f32>(0.0);
    var lo = vec2<f32>(BIG);
    var hi = vec2<f32>(-BIG);
    for (var x = 0; x < i32(size.x); x++) {
        let q = cell_quantities(vec2<i32>(x, row));
        let y = q.sum - carry;
        let t = sum + y;
        carry = (t - sum) - y;
        sum = t;
        let y2 = q.more - more_carry;
        let t2 = more + y2;
        more_carry = (t2 - more) - y2;
        more = t2;
        lo = min(lo, q.lo);
        hi = max(hi, q.hi);
    }
    partials[id.x] = Partial(sum, lo, hi, more);
}
