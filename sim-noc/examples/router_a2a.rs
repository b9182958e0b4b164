//! Research: the All to All pattern of calibration/dm (every core of an 8x8 Wormhole grid writes to every
//! core, all in the same destination order, cores started `stagger` cycles apart, non-posted writes, one
//! barrier at the end) on the router-level NoC, to see what its flow control makes of it.
//!
//! `cargo run --release -p sim-noc --example router_a2a -- [key=value ...]` with keys `pair` (bytes per
//! destination, default 32768), `count` (default 1), `stagger` (35000), `noc` (0), `vcs` (1: VC numbers
//! used round-robin per write), `blind` (1), `reserved` (1), `cap` (16), `shared` (48), `credit` (2),
//! `hop` (10), `posted` (0). Prints the median zone over the 64 cores (the core's last acknowledgement)
//! and bytes per cycle per core, as the table's Latency and Bandwidth columns.

use sim_core::Cycle;
use sim_noc::routers::{Kind, RouterNoc, RouterParams};
use soc_descriptors::{GridSize, Noc0Coord, NocId};

fn main() {
    let mut kv = std::collections::BTreeMap::new();
    for a in std::env::args().skip(1) {
        let Some((k, v)) = a.split_once('=') else {
            eprintln!("router_a2a: argument `{a}` is not key=value (keys in the file's first lines)");
            std::process::exit(1)
        };
        let Ok(v) = v.parse::<u64>() else {
            eprintln!("router_a2a: `{k}={v}`: the value must be a whole number");
            std::process::exit(1)
        };
        kv.insert(k.to_string(), v);
    }
    let known = ["pair", "count", "stagger", "noc", "vcs", "blind", "reserved", "cap", "shared", "credit", "hop", "posted", "sticky"];
    if let Some(k) = kv.keys().find(|k| !known.contains(&k.as_str())) {
        eprintln!("router_a2a: unknown key `{k}` (known: {})", known.join(", "));
        std::process::exit(1);
    }
    let get = |k: &str, d: u64| kv.get(k).copied().unwrap_or(d);
    let per_pair = get("pair", 32768);
    let count = get("count", 1);
    let stagger = get("stagger", 35_000);
    let noc = if get("noc", 0) == 1 { NocId::Noc1 } else { NocId::Noc0 };
    let vcs = get("vcs", 1).clamp(1, 4) as u8;
    let p = RouterParams {
        hop: get("hop", 10),
        niu_to_router: 5,
        router_to_niu: 5,
        flit_bytes: 32,
        header_flits: 1,
        reserved_flits: get("reserved", 1) as u32,
        vc_cap_flits: get("cap", 16) as u32,
        shared_flits: get("shared", 48) as u32,
        credit_delay: get("credit", 2),
        blind: get("blind", 1) == 1,
        sticky: get("sticky", 0) == 1,
        ack_turnaround: 10,
    };
    let kind = if get("posted", 0) == 1 { Kind::Posted } else { Kind::NonPosted };
    let xs = [1u32, 2, 3, 4, 6, 7, 8, 9];
    let ys = [1u32, 2, 3, 4, 5, 7, 8, 9];
    let mut r = RouterNoc::new(GridSize::new(10, 12), p);
    let cores: Vec<Noc0Coord> = ys.iter().flat_map(|&y| xs.iter().map(move |&x| Noc0Coord::new(x, y))).collect();
    let dests = cores.clone();
    let mut all = Vec::new();
    for (rank, &src) in cores.iter().enumerate() {
        let start = Cycle(rank as u64 * stagger);
        let mut ids = Vec::new();
        for &dst in &dests {
            for i in 0..count {
                let mut left = per_pair;
                while left > 0 {
                    let bytes = left.min(8192);
                    left -= bytes;
                    let k = if dst == src { Kind::Posted } else { kind };
                    ids.push(r.send(noc, src, dst, bytes as u32, start, (i % vcs as u64) as u8, k));
                }
            }
        }
        all.push((start, ids));
    }
    if let Err(e) = r.run(Cycle(u64::MAX)) {
        eprintln!("the router model stopped: {e:?}");
        std::process::exit(1);
    }
    let mut zones: Vec<u64> = all
        .iter()
        .map(|(start, ids)| {
            ids.iter()
                .map(|&id| r.acked(id).or(r.arrival(id)).expect("arrived").0)
                .max()
                .unwrap_or(start.0)
                - start.0
        })
        .collect();
    zones.sort_unstable();
    let median = (zones[31] + zones[32]) as f64 / 2.0;
    let size = per_pair * 64;
    let s = r.stats();
    println!(
        "Transaction Size {size} x Number {count}: median zone {median} cycles, {:.2} B/cycle per core (zones {}..{}); {} flit moves, {} blind losses",
        (size * count) as f64 / median,
        zones[0],
        zones[63],
        s.moves,
        s.blind_losses
    );
}
