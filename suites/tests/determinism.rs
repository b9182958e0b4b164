//! Suites are deterministic with any number of host threads.

use sim_device::prelude::*;

/// A sweep spread over several host threads gives exactly the rows of a one-thread run (order and numbers).
#[test]
fn parallel_sweeps_equal_serial_ones() {
    use suites::dm_bench::{Suite, SuiteArgs, builtin, run_sweep};
    let sweep = |threads: usize, suite: &Suite| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| run_sweep(&builtin(Arch::WormholeB0), suite, &[64, 2048, 16384], &[1, 4, 16], &|| ())).unwrap()
    };
    for (name, grid) in [("one_to_one", None), ("all_to_all", Some("4x4")), ("dram_interleaved", None)] {
        let s = Suite::parse(name, &SuiteArgs { grid, ..Default::default() }).unwrap();
        let serial = sweep(1, &s);
        let parallel = sweep(3, &s);
        assert_eq!(serial, parallel, "{name}");
        let mut ids: Vec<u32> = serial.iter().map(|r| r.run_host_id).collect();
        ids.dedup();
        assert_eq!(ids, (0..9).collect::<Vec<_>>(), "{name}: rows in tt-metal's run order");
    }
}
