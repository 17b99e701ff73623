//! The water model on the GPU: one compute pass per step ([`StepPass`],
//! `shaders/water/step.wgsl`), gather-only. Every cell works out its own four outflows (down,
//! left, right, up) exactly as Elsts' push loop computes them from the previous masses, and
//! those its neighbours send towards it, and writes its old mass minus the one plus the other
//! into the other mass texture of the ping-pong. Because the push loop reads only the previous
//! step's masses, the sum of pushes a cell receives equals what it gathers here: the two
//! formulations agree to the bit.
//!
//! The pass runs in the packed layout ([`crate::gpu::packed`]: four cells of a row a
//! `rgba32float` texel), each invocation walking a column of [`DeviceCaps::strip`] rows of two texels so
//! that each row's outflows are computed once and every texel is read about once: on lavapipe
//! texel operations and dispatches, not bytes, bound a step, and this keeps both few.
//! The mass keeps one cell a texel between runs of steps (the renderer, the brush, the
//! statistics and readbacks read it so): a run packs it first and unpacks it after its last
//! step, two dispatches a run. Packed, a solid cell's mass is stored negated (-0.0 when empty,
//! and every other mass is >= +0.0), so the step reads which cells are solid from the signs of
//! the masses it loads anyway instead of from a texture of solid bits beside them.
//!
//! While the water sleeps ([`GpuWater::set_sleeping`], [`super::tiles`]) a step runs over the
//! awake tiles alone ([`TilePasses`]), and the packed masses stay between runs. A world past the
//! adapter's largest texture side keeps the packed masses alone ([`Layout::Packed`],
//! [`super::packed_world`]).

use super::{Arithmetic, Boundary, Brush, WaterParams, WaterState, WaterStats};
use crate::body::contact::ContactPlan;
use crate::body::dynamics::BodyDynamics;
use crate::body::forces::ForceLog;
use crate::body::{Body, GpuBody};
use crate::error::Error;
use crate::gpu::state_hash::StateHashCopy;
use crate::gpu::{self, DeviceCaps, GpuError, Kernel, PingPong};
use crate::gpu_model::GpuModel;
use crate::grid::Grid;
use crate::shaders;
use wgpu::BindingResource::TextureView as View;

/// Mirrors `struct WaterParams` in `shaders/water/params.wgsl` (64 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct WaterUniform {
    max_mass: f32,
    max_compress: f32,
    min_mass: f32,
    min_flow: f32,
    max_speed: f32,
    side_share: f32,
    open_boundary: u32,
    width: u32,
    gravity: f32,
    /// [`super::fixed::Units`]: max mass, max compress, min flow, max speed, side share.
    units: [i32; 5],
    _pad: [u32; 2],
}

impl WaterUniform {
    /// For `p` on a grid `width` cells wide.
    fn new(p: &WaterParams, width: u32) -> Self {
        // Float water's constants may lie outside fixed point's range; its pass reads none.
        let u = super::fixed::Units::of(p).unwrap_or(super::fixed::Units {
            max_mass: 0,
            max_compress: 0,
            min_flow: 0,
            max_speed: 0,
            side_share: 0,
        });
        Self {
            units: [u.max_mass, u.max_compress, u.min_flow, u.max_speed, u.side_share],
            max_mass: p.max_mass,
            max_compress: p.max_compress,
            min_mass: p.min_mass,
            min_flow: p.min_flow,
            max_speed: p.max_speed,
            side_share: p.side_share,
            open_boundary: (p.boundary == Boundary::Open) as u32,
            width,
            gravity: p.gravity,
            _pad: [0; 2],
        }
    }
}

/// Per cell, which of itself and its four neighbours is solid: bit 0 self, 1 below, 2 left,
/// 3 right, 4 above (`SOLID_*` in `shaders/water/params.wgsl`). Outside the grid is solid with
/// [`Boundary::Wall`] and open with [`Boundary::Open`]. Row-major `(H, W)`.
fn solid_bits(solid: &Grid<u8>, boundary: Boundary) -> Vec<u32> {
    let wall = boundary == Boundary::Wall;
    let is_solid = |r: isize, c: isize| solid.get(r, c).map_or(wall, |&s| s != 0);
    let (h, w) = solid.shape();
    let mut bits = Vec::with_capacity(h * w);
    for r in 0..h as isize {
        for c in 0..w as isize {
            let neighbours = [(r, c), (r + 1, c), (r, c - 1), (r, c + 1), (r - 1, c)];
            bits.push(neighbours.iter().enumerate().map(|(i, &(nr, nc))| (is_solid(nr, nc) as u32) << i).sum());
        }
    }
    bits
}

/// A brush that changes no mass: over a packed world's box it rewrites walls and padding, over
/// one cell a texel it empties the cells that became solid.
const NO_BRUSH: Brush = Brush { center: (0.0, 0.0), radius: 0.0, scale: 1.0, add: 0.0 };

/// What [`GpuWater::mass_view`] says of a packed world.
const NO_CELLS: &str =
    "a packed world (GpuWater::is_packed_world) keeps its masses packed alone: see GpuWater::packed_world_pages";

/// Refuses `bodies` in a packed world (`max_side`: the adapter's largest texture side).
fn check_no_bodies(bodies: &[Body], max_side: u32) -> Result<(), Error> {
    if bodies.is_empty() {
        return Ok(());
    }
    Err(Error::Message(format!(
        "bodies in water: a world wider or taller than {max_side} cells (this adapter's largest texture) takes no \
         bodies yet; use a world up to {max_side}x{max_side} for bodies"
    )))
}

/// Reads a `width`-wide packed world's packed `texture` back into its masses, `(H, W)`
/// ([`super::packed_world::unpack`]).
async fn read_packed_world(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    textures: &[&wgpu::Texture],
    layout: &PageLayout,
) -> Result<Grid<f32>, GpuError> {
    let (width, height) = layout.size;
    let mut mass = Vec::with_capacity(width as usize * height as usize);
    for (texture, rows) in textures.iter().zip(&layout.rows) {
        let bytes = gpu::read_texture_async(device, queue, texture, 16).await?;
        // Read in place where the bytes are aligned as f32s (a copy of them only where not).
        let copied: Vec<[f32; 4]>;
        let texels = match bytemuck::try_cast_slice(&bytes) {
            Ok(texels) => texels,
            Err(_) => {
                copied = bytemuck::pod_collect_to_vec(&bytes);
                &copied
            }
        };
        let pw = texture.width() as usize;
        let own = &texels[layout.halo as usize * pw..(layout.halo as usize + rows.len()) * pw];
        mass.extend_from_slice(super::packed_world::unpack(own, width as usize).as_slice());
    }
    Ok(Grid::from_vec(width as usize, height as usize, mass).expect("the pages hold the world's rows"))
}

/// Where a packed world's rows are: each page's rows, the halo around them and the world's
/// `(width, height)` in cells ([`read_packed_world`]).
struct PageLayout {
    rows: Vec<std::ops::Range<u32>>,
    halo: u32,
    size: (u32, u32),
}

/// Mirrors `struct Brush` in `shaders/water/brush_rule.wgsl` (32 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct BrushUniform {
    center: [f32; 2],
    radius: f32,
    scale: f32,
    add: f32,
    /// 1 in fixed-point water: the masses are rounded down to the unit.
    fixed: u32,
    _pad: [f32; 2],
}

impl BrushUniform {
    /// `b` on water in `arithmetic`.
    fn of(b: &Brush, arithmetic: Arithmetic) -> Self {
        Self {
            center: [b.center.0, b.center.1],
            radius: b.radius,
            scale: b.scale,
            add: b.add,
            fixed: (arithmetic == Arithmetic::Fixed) as u32,
            _pad: [0.0; 2],
        }
    }
}

/// The packed textures a run of steps works in: the mass, four cells a texel, a solid cell's
/// stored negated (`shaders/water/pack.wgsl`), a ping-pong pair for each page of rows
/// ([`super::packed_world::pages`]: one, unless the world is taller than one texture holds).
struct Packed {
    /// Texels across, rows down (the world's).
    size: (u32, u32),
    pages: Vec<Page>,
}

/// One page of the packed textures: the world's rows `rows` between `halo` rows above and below
/// them (a paged world's, [`super::packed_world::HALO`]; 0 for a world in one page).
struct Page {
    rows: std::ops::Range<u32>,
    halo: u32,
    textures: [wgpu::Texture; 2],
    mass: [wgpu::TextureView; 2],
    /// `struct Page` in `shaders/water/page.wgsl`.
    uniform: wgpu::Buffer,
}

/// Mirrors `struct Page` in `shaders/water/page.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct PageUniform {
    first_row: u32,
    rows: u32,
    halo: u32,
    _pad: u32,
}

impl Packed {
    fn new(device: &wgpu::Device, (width, height): (u32, u32), pages: Vec<std::ops::Range<u32>>) -> Self {
        let size = gpu::packed::packed_size(width, height);
        // TEXTURE_BINDING: on a device with WebGPU's 4 storage textures per stage the passes
        // read them as sampled textures (gpu::fit). The copies: a packed world's uploads,
        // readbacks, checkpoints, edits' boxes copied back and a paged world's halos.
        use wgpu::TextureUsages as U;
        use wgpu::util::DeviceExt;
        let usage = U::STORAGE_BINDING | U::TEXTURE_BINDING | U::COPY_SRC | U::COPY_DST;
        let rgba = wgpu::TextureFormat::Rgba32Float;
        let halo = super::packed_world::halo(pages.len());
        let pages = pages
            .into_iter()
            .map(|rows| {
                let texture_size = (size.0, super::packed_world::texture_rows(&rows, halo));
                let textures = [0, 1].map(|_| gpu::texture_2d(device, "water/packed mass", texture_size, rgba, usage));
                let mass = [0, 1].map(|j| textures[j].create_view(&Default::default()));
                let page = PageUniform { first_row: rows.start, rows: rows.len() as u32, halo, _pad: 0 };
                let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("water/page"),
                    contents: bytemuck::bytes_of(&page),
                    usage: wgpu::BufferUsages::UNIFORM,
                });
                Page { rows, halo, textures, mass, uniform }
            })
            .collect();
        Self { size, pages }
    }

    /// The one page of a world one texture holds (the one-cell-a-texel water's, the tiles' and
    /// the bodies').
    fn one(&self) -> &Page {
        debug_assert_eq!(self.pages.len(), 1, "a paged world has no one texture");
        &self.pages[0]
    }

    /// Whether the world is in more than one page.
    fn is_paged(&self) -> bool {
        self.pages.len() > 1
    }

    /// Records the copies of each page's edge rows of packed texture `j` into its neighbours'
    /// halos ([`super::packed_world`]): the last [`super::packed_world::HALO`] rows of a page
    /// into the halo above the next one's rows, its first into the halo below the last one's.
    fn encode_halos(&self, encoder: &mut wgpu::CommandEncoder, j: usize) {
        let at = |texture, y| wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: 0,
            origin: wgpu::Origin3d { x: 0, y, z: 0 },
            aspect: wgpu::TextureAspect::All,
        };
        for pair in self.pages.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            let (len_a, halo) = (a.rows.len() as u32, a.halo);
            let extent = wgpu::Extent3d { width: self.size.0, height: halo, depth_or_array_layers: 1 };
            encoder.copy_texture_to_texture(at(&a.textures[j], len_a), at(&b.textures[j], 0), extent);
            encoder.copy_texture_to_texture(at(&b.textures[j], halo), at(&a.textures[j], halo + len_a), extent);
        }
    }
}

