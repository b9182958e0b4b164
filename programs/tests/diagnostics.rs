//! Deliberately broken programs: each must stop with the exact diagnosis — deadlock with who waits on what,
//! a kernel panic with kernel, core and message, and one test per tt-metal strictness check.

use sim_device::prelude::*;
use sim_device::{BlockedKernel, DeviceError};

fn wh() -> Device {
    Device::builtin(Arch::WormholeB0).unwrap()
}

fn one_tile_cb(p: &mut Program, core: impl Into<CoreRangeSet>, cb: CBIndex) {
    p.create_circular_buffer(
        core,
        CircularBufferConfig::new(2048, &[(cb, DataFormat::Float16_b)]).set_page_size(cb, 2048),
    )
    .unwrap();
}

#[test]
fn deadlock_reports_every_blocked_kernel_and_what_it_waits_for() {
    let mut dev = wh();
    let mut p = Program::new();
    let c = CoreCoord::new(0, 0);
    one_tile_cb(&mut p, c, CBIndex::c_0);
    let sem = p.create_semaphore(c, 0).unwrap();
    // Consumer waits for a page nobody pushes; the other kernel waits for a semaphore nobody sets.
    p.create_kernel(
        Kernel::dataflow("consumer", |k: &mut Dataflow| k.cb_wait_front(CBIndex::c_0, 1)),
        c,
        DataMovementConfig::default(),
    )
    .unwrap();
    let w = p
        .create_kernel(
            Kernel::dataflow("waiter", |k: &mut Dataflow| {
                let s = k.get_semaphore(k.get_arg_val(0));
                k.noc_semaphore_wait(s, 1);
            }),
            c,
            DataMovementConfig { processor: DataMovementProcessor::RISCV_1, noc: NocId::Noc1, ..Default::default() },
        )
        .unwrap();
    p.set_runtime_args(w, c, &[sem]).unwrap();
    let e = dev.enqueue_program(&p).unwrap_err();
    let DeviceError::Run(sim_device::RunError::Deadlock { blocked, .. }) = &e else {
        panic!("expected a deadlock, got {e}")
    };
    assert_eq!(blocked.len(), 2);
    assert_eq!(
        blocked[0],
        BlockedKernel {
            kernel: "consumer".into(),
            core: (0, 0),
            noc0: (1, 1),
            risc: "BRISC".into(),
            waiting_for: "cb_wait_front(c_0, 1): 0 of 1 pages available".into(),
            since: blocked[0].since,
        }
    );
    assert_eq!(blocked[1].risc, "NCRISC");
    assert_eq!(blocked[1].waiting_for, "L1 word 0x18c00 == 1 (semaphore wait): current value 0");
    let text = e.to_string();
    assert!(text.starts_with("deadlock at cycle "), "{text}");
    assert!(text.contains("core (0,0) [NoC0 (1,1)] BRISC `consumer`"), "{text}");
    // The device is still usable after a failed run.
    let mut ok = Program::new();
    ok.create_kernel(Kernel::dataflow("noop", |_k: &mut Dataflow| {}), c, DataMovementConfig::default()).unwrap();
    dev.enqueue_program(&ok).unwrap();
}

#[test]
fn deadlock_on_a_barrier_names_the_outstanding_transactions() {
    // A reader blocks on a CB while its partner waits on a write barrier: the writer's writes did complete,
    // so only the CB wait remains; check both kinds of description appear where they apply.
    let mut dev = wh();
    let mut p = Program::new();
    let c = CoreCoord::new(1, 1);
    one_tile_cb(&mut p, c, CBIndex::c_3);
    p.create_kernel(
        Kernel::dataflow("full", |k: &mut Dataflow| {
            k.cb_reserve_back(CBIndex::c_3, 1);
            k.cb_push_back(CBIndex::c_3, 1);
            k.cb_reserve_back(CBIndex::c_3, 1);
        }),
        c,
        DataMovementConfig::default(),
    )
    .unwrap();
    let e = dev.enqueue_program(&p).unwrap_err();
    assert!(e.to_string().contains("cb_reserve_back(c_3, 1): 0 of 1 pages free (1 of 1 used)"), "{e}");
}

