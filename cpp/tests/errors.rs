//! C++ kernel mistakes give clear errors: a compile error shows the user's file and line, a missing
//! kernel file is named, an API call from the wrong kind of kernel is named.

use sim_device::prelude::*;
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

#[test]
fn a_compile_error_names_the_users_file_and_line() {
    if let Err(e) = cpp::compile::compiler() {
        panic!("this test compiles C++ kernels and needs the host C++ compiler: {e}");
    }
    let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
    let mut p = Program::new();
    let path = data("broken_kernel.cpp");
    let e = cpp::create_kernel(&mut p, &mut dev, &path, CoreCoord::new(0, 0), DataMovementConfig::reader(vec![]))
        .unwrap_err()
        .to_string();
    assert!(e.contains("cannot compile kernel") && e.contains("data movement, RISCV_1"), "{e}");
    assert!(e.contains(&format!("{}:5:", path.display())), "the message points at line 5 of the kernel: {e}");
    assert!(e.contains("undeclared_name"), "{e}");
    assert!(!e.contains("-0.cpp") && !e.contains("In file included from"), "tensim's wrapper is hidden: {e}");
}

#[test]
fn a_missing_kernel_file_is_named() {
    let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
    let mut p = Program::new();
    let e = cpp::create_kernel(&mut p, &mut dev, "no/such/kernel.cpp", CoreCoord::new(0, 0), ComputeConfig::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("kernel file no/such/kernel.cpp") && e.contains("No such file"), "{e}");
}

/// SFPI misuse in a C++ kernel: `dst_reg` outside any SFPU wrapper, and a vector past the DST section, are
/// errors naming the call.
#[test]
fn sfpi_misuse_is_named() {
    if let Err(e) = cpp::compile::compiler() {
        panic!("this test compiles C++ kernels and needs the host C++ compiler: {e}");
    }
    for (defines, want) in [
        (vec![("OUTSIDE".to_string(), "1".to_string())], "a dst_reg write outside an SFPU function"),
        (vec![], "_llk_math_eltwise_unary_sfpu_params_: dst_reg[1000]"),
    ] {
        let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
        let mut p = Program::new();
        let cfg = ComputeConfig { defines, ..Default::default() };
        cpp::create_kernel(&mut p, &mut dev, data("sfpi_misuse.cpp"), CoreCoord::new(0, 0), cfg).unwrap();
        let e = dev.enqueue_program(&p).unwrap_err().to_string();
        assert!(e.contains(want), "{e}");
    }
}

/// Loads and stores through L1 pointers take RISC-V time, and a kernel spinning on an L1 word through a
/// pointer sees another RISC's pointer store: two RISCs hand 100 words over with pointers only.
#[test]
fn l1_pointer_accesses_are_timed_and_wake_pointer_polls() {
    if let Err(e) = cpp::compile::compiler() {
        panic!("this test compiles C++ kernels and needs the host C++ compiler: {e}");
    }
    let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
    let core = CoreCoord::new(0, 0);
    let (words, copy) = (0x40000u32, 0x41000u32);
    let mut p = Program::new();
    let writer = DataMovementConfig {
        processor: DataMovementProcessor::RISCV_1,
        noc: NocId::Noc1,
        defines: vec![("WRITER".into(), "1".into())],
        ..Default::default()
    };
    let reader = DataMovementConfig { processor: DataMovementProcessor::RISCV_0, ..Default::default() };
    let w = cpp::create_kernel(&mut p, &mut dev, data("pointer_handshake.cpp"), core, writer).unwrap();
    let r = cpp::create_kernel(&mut p, &mut dev, data("pointer_handshake.cpp"), core, reader).unwrap();
    p.set_runtime_args(w, core, &[words, copy]).unwrap();
    p.set_runtime_args(r, core, &[words, copy]).unwrap();
    let report = dev.enqueue_program(&p).unwrap();
    let got = dev.read_from_device_l1::<u32>(core, copy, 100).unwrap();
    assert_eq!(got, (0..100).map(|i| 3 * i + 1).collect::<Vec<u32>>());
    // 101 stores of 5 cycles before the flag, then 100 loads (6) and 100 stores (5) after it.
    assert!(report.cycles.0 >= 101 * 5 + 100 * 11, "pointer accesses are timed: {} cycles", report.cycles.0);
    assert!(report.cycles.0 < 101 * 5 + 100 * 11 + 200, "{} cycles", report.cycles.0);
}

/// `get_arg_addr` / `get_common_arg_addr` point at the args in the core's L1, one slot per data-movement
/// RISC, so both kernels of a core read their own args through pointers.
#[test]
fn runtime_args_are_read_through_l1_pointers() {
    if let Err(e) = cpp::compile::compiler() {
        panic!("this test compiles C++ kernels and needs the host C++ compiler: {e}");
    }
    let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
    let core = CoreCoord::new(1, 2);
    let mut p = Program::new();
    let riscs = [
        (DataMovementProcessor::RISCV_0, NocId::Noc0, 0x40000u32),
        (DataMovementProcessor::RISCV_1, NocId::Noc1, 0x40100),
    ];
    let mut addrs = Vec::new();
    for (i, &(processor, noc, out)) in riscs.iter().enumerate() {
        let cfg = DataMovementConfig { processor, noc, ..Default::default() };
        let k = cpp::create_kernel(&mut p, &mut dev, data("arg_pointers.cpp"), core, cfg).unwrap();
        let base = 10 * i as u32;
        p.set_runtime_args(k, core, &[out, base + 1, base + 2, base + 3]).unwrap();
        p.set_common_runtime_args(k, &[100 * (i as u32 + 1), 7]).unwrap();
        addrs.push(out);
    }
    dev.enqueue_program(&p).unwrap();
    let mut slots = Vec::new();
    for (i, &out) in addrs.iter().enumerate() {
        let got = dev.read_from_device_l1::<u32>(core, out, 3).unwrap();
        let base = 10 * i as u32;
        assert_eq!(got[0], 3 * base + 6 + 100 * (i as u32 + 1) + 7, "RISC {i}");
        assert_eq!(got[2], 1, "get_arg_val agrees with the pointer");
        slots.push(got[1]);
    }
    assert_ne!(slots[0], slots[1], "each RISC has its own args");
    assert!(slots.iter().all(|a| (65536..102400).contains(a)), "the args sit in the reserved L1 region: {slots:x?}");
}

