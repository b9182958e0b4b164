//! For tensim's test suites: tests that need data outside the repository (../shared) or a tool (cmake) and
//! skip without it record why here, and the workspace's last test binary prints one summary line of
//! everything skipped in the run (`tensim/tests/zz_test_skips.rs`). Records live in the test target's
//! temporary folder, one file per test, removed when the test runs in full.

use std::path::{Path, PathBuf};

fn dir(target_tmp: &str) -> PathBuf {
    Path::new(target_tmp).join("tensim-test-skips")
}

/// Note that `test` (a unique name) skipped for `why`, or (`None`) ran in full. `target_tmp` is the test's
/// `env!("CARGO_TARGET_TMPDIR")`.
pub fn note(target_tmp: &str, test: &str, why: Option<&str>) {
    let d = dir(target_tmp);
    let file = d.join(test.replace(['/', ' ', ':'], "_"));
    match why {
        Some(why) => {
            let _ = std::fs::create_dir_all(&d);
            let _ = std::fs::write(file, format!("{test}\t{why}\n"));
        }
        None => {
            let _ = std::fs::remove_file(file);
        }
    }
}

/// Where the silicon measurements are: `$TENSIM_CALIBRATION_DIR`, else `$TENSIM_SOC_DIR/../calibration`,
/// else `../shared/calibration` next to the repository (`manifest_dir` is the test crate's
/// `env!("CARGO_MANIFEST_DIR")`). The caller checks for the file it needs.
pub fn calibration_dir(manifest_dir: &str) -> PathBuf {
    std::env::var_os("TENSIM_CALIBRATION_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("TENSIM_SOC_DIR").map(|s| PathBuf::from(s).join("../calibration")))
        .unwrap_or_else(|| Path::new(manifest_dir).join("../../shared/calibration"))
}

/// Every skip recorded, as (test, why), sorted.
pub fn recorded(target_tmp: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir(target_tmp))
        .into_iter()
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
        .filter_map(|t| t.trim_end().split_once('\t').map(|(a, b)| (a.to_string(), b.to_string())))
        .collect();
    out.sort();
    out
}
