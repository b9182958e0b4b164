//! Collectives on the fabric: all_gather, reduce_scatter and all_reduce pass bit-exactly on an n300 (1x2),
//! 1x4 and 1x8 lines and the T3000 8-chip ring (all_gather also on a Blackhole p300); a ring is faster than
//! a line of the same chips; the result and every cycle are the same with one and two host workers and
//! with fixed or lookahead windows.

use programs::mesh::all_gather::{AllGather, run};
use programs::mesh::all_reduce::{self, AllReduce};
use programs::mesh::ccl::{CclOutcome, Topology};
use programs::mesh::reduce_scatter::{self, ReduceScatter};
use sim_device::Params;
use sim_device::mesh::{MeshDevice, MeshShape};

fn mesh(system: &str, n: u32, workers: usize) -> MeshDevice {
    let (cd, sys) = soc_descriptors::builtin_system(system).unwrap();
    let mut m = MeshDevice::open(&cd, &sys, MeshShape::new(1, n), None, &Params::builtin(cd.arch().unwrap())).unwrap();
    m.set_workers(workers);
    m
}

const SMALL: AllGather = AllGather { shape: [1, 1, 32, 64], dim: 3, topology: Topology::Line, links: 1 };

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
        eprintln!("{system} 1x{n} {topology:?} dim {dim}: {} cycles", out.cycles().0);
    }
}

#[test]
fn a_ring_beats_a_line_of_the_same_chips() {
    let p = AllGather { shape: [1, 1, 64, 128], ..SMALL };
    let line = run(&mut mesh("t3000", 8, 0), p, 3).unwrap();
    let ring = run(&mut mesh("t3000", 8, 0), AllGather { topology: Topology::Ring, ..p }, 3).unwrap();
    assert!(line.passed && ring.passed);
    assert!(ring.cycles() < line.cycles(), "ring {} vs line {}", ring.cycles().0, line.cycles().0);
}

#[test]
fn all_gather_over_several_links_splits_the_slice_between_them() {
    // Two links between T3000 neighbours, four on a Galaxy: each worker sends its part over its own link, the
    // data arrives bit-exactly, and the line takes far less time than over one link (not 1/links of it: the
    // op's fixed costs stay, and the chips' DRAM and routers carry the same total).
    for (system, n, links, dim) in [("t3000", 2, 2, 3), ("t3000", 4, 2, 2), ("galaxy", 4, 4, 3)] {
        let p = AllGather { shape: [1, 1, 64, 2048], dim, ..SMALL };
        let one = run(&mut mesh(system, n, 0), p, 5).unwrap();
        let many = run(&mut mesh(system, n, 0), AllGather { links, ..p }, 5).unwrap();
        assert!(one.passed && many.passed, "{system} 1x{n}, {links} links: {}", many.check);
        let ratio = many.cycles().0 as f64 / one.cycles().0 as f64;
        eprintln!("{system} 1x{n}: 1 link {} cycles, {links} links {} ({ratio:.2})", one.cycles().0, many.cycles().0);
        assert!(ratio < 0.7, "{system} 1x{n}: {links} links take {ratio:.2} of one link's time");
    }
    // Deterministic with any number of host workers.
    let p = AllGather { shape: [1, 1, 64, 512], links: 2, ..SMALL };
    let (a, b) = (run(&mut mesh("t3000", 4, 1), p, 9).unwrap(), run(&mut mesh("t3000", 4, 2), p, 9).unwrap());
    assert_eq!(a.cycles(), b.cycles());
    // More links than a hop has: an error naming the hop and what it has.
    let e = run(&mut mesh("t3000", 4, 0), AllGather { links: 3, ..SMALL }, 1).unwrap_err().to_string();
    assert!(e.contains("all_gather with 3 links: devices (0, 0) and (0, 1) are joined by 2; use at most 2"), "{e}");
}

