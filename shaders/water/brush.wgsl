// Uses: water/brush_rule.wgsl (Brush, brushed).
// Water brush: the viewer's pour/erase tool and the library's `inject`, over one cell a texel:
// every open cell as water/brush_rule.wgsl says (a body's cells, the solid bits' SOLID_BODY, 32,
// as the last step left them); solid cells hold no water.
// CPU mirror: `brush` in src/water/cpu.rs, and `fixed::quantize` after it (`CpuWater::brush`).

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
    let bits = textureLoad(solid, p).r;
    var m = 0.0;
    if (bits & 1u) == 0u {
        m = brushed(textureLoad(mass_in, p).r, f32(id.x), f32(id.y), brush, (bits & 32u) != 0u);
    }
    textureStore(mass_out, p, vec4<f32>(m, 0.0, 0.0, 0.0));
}
