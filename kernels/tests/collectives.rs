//! Collectives on the fabric: all_gather passes bit-exactly on an n300 (1x2), 1x4 and 1x8 lines and the
//! T3000 8-chip ring, and on a Blackhole p300; a ring is faster than a line of the same chips; the result
//! and every cycle are the same with one and two host workers.

use kernels::mesh::all_gather::{AllGather, Topology, run};
use sim_device::Params;
use sim_device::mesh::{MeshDevice, MeshShape};

fn mesh(system: &str, n: u32, workers: usize) -> MeshDevice {
    let (cd, sys) = soc_descriptors::builtin_system(system).unwrap();
    let mut m = MeshDevice::open(&cd, &sys, MeshShape::new(1, n), None, &Params::builtin(cd.arch().unwrap())).unwrap();
    m.set_workers(workers);
    m
}

const SMALL: AllGather = AllGather { shape: [1, 1, 32, 64], dim: 3, topology: Topology::Line };

#[test]
fn all_gather_passes_on_every_listed_topology() {
    for (system, n, topology, dim) in [
        ("n300", 2, Topology::Line, 3),
        ("t3000", 4, Topology::Line, 2),
        ("t3000", 8, Topology::Line, 3),
        ("t3000", 8, Topology::Ring, 3),
        ("t3000", 8, Topology::Ring, 0),
        ("p300", 2, Topology::Line, 3),
    ] {
        let p = AllGather { topology, dim, ..SMALL };
        let out = run(&mut mesh(system, n, 0), p, 11).unwrap();
        assert!(out.passed, "{system} 1x{n} {topology:?}: {}", out.check);
        eprintln!("{system} 1x{n} {topology:?} dim {dim}: {} cycles", out.report.cycles.0);
    }
}

#[test]
fn a_ring_beats_a_line_of_the_same_chips() {
    let p = AllGather { shape: [1, 1, 64, 128], ..SMALL };
    let line = run(&mut mesh("t3000", 8, 0), p, 3).unwrap();
    let ring = run(&mut mesh("t3000", 8, 0), AllGather { topology: Topology::Ring, ..p }, 3).unwrap();
    assert!(line.passed && ring.passed);
    assert!(ring.report.cycles < line.report.cycles, "ring {} vs line {}", ring.report.cycles.0, line.report.cycles.0);
}

#[test]
fn all_gather_is_deterministic_across_workers() {
    let p = AllGather { topology: Topology::Ring, ..SMALL };
    let a = run(&mut mesh("t3000", 8, 1), p, 5).unwrap();
    let b = run(&mut mesh("t3000", 8, 2), p, 5).unwrap();
    let c = |o: &kernels::mesh::all_gather::CclOutcome| {
        o.report.devices.iter().map(|d| (d.1, d.2.cycles.0, d.2.events, d.2.eth.clone())).collect::<Vec<_>>()
    };
    assert_eq!(c(&a), c(&b));
}

#[test]
fn bad_collective_requests_are_named() {
    let e = run(&mut mesh("n300", 2, 0), AllGather { topology: Topology::Ring, ..SMALL }, 1).unwrap_err();
    assert!(e.to_string().contains("ring needs at least 3"), "{e}");
    let e = run(&mut mesh("t3000", 4, 0), AllGather { shape: [1, 1, 30, 64], ..SMALL }, 1).unwrap_err();
    assert!(e.to_string().contains("multiples of 32"), "{e}");
    let e = run(&mut mesh("t3000", 4, 0), AllGather { dim: 4, ..SMALL }, 1).unwrap_err();
    assert!(e.to_string().contains("dim 4"), "{e}");
}
