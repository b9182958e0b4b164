//! Data-movement benchmarks: tt-metal's `tests/tt_metal/tt_metal/data_movement` suites rebuilt as tensim
//! kernels. Each run issues N transactions of S bytes back to back and then waits on the matching barrier,
//! inside a profiler zone; the zone's length is the "Latency (cycles)" of tt-metal's tables and
//! `bytes / latency` their "Bandwidth (bytes/cycle)". Sweeps and table layout follow tt-metal's.

mod suites;
mod table;

pub use suites::{Grid, Suite, SuiteKind, suites};
pub use table::{Comparison, Row, compare, format_table, parse_table};

use sim_device::prelude::*;

/// Transaction sizes of a sweep: one flit up to 64 KiB, doubling.
pub fn default_sizes(flit_bytes: u32) -> Vec<u32> {
    std::iter::successors(Some(flit_bytes), |s| (*s < 65536).then_some(s * 2)).collect()
}

/// Transaction counts of a sweep.
pub const DEFAULT_COUNTS: [u32; 5] = [1, 4, 16, 64, 256];

/// Run `suite` over every (count, size) pair on `dev` (counts outer, sizes inner, as tt-metal numbers its
/// runs) and return the table rows.
pub fn run_sweep(dev: &mut Device, suite: &Suite, sizes: &[u32], counts: &[u32]) -> Result<Vec<Row>, DeviceError> {
    let mut rows = Vec::new();
    let mut id = 0;
    for &n in counts {
        for &s in sizes {
            for (kernel, latency, bytes) in suite.run(dev, s, n)? {
                rows.push(Row {
                    kernel: kernel.to_string(),
                    run_host_id: id,
                    size: s,
                    count: n,
                    latency,
                    bandwidth: bytes as f64 / latency.max(1) as f64,
                });
            }
            id += 1;
        }
    }
    Ok(rows)
}
