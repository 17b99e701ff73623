// The box's edges on the staggered grid (params.edges: 2 bits an edge, left, right, top,
// bottom: 0 wall, 1 inflow, 2 outflow), shared by the velocity's advection (with
// edge_rules.wgsl) and viscosity passes. CPU mirror: `SmokeParams::edges`, `EdgeKind`.
// CPU mirror: `FaceRule`, `u_rule`, `v_rule` in src/smoke/staggered/mod.rs.

const EDGE_LEFT: u32 = 0u;
const EDGE_RIGHT: u32 = 1u;
const EDGE_TOP: u32 = 2u;
const EDGE_BOTTOM: u32 = 3u;
const EDGE_WALL: u32 = 0u;
const EDGE_INFLOW: u32 = 1u;
const EDGE_OUTFLOW: u32 = 2u;

fn edge_kind(edge: u32) -> u32 {
    return (params.edges >> (2u * edge)) & 3u;
}
