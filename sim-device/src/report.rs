//! What a run returns besides the data: total cycles, per-kernel busy and blocked cycles, profiler zones,
//! debug prints, warnings, NoC and DRAM traffic, and optionally a Chrome trace.

use sim_core::{Cycle, Cycles};
use sim_noc::NocTraffic;
use sim_tensix::Risc;
use std::fmt::Write;

/// One kernel instance's run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelRun {
    /// Kernel name.
    pub kernel: String,
    /// Logical core.
    pub core: (u32, u32),
    /// NoC0 coordinate of the core.
    pub noc0: (u32, u32),
    /// RISC.
    pub risc: Risc,
    /// First cycle.
    pub start: Cycle,
    /// Cycle its body returned.
    pub end: Cycle,
    /// Cycles not spent blocked.
    pub busy: Cycles,
    /// Cycles spent blocked (CB, semaphore, barrier waits).
    pub blocked: Cycles,
}

/// A profiler zone of a kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZoneRecord {
    /// Kernel name.
    pub kernel: String,
    /// Logical core.
    pub core: (u32, u32),
    /// RISC.
    pub risc: Risc,
    /// Zone name.
    pub name: String,
    /// Start cycle.
    pub start: Cycle,
    /// End cycle.
    pub end: Cycle,
}

/// The result of one program run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunReport {
    /// Launch order of the program on its device (0 first).
    pub program_id: u32,
    /// Cycles from launch until the last kernel and the last NoC transaction finished.
    pub cycles: Cycles,
    /// AICLK, MHz.
    pub clock_mhz: u32,
    /// Every kernel instance, by core then RISC.
    pub kernels: Vec<KernelRun>,
    /// Profiler zones, in the order they closed.
    pub zones: Vec<ZoneRecord>,
    /// Debug prints, in simulated-time order.
    pub dprints: Vec<String>,
    /// API-use warnings (once per kernel and kind).
    pub warnings: Vec<String>,
    /// Traffic per NoC.
    pub noc_traffic: [NocTraffic; 2],
    /// Bytes read and written per DRAM channel.
    pub dram_bytes: Vec<(u64, u64)>,
    /// Hardware events processed.
    pub events: u64,
    /// Kernel thread resumptions.
    pub resumes: u64,
    /// Kernel API calls made.
    pub api_calls: u64,
    /// The Chrome trace, when tracing was on.
    pub trace_json: Option<String>,
}

impl RunReport {
    /// Duration in microseconds at the chip's clock.
    pub fn micros(&self) -> f64 {
        self.cycles.as_micros(self.clock_mhz)
    }

    /// A terminal summary: cycles, time, and per core and RISC the busy and blocked cycles.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "cycles: {} ({:.3} us at {} MHz)", self.cycles.0, self.micros(), self.clock_mhz);
        let _ = writeln!(
            s,
            "{:<10} {:<8} {:<36} {:>10} {:>10} {:>10} {:>10}",
            "core", "risc", "kernel", "start", "end", "busy", "blocked"
        );
        for k in &self.kernels {
            let _ = writeln!(
                s,
                "{:<10} {:<8} {:<36} {:>10} {:>10} {:>10} {:>10}",
                format!("({},{})", k.core.0, k.core.1),
                k.risc.name(),
                truncate(&k.kernel, 36),
                k.start.0,
                k.end.0,
                k.busy.0,
                k.blocked.0
            );
        }
        for (i, t) in self.noc_traffic.iter().enumerate() {
            let _ = writeln!(s, "NOC_{i}: {} packets, {} flits, {} payload bytes", t.packets, t.flits, t.bytes);
        }
        let (r, w): (u64, u64) = self.dram_bytes.iter().fold((0, 0), |(a, b), (r, w)| (a + r, b + w));
        if r + w > 0 {
            let _ = writeln!(s, "DRAM: {r} bytes read, {w} bytes written");
        }
        s
    }
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let t: String = s.chars().rev().take(n - 1).collect::<Vec<_>>().into_iter().rev().collect();
        format!("…{t}")
    }
}
