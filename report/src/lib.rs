//! What a run returns besides the data: total cycles, per-kernel busy and blocked cycles, profiler zones,
//! debug prints, warnings, NoC and DRAM use (per link, port and channel, and optionally every transfer), and
//! optionally a Chrome trace. The engine makes a [`RunReport`] from a finished run (sim-device's
//! `engine/outcome.rs`); this crate holds its types and every rendering of it, from the report alone (and the
//! chip it ran on), never through a device: the summary text here, `heatmap` and `npe` an SVG heatmap and a
//! tt-npe timeline of the NoC part, `stats` the machine-readable stats JSON, `multi_chip` merged traces,
//! Ethernet utilisation and the mesh heatmap of several chips' reports.

pub mod heatmap;
pub mod multi_chip;
pub mod npe;
pub mod stats;

use sim_core::{Cycle, Cycles};
use sim_noc::{Dir, NocTraffic};
use sim_tensix::Risc;
use soc_descriptors::NocId;
use std::fmt::Write;

/// What kind of NoC transfer a record is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TransferKind {
    /// Read: data from `src` (the target) to the requester.
    Read,
    /// Unicast write.
    Write,
    /// Multicast write.
    Multicast,
    /// Atomic or inline write.
    Atomic,
}

impl TransferKind {
    /// tt-npe's event type name.
    pub fn npe_name(self) -> &'static str {
        match self {
            TransferKind::Read => "READ",
            TransferKind::Write => "WRITE",
            TransferKind::Multicast => "WRITE_MULTICAST",
            TransferKind::Atomic => "SEMAPHORE_INC",
        }
    }
}

/// One NoC packet: where its data went and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransferRecord {
    /// Kind.
    pub kind: TransferKind,
    /// NoC used.
    pub noc: NocId,
    /// Tile the data leaves (NoC0 x, y).
    pub src: (u32, u32),
    /// Tiles the data reaches.
    pub dst: Vec<(u32, u32)>,
    /// Multicast rectangle (x0, y0, x1, y1) in NoC0 coordinates.
    pub rect: Option<(u32, u32, u32, u32)>,
    /// Payload bytes.
    pub bytes: u32,
    /// When the kernel issued it.
    pub issue: Cycle,
    /// When the first byte reached a destination.
    pub first_byte: Cycle,
    /// When the last destination had all of it.
    pub done: Cycle,
}

/// Use of one router link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkUse {
    /// NoC.
    pub noc: NocId,
    /// Router the link leaves (NoC0 x, y).
    pub from: (u32, u32),
    /// Direction.
    pub dir: Dir,
    /// Cycles it carried flits.
    pub busy: u64,
    /// Payload bytes it carried.
    pub bytes: u64,
    /// The input buffer at its far end (router-level model only, else 0): cycles that input picked a VC
    /// whose flit could not move (head-of-line blocking), and flits held summed over cycles.
    pub hol_cycles: u64,
    /// See [`LinkUse::hol_cycles`].
    pub buffer_flit_cycles: u64,
}

/// Use of one NIU port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PortUse {
    /// NoC.
    pub noc: NocId,
    /// Tile (NoC0 x, y).
    pub tile: (u32, u32),
    /// Injection (true) or ejection port.
    pub inject: bool,
    /// Busy cycles.
    pub busy: u64,
    /// Payload bytes.
    pub bytes: u64,
    /// The port's buffer (router-level model only, else 0): for an injection port the router input it
    /// feeds, for an ejection port the NIU's; see [`LinkUse::hol_cycles`].
    pub hol_cycles: u64,
    /// See [`LinkUse::buffer_flit_cycles`].
    pub buffer_flit_cycles: u64,
}

/// Use of one GDDR channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DramUse {
    /// Descriptor DRAM channel.
    pub channel: u32,
    /// GDDR channel within it.
    pub sub: u32,
    /// Bytes read.
    pub read_bytes: u64,
    /// Bytes written.
    pub write_bytes: u64,
    /// Busy cycles.
    pub busy: u64,
}

