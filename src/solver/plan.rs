//! How many V-cycles a step's multigrid solve runs on the GPU: planned at fixed step numbers
//! from the residual the solve reached there, so that a run is a function of its input alone.
//!
//! Reading the residual back after every step would stall the GPU, so the GPU runs a set
//! number of V-cycles per step, and the plan changes that number at *plan points*: steps 1, 2,
//! 4 and 8 after the plan starts (a cold start wants many cycles and a warm one few, so the
//! count settles fast), then every [`CyclePlan::EVERY`] steps. At a plan point the caller
//! measures the relative residual `|b - A p| / |b|` the last step's solve left
//! ([`super::gpu::ResidualStats`]) and hands it to [`CyclePlan::update`], which sets the count
//! that would have brought that solve to the tolerance, if each V-cycle cuts the residual by
//! [`CYCLE_REDUCTION`] (about the measured 0.33-0.47 per cycle, [`super::multigrid`]'s docs).
//!
//! The plan points depend on the step number only, and the count on the residuals those steps
//! produced, never on when a reader happened to look: the same input gives the same steps,
//! however a run's steps are batched into submissions or how often its statistics are read
//! (`tests/determinism.rs` holds this for every model and solver).

/// The residual's reduction per V-cycle the count is planned with.
pub const CYCLE_REDUCTION: f64 = 0.4;

/// The V-cycle count of a multigrid solve, and where it is next planned (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CyclePlan {
    cycles: u32,
    /// The step count when the plan started (a new model, a change of solver or cycle cap).
    origin: u64,
    /// The step count of the last plan (`origin` before the first).
    planned: u64,
}

impl CyclePlan {
    /// Steps between two plan points once the first four (1, 2, 4, 8 steps in) have passed.
    pub const EVERY: u64 = 16;

    /// A plan that starts at step count `step` with enough cycles to bring a cold start's
    /// residual (1, pressure 0) to `tolerance` at [`CYCLE_REDUCTION`] per cycle, within
    /// `1..=max_cycles`.
    pub fn new(tolerance: f32, max_cycles: u32, step: u64) -> Self {
        let needed = ((tolerance as f64).ln() / CYCLE_REDUCTION.ln()).ceil();
        let cycles = if needed.is_nan() { max_cycles } else { (needed.max(1.0) as u32).min(max_cycles) };
        Self { cycles: cycles.max(1), origin: step, planned: step }
    }

    /// V-cycles each step runs until the next plan.
    pub fn cycles(&self) -> u32 {
        self.cycles
    }

    /// The step count of the next plan point after the last plan.
    fn next_point(&self) -> u64 {
        let since = self.planned - self.origin;
        let next = if since < 8 { (since + 1).next_power_of_two() } else { (since / Self::EVERY + 1) * Self::EVERY };
        self.origin + next
    }

    /// Steps that may run from step count `step` before the plan wants the residual: 0 when
    /// `step` is at (or past, if steps ran without planning) a plan point.
    pub fn steps_to_plan(&self, step: u64) -> u64 {
        self.next_point().saturating_sub(step)
    }

    /// Plans the count from the relative residual `residual` that the last solve (at step count
    /// `step`) reached with [`CyclePlan::cycles`] cycles: the count that would have reached
    /// `tolerance`, within `1..=max_cycles`. A residual that is not finite, or 0 (nothing to
    /// solve), keeps the count.
    pub fn update(&mut self, step: u64, residual: f64, tolerance: f32, max_cycles: u32) {
        let change = ((tolerance as f64) / residual).ln() / CYCLE_REDUCTION.ln();
        let wanted = (self.cycles as f64 + change).ceil();
        if wanted.is_finite() {
            self.cycles = wanted.clamp(1.0, max_cycles.max(1) as f64) as u32;
        }
        self.planned = step.max(self.planned);
    }
}

