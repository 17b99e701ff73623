// Smoke field -> colour. The field is interpolated bilinearly between cell centres (so the
// picture is smooth, as Rideout draws it with a linear sampler), then colour-mapped:
// density: white smoke over a dark blue-grey background (full white at density 1);
// dye: its colour added to the background (each channel full at 1);
// temperature and speed: a dark-red-yellow-white heat ramp over [0, scale];
// pressure, divergence and vorticity: blue (negative) - black - red (positive) over
// [-scale, scale].
// Solid cells are grey.

struct View {
    grid: vec2<f32>,        // (W, H) cells
    target_size: vec2<f32>, // pixels
    field: u32,             // 0 density, 1 temperature, 2 speed, 3 pressure, 4 divergence, 5 vorticity, 6 dye
    srgb_target: u32,       // 1: emit linear values, the target encodes sRGB
    scale: f32,             // value shown at full colour
    _pad: f32,
};

@group(0) @binding(0) var<uniform> view: View;
@group(0) @binding(1) var field: texture_2d<f32>; // r32float, or rg32float velocity
@group(0) @binding(2) var solid: texture_2d<u32>; // bit 0: solid

const SOLID_COLOUR: vec3<f32> = vec3<f32>(0.45, 0.45, 0.48);
const BACKGROUND: vec3<f32> = vec3<f32>(0.03, 0.04, 0.08);

fn texel(c: vec2<i32>) -> vec4<f32> {
    let size = vec2<i32>(view.grid);
    return textureLoad(field, clamp(c, vec2<i32>(0), size - 1), 0);
}

fn value(c: vec2<i32>) -> f32 {
    let t = texel(c);
    if view.field == 2u {
        return length(t.xy);
    }
    return t.x;
}

fn to_linear(c: vec3<f32>) -> vec3<f32> {
    return select(pow((c + 0.055) / 1.055, vec3<f32>(2.4)), c / 12.92, c <= vec3<f32>(0.04045));
}

fn heat(t: f32) -> vec3<f32> {
    let a = vec3<f32>(0.0, 0.0, 0.0);
    let b = vec3<f32>(0.7, 0.05, 0.0);
    let c = vec3<f32>(1.0, 0.75, 0.1);
    let d = vec3<f32>(1.0, 1.0, 1.0);
    if t < 0.33 {
        return mix(a, b, t / 0.33);
    } else if t < 0.66 {
        return mix(b, c, (t - 0.33) / 0.33);
    }
    return mix(c, d, (t - 0.66) / 0.34);
}

@fragment
fn fs_main(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    let u = pos.xy * view.grid / view.target_size; // continuous cell coordinates
    let cell = vec2<i32>(floor(u));
    var colour = SOLID_COLOUR;
    if (textureLoad(solid, cell, 0).r & 1u) == 0u {
        let x = u - 0.5; // cell centres at whole numbers
        let b = vec2<i32>(floor(x));
        let f = x - floor(x);
        let v = mix(
            mix(value(b), value(b + vec2<i32>(1, 0)), f.x),
            mix(value(b + vec2<i32>(0, 1)), value(b + vec2<i32>(1, 1)), f.x),
            f.y,
        );
        let t = v / view.scale;
        switch view.field {
            case 6u: {
                let dye = mix(
                    mix(texel(b), texel(b + vec2<i32>(1, 0)), f.x),
                    mix(texel(b + vec2<i32>(0, 1)), texel(b + vec2<i32>(1, 1)), f.x),
                    f.y,
                ).rgb;
                colour = min(BACKGROUND + dye, vec3<f32>(1.0));
            }
            case 0u: {
                colour = mix(BACKGROUND, vec3<f32>(1.0), clamp(t, 0.0, 1.0));
            }
            case 1u, 2u: {
                colour = heat(clamp(t, 0.0, 1.0));
            }
            default: {
                let s = clamp(t, -1.0, 1.0);
                colour = select(vec3<f32>(0.0, 0.0, 0.0), vec3<f32>(1.0, 0.25, 0.1) * s, s > 0.0)
                    + select(vec3<f32>(0.0), vec3<f32>(0.1, 0.45, 1.0) * -s, s < 0.0);
            }
        }
    }
    if view.srgb_target == 1u {
        colour = to_linear(colour);
    }
    return vec4<f32>(colour, 1.0);
}
