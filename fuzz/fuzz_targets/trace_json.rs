//! Fuzz target: any text given to `tensim replay` parses into checked events or a named error; a parsed
//! trace also replays without a panic (it may fail with a named error).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(input) = suites::replay::parse_replay_input(text, "fuzz.json") {
            if let Ok(mut dev) = sim_device::Device::builtin(sim_device::Arch::WormholeB0) {
                let _ = suites::replay::replay(&mut dev, &input, suites::replay::Mode::Kernels, "fuzz.json");
            }
        }
    }
});
