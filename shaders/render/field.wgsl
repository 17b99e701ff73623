// Uses: render/fullscreen.wgsl (colour_map, to_linear).
// Any scalar field -> colour: open cells by the colour map over [low, high], solid cells grey
// (eddy::render::FieldRenderer, for a model that gives eddy::GpuModel::scalar_view).
// Nearest-cell lookup: each target pixel shows the cell under it. With alpha = 1 the output is
// premultiplied and solid cells are opaque as the rest.

struct View {
    grid: vec2<f32>,        // (W, H) cells
    area_size: vec2<f32>,   // pixels of the area the grid fills (the viewport)
    area_origin: vec2<f32>, // its top-left corner in the target, pixels
    low: f32,               // the value at the colour map's low end
    high: f32,              // the value at its high end
    srgb_target: u32,       // 1 when the target encodes sRGB itself (we then emit linear values)
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
};

@group(0) @binding(0) var<uniform> view: View;
@group(0) @binding(1) var field: texture_2d<f32>;
@group(0) @binding(2) var solid: texture_2d<u32>; // bit 0: this cell is solid

const WALL: vec3<f32> = vec3<f32>(0.35, 0.35, 0.38);

@fragment
fn fs_main(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    let cell = vec2<i32>(floor((pos.xy - view.area_origin) * view.grid / view.area_size));
    let c = clamp(cell, vec2<i32>(0), vec2<i32>(view.grid) - 1);
    var colour = WALL;
    if (textureLoad(solid, c, 0).r & 1u) == 0u {
        colour = colour_map((textureLoad(field, c, 0).r - view.low) / (view.high - view.low));
    }
    if view.srgb_target == 1u {
        colour = to_linear(colour);
    }
    return vec4<f32>(colour, 1.0);
}
