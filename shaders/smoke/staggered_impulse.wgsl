// Uses: common/grid.wgsl (LEFT, UP, inside); smoke/faces.wgsl (open_at); smoke/params.wgsl (lerp);
//   smoke/splat.wgsl (Impulse, face_weight, weight).
// Staggered smoke pass: impulse, in place. One invocation per (col, row) of the (W + 1) x (H + 1)
// nodes in the impulse's rectangle: the cell there moves its temperature and density towards
// the impulse's by its weight (as impulse.wgsl); the open u and v faces there gain their weight
// times the impulse velocity's component across them. The dye is staggered_impulse_dye.wgsl's
// (ping-ponged: rgba32float has no read_write storage in WebGPU, and a fifth storage texture
// would pass WebGPU's default limit of 4 per stage).
// CPU mirror: `impulse` in src/smoke/staggered/cpu.rs.

@group(0) @binding(0) var<uniform> impulse: Impulse;
@group(0) @binding(1) var u: texture_storage_2d<r32float, read_write>;
@group(0) @binding(2) var v: texture_storage_2d<r32float, read_write>;
@group(0) @binding(3) var temperature: texture_storage_2d<r32float, read_write>;
@group(0) @binding(4) var density: texture_storage_2d<r32float, read_write>;
@group(0) @binding(5) var solid: texture_storage_2d<r32uint, read>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    // The dispatch covers the nodes an impulse can change (`ImpulseRect` in src/smoke/fields.rs:
    // the source cells' bounding box, or a splat's disc), from impulse.origin.
    let p = vec2<i32>(id.xy + impulse.origin);
    let at = vec2<f32>(p);
    // A cell or face of weight 0 keeps its values (x (1 - 0) + y 0 and x + 0 y are x), so it is
    // neither read nor written: the sources' impulse touches the source cells alone.
    if inside(p, textureDimensions(solid)) {
        let a = weight(p, textureLoad(solid, p).r);
        if a != 0.0 {
            let t = lerp(textureLoad(temperature, p).r, impulse.temperature, a);
            let rho = lerp(textureLoad(density, p).r, impulse.density, a);
            textureStore(temperature, p, vec4<f32>(t, 0.0, 0.0, 0.0));
            textureStore(density, p, vec4<f32>(rho, 0.0, 0.0, 0.0));
        }
    }
    // The sources' impulse carries no velocity (face_weight is 0 for every face).
    if impulse.sources != 0u {
        return;
    }
    let a_u = face_weight(at + vec2<f32>(0.0, 0.5));
    if a_u != 0.0 && inside(p, textureDimensions(u)) && open_at(solid, p + LEFT) && open_at(solid, p) {
        let value = textureLoad(u, p).r + a_u * impulse.velocity.x;
        textureStore(u, p, vec4<f32>(value, 0.0, 0.0, 0.0));
    }
    let a_v = face_weight(at + vec2<f32>(0.5, 0.0));
    if a_v != 0.0 && inside(p, textureDimensions(v)) && open_at(solid, p + UP) && open_at(solid, p) {
        let value = textureLoad(v, p).r + a_v * impulse.velocity.y;
        textureStore(v, p, vec4<f32>(value, 0.0, 0.0, 0.0));
    }
}
