// Uses: common/force_log.wgsl (FORCE_LOG_STEPS, ForceLog, LOGGED_BODIES);
//   gas/params.wgsl (FORCE_SCALE, GasParams, TORQUE_SCALE).
// The gas's push on each body over the step, after apply.wgsl: its fixed-point sums converted
// to (fx, fy, torque) (cell masses x cells / step^2) and written into the force log's slot for
// this step (`head`), as the other models' forces passes do; the sums cleared for the next
// step. One invocation a body. CPU mirror: `ForceSums::forces` in src/gas/bodies.rs.

@group(0) @binding(0) var<uniform> params: GasParams;
@group(0) @binding(1) var<storage, read_write> body_sums: array<atomic<i32>, 48>;
@group(0) @binding(2) var<storage, read_write> force_log: ForceLog;

@compute @workgroup_size(16, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if i >= params.bodies {
        return;
    }
    let fx = f32(atomicExchange(&body_sums[3u * i], 0)) / FORCE_SCALE;
    let fy = f32(atomicExchange(&body_sums[3u * i + 1u], 0)) / FORCE_SCALE;
    let torque = f32(atomicExchange(&body_sums[3u * i + 2u], 0)) / TORQUE_SCALE;
    force_log.forces[(force_log.head % FORCE_LOG_STEPS) * LOGGED_BODIES + i] = vec4<f32>(fx, fy, torque, 0.0);
}
