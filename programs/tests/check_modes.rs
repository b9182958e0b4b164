//! `--check full|sample|off` on the matmuls: a sampled check compares a deterministic subset of output
//! tiles (and fails when one of them is wrong), an unchecked run says so, and all three time the same.

use programs::checks::{check_matmul, matmul_reference, sampled_tiles};
use programs::{CheckMode, ExampleOptions};
use sim_device::{Arch, Device};

fn run(name: &str, check: CheckMode) -> programs::Outcome {
    let ex = programs::find(name).unwrap();
    let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
    let o = ExampleOptions { size: Some(256), check: Some(check), ..ExampleOptions::default() };
    ex.check_options(&o).unwrap();
    (ex.run)(&mut dev, &o).unwrap()
}

#[test]
fn the_three_modes_time_the_same_and_say_what_they_checked() {
    for name in ["matmul_multi_core", "matmul_multicore_reuse_mcast", "matmul_2d_mcast"] {
        let (full, sample, off) = (run(name, CheckMode::Full), run(name, CheckMode::Sample), run(name, CheckMode::Off));
        assert!(full.passed && sample.passed, "{name}: {} / {}", full.check, sample.check);
        assert!(sample.check.contains("sampled: 64 of"), "{}", sample.check);
        assert!(off.check.contains("not checked (check mode off)"), "{}", off.check);
        assert_eq!((full.report.cycles, sample.report.cycles), (off.report.cycles, off.report.cycles));
    }
    // Options that do not take --check refuse it.
    let o = ExampleOptions { check: Some(CheckMode::Sample), ..ExampleOptions::default() };
    assert!(
        programs::find("loopback")
            .unwrap()
            .check_options(&o)
            .unwrap_err()
            .to_string()
            .contains("check does not apply to loopback")
    );
}

#[test]
fn a_sampled_check_fails_when_a_sampled_tile_is_wrong() {
    let (m, n, k) = (256usize, 512usize, 64usize);
    let a: Vec<f32> = (0..m * k).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
    let b: Vec<f32> = (0..k * n).map(|i| ((i * 5) % 11) as f32 - 5.0).collect();
    let c = matmul_reference(&a, &b, m, n, k);
    let reference = |picked: Option<&[(usize, usize)]>| match picked {
        None => c.clone(),
        Some(t) => programs::checks::matmul_reference_tiles(&a, &b, n, k, t),
    };
    let (ok, _) = check_matmul("t", CheckMode::Sample, &c, (m, n), reference, 3, 0.999);
    assert!(ok);
    // Break one sampled tile.
    let picked = sampled_tiles(m / 32, n / 32, 3);
    assert_eq!(picked, sampled_tiles(m / 32, n / 32, 3), "deterministic");
    assert_eq!(picked.len(), 64.min((m / 32) * (n / 32)));
    let (ti, tj) = picked[picked.len() / 2];
    let mut bad = c.clone();
    for r in 0..32 {
        for col in 0..32 {
            bad[(ti * 32 + r) * n + tj * 32 + col] = -bad[(ti * 32 + r) * n + tj * 32 + col] * 3.0;
        }
    }
    let (ok, line) = check_matmul("t", CheckMode::Sample, &bad, (m, n), reference, 3, 0.999);
    assert!(!ok, "{line}");
}