/// `*_set_state` once then `*_with_state` moves the same data as plain one-packet calls, each command
/// issuing for `api.noc_with_state_cmd_cycles` instead of a full command's cost; writes tagged with a
/// transaction id and a barrier on that id move the same data in the same time.
#[test]
fn with_state_calls_move_the_same_data_for_less_issue_time() {
    if let Err(e) = cpp::compile::compiler() {
        panic!("this test compiles C++ kernels and needs the host C++ compiler: {e}");
    }
    let run = |defines: &[&str]| {
        let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
        let (core, peer) = (CoreCoord::new(0, 0), CoreCoord::new(3, 2));
        let xy = dev.worker_core_from_logical_core(peer).unwrap();
        let input: Vec<u32> = (0..1024).map(|i| i * 7 + 1).collect();
        dev.write_to_device_l1(peer, 0x40000, &input).unwrap();
        let mut p = Program::new();
        let cfg = DataMovementConfig {
            defines: defines.iter().map(|d| (d.to_string(), "1".to_string())).collect(),
            ..Default::default()
        };
        let k = cpp::create_kernel(&mut p, &mut dev, data("with_state.cpp"), core, cfg).unwrap();
        p.set_runtime_args(k, core, &[xy.x, xy.y, 0x40000, 0x50000, 0x60000]).unwrap();
        let report = dev.enqueue_program(&p).unwrap();
        assert_eq!(dev.read_from_device_l1::<u32>(peer, 0x60000, 1024).unwrap(), input, "{defines:?}");
        report
    };
    let (plain, state) = (run(&[]), run(&["WITH_STATE"]));
    let costs = sim_device::params::Params::builtin(Arch::WormholeB0).api;
    // The plain loop also forms a NoC address per command.
    let saved = 64 * (costs.noc_read_cmd.0 + costs.noc_cmd.0 - 2 * costs.noc_with_state_cmd.0 + 2 * costs.addr_gen.0);
    assert!(state.cycles.0 < plain.cycles.0, "with_state {} vs plain {}", state.cycles.0, plain.cycles.0);
    let gain = plain.cycles.0 - state.cycles.0;
    assert!(gain <= saved && gain > saved / 4, "{gain} cycles saved; the issue time saved is {saved}");
    let trid = run(&["WITH_STATE", "TRID"]);
    assert!(trid.warnings.is_empty(), "{:?}", trid.warnings);
    // Setting the id costs a register write; the barrier then waits for exactly the same writes.
    let set = costs.local_lookup.0;
    assert_eq!(trid.cycles.0, state.cycles.0 + set, "a trid barrier over every write ends with the full barrier");
}

/// Reads with different transaction ids: a barrier on the short read's id returns once it has landed,
/// while the long read (another id) is still in flight; the barrier on the long read's id waits for it.
#[test]
fn a_trid_barrier_waits_only_for_its_own_transactions() {
    if let Err(e) = cpp::compile::compiler() {
        panic!("this test compiles C++ kernels and needs the host C++ compiler: {e}");
    }
    let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
    let (core, peer) = (CoreCoord::new(0, 0), CoreCoord::new(1, 0));
    let xy = dev.worker_core_from_logical_core(peer).unwrap();
    let small: Vec<u32> = (0..16).map(|i| 0xabc0 + i).collect();
    dev.write_to_device_l1(peer, 0x40000, &small).unwrap();
    let big = dev
        .create_buffer(sim_device::InterleavedBufferConfig {
            size: 65536,
            page_size: 65536,
            buffer_type: sim_device::buffer::BufferType::Dram,
        })
        .unwrap();
    let words: Vec<u32> = (0..16384).map(|i| i * 3 + 1).collect();
    dev.enqueue_write_buffer(&big, &words).unwrap();
    let mut p = Program::new();
    let k = cpp::create_kernel(&mut p, &mut dev, data("trids.cpp"), core, DataMovementConfig::default()).unwrap();
    p.set_runtime_args(k, core, &[xy.x, xy.y, 0x40000, 0x30000, big.address()]).unwrap();
    let r = dev.enqueue_program(&p).unwrap();
    assert_eq!(dev.read_from_device_l1::<u32>(core, 0x30000 + 65536, 16).unwrap(), small);
    assert_eq!(dev.read_from_device_l1::<u32>(core, 0x30000, 16384).unwrap(), words);
    let at = |name: &str| r.timestamped_data.iter().find(|d| d.name == name).map(|d| d.at.0).unwrap();
    let (short, long) = (at("short"), at("long"));
    // The short read checked its own data before the long one landed: 64 KiB from DRAM takes thousands of
    // cycles, a 64-byte read of a neighbour a few hundred.
    assert!(short + 2000 < long, "short read's barrier at {short}, long at {long}");
    assert!(at("short_ok") < long, "the short read's data was there before the long read landed");
}
