//! Fuzz target: any sequence of host ABI calls a C++ host program could make — handles that do not
//! exist, sizes up to 2^64-1, L1 addresses past the end, core ranges off the grid — returns 0 or an error
//! with a message; a panic caught inside tensim ("internal error") is a finding.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sim_device::Arch;

fuzz_target!(|data: &[u8]| {
    let cfg = cpp::host::fuzz::builtin_config(Arch::WormholeB0, 2);
    if let Err(finding) = cpp::host::fuzz::drive(cfg, data) {
        panic!("{finding}");
    }
});
