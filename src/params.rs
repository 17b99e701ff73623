//! Parameters as data: one [`ParamSpec`] row per parameter of a model, from which eddy builds
//! validation, the command line's options and `--help`, the viewer's keys, title and panel, the
//! Python module's keywords and what a saved state records.
//!
//! A row says what the parameter is (name as the CLI spells it, symbol, unit, one-line doc, the
//! default and where it comes from), which values are allowed and why ([`ParamKind`]: a range
//! with a reason for each end, a count, a choice, or a pair), which viewer key nudges it, and how
//! to read and write it in the model's parameter struct (`get`, `set`). Adding a parameter to a
//! model is one row in that model's table and one field in its struct (and the WGSL uniform,
//! when a pass reads it).

use crate::error::ParamError;
use std::fmt;

/// The viewer's brush radius on a 256-cell grid, cells (its default is 1/64 of the grid's
/// longer side, at least 1.5; [`crate::model::AnyModel::brush_radius`]): the radius of the tool
/// structs' `Default`s ([`crate::water::Brush`], [`crate::gas::GasBrush`]). Here, below the
/// models, so that they need not import the registry (`model::tools` re-exports it).
pub const DEFAULT_RADIUS: f32 = 4.0;

/// A parameter's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// A real number (f32).
    Real(f32),
    /// A whole number.
    Count(u32),
    /// One of [`ParamKind::Choice`]'s names, by index.
    Choice(usize),
    /// Two real numbers, e.g. a velocity `(x, y)`.
    Pair(f32, f32),
    /// Not set: the parameter's automatic value applies ([`ParamInfo::auto`] says which).
    Auto,
}

impl Value {
    /// The real number; 0 for other kinds (a table row only reads its own kind).
    pub fn real(self) -> f32 {
        match self {
            Value::Real(v) => v,
            _ => 0.0,
        }
    }

    /// The count; 0 for other kinds.
    pub fn count(self) -> u32 {
        match self {
            Value::Count(v) => v,
            _ => 0,
        }
    }

    /// The choice's index; 0 for other kinds.
    pub fn choice(self) -> usize {
        match self {
            Value::Choice(v) => v,
            _ => 0,
        }
    }

    /// The pair; `(0, 0)` for other kinds.
    pub fn pair(self) -> (f32, f32) {
        match self {
            Value::Pair(x, y) => (x, y),
            _ => (0.0, 0.0),
        }
    }
}

/// What values a parameter takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamKind {
    /// A finite real number in `min..max`; each end is open or closed, and each has the reason
    /// a value beyond it is refused.
    Real(Range),
    /// A whole number in `min..=max`.
    Count {
        /// Smallest value.
        min: u32,
        /// Largest value.
        max: u32,
        /// Why below `min` is refused.
        below: &'static str,
        /// Why above `max` is refused.
        above: &'static str,
    },
    /// One of these names (as typed on the command line).
    Choice(&'static [&'static str]),
    /// Two finite reals `X,Y`, each in the range.
    Pair(Range),
}

/// A real interval with the reason for each end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    /// Lower end (`f32::NEG_INFINITY`: none).
    pub min: f32,
    /// Upper end (`f32::INFINITY`: none).
    pub max: f32,
    /// `min` itself is refused.
    pub min_open: bool,
    /// `max` itself is refused.
    pub max_open: bool,
    /// Why a value below (or at an open) `min` is refused.
    pub below: &'static str,
    /// Why a value above (or at an open) `max` is refused.
    pub above: &'static str,
}

impl Range {
    /// Any finite number.
    pub const ANY: Range = Range::closed(f32::NEG_INFINITY, f32::INFINITY, "", "");

    /// `[min, max]`.
    pub const fn closed(min: f32, max: f32, below: &'static str, above: &'static str) -> Self {
        Range { min, max, min_open: false, max_open: false, below, above }
    }

    /// `(min, max]`.
    pub const fn open_min(min: f32, max: f32, below: &'static str, above: &'static str) -> Self {
        Range { min, max, min_open: true, max_open: false, below, above }
    }

