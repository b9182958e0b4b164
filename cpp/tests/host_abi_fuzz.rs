//! The host ABI's argument checks under arbitrary calls: random sequences of host calls with small and
//! extreme arguments (handles that do not exist, sizes of 2^64-1, L1 addresses past the end, core ranges
//! off the grid, formats out of range) each return 0 or an error with a message, never a panic inside
//! tensim. The same driver runs under `cargo fuzz run host_abi` (see the README) for longer searches.

use cpp::host::HostConfig;
use proptest::prelude::*;
use sim_device::Arch;

fn config() -> HostConfig {
    cpp::host::fuzz::builtin_config(Arch::WormholeB0, 2)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn arbitrary_host_calls_fail_with_messages(calls in proptest::collection::vec(any::<u8>(), 0..400)) {
        // Most sequences start from an open device 0 and a program, so calls reach past "no such device".
        let mut bytes = vec![1, 0, 10];
        bytes.extend(calls);
        let r = cpp::host::fuzz::drive(config(), &bytes);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

/// A sequence that opens a device, makes buffers and a program, and uses them: the driver reaches past
/// the first failing call (a test that only ever met "no such device" would prove little).
#[test]
fn the_driver_reaches_buffers_and_programs() {
    // open_device(0), create_buffer(dev 0, size word 4096, page 2048, DRAM, interleaved, allocated),
    // write_buffer(0), read_buffer(0), create_program, run_program(0, 0).
    let bytes = [1, 0, 4, 0, 5, 255, 1, 0, 0, 0, 0, 7, 0, 1, 8, 0, 1, 10, 16, 0, 0];
    let made = cpp::host::fuzz::drive(config(), &bytes).expect("no finding");
    assert_eq!(made, 6);
}