/// NoC and DRAM use of a run.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NocReport {
    /// NoC grid (columns, rows).
    pub grid: (u32, u32),
    /// Every link of both NoCs.
    pub links: Vec<LinkUse>,
    /// Every NIU port that was used.
    pub ports: Vec<PortUse>,
    /// Every GDDR channel.
    pub dram: Vec<DramUse>,
    /// Every packet, when records were asked for ([`crate::Device::set_record_transfers`]), up to a bound.
    pub transfers: Vec<TransferRecord>,
    /// Packets past the bound that have no record.
    pub transfers_dropped: u64,
    /// When the last NoC transfer completed at its destination(s).
    pub last_arrival: Cycle,
    /// Traffic per NoC.
    pub traffic: [NocTraffic; 2],
    /// Head-of-line blocking beyond router buffering, which tensim does not model (see
    /// [`sim_noc::backpressure`]).
    pub backpressure: sim_noc::Backpressure,
    /// Worker (Tensix) cores of the chip.
    pub worker_tiles: u32,
}

impl NocReport {
    /// Utilisation of a resource busy for `busy` cycles of a `cycles`-long run (0..=1).
    pub fn util(busy: u64, cycles: Cycles) -> f64 {
        if cycles.0 == 0 { 0.0 } else { (busy as f64 / cycles.0 as f64).min(1.0) }
    }

    /// (average over links that carried traffic, peak) link utilisation of `noc`.
    pub fn link_util(&self, noc: NocId, cycles: Cycles) -> (f64, f64) {
        let used: Vec<f64> =
            self.links.iter().filter(|l| l.noc == noc && l.busy > 0).map(|l| Self::util(l.busy, cycles)).collect();
        if used.is_empty() {
            return (0.0, 0.0);
        }
        (used.iter().sum::<f64>() / used.len() as f64, used.iter().copied().fold(0.0, f64::max))
    }

    /// The `n` busiest links of `noc`.
    pub fn hottest(&self, noc: NocId, n: usize) -> Vec<LinkUse> {
        let mut v: Vec<LinkUse> = self.links.iter().filter(|l| l.noc == noc && l.busy > 0).copied().collect();
        v.sort_by(|a, b| b.busy.cmp(&a.busy).then(a.from.cmp(&b.from)));
        v.truncate(n);
        v
    }
}

/// Cores up to which [`RunReport::summary`] lists every core.
pub const SUMMARY_MAX_CORES: usize = 8;

/// One line a kernel printed (DPRINT, DEVICE_PRINT): a line ends at a newline; text a RISC printed without
/// one waits for its next print, or is flushed as a line at the end of the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DprintLine {
    /// The simulated cycle of the print that completed the line.
    pub at: Cycle,
    /// The core, logical (an Ethernet core is `(0, channel)`).
    pub core: (u32, u32),
    /// The core's NoC coordinates as kernels use them (translated): what tt-metal prints.
    pub noc_xy: (u32, u32),
    /// The RISC that printed it.
    pub risc: Risc,
    /// The line, without its newline.
    pub text: String,
}

/// `(x,y) RISC: text`, the logical core and the RISC's full name (what tests compare).
impl std::fmt::Display for DprintLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({},{}) {}: {}", self.core.0, self.core.1, self.risc, self.text)
    }
}

impl DprintLine {
    /// The line as tt-metal's print server shows it: `<device>:(x=<X>,y=<Y>):<RISC>: <text>`, X/Y the
    /// core's translated coordinates and RISC `BR`, `NC`, `TR0`-`TR2` or `ER0`/`ER1`.
    pub fn prefixed(&self, device: u32) -> String {
        format!("{device}:(x={},y={}):{}: {}", self.noc_xy.0, self.noc_xy.1, self.risc.dprint_name(), self.text)
    }
}

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

