// Uses: render/fullscreen.wgsl (colour_map, to_linear).
// Water field -> colour, after Elsts' water_sim drawing: thin water light blue, darkening
// with mass; compressed water (mass > 1) darker still; solids in a ground colour, bodies in a
// wood colour (the solid bits' SOLID_BODY, 32, water/params.wgsl).
// Nearest-cell lookup: each target pixel shows the cell under it. With a colour map
// (use_map = 1) open cells take the map's colour at mass / map_high instead. With alpha = 1
// air is transparent (alpha 0; the output is premultiplied).
// With PACKED the masses are a packed world's (src/water/packed_world.rs): `mass` is its packed
// texture, four cells of a row a texel, a wall's mass stored negated (water/pack.wgsl), and
// `solid` is not read; a paged world is drawn a page a draw, each leaving the rows it does not
// hold to the others (its texture holds `page_rows` rows from `page_first`, below `page_halo`
// rows of halo).

struct View {
    grid: vec2<f32>,        // (W, H) cells
    area_size: vec2<f32>,   // pixels of the area the grid fills (the viewport)
    area_origin: vec2<f32>, // its top-left corner in the target, pixels
    min_mass: f32,          // cells below this are drawn as air
    srgb_target: u32,       // 1 when the target encodes sRGB itself (we then emit linear values)
    use_map: u32,           // 1: colour open cells by the colour map over [0, map_high]
    map_high: f32,          // mass at the map's high end
    alpha: u32,             // 1: air transparent (eddy::render::Blend::Alpha), premultiplied output
    page_first: u32,        // the page drawn: its first row of the grid,
    page_rows: u32,         // its rows,
    page_halo: u32,         // and the rows above them in its texture
    _pad0: u32,
    _pad1: u32,
};

@group(0) @binding(0) var<uniform> view: View;
@group(0) @binding(1) var mass: texture_2d<f32>;
@group(0) @binding(2) var solid: texture_2d<u32>; // bit 0: this cell is solid; bit 5: a body's

override PACKED: bool = false;

const AIR: vec3<f32> = vec3<f32>(0.96, 0.97, 0.98);
const GROUND: vec3<f32> = vec3<f32>(0.42, 0.31, 0.22);
const BODY: vec3<f32> = vec3<f32>(0.70, 0.50, 0.30);
const THIN: vec3<f32> = vec3<f32>(0.55, 0.80, 1.0);
const FULL: vec3<f32> = vec3<f32>(0.05, 0.33, 0.85);
const DEEP: vec3<f32> = vec3<f32>(0.0, 0.10, 0.40);

@fragment
fn fs_main(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    let cell = vec2<i32>(floor((pos.xy - view.area_origin) * view.grid / view.area_size));
    let c = clamp(cell, vec2<i32>(0), vec2<i32>(view.grid) - 1);
    var colour = AIR;
    var m: f32;
    var bits: u32;
    if PACKED {
        let row = c.y - i32(view.page_first);
        if row < 0 || row >= i32(view.page_rows) {
            discard;
        }
        let stored = textureLoad(mass, vec2<i32>(c.x / 4, row + i32(view.page_halo)), 0)[c.x % 4];
        m = abs(stored);
        bits = bitcast<u32>(stored) >> 31u;
    } else {
        m = textureLoad(mass, c, 0).r;
        bits = textureLoad(solid, c, 0).r;
    }
    let is_solid = (bits & 33u) != 0u;
    if is_solid {
        colour = select(GROUND, BODY, (bits & 32u) != 0u);
    } else if view.use_map == 1u {
        colour = colour_map(m / view.map_high);
    } else if m >= view.min_mass {
        if m <= 1.0 {
            colour = mix(THIN, FULL, clamp(m, 0.0, 1.0));
        } else {
            // compression grows ~0.02 per cell of depth: darken over two full cells of excess
            colour = mix(FULL, DEEP, clamp((m - 1.0) * 0.5, 0.0, 1.0));
        }
    }
    if view.srgb_target == 1u {
        colour = to_linear(colour);
    }
    let a = select(1.0, 0.0, view.alpha == 1u && !is_solid && m < view.min_mass);
    return vec4<f32>(colour * a, a);
}