#[test]
fn a_panicking_kernel_is_an_error_naming_kernel_core_and_message() {
    let mut dev = wh();
    let mut p = Program::new();
    let c = CoreCoord::new(2, 3);
    p.create_kernel(
        Kernel::dataflow("bad_kernel", |k: &mut Dataflow| {
            let n: u32 = k.get_arg_val(0);
            let v: Vec<u32> = vec![1, 2, 3];
            let _ = v[n as usize];
        }),
        c,
        DataMovementConfig::default(),
    )
    .unwrap();
    p.set_runtime_args(KernelHandle(0), c, &[7]).unwrap();
    let e = dev.enqueue_program(&p).unwrap_err();
    match &e {
        DeviceError::Run(sim_device::RunError::Kernel { kernel, core, risc, message, panicked, .. }) => {
            assert_eq!(kernel, "bad_kernel");
            assert_eq!(*core, (2, 3));
            assert_eq!(risc, "BRISC");
            assert!(message.starts_with("index out of bounds: the len is 3 but the index is 7"), "{message}");
            assert!(message.contains("diagnostics.rs"), "{message}");
            assert!(*panicked);
        }
        other => panic!("unexpected {other}"),
    }
    assert!(e.to_string().starts_with("kernel `bad_kernel` on core (2,3) BRISC panicked at cycle "), "{e}");
}

#[test]
fn two_data_movement_kernels_on_one_noc() {
    let mut p = Program::new();
    let c = CoreCoord::new(0, 0);
    p.create_kernel(Kernel::dataflow("reader", |_k: &mut Dataflow| {}), c, DataMovementConfig::default()).unwrap();
    let e = p
        .create_kernel(
            Kernel::dataflow("writer", |_k: &mut Dataflow| {}),
            c,
            DataMovementConfig { processor: DataMovementProcessor::RISCV_1, noc: NocId::Noc0, ..Default::default() },
        )
        .err()
        .unwrap();
    assert_eq!(
        e.to_string(),
        "Illegal NOC usage: data movement kernels `reader` (RISCV_0) and `writer` (RISCV_1) on core (0,0) both use NOC_0; give them different NoCs"
    );
}

#[test]
fn two_kernels_on_one_processor() {
    let mut p = Program::new();
    let r = CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(1, 0));
    p.create_kernel(Kernel::dataflow("a", |_k: &mut Dataflow| {}), r, DataMovementConfig::default()).unwrap();
    let e = p
        .create_kernel(
            Kernel::dataflow("b", |_k: &mut Dataflow| {}),
            CoreCoord::new(1, 0),
            DataMovementConfig::default(),
        )
        .err()
        .unwrap();
    assert_eq!(
        e.to_string(),
        "CreateKernel `b`: core (1,0) already runs kernel `a` on RISCV_0 (BRISC); each core runs one kernel per processor"
    );
}

#[test]
fn more_than_341_runtime_args() {
    let mut p = Program::new();
    let c = CoreCoord::new(0, 0);
    let k = p.create_kernel(Kernel::dataflow("k", |_k: &mut Dataflow| {}), c, DataMovementConfig::default()).unwrap();
    p.set_common_runtime_args(k, &[0; 300]).unwrap();
    let e = p.set_runtime_args(k, c, &[0; 42]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "SetRuntimeArgs: kernel `k` on core (0,0) would have 42 unique + 300 common = 342 runtime args; the limit is 341"
    );
    p.set_runtime_args(k, c, &[0; 41]).unwrap();
}

#[test]
fn cb_page_size_must_divide_the_size() {
    let mut p = Program::new();
    let cfg =
        CircularBufferConfig::new(3000, &[(CBIndex::c_0, DataFormat::Float16_b)]).set_page_size(CBIndex::c_0, 2048);
    let e = p.create_circular_buffer(CoreCoord::new(0, 0), cfg).unwrap_err();
    assert_eq!(
        e.to_string(),
        "CreateCircularBuffer: CB 0: page size 2048 does not divide the total size 3000 (a CB holds a whole number of pages)"
    );
}