#[test]
fn reduce_scatter_and_all_reduce_over_several_links_split_every_slice_between_them() {
    // Each link's pair of direction cores takes its part of every slice (cut at whole packets, into its own
    // part of each receive slot): bit-exact sums, in far less time than over one link.
    for (system, n, topology, links) in
        [("t3000", 2, Topology::Line, 2), ("t3000", 8, Topology::Ring, 2), ("galaxy", 4, Topology::Line, 4)]
    {
        let p = ReduceScatter { shape: [1, 1, 128, 512 * n], dim: 3, topology, links: 1 };
        let one = reduce_scatter::run(&mut mesh(system, n, 0), p, 6).unwrap();
        let many = reduce_scatter::run(&mut mesh(system, n, 0), ReduceScatter { links, ..p }, 6).unwrap();
        assert!(one.passed && many.passed, "{system} 1x{n} {topology:?}, {links} links: {}", many.check);
        let ratio = many.cycles().0 as f64 / one.cycles().0 as f64;
        eprintln!("reduce_scatter {system} 1x{n} {topology:?}: {links} links take {ratio:.2} of one link's time");
        assert!(ratio < 0.8, "{system} 1x{n}: {links} links take {ratio:.2} of one link's time");
    }
    // A share smaller than a packet per link (some links carry nothing but the syncs) still sums right.
    let p = ReduceScatter { shape: [1, 1, 32, 64], dim: 3, topology: Topology::Line, links: 2 };
    assert!(reduce_scatter::run(&mut mesh("t3000", 2, 0), p, 2).unwrap().passed);
    let p = AllReduce { shape: [1, 1, 64, 512], topology: Topology::Line, links: 2 };
    let (a, b) = (
        all_reduce::run(&mut mesh("t3000", 4, 1), p, 8).unwrap(),
        all_reduce::run(&mut mesh("t3000", 4, 2), p, 8).unwrap(),
    );
    assert!(a.passed && b.passed, "{}", a.check);
    assert_eq!(a.cycles(), b.cycles(), "the same cycles with one and two host workers");
    let e = reduce_scatter::run(&mut mesh("t3000", 4, 0), ReduceScatter { links: 3, ..p_rs() }, 1).unwrap_err();
    assert!(e.to_string().contains("reduce_scatter with 3 links: devices (0, 0) and (0, 1) are joined by 2"), "{e}");
}

#[test]
fn several_links_on_the_router_model_keep_every_packet() {
    // On the stepped NoC model a fabric router frees a receiver slot only once the NoC writes reading it
    // have left L1: freed at once, the upstream chip refilled it first under this much traffic and the
    // forwarded copy carried the wrong packet (an 8-chip line deadlocked on lost increments, a ring's
    // outputs differed).
    let router = |system: &str, n: u32| {
        let (cd, sys) = soc_descriptors::builtin_system(system).unwrap();
        let mut params = Params::builtin(cd.arch().unwrap());
        params.set("test", "noc.model=router").unwrap();
        MeshDevice::open(&cd, &sys, MeshShape::new(1, n), None, &params).unwrap()
    };
    for topology in [Topology::Line, Topology::Ring] {
        let p = AllGather { shape: [1, 1, 64, 512], dim: 3, topology, links: 2 };
        let out = run(&mut router("t3000", 8), p, 7).unwrap();
        assert!(out.passed, "all_gather {topology:?}, 2 links, router model: {}", out.check);
        let p = ReduceScatter { shape: [1, 1, 64, 1024], dim: 3, topology, links: 2 };
        let out = reduce_scatter::run(&mut router("t3000", 8), p, 7).unwrap();
        assert!(out.passed, "reduce_scatter {topology:?}, 2 links, router model: {}", out.check);
    }
}

fn p_rs() -> ReduceScatter {
    ReduceScatter { shape: [1, 1, 32, 128], dim: 3, topology: Topology::Line, links: 1 }
}

const LISTED: [(&str, u32, Topology); 4] = [
    ("n300", 2, Topology::Line),
    ("t3000", 4, Topology::Line),
    ("t3000", 8, Topology::Line),
    ("t3000", 8, Topology::Ring),
];

#[test]
fn reduce_scatter_passes_on_every_listed_topology() {
    for (system, n, topology) in LISTED {
        for dim in [3, 2] {
            let shape = if dim == 3 { [1, 1, 32, 32 * n] } else { [1, 1, 32 * n, 64] };
            let p = ReduceScatter { shape, dim, topology, links: 1 };
            let out = reduce_scatter::run(&mut mesh(system, n, 0), p, 21).unwrap();
            assert!(out.passed, "{system} 1x{n} {topology:?} dim {dim}: {}", out.check);
            eprintln!("reduce_scatter {system} 1x{n} {topology:?} dim {dim}: {} cycles", out.cycles().0);
        }
    }
}

