//! The viewer (placeholder while the runner is built).
use crate::cli::{Result, ViewArgs};
pub fn run(_args: ViewArgs) -> Result {
    Err("viewer not built yet".into())
}