    /// Whether `v` is allowed (finite and inside).
    pub fn contains(&self, v: f32) -> bool {
        v.is_finite() && self.above_min(v) && self.below_max(v)
    }

    fn above_min(&self, v: f32) -> bool {
        if self.min_open { v > self.min } else { v >= self.min }
    }

    fn below_max(&self, v: f32) -> bool {
        if self.max_open { v < self.max } else { v <= self.max }
    }

    /// `[0.03, 0.1]`, `(0, 10]`, `>= 0`, ... as help text shows it.
    pub fn describe(&self) -> String {
        match (self.min.is_finite(), self.max.is_finite()) {
            (false, false) => "any finite number".into(),
            (true, false) => format!("{} {}", if self.min_open { ">" } else { ">=" }, self.min),
            (false, true) => format!("{} {}", if self.max_open { "<" } else { "<=" }, self.max),
            (true, true) => format!(
                "{}{}, {}{}",
                if self.min_open { "(" } else { "[" },
                self.min,
                self.max,
                if self.max_open { ")" } else { "]" }
            ),
        }
    }

    /// Why `v` is refused, or `None` when it is allowed.
    fn refuse(&self, v: f32, unit: &str) -> Option<String> {
        let range = format!("{}{}", self.describe(), if unit.is_empty() { String::new() } else { format!(" {unit}") });
        let why = if !v.is_finite() {
            "it must be a finite number"
        } else if !self.above_min(v) {
            self.below
        } else if !self.below_max(v) {
            self.above
        } else {
            return None;
        };
        Some(if why.is_empty() { format!("allowed: {range}") } else { format!("allowed: {range}; {why}") })
    }
}

/// What a parameter is, independent of the model's struct: everything but `get` and `set`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamInfo {
    /// The name as the CLI spells it (`--<name>`), e.g. `side-share`. Unique across all models.
    pub name: &'static str,
    /// The symbol in the source or the field's notation (`D`, `sigma`, `dt`), for compact views.
    pub symbol: &'static str,
    /// Unit, e.g. `cells/step`; empty for pure numbers.
    pub unit: &'static str,
    /// Allowed values.
    pub kind: ParamKind,
    /// One line: what it does.
    pub doc: &'static str,
    /// Where the default comes from (a paper, a port, a measurement).
    pub source: &'static str,
    /// For parameters that may be unset ([`Value::Auto`]): what applies then.
    pub auto: Option<&'static str>,
    /// The viewer key that lowers it (its upper case raises it; a choice cycles).
    pub key: Option<char>,
    /// How much one key press changes it (reals and counts).
    pub step: f32,
}

impl ParamInfo {
    /// A real parameter with no key.
    pub const fn real(name: &'static str, symbol: &'static str, unit: &'static str, range: Range) -> Self {
        ParamInfo {
            name,
            symbol,
            unit,
            kind: ParamKind::Real(range),
            doc: "",
            source: "",
            auto: None,
            key: None,
            step: 0.0,
        }
    }

    /// A parameter of `kind` with no key.
    pub const fn of(name: &'static str, symbol: &'static str, unit: &'static str, kind: ParamKind) -> Self {
        ParamInfo { kind, ..ParamInfo::real(name, symbol, unit, Range::ANY) }
    }

    /// With its doc line and the source of its default.
    pub const fn doc(mut self, doc: &'static str, source: &'static str) -> Self {
        self.doc = doc;
        self.source = source;
        self
    }

    /// Settable from the viewer: `key` lowers by `step`, its upper case raises.
    pub const fn key(mut self, key: char, step: f32) -> Self {
        self.key = Some(key);
        self.step = step;
        self
    }

    /// May be unset; `auto` says what applies then.
    pub const fn auto(mut self, auto: &'static str) -> Self {
        self.auto = Some(auto);
        self
    }

