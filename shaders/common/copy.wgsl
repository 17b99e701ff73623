// The roofline's texture copy (`eddy bench`): each invocation reads one rgba32float texel and
// writes it to the other texture, the least a pass can do with a cell; the GB/s it reaches is
// the adapter's bandwidth for the kind of access eddy's passes make.

@group(0) @binding(0) var source_field: texture_storage_2d<rgba32float, read>;
@group(0) @binding(1) var target_field: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(source_field);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    textureStore(target_field, id.xy, textureLoad(source_field, id.xy));
}
