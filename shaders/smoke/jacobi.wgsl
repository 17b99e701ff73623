// Smoke pass 5 of 6, run jacobi_iterations times: one Jacobi iteration of the pressure Poisson
// equation (GPU Gems 38.2-38.3), p = (pL + pR + pD + pU + alpha div) / 4 with alpha = -h^2; a
// solid or outside neighbour takes the centre's pressure (pure Neumann, Rideout's Jacobi);
// 0 in solid cells.
// CPU mirror: `jacobi` in src/smoke/cpu.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var pressure: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var divergence: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var pressure_out: texture_storage_2d<r32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(pressure);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    let bits = textureLoad(solid, p).r;
    var result = 0.0;
    if !has(bits, SOLID) {
        var left: f32;
        var right: f32;
        var down: f32;
        var up: f32;
        if (bits & (SOLID_LEFT | SOLID_RIGHT | SOLID_UP | SOLID_DOWN)) == 0u {
            // Interior: the common case, four loads.
            left = textureLoad(pressure, p + LEFT).r;
            right = textureLoad(pressure, p + RIGHT).r;
            down = textureLoad(pressure, p + DOWN).r;
            up = textureLoad(pressure, p + UP).r;
        } else {
            let centre = textureLoad(pressure, p).r;
            left = centre;
            right = centre;
            down = centre;
            up = centre;
            if !has(bits, SOLID_LEFT) { left = textureLoad(pressure, p + LEFT).r; }
            if !has(bits, SOLID_RIGHT) { right = textureLoad(pressure, p + RIGHT).r; }
            if !has(bits, SOLID_DOWN) { down = textureLoad(pressure, p + DOWN).r; }
            if !has(bits, SOLID_UP) { up = textureLoad(pressure, p + UP).r; }
        }
        result = (left + right + down + up + params.alpha * textureLoad(divergence, p).r) * 0.25;
    }
    textureStore(pressure_out, p, vec4<f32>(result, 0.0, 0.0, 0.0));
}