    /// Parses a command-line value of this parameter.
    ///
    /// # Errors
    /// A message saying what was expected, e.g. `expected a number, e.g. 0.25`.
    pub fn parse(&self, s: &str) -> Result<Value, String> {
        let real = |t: &str| t.trim().parse::<f32>().map_err(|_| format!("{s:?} is not a number"));
        // A row that may be unset takes `auto` (`--reynolds auto`), as `format` writes it.
        if self.auto.is_some() && s.trim().eq_ignore_ascii_case("auto") {
            return Ok(Value::Auto);
        }
        match self.kind {
            ParamKind::Real(_) => real(s).map(Value::Real),
            ParamKind::Count { .. } => {
                s.trim().parse::<u32>().map(Value::Count).map_err(|_| format!("{s:?} is not a whole number >= 0"))
            }
            ParamKind::Choice(names) => names
                .iter()
                .position(|n| n.eq_ignore_ascii_case(s.trim()))
                .map(Value::Choice)
                .ok_or_else(|| format!("{s:?} is not one of {}", names.join(", "))),
            ParamKind::Pair(_) => match s.split(',').collect::<Vec<_>>()[..] {
                [x, y] => Ok(Value::Pair(real(x)?, real(y)?)),
                _ => Err(format!("{s:?} is not X,Y (two numbers), e.g. 0.25,0")),
            },
        }
    }

    /// Writes `value` as the CLI would take it, with at most 4 significant digits.
    pub fn format(&self, value: Value) -> String {
        match (value, self.kind) {
            (Value::Real(v), _) => short(v),
            (Value::Count(v), _) => v.to_string(),
            (Value::Choice(i), ParamKind::Choice(names)) => names.get(i).copied().unwrap_or("?").to_string(),
            (Value::Pair(x, y), _) => format!("{},{}", short(x), short(y)),
            (Value::Auto, _) => "auto".to_string(),
            (Value::Choice(i), _) => i.to_string(),
        }
    }

    /// Writes `value` exactly (every digit f32 keeps), for error messages: a rejected 10.00001
    /// must not read as an allowed 10.
    pub fn format_exact(&self, value: Value) -> String {
        match value {
            Value::Real(v) => v.to_string(),
            Value::Pair(x, y) => format!("{x},{y}"),
            other => self.format(other),
        }
    }

    /// What values are allowed, for help text: `[0.03, 0.1] cells/step`, `elsts | unity`, ...
    pub fn allowed(&self) -> String {
        let unit = if self.unit.is_empty() { String::new() } else { format!(" {}", self.unit) };
        match self.kind {
            ParamKind::Real(r) => format!("{}{unit}", r.describe()),
            ParamKind::Count { min, max, .. } => format!("{min}..={max}{unit}"),
            ParamKind::Choice(names) => names.join(" | "),
            ParamKind::Pair(r) => format!("X,Y each {}{unit}", r.describe()),
        }
    }

    /// Checks `value` against [`ParamInfo::kind`].
    ///
    /// # Errors
    /// [`ParamError`] naming the parameter, the value, the allowed range and why the side it
    /// crossed is refused.
    pub fn check(&self, value: Value) -> Result<(), ParamError> {
        let refuse = |why: String| Err(ParamError::new(self.name, self.format_exact(value), why));
        match (self.kind, value) {
            (_, Value::Auto) if self.auto.is_some() => Ok(()),
            (ParamKind::Real(r), Value::Real(v)) => r.refuse(v, self.unit).map_or(Ok(()), refuse),
            (ParamKind::Pair(r), Value::Pair(x, y)) => {
                for (axis, v) in [("x", x), ("y", y)] {
                    if let Some(why) = r.refuse(v, self.unit) {
                        return refuse(format!("the {axis} component: {why}"));
                    }
                }
                Ok(())
            }
            (ParamKind::Count { min, max, below, above }, Value::Count(v)) => {
                let why = if v < min {
                    below
                } else if v > max {
                    above
                } else {
                    return Ok(());
                };
                refuse(format!("allowed: {min}..={max}; {why}"))
            }
            (ParamKind::Choice(names), Value::Choice(i)) if i < names.len() => Ok(()),
            _ => refuse(format!("allowed: {}", self.allowed())),
        }
    }

