// Gas pass 2 (limit.wgsl) with the linear reconstruction: the predicted states (predict.wgsl) that its faces
// into walls read (ghost_linear.wgsl).

@group(0) @binding(6) var half_state: texture_storage_2d<rgba32float, read>;
@group(0) @binding(7) var slope_rho: texture_storage_2d<rgba32float, read>;
@group(0) @binding(8) var slope_ux: texture_storage_2d<rgba32float, read>;
@group(0) @binding(9) var slope_uy: texture_storage_2d<rgba32float, read>;