/// A page of a packed world's masses ([`GpuWater::packed_world_pages`]).
#[derive(Clone, Debug)]
pub struct PackedPage<'a> {
    /// Its packed mass texture that holds the masses now.
    pub view: &'a wgpu::TextureView,
    /// The world's rows it holds.
    pub rows: std::ops::Range<u32>,
    /// The rows of halo above them (and below) in its texture.
    pub halo: u32,
}

/// Where the water's masses live between runs of steps.
enum Layout {
    /// One cell a texel beside the packed pair, which a run packs into and unpacks from.
    Cells(Box<Cells>),
    /// The packed pair alone: a world past the adapter's largest texture side
    /// ([`super::packed_world`]).
    Packed(Box<PackedWorld>),
}

/// The one-cell-a-texel textures and the passes that read them.
struct Cells {
    mass: PingPong,
    solid: wgpu::Texture,
    solid_view: wgpu::TextureView,
    packing: PackPasses,
    brush: gpu::EditPass,
    stats: gpu::Reduction,
    /// The state hash's pass (`water/hash.wgsl`).
    hash: Kernel,
}

impl Cells {
    fn new(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        uniform: &wgpu::Buffer,
        packed: &Packed,
        size: (u32, u32),
    ) -> Self {
        let mass = PingPong::new(device, "water/mass", size.0, size.1, wgpu::TextureFormat::R32Float);
        let bits_usage =
            wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_DST;
        let solid = gpu::texture_2d(device, "water/solid", size, wgpu::TextureFormat::R32Uint, bits_usage);
        let solid_view = solid.create_view(&Default::default());
        let packing = PackPasses::new(device, caps, uniform, &mass, &solid_view, packed);
        let brush = gpu::EditPass::new(
            device,
            caps,
            "water/brush",
            shaders::WATER_BRUSH,
            std::mem::size_of::<BrushUniform>(),
            &mass,
            &solid_view,
        );
        let stats = gpu::Reduction::new(device, caps, "water/stats", shaders::WATER_STATS, size.1);
        let hash = Kernel::new(device, caps, "water/hash", shaders::WATER_HASH);
        Self { mass, solid, solid_view, packing, brush, stats, hash }
    }
}

/// A packed world's passes over the packed masses ([`super::packed_world`]), page by page: the
/// edits over a box of texels (`water/edit_packed.wgsl`), the statistics
/// (`water/stats_packed.wgsl`, a reduction a page) and the state hash (`water/hash_packed.wgsl`).
struct PackedWorld {
    edit: Kernel,
    stats: Vec<gpu::Reduction>,
    hash: Kernel,
}

/// Mirrors `struct PackedEdit` in `shaders/water/edit_packed.wgsl` (72 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct PackedEditUniform {
    brush: BrushUniform,
    walls: u32,
    /// The world's row of the texture's row 0 (a page's first row less its halo).
    row_offset: i32,
    origin: [u32; 2],
    size: [u32; 2],
    /// The world's rows.
    height: u32,
    _pad: [u32; 3],
}

/// The step (`shaders/water/step.wgsl`): outflows and gather in one pass, each invocation a
/// column of [`DeviceCaps::strip`] rows of two texels, the rules in `arithmetic`
/// (`water/rules.wgsl` or `water/rules_fixed.wgsl`). Bind group `j` of a page reads its packed
/// mass texture `j` and writes `1 - j`, the rows between its halos.
struct StepPass {
    kernel: Kernel,
    /// Each page's.
    bind_groups: Vec<[wgpu::BindGroup; 2]>,
    strip: u32,
}

impl StepPass {
    fn new(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        uniform: &wgpu::Buffer,
        packed: &Packed,
        arithmetic: Arithmetic,
    ) -> Self {
        let strip = caps.strip;
        let (name, source) = match arithmetic {
            Arithmetic::Float => ("water/step", shaders::WATER_STEP),
            Arithmetic::Fixed => ("water/step_fixed", shaders::WATER_STEP_FIXED),
        };
        let halo = packed.pages[0].halo;
        let constants = [("STRIP", strip as f64), ("HALO", halo as f64)];
        let kernel = Kernel::with_constants(device, caps, name, source, &constants);
        let bind_groups = packed
            .pages
            .iter()
            .map(|page| {
                [0, 1].map(|j| {
                    kernel.bind_group(
                        device,
                        &[uniform.as_entire_binding(), View(&page.mass[j]), View(&page.mass[1 - j])],
                    )
                })
            })
            .collect();
        Self { kernel, bind_groups, strip }
    }

    /// Records the step of every page of `packed` from its packed texture `j` into `1 - j`.
    fn dispatch(&self, pass: &mut wgpu::ComputePass<'_>, packed: &Packed, j: usize) {
        for (page, groups) in packed.pages.iter().zip(&self.bind_groups) {
            let rows = page.rows.len() as u32;
            self.kernel.dispatch(pass, &groups[j], packed.size.0.div_ceil(2), rows.div_ceil(self.strip));
        }
    }
}

/// What the next step over the awake tiles must first do with the list the last one left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Pending {
    /// Nothing: the list the last step left is the next step's.
    Nothing,
    /// Edits asked for tiles (in the requests buffer): they join the list the last step left.
    Requests,
    /// Every tile (a new state, the parameters, the bodies' or the dense step's steps): the list
    /// is all of them.
    All,
}

/// Water that sleeps ([`super::tiles`]): the step over the awake tiles alone, which also lists
/// the tiles awake for the next step (`shaders/water/step_tiles.wgsl`, one workgroup a tile,
/// dispatched indirectly); the edits' requests join a run's first list
/// (`shaders/water/wake_requests.wgsl`), and a run ends by unpacking the tiles it changed
/// (`shaders/water/changed_tiles.wgsl`, `shaders/water/unpack_tiles.wgsl`).
///
/// Step `n` (the model's steps before it) takes its list from slot `n % 3` of `lists` (each slot
/// `tiles` long), with its marks (a tile listed once) and its indirect arguments (`args[n % 3]`,
/// one workgroup more than the tiles listed); it lists into slot `(n + 1) % 3`, frees its own
/// marks, and its last workgroup starts slot `(n + 2) % 3`'s count again, whose list step `n - 1`
/// used. Every per-step pass costs what the awake tiles do, not the world, in one dispatch. A
/// tile that sleeps is not written, and needs not be: the ping-pong texture the step writes holds
/// its masses of two steps ago, which are its masses now, since it has not changed in the last
/// step (nor, by the same argument, in the one before).
struct TilePasses {
    step: Kernel,
    requests_pass: (Kernel, [wgpu::BindGroup; 3]),
    /// In a paged world, the tiles of the page's edge rows the pages beside it woke, into each
    /// step's list (`water/wake_edges.wgsl`), its groups by `n % 3`.
    wake_edges: (Kernel, [wgpu::BindGroup; 3]),
    /// With bodies, the tiles around them into each step's list (`water/wake_bodies.wgsl`), its
    /// groups by `n % 3`, made when the bodies' first step is recorded (their table and region
    /// buffers live as long as the water's bodies' passes, which are made once).
    wake_bodies: (Kernel, std::cell::OnceCell<[wgpu::BindGroup; 3]>),
    /// The run's changed tiles listed (`water/changed_tiles.wgsl`) and unpacked
    /// (`water/unpack_tiles.wgsl`, its groups by `i * 2 + j`: packed texture `j` into mass
    /// texture `i`).
    changed_tiles: (Kernel, wgpu::BindGroup),
    unpack: (Kernel, Vec<wgpu::BindGroup>),
    /// The unpack's indirect dispatch.
    unpack_args: wgpu::Buffer,
    /// Tiles across and down.
    grid: (u32, u32),
    /// A tile's cells, `(width, height)`.
    cells: (u32, u32),
    lists: wgpu::Buffer,
    /// Each slot's indirect arguments: x the tiles listed + 1, y and z 1.
    args: [wgpu::Buffer; 3],
    marks: wgpu::Buffer,
    requests: wgpu::Buffer,
    /// The tiles changed in the run (for its unpack).
    dirty: wgpu::Buffer,
    /// The tile grid's uniforms, a slot each.
    slots: [wgpu::Buffer; 3],
    /// By `j * 3 + n % 3`: reading packed texture `j`, step `n`'s list.
    step_groups: Vec<wgpu::BindGroup>,
    pending: Pending,
}

/// The rows a tile's invocations walk: the adapter's `strip`, doubled until the tiles of `pairs`
/// columns of two texels across and `64 / pairs` strips down, and one more, are at most `most`
/// (`max_compute_workgroups_per_dimension`: the step dispatches a workgroup a listed tile and one
/// more). A tile holds `512 strip` cells whatever `pairs` is, so only the strip can make the
/// tiles of a big grid few enough (a 16384 x 16384 grid at a GPU's strip of 8 has 65,536).
fn tile_strip((width, height): (u32, u32), pairs: u32, strip: u32, most: u32) -> u32 {
    let tiles = |strip: u32| u64::from(width.div_ceil(8 * pairs)) * u64::from(height.div_ceil(64 / pairs * strip));
    let mut strip = strip.max(1);
    while tiles(strip) + 1 > u64::from(most) && strip < height {
        strip *= 2;
    }
    strip
}

#[cfg(test)]
mod tests {
    /// A 16384 x 16384 grid at a GPU's strip of 8 and tiles of 8 pairs has 65,536 tiles, one
    /// more workgroup than WebGPU's 65,535 allows with the extra one: the strip doubles, to
    /// 32,768 tiles; a 1024 x 1024 grid keeps its strip, and so does lavapipe's 32 at 16384.
    #[test]
    fn the_tiles_strip_doubles_where_a_grid_has_too_many_tiles() {
        assert_eq!(super::tile_strip((16384, 16384), 8, 8, 65535), 16);
        assert_eq!(super::tile_strip((1024, 1024), 8, 8, 65535), 8);
        assert_eq!(super::tile_strip((16384, 16384), 16, 32, 65535), 32);
        assert_eq!(super::tile_strip((65536, 16384), 16, 32, 65535), 64);
    }
}