/// Runs `steps` steps as calls `run(model, n)` that end at the plan's points: `plan` plans
/// where a point is due and gives the steps to the next one ([`CyclePlan::steps_to_plan`];
/// `None` for a model without V-cycles, which runs in one call). It is called before every run
/// and after the last, so a point reached is planned at once, before anything else can touch the
/// solver's fields. The one loop behind [`crate::Simulation::step`] on the GPU smoke model and
/// the model layer's steps (`AnyModel::step_in_runs`).
///
/// # Errors
/// `plan`'s: the runs before it have run.
pub fn in_runs<M>(
    model: &mut M,
    steps: u32,
    mut plan: impl FnMut(&mut M) -> Result<Option<u64>, crate::gpu::GpuError>,
    mut run: impl FnMut(&mut M, u32),
) -> Result<(), crate::gpu::GpuError> {
    let mut left = steps;
    while left > 0 {
        let n = plan(model)?.map_or(left, |p| p.clamp(1, left as u64) as u32);
        run(model, n);
        left -= n;
    }
    plan(model).map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_points_are_1_2_4_8_then_every_16_steps_from_the_origin() {
        let mut plan = CyclePlan::new(1e-4, 20, 100);
        let mut points = Vec::new();
        let mut step = 100;
        while points.len() < 7 {
            step += plan.steps_to_plan(step);
            points.push(step - 100);
            plan.update(step, 1e-4, 1e-4, 20);
        }
        assert_eq!(points, [1, 2, 4, 8, 16, 32, 48]);
    }

    #[test]
    fn steps_run_past_a_plan_point_plan_at_once_and_resume_the_schedule() {
        let mut plan = CyclePlan::new(1e-4, 20, 0);
        assert_eq!(plan.steps_to_plan(5), 0); // 1 was missed
        plan.update(5, 1e-4, 1e-4, 20);
        assert_eq!(plan.steps_to_plan(5), 3); // next is 8
    }

    /// Runs end at every plan point and a point reached is planned before the call returns; a
    /// model without V-cycles runs whole.
    #[test]
    fn runs_end_at_the_plan_points() {
        let mut model = (CyclePlan::new(1e-4, 20, 0), 0u64, Vec::new());
        let plan = |m: &mut (CyclePlan, u64, Vec<u32>)| {
            if m.0.steps_to_plan(m.1) == 0 {
                m.0.update(m.1, 1e-4, 1e-4, 20);
            }
            Ok(Some(m.0.steps_to_plan(m.1)))
        };
        in_runs(&mut model, 40, plan, |m, n| {
            m.1 += n as u64;
            m.2.push(n);
        })
        .unwrap();
        assert_eq!(model.2, [1, 1, 2, 4, 8, 16, 8]);
        assert_eq!(model.0.steps_to_plan(40), 8, "the point at 40 was not due; 48 is next");
        let mut whole = Vec::new();
        in_runs(&mut whole, 40, |_| Ok(None), |w, n| w.push(n)).unwrap();
        assert_eq!(whole, [40]);
    }

    #[test]
    fn the_count_is_what_reaches_the_tolerance_at_the_planned_reduction() {
        // A cold start at 1e-4: 0.4^10 = 1.05e-4 > 1e-4, 0.4^11 < 1e-4.
        let mut plan = CyclePlan::new(1e-4, 20, 0);
        assert_eq!(plan.cycles(), 11);
        // 11 cycles left 1e-6, two and a bit cycles better than needed: 11 - 5.03 = 5.97 -> 6.
        plan.update(1, 1e-6, 1e-4, 20);
        assert_eq!(plan.cycles(), 6);
        // 6 cycles left 1.6e-4: one more cycle (0.4 x 1.6e-4 = 6.4e-5).
        plan.update(2, 1.6e-4, 1e-4, 20);
        assert_eq!(plan.cycles(), 7);
        // Capped both ways.
        plan.update(4, 1e3, 1e-4, 20);
        assert_eq!(plan.cycles(), 20);
        plan.update(8, 1e-30, 1e-4, 20);
        assert_eq!(plan.cycles(), 1);
        // Nothing to measure keeps the count.
        for r in [f64::NAN, f64::INFINITY, 0.0] {
            plan.update(16, r, 1e-4, 20);
            assert_eq!(plan.cycles(), 1, "residual {r}");
        }
    }
}
