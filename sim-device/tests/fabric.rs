//! The 1-D fabric on a line of T3000 chips: a worker on the first chip multicasts a buffer to the three
//! chips after it and then increments a semaphore on each; a unicast reaches only its chip. Packets are
//! split at the fabric's payload size, forwarded by the routers with slot credits, and the data arrives
//! bit for bit; the time covers at least the wire time of every packet over three links.

use sim_device::Params;
use sim_device::fabric_config::FabricConfig;
use sim_device::fabric_config::FabricConnection;
use sim_device::mesh::{MeshCoordinate, MeshCoordinateRange, MeshDevice, MeshRunReport, MeshShape, MeshWorkload};
use sim_device::prelude::*;
use soc_descriptors::builtin_system;

const BYTES: u32 = 16 * 1024;

fn line(n: u32, workers: usize) -> MeshDevice {
    line_with(n, workers, &Params::builtin(Arch::WormholeB0))
}

fn line_with(n: u32, workers: usize, params: &Params) -> MeshDevice {
    let (cd, sys) = builtin_system("t3000").unwrap();
    let mut m = MeshDevice::open(&cd, &sys, MeshShape::new(1, n), None, params).unwrap();
    m.set_workers(workers);
    m.set_fabric_config(FabricConfig::Fabric1D).unwrap();
    m
}

/// Chip 0's program: a kernel on core (0,0) whose runtime args `args` are the destination core's NoC x and
/// y, the source L1 address (the destination's too), the header address and a fabric connection; `send`
/// gets the open connection, the header and source addresses, and the destination's address and semaphore
/// 0 as NoC addresses.
fn sender(
    name: &'static str,
    args: &[u32],
    send: impl Fn(&mut Dataflow, &mut FabricConnection, u32, u32, u64, u64) + Send + Sync + 'static,
) -> Program {
    let mut p = Program::new();
    let k = p
        .create_kernel(
            Kernel::dataflow(name, move |d| {
                let (x, y, src, hdr) = (
                    d.get_arg_val::<u32>(0),
                    d.get_arg_val::<u32>(1),
                    d.get_arg_val::<u32>(2),
                    d.get_arg_val::<u32>(3),
                );
                let mut idx = 4;
                let mut c = FabricConnection::from_args(d, &mut idx);
                d.fabric_open(&mut c);
                let dst = d.get_noc_addr(x, y, src);
                let sem = d.get_noc_addr(x, y, d.get_semaphore(0));
                send(d, &mut c, hdr, src, dst, sem);
                d.fabric_close(&mut c);
            }),
            CoreCoord::new(0, 0),
            DataMovementConfig::default(),
        )
        .unwrap();
    p.set_runtime_args(k, CoreCoord::new(0, 0), args).unwrap();
    p
}

/// A receiving chip's program: `core` waits until its semaphore 0 is 1.
fn receiver(name: &'static str, core: CoreCoord) -> Program {
    let mut p = Program::new();
    p.create_semaphore(core, 0).unwrap();
    p.create_kernel(
        Kernel::dataflow(name, |d| {
            let s = d.get_semaphore(0);
            d.noc_semaphore_wait(s, 1);
        }),
        core,
        DataMovementConfig::default(),
    )
    .unwrap();
    p
}

/// Multicast (start 1, range `range`) or unicast (`range` 0: to the last chip) from chip 0 of a line.
fn run(n: u32, multicast: bool, workers: usize) -> (MeshRunReport, Vec<u32>, Vec<Vec<u32>>) {
    let m = line(n, workers);
    let base = Params::builtin(Arch::WormholeB0).mem.l1_unreserved_base + 0x1000;
    let hdr = base + BYTES;
    let data: Vec<u32> = (0..BYTES / 4).map(|i| i.wrapping_mul(0x9e37_79b9) ^ 7).collect();
    let dst_core = CoreCoord::new(1, 1);
    let dst_xy = m.get_device(MeshCoordinate::new(0, 0)).unwrap().worker_core_from_logical_core(dst_core).unwrap();
    m.get_device(MeshCoordinate::new(0, 0)).unwrap().write_to_device_l1(CoreCoord::new(0, 0), base, &data).unwrap();
    let mut args = vec![dst_xy.x, dst_xy.y, base, hdr];
    m.append_fabric_connection_rt_args(MeshCoordinate::new(0, 0), MeshCoordinate::new(0, 1), 0, 1, &mut args).unwrap();
    let (start, range) = if multicast { (1u8, (n - 1) as u8) } else { ((n - 1) as u8, 1u8) };
    let p0 = sender("fabric_sender", &args, move |d, c, hdr, src, dst, sem| {
        d.fabric_multicast_noc_unicast_write(c, hdr, src, BYTES, dst, start, range);
        d.fabric_multicast_noc_unicast_atomic_inc(c, hdr, sem, 1, start, range);
    });
    let mut w = MeshWorkload::new();
    w.add_program(MeshCoordinateRange::single(MeshCoordinate::new(0, 0)), p0);
    for i in 1..n {
        let targeted = i >= start as u32 && i < start as u32 + range as u32;
        let p = if targeted {
            receiver("fabric_receiver", dst_core)
        } else {
            let mut p = Program::new();
            p.create_semaphore(dst_core, 0).unwrap();
            p.create_kernel(Kernel::dataflow("idle", |_| {}), dst_core, DataMovementConfig::default()).unwrap();
            p
        };
        w.add_program(MeshCoordinateRange::single(MeshCoordinate::new(0, i)), p);
    }
    let mut m = m;
    let r = m.enqueue_mesh_workload(&w).unwrap();
    let got = (1..n)
        .map(|i| {
            m.get_device(MeshCoordinate::new(0, i))
                .unwrap()
                .read_from_device_l1::<u32>(dst_core, base, data.len())
                .unwrap()
        })
        .collect();
    (r, data, got)
}