impl TilePasses {
    /// The passes over `page`'s packed textures (its own rows: `height` of a `width`-wide
    /// world) with tiles of `pairs` columns of two texels across and `64 / pairs` strips of
    /// [`DeviceCaps::strip`] rows down, the rules in `arithmetic`. In a paged world the page is
    /// `pages.0` of `pages.1`, and `edges` holds the wakes across the pages' edges
    /// (`water/wake_edges.wgsl`: two words a tile column a page).
    #[allow(clippy::too_many_arguments)]
    fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        caps: &DeviceCaps,
        uniform: &wgpu::Buffer,
        page: &Page,
        mass: Option<&PingPong>,
        (width, height): (u32, u32),
        pairs: u32,
        arithmetic: Arithmetic,
        (pages, edges): ((u32, u32), &wgpu::Buffer),
    ) -> Self {
        let strips = 64 / pairs;
        let constants = [
            ("STRIP", caps.strip as f64),
            ("TILE_PAIRS", pairs as f64),
            ("TILE_STRIPS", strips as f64),
            ("TRACK_CHANGES", 1.0),
            ("HALO", page.halo as f64),
        ];
        let (name, source) = match arithmetic {
            Arithmetic::Float => ("water/step_tiles", shaders::WATER_STEP_TILES),
            Arithmetic::Fixed => ("water/step_tiles_fixed", shaders::WATER_STEP_TILES_FIXED),
        };
        let step = Kernel::with_constants(device, caps, name, source, &constants);
        let requests_kernel = Kernel::new(device, caps, "water/wake_requests", shaders::WATER_WAKE_REQUESTS);
        let cells = (8 * pairs, strips * caps.strip);
        let grid = (width.div_ceil(cells.0), height.div_ceil(cells.1));
        let tiles = u64::from(grid.0 * grid.1);
        let buffer = |label: &str, size: u64, usage: wgpu::BufferUsages| {
            device.create_buffer(&wgpu::BufferDescriptor { label: Some(label), size, usage, mapped_at_creation: false })
        };
        use wgpu::BufferUsages as U;
        let lists = buffer("water/awake tiles", 3 * 4 * tiles, U::STORAGE | U::COPY_DST);
        let marks = buffer("water/tiles listed", 3 * 4 * tiles, U::STORAGE | U::COPY_DST);
        let args =
            [0, 1, 2].map(|_| buffer("water/awake dispatch", 12, U::STORAGE | U::INDIRECT | U::COPY_DST | U::COPY_SRC));
        let requests = buffer("water/tile wake requests", 4 * tiles, U::STORAGE | U::COPY_DST);
        let dirty = buffer("water/tiles changed in the run", 4 * tiles, U::STORAGE);
        let unpack_list = buffer("water/tiles to unpack", 4 * tiles, U::STORAGE);
        let unpack_args = buffer("water/unpack dispatch", 12, U::STORAGE | U::INDIRECT | U::COPY_DST);
        let slots = [0u32, 1, 2].map(|slot| {
            let b = gpu::uniform_buffer(device, "water/tile grid", 32);
            queue.write_buffer(&b, 0, bytemuck::cast_slice(&[grid.0, grid.1, slot, pages.0, pages.1, 0, 0, 0]));
            b
        });
        let mut step_groups = Vec::new();
        for j in 0..2 {
            for (k, slot) in slots.iter().enumerate() {
                step_groups.push(step.bind_group(
                    device,
                    &[
                        uniform.as_entire_binding(),
                        View(&page.mass[j]),
                        View(&page.mass[1 - j]),
                        lists.as_entire_binding(),
                        slot.as_entire_binding(),
                        marks.as_entire_binding(),
                        args[(k + 1) % 3].as_entire_binding(),
                        args[(k + 2) % 3].as_entire_binding(),
                        dirty.as_entire_binding(),
                        edges.as_entire_binding(),
                    ],
                ));
            }
        }
        // The passes that list tiles a buffer asks for into a slot's list (`water/wake_requests.wgsl`,
        // `water/wake_edges.wgsl`): their groups by slot.
        let listing_groups = |kernel: &Kernel, asked: &wgpu::Buffer| {
            [0, 1, 2].map(|k| {
                let resources = [
                    slots[k].as_entire_binding(),
                    asked.as_entire_binding(),
                    lists.as_entire_binding(),
                    args[k].as_entire_binding(),
                    marks.as_entire_binding(),
                ];
                kernel.bind_group(device, &resources)
            })
        };
        let edges_kernel = Kernel::new(device, caps, "water/wake_edges", shaders::WATER_WAKE_EDGES);
        let edges_groups = listing_groups(&edges_kernel, edges);
        let requests_groups = listing_groups(&requests_kernel, &requests);
        let listing = Kernel::new(device, caps, "water/changed_tiles", shaders::WATER_CHANGED_TILES);
        let listing_group = listing.bind_group(
            device,
            &[
                slots[0].as_entire_binding(),
                dirty.as_entire_binding(),
                unpack_list.as_entire_binding(),
                unpack_args.as_entire_binding(),
            ],
        );
        let tile_cells = [("TILE_W", f64::from(cells.0)), ("TILE_H", f64::from(cells.1))];
        let wake_bodies =
            Kernel::with_constants(device, caps, "water/wake_bodies", shaders::WATER_WAKE_BODIES, &tile_cells);
        let tile_texels = [("TILE_W", f64::from(2 * pairs)), ("TILE_H", f64::from(strips * caps.strip))];
        let unpack =
            Kernel::with_constants(device, caps, "water/unpack_tiles", shaders::WATER_UNPACK_TILES, &tile_texels);
        // A packed world's runs end packed: no unpack.
        let unpack_groups = mass.map_or_else(Vec::new, |mass| {
            (0..4)
                .map(|k| {
                    let (i, j) = (k / 2, k % 2);
                    let out = &mass.views()[i];
                    unpack.bind_group(device, &[View(&page.mass[j]), View(out), unpack_list.as_entire_binding()])
                })
                .collect()
        });
        // The passes count in x alone: y and z stay 1.
        queue.write_buffer(&unpack_args, 0, bytemuck::cast_slice(&[0u32, 1, 1]));
        for a in &args {
            queue.write_buffer(a, 0, bytemuck::cast_slice(&[1u32, 1, 1]));
        }
        Self {
            step,
            requests_pass: (requests_kernel, requests_groups),
            wake_edges: (edges_kernel, edges_groups),
            wake_bodies: (wake_bodies, std::cell::OnceCell::new()),
            changed_tiles: (listing, listing_group),
            unpack: (unpack, unpack_groups),
            unpack_args,
            grid,
            cells,
            lists,
            args,
            marks,
            requests,
            dirty,
            slots,
            step_groups,
            pending: Pending::All,
        }
    }

    fn tiles(&self) -> u32 {
        self.grid.0 * self.grid.1
    }

    /// Wakes the tiles within [`super::tiles::REACH`] of the cells in `rows` x `cols` for the
    /// next step (an edit there), by requests the next run's first step takes.
    fn wake_cells(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        rows: std::ops::Range<u32>,
        cols: std::ops::Range<u32>,
    ) {
        use super::tiles::within_reach;
        let span = |r: std::ops::Range<u32>, tile: u32, count: u32| {
            let s = within_reach(r.start as usize..r.end as usize, tile as usize, count as usize);
            s.start as u64..s.end as u64
        };
        let tile_rows = span(rows, self.cells.1, self.grid.1);
        let tile_cols = span(cols, self.cells.0, self.grid.0);
        if tile_rows.is_empty() || tile_cols.is_empty() || self.pending == Pending::All {
            return;
        }
        let ones = vec![1u32; tile_cols.clone().count()];
        for tr in tile_rows {
            let at = 4 * (tr * u64::from(self.grid.0) + tile_cols.start);
            gpu::in_order::write_buffer(device, encoder, &self.requests, at, bytemuck::cast_slice(&ones));
        }
        self.pending = self.pending.max(Pending::Requests);
    }

    /// Records, before a run's compute pass whose first step is `n`, what that step needs of the
    /// lists: where every tile wakes, all of them in its slot, the next slot's count started
    /// and every mark freed.
    fn prepare(&self, device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder, n: u64) {
        let write = |encoder: &mut wgpu::CommandEncoder, buffer: &wgpu::Buffer, at: u64, words: &[u32]| {
            gpu::in_order::write_buffer(device, encoder, buffer, 4 * at, bytemuck::cast_slice(words));
        };
        write(encoder, &self.unpack_args, 0, &[0, 1, 1]);
        if self.pending == Pending::All {
            let (k, tiles) = (n % 3, self.tiles());
            let all: Vec<u32> = (0..tiles).collect();
            write(encoder, &self.lists, k * u64::from(tiles), &all);
            write(encoder, &self.args[k as usize], 0, &[tiles + 1, 1, 1]);
            write(encoder, &self.args[((k + 1) % 3) as usize], 0, &[1, 1, 1]);
            // Every tile marked listed in its slot, none in the others.
            let mut marks = vec![0; 3 * tiles as usize];
            marks[(k * u64::from(tiles)) as usize..((k + 1) * u64::from(tiles)) as usize].fill(1);
            write(encoder, &self.marks, 0, &marks);
        }
    }

    /// Records, at the start of a run's compute pass whose first step is `n`, the tiles edits
    /// asked for into that step's list. Then nothing is pending.
    fn begin_run(&mut self, pass: &mut wgpu::ComputePass<'_>, n: u64) {
        if self.pending == Pending::Requests {
            let (kernel, groups) = &self.requests_pass;
            kernel.dispatch(pass, &groups[(n % 3) as usize], self.tiles(), 1);
        }
        self.pending = Pending::Nothing;
    }

    /// Records, at the end of a run, the unpack of the tiles its steps changed from packed
    /// texture `j` into mass texture `i`: the rest of the mass texture holds their masses already.
    fn record_unpack(&self, pass: &mut wgpu::ComputePass<'_>, i: usize, j: usize) {
        self.changed_tiles.0.dispatch(pass, &self.changed_tiles.1, self.tiles(), 1);
        self.unpack.0.dispatch_indirect(pass, &self.unpack.1[i * 2 + j], &self.unpack_args, 0);
    }

    /// Records, before step `n`, the listing of the tiles around the `count` bodies of `table`
    /// (their regions, `region`) into its list.
    fn record_wake_bodies(
        &self,
        device: &wgpu::Device,
        pass: &mut wgpu::ComputePass<'_>,
        n: u64,
        (region, table, count): (&wgpu::Buffer, &wgpu::Buffer, u32),
    ) {
        let (kernel, groups) = &self.wake_bodies;
        let groups = groups.get_or_init(|| {
            [0, 1, 2].map(|k| {
                let resources = [
                    self.slots[k].as_entire_binding(),
                    region.as_entire_binding(),
                    table.as_entire_binding(),
                    self.lists.as_entire_binding(),
                    self.args[k].as_entire_binding(),
                    self.marks.as_entire_binding(),
                    self.dirty.as_entire_binding(),
                ];
                kernel.bind_group(device, &resources)
            })
        });
        kernel.dispatch(pass, &groups[(n % 3) as usize], 64 * count, 1);
    }

    /// Records, before step `n` of a page of a paged world, the listing of its edge rows' tiles
    /// the pages beside it woke.
    fn record_wake_edges(&self, pass: &mut wgpu::ComputePass<'_>, n: u64) {
        let (kernel, groups) = &self.wake_edges;
        kernel.dispatch(pass, &groups[(n % 3) as usize], 2 * self.grid.0, 1);
    }

    /// Records step `n` over the awake tiles, reading packed texture `j`, which lists the tiles
    /// awake for the next.
    fn record_step(&self, pass: &mut wgpu::ComputePass<'_>, j: usize, n: u64) {
        let k = (n % 3) as usize;
        self.step.dispatch_indirect(pass, &self.step_groups[j * 3 + k], &self.args[k], 0);
    }
}

