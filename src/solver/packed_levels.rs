//! The GPU V-cycle's levels above the coarse kernel's (`coarse.wgsl`, 32 x 32 cells and below)
//! in the packed layout of [`super::packed`]: four cells of a row in one `rgba32float` texel,
//! their wall bits in one `r32uint`, each level's pressure ping-ponging between two packed
//! textures. The finest level uses the packed Jacobi iterations' own textures (so the smoke
//! step's divergence packs its input and its gradient unpacks its result, and a V-cycle never
//! touches a level one cell a texel); the others have their own.
//!
//! The passes, each the twin of [`super::multigrid`]'s functions:
//! - `smooth_quad.wgsl`: two red-black Gauss-Seidel sweeps a dispatch
//!   ([`super::multigrid::smooth`] with colours 0, 1, 0, 1), run by the walk of the Jacobi quad
//!   (`quad_walk.wgsl`, temporal blocking in registers): a half-sweep reads only the colour it
//!   keeps, so it is a stencil over the half-sweep before, as a Jacobi iteration is over the
//!   iteration before;
//! - `restrict_to_packed.wgsl` and, onto the coarse kernel's first level,
//!   `restrict_packed.wgsl`: the residual ([`super::residual`]) summed onto the level below
//!   ([`super::multigrid::restrict`]) in one pass, with no residual texture;
//! - `prolong_from_packed.wgsl` and, from the coarse kernel's first level,
//!   `prolong_packed.wgsl`: the coarse correction added ([`super::multigrid::prolong`]), from one
//!   packed pressure into the other;
//! - `pack_walls.wgsl`: a coarse level's walls packed after `coarsen_walls.wgsl` wrote them on
//!   the GPU (moving bodies).
//!
//! Why: one cell a texel and an invocation, a red-black sweep of one colour is a pass over the
//! whole level in which half the invocations do nothing, and on lavapipe, where texel
//! operations bound it, it costs about as much as 7 packed Jacobi iterations; on the quad's walk
//! the four half-sweeps of two sweeps are one dispatch over packed texels.

use super::packed::PackedJacobi;
use crate::gpu::packed::packed_size;
use crate::gpu::{self, DeviceCaps, Kernel};
use crate::shaders;
use wgpu::BindingResource::TextureView as View;

/// One packed level: its pressures, right-hand side and walls, and its passes' bind groups
/// (`[from]`: from packed pressure `from` to the other).
struct Packed {
    /// Texels, `(ceil(W / 4), H)`.
    texels: (u32, u32),
    sweeps: [wgpu::BindGroup; 2],
    /// `[from]`: the residual of pressure `from` onto the level below.
    restrict: [wgpu::BindGroup; 2],
    /// `[from][below]`: the correction of the level below (its packed pressure `below`, or its
    /// one texture: `[from][0]`) added to pressure `from`, into the other.
    prolong: [Vec<wgpu::BindGroup>; 2],
    /// The walls of the level one cell a texel into its packed walls (not on the finest level).
    pack_walls: Option<wgpu::BindGroup>,
}

/// The packed levels `0..first` of a V-cycle, finest first.
pub(super) struct PackedLevels {
    levels: Vec<Packed>,
    /// `[l]`: level `l`'s own textures (pressure 0, 1, right-hand side, walls); the finest
    /// level's (`None`) are the packed Jacobi iterations'.
    textures: Vec<Option<[wgpu::TextureView; 4]>>,
    /// Cells of the coarse kernel's first level, `(w, h)`.
    coarse: (u32, u32),
    /// Texel rows an invocation of the sweeps' walk writes (the Jacobi quad's).
    strip: u32,
    // smooth_quad, restrict_to_packed, restrict_packed, prolong_from_packed, prolong_packed,
    // pack_walls
    kernels: [Kernel; 6],
}

