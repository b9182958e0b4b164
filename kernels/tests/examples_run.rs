//! Every example program runs on the built-in Wormhole B0 and Blackhole and passes its own check.

use kernels::{ExampleOptions, list};
use sim_device::prelude::*;

#[test]
fn every_example_passes_on_wormhole_and_blackhole() {
    for arch in [Arch::WormholeB0, Arch::Blackhole] {
        for ex in list() {
            let mut dev = Device::builtin(arch).unwrap();
            let out =
                (ex.run)(&mut dev, &ExampleOptions::default()).unwrap_or_else(|e| panic!("{} on {arch}: {e}", ex.name));
            assert!(out.passed, "{} on {arch}: {}", ex.name, out.check);
            assert!(out.report.cycles.0 > 0, "{} on {arch}: no cycles", ex.name);
            eprintln!("{:<28} {arch:<12} {:>8} cycles  {}", ex.name, out.report.cycles.0, out.check);
        }
    }
}
