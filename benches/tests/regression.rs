//! The regression bench: the suite's simulated cycles and NoC/DRAM statistics must equal the checked-in
//! baseline exactly (tensim is deterministic). After an intended timing change, re-record it with
//! `TENSIM_BLESS=1 cargo test -p benches --test regression` and commit the new baseline with the change.

use benches::regression::{BASELINE, compare, parse_csv, run_suite, to_csv};
use std::path::PathBuf;

#[test]
fn simulated_cycles_match_the_baseline() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(BASELINE);
    let current = run_suite().unwrap_or_else(|e| panic!("{e}"));
    if std::env::var_os("TENSIM_BLESS").is_some() {
        std::fs::write(&path, to_csv(&current)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        eprintln!("baseline re-recorded: {} ({} rows)", path.display(), current.len());
        return;
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let baseline = parse_csv(&text, &path.display().to_string()).unwrap_or_else(|e| panic!("{e}"));
    let drift = compare(&baseline, &current);
    assert!(
        drift.is_empty(),
        "{} differences from {}:\n  {}\nIf the change is intended, run `TENSIM_BLESS=1 cargo test -p benches --test regression` and commit the baseline.",
        drift.len(),
        path.display(),
        drift.join("\n  ")
    );
}
