//! Arbitrary `--set` overrides are applied or rejected with an error naming the key and value; whatever
//! passes the checks opens a device and runs a program without a panic or a wrapped number.

use proptest::prelude::*;
use sim_device::prelude::*;
use sim_device::{Kernel, Params};

fn assignment() -> impl Strategy<Value = String> {
    let keys: Vec<&'static str> = Params::builtin(Arch::WormholeB0).entries().iter().map(|e| e.key).collect();
    let value = prop_oneof![
        (0u64..4).prop_map(|v| v.to_string()),
        (0u64..2_000_000).prop_map(|v| v.to_string()),
        any::<u64>().prop_map(|v| v.to_string()),
        Just("-1".to_string()),
        Just("1.5".to_string()),
        Just("x".to_string()),
        Just("99999999999999999999999".to_string()),
    ];
    (proptest::sample::select(keys), value).prop_map(|(k, v)| format!("{k}={v}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn overrides_are_checked_and_accepted_ones_run(sets in proptest::collection::vec(assignment(), 1..4)) {
        let mut p = Params::builtin(Arch::WormholeB0);
        for s in &sets {
            if let Err(e) = p.set("--set", s) {
                let key = s.split('=').next().unwrap();
                prop_assert!(e.to_string().contains(key), "{e}");
            }
        }
        if p.validate("--set").is_err() {
            return Ok(());
        }
        let Ok(mut dev) = Device::open_with_params(&ChipSpec::builtin(Arch::WormholeB0), p) else { return Ok(()) };
        let mut prog = Program::new();
        let c = CoreCoord::new(0, 0);
        prog.create_kernel(
            Kernel::dataflow("probe", |k: &mut Dataflow| {
                let a = k.get_noc_addr(k.my_x(NocId::Noc0), k.my_y(NocId::Noc0), 0x40000);
                k.noc_async_write(0x30000, a, 64);
                k.noc_async_write_barrier();
            }),
            c,
            DataMovementConfig::default(),
        )
        .unwrap();
        // Any outcome but a panic: a report, or an error (e.g. the watchdog with a tiny sim.max_cycles).
        if let Ok(r) = dev.enqueue_program(&prog) {
            prop_assert!(r.cycles.0 < u64::MAX / 2, "no wrapped cycle count");
        }
    }
}
