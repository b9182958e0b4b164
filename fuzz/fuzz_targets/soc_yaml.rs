//! Fuzz target: any text given as a SoC descriptor is either a valid chip or a named error, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = soc_descriptors::SocDescriptor::from_yaml_str(text, "fuzz.yaml");
    }
});
