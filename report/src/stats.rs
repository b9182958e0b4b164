//! Machine-readable statistics of a run (`--stats FILE.json`), schema version [`STATS_VERSION`]:
//!
//! ```text
//! { "tensim_stats": 1,                 // schema version; always the first key
//!   "command": "run" | "dm-bench" | "replay",
//!   …command fields…,                   // see the tensim README
//!   "runs": [ RUN, … ] }
//! RUN = { "cycles": u64, "clock_mhz": u32, "micros": f64,
//!   "kernels": [ { "kernel": str, "core": [x, y], "noc0": [x, y], "risc": "BRISC"|…,
//!                  "start": u64, "end": u64, "busy": u64, "blocked": u64 } ],
//!   "nocs": [ { "noc": "NOC_0"|"NOC_1", "packets": u64, "flits": u64, "bytes": u64,
//!               "link_util_avg": f64, "link_util_peak": f64 } ],
//!   "links": [ { "noc": str, "from": [x, y], "dir": "NOC_0_EAST"|…, "busy": u64, "bytes": u64,
//!                "util": f64, "hol_cycles": u64, "buffer_flits_avg": f64 } ], // links that carried traffic
//!   "ports": [ { "noc": str, "tile": [x, y], "inject": bool, "busy": u64, "bytes": u64,
//!                "hol_cycles": u64, "buffer_flits_avg": f64 } ],
//!     (hol_cycles: cycles the input buffer at the link's far end, or the port's, picked a VC whose flit
//!      could not move; buffer_flits_avg: flits it held on average over the run; both 0 except with
//!      noc.model=router, and reckoned from heads' waits with noc.model=packets)
//!   "dram": [ { "channel": u32, "sub": u32, "read_bytes": u64, "write_bytes": u64, "busy": u64,
//!               "bytes_per_cycle": f64 } ],
//!   "eth": [ { "channel": u32, "noc0": [x, y], "tx_bytes": u64, "tx_packets": u64, "tx_busy": u64,
//!              "rx_bytes": u64, "tx_util": f64 } ],
//!   "zones": [ { "kernel": str, "core": [x, y], "risc": str, "name": str, "start": u64, "end": u64 } ],
//!     (by end cycle, then core (y, x) and RISC)
//!   "timestamped_data": [ { "kernel": str, "core": [x, y], "risc": str, "name": str, "data": u64,
//!                           "at": u64 } ],          // DeviceTimestampedData / DeviceRecordEvent
//!   "backpressure": { "blocked_packets": u64, "max_excess": u64, "stalled_per_tile": f64 },
//!                                        // head-of-line blocking beyond router buffering (not modelled)
//!   "warnings": [ str ],
//!   "router_check": null | { "cycles": u64, "ratio": f64 } | { "skipped_flit_moves": u64, "limit": u64 }
//!                 | { "error": str } }
//!     (the router-level NoC model's cycles for the same run, made when the run stalled packets beyond
//!      the routers' buffers and checks were on; ratio = its cycles / these)
//! ```
//!
//! Cycles are AICLK cycles; utilisations are fractions of the run (0..=1); coordinates are NoC0 unless
//! named `core` (logical).

use super::{NocReport, RunReport};
use serde_json::{Value, json};
use soc_descriptors::NocId;

/// Flits a buffer held on average over a `cycles`-long run.
fn avg_flits(flit_cycles: u64, cycles: u64) -> f64 {
    flit_cycles as f64 / cycles.max(1) as f64
}

/// The schema version written as `"tensim_stats"`.
pub const STATS_VERSION: u32 = 1;

