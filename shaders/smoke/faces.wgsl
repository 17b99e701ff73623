// Uses: common/grid.wgsl (inside); smoke/params.wgsl (SOLID, has).
// Face openness on the staggered grid, shared by the staggered smoke passes: a face is open
// when both cells beside it are inside the grid and not solid (bits: the smoke solid texture).
// CPU mirror: `u_open` and `v_open` in src/smoke/staggered/mod.rs.

fn open_at(bits: texture_storage_2d<r32uint, read>, q: vec2<i32>) -> bool {
    return inside(q, textureDimensions(bits)) && !has(textureLoad(bits, q).r, SOLID);
}

// Whether each of the six cells q - 1 .. q + 4 along q's row is open (`open_at`): the strip of
// four cells q .. q + 3 that one invocation of the vorticity and confinement passes computes,
// and its neighbours either side. Six values, not an array: on lavapipe a loop over arrays is
// no faster than one cell an invocation.
struct OpenRow {
    o0: bool,
    o1: bool,
    o2: bool,
    o3: bool,
    o4: bool,
    o5: bool,
}

fn open_row(bits: texture_storage_2d<r32uint, read>, q: vec2<i32>) -> OpenRow {
    return OpenRow(open_at(bits, q - vec2<i32>(1, 0)), open_at(bits, q), open_at(bits, q + vec2<i32>(1, 0)),
                   open_at(bits, q + vec2<i32>(2, 0)), open_at(bits, q + vec2<i32>(3, 0)),
                   open_at(bits, q + vec2<i32>(4, 0)));
}