#[test]
fn cb_index_out_of_range() {
    let mut p = Program::new();
    let cfg = CircularBufferConfig::new(2048, &[(40u32, DataFormat::Float16_b)]).set_page_size(40u32, 2048);
    p.create_circular_buffer(CoreCoord::new(0, 0), cfg.clone()).unwrap();
    // Wormhole has 32 CB indices; Blackhole 64.
    let e = wh().enqueue_program(&p).unwrap_err();
    assert_eq!(
        e.to_string(),
        "CreateCircularBuffer: CB index 40 is out of range: wormhole_b0 has 32 CBs per core (0..31)"
    );
    Device::builtin(Arch::Blackhole).unwrap().enqueue_program(&p).unwrap();
    let e = Program::new().create_circular_buffer(
        CoreCoord::new(0, 0),
        CircularBufferConfig::new(64, &[(64u32, DataFormat::UInt32)]).set_page_size(64u32, 64),
    );
    assert_eq!(e.unwrap_err().to_string(), "CreateCircularBuffer: CB index 64 is out of range (0..64)");
}

#[test]
fn a_circular_buffer_larger_than_l1_runs_past_its_end() {
    // No L1 buffer below the top: the message names the end of L1, not an empty range of buffers.
    let mut dev = wh();
    let mut p = Program::new();
    let cfg = CircularBufferConfig::new(2 * 1024 * 1024, &[(CBIndex::c_0, DataFormat::Float16_b)])
        .set_page_size(CBIndex::c_0, 2048);
    p.create_circular_buffer(CoreCoord::new(0, 0), cfg).unwrap();
    assert_eq!(
        dev.enqueue_program(&p).unwrap_err().to_string(),
        "L1 overflow on core (0,0): circular buffer c_0 at [0x19000, 0x219000) (2097152 bytes) runs past the end of L1 at 0x16e000; shrink the CBs"
    );
}

#[test]
fn l1_overflow_between_circular_buffers_and_l1_buffers() {
    let mut dev = wh();
    // A big interleaved L1 buffer takes the top of every bank.
    let big = dev
        .create_buffer(InterleavedBufferConfig {
            size: 64 * 1_200_000,
            page_size: 1_200_000,
            buffer_type: BufferType::L1,
        })
        .unwrap();
    let mut p = Program::new();
    let cfg = CircularBufferConfig::new(300 * 1024, &[(CBIndex::c_0, DataFormat::Float16_b)])
        .set_page_size(CBIndex::c_0, 2048);
    p.create_circular_buffer(CoreCoord::new(0, 0), cfg).unwrap();
    let e = dev.enqueue_program(&p).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "L1 overflow on core (0,0): circular buffer c_0 at [0x19000, 0x64000) (307200 bytes) overlaps the L1 buffers at [{:#x}, 0x16e000); shrink the CBs or the L1 buffers",
            big.address()
        )
    );
    let e = dev
        .create_buffer(InterleavedBufferConfig {
            size: 64 * 1_400_000,
            page_size: 1_400_000,
            buffer_type: BufferType::L1,
        })
        .unwrap_err();
    assert!(
        e.to_string().starts_with("CreateBuffer: out of L1 memory: the buffer needs 1400000 bytes in every bank"),
        "{e}"
    );
}

fn run_one(f: impl for<'a, 'y> Fn(&'a mut Dataflow<'y>) + Send + Sync + 'static, args: &[u32]) -> DeviceError {
    let mut dev = wh();
    let mut p = Program::new();
    let c = CoreCoord::new(0, 0);
    one_tile_cb(&mut p, CoreRange::new(c, CoreCoord::new(3, 0)), CBIndex::c_0);
    let k = p.create_kernel(Kernel::dataflow("k", f), c, DataMovementConfig::default()).unwrap();
    p.set_runtime_args(k, c, args).unwrap();
    dev.enqueue_program(&p).unwrap_err()
}

fn api_error(e: &DeviceError) -> &str {
    match e {
        DeviceError::Run(sim_device::RunError::Kernel { message, panicked: false, kernel, core: (0, 0), .. })
            if kernel == "k" =>
        {
            message
        }
        other => panic!("expected an API error of kernel k on (0,0), got {other}"),
    }
}

