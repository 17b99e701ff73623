// Face openness on the staggered grid, shared by the staggered smoke passes: a face is open
// when both cells beside it are inside the grid and not solid (bits: the smoke solid texture).
// CPU mirror: `u_open` and `v_open` in src/smoke/staggered/mod.rs.

fn open_at(bits: texture_storage_2d<r32uint, read>, q: vec2<i32>) -> bool {
    return inside(q, textureDimensions(bits)) && !has(textureLoad(bits, q).r, SOLID);
}
