// Uses: render/fullscreen.wgsl (to_linear).
// Smoke's styled look ("lit"): the dye (or, on the collocated grid, the density) drawn as a lit,
// self-shadowing medium over a dark background. At a pixel, with A the amount of smoke (the
// dye's brightest channel, or the density) and C its colour, both interpolated bilinearly
// between cell centres:
//   opacity    a = 1 - exp(-OPACITY * A)                          (Beer-Lambert through the layer)
//   normal     n = normalize(-RELIEF * grad A, 1)                 (gradient shading: A as a height)
//   shadow     T = exp(-SHADOW * sum of A over SHADOW_STEPS samples toward the light)
//   light      L = albedo * (AMBIENT + DIFFUSE * max(n . l, 0) * T), albedo = C / A
//   bloom      G = bloom * mean of C over a ring of BLOOM_TAPS samples BLOOM_RADIUS cells away
//   colour     = BACKGROUND * (1 - a) + min(L, 1) * a + G
// With alpha = 1 the background is left out: premultiplied (min(L, 1) * a + G, a + max(G)).
// Solid cells are grey. CPU mirror: `shade` in src/render/smoke_lit.rs.

struct View {
    grid: vec2<f32>,        // (W, H) cells
    area_size: vec2<f32>,   // pixels of the area the grid fills (the viewport)
    area_origin: vec2<f32>, // its top-left corner in the target, pixels
    srgb_target: u32,       // 1: emit linear values, the target encodes sRGB
    alpha: u32,             // 1: no background, premultiplied output (eddy::render::Blend::Alpha)
    has_dye: u32,           // 1: `field` is the dye (rgb); 0: the density (r), drawn white
    bloom: f32,             // the glow's strength (0: none)
    light: vec2<f32>,       // unit vector from the smoke toward the light, in the screen's plane (y down)
};

@group(0) @binding(0) var<uniform> view: View;
@group(0) @binding(1) var field: texture_2d<f32>; // rgba32float dye, or r32float density
@group(0) @binding(2) var solid: texture_2d<u32>; // bit 0: solid

const SOLID_COLOUR: vec3<f32> = vec3<f32>(0.45, 0.45, 0.48);
const BACKGROUND: vec3<f32> = vec3<f32>(0.03, 0.04, 0.08);
const OPACITY: f32 = 3.0;
const RELIEF: f32 = 6.0;
const LIGHT_HEIGHT: f32 = 0.8;
const SHADOW: f32 = 0.16;
const SHADOW_STEPS: i32 = 6;
const SHADOW_STEP: f32 = 3.0; // cells between shadow samples
const AMBIENT: f32 = 0.3;
const DIFFUSE: f32 = 1.0;
const BLOOM_TAPS: i32 = 6;
const BLOOM_RADIUS: f32 = 5.0;

// The colour (rgb) and amount (w) of the smoke at texel c, clamped to the grid.
fn texel(c: vec2<i32>) -> vec4<f32> {
    let t = textureLoad(field, clamp(c, vec2<i32>(0), vec2<i32>(view.grid) - 1), 0);
    if view.has_dye == 1u {
        let rgb = max(t.rgb, vec3<f32>(0.0));
        return vec4<f32>(rgb, max(rgb.r, max(rgb.g, rgb.b)));
    }
    let d = max(t.r, 0.0);
    return vec4<f32>(d, d, d, d);
}

// Bilinear between cell centres at continuous cell coordinates x (centres at c + 0.5).
fn sample(x: vec2<f32>) -> vec4<f32> {
    let y = x - 0.5;
    let b = vec2<i32>(floor(y));
    let f = y - floor(y);
    return mix(
        mix(texel(b), texel(b + vec2<i32>(1, 0)), f.x),
        mix(texel(b + vec2<i32>(0, 1)), texel(b + vec2<i32>(1, 1)), f.x),
        f.y,
    );
}

@fragment
fn fs_main(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    let u = (pos.xy - view.area_origin) * view.grid / view.area_size; // continuous cell coordinates
    let cell = vec2<i32>(floor(u));
    if (textureLoad(solid, cell, 0).r & 1u) != 0u {
        var c = SOLID_COLOUR;
        if view.srgb_target == 1u {
            c = to_linear(c);
        }
        return vec4<f32>(c, 1.0);
    }
    let s = sample(u);
    let amount = s.w;
    let a = 1.0 - exp(-OPACITY * amount);
    let albedo = select(vec3<f32>(1.0), s.rgb / amount, amount > 1e-6);
    let grad = vec2<f32>(
        sample(u + vec2<f32>(0.5, 0.0)).w - sample(u - vec2<f32>(0.5, 0.0)).w,
        sample(u + vec2<f32>(0.0, 0.5)).w - sample(u - vec2<f32>(0.0, 0.5)).w,
    );
    let n = normalize(vec3<f32>(-RELIEF * grad, 1.0));
    let l = normalize(vec3<f32>(view.light, LIGHT_HEIGHT));
    var depth = 0.0;
    for (var i = 1; i <= SHADOW_STEPS; i++) {
        depth += sample(u + view.light * (SHADOW_STEP * f32(i))).w;
    }
    let t = exp(-SHADOW * depth);
    let lit = min(albedo * (AMBIENT + DIFFUSE * max(dot(n, l), 0.0) * t), vec3<f32>(1.0));
    var glow = vec3<f32>(0.0);
    if view.bloom > 0.0 {
        for (var i = 0; i < BLOOM_TAPS; i++) {
            let angle = 6.2831853 * f32(i) / f32(BLOOM_TAPS);
            let d = vec2<f32>(cos(angle), sin(angle));
            glow += sample(u + BLOOM_RADIUS * d).rgb;
        }
        glow *= view.bloom / f32(BLOOM_TAPS);
    }
    var colour: vec3<f32>;
    var alpha = 1.0;
    if view.alpha == 1u {
        colour = min(lit * a + glow, vec3<f32>(1.0));
        alpha = min(a + max(glow.r, max(glow.g, glow.b)), 1.0);
    } else {
        colour = min(BACKGROUND * (1.0 - a) + lit * a + glow, vec3<f32>(1.0));
    }
    if view.srgb_target == 1u {
        colour = to_linear(colour);
    }
    return vec4<f32>(colour, alpha);
}
