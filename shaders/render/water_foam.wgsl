// Water's styled look, its state: the mass as last drawn and the foam on it, (mass, foam) per
// cell in an rg32float texture the renderer keeps between draws (two, ping-pong). Where the
// model has taken n steps since the last draw (n > 0), a cell's foam is the larger of its foam
// fading (by FOAM_KEEP a step) and the rate its mass changed at (per step, over the n steps),
// less FOAM_FLOOR, times FOAM_GAIN (capped at 1): water that moves fast churns, however many
// steps a frame takes. Otherwise (a first draw, a paused model) the foam stays as it was.
// Solid cells and air (mass below min_mass) hold none.
// CPU mirror: `foam` in src/render/water_surface.rs.

struct Foam {
    steps: f32,    // steps since the last draw (0: none, or the first draw)
    min_mass: f32, // cells below this are air
    _pad0: f32,
    _pad1: f32,
};

@group(0) @binding(0) var<uniform> params: Foam;
@group(0) @binding(1) var mass: texture_2d<f32>;   // r32float, the model's current mass
@group(0) @binding(2) var before: texture_2d<f32>; // rg32float, (mass, foam) at the last draw
@group(0) @binding(3) var solid: texture_2d<u32>;  // bit 0: solid
@group(0) @binding(4) var after: texture_storage_2d<rg32float, write>;

const FOAM_FLOOR: f32 = 0.01; // mass per step
const FOAM_GAIN: f32 = 10.0; // per (mass per step)
const FOAM_KEEP: f32 = 0.97; // a step

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(mass);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    let m = textureLoad(mass, p, 0).r;
    let was = textureLoad(before, p, 0).rg;
    var foam = was.y;
    if params.steps > 0.0 {
        let rate = abs(m - was.x) / params.steps;
        foam = max(foam * pow(FOAM_KEEP, params.steps), clamp((rate - FOAM_FLOOR) * FOAM_GAIN, 0.0, 1.0));
    }
    if (textureLoad(solid, p, 0).r & 1u) != 0u || m < params.min_mass {
        foam = 0.0;
    }
    textureStore(after, p, vec4<f32>(m, foam, 0.0, 0.0));
}
