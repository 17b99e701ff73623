// Water pass 1 of 2: each cell's outflows, exactly as Elsts' push loop computes them.
// CPU mirror: the body of the loop in `simulate_compression` (src/water/cpu.rs).
//
// Every flow reads only the previous step's masses (the original reads `mass[][]` and writes
// `new_mass[][]`), so a cell's four outflows are a pure function of its 3x3 neighbourhood.
// Output texel = (down, left, right, up) mass leaving this cell this step.
//
// Workgroups are rows of 64 cells: measured fastest on lavapipe at 1024x1024 (~60 steps/s
// against ~40 for 8x8 and 16x16 tiles).

@group(0) @binding(0) var<uniform> params: WaterParams;
@group(0) @binding(1) var mass_in: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var solid: texture_storage_2d<r32uint, read>; // SOLID_* bits, see params.wgsl
@group(0) @binding(3) var flows_out: texture_storage_2d<rgba32float, write>;

fn mass_at(p: vec2<i32>, size: vec2<u32>) -> f32 {
    if !inside(p, size) {
        return 0.0; // open boundary: empty air; wall boundary: never read (solid)
    }
    return textureLoad(mass_in, p).r;
}

// Halve flows above MinFlow ("leads to smoother flow"), then clamp to [0, hi].
fn limit(flow: f32, hi: f32) -> f32 {
    var f = flow;
    if f > params.min_flow {
        f *= 0.5;
    }
    return clamp(f, 0.0, hi);
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(mass_in);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    var out = vec4<f32>(0.0); // (down, left, right, up)
    let m = mass_at(p, size);
    let walls = textureLoad(solid, p).r;
    if (walls & SOLID_SELF) != 0u || m <= 0.0 {
        textureStore(flows_out, p, out);
        return;
    }
    var remaining = m;

    // Down: fill the cell below to its stable state.
    if (walls & SOLID_BELOW) == 0u {
        let below = mass_at(p + DOWN, size);
        out.x = limit(get_stable_state_b(remaining + below, params) - below, min(params.max_speed, remaining));
        remaining -= out.x;
    }
    // Left and right: equalise with the neighbour, a side_share of the difference of the
    // *original* masses (Elsts uses mass[x][y], not remaining_mass).
    if remaining > 0.0 && (walls & SOLID_LEFT) == 0u {
        out.y = limit((m - mass_at(p + LEFT, size)) * params.side_share, remaining);
        remaining -= out.y;
    }
    if remaining > 0.0 && (walls & SOLID_RIGHT) == 0u {
        out.z = limit((m - mass_at(p + RIGHT, size)) * params.side_share, remaining);
        remaining -= out.z;
    }
    // Up: only compressed water flows upwards.
    if remaining > 0.0 && (walls & SOLID_ABOVE) == 0u {
        let above = mass_at(p + UP, size);
        out.w = limit(remaining - get_stable_state_b(remaining + above, params), min(params.max_speed, remaining));
    }
    textureStore(flows_out, p, out);
}