/// Packing the mass before a run of steps (`shaders/water/pack.wgsl`: the solid cells' masses
/// negated, so that the step reads which cells are solid from the signs) and unpacking it after
/// (`shaders/common/unpack.wgsl` with `MAGNITUDE`: |m|): `pack[i]` packs mass texture `i` into
/// packed texture 0, `unpack[i][j]` unpacks packed texture `j` into mass texture `i`.
struct PackPasses {
    kernels: [Kernel; 2],
    pack: [wgpu::BindGroup; 2],
    unpack: [[wgpu::BindGroup; 2]; 2],
}

impl PackPasses {
    fn new(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        uniform: &wgpu::Buffer,
        mass: &PingPong,
        solid: &wgpu::TextureView,
        packed: &Packed,
    ) -> Self {
        let kernels = [
            Kernel::new(device, caps, "water/pack", shaders::WATER_PACK),
            Kernel::with_constants(device, caps, "water/unpack", shaders::UNPACK, &[("MAGNITUDE", 1.0)]),
        ];
        let pack = [0, 1].map(|i| {
            let entries =
                [uniform.as_entire_binding(), View(&mass.views()[i]), View(solid), View(&packed.one().mass[0])];
            kernels[0].bind_group(device, &entries)
        });
        let unpack = [0, 1].map(|i| {
            [0, 1].map(|j| kernels[1].bind_group(device, &[View(&packed.one().mass[j]), View(&mass.views()[i])]))
        });
        Self { kernels, pack, unpack }
    }
}

/// Mirrors `struct BodyRegion` in `shaders/water/body_region.wgsl` (32 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct RegionUniform {
    half: [i32; 2],
    size: [u32; 2],
    count: u32,
    _pad: [u32; 3],
}

impl RegionUniform {
    /// The region of `bodies` (module docs of [`super::bodies`]): around each body, in texels and
    /// rows, its reach, a step's motion and the cells beside it the displacement fills, with a
    /// margin.
    fn of(bodies: &[Body]) -> Self {
        let reach = bodies.iter().map(Body::reach).fold(0.0f32, f32::max);
        let cells = (reach + super::bodies::MAX_BODY_STEP + 3.0).ceil() as i32;
        let half = [(cells + 3) / 4 + 1, cells];
        let size = [(2 * half[0] + 1) as u32, (2 * half[1] + 1) as u32];
        Self { half, size, count: bodies.len() as u32, _pad: [0; 3] }
    }
}

/// The bodies' passes ([`super::bodies`]), built when the first bodies come: each step they
/// move (`water/bodies_move.wgsl`), push the water out of the cells they newly cover
/// (`water/bodies.wgsl`, over a region around each body, written into the other packed texture
/// and copied back by `water/bodies_copy.wgsl`), and after the automaton's step feel the water's
/// force (`water/body_forces.wgsl`, into the force log) and answer it (`body_dynamics.wgsl`).
struct BodyPasses {
    /// The body table ([`crate::body::table`]) and the bodies as they were before the step's move.
    table: wgpu::Buffer,
    before: wgpu::Buffer,
    region: wgpu::Buffer,
    size: [u32; 2],
    moves: (Kernel, wgpu::BindGroup),
    /// `[j]`: from packed texture `j` into `1 - j`; `copy[j]` back; `forces[j]` reads `j`.
    displace: (Kernel, [wgpu::BindGroup; 2]),
    copy: (Kernel, [wgpu::BindGroup; 2]),
    forces: (Kernel, [wgpu::BindGroup; 2]),
    dynamics: BodyDynamics,
    log: ForceLog,
    /// The bodies as the steps recorded so far leave them (the free ones as the last read of
    /// the force log found them, moved on at the velocity they had then).
    list: Vec<Body>,
    /// The free bodies' contact points.
    contacts: ContactPlan,
}

impl BodyPasses {
    fn new(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        uniform: &wgpu::Buffer,
        solid: &wgpu::TextureView,
        packed: &Packed,
    ) -> Self {
        let table = crate::body::table::table(device, "water/bodies");
        let before = crate::body::table::table(device, "water/bodies before");
        let region = gpu::uniform_buffer(device, "water/body region", std::mem::size_of::<RegionUniform>());
        let log = ForceLog::with_bodies(device, caps, "water/force log", &table);
        let moves = Kernel::new(device, caps, "water/bodies_move", shaders::WATER_BODIES_MOVE);
        let moves_group = moves
            .bind_group(device, &[region.as_entire_binding(), table.as_entire_binding(), before.as_entire_binding()]);
        let displace = Kernel::new(device, caps, "water/bodies", shaders::WATER_BODIES);
        let displace_groups = [0, 1].map(|j| {
            displace.bind_group(
                device,
                &[
                    uniform.as_entire_binding(),
                    region.as_entire_binding(),
                    table.as_entire_binding(),
                    before.as_entire_binding(),
                    View(solid),
                    View(&packed.one().mass[j]),
                    View(&packed.one().mass[1 - j]),
                ],
            )
        });
        let copy = Kernel::new(device, caps, "water/bodies_copy", shaders::WATER_BODIES_COPY);
        let copy_groups = [0, 1].map(|j| {
            copy.bind_group(
                device,
                &[
                    region.as_entire_binding(),
                    table.as_entire_binding(),
                    View(&packed.one().mass[1 - j]),
                    View(&packed.one().mass[j]),
                ],
            )
        });
        let forces = Kernel::new(device, caps, "water/body_forces", shaders::WATER_BODY_FORCES);
        let forces_groups = [0, 1].map(|j| {
            forces.bind_group(
                device,
                &[
                    uniform.as_entire_binding(),
                    region.as_entire_binding(),
                    table.as_entire_binding(),
                    View(solid),
                    View(&packed.one().mass[j]),
                    log.buffer.as_entire_binding(),
                ],
            )
        });
        let dynamics = BodyDynamics::new(device, caps, &table, &log.buffer);
        Self {
            table,
            before,
            region,
            size: [0, 0],
            moves: (moves, moves_group),
            displace: (displace, displace_groups),
            copy: (copy, copy_groups),
            forces: (forces, forces_groups),
            dynamics,
            log,
            list: Vec::new(),
            contacts: ContactPlan::default(),
        }
    }

    /// Records the write of `bodies` into the table, the region's uniform and the dynamics'
    /// parameters for `params` on a `(w, h)` grid.
    fn encode_write(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        bodies: &[Body],
        params: &WaterParams,
        (w, h): (u32, u32),
    ) {
        self.list = bodies.to_vec();
        self.log.bodies_replaced();
        crate::body::table::encode_write(device, encoder, &self.table, bodies);
        let region = RegionUniform::of(bodies);
        self.size = region.size;
        gpu::in_order::write_buffer(device, encoder, &self.region, 0, bytemuck::bytes_of(&region));
        self.encode_params(device, encoder, params, (w, h));
    }

    /// Records the write of the dynamics' parameters for `params` on a `(w, h)` grid.
    fn encode_params(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        params: &WaterParams,
        (w, h): (u32, u32),
    ) {
        let d = super::bodies::dynamics(params, (w as usize, h as usize));
        self.dynamics.encode_params(device, encoder, &d, self.list.len());
    }

    /// Records the displacement from packed texture `j` (into `1 - j`, copied back into `j`).
    fn dispatch_displace(&self, pass: &mut wgpu::ComputePass<'_>, j: usize) {
        let [x, y] = self.size;
        let n = self.list.len() as u32;
        self.displace.0.dispatch_layers(pass, &self.displace.1[j], x, y, n);
        self.copy.0.dispatch_layers(pass, &self.copy.1[j], x, y, n);
    }
}

/// The water model on a wgpu device.
///
/// Textures (`W x H` texels for an `(H, W)` grid, texel `(x, y)` = cell `(row y, col x)`):
/// mass `r32float` ping-pong, solid bits `r32uint` (see [`GpuWater::solid_view`]); and for the
/// step, packed four cells a texel (see the module docs), the mass ping-pong, each solid
/// cell's mass stored negated (the step's solid bits are the signs). Every pass reads through
/// read-only storage bindings: on lavapipe an image load costs about half of a sampled
/// `textureLoad`.
/// Holds clones of the device and queue it was made with (an application's own, or
/// [`crate::gpu::Gpu`]'s).
pub struct GpuWater {
    device: wgpu::Device,
    queue: wgpu::Queue,
    width: u32,
    height: u32,
    params: WaterParams,
    uniform: wgpu::Buffer,
    layout: Layout,
    solid_mask: Grid<u8>,
    packed: Packed,
    step: StepPass,
    /// The bodies' passes, once bodies came (`None` before).
    bodies: Option<BodyPasses>,
    /// While still water sleeps ([`GpuWater::set_sleeping`]), the tiles' passes, a page each
    /// (none: every cell is stepped).
    tiles: Vec<TilePasses>,
    /// While the water sleeps, the packed texture that holds the masses now, if one does: a run
    /// continues from it instead of packing the mass again (an edit, new walls, parameters or
    /// bodies clear it). In a packed world always the one that holds them.
    packed_now: Option<usize>,
    steps: u64,
    /// The caps it was built with, for what is built later to draw it (the surface look's foam).
    caps: DeviceCaps,
}

