// Uses: common/force_log.wgsl (ForceLog).
// The force log's head counts the step whose forces a model's forces pass just wrote. One
// invocation.
// CPU mirror: `ForceLog::encode_step` in src/body/forces.rs.

@group(0) @binding(0) var<storage, read_write> force_log: ForceLog;

@compute @workgroup_size(1, 1)
fn main() {
    force_log.head += 1u;
}
