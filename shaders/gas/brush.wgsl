// Gas brush: inside the disc an open cell gets density * scale + add and momentum
// momentum * scale + add * (velocity + radial * offset / radius); walls are emptied.
// CPU mirror: `brush` in src/gas/cpu.rs.

struct GasBrush {
    center: vec2<f32>,   // (col, row), cells
    velocity: vec2<f32>, // cells/step
    radius: f32,
    scale: f32,
    add: f32,
    radial: f32,         // outward speed at the rim, cells/step
};

@group(0) @binding(0) var<uniform> brush: GasBrush;
@group(0) @binding(1) var state: texture_storage_2d<rgba32float, read>;
@group(0) @binding(2) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(3) var state_out: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(state);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    var s = textureLoad(state, p);
    let d = vec2<f32>(id.xy) + vec2<f32>(0.5) - brush.center;
    if (textureLoad(solid, p).r & 1u) != 0u {
        s = vec4<f32>(0.0);
    } else if dot(d, d) <= brush.radius * brush.radius {
        let u = brush.velocity + brush.radial * d / brush.radius;
        s = vec4<f32>(max(s.x * brush.scale + brush.add, 0.0), s.yz * brush.scale + brush.add * u, 0.0);
    }
    textureStore(state_out, p, s);
}