/// What [`PackedLevels::new`] binds of one level of the hierarchy (one cell a texel).
pub(super) struct LevelTextures<'a> {
    /// Cells `(w, h)`.
    pub size: (u32, u32),
    /// `struct Level` of `level.wgsl`.
    pub uniform: &'a wgpu::Buffer,
    /// Wall bits, `r32uint`.
    pub walls: &'a wgpu::TextureView,
    /// Pressure and right-hand side (`r32float`) where the level has them (the finest and the
    /// coarse kernel's first, whose are the ones read here).
    pub fields: Option<(&'a wgpu::TextureView, &'a wgpu::TextureView)>,
}

impl PackedLevels {
    /// The packed levels `0..first` of `levels` (`first` >= 1, the coarse kernel's first level,
    /// whose `fields` the last packed level restricts onto and prolongs from), the finest on
    /// `jacobi`'s packed textures.
    pub(super) fn new(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        jacobi: &PackedJacobi,
        levels: &[LevelTextures<'_>],
        first: usize,
    ) -> Self {
        let strip = jacobi.quad_strip();
        let kernels = [
            Kernel::with_constants(
                device,
                caps,
                "solver/smooth_quad",
                shaders::SOLVER_SMOOTH_QUAD,
                &[("STRIP", strip as f64)],
            ),
            Kernel::new(device, caps, "solver/restrict_to_packed", shaders::SOLVER_RESTRICT_TO_PACKED),
            Kernel::new(device, caps, "solver/restrict_packed", shaders::SOLVER_RESTRICT_PACKED),
            Kernel::new(device, caps, "solver/prolong_from_packed", shaders::SOLVER_PROLONG_FROM_PACKED),
            Kernel::new(device, caps, "solver/prolong_packed", shaders::SOLVER_PROLONG_PACKED),
            Kernel::new(device, caps, "solver/pack_walls", shaders::SOLVER_PACK_WALLS),
        ];
        // TEXTURE_BINDING: on a device with fewer storage textures per stage than a pass binds,
        // its reads are sampled (gpu::fit); COPY_DST: the walls' uploads.
        let usage =
            wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST;
        let textures: Vec<Option<[wgpu::TextureView; 4]>> = (0..first)
            .map(|l| {
                (l > 0).then(|| {
                    let texels = packed_size(levels[l].size.0, levels[l].size.1);
                    let texture = |format| {
                        gpu::texture_2d(device, "solver/packed level", texels, format, usage)
                            .create_view(&Default::default())
                    };
                    let rgba = wgpu::TextureFormat::Rgba32Float;
                    [texture(rgba), texture(rgba), texture(rgba), texture(wgpu::TextureFormat::R32Uint)]
                })
            })
            .collect();
        // Level l's pressures, right-hand side and walls.
        let views = |l: usize| -> [&wgpu::TextureView; 4] {
            match &textures[l] {
                Some([p0, p1, b, w]) => [p0, p1, b, w],
                None => {
                    let [p0, p1] = jacobi.packed_pressure_views();
                    [p0, p1, jacobi.packed_rhs_view(), jacobi.walls_view()]
                }
            }
        };
        let levels_packed = (0..first)
            .map(|l| {
                let [p0, p1, b, walls] = views(l);
                let level = levels[l].uniform.as_entire_binding();
                let pairs = [(p0, p1), (p1, p0)];
                let sweeps = pairs.map(|(from, to)| {
                    kernels[0].bind_group(device, &[View(from), View(b), View(walls), View(to), level.clone()])
                });
                let (restrict, prolong) = if l + 1 < first {
                    let [c0, c1, cb, _] = views(l + 1);
                    let restrict = [p0, p1].map(|from| {
                        kernels[1]
                            .bind_group(device, &[level.clone(), View(from), View(b), View(walls), View(cb), View(c0)])
                    });
                    let prolong = pairs.map(|(from, to)| {
                        [c0, c1]
                            .iter()
                            .map(|c| {
                                kernels[3]
                                    .bind_group(device, &[level.clone(), View(from), View(walls), View(c), View(to)])
                            })
                            .collect()
                    });
                    (restrict, prolong)
                } else {
                    let (cp, cb) = levels[l + 1].fields.expect("the coarse kernel's first level's fields");
                    let restrict = [p0, p1].map(|from| {
                        kernels[2]
                            .bind_group(device, &[level.clone(), View(from), View(b), View(walls), View(cb), View(cp)])
                    });
                    let prolong = pairs.map(|(from, to)| {
                        vec![
                            kernels[4]
                                .bind_group(device, &[level.clone(), View(from), View(walls), View(cp), View(to)]),
                        ]
                    });
                    (restrict, prolong)
                };
                let pack_walls = (l > 0).then(|| kernels[5].bind_group(device, &[View(levels[l].walls), View(walls)]));
                Packed {
                    texels: packed_size(levels[l].size.0, levels[l].size.1),
                    sweeps,
                    restrict,
                    prolong,
                    pack_walls,
                }
            })
            .collect();
        Self { levels: levels_packed, textures, coarse: levels[first].size, strip, kernels }
    }

    /// Records `cycles` V-cycles' passes on the packed levels from packed pressure `from` of the
    /// finest, with `coarse` recording the coarse kernel's part of a cycle between the way down
    /// and the way up, and returns the finest level's packed pressure that holds the result.
    /// `pre` and `post`: red-black sweeps before and after the coarse correction (even).
    pub(super) fn dispatch_cycles(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        cycles: u32,
        from: usize,
        (pre, post): (u32, u32),
        coarse: impl Fn(&mut wgpu::ComputePass<'_>),
    ) -> usize {
        let n = self.levels.len();
        let mut at = vec![0; n];
        at[0] = from;
        for _ in 0..cycles {
            for (l, from) in at.iter_mut().enumerate() {
                if l > 0 {
                    *from = 0; // the restriction started the correction in pressure 0
                }
                for _ in 0..pre / 2 {
                    *from = self.dispatch_sweeps(pass, l, *from);
                }
                let (kernel, (w, h)) = match l + 1 < n {
                    true => (&self.kernels[1], self.levels[l + 1].texels),
                    false => (&self.kernels[2], self.coarse),
                };
                kernel.dispatch(pass, &self.levels[l].restrict[*from], w, h);
            }
            coarse(pass);
            for l in (0..n).rev() {
                let (kernel, below) = match l + 1 < n {
                    true => (&self.kernels[3], at[l + 1]),
                    false => (&self.kernels[4], 0),
                };
                let (w, h) = self.levels[l].texels;
                kernel.dispatch(pass, &self.levels[l].prolong[at[l]][below], w, h);
                at[l] = 1 - at[l];
                for _ in 0..post / 2 {
                    at[l] = self.dispatch_sweeps(pass, l, at[l]);
                }
            }
        }
        at[0]
    }

    /// Records two red-black sweeps of level `l`'s packed pressure `from` into the other;
    /// returns it.
    pub(super) fn dispatch_sweeps(&self, pass: &mut wgpu::ComputePass<'_>, l: usize, from: usize) -> usize {
        let (w, h) = self.levels[l].texels;
        self.kernels[0].dispatch(pass, &self.levels[l].sweeps[from], w.div_ceil(2), h.div_ceil(self.strip));
        1 - from
    }

    /// Records the packing of every packed level's walls but the finest's (which its writers
    /// keep packed themselves) from their one-cell-a-texel walls.
    pub(super) fn dispatch_pack_walls(&self, pass: &mut wgpu::ComputePass<'_>) {
        for level in &self.levels[1..] {
            let (w, h) = level.texels;
            self.kernels[5].dispatch(pass, level.pack_walls.as_ref().expect("a coarse packed level"), w, h);
        }
    }

    /// The packed walls texture of level `l` >= 1 (`r32uint`), for their upload from the CPU.
    pub(super) fn walls(&self, l: usize) -> &wgpu::Texture {
        self.textures[l].as_ref().expect("a coarse packed level")[3].texture()
    }
}
