// Uses: water/params.wgsl (WaterParams, outside_mass); water/brush_rule.wgsl (Brush, brushed).
// Water pass, the edits of a packed world (src/water/packed_world.rs), whose masses live only
// packed, a wall's stored negated (water/pack.wgsl): over a box of texels, the brush's rule
// (water/brush_rule.wgsl) on every open cell and, where `walls` is 1, a new wall mask for the
// box (`wall_bits`, bit k of a texel's word for its cell k): a wall holds no water (-0.0), a cell
// that stops being one opens empty (+0.0). Padding cells past the grid's width become what the
// step reads beyond the edge with the boundary in use (`outside_mass`; an edit of the last texel
// column follows a change of boundary), and so do a paged world's halo rows past its top and
// bottom (src/water/packed_world.rs, "Pages": the box is in a page's texture, `row_offset` its
// first row's place in the world). It writes the box into `mass_out`, which is copied back into
// `mass_in` (src/water/gpu.rs). CPU mirrors: `brush` in src/water/cpu.rs and `fixed::quantize`,
// and `water::packed_world::pack` for the walls.

struct PackedEdit {
    brush: Brush,      // the brush (radius 0: none)
    walls: u32,        // 1: `wall_bits` gives the box's walls; 0: the stored signs do
    row_offset: i32,   // the world's row of the texture's row 0 (a paged world's page less its halo)
    origin: vec2<u32>, // the box's first texel
    size: vec2<u32>,   // the box, texels
    height: u32,       // the world's rows
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
};

@group(0) @binding(0) var<uniform> params: WaterParams;
@group(0) @binding(1) var<uniform> edit: PackedEdit;
@group(0) @binding(2) var mass_in: texture_storage_2d<rgba32float, read>;
@group(0) @binding(3) var mass_out: texture_storage_2d<rgba32float, write>;
@group(0) @binding(4) var<storage, read> wall_bits: array<u32>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= edit.size.x || id.y >= edit.size.y {
        return;
    }
    let p = edit.origin + id.xy;
    let row = i32(p.y) + edit.row_offset;
    var v = textureLoad(mass_in, p);
    var walls = 0u;
    if edit.walls != 0u {
        walls = wall_bits[id.y * edit.size.x + id.x];
    }
    for (var k = 0u; k < 4u; k++) {
        let col = 4u * p.x + k;
        if col >= params.width || row < 0 || row >= i32(edit.height) {
            v[k] = outside_mass(params);
            continue;
        }
        var wall = (bitcast<u32>(v[k]) & 0x80000000u) != 0u;
        if edit.walls != 0u {
            wall = ((walls >> k) & 1u) != 0u;
        }
        if wall {
            v[k] = bitcast<f32>(0x80000000u);
            continue;
        }
        // Stored as +|m| (an open cell's sign bit clear, as water/pack.wgsl keeps it).
        v[k] = abs(brushed(abs(v[k]), f32(col), f32(row), edit.brush, false));
    }
    textureStore(mass_out, p, v);
}
