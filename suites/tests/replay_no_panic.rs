//! Arbitrary replay inputs — events with any fields, values and types — parse into checked events or fail
//! with a named error, and what parses replays without a panic (the always-on cousin of the `trace_json`
//! fuzz target in fuzz/).

use proptest::prelude::*;
use sim_device::prelude::*;
use suites::replay::{Mode, parse_replay_input, replay};

fn field() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        Just("proc"),
        Just("noc"),
        Just("sx"),
        Just("sy"),
        Just("dx"),
        Just("dy"),
        Just("num_bytes"),
        Just("type"),
        Just("timestamp"),
        Just("zone"),
        Just("zone_phase"),
        Just("mcast_start_x"),
        Just("mcast_end_y"),
    ];
    let value = prop_oneof![
        (-3i64..20).prop_map(|v| v.to_string()),
        (0u64..100_000).prop_map(|v| v.to_string()),
        Just("\"BRISC\"".to_string()),
        Just("\"NCRISC\"".to_string()),
        Just("\"NOC_0\"".to_string()),
        Just("\"NOC_1\"".to_string()),
        Just("\"READ\"".to_string()),
        Just("\"WRITE\"".to_string()),
        Just("\"WRITE_MULTICAST\"".to_string()),
        Just("\"SEMAPHORE_INC\"".to_string()),
        Just("\"READ_BARRIER_START\"".to_string()),
        Just("\"begin\"".to_string()),
        Just("null".to_string()),
        Just("[]".to_string()),
    ];
    (key, value).prop_map(|(k, v)| format!("\"{k}\":{v}"))
}

fn trace() -> impl Strategy<Value = String> {
    let event = proptest::collection::vec(field(), 0..10).prop_map(|f| format!("{{{}}}", f.join(",")));
    proptest::collection::vec(event, 0..12).prop_map(|e| format!("[{}]", e.join(",")))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn replay_inputs_never_panic(text in trace()) {
        if let Ok(input) = parse_replay_input(&text, "random.json") {
            let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
            let _ = replay(&mut dev, &input, Mode::Kernels, "random.json");
            let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
            let _ = replay(&mut dev, &input, Mode::Timestamps, "random.json");
        }
    }
}
