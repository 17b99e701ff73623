//! How many V-cycles a step's multigrid solve runs on the GPU: planned at fixed step numbers
//! from the residual the solve reached there, so that a run is a function of its input alone.
//!
//! Reading the residual back after every step would stall the GPU, so the GPU runs a set
//! number of V-cycles per step, and the plan changes that number at *plan points*: steps 1, 2,
//! 4 and 8 after the plan starts (a cold start wants many cycles and a warm one few, so the
//! count settles fast), then every [`CyclePlan::EVERY`] steps. The step that ends at a plan
//! point measures the relative residual `|b - A p| / |b|` after each of its V-cycles
//! ([`super::gpu::CycleProbes`]), and [`CyclePlan::update`] sets the fewest cycles that brought
//! it to [`MARGIN`] times the tolerance; where none did, it extrapolates at the reduction the
//! last cycle achieved. Where only the last residual is known (the browser, or more cycles
//! than probes), it sets the count that would have reached the margin if each V-cycle cut the
//! residual by [`CYCLE_REDUCTION`] (about the measured 0.33-0.47 per cycle on random
//! divergence, [`super::multigrid`]'s docs).
//!
//! Why the probes: with a warm start the residual falls far faster than that in the first
//! cycles and then stalls near f32's floor (the plume at 512 x 512, tolerance 1e-4: 4.5e-3
//! after 1 cycle, 1.7e-4 after 2, 2.4e-5 after 3, 6e-6 after 4 and after 6), so a count planned
//! from the last residual alone swung between 1 and 6 cycles (the residual 45x over the
//! tolerance after 1) where 3 are needed.
//!
//! The plan points depend on the step number only, and the count on the residuals those steps
//! produced, never on when a reader happened to look: the same input gives the same steps,
//! however a run's steps are batched into submissions or how often its statistics are read
//! (`tests/determinism.rs` holds this for every model and solver).

/// The residual's reduction per V-cycle the count is planned with where the probes do not tell
/// it (a cold start; only the last residual known).
pub const CYCLE_REDUCTION: f64 = 0.4;

/// The residual a plan aims at, as a fraction of the tolerance: the flow changes over the
/// [`CyclePlan::EVERY`] steps a plan holds for, and the count that just reached the tolerance at
/// a plan point may fall short a few steps later.
pub const MARGIN: f64 = 0.5;

/// A last cycle that cut the residual by less than this (a ratio above it) has stalled: more
/// cycles would not help, so the plan does not add any.
pub const STALL: f64 = 0.7;

/// The V-cycle count of a multigrid solve, and where it is next planned (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CyclePlan {
    cycles: u32,
    /// The step count when the plan started (a new model, a change of solver or cycle cap);
    /// before 0 for a plan resumed from a saved state ([`CyclePlan::resumed`]).
    origin: i64,
    /// The step count of the last plan (`origin` before the first).
    planned: i64,
}