/// A value a kernel logged with `DeviceTimestampedData` (or an event id of `DeviceRecordEvent`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataRecord {
    /// Kernel name.
    pub kernel: String,
    /// Logical core.
    pub core: (u32, u32),
    /// RISC.
    pub risc: Risc,
    /// The name it was logged under.
    pub name: String,
    /// The value.
    pub data: u64,
    /// When.
    pub at: Cycle,
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
    /// Timestamped values kernels logged, in simulated-time order of logging.
    pub timestamped_data: Vec<DataRecord>,
    /// Debug-print lines, in simulated-time order of the print that completed each.
    pub dprints: Vec<DprintLine>,
    /// API-use warnings (once per kernel and kind).
    pub warnings: Vec<String>,
    /// NoC and DRAM use.
    pub noc: NocReport,
    /// Hardware events processed.
    pub events: u64,
    /// Kernel thread resumptions.
    pub resumes: u64,
    /// Kernel API calls made.
    pub api_calls: u64,
    /// The Chrome trace, when tracing was on.
    pub trace_json: Option<String>,
    /// Ethernet channels that sent or received, by channel.
    pub eth: Vec<EthLinkUse>,
    /// The router-level NoC model's timing of the same run, when one was asked for and this run's NoC
    /// model saw packets wait beyond the routers' buffers (sim-device's `Device::set_router_check`).
    pub router_check: Option<RouterCheck>,
}

/// What the router-level NoC model (`noc.model = router`, which models the routers' buffers and
/// arbitration) made of a run the calendar model saw stall packets beyond those buffers: the same program
/// from the same memories, timing only compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RouterCheck {
    /// It ran: its cycles.
    Ran {
        /// Cycles on the router-level model.
        cycles: Cycles,
    },
    /// It was not run: the run's NoC traffic (flits moved over links and ports) was above the limit.
    TooLarge {
        /// Flit moves the run made.
        flit_moves: u64,
        /// The limit.
        limit: u64,
    },
    /// It stopped with this error (a deadlock on that model, say).
    Failed(String),
}

impl RouterCheck {
    /// The stats JSON object of the check, beside the run's own `cycles`.
    pub fn stats(&self, cycles: Cycles) -> serde_json::Value {
        match self {
            RouterCheck::Ran { cycles: c } => serde_json::json!({
                "cycles": c.0,
                "ratio": c.0 as f64 / cycles.0.max(1) as f64,
            }),
            RouterCheck::TooLarge { flit_moves, limit } => {
                serde_json::json!({ "skipped_flit_moves": flit_moves, "limit": limit })
            }
            RouterCheck::Failed(e) => serde_json::json!({ "error": e }),
        }
    }
}

/// One Ethernet channel's use during a run (its transmit side, and what it received).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EthLinkUse {
    /// The logical channel.
    pub channel: u32,
    /// NoC0 tile of its Ethernet core.
    pub noc0: (u32, u32),
    /// Payload bytes sent.
    pub tx_bytes: u64,
    /// Send commands.
    pub tx_packets: u64,
    /// Cycles the transmit side was busy (payload and frame overhead at the line rate).
    pub tx_busy: Cycles,
    /// Payload bytes received.
    pub rx_bytes: u64,
}

impl RunReport {
    /// Duration in microseconds at the chip's clock.
    pub fn micros(&self) -> f64 {
        self.cycles.as_micros(self.clock_mhz)
    }

    /// A terminal summary: cycles, time, the busy and blocked cycles of every kernel (per core and RISC on
    /// up to [`SUMMARY_MAX_CORES`] cores, else per kernel and RISC over its cores), NoC and DRAM use.
    /// `grouped_note` ends the header of grouped rows (a front end says how to ask for per-core rows).
    pub fn summary(&self, grouped_note: &str) -> String {
        let cores: std::collections::BTreeSet<(u32, u32)> = self.kernels.iter().map(|k| k.core).collect();
        self.summary_with(cores.len() <= SUMMARY_MAX_CORES, grouped_note)
    }

