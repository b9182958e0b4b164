//! Memory bench: peak resident memory of a Wormhole device running the DRAM loopback example (L1 of 80
//! cores is ~115 MB of address space, zero-allocated so only touched pages are resident; DRAM is sparse).
//! Run: `cargo bench -p benches --bench memory` (Linux: reads VmHWM from /proc/self/status).

use programs::{ExampleOptions, find};
use sim_device::prelude::*;

fn vm_hwm_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    s.lines().find(|l| l.starts_with("VmHWM:"))?.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let before = vm_hwm_kib();
    let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
    let out = (find("loopback").unwrap().run)(&mut dev, &ExampleOptions::default()).unwrap();
    assert!(out.passed, "{}", out.check);
    let after = vm_hwm_kib();
    println!("loopback on wormhole_b0: {} cycles, passed", out.report.cycles.0);
    println!("  simulated DRAM resident       {} KiB", dev.dram_resident_bytes() / 1024);
    match (before, after) {
        (Some(b), Some(a)) => {
            println!("  peak RSS (VmHWM) before/after {b} KiB / {a} KiB ({:.1} MB)", a as f64 / 1024.0)
        }
        _ => println!("  peak RSS: /proc/self/status not available on this system"),
    }
}