/// A plan as a saved state keeps it ([`CyclePlan::saved`]): what a model loading the state needs
/// to run the same V-cycles at the same steps as the run that saved it went on to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SavedPlan {
    /// V-cycles each step runs until the next plan.
    pub cycles: u32,
    /// Steps from the plan's start to the save.
    pub since_start: u64,
    /// Steps from the last plan (the start, before the first) to the save; at most
    /// `since_start`.
    pub since_planned: u64,
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
        Self { cycles: cycles.max(1), origin: step as i64, planned: step as i64 }
    }

    /// The plan at step count `step`, for a saved state.
    pub fn saved(&self, step: u64) -> SavedPlan {
        let step = step as i64;
        SavedPlan {
            cycles: self.cycles,
            since_start: (step - self.origin).max(0) as u64,
            since_planned: (step - self.planned).max(0) as u64,
        }
    }

    /// The plan `saved` went on with, resumed at step count `step` with at most `max_cycles`
    /// cycles: the same count, the same plan points ahead.
    pub fn resumed(saved: SavedPlan, max_cycles: u32, step: u64) -> Self {
        let (step, since_planned) = (step as i64, saved.since_planned.min(saved.since_start));
        Self {
            cycles: saved.cycles.clamp(1, max_cycles.max(1)),
            origin: step - saved.since_start as i64,
            planned: step - since_planned as i64,
        }
    }

    /// V-cycles each step runs until the next plan.
    pub fn cycles(&self) -> u32 {
        self.cycles
    }

    /// The step count of the next plan point after the last plan.
    fn next_point(&self) -> i64 {
        let since = (self.planned - self.origin) as u64;
        let next = if since < 8 { (since + 1).next_power_of_two() } else { (since / Self::EVERY + 1) * Self::EVERY };
        self.origin + next as i64
    }

    /// Steps that may run from step count `step` before the plan wants the residual: 0 when
    /// `step` is at (or past, if steps ran without planning) a plan point.
    pub fn steps_to_plan(&self, step: u64) -> u64 {
        (self.next_point() - step as i64).max(0) as u64
    }

    /// Plans the count from the relative residuals the last solve (at step count `step`, with
    /// [`CyclePlan::cycles`] cycles) reached: `residuals[k]` after its first `k + 1` cycles, for
    /// all of them, or only the one after its last (a slice of one). With all of them: the fewest
    /// cycles that reached `MARGIN * tolerance`; where none did, the last cycle's reduction
    /// (within 0.05..=0.99) carries on to it, so a solve that stalls short of the tolerance runs
    /// `max_cycles`, as the CPU's [`super::multigrid::Multigrid::solve`] does; but a solve that
    /// reached the tolerance and stalled (its last cycle cut the residual by less than
    /// [`STALL`]) short of the margin takes the fewest cycles that reached the tolerance. With
    /// the last alone: the count that would have reached the margin at [`CYCLE_REDUCTION`] a
    /// cycle. Within `1..=max_cycles`. Residuals that are not all finite and positive (nothing
    /// to solve) keep the count.
    pub fn update(&mut self, step: u64, residuals: &[f64], tolerance: f32, max_cycles: u32) {
        self.planned = (step as i64).max(self.planned);
        if residuals.is_empty() || !residuals.iter().all(|r| r.is_finite() && *r > 0.0) {
            return;
        }
        let (goal, n) = (MARGIN * tolerance as f64, self.cycles as usize);
        let last = residuals[residuals.len() - 1];
        let wanted = if residuals.len() == n {
            let fewest = |bound: f64| residuals.iter().position(|&r| r <= bound).map(|k| k as f64 + 1.0);
            let ratio = if n >= 2 { last / residuals[n - 2] } else { CYCLE_REDUCTION };
            match (fewest(goal), fewest(tolerance as f64)) {
                (Some(k), _) => k,
                (None, Some(k)) if ratio > STALL => k,
                _ => n as f64 + ((goal / last).ln() / ratio.clamp(0.05, 0.99).ln()).ceil(),
            }
        } else {
            (self.cycles as f64 + (goal / last).ln() / CYCLE_REDUCTION.ln()).ceil()
        };
        self.cycles = wanted.clamp(1.0, max_cycles.max(1) as f64) as u32;
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
            plan.update(step, &[1e-4], 1e-4, 20);
        }
        assert_eq!(points, [1, 2, 4, 8, 16, 32, 48]);
    }

    #[test]
    fn steps_run_past_a_plan_point_plan_at_once_and_resume_the_schedule() {
        let mut plan = CyclePlan::new(1e-4, 20, 0);
        assert_eq!(plan.steps_to_plan(5), 0); // 1 was missed
        plan.update(5, &[1e-4], 1e-4, 20);
        assert_eq!(plan.steps_to_plan(5), 3); // next is 8
    }

    /// A plan started at step 3 and saved at step 40 (planned at 4, 5, 7, 11, 19 and 35), resumed
    /// in a model whose count starts elsewhere, has the same count and its next point 11 steps
    /// on (at 51, 48 after the start), as the one that went on.
    #[test]
    fn a_resumed_plan_keeps_the_points_ahead_and_the_count() {
        let mut plan = CyclePlan::new(1e-4, 20, 3);
        let mut step = 3;
        while step < 40 {
            step += plan.steps_to_plan(step).min(40 - step);
            if plan.steps_to_plan(step) == 0 {
                plan.update(step, &[2e-4, 4e-5], 1e-4, 20);
            }
        }
        let saved = plan.saved(40);
        assert_eq!(saved, SavedPlan { cycles: plan.cycles(), since_start: 37, since_planned: 5 });
        for base in [0, 1000] {
            let resumed = CyclePlan::resumed(saved, 20, base);
            assert_eq!(resumed.cycles(), plan.cycles());
            assert_eq!(resumed.steps_to_plan(base), plan.steps_to_plan(40), "from {base}");
            assert_eq!(resumed.steps_to_plan(base), 11, "the next point, 48 after the start");
            assert_eq!(resumed.saved(base), saved, "saved again at once");
        }
        assert_eq!(CyclePlan::resumed(saved, 1, 0).cycles(), 1, "at most the cycle cap");
    }

    /// Runs end at every plan point and a point reached is planned before the call returns; a
    /// model without V-cycles runs whole.
    #[test]
    fn runs_end_at_the_plan_points() {
        let mut model = (CyclePlan::new(1e-4, 20, 0), 0u64, Vec::new());
        let plan = |m: &mut (CyclePlan, u64, Vec<u32>)| {
            if m.0.steps_to_plan(m.1) == 0 {
                m.0.update(m.1, &[1e-4], 1e-4, 20);
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
    fn from_the_last_residual_alone_the_count_reaches_the_margin_at_the_planned_reduction() {
        // A cold start at 1e-4: 0.4^10 = 1.05e-4 > 1e-4, 0.4^11 < 1e-4.
        let mut plan = CyclePlan::new(1e-4, 20, 0);
        assert_eq!(plan.cycles(), 11);
        // 11 cycles left 1e-6, 50x below the margin 5e-5: ln(50) / ln(2.5) = 4.27 cycles fewer.
        plan.update(1, &[1e-6], 1e-4, 20);
        assert_eq!(plan.cycles(), 7);
        // 7 cycles left 1.6e-4, 3.2x above the margin: 1.27 cycles more.
        plan.update(2, &[1.6e-4], 1e-4, 20);
        assert_eq!(plan.cycles(), 9);
        // Capped both ways.
        plan.update(4, &[1e3], 1e-4, 20);
        assert_eq!(plan.cycles(), 20);
        plan.update(8, &[1e-30], 1e-4, 20);
        assert_eq!(plan.cycles(), 1);
        // Nothing to measure keeps the count.
        for r in [f64::NAN, f64::INFINITY, 0.0] {
            plan.update(16, &[r], 1e-4, 20);
            assert_eq!(plan.cycles(), 1, "residual {r}");
        }
    }

    /// The plume's residuals at 512 x 512 after each cycle (the module docs).
    const PLUME: [f64; 6] = [4.5e-3, 1.7e-4, 2.4e-5, 6e-6, 6e-6, 6e-6];

    #[test]
    fn with_every_cycles_residual_the_count_is_the_fewest_that_reached_the_margin() {
        let mut plan = CyclePlan::new(1e-4, 20, 0);
        for cycles in [11, 6] {
            plan.cycles = cycles;
            let residuals: Vec<f64> = (0..cycles as usize).map(|k| PLUME[k.min(5)]).collect();
            plan.update(1, &residuals, 1e-4, 20);
            assert_eq!(plan.cycles(), 3, "from {cycles}: 2.4e-5 after 3 is below 5e-5, 1.7e-4 after 2 is not");
        }
        // A looser tolerance takes fewer; the cap holds.
        plan.cycles = 6;
        plan.update(2, &PLUME, 1e-2, 20);
        assert_eq!(plan.cycles(), 1);
        plan.cycles = 6;
        plan.update(4, &PLUME, 1e-4, 2);
        assert_eq!(plan.cycles(), 2);
    }

    #[test]
    fn short_of_the_margin_the_last_cycles_reduction_carries_on_unless_it_stalled() {
        let mut plan = CyclePlan::new(1e-4, 20, 0);
        // 2 cycles left 1.7e-4 after 4.5e-3 (0.038 a cycle, taken as 0.05): 5e-5 is 0.4 cycles on.
        plan.cycles = 2;
        plan.update(1, &PLUME[..2], 1e-4, 20);
        assert_eq!(plan.cycles(), 3);
        // 1 cycle left 4.5e-3: at 0.4 a cycle, 4.9 more to 5e-5.
        plan.cycles = 1;
        plan.update(2, &PLUME[..1], 1e-4, 20);
        assert_eq!(plan.cycles(), 6);
        // Stalled at f32's floor between the tolerance 1e-5 and its margin: the fewest cycles
        // that reached the tolerance (6e-6 after 4).
        plan.cycles = 6;
        plan.update(4, &PLUME, 1e-5, 20);
        assert_eq!(plan.cycles(), 4);
        // Stalled above the tolerance: as many as allowed, as the CPU's solve runs.
        plan.cycles = 6;
        plan.update(6, &PLUME, 1e-30, 20);
        assert_eq!(plan.cycles(), 20);
        // Reducing by 0.45 a cycle short of the margin: 9e-5 after 3 -> 5e-5 is 0.74 cycles on.
        plan.cycles = 3;
        plan.update(8, &[4e-4, 2e-4, 9e-5], 1e-4, 20);
        assert_eq!(plan.cycles(), 4);
        // A residual that is not finite anywhere keeps the count.
        plan.update(16, &[1e-3, f64::NAN, 1e-5, 1e-5], 1e-4, 20);
        assert_eq!(plan.cycles(), 4);
    }
}