impl RunReport {
    /// The run's statistics (the `RUN` object of the stats schema).
    pub fn stats(&self) -> Value {
        let kernels: Vec<Value> = self
            .kernels
            .iter()
            .map(|k| {
                json!({
                    "kernel": k.kernel, "core": [k.core.0, k.core.1], "noc0": [k.noc0.0, k.noc0.1],
                    "risc": k.risc.name(), "start": k.start.0, "end": k.end.0, "busy": k.busy.0,
                    "blocked": k.blocked.0,
                })
            })
            .collect();
        let nocs: Vec<Value> = NocId::BOTH
            .iter()
            .map(|&n| {
                let t = self.noc.traffic[n.index()];
                let (avg, peak) = self.noc.link_util(n, self.cycles);
                json!({
                    "noc": n.to_string(), "packets": t.packets, "flits": t.flits, "bytes": t.bytes,
                    "link_util_avg": avg, "link_util_peak": peak,
                })
            })
            .collect();
        let links: Vec<Value> = self
            .noc
            .links
            .iter()
            .filter(|l| l.busy > 0)
            .map(|l| {
                json!({
                    "noc": l.noc.to_string(), "from": [l.from.0, l.from.1], "dir": l.dir.npe_name(),
                    "busy": l.busy, "bytes": l.bytes, "util": NocReport::util(l.busy, self.cycles),
                    "hol_cycles": l.hol_cycles, "buffer_flits_avg": avg_flits(l.buffer_flit_cycles, self.cycles.0),
                })
            })
            .collect();
        let ports: Vec<Value> = self
            .noc
            .ports
            .iter()
            .map(|p| {
                json!({
                    "noc": p.noc.to_string(), "tile": [p.tile.0, p.tile.1], "inject": p.inject, "busy": p.busy,
                    "bytes": p.bytes, "hol_cycles": p.hol_cycles,
                    "buffer_flits_avg": avg_flits(p.buffer_flit_cycles, self.cycles.0),
                })
            })
            .collect();
        let dram: Vec<Value> = self
            .noc
            .dram
            .iter()
            .map(|d| {
                json!({
                    "channel": d.channel, "sub": d.sub, "read_bytes": d.read_bytes, "write_bytes": d.write_bytes,
                    "busy": d.busy,
                    "bytes_per_cycle": (d.read_bytes + d.write_bytes) as f64 / self.cycles.0.max(1) as f64,
                })
            })
            .collect();
        let eth: Vec<Value> = self
            .eth
            .iter()
            .map(|e| {
                json!({
                    "channel": e.channel, "noc0": [e.noc0.0, e.noc0.1], "tx_bytes": e.tx_bytes,
                    "tx_packets": e.tx_packets, "tx_busy": e.tx_busy.0, "rx_bytes": e.rx_bytes,
                    "tx_util": NocReport::util(e.tx_busy.0, self.cycles),
                })
            })
            .collect();
        let zones: Vec<Value> = self
            .zones
            .iter()
            .map(|z| {
                json!({
                    "kernel": z.kernel, "core": [z.core.0, z.core.1], "risc": z.risc.name(), "name": z.name,
                    "start": z.start.0, "end": z.end.0,
                })
            })
            .collect();
        let data: Vec<Value> = self
            .timestamped_data
            .iter()
            .map(|d| {
                json!({
                    "kernel": d.kernel, "core": [d.core.0, d.core.1], "risc": d.risc.name(), "name": d.name,
                    "data": d.data, "at": d.at.0,
                })
            })
            .collect();
        json!({
            "cycles": self.cycles.0, "clock_mhz": self.clock_mhz, "micros": self.micros(), "kernels": kernels,
            "nocs": nocs, "links": links, "ports": ports, "dram": dram, "eth": eth, "zones": zones,
            "timestamped_data": data,
            "backpressure": {
                "blocked_packets": self.noc.backpressure.blocked_packets,
                "max_excess": self.noc.backpressure.max_excess.0,
                "stalled_per_tile": self.noc.backpressure.stalled_per_tile(self.cycles.0, self.noc.worker_tiles),
            },
            "warnings": self.warnings,
            "router_check": self.router_check.as_ref().map(|c| c.stats(self.cycles)),
        })
    }
}

/// A whole stats document: the version key first (so that tensim recognises its own files from their first
/// bytes), then `command`, then `fields` in the order given.
pub fn stats_document(command: &str, fields: Vec<(&str, Value)>) -> String {
    let mut s = format!("{{\"tensim_stats\":{STATS_VERSION},\"command\":{}", Value::from(command));
    for (k, v) in fields {
        s.push(',');
        s.push_str(&Value::from(k).to_string());
        s.push(':');
        s.push_str(&v.to_string());
    }
    s.push_str("}\n");
    s
}
