//! Ethernet between chips: ERISC kernels on the two ends of an n300 link hand data over with tt-metal's
//! handshake protocol; the data arrives, the time is at least the link's wire time and latency (and not
//! much more), results are identical with one and two host workers, and misuse is named.

use sim_device::mesh::{MeshCoordinate, MeshCoordinateRange, MeshDevice, MeshRunReport, MeshShape, MeshWorkload};
use sim_device::prelude::*;
use sim_device::{EthernetConfig, Params};
use soc_descriptors::builtin_system;

fn n300(workers: usize) -> (MeshDevice, u32, u32) {
    let (cd, sys) = builtin_system("n300").unwrap();
    let mut m = MeshDevice::open(&cd, &sys, MeshShape::new(1, 2), None, &Params::builtin(Arch::WormholeB0)).unwrap();
    m.set_workers(workers);
    let (a, b) = (m.chip_ids()[0], m.chip_ids()[1]);
    let (ca, cb) = cd.channels_between(a, b)[0];
    (m, ca, cb)
}

const BYTES: u32 = 16 * 1024;
const PER_SEND: u32 = 4096;

fn sender() -> Kernel {
    Kernel::dataflow("eth_sender", |d| {
        let base = d.eth_l1_unreserved_base();
        // Handshake on channel 0, then the payload above base + 16, then wait until it is consumed.
        d.eth_send_bytes(base, base, 16);
        d.eth_wait_for_receiver_done();
        d.eth_send_bytes_per_send(base + 16, base + 16, BYTES, PER_SEND);
        d.eth_wait_for_receiver_done();
    })
}

fn receiver() -> Kernel {
    Kernel::dataflow("eth_receiver", |d| {
        d.eth_wait_for_bytes(16);
        d.eth_receiver_channel_done(0);
        d.eth_wait_for_bytes(BYTES);
        d.eth_receiver_channel_done(0);
    })
}

fn run(workers: usize) -> (MeshRunReport, Vec<u32>, Vec<u32>) {
    let (mut m, ca, cb) = n300(workers);
    let base = Params::builtin(Arch::WormholeB0).eth.l1_unreserved_base;
    let data: Vec<u32> = (0..BYTES / 4).map(|i| i.wrapping_mul(2654435761)).collect();
    m.get_device(MeshCoordinate::new(0, 0)).unwrap().write_to_eth_l1(ca, base + 16, &data).unwrap();
    let mut pa = Program::new();
    pa.create_kernel(sender(), CoreCoord::new(0, ca), EthernetConfig::default()).unwrap();
    let mut pb = Program::new();
    pb.create_kernel(receiver(), CoreCoord::new(0, cb), EthernetConfig::default()).unwrap();
    let mut w = MeshWorkload::new();
    w.add_program(MeshCoordinateRange::single(MeshCoordinate::new(0, 0)), pa);
    w.add_program(MeshCoordinateRange::single(MeshCoordinate::new(0, 1)), pb);
    let r = m.enqueue_mesh_workload(&w).unwrap();
    let got =
        m.get_device(MeshCoordinate::new(0, 1)).unwrap().read_from_eth_l1::<u32>(cb, base + 16, data.len()).unwrap();
    (r, data, got)
}

#[test]
fn bytes_cross_an_n300_link() {
    let (r, data, got) = run(0);
    assert_eq!(got, data, "the payload lands in the receiver's L1");
    let p = Params::builtin(Arch::WormholeB0);
    // Wire time of one 4 KiB send: bytes plus 50 B per 1500 B frame at 12.5 B/cycle.
    let wire = ((PER_SEND + 3 * 50) as u64 * 1000).div_ceil(12_500);
    let latency = p.eth.latency_ns;
    let sends = (BYTES / PER_SEND) as u64;
    // Handshake: there (latency) and back (latency); payload: four sends back to back, the last one lands
    // a latency later; the done comes back a latency later.
    let floor = 4 * latency + sends * wire;
    let cycles = r.cycles.0;
    assert!(cycles >= floor, "{cycles} cycles is less than the physical floor {floor}");
    assert!(cycles < floor + 2000, "{cycles} cycles is far above the floor {floor}");
    eprintln!("n300 16 KiB over one link: {cycles} cycles (floor {floor})");
}