    /// The value one key press away from `value`: `raise` adds [`ParamInfo::step`], otherwise
    /// subtracts it, clamped to the range; a choice moves to the next name either way.
    pub fn nudge(&self, value: Value, raise: bool) -> Value {
        let sign = if raise { 1.0 } else { -1.0 };
        match (self.kind, value) {
            (ParamKind::Real(r), Value::Real(v)) => {
                let mut next = (v + sign * self.step).clamp(r.min, r.max);
                // An open end is not reachable: stay where we were.
                if !r.contains(next) {
                    next = v;
                }
                Value::Real(next)
            }
            (ParamKind::Count { min, max, .. }, Value::Count(v)) => {
                let step = self.step as u32;
                Value::Count(if raise { v.saturating_add(step) } else { v.saturating_sub(step) }.clamp(min, max))
            }
            (ParamKind::Choice(names), Value::Choice(i)) => Value::Choice((i + 1) % names.len()),
            (_, v) => v,
        }
    }

    /// One line of `--help`: the doc, the allowed values, the default and its source.
    pub fn help(&self, default: Value) -> String {
        let default = match (default, self.auto) {
            (Value::Auto, Some(auto)) => auto.to_string(),
            (v, _) => self.format(v),
        };
        let source = if self.source.is_empty() { String::new() } else { format!(", {}", self.source) };
        format!("{} [allowed: {}] [default: {default}{source}]", self.doc, self.allowed())
    }
}

/// `v` with at most 4 significant digits and no trailing zeros: 0.07000001 -> `0.07`.
pub fn short(v: f32) -> String {
    if v == 0.0 || !v.is_finite() {
        return v.to_string();
    }
    let digits = (3 - v.abs().log10().floor() as i32).clamp(0, 9) as usize;
    let s = format!("{v:.digits$}");
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s }
}

/// `x` to `digits` significant digits as people write it: plain decimals from 0.001 to a
/// million (`61`, `0.0099`, `2079`), e-notation outside (`2.1e-6`, `3.4e38`).
pub fn readable(x: f64, digits: usize) -> String {
    let digits = digits.max(1);
    if x == 0.0 || !x.is_finite() {
        return x.to_string();
    }
    let magnitude = x.abs();
    if (1e-3..1e6).contains(&magnitude) {
        let decimals = (digits as i32 - 1 - magnitude.log10().floor() as i32).max(0) as usize;
        format!("{x:.decimals$}")
    } else {
        format!("{x:.prec$e}", prec = digits - 1)
    }
}

/// One parameter of the model whose parameter struct is `P`: what it is, and how to read and
/// write it.
pub struct ParamSpec<P> {
    /// Everything but the accessors.
    pub info: ParamInfo,
    /// Reads it from `P`.
    pub get: fn(&P) -> Value,
    /// Writes it into `P` (the value has the row's kind, already checked).
    pub set: fn(&mut P, Value),
}

impl<P> fmt::Debug for ParamSpec<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.info.fmt(f)
    }
}