/// Slices of an odd number of tiles (and ring halves of 0, 1 or 3 tiles) end in a packet with one tile
/// and a pad: the sums stay bit-exact and nothing is written past the slice.
#[test]
fn reduce_scatter_slices_of_odd_tile_counts_pass() {
    for (n, topology, shape, dim) in [
        (8, Topology::Ring, [1, 1, 32, 32 * 8], 3),
        (8, Topology::Ring, [1, 1, 96, 32 * 8], 3),
        (4, Topology::Line, [1, 4, 32, 96], 1),
        (2, Topology::Line, [1, 1, 96, 64], 3),
    ] {
        let out =
            reduce_scatter::run(&mut mesh("t3000", n, 0), ReduceScatter { shape, dim, topology, links: 1 }, 4).unwrap();
        assert!(out.passed, "1x{n} {topology:?} {shape:?} dim {dim}: {}", out.check);
    }
}

/// A large reduce_scatter on a 2-chip line keeps its link busy: each packet carries two tiles, reads
/// overlap sends and outputs are not waited on one by one (at least 70% of the line rate; before the
/// pipelined rewrite, 37%).
#[test]
fn reduce_scatter_on_a_line_runs_near_link_rate() {
    let p = ReduceScatter { shape: [1, 1, 128, 8192], dim: 3, topology: Topology::Line, links: 1 };
    let out = reduce_scatter::run(&mut mesh("t3000", 2, 0), p, 2).unwrap();
    assert!(out.passed);
    let (_, _, bytes, gbs) = out.busiest_link().unwrap();
    assert!(bytes >= 1 << 20, "{bytes} B");
    assert!(gbs >= 0.7 * 12.5, "{gbs:.2} GB/s on the busiest link");
}

#[test]
fn all_reduce_passes_on_every_listed_topology() {
    for (system, n, topology) in LISTED {
        let p = AllReduce { shape: [1, 1, 32, 64 * n], topology, links: 1 };
        let out = all_reduce::run(&mut mesh(system, n, 0), p, 31).unwrap();
        assert!(out.passed, "{system} 1x{n} {topology:?}: {}", out.check);
        assert_eq!(out.phases.len(), 2);
        // The two ops one after another, each after its fixed start (launch and the start handshake).
        assert_eq!(out.cycles().0, out.phases[0].1.cycles.0 + out.phases[1].1.cycles.0 + out.start.0);
        let arch = soc_descriptors::builtin_system(system).unwrap().0.arch().unwrap();
        let one = programs::mesh::ccl::op_start_cycles(&Params::builtin(arch), n);
        assert_eq!(out.start, one * 2);
        eprintln!("all_reduce {system} 1x{n} {topology:?}: {} cycles", out.cycles().0);
    }
}

/// A reduce_scatter moves (N−1)/N of the tensor over the busiest link on a line, half that per direction on
/// a ring: the bytes each link carries follow the algorithm, not the topology's size.
#[test]
fn reduce_scatter_moves_the_bytes_the_algorithm_says() {
    let shape = [1, 1, 32, 32 * 8 * 4];
    let slice_bytes = 4 * 2048u64;
    let line = reduce_scatter::run(
        &mut mesh("t3000", 8, 0),
        ReduceScatter { shape, dim: 3, topology: Topology::Line, links: 1 },
        1,
    )
    .unwrap();
    let ring = reduce_scatter::run(
        &mut mesh("t3000", 8, 0),
        ReduceScatter { shape, dim: 3, topology: Topology::Ring, links: 1 },
        1,
    )
    .unwrap();
    assert!(line.passed && ring.passed);
    // Payload per link direction: on a line the end device's link carries the partials of all 7 other
    // slices; on a ring every link carries 7 half-slices. Headers and credits add a few percent.
    let (_, _, line_bytes, _) = line.busiest_link().unwrap();
    let (_, _, ring_bytes, _) = ring.busiest_link().unwrap();
    assert!(line_bytes >= 7 * slice_bytes && line_bytes < 15 * slice_bytes / 2, "line {line_bytes}");
    assert!(ring_bytes >= 7 * slice_bytes / 2 && ring_bytes < 4 * slice_bytes, "ring {ring_bytes}");
    assert!(ring.cycles() < line.cycles(), "ring {} vs line {}", ring.cycles().0, line.cycles().0);
}

