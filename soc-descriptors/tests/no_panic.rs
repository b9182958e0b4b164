//! Arbitrary text given as a SoC or core descriptor is a valid description or a named error, never a panic
//! (the quick, always-on cousin of the `cargo fuzz` targets in fuzz/).

use proptest::prelude::*;
use soc_descriptors::{CoreDescriptor, SocDescriptor};

/// Text that looks like YAML: keys, lists, numbers and coordinates from the descriptors' own vocabulary.
fn yamlish() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("grid:\n".to_string()),
        Just("  x_size: ".to_string()),
        Just("  y_size: ".to_string()),
        Just("arch_name: ".to_string()),
        Just("WORMHOLE_B0\n".to_string()),
        Just("dram:\n".to_string()),
        Just("  - [0-0, 0-1]\n".to_string()),
        Just("functional_workers:\n".to_string()),
        Just("worker_l1_size: ".to_string()),
        Just("- ".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just("{".to_string()),
        Just(": ".to_string()),
        "-?[0-9]{1,12}".prop_map(|s| s),
        "[0-9]{1,2}-[0-9]{1,2}".prop_map(|s| s),
        "[a-z_]{1,10}".prop_map(|s| s),
        Just("\n".to_string()),
    ];
    proptest::collection::vec(token, 0..60).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn soc_descriptors_never_panic(text in yamlish()) {
        let _ = SocDescriptor::from_yaml_str(&text, "random.yaml");
    }

    #[test]
    fn core_descriptors_never_panic(text in yamlish()) {
        let _ = CoreDescriptor::from_yaml_str(&text, "random.yaml");
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = SocDescriptor::from_yaml_str(&text, "bytes.yaml");
        let _ = CoreDescriptor::from_yaml_str(&text, "bytes.yaml");
    }
}
