//! A C++ fabric sender and its Rust twin make the same calls, so on a line of T3000 chips they move the
//! same bytes in the same cycles on every chip: the C++ connection, header and linear-API calls forward to
//! the Rust fabric implementation without costs of their own.

use sim_device::Params;
use sim_device::fabric_config::{FabricConfig, FabricConnection};
use sim_device::mesh::{MeshCoordinate, MeshCoordinateRange, MeshDevice, MeshShape, MeshWorkload};
use sim_device::prelude::*;
use soc_descriptors::builtin_system;
use std::path::PathBuf;

const BYTES: u32 = 12 * 1024;

fn rust_sender() -> Kernel {
    Kernel::dataflow("fabric_sender", |d| {
        let mut idx = 0;
        let mut next = |d: &mut Dataflow| {
            idx += 1;
            d.get_arg_val::<u32>(idx - 1)
        };
        let (x, y, src, hdr) = (next(d), next(d), next(d), next(d));
        let (start, range) = (next(d) as u8, next(d) as u8);
        let mut idx = 6;
        let mut c = FabricConnection::from_args(d, &mut idx);
        d.fabric_open(&mut c);
        let dst = d.get_noc_addr(x, y, src);
        let sem = d.get_semaphore(0);
        let sem_noc = d.get_noc_addr(x, y, sem);
        d.fabric_multicast_noc_unicast_write(&mut c, hdr, src, BYTES, dst, start, range);
        d.fabric_multicast_noc_unicast_atomic_inc(&mut c, hdr, sem_noc, 1, start, range);
        d.fabric_close(&mut c);
    })
}

/// Run the sender (C++ or Rust) on chip 0 of a 1×4 line; returns each chip's cycles and the bytes landed
/// on the last chip.
fn run(cpp_sender: bool) -> (Vec<u64>, Vec<u32>) {
    let (cd, sys) = builtin_system("t3000").unwrap();
    let mut m = MeshDevice::open(&cd, &sys, MeshShape::new(1, 4), None, &Params::builtin(Arch::WormholeB0)).unwrap();
    m.set_fabric_config(FabricConfig::Fabric1D).unwrap();
    let base = Params::builtin(Arch::WormholeB0).mem.l1_unreserved_base + 0x1000;
    let hdr = base + BYTES;
    let data: Vec<u32> = (0..BYTES / 4).map(|i| i.wrapping_mul(0x9e37_79b9) ^ 5).collect();
    let dst_core = CoreCoord::new(1, 1);
    let home = MeshCoordinate::new(0, 0);
    let dst_xy = m.get_device(home).unwrap().worker_core_from_logical_core(dst_core).unwrap();
    m.get_device(home).unwrap().write_to_device_l1(CoreCoord::new(0, 0), base, &data).unwrap();
    let mut args = vec![dst_xy.x, dst_xy.y, base, hdr, 1, 3];
    m.append_fabric_connection_rt_args(home, MeshCoordinate::new(0, 1), 0, 1, &mut args).unwrap();
    let mut p0 = Program::new();
    let core = CoreCoord::new(0, 0);
    let k = if cpp_sender {
        let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/fabric_parity.cpp");
        let cfg = DataMovementConfig { defines: vec![("BYTES".into(), BYTES.to_string())], ..Default::default() };
        let mut dev = m.get_device(home).unwrap();
        cpp::create_kernel(&mut p0, &mut dev, src, core, cfg).unwrap()
    } else {
        p0.create_kernel(rust_sender(), core, DataMovementConfig::default()).unwrap()
    };
    p0.set_runtime_args(k, core, &args).unwrap();
    let mut w = MeshWorkload::new();
    w.add_program(MeshCoordinateRange::single(home), p0);
    for i in 1..4 {
        let mut p = Program::new();
        p.create_semaphore(dst_core, 0).unwrap();
        p.create_kernel(
            Kernel::dataflow("fabric_receiver", |d| {
                let s = d.get_semaphore(0);
                d.noc_semaphore_wait(s, 1);
            }),
            dst_core,
            DataMovementConfig::default(),
        )
        .unwrap();
        w.add_program(MeshCoordinateRange::single(MeshCoordinate::new(0, i)), p);
    }
    let r = m.enqueue_mesh_workload(&w).unwrap();
    let got = m
        .get_device(MeshCoordinate::new(0, 3))
        .unwrap()
        .read_from_device_l1::<u32>(dst_core, base, data.len())
        .unwrap();
    assert_eq!(got, data, "the payload reaches the last chip");
    (r.devices.iter().map(|d| d.2.cycles.0).collect(), got)
}

#[test]
fn a_cpp_fabric_sender_times_like_its_rust_twin() {
    if let Err(e) = cpp::compile::compiler() {
        panic!("this test compiles C++ kernels and needs the host C++ compiler: {e}");
    }
    let (rust, rust_data) = run(false);
    let (cpp, cpp_data) = run(true);
    assert_eq!(cpp_data, rust_data);
    assert!(rust.iter().all(|&c| c > 1000), "every chip waits for the packets: {rust:?}");
    assert_eq!(cpp, rust, "cycles per chip: C++ {cpp:?}, Rust {rust:?}");
    eprintln!("cycles per chip (C++ = Rust): {cpp:?}");
}
