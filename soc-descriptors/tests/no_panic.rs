//! Arbitrary text given as a SoC or core descriptor is a valid description or a named error, never a panic
//! (the quick, always-on cousin of the `cargo fuzz` targets in fuzz/).

use proptest::prelude::*;
use soc_descriptors::{ClusterDescriptor, CoreDescriptor, SocDescriptor};

/// An n300 cluster descriptor with `#` where numbers go.
const CLUSTER: &str = "arch: {#: Wormhole, #: Wormhole}\nchips: {#: [#,0,0,0], #: [#,0,0,0]}\nethernet_connections: [[{chip: #, chan: #}, {chip: #, chan: #}], [{chip: #, chan: 9}, {chip: 1, chan: #}]]\nchips_with_mmio: [#: #]\nharvesting: {#: {noc_translation: true, harvest_mask: #}, 1: {noc_translation: true, harvest_mask: #}}\nboards: [[{board_id: 7}, {board_type: n300}, {chips: [#,1]}]]\n";

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
        let _ = ClusterDescriptor::from_yaml_str(&text, "bytes.yaml");
    }

    #[test]
    fn cluster_descriptors_with_random_numbers_never_panic(nums in proptest::collection::vec(0u64..u64::MAX, 16)) {
        // A valid n300 file with every number replaced: ids, channels, masks and indices out of range.
        let mut it = nums.iter().cycle();
        let text = CLUSTER.split('#').map(|part| part.to_string()).reduce(|a, b| format!("{a}{}{b}", it.next().unwrap() % 40)).unwrap();
        let _ = ClusterDescriptor::from_yaml_str(&text, "cluster.yaml");
    }
}
