//! The book's memory figures against the code they describe: the two tables of per-cell bytes
//! in docs/cli.md ("Grid size and memory") must be what `ModelInfo` and `memory::estimate` say,
//! so a texture added to a model, or a change to the estimate, fails here until the page is
//! updated. (The README's figures were once stale by 8 to 21 bytes a cell.)
//!
//! The page is read at run time from the checkout: a packaged crate carries no `docs/`.

use eddy_fluid::model::ModelKind;
use eddy_fluid::model::memory::{Extras, estimate};

/// The rows of the markdown table that follows the line starting with `header`, split into
/// trimmed cells.
fn table(page: &str, header: &str) -> Vec<Vec<String>> {
    let mut lines = page.lines().skip_while(|l| !l.starts_with(header)).skip(2);
    let mut rows = Vec::new();
    for line in lines.by_ref() {
        if !line.starts_with('|') {
            break;
        }
        rows.push(line.trim_matches('|').split('|').map(|c| c.trim().to_string()).collect());
    }
    assert!(!rows.is_empty(), "no table after {header:?} in docs/cli.md");
    rows
}

/// The first whole number in a cell ("165 bytes/cell (the staggered ...)" is 165).
fn bytes(cell: &str) -> u64 {
    let digits: String = cell.chars().skip_while(|c| !c.is_ascii_digit()).take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().unwrap_or_else(|_| panic!("no number in {cell:?}"))
}

#[test]
fn the_memory_tables_say_what_the_estimate_computes() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md")).unwrap();
    let per_model = table(&page, "| model | GPU textures |");
    let per_run = table(&page, "| model | GPU | host |");
    for kind in ModelKind::ALL {
        let name = kind.to_string();
        let info = kind.info();
        let row = per_model.iter().find(|r| r[0] == name).unwrap_or_else(|| panic!("no {name} row"));
        let textures: u64 = info.textures.iter().map(|&(_, b, n)| b as u64 * n as u64).sum();
        let largest = info.textures.iter().map(|t| t.1 as u64).max().unwrap();
        let wanted = [textures, largest, info.state_bytes_per_cell as u64, info.host_bytes_per_cell as u64];
        let said: Vec<u64> = row[1..5].iter().map(|c| bytes(c)).collect();
        assert_eq!(said, wanted, "{name}: docs/cli.md's textures, largest, checkpoint, host per cell");

        let run = estimate(kind, 1024, 1024, Extras { checkpoint: true, frame_scale: None });
        let row = per_run.iter().find(|r| r[0] == name).unwrap_or_else(|| panic!("no {name} row"));
        let wanted = [run.gpu_per_cell, run.host_per_cell, run.gpu_per_cell + run.host_per_cell];
        let said: Vec<u64> = row[1..4].iter().map(|c| bytes(c)).collect();
        assert_eq!(said, wanted, "{name}: docs/cli.md's GPU, host and together per cell of a plain run");
    }
}
