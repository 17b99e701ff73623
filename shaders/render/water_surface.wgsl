// Uses: render/fullscreen.wgsl (to_linear).
// Water's styled look ("surface"): the water as a body with a smooth edge rather than cells.
// The mass is interpolated between cell centres by Catmull-Rom splines on 4 x 4 cells (smooth,
// and through each cell's own value, so a one-cell drop stays; a solid cell, or one beyond the
// grid, takes the value of the cell under the pixel, so water meets the ground without a gap)
// and the surface drawn where it crosses ISO (half a full cell), anti-aliased over the width
// the mass changes by across one pixel (from the spline's derivatives); thinner water (spray, a
// falling sheet) is drawn translucent, THIN * m / ISO opaque. Under the surface:
//   depth  d = max(m - 1, 0) / max_compress   (cells of water above: Elsts' compression, a cell
//                                               under d full cells holds about 1 + d max_compress)
//   tint   = mix(SHALLOW, DEEP, 1 - exp(-d / DEPTH_SCALE)), lightened toward SURFACE within RIM
//            of mass above ISO (the top of the water), and toward FOAM by the foam
//            (render/water_foam.wgsl, interpolated like the mass, at least 0).
// Air is AIR, or transparent with alpha = 1 (premultiplied output); solids are GROUND, bodies
// (the solid bits' SOLID_BODY, 32) BODY.
// CPU mirror: `shade` in src/render/water_surface.rs.

struct View {
    grid: vec2<f32>,        // (W, H) cells
    area_size: vec2<f32>,   // pixels of the area the grid fills (the viewport)
    area_origin: vec2<f32>, // its top-left corner in the target, pixels
    srgb_target: u32,       // 1: emit linear values, the target encodes sRGB
    alpha: u32,             // 1: air transparent, premultiplied output (eddy::render::Blend::Alpha)
    max_compress: f32,      // the model's max_compress (mass a full cell gains per cell of depth)
    _pad0: f32,
    _pad1: f32,
    _pad2: f32,
};

@group(0) @binding(0) var<uniform> view: View;
@group(0) @binding(1) var state: texture_2d<f32>; // rg32float: (mass, foam), render/water_foam.wgsl
@group(0) @binding(2) var solid: texture_2d<u32>; // bit 0: solid; bit 5: a body's

const AIR: vec3<f32> = vec3<f32>(0.88, 0.93, 0.97);
const GROUND: vec3<f32> = vec3<f32>(0.42, 0.31, 0.22);
const BODY: vec3<f32> = vec3<f32>(0.70, 0.50, 0.30);
const SHALLOW: vec3<f32> = vec3<f32>(0.25, 0.62, 0.88);
const DEEP: vec3<f32> = vec3<f32>(0.02, 0.12, 0.32);
const SURFACE: vec3<f32> = vec3<f32>(0.70, 0.90, 1.0);
const FOAM: vec3<f32> = vec3<f32>(0.97, 0.98, 1.0);
const ISO: f32 = 0.5;
const THIN: f32 = 0.6;
const RIM: f32 = 0.4;
const DEPTH_SCALE: f32 = 8.0;

fn is_solid(c: vec2<i32>) -> bool {
    let size = vec2<i32>(view.grid);
    if c.x < 0 || c.y < 0 || c.x >= size.x || c.y >= size.y {
        return true;
    }
    return (textureLoad(solid, c, 0).r & 33u) != 0u;
}

// (mass, foam) at texel c; a solid or outside texel takes `here`'s.
fn texel(c: vec2<i32>, here: vec2<f32>) -> vec2<f32> {
    if is_solid(c) {
        return here;
    }
    return textureLoad(state, c, 0).rg;
}

// Catmull-Rom weights of the texels at -1, 0, 1, 2 from the one below x, at fraction f.
fn spline(f: f32) -> vec4<f32> {
    let f2 = f * f;
    let f3 = f2 * f;
    return 0.5 * vec4<f32>(-f3 + 2.0 * f2 - f, 3.0 * f3 - 5.0 * f2 + 2.0, -3.0 * f3 + 4.0 * f2 + f, f3 - f2);
}

// The weights' derivatives in f.
fn spline_slope(f: f32) -> vec4<f32> {
    let f2 = f * f;
    return 0.5 * vec4<f32>(-3.0 * f2 + 4.0 * f - 1.0, 9.0 * f2 - 10.0 * f, -9.0 * f2 + 8.0 * f + 1.0, 3.0 * f2 - 2.0 * f);
}

@fragment
fn fs_main(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    let u = (pos.xy - view.area_origin) * view.grid / view.area_size; // continuous cell coordinates
    let cell = clamp(vec2<i32>(floor(u)), vec2<i32>(0), vec2<i32>(view.grid) - 1);
    var colour = select(GROUND, BODY, (textureLoad(solid, cell, 0).r & 32u) != 0u);
    var alpha = 1.0;
    if !is_solid(cell) {
        let here = textureLoad(state, cell, 0).rg;
        let y = u - 0.5;
        let b = vec2<i32>(floor(y));
        let f = y - floor(y);
        let wx = spline(f.x);
        let wy = spline(f.y);
        let dx = spline_slope(f.x);
        let dy = spline_slope(f.y);
        var s = vec2<f32>(0.0);
        var dm = vec2<f32>(0.0);
        for (var j = 0; j < 4; j++) {
            for (var i = 0; i < 4; i++) {
                let t = texel(b + vec2<i32>(i - 1, j - 1), here);
                s += wx[i] * wy[j] * t;
                dm += vec2<f32>(dx[i] * wy[j], wx[i] * dy[j]) * t.x;
            }
        }
        let m = s.x;
        // The mass's change across one pixel: the spline's derivatives times cells per pixel.
        let width = max(0.5 * dot(abs(dm), view.grid / view.area_size), 1e-4);
        let cover = max(smoothstep(ISO - width, ISO + width, m), THIN * clamp(m / ISO, 0.0, 1.0));
        let depth = max(m - 1.0, 0.0) / max(view.max_compress, 1e-6);
        var water = mix(SHALLOW, DEEP, 1.0 - exp(-depth / DEPTH_SCALE));
        water = mix(water, SURFACE, 0.6 * clamp(1.0 - (m - ISO) / RIM, 0.0, 1.0));
        water = mix(water, FOAM, 0.9 * clamp(s.y, 0.0, 1.0));
        if view.alpha == 1u {
            colour = water * cover;
            alpha = cover;
        } else {
            colour = mix(AIR, water, cover);
        }
    }
    if view.srgb_target == 1u {
        colour = to_linear(colour);
    }
    return vec4<f32>(colour, alpha);
}
