// Gas pass 3 (apply.wgsl) with the linear reconstruction: the predicted states (predict.wgsl) that its faces
// into walls read (ghost_linear.wgsl).

@group(0) @binding(10) var half_state: texture_storage_2d<rgba32float, read>;
@group(0) @binding(11) var slope_rho: texture_storage_2d<rgba32float, read>;
@group(0) @binding(12) var slope_ux: texture_storage_2d<rgba32float, read>;
@group(0) @binding(13) var slope_uy: texture_storage_2d<rgba32float, read>;
