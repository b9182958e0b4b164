//! Calibration: tensim's one_to_one sweep reproduces the silicon tables of ../shared/calibration within the
//! targets (median error ≤ 10%, worst ≤ 20% of the latency) on Wormhole B0 and Blackhole.

use sim_device::prelude::*;
use std::path::PathBuf;
use suites::dm_bench::{DEFAULT_COUNTS, Suite, SuiteArgs, builtin, compare, default_sizes, parse_table, run_sweep};

fn calibration_dir() -> Option<PathBuf> {
    let d = soc_descriptors::test_skips::calibration_dir(env!("CARGO_MANIFEST_DIR"));
    let key = "suites/calibration: calibration checks";
    if d.join("wormhole_b0_one_to_one.md").is_file() {
        soc_descriptors::test_skips::note(env!("CARGO_TARGET_TMPDIR"), key, None);
        Some(d)
    } else {
        soc_descriptors::test_skips::note(
            env!("CARGO_TARGET_TMPDIR"),
            key,
            Some("../shared/calibration not found (TENSIM_CALIBRATION_DIR)"),
        );
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "\n*** WARNING: ../shared/calibration not found (set TENSIM_CALIBRATION_DIR): calibration checks SKIPPED ***\n"
        );
        None
    }
}

#[test]
fn one_to_one_matches_silicon_on_both_chips() {
    let Some(dir) = calibration_dir() else { return };
    for (arch, file) in [(Arch::WormholeB0, "wormhole_b0_one_to_one.md"), (Arch::Blackhole, "blackhole_one_to_one.md")]
    {
        let measured = parse_table(&std::fs::read_to_string(dir.join(file)).unwrap(), file).unwrap();
        let dev = Device::builtin(arch).unwrap();
        let suite = Suite::parse("one_to_one", &SuiteArgs::default()).unwrap();
        let sizes = default_sizes(dev.params().noc.flit_bytes);
        let sim = run_sweep(&builtin(arch), &suite, &sizes, &DEFAULT_COUNTS, &|| ()).unwrap();
        let c = compare(&sim, &measured);
        assert_eq!(c.rows.len(), measured.len(), "{file}: every measured row has a simulated twin");
        eprintln!("{file}: rows {}, median {:.1}%, worst {:.1}%", c.rows.len(), c.median * 100.0, c.worst * 100.0);
        assert!(c.median <= 0.10, "{file}: median error {:.1}%\n{}", c.median * 100.0, c.report());
        assert!(c.worst <= 0.20, "{file}: worst error {:.1}%\n{}", c.worst * 100.0, c.report());
    }
}