    /// [`RunReport::summary`] with one row per core and RISC (`per_core`) or one per kernel and RISC.
    pub fn summary_with(&self, per_core: bool, grouped_note: &str) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "cycles: {} ({:.3} us at {} MHz)", self.cycles.0, self.micros(), self.clock_mhz);
        if per_core {
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
        } else {
            // Group by (kernel, RISC) in order of first appearance.
            let mut groups: Vec<(&str, Risc, Vec<&KernelRun>)> = Vec::new();
            for k in &self.kernels {
                match groups.iter_mut().find(|g| g.0 == k.kernel && g.1 == k.risc) {
                    Some(g) => g.2.push(k),
                    None => groups.push((&k.kernel, k.risc, vec![k])),
                }
            }
            let _ = write!(
                s,
                "{:<36} {:<8} {:>6} {:>10} {:>10} {:>10} {:>10}",
                "kernel", "risc", "cores", "end min", "end max", "busy avg", "blocked avg"
            );
            if !grouped_note.is_empty() {
                let _ = write!(s, "   ({grouped_note})");
            }
            s.push('\n');
            for (name, risc, ks) in groups {
                let n = ks.len() as u64;
                let _ = writeln!(
                    s,
                    "{:<36} {:<8} {:>6} {:>10} {:>10} {:>10} {:>10}",
                    truncate(name, 36),
                    risc.name(),
                    n,
                    ks.iter().map(|k| k.end.0).min().unwrap_or(0),
                    ks.iter().map(|k| k.end.0).max().unwrap_or(0),
                    ks.iter().map(|k| k.busy.0).sum::<u64>() / n,
                    ks.iter().map(|k| k.blocked.0).sum::<u64>() / n
                );
            }
        }
        for noc in NocId::BOTH {
            let t = self.noc.traffic[noc.index()];
            let (avg, peak) = self.noc.link_util(noc, self.cycles);
            let _ = writeln!(
                s,
                "{noc}: {} packets, {} flits, {} payload bytes; link utilisation avg {:.1}% (links in use), peak {:.1}%",
                t.packets,
                t.flits,
                t.bytes,
                avg * 100.0,
                peak * 100.0
            );
            let hot = self.noc.hottest(noc, 5);
            if !hot.is_empty() {
                let list: Vec<String> = hot
                    .iter()
                    .map(|l| {
                        format!(
                            "({},{}) {} {:.1}%",
                            l.from.0,
                            l.from.1,
                            l.dir.npe_name(),
                            NocReport::util(l.busy, self.cycles) * 100.0
                        )
                    })
                    .collect();
                let _ = writeln!(s, "  hottest links: {}", list.join(", "));
            }
        }
        for l in &self.eth {
            let _ = writeln!(
                s,
                "Ethernet channel {} [NoC0 ({},{})]: sent {} B in {} sends ({:.2} GB/s, link busy {:.1}%), received {} B",
                l.channel,
                l.noc0.0,
                l.noc0.1,
                l.tx_bytes,
                l.tx_packets,
                l.tx_bytes as f64 * self.clock_mhz as f64 / 1000.0 / self.cycles.0.max(1) as f64,
                NocReport::util(l.tx_busy.0, self.cycles) * 100.0,
                l.rx_bytes
            );
        }
        let used: Vec<&DramUse> = self.noc.dram.iter().filter(|d| d.read_bytes + d.write_bytes > 0).collect();
        if !used.is_empty() {
            let _ = writeln!(s, "DRAM bandwidth per channel (bytes/cycle; GB/s at {} MHz):", self.clock_mhz);
            for d in used {
                let bpc = (d.read_bytes + d.write_bytes) as f64 / self.cycles.0.max(1) as f64;
                let _ = writeln!(
                    s,
                    "  channel {}.{}: {} B read, {} B written, {:.2} B/cycle ({:.1} GB/s), busy {:.1}%",
                    d.channel,
                    d.sub,
                    d.read_bytes,
                    d.write_bytes,
                    bpc,
                    bpc * self.clock_mhz as f64 / 1000.0,
                    NocReport::util(d.busy, self.cycles) * 100.0
                );
            }
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
