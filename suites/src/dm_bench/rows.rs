//! A run's table rows: per kernel label, the median over the measuring cores of their zone lengths and of
//! their bandwidths (bytes moved / zone length), with the run's NoC figures (the sweep adds the run number,
//! size and count).

use super::table::Row;
use sim_device::prelude::*;

/// What one core of a run measured.
pub(super) struct Measured {
    pub(super) core: CoreCoord,
    pub(super) label: &'static str,
    /// The profiler zone of its measuring kernel (`RISCV0` or `RISCV1`).
    pub(super) zone: &'static str,
    /// Bytes the core moved (for its bandwidth).
    pub(super) bytes: u64,
}

/// The median of `v` (the mean of the two middle values for an even count), as `np.median`.
fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
}

/// The table rows of a run: per label, the median over its cores of the zone length and of the bandwidth.
pub(super) fn rows(r: &RunReport, measured: &[Measured]) -> Vec<Row> {
    let bp = &r.noc.backpressure;
    let (cycles, tiles) = (r.cycles.0, r.noc.worker_tiles);
    let (stalled_per_tile, backpressure) = (bp.stalled_per_tile(cycles, tiles), bp.significant(cycles, tiles));
    let hol_cycles = r.noc.links.iter().map(|l| l.hol_cycles).chain(r.noc.ports.iter().map(|p| p.hol_cycles)).sum();
    let mut labels: Vec<&'static str> = Vec::new();
    for m in measured {
        if !labels.contains(&m.label) {
            labels.push(m.label);
        }
    }
    labels
        .into_iter()
        .map(|label| {
            let (mut lat, mut bw) = (Vec::new(), Vec::new());
            for m in measured.iter().filter(|m| m.label == label) {
                if let Some(z) = r.zones.iter().find(|z| z.core == (m.core.x, m.core.y) && z.name == m.zone) {
                    let d = (z.end - z.start).0.max(1) as f64;
                    lat.push(d);
                    bw.push(m.bytes as f64 / d);
                }
            }
            Row {
                kernel: label.to_string(),
                // The sweep fills in the run number and the table's size and count.
                run_host_id: 0,
                size: 0,
                count: 0,
                latency: median(lat),
                bandwidth: median(bw),
                stalled_per_tile,
                backpressure,
                run_cycles: r.cycles,
                hol_cycles,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_as_numpy() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), 2.5);
    }
}
