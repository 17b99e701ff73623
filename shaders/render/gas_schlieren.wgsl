// Uses: render/fullscreen.wgsl (to_linear).
// Gas's styled look ("schlieren"): a numerical schlieren image (Quirk 1994, "A contribution to
// the great Riemann solver debate", Int. J. Numer. Methods Fluids 18: shading by the density
// gradient), so shocks and sound waves show as dark lines on a light field, as in a schlieren
// photograph. At each open cell G = |grad rho| by central differences (a wall or the edge
// beyond a cell stands in with the cell's own density), interpolated bilinearly between cell
// centres (a wall texel takes the value of the cell under the pixel); the pixel is
//   mix(DARK, LIGHT, exp(-strength * G)),
// so uniform gas is LIGHT. Walls are grey. Opaque whatever the blend (gas fills its box).
// CPU mirror: `shade` in src/render/gas_schlieren.rs.

struct View {
    grid: vec2<f32>,        // (W, H) cells
    area_size: vec2<f32>,   // pixels of the area the grid fills (the viewport)
    area_origin: vec2<f32>, // its top-left corner in the target, pixels
    srgb_target: u32,       // 1: emit linear values, the target encodes sRGB
    strength: f32,          // per unit of density per cell: how dark a gradient draws
    _pad0: f32,
    _pad1: f32,
    _pad2: f32,
    _pad3: f32,
};

@group(0) @binding(0) var<uniform> view: View;
@group(0) @binding(1) var state: texture_2d<f32>; // (rho, mx, my, 0)
@group(0) @binding(2) var solid: texture_2d<u32>; // bit 0: wall

const WALL_COLOUR: vec3<f32> = vec3<f32>(0.55, 0.55, 0.58);
const LIGHT: vec3<f32> = vec3<f32>(0.93, 0.91, 0.86);
const DARK: vec3<f32> = vec3<f32>(0.06, 0.05, 0.05);

fn is_wall(c: vec2<i32>) -> bool {
    let size = vec2<i32>(view.grid);
    if c.x < 0 || c.y < 0 || c.x >= size.x || c.y >= size.y {
        return true;
    }
    return (textureLoad(solid, c, 0).r & 1u) != 0u;
}

// The density at neighbour n of open cell c (c's own where n is a wall or beyond the grid).
fn rho_beside(n: vec2<i32>, own: f32) -> f32 {
    if is_wall(n) {
        return own;
    }
    return textureLoad(state, n, 0).r;
}

// |grad rho| at cell c, or `here` where c is a wall or beyond the grid.
fn gradient(c: vec2<i32>, here: f32) -> f32 {
    if is_wall(c) {
        return here;
    }
    let own = textureLoad(state, c, 0).r;
    let gx = rho_beside(c + vec2<i32>(1, 0), own) - rho_beside(c - vec2<i32>(1, 0), own);
    let gy = rho_beside(c + vec2<i32>(0, 1), own) - rho_beside(c - vec2<i32>(0, 1), own);
    return 0.5 * sqrt(gx * gx + gy * gy);
}

@fragment
fn fs_main(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    let u = (pos.xy - view.area_origin) * view.grid / view.area_size; // continuous cell coordinates
    let cell = clamp(vec2<i32>(floor(u)), vec2<i32>(0), vec2<i32>(view.grid) - 1);
    var colour = WALL_COLOUR;
    if !is_wall(cell) {
        let here = gradient(cell, 0.0);
        let y = u - 0.5;
        let b = vec2<i32>(floor(y));
        let f = y - floor(y);
        let g = mix(
            mix(gradient(b, here), gradient(b + vec2<i32>(1, 0), here), f.x),
            mix(gradient(b + vec2<i32>(0, 1), here), gradient(b + vec2<i32>(1, 1), here), f.x),
            f.y,
        );
        colour = mix(DARK, LIGHT, exp(-view.strength * g));
    }
    if view.srgb_target == 1u {
        colour = to_linear(colour);
    }
    return vec4<f32>(colour, 1.0);
}
