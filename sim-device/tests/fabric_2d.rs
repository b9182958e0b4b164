//! The 2-D fabric on the T3000's 2x4 mesh: workers on two corners send a buffer each to the opposite
//! corner by destination device; packets go along the row first, then down the column (dimension-ordered),
//! so only the links of those routes carry them, both transfers arrive bit for bit, and crossing routes
//! share no link. A destination beyond the mesh is dropped with a named warning.

use sim_device::Params;
use sim_device::fabric_config::{FabricConfig, FabricConnection};
use sim_device::mesh::{MeshCoordinate, MeshCoordinateRange, MeshDevice, MeshRunReport, MeshShape, MeshWorkload};
use sim_device::prelude::*;
use soc_descriptors::builtin_system;

const BYTES: u32 = 8 * 1024;

fn mesh(workers: usize) -> MeshDevice {
    let (cd, sys) = builtin_system("t3000").unwrap();
    let mut m = MeshDevice::open(&cd, &sys, MeshShape::new(2, 4), None, &Params::builtin(Arch::WormholeB0)).unwrap();
    m.set_workers(workers);
    m.set_fabric_config(FabricConfig::Fabric2D).unwrap();
    m
}

fn sender(dst_dev: u8) -> Kernel {
    Kernel::dataflow("fabric_2d_sender", move |d| {
        let a = |i| d.get_arg_val::<u32>(i);
        let (x, y, src, hdr) = (a(0), a(1), a(2), a(3));
        let mut idx = 4;
        let mut c = FabricConnection::from_args(d, &mut idx);
        d.fabric_open(&mut c);
        let dst = d.get_noc_addr(x, y, src);
        let sem = d.get_noc_addr(x, y, d.get_semaphore(0));
        d.fabric_mesh_unicast_noc_fused_unicast_with_atomic_inc(&mut c, hdr, dst_dev, 0, src, BYTES, dst, sem, 1);
        d.fabric_close(&mut c);
    })
}

/// Corner (0,0) → (1,3) and corner (1,0) → (0,3); `far` sends the second one to device 9 instead (off the
/// 2x4 mesh).
fn run(workers: usize, far: bool) -> (MeshRunReport, MeshDevice, Vec<u32>, Vec<u32>) {
    let m = mesh(workers);
    let p = Params::builtin(Arch::WormholeB0);
    let base = p.mem.l1_unreserved_base + 0x1000;
    let hdr = base + BYTES;
    let core = CoreCoord::new(0, 0);
    let xy = m.get_device(MeshCoordinate::new(0, 0)).unwrap().worker_core_from_logical_core(core).unwrap();
    let a: Vec<u32> = (0..BYTES / 4).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    let b: Vec<u32> = (0..BYTES / 4).map(|i| i ^ 0x5a5a_0000).collect();
    let mut w = MeshWorkload::new();
    let sends = [(MeshCoordinate::new(0, 0), 7u8, &a), (MeshCoordinate::new(1, 0), if far { 9 } else { 3 }, &b)];
    for (src, dst_dev, data) in sends {
        m.get_device(src).unwrap().write_to_device_l1(core, base, data).unwrap();
        let mut args = vec![xy.x, xy.y, base, hdr];
        // The first hop is east along the row.
        m.append_fabric_connection_rt_args(src, MeshCoordinate::new(src.row, 1), 0, 1, &mut args).unwrap();
        let mut prog = Program::new();
        prog.create_semaphore(core, 0).unwrap();
        prog.create_semaphore(core, 0).unwrap();
        let k = prog.create_kernel(sender(dst_dev), core, DataMovementConfig::default()).unwrap();
        prog.set_runtime_args(k, core, &args).unwrap();
        w.add_program(MeshCoordinateRange::single(src), prog);
    }
    for dst in [MeshCoordinate::new(1, 3), MeshCoordinate::new(0, 3)] {
        let mut prog = Program::new();
        prog.create_semaphore(core, 0).unwrap();
        let wait = !(far && dst == MeshCoordinate::new(0, 3));
        prog.create_kernel(
            Kernel::dataflow("fabric_2d_receiver", move |d| {
                if wait {
                    let s = d.get_semaphore(0);
                    d.noc_semaphore_wait(s, 1);
                }
            }),
            core,
            DataMovementConfig::default(),
        )
        .unwrap();
        w.add_program(MeshCoordinateRange::single(dst), prog);
    }
    let mut m = m;
    let r = m.enqueue_mesh_workload(&w).unwrap();
    (r, m, a, b)
}

fn read(m: &MeshDevice, c: MeshCoordinate) -> Vec<u32> {
    let base = Params::builtin(Arch::WormholeB0).mem.l1_unreserved_base + 0x1000;
    m.get_device(c).unwrap().read_from_device_l1::<u32>(CoreCoord::new(0, 0), base, (BYTES / 4) as usize).unwrap()
}

fn sent_by(r: &MeshRunReport, c: MeshCoordinate) -> u64 {
    r.devices.iter().filter(|d| d.0 == c).flat_map(|d| d.2.eth.iter()).map(|e| e.tx_bytes).sum()
}

#[test]
fn packets_go_along_the_row_then_down_the_column() {
    let (r, m, a, b) = run(0, false);
    assert_eq!(read(&m, MeshCoordinate::new(1, 3)), a);
    assert_eq!(read(&m, MeshCoordinate::new(0, 3)), b);
    // (0,0)→(1,3): east over (0,0),(0,1),(0,2), then south at (0,3). (1,0)→(0,3): east over row 1, then
    // north at (1,3). Every chip of both rows sends its share; each route's last chip sends only the
    // turn's packets.
    for c in 0..4 {
        for row in 0..2 {
            let s = sent_by(&r, MeshCoordinate::new(row, c));
            assert!(s >= BYTES as u64, "({row},{c}) sent {s} B");
            assert!(s < 2 * BYTES as u64, "({row},{c}) sent {s} B: the routes share no link direction");
        }
    }
    assert!(r.devices.iter().all(|d| d.2.warnings.is_empty()));
    eprintln!("2x4 mesh, two corner-to-corner 8 KiB transfers: {} cycles", r.cycles.0);
}

#[test]
fn a_destination_off_the_mesh_is_dropped_and_named() {
    let (r, m, a, _) = run(0, true);
    assert_eq!(read(&m, MeshCoordinate::new(1, 3)), a);
    let warnings: Vec<&String> = r.devices.iter().flat_map(|d| d.2.warnings.iter()).collect();
    assert!(warnings.iter().any(|w| w.contains("edge of the mesh") && w.contains("south")), "{warnings:?}");
}

#[test]
fn two_d_runs_are_deterministic_across_workers() {
    let (a, ma, ..) = run(1, false);
    let (b, mb, ..) = run(2, false);
    let c = |r: &MeshRunReport| r.devices.iter().map(|d| (d.1, d.2.cycles.0, d.2.events)).collect::<Vec<_>>();
    assert_eq!(c(&a), c(&b));
    assert_eq!(read(&ma, MeshCoordinate::new(0, 3)), read(&mb, MeshCoordinate::new(0, 3)));
}