#[test]
fn multicast_containing_the_sender_without_loopback() {
    // Legal: without the loopback variant the sender is not a recipient, so a rectangle of four cores holding
    // the sender has three destinations. Counting four acks waits forever, and the deadlock says so.
    let e = run_one(
        |k: &mut Dataflow| {
            let l1 = k.get_write_ptr(CBIndex::c_0);
            let dst = k.get_noc_multicast_addr(18, 18, 21, 18, l1);
            k.noc_async_write_multicast(l1, dst, 2048, 4, false);
            k.noc_async_write_barrier();
        },
        &[],
    );
    let m = e.to_string();
    assert!(m.contains("deadlock") && m.contains("ack"), "{m}");
    let mut dev = wh();
    let mut p = Program::new();
    let c = CoreCoord::new(0, 0);
    one_tile_cb(&mut p, CoreRange::new(c, CoreCoord::new(3, 0)), CBIndex::c_0);
    let k = p
        .create_kernel(
            Kernel::dataflow("k", |k: &mut Dataflow| {
                let l1 = k.get_write_ptr(CBIndex::c_0);
                let dst = k.get_noc_multicast_addr(18, 18, 21, 18, l1);
                k.noc_async_write_multicast(l1, dst, 2048, 3, false);
                k.noc_async_write_barrier();
            }),
            c,
            DataMovementConfig::default(),
        )
        .unwrap();
    p.set_runtime_args(k, c, &[]).unwrap();
    let r = dev.enqueue_program(&p).unwrap();
    assert!(r.warnings.is_empty(), "three destinations, as counted: {:?}", r.warnings);
}

#[test]
fn multicast_with_zero_destinations() {
    let e = run_one(
        |k: &mut Dataflow| {
            let l1 = k.get_write_ptr(CBIndex::c_0);
            let dst = k.get_noc_multicast_addr(19, 18, 21, 18, l1);
            k.noc_async_write_multicast(l1, dst, 2048, 0, false);
        },
        &[],
    );
    assert_eq!(api_error(&e), "noc_async_write_multicast: num_dests is 0; pass the number of destination cores");
}

#[test]
fn misaligned_noc_read_from_dram() {
    let e = run_one(
        |k: &mut Dataflow| {
            let l1 = k.get_write_ptr(CBIndex::c_0);
            let src = k.get_noc_addr_from_bank_id::<true>(0, 4096 + 4);
            k.noc_async_read(src, l1, 64);
        },
        &[],
    );
    assert_eq!(
        api_error(&e),
        "noc_async_read: misaligned NoC read: source DRAM address 0x1004 and destination L1 address 0x19000 differ modulo 32 (NOC_DRAM_READ_ALIGNMENT_BYTES); align both to 32 bytes"
    );
}

#[test]
fn out_of_bounds_l1_and_dram_accesses() {
    let e = run_one(
        |k: &mut Dataflow| {
            let far = k.get_noc_addr(19, 18, 1_499_136 - 16);
            let l1 = k.get_write_ptr(CBIndex::c_0);
            k.noc_async_write(l1, far, 32);
        },
        &[],
    );
    assert_eq!(
        api_error(&e),
        "noc_async_write: L1 access [0x16dff0, 0x16e010) is outside the 1499136-byte L1 of core (1,0) [NoC (19,18)]"
    );
    let e = run_one(
        |k: &mut Dataflow| {
            let l1 = k.get_write_ptr(CBIndex::c_0);
            let src = k.get_noc_addr(0, 11, (2u32 << 30) - 32);
            k.noc_async_read(src, l1, 64);
        },
        &[],
    );
    assert_eq!(
        api_error(&e),
        "noc_async_read: DRAM access [0x7fffffe0, 0x80000020) is outside the 2147483648-byte channel 0 at NoC (0,11)"
    );
    let e = run_one(|k: &mut Dataflow| k.l1_write_u32(1_499_136 - 2, 1), &[]);
    assert_eq!(api_error(&e), "L1 write: L1 access [0x16dffe, 0x16e002) is outside the 1499136-byte L1");
    let e = run_one(
        |k: &mut Dataflow| {
            let l1 = k.get_write_ptr(CBIndex::c_0);
            let pcie = k.get_noc_addr(0, 3, 0);
            k.noc_async_read(pcie, l1, 32);
        },
        &[],
    );
    assert_eq!(
        api_error(&e),
        "noc_async_read: NoC coordinate (0,3) is a pcie tile (NoC0 (0, 3)); tensim models Tensix L1 and DRAM endpoints \
         (hard-coded coordinates differ between chips)"
    );
}

