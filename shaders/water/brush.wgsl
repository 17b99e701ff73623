// Uses: water/params.wgsl (FIXED_UNIT, FIXED_MAX_MASS).
// Water brush: the viewer's pour/erase tool and the library's `inject`.
// Inside the disc, an open cell becomes max(mass * scale + add, 0); solid cells hold no
// water, and a body's cells (the solid bits' SOLID_BODY, 32, as the last step left them) keep
// the water under it. In fixed-point water every open cell's mass is then rounded down to the
// unit (and to at most FIXED_MAX_MASS), so that the step takes whole units (src/water/fixed.rs).
// CPU mirror: `brush` in src/water/cpu.rs, and `fixed::quantize` after it (`CpuWater::brush`).

struct Brush {
    center: vec2<f32>, // (col, row) in cells; cell (c, r) has its centre at (c + 0.5, r + 0.5)
    radius: f32,       // cells
    scale: f32,        // 1: keep, 0: erase
    add: f32,          // mass added per cell
    fixed: u32,        // 1: fixed-point water, whose masses are whole units
    _pad1: f32,
    _pad2: f32,
};

@group(0) @binding(0) var<uniform> brush: Brush;
@group(0) @binding(1) var mass_in: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var solid: texture_storage_2d<r32uint, read>; // bit 0: solid; bit 5: a body's
@group(0) @binding(3) var mass_out: texture_storage_2d<r32float, write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(mass_in);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    var m = textureLoad(mass_in, p).r;
    let d = vec2<f32>(id.xy) + vec2<f32>(0.5) - brush.center;
    let bits = textureLoad(solid, p).r;
    if (bits & 1u) != 0u {
        m = 0.0;
    } else if (bits & 32u) == 0u && dot(d, d) <= brush.radius * brush.radius {
        m = max(m * brush.scale + brush.add, 0.0);
    }
    if brush.fixed != 0u && (bits & 32u) == 0u {
        m = floor(min(m, FIXED_MAX_MASS) * FIXED_UNIT) * (1.0 / FIXED_UNIT);
    }
    textureStore(mass_out, p, vec4<f32>(m, 0.0, 0.0, 0.0));
}
