//! The last test binary of the workspace (`harness = false`, so its output is not captured): one line
//! saying which tests skipped in this run and why (data outside the repository, a missing tool), or that
//! none did. Tests record their skips with `soc_descriptors::test_skips::note`.

fn main() {
    let skips = soc_descriptors::test_skips::recorded(env!("CARGO_TARGET_TMPDIR"));
    if skips.is_empty() {
        println!("tensim tests: nothing skipped (../shared found, cmake found)");
        return;
    }
    let parts: Vec<String> = skips.iter().map(|(test, why)| format!("{test} ({why})")).collect();
    println!(
        "tensim tests: {} skipped — {}. Set TENSIM_SOC_DIR=../shared/soc and TENSIM_CALIBRATION_DIR=../shared/calibration (or put ../shared next to the repository) and install cmake to run them",
        skips.len(),
        parts.join("; ")
    );
}
