// Gas field -> colour, as the source draws it: values resampled at cell corners (the mean of
// the open cells around each corner) and interpolated bilinearly across each cell, so the
// picture is smooth rather than blocky. Two views: density (dark -> purple -> orange ->
// yellow over density_low..density_high) or velocity (hue = direction, brightness = speed).

struct View {
    grid: vec2<f32>,        // (W, H) cells
    target_size: vec2<f32>, // pixels
    field: u32,             // 0 density, 1 velocity
    srgb_target: u32,       // 1: emit linear values, the target encodes sRGB
    density_low: f32,       // density shown darkest
    density_high: f32,      // density shown brightest
};

const SPEED_SCALE: f32 = 0.25; // speed (cells/step) shown at full brightness

@group(0) @binding(0) var<uniform> view: View;
@group(0) @binding(1) var state: texture_2d<f32>; // (rho, mx, my, 0)
@group(0) @binding(2) var solid: texture_2d<u32>; // bit 0: wall

const WALL_COLOUR: vec3<f32> = vec3<f32>(0.55, 0.55, 0.58);

fn is_wall(c: vec2<i32>) -> bool {
    let size = vec2<i32>(view.grid);
    if c.x < 0 || c.y < 0 || c.x >= size.x || c.y >= size.y {
        return true;
    }
    return (textureLoad(solid, c, 0).r & 1u) != 0u;
}

// Mean of the open cells around corner (i, j) (the corner at the top-left of cell (i, j)).
fn corner(i: vec2<i32>) -> vec3<f32> {
    var sum = vec3<f32>(0.0);
    var n = 0.0;
    for (var dy = -1; dy <= 0; dy++) {
        for (var dx = -1; dx <= 0; dx++) {
            let c = i + vec2<i32>(dx, dy);
            if !is_wall(c) {
                sum += textureLoad(state, c, 0).xyz;
                n += 1.0;
            }
        }
    }
    return sum / max(n, 1.0);
}

fn to_linear(c: vec3<f32>) -> vec3<f32> {
    return select(pow((c + 0.055) / 1.055, vec3<f32>(2.4)), c / 12.92, c <= vec3<f32>(0.04045));
}

// A dark-purple-orange-yellow ramp for t in [0, 1].
fn heat(t: f32) -> vec3<f32> {
    let a = vec3<f32>(0.02, 0.01, 0.08);
    let b = vec3<f32>(0.45, 0.10, 0.55);
    let c = vec3<f32>(0.95, 0.45, 0.10);
    let d = vec3<f32>(1.0, 0.95, 0.55);
    if t < 0.33 {
        return mix(a, b, t / 0.33);
    } else if t < 0.66 {
        return mix(b, c, (t - 0.33) / 0.33);
    }
    return mix(c, d, (t - 0.66) / 0.34);
}

fn hue(angle: f32) -> vec3<f32> {
    let h = angle / 6.2831853 + 0.5; // 0..1
    return clamp(abs(fract(h + vec3<f32>(0.0, 2.0 / 3.0, 1.0 / 3.0)) * 6.0 - 3.0) - 1.0, vec3<f32>(0.0), vec3<f32>(1.0));
}

@fragment
fn fs_main(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    let u = pos.xy * view.grid / view.target_size; // continuous cell coordinates
    let cell = vec2<i32>(floor(u));
    var colour = WALL_COLOUR;
    if !is_wall(cell) {
        let f = fract(u);
        let v = mix(
            mix(corner(cell), corner(cell + vec2<i32>(1, 0)), f.x),
            mix(corner(cell + vec2<i32>(0, 1)), corner(cell + vec2<i32>(1, 1)), f.x),
            f.y,
        );
        if view.field == 0u {
            colour = heat(clamp((v.x - view.density_low) / (view.density_high - view.density_low), 0.0, 1.0));
        } else {
            let vel = v.yz / max(v.x, 1e-6);
            let speed = clamp(length(vel) / SPEED_SCALE, 0.0, 1.0);
            colour = hue(atan2(vel.y, vel.x)) * speed;
        }
    }
    if view.srgb_target == 1u {
        colour = to_linear(colour);
    }
    return vec4<f32>(colour, 1.0);
}
