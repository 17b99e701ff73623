// Multigrid pass: one red-black Gauss-Seidel sweep of one colour, in place. Each open cell of
// the colour ((col + row) % 2 == colour) with an open neighbour gets
// the p that zeroes its residual, (sum of open neighbours' p - b) / (open neighbours), a
// neighbour beyond held edge e counting 1 + ghosts[e] (it reads -ghosts[e] p: level.wgsl). Cells
// of one colour read only the other colour, so the sweep is order-free. CPU mirror: `smooth` in src/solver/multigrid.rs.

struct Sweep {
    colour: u32,
};

@group(0) @binding(0) var<uniform> sweep: Sweep;
@group(0) @binding(1) var<uniform> level: Level;
@group(0) @binding(2) var pressure: texture_storage_2d<r32float, read_write>;
@group(0) @binding(3) var rhs: texture_storage_2d<r32float, read>;
@group(0) @binding(4) var solid: texture_storage_2d<r32uint, read>;

// One invocation per pair of columns (2 x, 2 x + 1) of a row: the one cell of the pair that
// has the colour (src/solver/gpu.rs dispatches ceil(W / 2) x H), so that no invocation idles.
@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(pressure);
    let column = 2u * id.x + (id.y + sweep.colour) % 2u;
    if column >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(i32(column), i32(id.y));
    let bits = textureLoad(solid, p).r;
    if (bits & WALL) != 0u {
        return;
    }
    var sum = 0.0;
    var count = 0.0;
    for (var k = 0u; k < 4u; k++) {
        if edge_open(bits, k) {
            // Inside: p_n, counted once; beyond a held edge: -g p, so it counts 1 + g.
            let q = p + edge(k);
            let held = inside(q, size);
            sum += select(0.0, textureLoad(pressure, clamped(q, size)).r, held);
            count += select(1.0 + ghost_of(level, k), 1.0, held);
        }
    }
    if count > 0.0 {
        textureStore(pressure, p, vec4<f32>((sum - textureLoad(rhs, p).r) / count, 0.0, 0.0, 0.0));
    }
}