#[test]
fn a_multicast_reaches_every_chip_of_the_line() {
    let (r, data, got) = run(4, true, 0);
    for (i, g) in got.iter().enumerate() {
        assert_eq!(g, &data, "chip {} of the line", i + 1);
    }
    // 4 packets of at most 4352 B plus a 48 B header over three links in a pipeline: at least the wire
    // time of the four packets on one link plus two more link latencies.
    let p = Params::builtin(Arch::WormholeB0);
    let wire: u64 = [4352u64, 4352, 4352, 3328].iter().map(|b| ((b + 48) + 3 * 50) * 1000 / 12_500).sum();
    let floor = wire + 3 * p.eth.latency_ns;
    assert!(r.cycles.0 >= floor, "{} cycles below the floor {floor}", r.cycles.0);
    assert!(r.cycles.0 < 4 * floor, "{} cycles far above the floor {floor}", r.cycles.0);
    eprintln!("1x4 multicast of 16 KiB: {} cycles (floor {floor})", r.cycles.0);
    let sent: u64 = r.devices[0].2.eth.iter().map(|e| e.tx_bytes).sum();
    assert!(sent >= BYTES as u64, "chip 0 sent {sent} bytes over Ethernet");
}

#[test]
fn a_unicast_reaches_only_its_chip() {
    let (_, data, got) = run(4, false, 0);
    assert_eq!(got[2], data);
    assert_ne!(got[0], data);
    assert_ne!(got[1], data);
}

#[test]
fn fabric_runs_are_deterministic_across_workers() {
    let (a, _, ga) = run(4, true, 1);
    let (b, _, gb) = run(4, true, 2);
    assert_eq!(ga, gb);
    let c = |r: &MeshRunReport| r.devices.iter().map(|d| (d.1, d.2.cycles.0, d.2.events)).collect::<Vec<_>>();
    assert_eq!(c(&a), c(&b));
}

/// One fused write-and-increment (`fabric_unicast_noc_fused_unicast_with_atomic_inc`) of `bytes` from
/// chip 0 of a 1x2 line to a core of chip 1, whose kernel waits for the increment, on the NoC model
/// `model`. Returns each device's cycles and what chip 1's core holds.
fn fused(model: &str, bytes: u32) -> (Vec<u64>, Vec<u32>, Vec<u32>) {
    let mut params = Params::builtin(Arch::WormholeB0);
    params.set("test", &format!("noc.model={model}")).unwrap();
    let mut m = line_with(2, 0, &params);
    let base = params.mem.l1_unreserved_base + 0x1000;
    let hdr = base + bytes;
    let data: Vec<u32> = (0..bytes / 4).map(|i| i.wrapping_mul(0x2545_f491) ^ 3).collect();
    let dst_core = CoreCoord::new(2, 3);
    let dst_xy = m.get_device(MeshCoordinate::new(0, 1)).unwrap().worker_core_from_logical_core(dst_core).unwrap();
    m.get_device(MeshCoordinate::new(0, 0)).unwrap().write_to_device_l1(CoreCoord::new(0, 0), base, &data).unwrap();
    let mut args = vec![dst_xy.x, dst_xy.y, base, hdr];
    m.append_fabric_connection_rt_args(MeshCoordinate::new(0, 0), MeshCoordinate::new(0, 1), 0, 1, &mut args).unwrap();
    let p0 = sender("fused_sender", &args, move |d, c, hdr, src, dst, sem| {
        d.fabric_unicast_noc_fused_unicast_with_atomic_inc(c, hdr, src, bytes, dst, sem, 1, 1);
    });
    let p1 = receiver("fused_receiver", dst_core);
    let mut w = MeshWorkload::new();
    w.add_program(MeshCoordinateRange::single(MeshCoordinate::new(0, 0)), p0);
    w.add_program(MeshCoordinateRange::single(MeshCoordinate::new(0, 1)), p1);
    let r = m.enqueue_mesh_workload(&w).unwrap();
    let got = m
        .get_device(MeshCoordinate::new(0, 1))
        .unwrap()
        .read_from_device_l1::<u32>(dst_core, base, data.len())
        .unwrap();
    (r.devices.iter().map(|d| d.2.cycles.0).collect(), data, got)
}

#[test]
fn on_the_router_model_a_fused_increment_waits_for_its_write_as_on_the_calendar_model() {
    // One packet crossing an idle fabric meets no other: the router-level NoC model times it as the
    // calendar model does, and the increment — issued by the far router only once the write it carries has
    // landed (which the router model learns only as it happens) — wakes the receiver at the same cycle.
    for bytes in [64, 2048, 4096] {
        let (cal, data, got) = fused("calendar", bytes);
        assert_eq!(got, data);
        let (rt, _, got) = fused("router", bytes);
        assert_eq!(got, data, "{bytes} B on the router model");
        assert_eq!(rt[1], cal[1], "{bytes} B: the receiver wakes at the same cycle on both models");
        // The far router frees the packet's slot, and credits the sender, once the write reading it has left
        // its L1 — at once on a booked model, after the write's flits (one a cycle) on the stepped one — so
        // the sender's close takes that much longer there (64 B: 4 cycles; 4 KiB: 132).
        let wait = rt[0] as i64 - cal[0] as i64;
        assert!(wait > 0 && wait <= (bytes / 32) as i64 + 8, "{bytes} B: the sender ends {wait} cycles later");
    }
}