#[test]
fn ethernet_runs_are_deterministic_across_workers() {
    let (a, _, ga) = run(1);
    let (b, _, gb) = run(2);
    assert_eq!(ga, gb);
    let c = |r: &MeshRunReport| r.devices.iter().map(|d| (d.1, d.2.cycles.0, d.2.events)).collect::<Vec<_>>();
    assert_eq!(c(&a), c(&b));
}

#[test]
fn ethernet_misuse_is_named() {
    // An Ethernet call from a Tensix kernel.
    let mut dev = Device::open(&ChipSpec::builtin(Arch::WormholeB0)).unwrap();
    let mut p = Program::new();
    p.create_kernel(
        Kernel::dataflow("k", |d| d.eth_send_bytes(0, 0, 16)),
        CoreCoord::new(0, 0),
        DataMovementConfig::default(),
    )
    .unwrap();
    let e = dev.enqueue_program(&p).unwrap_err().to_string();
    assert!(e.contains("Tensix core") && e.contains("eth_send_bytes"), "{e}");
    // A send on a channel with no link in the run (a single device).
    let mut p = Program::new();
    p.create_kernel(
        Kernel::dataflow("k", |d| {
            let b = d.eth_l1_unreserved_base();
            d.eth_send_bytes(b, b, 16)
        }),
        CoreCoord::new(0, 0),
        EthernetConfig::default(),
    )
    .unwrap();
    let e = dev.enqueue_program(&p).unwrap_err().to_string();
    assert!(e.contains("channel 0 has no link"), "{e}");
    // A core that is not an Ethernet channel, a second ERISC on Wormhole, misaligned sizes.
    let mut p = Program::new();
    p.create_kernel(Kernel::dataflow("k", |_| {}), CoreCoord::new(0, 16), EthernetConfig::default()).unwrap();
    let e = dev.enqueue_program(&p).unwrap_err().to_string();
    assert!(e.contains("(0,16)") && e.contains("0..16"), "{e}");
    let mut p = Program::new();
    let cfg = EthernetConfig { processor: DataMovementProcessor::RISCV_1, ..Default::default() };
    p.create_kernel(Kernel::dataflow("k", |_| {}), CoreCoord::new(0, 1), cfg).unwrap();
    let e = dev.enqueue_program(&p).unwrap_err().to_string();
    assert!(e.contains("one ERISC"), "{e}");
    let mut p = Program::new();
    p.create_kernel(
        Kernel::dataflow("k", |d| {
            let b = d.eth_l1_unreserved_base();
            d.eth_send_bytes_per_send(b, b, 20, 32)
        }),
        CoreCoord::new(0, 0),
        EthernetConfig::default(),
    )
    .unwrap();
    let e = dev.enqueue_program(&p).unwrap_err().to_string();
    assert!(e.contains("multiples of 16"), "{e}");
}

#[test]
fn a_receiver_that_never_gets_its_bytes_is_a_deadlock_naming_the_chip() {
    let (mut m, _ca, cb) = n300(0);
    let mut pb = Program::new();
    pb.create_kernel(receiver(), CoreCoord::new(0, cb), EthernetConfig::default()).unwrap();
    let mut w = MeshWorkload::new();
    w.add_program(MeshCoordinateRange::single(MeshCoordinate::new(0, 1)), pb);
    let mut pa = Program::new();
    pa.create_kernel(Kernel::dataflow("idle", |_| {}), CoreCoord::new(0, 0), DataMovementConfig::default()).unwrap();
    w.add_program(MeshCoordinateRange::single(MeshCoordinate::new(0, 0)), pa);
    let e = m.enqueue_mesh_workload(&w).unwrap_err().to_string();
    assert!(e.contains("deadlock") && e.contains("eth_receiver") && e.starts_with("chip "), "{e}");
}

