//! Research: the All to All pattern of calibration/dm (every core of an 8x8 Wormhole grid writes to every
//! core in the same order, cores started one after another) on the flit-level reference NoC, to see what
//! credit-based wormhole routers with the documented buffers make of it.
//!
//! `cargo run --release -p sim-noc --example flit_a2a -- PER_PAIR_BYTES COUNT [BUFFER_FLITS] [CREDIT_DELAY]
//! [STAGGER_CYCLES] [HEAD_PIPELINE] [INJECT_HEAD_PIPELINE]` prints the median zone over the 64 cores and the bytes per cycle per core, as the
//! table's Latency and Bandwidth columns (the zone ends when the core's last packet has arrived; the
//! write barrier's acknowledgements are left out). It also prints how often the cores travel in convoys:
//! sampled every 500 cycles, the share of running cores by how many running cores are on the same
//! destination as they are (identical-order writers that bunch up would write into one core together).

use sim_core::Cycle;
use sim_noc::flit::{FlitNoc, FlitParams};
use soc_descriptors::{GridSize, Noc0Coord, NocId};

fn arg(i: usize, default: u64) -> u64 {
    match std::env::args().nth(i) {
        None => default,
        Some(v) => v.parse().unwrap_or_else(|_| {
            eprintln!("flit_a2a: argument {i} is `{v}`, not a whole number (usage in the file's first lines)");
            std::process::exit(1)
        }),
    }
}

fn main() {
    let per_pair = arg(1, 32768);
    if per_pair == 0 || per_pair > 1 << 20 {
        eprintln!("flit_a2a: PER_PAIR_BYTES {per_pair} is out of range 1..=1048576");
        std::process::exit(1);
    }
    let count = arg(2, 1);
    let p = FlitParams {
        hop: 10,
        niu_to_router: 5,
        router_to_niu: 5,
        buffer_flits: arg(3, 16),
        credit_delay: arg(4, 2),
        flit_bytes: 32,
        header_flits: 1,
        head_pipeline: arg(6, 0),
        inject_head_pipeline: arg(7, 0),
    };
    let stagger = arg(5, 35_000);
    if p.head_pipeline >= p.hop {
        eprintln!(
            "flit_a2a: HEAD_PIPELINE {} must be shorter than the {}-cycle hop it is part of",
            p.head_pipeline, p.hop
        );
        std::process::exit(1);
    }
    if p.inject_head_pipeline >= p.niu_to_router {
        eprintln!(
            "flit_a2a: INJECT_HEAD_PIPELINE {} must be shorter than the {}-cycle injection port it is part of",
            p.inject_head_pipeline, p.niu_to_router
        );
        std::process::exit(1);
    }
    if p.buffer_flits == 0 {
        eprintln!("flit_a2a: BUFFER_FLITS must be at least 1 (a VC's guaranteed flit)");
        std::process::exit(1);
    }
    // Wormhole B0's 8x8 worker grid in NoC0 coordinates (columns 0 and 5 and rows 0 and 6 hold other tiles).
    let xs = [1u32, 2, 3, 4, 6, 7, 8, 9];
    let ys = [1u32, 2, 3, 4, 5, 7, 8, 9];
    let mut noc = FlitNoc::new(GridSize::new(10, 12), p);
    let cores: Vec<Noc0Coord> = ys.iter().flat_map(|&y| xs.iter().map(move |&x| Noc0Coord::new(x, y))).collect();
    let dests: Vec<Noc0Coord> = xs.iter().flat_map(|&x| ys.iter().map(move |&y| Noc0Coord::new(x, y))).collect();
    let mut last = Vec::new();
    for (rank, &src) in cores.iter().enumerate() {
        let start = Cycle(rank as u64 * stagger);
        let mut ids = Vec::new();
        for &dst in &dests {
            for _ in 0..count {
                let mut left = per_pair;
                while left > 0 {
                    let bytes = left.min(8192);
                    left -= bytes;
                    ids.push(noc.send(NocId::Noc0, src, dst, bytes as u32, start));
                }
            }
        }
        last.push((start, ids));
    }
    if let Err(e) = noc.run(Cycle(u64::MAX)) {
        eprintln!("the reference stopped: {e:?}");
        std::process::exit(1);
    }
    let mut zones: Vec<u64> = last
        .iter()
        .map(|(start, ids)| {
            ids.iter().map(|&id| noc.arrival(id).expect("arrived").0).max().unwrap_or(start.0) - start.0
        })
        .collect();
    println!("{}", convoys(&noc, &last, dests.len()));
    zones.sort_unstable();
    let median = (zones[31] + zones[32]) as f64 / 2.0;
    // The table's Transaction Size is the bytes per pair times the 64 destinations.
    let size = per_pair * 64;
    println!(
        "Transaction Size {size} x Number {count}: median zone {median} cycles, {:.2} B/cycle per core (zones {}..{})",
        (size * count) as f64 / median,
        zones[0],
        zones[63]
    );
}

/// The share of running cores, sampled every 500 cycles, by the number of running cores on their
/// destination (a core is on destination `j` from when its packets for `j - 1` have all arrived until its
/// packets for `j` have).
fn convoys(noc: &FlitNoc, cores: &[(Cycle, Vec<sim_noc::flit::FlitPacketId>)], dests: usize) -> String {
    let arrived = |id| noc.arrival(id).expect("arrived").0;
    // Per core: when its last packet for each destination arrived.
    let done: Vec<Vec<u64>> = cores
        .iter()
        .map(|(_, ids)| {
            ids.chunks(ids.len() / dests).map(|c| c.iter().map(|&i| arrived(i)).max().unwrap_or(0)).collect()
        })
        .collect();
    let end = done.iter().filter_map(|d| d.last().copied()).max().unwrap_or(0);
    let mut by_size = vec![0u64; cores.len() + 1];
    for t in (0..end).step_by(500) {
        let mut on = vec![0usize; dests];
        for ((start, _), d) in cores.iter().zip(&done) {
            if start.0 <= t
                && let Some(j) = d.iter().position(|&a| a > t)
            {
                on[j] += 1;
            }
        }
        for n in on.into_iter().filter(|&n| n > 0) {
            by_size[n] += n as u64;
        }
    }
    let total = by_size.iter().sum::<u64>().max(1);
    let parts: Vec<String> = by_size
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(k, &n)| format!("{k}: {:.1}%", n as f64 * 100.0 / total as f64))
        .collect();
    format!("running cores by cores on their destination: {}", parts.join(", "))
}
