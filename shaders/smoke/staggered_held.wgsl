// Uses: common/grid.wgsl (beyond_bit, inside); smoke/edges.wgsl (EDGE_OUTFLOW, edge_kind);
//   smoke/faces.wgsl (open_at); the pass's bindings (solid).
// Which cells the staggered projection's solve holds, shared by the gradient passes
// (staggered_gradient.wgsl, staggered_gradient_packed.wgsl), which bind `solid`.

// Whether the solve holds cell q: open inside the grid, or beyond an outflow edge
// (`crate::solver::open_neighbour`).
fn held(q: vec2<i32>) -> bool {
    let size = textureDimensions(solid);
    if inside(q, size) {
        return open_at(solid, q);
    }
    return edge_kind(firstTrailingBit(beyond_bit(q, size))) == EDGE_OUTFLOW;
}