/// Semaphores on an Ethernet core: created with their initial values at `eth.semaphore_base` in its L1 (ids
/// counted apart from the workers'); a worker rings one through the address `get_semaphore_on(…, Eth)`
/// gives, the ERISC waits on it and rings the worker's; bad cores and a seventeenth semaphore are named.
#[test]
fn ethernet_cores_have_semaphores_workers_can_ring() {
    use sim_device::SemaphoreCore;
    for arch in [Arch::WormholeB0, Arch::Blackhole] {
        let mut dev = Device::open(&ChipSpec::builtin(arch)).unwrap();
        let eth = dev.eth_core_noc_xy(1).unwrap();
        let worker = dev.worker_core_from_logical_core(CoreCoord::new(2, 1)).unwrap();
        let mut p = Program::new();
        let eth_core = CoreCoord::new(0, 1);
        let go = p.create_eth_semaphore(eth_core, 0).unwrap();
        let five = p.create_eth_semaphore(eth_core, 5).unwrap();
        let done = p.create_semaphore(CoreCoord::new(2, 1), 0).unwrap();
        assert_eq!((go, five, done), (0, 1, 0), "Ethernet ids are counted apart from the workers'");
        let (ex, ey, wx, wy) = (eth.x, eth.y, worker.x, worker.y);
        p.create_kernel(
            Kernel::dataflow("ring", move |d| {
                let a = d.get_semaphore_on(go, SemaphoreCore::Eth);
                d.noc_semaphore_inc(d.get_noc_addr(ex, ey, a), 3);
                let mine = d.get_semaphore(done);
                d.noc_semaphore_wait(mine, 5 + 3);
            }),
            CoreCoord::new(2, 1),
            DataMovementConfig::default(),
        )
        .unwrap();
        p.create_kernel(
            Kernel::dataflow("erisc", move |d| {
                let g = d.get_semaphore_on(go, SemaphoreCore::Eth);
                d.noc_semaphore_wait(g, 3);
                let f = d.l1_read_u32(d.get_semaphore_on(five, SemaphoreCore::Eth));
                let w = d.get_semaphore(done);
                d.noc_semaphore_inc(d.get_noc_addr(wx, wy, w), f + 3);
                d.noc_async_atomic_barrier();
            }),
            eth_core,
            EthernetConfig::default(),
        )
        .unwrap();
        dev.enqueue_program(&p).unwrap();
        let base = Params::builtin(arch).eth.semaphore_base;
        let words: Vec<u32> = dev.read_from_eth_l1(1, base, 8).unwrap();
        assert_eq!((words[0], words[4]), (3, 5), "{arch}: semaphores 0 and 1, 16 B apart");
        assert!(base < Params::builtin(arch).eth.l1_unreserved_base);

        let mut p = Program::new();
        p.create_eth_semaphore(CoreCoord::new(1, 0), 0).unwrap();
        let e = dev.enqueue_program(&p).unwrap_err().to_string();
        assert!(e.contains("CoreType::ETH") && e.contains("(1,0)"), "{e}");
        let mut p = Program::new();
        p.create_eth_semaphore(CoreCoord::new(0, 99), 0).unwrap();
        let e = dev.enqueue_program(&p).unwrap_err().to_string();
        assert!(e.contains("(0,99)") && e.contains("channel 0.."), "{e}");
        let mut p = Program::new();
        for _ in 0..16 {
            p.create_eth_semaphore(eth_core, 0).unwrap();
        }
        p.create_semaphore(CoreCoord::new(0, 1), 0).unwrap();
        let e = p.create_eth_semaphore(eth_core, 0).unwrap_err().to_string();
        assert!(e.contains("all 16 semaphores") && e.contains("Ethernet cores"), "{e}");
    }
}
