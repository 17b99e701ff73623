// Uses: render/fullscreen.wgsl (colour_map, to_linear).
// Gas field -> colour, as the source draws it: values resampled at cell corners (the mean of
// the open cells around each corner) and interpolated bilinearly across each cell, so the
// picture is smooth rather than blocky. Two views: density (the colour map over
// density_low..density_high) or velocity (hue = direction, brightness = speed).

struct View {
    grid: vec2<f32>,        // (W, H) cells
    area_size: vec2<f32>,   // pixels of the area the grid fills (the viewport)
    area_origin: vec2<f32>, // its top-left corner in the target, pixels
    field: u32,             // 0 density, 1 velocity
    srgb_target: u32,       // 1: emit linear values, the target encodes sRGB
    density_low: f32,       // density at the map's low end
    density_high: f32,      // density at the map's high end
    speed_full: f32,        // speed (cells/step) shown at full brightness
    _pad: f32,
};

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

fn hue(angle: f32) -> vec3<f32> {
    let h = angle / 6.2831853 + 0.5; // 0..1
    return clamp(abs(fract(h + vec3<f32>(0.0, 2.0 / 3.0, 1.0 / 3.0)) * 6.0 - 3.0) - 1.0, vec3<f32>(0.0), vec3<f32>(1.0));
}

@fragment
fn fs_main(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    let u = (pos.xy - view.area_origin) * view.grid / view.area_size; // continuous cell coordinates
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
            colour = colour_map((v.x - view.density_low) / (view.density_high - view.density_low));
        } else {
            let vel = v.yz / max(v.x, 1e-6);
            let speed = clamp(length(vel) / view.speed_full, 0.0, 1.0);
            colour = hue(atan2(vel.y, vel.x)) * speed;
        }
    }
    if view.srgb_target == 1u {
        colour = to_linear(colour);
    }
    return vec4<f32>(colour, 1.0);
}
