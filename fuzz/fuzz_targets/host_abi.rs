//! Fuzz target: any sequence of host ABI calls a C++ host program could make — handles that do not
//! exist, sizes up to 2^64-1, L1 addresses past the end, core ranges off the grid — returns 0 or an error
//! with a message; a panic caught inside tensim ("internal error") is a finding.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sim_device::{Arch, Device};

fuzz_target!(|data: &[u8]| {
    let cfg = cpp::host::HostConfig {
        arch: Arch::WormholeB0,
        num_devices: 2,
        open: Box::new(|_| Device::builtin(Arch::WormholeB0).map_err(|e| e.to_string())),
        on_run: Box::new(|_, _, _| {}),
        kernel_roots: Vec::new(),
        system: None,
        workers: 1,
        pick_system: None,
    };
    if let Err(finding) = cpp::host::fuzz::drive(cfg, data) {
        panic!("{finding}");
    }
});
