// Uses: the pass's bindings (params).
// The box's edges on the staggered grid (params.edges: 2 bits an edge, left, right, top,
// bottom: 0 wall, 1 inflow, 2 outflow, 3 slip), shared by the velocity's advection (with
// edge_rules.wgsl) and viscosity passes. CPU mirror: `SmokeParams::edges`, `EdgeKind`.
// CPU mirror: `FaceRule`, `u_rule`, `v_rule` in src/smoke/staggered/mod.rs.

const EDGE_LEFT: u32 = 0u;
const EDGE_RIGHT: u32 = 1u;
const EDGE_TOP: u32 = 2u;
const EDGE_BOTTOM: u32 = 3u;
const EDGE_WALL: u32 = 0u;
const EDGE_INFLOW: u32 = 1u;
const EDGE_OUTFLOW: u32 = 2u;
const EDGE_SLIP: u32 = 3u;

fn edge_kind(edge: u32) -> u32 {
    return (params.edges >> (2u * edge)) & 3u;
}

// Whether the viscosity sees the face itself beyond this edge (an outflow, a free-slip wall).
// CPU mirror: `EdgeKind::zero_gradient`.
fn zero_gradient_edge(edge: u32) -> bool {
    let kind = edge_kind(edge);
    return kind == EDGE_OUTFLOW || kind == EDGE_SLIP;
}
