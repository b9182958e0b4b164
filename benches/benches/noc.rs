//! Speed bench of the NoC model: the whole Wormhole one_to_one sweep, the six sample traces replayed in
//! kernels mode, and an 8x8 all-to-all moving 1 MiB out of every core (63 destinations × 16 KiB).
//! Run: `cargo bench -p benches --bench noc` (uses ../shared/calibration for the traces).

use sim_device::prelude::*;
use std::path::PathBuf;
use std::time::Instant;
use suites::dm_bench::{DEFAULT_COUNTS, Suite, SuiteArgs, builtin, default_sizes, run_sweep};
use suites::replay::{Mode, parse_replay_input, replay};

fn best_of<T>(n: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::MAX;
    let mut out = None;
    for _ in 0..n {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed().as_secs_f64());
        out = Some(r);
    }
    (best, out.expect("n > 0"))
}

fn main() {
    // 1. The one_to_one sweep (60 runs).
    let (secs, rows) = best_of(5, || {
        let s = Suite::parse("one_to_one", &SuiteArgs::default()).unwrap();
        run_sweep(&builtin(Arch::WormholeB0), &s, &default_sizes(32), &DEFAULT_COUNTS, &|| ()).unwrap()
    });
    let cycles: u64 = rows.iter().map(|r| r.latency as u64).sum();
    println!(
        "one_to_one sweep (Wormhole, {} runs): {:.4} s wall, {} simulated cycles, {:.1} M cycles/s",
        rows.len(),
        secs,
        cycles,
        cycles as f64 / secs / 1e6
    );

    // 2. The six sample traces, kernels mode.
    let dir = std::env::var_os("TENSIM_SOC_DIR")
        .map(|s| PathBuf::from(s).join("../calibration/noc_traces"))
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/calibration/noc_traces"));
    match std::fs::read_dir(&dir) {
        Ok(rd) => {
            let mut files: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
            files.sort();
            let inputs: Vec<_> =
                files.iter().map(|f| parse_replay_input(&std::fs::read_to_string(f).unwrap(), "t").unwrap()).collect();
            let (secs, total) = best_of(5, || {
                inputs
                    .iter()
                    .map(|i| {
                        let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
                        replay(&mut dev, i, Mode::Kernels, "trace").unwrap().predicted
                    })
                    .sum::<u64>()
            });
            println!(
                "six sample traces, kernels mode: {:.4} s wall together ({} predicted cycles in all)",
                secs, total
            );
        }
        Err(_) => println!("(traces not found under {}: skipped)", dir.display()),
    }

    // 3. 8x8 all-to-all, 1 MiB out of every core.
    let (secs, r) = best_of(3, || {
        let s = Suite::parse("all_to_all", &SuiteArgs { grid: Some("8x8"), ..Default::default() }).unwrap();
        run_sweep(&builtin(Arch::WormholeB0), &s, &[16384], &[1], &|| ()).unwrap()
    });
    let lat = r[0].latency;
    println!(
        "all_to_all 8x8, 63 x 16 KiB = 1008 KiB out of each of 64 cores: {lat} simulated cycles (slowest sender zone) in {:.3} s wall, {:.2} M simulated cycles/s",
        secs,
        lat / secs / 1e6
    );
}