impl GpuWater {
    /// Uploads `state` and builds the passes.
    ///
    /// # Errors
    /// [`Error::Param`] for invalid `params`; [`GpuError::GridTooLarge`] when a side is 0 or above
    /// the device's `max_texture_dimension_2d`; [`GpuError::Validation`] / `OutOfMemory` if the
    /// device rejects a resource.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        state: &WaterState,
        params: WaterParams,
    ) -> Result<Self, Error> {
        Self::with_caps(device, &DeviceCaps::of(device), queue, state, params)
    }

    /// [`GpuWater::new`] with `device`'s caps handed in rather than derived: the step walks
    /// [`DeviceCaps::strip`] texel rows an invocation (1 or more), so a test can run every strip
    /// on one adapter and find the same result.
    ///
    /// # Errors
    /// As [`GpuWater::new`].
    ///
    /// # Panics
    /// When `caps.strip` is 0.
    pub fn with_caps(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        queue: &wgpu::Queue,
        state: &WaterState,
        params: WaterParams,
    ) -> Result<Self, Error> {
        assert!(caps.strip > 0, "a strip of no rows");
        params.validate()?;
        super::bodies::check(&state.bodies)?;
        super::bodies::check_arithmetic(&state.bodies, &params)?;
        let (h, w) = state.shape();
        gpu::check_device(device, "water", super::STORAGE_TEXTURES_PER_STAGE)?;
        // One page unless the world is past what one texture holds (then a packed world).
        let pages = super::packed_world::pages(w as u32, h as u32, caps);
        let packed_world = super::packed_world::is_packed_world((w, h), caps.max_texture_side) || pages.len() > 1;
        if packed_world {
            super::packed_world::check_size(w, h, caps.max_texture_side)?;
            check_no_bodies(&state.bodies, caps.max_texture_side)?;
        } else {
            gpu::check_grid_size(device, w, h)?;
        }
        let (width, height) = (w as u32, h as u32);
        let mut sim = gpu::scoped(device, || {
            let uniform = gpu::uniform_buffer(device, "water/params", std::mem::size_of::<WaterUniform>());
            let packed = Packed::new(device, (width, height), pages);
            let step = StepPass::new(device, caps, &uniform, &packed, params.arithmetic);
            let layout = match packed_world {
                false => Layout::Cells(Box::new(Cells::new(device, caps, &uniform, &packed, (width, height)))),
                true => {
                    let (label, source) = ("water/stats_packed", shaders::WATER_STATS_PACKED);
                    let first = gpu::Reduction::new(device, caps, label, source, packed.pages[0].rows.len() as u32);
                    let rest: Vec<_> =
                        packed.pages[1..].iter().map(|p| first.sibling(device, p.rows.len() as u32)).collect();
                    let stats = std::iter::once(first).chain(rest).collect();
                    Layout::Packed(Box::new(PackedWorld {
                        edit: Kernel::new(device, caps, "water/edit_packed", shaders::WATER_EDIT_PACKED),
                        stats,
                        hash: Kernel::new(device, caps, "water/hash_packed", shaders::WATER_HASH_PACKED),
                    }))
                }
            };
            GpuWater {
                device: device.clone(),
                queue: queue.clone(),
                width,
                height,
                params,
                uniform,
                layout,
                solid_mask: state.solid.clone(),
                packed,
                step,
                bodies: None,
                tiles: Vec::new(),
                packed_now: packed_world.then_some(0),
                steps: 0,
                caps: caps.clone(),
            }
        })?;
        sim.queue.write_buffer(&sim.uniform, 0, bytemuck::bytes_of(&WaterUniform::new(&params, width)));
        match &sim.layout {
            Layout::Cells(_) => {
                sim.upload_mass(&state.mass);
                sim.upload_solid(&state.solid)?;
            }
            Layout::Packed(_) => sim.upload_packed(state),
        }
        if !state.bodies.is_empty() {
            sim.set_bodies(&state.bodies)?;
        }
        Ok(sim)
    }

    /// From the next step on, steps only the tiles where something can change (`Some(pairs)`:
    /// tiles of `pairs` columns of two texels across, `8 pairs` cells, and `64 / pairs` strips
    /// of [`DeviceCaps::strip`] rows down, the strip doubled where the grid would have as many
    /// tiles as the device's `max_compute_workgroups_per_dimension`), or every cell (`None`, the
    /// default). The masses are the same to the bit either way ([`super::tiles`]); with bodies
    /// in the water, the tiles around them are stepped each step. A paged world
    /// ([`super::packed_world`], "Pages") has tiles of its own in each page, woken across the
    /// pages' edges (`water/wake_edges.wgsl`).
    ///
    /// # Errors
    /// [`Error::Message`] when `pairs` is not a power of two from 1 to 64; [`GpuError`]s of
    /// building the passes.
    pub fn set_sleeping(&mut self, pairs: Option<u32>) -> Result<(), Error> {
        let Some(pairs) = pairs else {
            self.tiles.clear();
            return Ok(());
        };
        if !(1..=64).contains(&pairs) || !pairs.is_power_of_two() {
            return Err(Error::Message(format!(
                "tiles of {pairs} texel pairs across: give a power of two from 1 to 64 (a tile is a workgroup of 64)"
            )));
        }
        let most = self.device.limits().max_compute_workgroups_per_dimension;
        let (device, queue, uniform) = (&self.device, &self.queue, &self.uniform);
        let (mass, arithmetic) = (self.cells().map(|c| &c.mass), self.params.arithmetic);
        let count = self.packed.pages.len() as u32;
        // The wakes across the pages' edges: two words a tile column a page (tiles are 8 pairs
        // cells across at most, so this is enough columns for any page's tiles).
        let columns = u64::from(self.width.div_ceil(8 * pairs));
        let edges = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("water/tile wakes across the pages' edges"),
            size: 4 * 2 * columns * u64::from(count),
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false, // zeroed, as every new buffer is
        });
        let passes = gpu::scoped(device, || {
            let pages = self.packed.pages.iter().enumerate().map(|(i, page)| {
                let size = (self.width, page.rows.len() as u32);
                let caps = DeviceCaps { strip: tile_strip(size, pairs, self.caps.strip, most), ..self.caps.clone() };
                let pages = ((i as u32, count), &edges);
                TilePasses::new(device, queue, &caps, uniform, page, mass, size, pairs, arithmetic, pages)
            });
            pages.collect::<Vec<_>>()
        })?;
        self.tiles = passes;
        self.mass_edited();
        Ok(())
    }

    /// The tiles' width this adapter takes by default, in columns of two texels: 16 on a CPU
    /// adapter (128 x 128 cells with its strips of 32 rows), 8 elsewhere (64 x 64 cells): each
    /// tile about one dense workgroup's cells.
    pub fn default_tile_pairs(&self) -> u32 {
        if self.caps.runs_on_cpu { 16 } else { 8 }
    }

    /// A tile's `(width, height)` in cells while the water sleeps ([`GpuWater::set_sleeping`]).
    pub fn tile_cells(&self) -> Option<(u32, u32)> {
        self.tiles.first().map(|t| t.cells)
    }

    /// While the water sleeps, the tiles the next step takes, of how many (waits for the GPU): as
    /// the last step listed them, every tile after a new state, parameters or bodies; an edit
    /// since the last step adds its tiles only when the next run starts, and bodies theirs when
    /// the step starts. `None` while every cell is stepped.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn awake_tiles(&self) -> Result<Option<super::tiles::AwakeTiles>, GpuError> {
        let Some(first) = self.tiles.first() else { return Ok(None) };
        let (mut awake, mut all) = (0, 0);
        // A page's tiles each (a world in one texture has one page).
        for t in &self.tiles {
            all += t.tiles();
            if t.pending == Pending::All {
                awake += t.tiles();
                continue;
            }
            let mut encoder = self.device.create_command_encoder(&Default::default());
            let args = &t.args[(self.steps % 3) as usize];
            let copy = gpu::copy_for_reading(&self.device, &mut encoder, "water/awake count readback", args, 0, 4);
            self.queue.submit([encoder.finish()]);
            let bytes = gpu::map_read(&self.device, &copy, 4)?;
            // One workgroup more than the tiles listed.
            awake += u32::from_le_bytes(bytes[..4].try_into().expect("4 bytes")) - 1;
        }
        Ok(Some(super::tiles::AwakeTiles { awake, all, cells: first.cells }))
    }

    /// Rebuilds the steps for the arithmetic of the parameters now and, in fixed point, records
    /// the rounding of every mass down to the unit (a brush over the whole grid that changes no
    /// mass but rounds it).
    fn set_arithmetic(&mut self, encoder: &mut wgpu::CommandEncoder) -> Result<(), Error> {
        let (device, caps, arithmetic) = (&self.device, &self.caps, self.params.arithmetic);
        let (uniform, packed) = (&self.uniform, &self.packed);
        self.step = gpu::scoped(device, || StepPass::new(device, caps, uniform, packed, arithmetic))?;
        if let Some(pairs) = self.tiles.first().map(|t| t.cells.0 / 8) {
            self.set_sleeping(Some(pairs))?;
        }
        if arithmetic == Arithmetic::Fixed {
            let (w, h) = (self.width as f32, self.height as f32);
            let everywhere = Brush { center: (w / 2.0, h / 2.0), radius: w + h, scale: 1.0, add: 0.0 };
            self.encode_brush(encoder, &everywhere);
        }
        Ok(())
    }

    /// Wakes the tiles within [`super::tiles::REACH`] of the cells in `rows` x `cols` (the
    /// world's) for the next step, in each page whose rows they reach.
    fn wake_cells(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        rows: &std::ops::Range<u32>,
        cols: &std::ops::Range<u32>,
    ) {
        // A page's halo holds its neighbours' edge rows: an edit within reach of its own rows
        // wakes its tiles there (a world in one texture wakes as `Tiles::wake_cells` does).
        let reach = if self.packed.is_paged() { super::tiles::REACH as u32 } else { 0 };
        for (t, page) in self.tiles.iter_mut().zip(&self.packed.pages) {
            let near = rows.start.saturating_sub(reach)..rows.end + reach;
            let own = near.start.max(page.rows.start)..near.end.min(page.rows.end);
            if !own.is_empty() {
                let local = own.start - page.rows.start..own.end - page.rows.start;
                t.wake_cells(&self.device, encoder, local, cols.clone());
            }
        }
    }

    /// Every tile awake for the next step (the water was replaced or edited everywhere).
    fn wake_all(&mut self) {
        for t in &mut self.tiles {
            t.pending = Pending::All;
        }
        self.mass_edited();
    }

    /// The one-cell-a-texel textures, but in a packed world.
    fn cells(&self) -> Option<&Cells> {
        match &self.layout {
            Layout::Cells(c) => Some(c),
            Layout::Packed(_) => None,
        }
    }

    /// Whether the world is past the adapter's largest texture side, its masses kept packed
    /// alone ([`super::packed_world`]): then it keeps no one-cell textures (its masses are
    /// [`GpuWater::packed_world_pages`], not [`GpuWater::mass_view`]) and takes no bodies.
    pub fn is_packed_world(&self) -> bool {
        matches!(self.layout, Layout::Packed(_))
    }

    /// The mass texture was written: the next run packs it again. (A packed world's masses are
    /// where they were.)
    fn mass_edited(&mut self) {
        if let Layout::Cells(_) = self.layout {
            self.packed_now = None;
        }
    }

    /// The packed texture that holds the masses now, in a packed world.
    fn packed_current(&self) -> usize {
        self.packed_now.unwrap_or(0)
    }

    /// Uploads `state` into a packed world's current packed textures
    /// ([`super::packed_world::pack`]), in fixed point rounded down to the unit first, each page
    /// with its halos, and the halos past the world's edges, which no step writes, into the other
    /// textures too; and wakes every tile.
    fn upload_packed(&mut self, state: &WaterState) {
        let texels = super::packed_world::pack(state, self.params.boundary, self.params.arithmetic);
        let (pw, boundary, j) = (self.packed.size.0 as usize, self.params.boundary, self.packed_current());
        for page in &self.packed.pages {
            let texels = super::packed_world::page_texels(&texels, pw, &page.rows, page.halo, boundary);
            gpu::upload(&self.queue, &page.textures[j], bytemuck::cast_slice(&texels), 16);
        }
        if self.packed.is_paged() {
            let mut encoder = self.device.create_command_encoder(&Default::default());
            self.encode_edge_halos(&mut encoder);
            self.queue.submit([encoder.finish()]);
        }
        for t in &mut self.tiles {
            t.pending = Pending::All;
        }
    }

    /// Records a packed world's edit over the box of texels `texels` x `rows` (the world's; the
    /// brush `b`, and the walls of `walls` over the box, when given), in recording order: page
    /// by page, the box is written into the other packed texture and copied back; a paged world's
    /// halos are copied again after.
    fn encode_packed_edit(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        b: &Brush,
        (texels, rows): (std::ops::Range<u32>, std::ops::Range<u32>),
        walls: Option<&Grid<u8>>,
    ) {
        let Layout::Packed(world) = &self.layout else { return };
        let j = self.packed_current();
        for page in &self.packed.pages {
            let own = rows.start.max(page.rows.start)..rows.end.min(page.rows.end);
            if !own.is_empty() {
                let bits = walls.map(|solid| {
                    let (r, x) = (own.start as usize..own.end as usize, texels.start as usize..texels.end as usize);
                    super::packed_world::wall_bits(solid, r, x)
                });
                let box_rows = own.start - page.rows.start + page.halo..own.end - page.rows.start + page.halo;
                self.encode_page_edit(encoder, world, page, j, b, (texels.clone(), box_rows), bits.as_deref());
            }
        }
        if self.packed.is_paged() {
            self.packed.encode_halos(encoder, j);
        }
    }

    /// [`GpuWater::encode_packed_edit`] of `page`, over the box of its texture's texels `texels` x
    /// `rows` (halo rows included: rows past the world's edges are set to the cells beyond
    /// them), from its packed texture `j`, with `walls` the box's wall bits when given.
    #[allow(clippy::too_many_arguments)]
    fn encode_page_edit(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        world: &PackedWorld,
        page: &Page,
        j: usize,
        b: &Brush,
        (texels, rows): (std::ops::Range<u32>, std::ops::Range<u32>),
        walls: Option<&[u32]>,
    ) {
        if texels.is_empty() || rows.is_empty() {
            return;
        }
        use wgpu::util::DeviceExt;
        let u = PackedEditUniform {
            brush: BrushUniform::of(b, self.params.arithmetic),
            walls: walls.is_some() as u32,
            row_offset: page.rows.start as i32 - page.halo as i32,
            origin: [texels.start, rows.start],
            size: [texels.len() as u32, rows.len() as u32],
            height: self.height,
            _pad: [0; 3],
        };
        // Per-edit storage: an encoder may hold many edits.
        let buffer = |label: &str, contents: &[u8], usage: wgpu::BufferUsages| {
            self.device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage })
        };
        let uniform = buffer("water/packed edit", bytemuck::bytes_of(&u), wgpu::BufferUsages::UNIFORM);
        let bits =
            buffer("water/packed edit walls", bytemuck::cast_slice(walls.unwrap_or(&[0])), wgpu::BufferUsages::STORAGE);
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("water packed edit"),
                timestamp_writes: None,
            });
            let resources = [
                self.uniform.as_entire_binding(),
                uniform.as_entire_binding(),
                View(&page.mass[j]),
                View(&page.mass[1 - j]),
                bits.as_entire_binding(),
            ];
            world.edit.dispatch_once(&mut pass, &self.device, &resources, u.size[0], u.size[1]);
        }
        let at = |texture| wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: 0,
            origin: wgpu::Origin3d { x: texels.start, y: rows.start, z: 0 },
            aspect: wgpu::TextureAspect::All,
        };
        let extent = wgpu::Extent3d { width: u.size[0], height: u.size[1], depth_or_array_layers: 1 };
        encoder.copy_texture_to_texture(at(&page.textures[1 - j]), at(&page.textures[j]), extent);
    }

    /// Uploads `mass`, in fixed point rounded down to the unit ([`super::fixed::quantize`]).
    fn upload_mass(&mut self, mass: &Grid<f32>) {
        let Layout::Cells(cells) = &self.layout else { return };
        let quantized;
        let mass = match self.params.arithmetic {
            Arithmetic::Float => mass,
            Arithmetic::Fixed => {
                let mut m = mass.clone();
                super::fixed::quantize_grid(&mut m);
                quantized = m;
                &quantized
            }
        };
        gpu::upload(&self.queue, cells.mass.current(), bytemuck::cast_slice(mass.as_slice()), 4);
        self.mass_edited();
    }

    /// Replaces the solid mask (`(H, W)`, non-zero = ground) and empties the cells that became
    /// solid, at once ([`GpuWater::encode_solid`] in an encoder of its own, submitted).
    ///
    /// # Errors
    /// As [`GpuWater::encode_solid`].
    pub fn upload_solid(&mut self, solid: &Grid<u8>) -> Result<(), GpuError> {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        self.encode_solid(&mut encoder, solid)?;
        self.queue.submit([encoder.finish()]);
        Ok(())
    }

    /// Records the replacement of the solid mask (`(H, W)`, non-zero = ground) into `encoder`:
    /// the solid bits are written and the cells that became solid emptied where the encoder has
    /// got to, after the steps and edits recorded before and before those recorded after.
    /// [`GpuWater::solid_mask`] gives the new mask at once.
    ///
    /// # Errors
    /// [`GpuError::Validation`] if `solid`'s shape differs from the grid's; nothing is recorded.
    pub fn encode_solid(&mut self, encoder: &mut wgpu::CommandEncoder, solid: &Grid<u8>) -> Result<(), GpuError> {
        if solid.shape() != (self.height as usize, self.width as usize) {
            return Err(GpuError::Validation(format!(
                "solid mask is {:?}, grid is ({}, {})",
                solid.shape(),
                self.height,
                self.width
            )));
        }
        let (rows, cols) = {
            let (h, w) = solid.shape();
            let changed = (0..h).flat_map(|r| (0..w).map(move |c| (r, c)));
            let changed = changed.filter(|&(r, c)| (solid[(r, c)] != 0) != (self.solid_mask[(r, c)] != 0));
            // The rectangle around them (empty when none changed).
            let (mut top, mut bottom, mut left, mut right) = (u32::MAX, 0, u32::MAX, 0);
            for (r, c) in changed {
                (top, bottom) = (top.min(r as u32), bottom.max(r as u32 + 1));
                (left, right) = (left.min(c as u32), right.max(c as u32 + 1));
            }
            (top..bottom, left..right)
        };
        self.wake_cells(encoder, &rows, &cols);
        self.solid_mask = solid.clone();
        if let Some(b) = &mut self.bodies {
            b.contacts.replan(self.steps); // the walls changed
        }
        if self.is_packed_world() {
            // The walls of the texels the rectangle touches, no brush.
            let texels = cols.start / 4..cols.end.div_ceil(4);
            self.encode_packed_edit(encoder, &NO_BRUSH, (texels, rows), Some(solid));
            return Ok(());
        }
        self.encode_solid_bits(encoder);
        // A zero-radius brush changes nothing but empties solid cells.
        self.encode_brush(encoder, &NO_BRUSH);
        Ok(())
    }

    /// Records the write of the solid bits of the mask and boundary in use (the next run of
    /// steps packs them into its masses' signs). In a packed world, the padding cells past the
    /// last column are rewritten instead, as the step reads the cells beyond the edge with the
    /// boundary in use.
    fn encode_solid_bits(&mut self, encoder: &mut wgpu::CommandEncoder) {
        self.mass_edited();
        let Layout::Cells(cells) = &self.layout else {
            let last = self.packed.size.0 - 1;
            self.encode_packed_edit(encoder, &NO_BRUSH, (last..last + 1, 0..self.height), None);
            self.encode_edge_halos(encoder);
            return;
        };
        let bits = solid_bits(&self.solid_mask, self.params.boundary);
        gpu::in_order::upload(&self.device, encoder, &cells.solid, bytemuck::cast_slice(&bits), 4);
    }

    /// Records the rewrite of a paged world's halos past its top and bottom edges (both packed
    /// textures) as the step reads the cells beyond them with the boundary in use.
    fn encode_edge_halos(&self, encoder: &mut wgpu::CommandEncoder) {
        let (Layout::Packed(world), true) = (&self.layout, self.packed.is_paged()) else { return };
        let (first, last) = (&self.packed.pages[0], &self.packed.pages[self.packed.pages.len() - 1]);
        let texels = 0..self.packed.size.0;
        let below = last.halo + last.rows.len() as u32..2 * last.halo + last.rows.len() as u32;
        // The edit writes the box into the other texture and copies it back: both hold it.
        let j = self.packed_current();
        self.encode_page_edit(encoder, world, first, j, &NO_BRUSH, (texels.clone(), 0..first.halo), None);
        self.encode_page_edit(encoder, world, last, j, &NO_BRUSH, (texels, below), None);
    }

    /// Applies a brush edit now ([`GpuWater::encode_brush`] in an encoder of its own,
    /// submitted).
    pub fn brush(&mut self, b: &Brush) {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        self.encode_brush(&mut encoder, b);
        self.queue.submit([encoder.finish()]);
    }

    /// Records a brush edit into `encoder` (its uniform written by a recorded copy, then one
    /// compute pass), in recording order: it acts on the mass the steps recorded before it
    /// leave, and the steps recorded after it see its result.
    pub fn encode_brush(&mut self, encoder: &mut wgpu::CommandEncoder, b: &Brush) {
        // The cells whose centres the disc may hold.
        let span = |centre: f32, n: u32| {
            let lo = (centre - b.radius - 0.5).floor().clamp(0.0, n as f32) as u32;
            let hi = (centre + b.radius + 0.5).ceil().clamp(0.0, n as f32) as u32;
            lo..hi
        };
        let (rows, cols) = (span(b.center.1, self.height), span(b.center.0, self.width));
        self.wake_cells(encoder, &rows, &cols);
        if self.is_packed_world() {
            let texels = cols.start / 4..cols.end.div_ceil(4);
            self.encode_packed_edit(encoder, b, (texels, rows), None);
            return;
        }
        self.mass_edited(); // the brush writes the mass
        let u = BrushUniform::of(b, self.params.arithmetic);
        if let Layout::Cells(cells) = &mut self.layout {
            cells.brush.encode(&self.device, encoder, &mut cells.mass, bytemuck::bytes_of(&u));
        }
    }

    /// Reads the mass field back: `(H, W)` f32, row 0 at top. Waits for the GPU (native
    /// targets; see [`GpuWater::read_mass_async`]).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn read_mass(&self) -> Result<Grid<f32>, GpuError> {
        gpu::wait(&self.device, self.read_mass_async())?
    }

    /// [`GpuWater::read_mass`] as a future that never blocks: it completes once the device
    /// has been polled after the GPU did the work (a frame loop's `device.poll`, any submit, a
    /// browser's event loop; see `gpu::read_texture_async`).
    ///
    /// # Errors
    /// As [`GpuWater::read_mass`].
    pub async fn read_mass_async(&self) -> Result<Grid<f32>, GpuError> {
        match self.cells() {
            Some(cells) => gpu::read_r32float_async(&self.device, &self.queue, cells.mass.current()).await,
            None => read_packed_world(&self.device, &self.queue, &self.state_textures(), &self.page_layout()).await,
        }
    }

    /// The hash of the water now ([`super::hash`]): its masses' and walls' bits as 64 bits, the
    /// same as [`super::hash::state_hash`] of the state [`crate::Simulation::read_state`] gives. Waits
    /// for the GPU (native targets; see [`GpuWater::state_hash_async`]).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn state_hash(&self) -> Result<u64, GpuError> {
        gpu::wait(&self.device, self.state_hash_async())?
    }

    /// [`GpuWater::state_hash`] as a future: the pass is recorded and submitted now
    /// ([`GpuWater::encode_state_hash`] in an encoder of its own), the rows' sums read back when
    /// it resolves.
    ///
    /// # Errors
    /// As [`GpuWater::state_hash`].
    pub fn state_hash_async(&self) -> impl Future<Output = Result<u64, GpuError>> + 'static {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        let copy = self.encode_state_hash(&mut encoder);
        self.queue.submit([encoder.finish()]);
        copy.read(self.device.clone())
    }

    /// Records the state hash's pass and the copy of its rows' sums into `encoder`, in recording
    /// order: it hashes the water the steps recorded before it leave. Once the encoder is
    /// submitted, [`StateHashCopy::read`] gives the hash.
    pub fn encode_state_hash(&self, encoder: &mut wgpu::CommandEncoder) -> StateHashCopy {
        let len = 8 * u64::from(self.height);
        let rows = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("water/hash rows"),
            size: len,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        {
            let mut pass = encoder
                .begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("water hash"), timestamp_writes: None });
            match &self.layout {
                Layout::Cells(c) => {
                    let resources = [View(c.mass.current_view()), View(&c.solid_view), rows.as_entire_binding()];
                    c.hash.dispatch_once(&mut pass, &self.device, &resources, self.height, 1);
                }
                Layout::Packed(world) => {
                    for page in &self.packed.pages {
                        let packed = View(&page.mass[self.packed_current()]);
                        let (params, page_uniform) =
                            (self.uniform.as_entire_binding(), page.uniform.as_entire_binding());
                        let resources = [params, packed, rows.as_entire_binding(), page_uniform];
                        world.hash.dispatch_once(&mut pass, &self.device, &resources, page.rows.len() as u32, 1);
                    }
                }
            }
        }
        StateHashCopy::new(&self.device, encoder, &rows, len)
    }

    /// With bodies, a readable copy of the body table (recorded and submitted now) and the
    /// number of bodies.
    fn bodies_copy(&self) -> Option<(wgpu::Buffer, usize)> {
        let n = self.body_list().len();
        let b = self.bodies.as_ref()?;
        (n > 0).then(|| (crate::body::table::copy(&self.device, &self.queue, &b.table, n), n))
    }

    /// [`GpuModel::encode_bodies`], the water in the cells the bodies cover pushed out where
    /// `place` (a pack, the displacement with no bodies before, an unpack).
    fn encode_bodies_placed(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        bodies: &[Body],
        place: bool,
    ) -> Result<(), Error> {
        super::bodies::check(bodies)?;
        let Layout::Cells(cells) = &self.layout else {
            return check_no_bodies(bodies, self.caps.max_texture_side);
        };
        let solid_view = cells.solid_view.clone();
        // The solid bits without the old bodies' cells (the step's displacement marks the new).
        self.encode_solid_bits(encoder);
        if bodies.is_empty() && self.bodies.is_none() {
            return Ok(());
        }
        if self.bodies.is_none() {
            let passes = BodyPasses::new(&self.device, &self.caps, &self.uniform, &solid_view, &self.packed);
            self.bodies = Some(passes);
        }
        let size = (self.width, self.height);
        let b = self.bodies.as_mut().expect("built above");
        b.encode_write(&self.device, encoder, bodies, &self.params, size);
        b.contacts.replan(self.steps);
        if bodies.is_empty() {
            return Ok(());
        }
        // Placed, the bodies were nowhere before (a reach2 below 0 holds no point), so every cell
        // they cover is newly covered; restored, they were where they are.
        let before: Vec<GpuBody> = match place {
            true => bodies
                .iter()
                .map(|body| {
                    let mut nowhere = body.gpu();
                    nowhere.reach2 = -1.0;
                    nowhere
                })
                .collect(),
            false => bodies.iter().map(Body::gpu).collect(),
        };
        gpu::in_order::write_buffer(&self.device, encoder, &b.before, 0, bytemuck::cast_slice(&before));
        let mut pass = encoder
            .begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("water bodies"), timestamp_writes: None });
        let Layout::Cells(cells) = &self.layout else { return Ok(()) };
        let i = cells.mass.read_index();
        let (w, h) = self.packed.size;
        let [pack, unpack] = &cells.packing.kernels;
        pack.dispatch(&mut pass, &cells.packing.pack[i], w, h);
        b.dispatch_displace(&mut pass, 0);
        unpack.dispatch(&mut pass, &cells.packing.unpack[i][0], w, h);
        Ok(())
    }

    /// The statistics' reductions of the layout in use (a packed world's, a page each).
    fn stats(&self) -> &[gpu::Reduction] {
        match &self.layout {
            Layout::Cells(c) => std::slice::from_ref(&c.stats),
            Layout::Packed(world) => &world.stats,
        }
    }

    /// Where a packed world's rows are in its pages.
    fn page_layout(&self) -> PageLayout {
        PageLayout {
            rows: self.packed.pages.iter().map(|p| p.rows.clone()).collect(),
            halo: self.packed.pages[0].halo,
            size: (self.width, self.height),
        }
    }

    /// The caps of the device it runs on, as it was built with them.
    pub fn caps(&self) -> &DeviceCaps {
        &self.caps
    }

    /// The current mass texture (`r32float`), e.g. to render it.
    ///
    /// # Panics
    /// In a packed world ([`GpuWater::is_packed_world`]), which keeps no such texture: its
    /// masses are [`GpuWater::packed_world_pages`].
    pub fn mass_view(&self) -> &wgpu::TextureView {
        self.cells().expect(NO_CELLS).mass.current_view()
    }

    /// A packed world's pages ([`super::packed_world`]): each page's packed mass texture that
    /// holds the masses now (`rgba32float`, `ceil(W / 4)` texels across, cell `(row y, column
    /// 4x + k)` in component `k` of texel `(x, y - rows.start + halo)`, a wall's mass stored
    /// negated), e.g. to render them; none for water kept one cell a texel
    /// ([`GpuWater::mass_view`]). A world one texture holds is one page without halo.
    pub fn packed_world_pages(&self) -> Vec<PackedPage<'_>> {
        if !self.is_packed_world() {
            return Vec::new();
        }
        let j = self.packed_current();
        self.packed.pages.iter().map(|p| PackedPage { view: &p.mass[j], rows: p.rows.clone(), halo: p.halo }).collect()
    }

    /// The solid texture (`r32uint`): bit 0 = the cell is solid; bits 1..=4 = the cell below,
    /// left, right, above is solid (the `SOLID_*` constants of `shaders/water/params.wgsl`).
    ///
    /// # Panics
    /// As [`GpuWater::mass_view`].
    pub fn solid_view(&self) -> &wgpu::TextureView {
        &self.cells().expect(NO_CELLS).solid_view
    }
}