#[test]
fn all_gather_is_deterministic_across_workers() {
    let p = AllGather { topology: Topology::Ring, ..SMALL };
    let a = run(&mut mesh("t3000", 8, 1), p, 5).unwrap();
    let b = run(&mut mesh("t3000", 8, 2), p, 5).unwrap();
    assert_eq!(fingerprint(&a), fingerprint(&b));
    let p = AllReduce { shape: [1, 1, 32, 256], topology: Topology::Ring, links: 1 };
    let a = all_reduce::run(&mut mesh("t3000", 8, 1), p, 5).unwrap();
    let b = all_reduce::run(&mut mesh("t3000", 8, 2), p, 5).unwrap();
    assert!(a.passed);
    assert_eq!(fingerprint(&a), fingerprint(&b));
}

#[test]
fn window_lengths_do_not_change_results() {
    // Lookahead windows (each chip runs up to the earliest landing its links allow) against fixed
    // windows of one link latency: every cycle and link figure is the same. (Event counts are not: a
    // kernel running ahead of the queue stops at each window's end, one resumption more per window.)
    let p = AllGather { shape: [1, 1, 64, 256], topology: Topology::Ring, ..SMALL };
    let mut fixed = mesh("t3000", 8, 2);
    fixed.set_lookahead(false);
    let a = run(&mut fixed, p, 9).unwrap();
    let b = run(&mut mesh("t3000", 8, 2), p, 9).unwrap();
    assert!(a.passed && b.passed);
    assert_eq!(timing(&a), timing(&b));
    let p = ReduceScatter { shape: [1, 1, 64, 256], dim: 3, topology: Topology::Line, links: 1 };
    let mut fixed = mesh("t3000", 4, 1);
    fixed.set_lookahead(false);
    let a = reduce_scatter::run(&mut fixed, p, 9).unwrap();
    let b = reduce_scatter::run(&mut mesh("t3000", 4, 1), p, 9).unwrap();
    assert!(a.passed && b.passed);
    assert_eq!(timing(&a), timing(&b));
}

fn timing(o: &CclOutcome) -> Vec<(u32, u64, Vec<sim_device::report::EthLinkUse>)> {
    o.phases.iter().flat_map(|p| p.1.devices.iter().map(|d| (d.1, d.2.cycles.0, d.2.eth.clone()))).collect()
}

fn fingerprint(o: &CclOutcome) -> Vec<(u32, u64, u64, Vec<sim_device::report::EthLinkUse>)> {
    o.phases.iter().flat_map(|p| p.1.devices.iter().map(|d| (d.1, d.2.cycles.0, d.2.events, d.2.eth.clone()))).collect()
}

#[test]
fn bad_collective_requests_are_named() {
    let e = run(&mut mesh("n300", 2, 0), AllGather { topology: Topology::Ring, ..SMALL }, 1).unwrap_err();
    assert!(e.to_string().contains("ring needs at least 3"), "{e}");
    let e = run(&mut mesh("t3000", 4, 0), AllGather { shape: [1, 1, 30, 64], ..SMALL }, 1).unwrap_err();
    assert!(e.to_string().contains("multiples of 32"), "{e}");
    let e = run(&mut mesh("t3000", 4, 0), AllGather { dim: 4, ..SMALL }, 1).unwrap_err();
    assert!(e.to_string().contains("dim 4"), "{e}");
    let rs = ReduceScatter { shape: [1, 1, 32, 96], dim: 3, topology: Topology::Line, links: 1 };
    let e = reduce_scatter::run(&mut mesh("t3000", 4, 0), rs, 1).unwrap_err();
    assert!(e.to_string().contains("cannot share evenly") && e.to_string().contains("128"), "{e}");
    let ar = AllReduce { shape: [1, 3, 32, 96], topology: Topology::Line, links: 1 };
    let e = all_reduce::run(&mut mesh("t3000", 4, 0), ar, 1).unwrap_err();
    assert!(e.to_string().contains("not modelled"), "{e}");
}
