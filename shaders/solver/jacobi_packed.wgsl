// Uses: common/packed.wgsl (cell_bits); solver/jacobi_iterate.wgsl (iterate).
// One Jacobi iteration of the Poisson problem, four cells an invocation in the packed layout of
// packed.wgsl: `iterate` (jacobi_iterate.wgsl), p' = (up + left + right + down - b) / 4, a wall
// or the grid's edge reading the cell's own p (pure Neumann, Rideout's Jacobi), a cell beyond an
// edge held at pressure 0 reading 0; 0 in walls. The smoke step's iteration (GPU Gems
// 38.2-38.3, alpha = -h^2) is this one with b = -alpha div (pack.wgsl).
// CPU mirror: `jacobi` in src/solver/mod.rs.

@group(0) @binding(0) var pressure: texture_storage_2d<rgba32float, read>;
@group(0) @binding(1) var rhs: texture_storage_2d<rgba32float, read>;
@group(0) @binding(2) var walls: texture_storage_2d<r32uint, read>;
@group(0) @binding(3) var pressure_out: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = vec2<i32>(textureDimensions(pressure));
    let q = vec2<i32>(id.xy);
    if q.x >= size.x || q.y >= size.y {
        return;
    }
    let bits = cell_bits(textureLoad(walls, q).r);
    let c = textureLoad(pressure, q);
    // The neighbouring texels, 0 beyond the grid: a cell reads there only where its wall bits
    // say the neighbour is open beyond an edge held at pressure 0 (beyond a no-flux edge it
    // takes its own value instead). Past the last column's real cells, the padding holds 0.
    let zero = vec4<f32>(0.0);
    let lt = select(textureLoad(pressure, vec2<i32>(max(q.x - 1, 0), q.y)), zero, q.x == 0);
    let rt = select(textureLoad(pressure, vec2<i32>(min(q.x + 1, size.x - 1), q.y)), zero, q.x + 1 == size.x);
    let ut = select(textureLoad(pressure, vec2<i32>(q.x, max(q.y - 1, 0))), zero, q.y == 0);
    let dt = select(textureLoad(pressure, vec2<i32>(q.x, min(q.y + 1, size.y - 1))), zero, q.y + 1 == size.y);
    let value = iterate(c, ut, vec4<f32>(lt.w, c.xyz), vec4<f32>(c.yzw, rt.x), dt, textureLoad(rhs, q), bits);
    textureStore(pressure_out, q, value);
}