/// The contract every model keeps ([`GpuModel`]); the steps run in one compute pass (the mass
/// packed, one dispatch a step, the mass unpacked; see the module docs), and the statistics are
/// a reduction pass (`shaders/water/stats.wgsl`; one row of numbers per grid row is read back):
/// total mass, wet cells, extremes and non-finite cells.
impl GpuModel for GpuWater {
    type State = WaterState;
    type Params = WaterParams;
    type Stats = WaterStats;
    const NAME: &'static str = "water";

    fn new(device: &wgpu::Device, queue: &wgpu::Queue, state: &WaterState, params: WaterParams) -> Result<Self, Error> {
        GpuWater::new(device, queue, state, params)
    }

    fn device(&self) -> &wgpu::Device {
        &self.device
    }

    fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    fn params(&self) -> WaterParams {
        self.params
    }

    /// The uniform, and the solid bits when the boundary changes, by recorded copies; a change
    /// of arithmetic rebuilds the steps and, into fixed point, rounds every mass down to the unit
    /// ([`super::fixed`]). Refuses fixed point while bodies are in the water
    /// ([`super::bodies::check_arithmetic`]).
    fn encode_params(&mut self, encoder: &mut wgpu::CommandEncoder, params: WaterParams) -> Result<(), Error> {
        params.validate()?;
        super::bodies::check_arithmetic(self.body_list(), &params)?;
        let boundary_changed = params.boundary != self.params.boundary;
        let arithmetic_changed = params.arithmetic != self.params.arithmetic;
        self.params = params;
        let uniform = WaterUniform::new(&params, self.width);
        gpu::in_order::write_buffer(&self.device, encoder, &self.uniform, 0, bytemuck::bytes_of(&uniform));
        if boundary_changed {
            self.encode_solid_bits(encoder);
        }
        if arithmetic_changed {
            self.set_arithmetic(encoder)?;
        }
        self.wake_all(); // the rules changed everywhere
        if let Some(bodies) = &self.bodies {
            bodies.encode_params(&self.device, encoder, &params, (self.width, self.height));
        }
        Ok(())
    }

