// Uses: render/fullscreen.wgsl (colour_map, to_linear).
// Smoke field -> colour. The field is interpolated bilinearly between cell centres (so the
// picture is smooth, as Rideout draws it with a linear sampler), then colour-mapped:
// density: white smoke over a dark blue-grey background (full white at density 1), or the
// colour map over [0, scale];
// dye: its colour added to the background (each channel full at 1);
// temperature and speed: the colour map over [0, scale];
// pressure, divergence and vorticity: the colour map over [-scale, scale].
// Solid cells are grey. With alpha = 1 the dye and the white smoke are drawn without the
// background, their alpha the brightest channel (premultiplied output: empty cells transparent,
// thin smoke translucent); everything else stays opaque.

struct View {
    grid: vec2<f32>,        // (W, H) cells
    area_size: vec2<f32>,   // pixels of the area the grid fills (the viewport)
    area_origin: vec2<f32>, // its top-left corner in the target, pixels
    field: u32,             // 0 density, 1 temperature, 2 speed, 3 pressure, 4 divergence, 5 vorticity, 6 dye
    srgb_target: u32,       // 1: emit linear values, the target encodes sRGB
    scale: f32,             // value at the map's high end (and minus it at the low end, signed fields)
    use_map: u32,           // density: 1 = the colour map, 0 = white smoke
    alpha: u32,             // 1: empty cells transparent (eddy::render::Blend::Alpha), premultiplied output
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

@fragment
fn fs_main(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    let u = (pos.xy - view.area_origin) * view.grid / view.area_size; // continuous cell coordinates
    let cell = vec2<i32>(floor(u));
    var colour = SOLID_COLOUR;
    var a = 1.0;
    let translucent = view.alpha == 1u;
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
                if translucent {
                    colour = clamp(dye, vec3<f32>(0.0), vec3<f32>(1.0));
                    a = max(colour.r, max(colour.g, colour.b));
                }
            }
            case 0u: {
                if view.use_map == 1u {
                    colour = colour_map(t);
                } else {
                    colour = mix(BACKGROUND, vec3<f32>(1.0), clamp(t, 0.0, 1.0));
                    if translucent {
                        a = clamp(t, 0.0, 1.0);
                        colour = vec3<f32>(a);
                    }
                }
            }
            case 1u, 2u: {
                colour = colour_map(t);
            }
            default: {
                colour = colour_map(0.5 + 0.5 * t);
            }
        }
    }
    if view.srgb_target == 1u {
        colour = to_linear(colour);
    }
    return vec4<f32>(colour, a);
}
