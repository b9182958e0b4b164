//! Fuzz target: a parameter data file and `--set` overrides are either applied or rejected with a named
//! error; whatever is accepted opens a device without a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sim_device::{Arch, ChipSpec, Device, Params};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = Params::from_data_file(Arch::WormholeB0, text, "fuzz.yaml");
    let mut p = Params::builtin(Arch::WormholeB0);
    for line in text.lines() {
        let _ = p.set(line);
    }
    if p.validate("fuzz").is_ok() {
        let _ = Device::open_with_params(&ChipSpec::builtin(Arch::WormholeB0), p);
    }
});
