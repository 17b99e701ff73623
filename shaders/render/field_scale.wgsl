// The colour scale of a signed smoke field (the divergence, the vorticity): the largest |value|
// over the open cells, rounded up to 1, 2 or 5 times a power of ten (at least MIN_SCALE), so that
// the picture uses the whole colour map however strong the field is, and the colour bar reads
// in round numbers that hold still while the field changes a little. One workgroup strides over
// the grid; invocation 0 writes the scale, which is then copied into the draw's `View` uniform
// (render/smoke.wgsl's `scale`) in the same encoder: no readback between them.
// CPU mirror: `field_scale` (src/render.rs).

@group(0) @binding(0) var field: texture_2d<f32>; // r32float, (W, H)
@group(0) @binding(1) var solid: texture_2d<u32>; // bit 0: solid
@group(0) @binding(2) var<storage, read_write> scale: array<f32>;

const THREADS: u32 = 256u;
const MIN_SCALE: f32 = 1e-6;
// Decades from MIN_SCALE to the largest scale, 1e38 (f32 ends near 3.4e38).
const DECADES: i32 = 44;

var<workgroup> largest: array<f32, THREADS>;

// The first of 1, 2, 5, 10, 20, ... times MIN_SCALE at or above `m`, at most 1e38, by the same
// f32 multiplications as the mirror.
fn round_up(m: f32) -> f32 {
    var p = MIN_SCALE;
    for (var k = 0; k < DECADES; k++) {
        if p >= m {
            return p;
        }
        if 2.0 * p >= m {
            return 2.0 * p;
        }
        if 5.0 * p >= m {
            return 5.0 * p;
        }
        p = p * 10.0;
    }
    return p;
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) i: u32) {
    let size = textureDimensions(field);
    var m = 0.0;
    for (var k = i; k < size.x * size.y; k += THREADS) {
        let p = vec2<i32>(vec2<u32>(k % size.x, k / size.x));
        let v = abs(textureLoad(field, p, 0).r);
        // Open cells only; a NaN or infinity is left out (it has no place on a colour bar).
        if (textureLoad(solid, p, 0).r & 1u) == 0u && v <= 3.4e38 {
            m = max(m, v);
        }
    }
    largest[i] = m;
    for (var half = THREADS / 2u; half > 0u; half /= 2u) {
        workgroupBarrier();
        if i < half {
            largest[i] = max(largest[i], largest[i + half]);
        }
    }
    if i == 0u {
        scale[0] = round_up(largest[0]);
    }
}
