//! Data-movement benchmarks: tt-metal's `tests/tt_metal/tt_metal/data_movement` tests rebuilt as tensim
//! programs ([`suites`], [`kernels`]). Each measuring kernel issues its transactions back to back and waits
//! on the matching barrier inside a profiler zone; a row's "Latency (cycles)" is the median of the zone
//! lengths over the measuring cores and its "Bandwidth (bytes/cycle)" the median of their bytes / length.
//! Sweeps, sizes and the table layout follow tt-metal's; `table` reads measured tables and compares.

pub mod dram_pairing;
mod grid;
pub mod kernels;
mod rows;
mod suites;
mod table;

pub use grid::Grid;
pub use suites::{Suite, SuiteArgs, SuiteKind, suites};

/// A device factory for [`run_sweep`]: the built-in chip of `arch` with its built-in parameters.
pub fn builtin(arch: sim_device::Arch) -> impl Fn() -> Result<Device, DeviceError> + Sync {
    move || Device::builtin(arch)
}
pub use table::{Comparison, Row, TableId, compare, format_table, parse_table, recognise, table_title};

use sim_device::prelude::*;

/// The harvesting of the card tt-metal's data-movement tables were measured on, when it differs from
/// tensim's default chip: the Blackhole tables used an 11x10 compute grid, a Blackhole with two harvested
/// Tensix columns (taken as the last two); the Wormhole tables an n150, tensim's default.
pub fn table_harvest(arch: sim_device::Arch) -> Option<u32> {
    match arch {
        sim_device::Arch::Blackhole => Some((1 << 12) | (1 << 13)),
        _ => None,
    }
}

/// Transaction sizes of a sweep: one flit up to 64 KiB, doubling.
pub fn default_sizes(flit_bytes: u32) -> Vec<u32> {
    std::iter::successors(Some(flit_bytes), |s| (*s < 65536).then_some(s * 2)).collect()
}

/// Transaction counts of a sweep.
pub const DEFAULT_COUNTS: [u32; 5] = [1, 4, 16, 64, 256];

/// A sweep point: `(run host id, bytes per transaction, transactions)`.
pub type Point = (u32, u32, u32);

/// The sweep points in tt-metal's order (counts outer, sizes inner).
pub fn points(sizes: &[u32], counts: &[u32]) -> Vec<Point> {
    let mut v = Vec::with_capacity(sizes.len() * counts.len());
    for &n in counts {
        for &s in sizes {
            v.push((v.len() as u32, s, n));
        }
    }
    v
}

/// NoC packets and payload bytes the whole sweep issues (its work estimate).
pub fn sweep_work(dev: &Device, suite: &Suite, pts: &[Point]) -> Result<(u64, u64), DeviceError> {
    let (mut packets, mut bytes) = (0u64, 0u64);
    for &(_, s, n) in pts {
        packets = packets.saturating_add(suite.packets(dev, s, n)?);
        bytes = bytes.saturating_add(suite.payload_bytes(dev, s, n)?);
    }
    Ok((packets, bytes))
}

/// Run one sweep point on a fresh device from `open`. The row's size is the table's: bytes per
/// transaction times the peers the test multiplies it by.
fn run_point(
    open: &(dyn Fn() -> Result<Device, DeviceError> + Sync),
    suite: &Suite,
    (id, s, n): Point,
) -> Result<Vec<Row>, DeviceError> {
    let mut dev = open()?;
    // The suites' kernels never read the bytes they move: time the traffic without copying payloads.
    dev.set_timing_only(true);
    let peers = suite.peers(&dev)?;
    let mut rows = suite.run(&mut dev, s, n)?;
    for r in &mut rows {
        (r.run_host_id, r.size, r.count) = (id, s * peers, n);
    }
    Ok(rows)
}

/// Run `suite` over every (count, size) pair (counts outer, sizes inner, as tt-metal numbers its runs) and
/// return the table rows. Each point runs on its own device from `open`, the points spread over the
/// current rayon pool; the rows and every number are the same whatever the number of threads. `done` is
/// called after each point (progress).
///
/// The points are handed out largest first (by their packet count), each to the next free thread: a sweep's
/// points differ in size by orders of magnitude, and the largest, started last, would otherwise run alone
/// while the other threads sit idle.
pub fn run_sweep(
    open: &(dyn Fn() -> Result<Device, DeviceError> + Sync),
    suite: &Suite,
    sizes: &[u32],
    counts: &[u32],
    done: &(dyn Fn() + Sync),
) -> Result<Vec<Row>, DeviceError> {
    run_points(open, suite, &points(sizes, counts), done)
}

/// [`run_sweep`] over chosen points (as [`points`] gives them): the rows of a measured table that are worth
/// a slow model's time, say.
pub fn run_points(
    open: &(dyn Fn() -> Result<Device, DeviceError> + Sync),
    suite: &Suite,
    pts: &[Point],
    done: &(dyn Fn() + Sync),
) -> Result<Vec<Row>, DeviceError> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let order = {
        let dev = open()?;
        let mut cost = Vec::with_capacity(pts.len());
        for (i, &(_, s, n)) in pts.iter().enumerate() {
            cost.push((suite.packets(&dev, s, n)?, i));
        }
        cost.sort_by_key(|&(packets, i)| (std::cmp::Reverse(packets), i));
        cost.into_iter().map(|(_, i)| i).collect::<Vec<_>>()
    };
    let next = AtomicUsize::new(0);
    type Slot = std::sync::Mutex<Option<Result<Vec<Row>, DeviceError>>>;
    let results: Vec<Slot> = pts.iter().map(|_| Slot::new(None)).collect();
    (0..rayon::current_num_threads().min(pts.len())).into_par_iter().for_each(|_| {
        while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
            let r = run_point(open, suite, pts[i]);
            *results[i].lock().expect("not poisoned") = Some(r);
            done();
        }
    });
    let per_point = results.into_iter().map(|m| m.into_inner().expect("not poisoned").expect("every point ran"));
    let mut rows = Vec::new();
    for r in per_point {
        rows.extend(r?);
    }
    Ok(rows)
}