/// A model's parameter struct with its table.
pub trait ParamTable: Copy + Default + PartialEq + fmt::Debug + 'static {
    /// One row per parameter, in the order the CLI applies them (a row may reset a later one:
    /// water's `preset` sets the side share, which `side-share` then overrides).
    const TABLE: &'static [ParamSpec<Self>];

    /// Checks every row.
    ///
    /// # Errors
    /// [`ParamError`] for the first value out of its range.
    fn check(&self) -> Result<(), ParamError> {
        for spec in Self::TABLE {
            spec.info.check((spec.get)(self))?;
        }
        self.check_together()
    }

    /// Checks what no single row can: limits of one parameter that depend on another. Runs
    /// after every row passed; none by default.
    ///
    /// # Errors
    /// [`ParamError`] naming the parameter to change, what it must be and why.
    fn check_together(&self) -> Result<(), ParamError> {
        Ok(())
    }

    /// Why row `name` does nothing with these parameters (smoke's `tolerance` with the Jacobi
    /// solver), and what to do instead; `None` when it is used (the default for every row). A
    /// front end refuses an option the user gave that would be silently ignored.
    fn unused(&self, _name: &str) -> Option<String> {
        None
    }

    /// Moves the parameters that [`Self::check_together`] ties to others to the nearest values
    /// it accepts (a viewer key that switches the gas flux to `central` raises the diffusion to
    /// what that flux needs); nothing by default.
    fn fit_together(&mut self) {}

    /// The row named `name`.
    fn spec(name: &str) -> Option<&'static ParamSpec<Self>> {
        Self::TABLE.iter().find(|s| s.info.name == name)
    }

    /// The value of parameter `name`, `None` if the table has no such row.
    fn get(&self, name: &str) -> Option<Value> {
        Self::spec(name).map(|s| (s.get)(self))
    }

    /// Sets `name` to `value` after checking it; nothing changes on error.
    ///
    /// # Errors
    /// [`ParamError`] when `value` is out of range, or `name` is not a parameter of this model.
    fn set_checked(&mut self, name: &str, value: Value) -> Result<(), ParamError> {
        set_row(self, name, value, Together::Check)
    }

    /// Sets `name` to `value` checking only its row: for a caller that sets several parameters
    /// and then calls [`Self::check`] (the command line), so that the order of the rows does
    /// not matter to limits that tie one parameter to another.
    ///
    /// # Errors
    /// [`ParamError`] when `value` is out of its row's range, or `name` is not a parameter of
    /// this model; nothing changes on error.
    fn set_row_only(&mut self, name: &str, value: Value) -> Result<(), ParamError> {
        set_row(self, name, value, Together::Later)
    }

    /// Sets `name` to `value` as an interactive control does: the value must be in its row's
    /// range, and the parameters tied to it move with it ([`Self::fit_together`]).
    ///
    /// # Errors
    /// As [`Self::set_checked`]; nothing changes on error.
    fn set_fitted(&mut self, name: &str, value: Value) -> Result<(), ParamError> {
        set_row(self, name, value, Together::Fit)
    }
}

/// What [`set_row`] does about limits that tie parameters together.
#[derive(Clone, Copy, PartialEq)]
enum Together {
    /// Refuse a value that breaks one ([`ParamTable::set_checked`]).
    Check,
    /// Move the tied parameters into range ([`ParamTable::set_fitted`]).
    Fit,
    /// Leave them to the caller's [`ParamTable::check`] ([`ParamTable::set_row_only`]).
    Later,
}

fn set_row<P: ParamTable>(p: &mut P, name: &str, value: Value, together: Together) -> Result<(), ParamError> {
    let spec =
        P::spec(name).ok_or_else(|| ParamError::new("parameter", name, "not a parameter of this model".to_string()))?;
    spec.info.check(value)?;
    let mut next = *p;
    (spec.set)(&mut next, value);
    match together {
        Together::Check => next.check()?,
        Together::Fit => {
            next.fit_together();
            next.check()?;
        }
        Together::Later => {}
    }
    *p = next;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readable_numbers() {
        assert_eq!(readable(61.0, 2), "61");
        assert_eq!(readable(0.0099, 2), "0.0099");
        assert_eq!(readable(2079.0408, 4), "2079");
        assert_eq!(readable(-0.5, 3), "-0.500");
        assert_eq!(readable(2.1e-6, 2), "2.1e-6");
        assert_eq!(readable(3.4e38, 2), "3.4e38");
    }

    #[test]
    fn short_numbers() {
        assert_eq!(short(0.07000001), "0.07");
        assert_eq!(short(0.9995), "0.9995");
        assert_eq!(short(0.999), "0.999");
        assert_eq!(short(1.125), "1.125");
        assert_eq!(short(10.0), "10");
        assert_eq!(short(-0.5), "-0.5");
    }

    #[test]
    fn range_gives_the_reason_of_the_side_crossed() {
        let r = Range::open_min(0.0, 10.0, "at 0 nothing moves", "above 10 it is too coarse");
        assert_eq!(r.refuse(5.0, ""), None);
        assert!(r.refuse(0.0, "").unwrap().contains("nothing moves"));
        assert!(r.refuse(11.0, "").unwrap().contains("too coarse"));
        assert!(r.refuse(f32::NAN, "").unwrap().contains("finite"));
        assert!(r.contains(10.0) && !r.contains(0.0));
    }
}