    fn encode_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u32) {
        if steps == 0 {
            return;
        }
        if self.packed.is_paged() {
            // A pass a step: the halos are copied between them.
            let first = self.packed_current();
            for t in &self.tiles {
                t.prepare(&self.device, encoder, self.steps);
            }
            for s in 0..steps as usize {
                let (j, n) = ((first + s) % 2, self.steps + s as u64);
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("water step"),
                    timestamp_writes: None,
                });
                if self.tiles.is_empty() {
                    self.step.dispatch(&mut pass, &self.packed, j);
                }
                for t in &mut self.tiles {
                    if s == 0 {
                        t.begin_run(&mut pass, n);
                    }
                    t.record_wake_edges(&mut pass, n);
                    t.record_step(&mut pass, j, n);
                }
                drop(pass);
                self.packed.encode_halos(encoder, 1 - j);
            }
            self.packed_now = Some((first + steps as usize) % 2);
            self.steps += steps as u64;
            return;
        }
        let mut bodies = self.bodies.as_mut().filter(|b| !b.list.is_empty());
        // With bodies, the tiles around them wake each step: their displacement edits the water
        // there (`water/wake_bodies.wgsl`).
        let mut tiles = self.tiles.first_mut();
        if let Some(t) = &tiles {
            t.prepare(&self.device, encoder, self.steps);
        }
        let mut pass = encoder
            .begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("water step"), timestamp_writes: None });
        let (w, h) = self.packed.size;
        // Sleeping, a run continues from the packed texture the last one left, if it holds the
        // masses still, and so does every run in a packed world; else the mass is packed into
        // texture 0.
        let cells = match &self.layout {
            Layout::Cells(c) => Some((c, c.mass.read_index())),
            Layout::Packed(_) => None,
        };
        let first = match (cells, &tiles, self.packed_now) {
            (None, _, j) => j.unwrap_or(0),
            (Some(_), Some(_), Some(j)) => j,
            (Some((c, i)), _, _) => {
                c.packing.kernels[0].dispatch(&mut pass, &c.packing.pack[i], w, h);
                0
            }
        };
        if let Some(t) = &mut tiles {
            t.begin_run(&mut pass, self.steps);
        }
        let (n, free) = bodies.as_ref().map_or((0, false), |b| (b.list.len(), b.list.iter().any(Body::is_free)));
        for s in 0..steps as usize {
            let j = (first + s) % 2;
            if let Some(b) = &bodies {
                b.moves.0.dispatch(&mut pass, &b.moves.1, n as u32, 1);
                b.dispatch_displace(&mut pass, j);
            }
            if let Some(t) = &tiles {
                if let Some(b) = &bodies {
                    t.record_wake_bodies(
                        &self.device,
                        &mut pass,
                        self.steps + s as u64,
                        (&b.region, &b.table, n as u32),
                    );
                }
                t.record_step(&mut pass, j, self.steps + s as u64);
            } else {
                self.step.dispatch(&mut pass, &self.packed, j);
            }
            if let Some(b) = &mut bodies {
                b.forces.0.dispatch(&mut pass, &b.forces.1[1 - j], 64 * n as u32, 1);
                if free {
                    b.dynamics.dispatch(&mut pass, n);
                }
                b.log.encode_step(&mut pass, self.steps + s as u64 + 1, n);
            }
        }
        let last = (first + steps as usize) % 2;
        match (&tiles, cells) {
            (_, None) => {}
            (Some(t), Some((_, i))) => t.record_unpack(&mut pass, i, last),
            (None, Some((c, i))) => c.packing.kernels[1].dispatch(&mut pass, &c.packing.unpack[i][last], w, h),
        }
        self.packed_now = (tiles.is_some() || cells.is_none()).then_some(last);
        drop(pass);
        if let Some(b) = bodies {
            // The CPU's list moves as the GPU's table does (a free body at the velocity it had
            // when last read).
            for body in &mut b.list {
                for _ in 0..steps {
                    body.advance(1.0);
                }
            }
        }
        self.steps += steps as u64;
    }

    fn steps_recorded(&self) -> u64 {
        self.steps
    }

    /// Steps that may be recorded before the free bodies' next contact point
    /// ([`crate::body::contact`]); `None` without free bodies.
    fn steps_to_plan(&self) -> Option<u64> {
        self.bodies.as_ref().and_then(|b| b.contacts.steps_to_plan(&b.list, self.steps))
    }

    /// At a contact point, the free bodies' contacts with the walls and each other
    /// ([`ContactPlan::plan`], which waits for the GPU there); elsewhere nothing.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`] when the bodies cannot be read back.
    fn plan_solver(&mut self) -> Result<(), GpuError> {
        let Some(b) = &mut self.bodies else { return Ok(()) };
        let d = super::bodies::dynamics(&self.params, (self.width as usize, self.height as usize));
        b.contacts.plan(&self.device, &self.queue, &b.table, &mut b.list, &mut b.log, &self.solid_mask, &d, self.steps)
    }

    fn encode_stats(&self, encoder: &mut wgpu::CommandEncoder) {
        match &self.layout {
            Layout::Cells(c) => {
                let resources = [self.uniform.as_entire_binding(), View(c.mass.current_view()), View(&c.solid_view)];
                c.stats.encode_request(&self.device, encoder, &resources);
            }
            Layout::Packed(world) => {
                for (page, stats) in self.packed.pages.iter().zip(&world.stats) {
                    let mass = View(&page.mass[self.packed_current()]);
                    let resources = [self.uniform.as_entire_binding(), mass, page.uniform.as_entire_binding()];
                    stats.encode_request(&self.device, encoder, &resources);
                }
            }
        }
    }

    fn stats_requested(&self) -> bool {
        self.stats().iter().all(gpu::Reduction::is_requested)
    }

    /// A packed world's pages' totals together.
    fn collect_stats(&self) -> Option<Result<WaterStats, GpuError>> {
        let each: Option<Vec<_>> = self.stats().iter().map(|s| s.collect(&self.device)).collect();
        let each: Result<Vec<_>, _> = each?.into_iter().collect();
        Some(each.map(|t| WaterStats::from_totals(&gpu::Totals::merge_all(&t))))
    }

    async fn stats_async(&self) -> Result<WaterStats, GpuError> {
        for stats in self.stats() {
            stats.settle(&self.device).await;
        }
        self.request_stats();
        let mut each = Vec::new();
        for stats in self.stats() {
            each.push(stats.finish(&self.device).await?);
        }
        Ok(WaterStats::from_totals(&gpu::Totals::merge_all(&each)))
    }

    /// The mass and the bodies from the GPU's table; the solid mask is the one last uploaded.
    async fn read_state_async(&self) -> Result<WaterState, GpuError> {
        let copy = self.bodies_copy();
        let mass = self.read_mass_async().await?;
        let bodies = match copy {
            Some((table, n)) => crate::body::table::read(&self.device, &table, n).await?,
            None => Vec::new(),
        };
        Ok(WaterState { mass, solid: self.solid_mask.clone(), bodies })
    }

    fn state_reader(&self) -> impl Future<Output = Result<WaterState, GpuError>> + 'static {
        let textures = gpu::snapshot_all(&self.device, &self.queue, &self.state_textures());
        let copy = self.bodies_copy();
        let (device, queue, solid) = (self.device.clone(), self.queue.clone(), self.solid_mask.clone());
        let pages = self.is_packed_world().then(|| self.page_layout());
        async move {
            let mass = match pages {
                None => gpu::read_r32float_async(&device, &queue, &textures[0]).await?,
                Some(layout) => {
                    let textures: Vec<&wgpu::Texture> = textures.iter().collect();
                    read_packed_world(&device, &queue, &textures, &layout).await?
                }
            };
            let bodies = match copy {
                Some((table, n)) => crate::body::table::read(&device, &table, n).await?,
                None => Vec::new(),
            };
            Ok(WaterState { mass, solid, bodies })
        }
    }

    /// Records the replacement of the bodies ([`super::bodies`]; velocities in cells/step) into
    /// `encoder`, in recording order, and their placing where they are: the water of the cells
    /// they cover pushed out ([`super::bodies::place`]). Each step moves them on. Without bodies
    /// the cells they covered open, with the water they held under them.
    ///
    /// # Errors
    /// [`Error::Message`] for more than [`crate::body::MAX_BODIES`] bodies or a driven one faster
    /// than [`super::bodies::MAX_BODY_STEP`] ([`super::bodies::check`]); nothing is recorded.
    fn encode_bodies(&mut self, encoder: &mut wgpu::CommandEncoder, bodies: &[Body]) -> Result<(), Error> {
        super::bodies::check_arithmetic(bodies, &self.params)?;
        self.encode_bodies_placed(encoder, bodies, true)?;
        self.wake_all();
        Ok(())
    }

    /// [`GpuWater::encode_bodies`] for a state restored from a checkpoint taken with `bodies`
    /// where they are: the restored water is already the water those bodies leave, so none is
    /// pushed out.
    ///
    /// # Errors
    /// As [`GpuWater::encode_bodies`].
    fn encode_bodies_restored(&mut self, encoder: &mut wgpu::CommandEncoder, bodies: &[Body]) -> Result<(), Error> {
        super::bodies::check_arithmetic(bodies, &self.params)?;
        self.encode_bodies_placed(encoder, bodies, false)?;
        self.wake_all();
        Ok(())
    }

    /// A checkpoint's mass came back: every tile wakes.
    fn restored(&mut self) {
        self.wake_all();
    }

    /// The bodies as the steps recorded so far leave them: moved on the CPU step by step as the
    /// GPU moves its own (a free body from where the last read of the force log found it, at
    /// the velocity it had then; [`GpuModel::sync_bodies`] reads the GPU's table).
    fn body_list(&self) -> &[Body] {
        self.bodies.as_ref().map_or(&[], |b| &b.list)
    }

    /// The free bodies where the last read of the force log found them.
    fn refresh_bodies(&mut self) {
        if let Some(b) = &mut self.bodies {
            b.log.refresh_free(&mut b.list);
        }
    }

    /// The bodies read back from the GPU's table, where a body is free.
    #[cfg(not(target_arch = "wasm32"))]
    fn sync_bodies(&mut self) -> Result<(), GpuError> {
        match &mut self.bodies {
            Some(b) => crate::body::table::sync_free(&self.device, &self.queue, &b.table, &mut b.list, &mut b.log),
            None => Ok(()),
        }
    }

    /// The log of the water's forces on the bodies, once bodies came.
    fn force_log(&mut self) -> Option<&mut ForceLog> {
        self.bodies.as_mut().map(|b| &mut b.log)
    }

    /// Records a new motion for body `index` (velocity `(vx, vy)`, cells/step; `spin`,
    /// radians/step) into `encoder`, in recording order: where it is stays the GPU's.
    ///
    /// # Errors
    /// [`Error::Message`] when there is no body `index`, a value is not finite, or a driven body
    /// would move faster than [`super::bodies::MAX_BODY_STEP`]; nothing is recorded.
    fn encode_drive(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        index: usize,
        velocity: (f32, f32),
        spin: f32,
    ) -> Result<(), Error> {
        let Some(b) = self.bodies.as_mut() else {
            // No bodies yet: says so.
            return crate::body::drive(&mut [], index, velocity, spin);
        };
        let check = |list: &[Body]| super::bodies::check(list);
        crate::body::table::encode_drive_checked(
            &self.device,
            encoder,
            &b.table,
            &mut b.list,
            index,
            velocity,
            spin,
            check,
        )
    }

    /// The current mass (a packed world's: the packed texture of each page that holds it).
    fn state_textures(&self) -> Vec<&wgpu::Texture> {
        match &self.layout {
            Layout::Cells(c) => vec![c.mass.current()],
            Layout::Packed(_) => self.packed.pages.iter().map(|p| &p.textures[self.packed_current()]).collect(),
        }
    }

    /// 1 = ground.
    fn solid_mask(&self) -> &Grid<u8> {
        &self.solid_mask
    }
}