#[test]
fn reading_a_missing_runtime_arg() {
    let e = run_one(
        |k: &mut Dataflow| {
            let _: u32 = k.get_arg_val(2);
        },
        &[1, 2],
    );
    assert_eq!(api_error(&e), "get_arg_val(2): only 2 unique runtime args were set for this core");
}

#[test]
fn cb_calls_on_an_unconfigured_cb_and_impossible_waits() {
    let e = run_one(|k: &mut Dataflow| k.cb_reserve_back(CBIndex::c_5, 1), &[]);
    assert_eq!(api_error(&e), "cb_reserve_back(c_5, 1): CB 5 is not configured on this core");
    let e = run_one(|k: &mut Dataflow| k.cb_wait_front(CBIndex::c_0, 2), &[]);
    assert_eq!(api_error(&e), "cb_wait_front(c_0, 2): the CB holds only 1 pages, so this can never succeed");
}

#[test]
fn a_spin_loop_hits_the_watchdog() {
    let mut params = ArchParams_builtin();
    params.set("--set", "sim.max_cycles=100000").unwrap();
    let mut dev = Device::open_with_params(&ChipSpec::builtin(Arch::WormholeB0), params).unwrap();
    let mut p = Program::new();
    let c = CoreCoord::new(0, 0);
    p.create_kernel(
        Kernel::dataflow("spinner", |k: &mut Dataflow| {
            loop {
                let _ = k.l1_read_u32(0x20000);
            }
        }),
        c,
        DataMovementConfig::default(),
    )
    .unwrap();
    let e = dev.enqueue_program(&p).unwrap_err();
    assert!(
        e.to_string().starts_with(
            "the run passed the watchdog at cycle 100000 with kernels still running (`spinner` on (0,0) BRISC)"
        ),
        "{e}"
    );
}

#[test]
fn a_delay_past_the_end_of_time_is_the_watchdog_not_a_small_number() {
    let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
    let mut p = Program::new();
    let c = CoreCoord::new(0, 0);
    p.create_kernel(
        Kernel::dataflow("sleeper", |k: &mut Dataflow| {
            k.delay(u64::MAX);
            k.delay(u64::MAX);
        }),
        c,
        DataMovementConfig::default(),
    )
    .unwrap();
    let e = dev.enqueue_program(&p).unwrap_err().to_string();
    assert!(e.starts_with("the run passed the watchdog at cycle"), "{e}");
    assert!(e.contains("`sleeper` on (0,0) BRISC"), "{e}");
}

#[allow(non_snake_case)]
fn ArchParams_builtin() -> sim_device::Params {
    sim_device::Params::builtin(Arch::WormholeB0)
}

#[test]
fn unpack_to_dest_needs_a_32_bit_dst() {
    let mut p = Program::new();
    let mut modes = vec![UnpackToDestMode::Default; 8];
    modes[3] = UnpackToDestMode::UnpackToDestFp32;
    let cfg = ComputeConfig { unpack_to_dest_mode: modes.clone(), ..ComputeConfig::default() };
    let e = p.create_kernel(Kernel::compute("c", |_c: &mut Compute| {}), CoreCoord::new(0, 0), cfg).err().unwrap();
    assert_eq!(
        e.to_string(),
        "CreateKernel `c`: unpack_to_dest_mode[3] is UnpackToDestFp32, which unpacks into a 32-bit DST: set fp32_dest_acc_en"
    );
    let mut far = vec![UnpackToDestMode::Default; 65];
    far[64] = UnpackToDestMode::UnpackToDestFp32;
    let cfg = ComputeConfig { unpack_to_dest_mode: far, fp32_dest_acc_en: true, ..ComputeConfig::default() };
    let e = p.create_kernel(Kernel::compute("c", |_c: &mut Compute| {}), CoreCoord::new(0, 0), cfg).err().unwrap();
    assert!(e.to_string().contains("unpack_to_dest_mode[64]"), "{e}");
    let cfg = ComputeConfig { unpack_to_dest_mode: modes, fp32_dest_acc_en: true, ..ComputeConfig::default() };
    p.create_kernel(Kernel::compute("c", |_c: &mut Compute| {}), CoreCoord::new(0, 0), cfg).unwrap();
}
