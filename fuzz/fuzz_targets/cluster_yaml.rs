//! Fuzz target: arbitrary bytes as a cluster descriptor are a cluster or a named error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = soc_descriptors::ClusterDescriptor::from_yaml_str(&text, "fuzz.yaml");
});
