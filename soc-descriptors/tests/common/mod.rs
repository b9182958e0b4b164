//! Shared helpers of the soc-descriptors integration tests: where the real descriptor files are.

use std::io::Write;
use std::path::PathBuf;

/// The directory of real SoC/core descriptor files: `$TENSIM_SOC_DIR`, else `../shared/soc` next to the
/// workspace. Prints a loud warning (uncaptured) and returns `None` when neither exists.
pub fn soc_dir() -> Option<PathBuf> {
    let candidates: Vec<PathBuf> = match std::env::var_os("TENSIM_SOC_DIR") {
        Some(d) => vec![PathBuf::from(d)],
        None => vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/soc")],
    };
    let key = "soc-descriptors: comparisons with the real descriptor files";
    for c in candidates {
        if c.join("tt-metal").is_dir() {
            soc_descriptors::test_skips::note(env!("CARGO_TARGET_TMPDIR"), key, None);
            return Some(c);
        }
    }
    soc_descriptors::test_skips::note(
        env!("CARGO_TARGET_TMPDIR"),
        key,
        Some("../shared/soc not found (TENSIM_SOC_DIR)"),
    );
    let _ = writeln!(
        std::io::stderr(),
        "\n*** WARNING: TENSIM_SOC_DIR is not set and ../shared/soc was not found: the comparisons against \
         tt-metal's and tt-umd's real descriptor files were SKIPPED. Set TENSIM_SOC_DIR=../shared/soc. ***\n"
    );
    None
}

/// Every `*.yaml` file under `dir/sub`, sorted.
pub fn yamls(dir: &std::path::Path, sub: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir.join(sub))
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.join(sub).display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    v.sort();
    v
}
