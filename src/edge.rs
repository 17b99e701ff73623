//! What each edge of the box is: a wall, an inflow, an outflow or a free-slip wall,
//! per side (`--left-edge`, `--right-edge`, `--top-edge`, `--bottom-edge`), for smoke (staggered
//! grid, [`crate::smoke::SmokeParams::edges`]) and gas ([`crate::gas::GasParams::edges`]). Each
//! model says what a kind means in its own discretisation; the variants' docs give both.

/// What an edge of the box is. Smoke: inflow and outflow through the edges' faces, the pressure
/// held at 0 beyond an outflow and with no flux through the other edges (see
/// [`EdgeKind::Outflow`]). Gas: the ghost beyond the edge's faces (`crate::gas::cpu::beyond`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EdgeKind {
    /// No flow through it (the closed box of GPU Gems ch. 38). Smoke: no-slip where the
    /// viscosity is on. Gas: a mirror (free-slip, as every gas wall).
    #[default]
    Wall,
    /// Fluid enters across it, normal to the edge, with no velocity along it. Smoke: at
    /// [`crate::smoke::SmokeParams::inflow`]; its faces hold that velocity through every pass (a
    /// Dirichlet condition); dye and temperature come from source cells beside it (as the
    /// `channel` preset's). Gas: the ghost beyond it holds
    /// [`crate::gas::GasParams::inflow_density`] moving at [`crate::gas::GasParams::inflow`] (a
    /// Dirichlet ghost; LeVeque 2002, section 7.2).
    Inflow,
    /// Fluid leaves across it. Smoke: the pressure is held at 0 beyond it (a Dirichlet condition:
    /// 0 at the centre of the cell beyond, [`crate::solver::DirichletEdges`]; Bridson, 2nd ed.,
    /// sect. 5.1), and its faces take the velocity of the face one cell inside (zero gradient
    /// across the edge) before the projection, which then drives them with the pressure inside:
    /// what reaches the edge leaves, as much as comes in through the others (to the solve's
    /// tolerance). The viscosity sees no wall beyond it (zero gradient too). Gas: the ghost beyond it is the cell itself (zero
    /// gradient, the transmissive boundary of Toro 2009, section 6.3.3, and LeVeque 2002,
    /// section 7.3.1: waves leave with the small reflection the scheme's upwinding allows).
    Outflow,
    /// A free-slip wall: no flow through it, and the fluid slides along it without friction.
    /// Smoke: the viscosity's neighbour beyond it is the face itself, zero gradient, instead of a
    /// no-slip ghost; the far-field side walls of a channel that stands for open flow (the
    /// Strouhal check), with no boundary layers growing from the inlet. Gas: the same as
    /// [`EdgeKind::Wall`] (its walls are mirrors, free-slip already).
    Slip,
}

impl EdgeKind {
    /// The names the edge options take, in the enum's order.
    pub const NAMES: &'static [&'static str] = &["wall", "inflow", "outflow", "slip"];
    /// In the enum's order.
    pub const ALL: [EdgeKind; 4] = [EdgeKind::Wall, EdgeKind::Inflow, EdgeKind::Outflow, EdgeKind::Slip];

    /// Whether the viscosity sees the face itself beyond this edge (zero gradient: an outflow,
    /// a free-slip wall) rather than a no-slip wall's ghost (smoke).
    pub fn zero_gradient(self) -> bool {
        matches!(self, EdgeKind::Outflow | EdgeKind::Slip)
    }

    /// Whether fluid crosses it (an inflow or an outflow).
    pub fn is_open(self) -> bool {
        matches!(self, EdgeKind::Inflow | EdgeKind::Outflow)
    }
}

/// The edge options' names, in the edges' order (`[left, right, top, bottom]`).
pub const EDGE_OPTIONS: [&str; 4] = ["left-edge", "right-edge", "top-edge", "bottom-edge"];

/// The edges' names, in their order: what messages and Python's edge arguments call them.
pub const EDGE_NAMES: [&str; 4] = ["left", "right", "top", "bottom"];

/// Index of the left edge in a model's `edges`; then [`RIGHT`], [`TOP`], [`BOTTOM`].
pub const LEFT: usize = 0;
/// Index of the right edge.
pub const RIGHT: usize = 1;
/// Index of the top edge (row 0's side).
pub const TOP: usize = 2;
/// Index of the bottom edge.
pub const BOTTOM: usize = 3;

/// The table row of one of the box's edges, for a model's `ParamTable` whose parameters have
/// `edges: [EdgeKind; 4]`: option `$name` (one of [`EDGE_OPTIONS`]), `edges[$index]`, its doc
/// `the box's $side edge: $meaning` (what each kind means in that model) and `$source`.
macro_rules! edge_row {
    ($name:literal, $index:expr, $side:literal, $meaning:literal, $source:literal) => {
        $crate::params::ParamSpec {
            info: $crate::params::ParamInfo::of(
                $name,
                $name,
                "",
                $crate::params::ParamKind::Choice($crate::edge::EdgeKind::NAMES),
            )
            .doc(concat!("the box's ", $side, " edge: ", $meaning), $source),
            get: |p| $crate::params::Value::Choice(p.edges[$index] as usize),
            set: |p, v| p.edges[$index] = $crate::edge::EdgeKind::ALL[v.choice().min(3)],
        }
    };
}
pub(crate) use edge_row;

/// The inward unit normal of edge `e` ([`LEFT`] ...), `(x, y)` with y down: the direction an
/// inflow through it runs.
pub fn inward(e: usize) -> (f32, f32) {
    [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)][e]
}
