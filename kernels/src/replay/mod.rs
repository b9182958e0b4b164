//! Replaying NoC traces captured on silicon (tt-metal's device profiler) and tt-npe workloads.
//!
//! - **kernels** mode: every (core, RISC) of the trace becomes a data-movement kernel that issues its
//!   recorded calls in recorded order and honours its barriers; when each call is issued comes from
//!   tensim's model (API costs, command buffers, NoC contention), not from the trace. Only the kernels'
//!   launch times are taken from the trace. Because the traces were captured with NoC-event profiling on,
//!   every recorded event also costs the profiler's recording time (`replay.noc_event_cycles`), and each
//!   kernel runs a prologue before its first call (`replay.kernel_prologue_cycles`).
//! - **timestamps** mode: every transfer is issued at its recorded cycle, as tt-npe does; barriers are
//!   ignored.
//!
//! Predicted runtime: from the earliest kernel start to the latest kernel end (kernels mode) or to the last
//! transfer's completion (timestamps mode). Measured runtime: the trace's span less 20 cycles.

pub mod trace;

pub use trace::{
    NpeWorkload, ReplayInput, TraceEvent, measured_cycles, parse_noc_trace, parse_npe_workload, parse_replay_input,
};

use sim_device::prelude::*;
use sim_device::{Noc0Coord, NocMode, RunReport, TileKind};
use std::collections::BTreeMap;
use std::sync::Arc;

/// How a replay issues transfers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// At their recorded cycles.
    Timestamps,
    /// As kernels issuing their recorded calls in order, timed by tensim.
    Kernels,
}

impl Mode {
    /// Parse `timestamps` or `kernels`.
    pub fn parse(s: &str) -> Result<Mode, String> {
        match s {
            "timestamps" => Ok(Mode::Timestamps),
            "kernels" => Ok(Mode::Kernels),
            other => Err(format!("unknown replay mode `{other}`: use timestamps or kernels")),
        }
    }
}

/// The outcome of one replay.
#[derive(Debug, Clone)]
pub struct ReplayResult {
    /// Predicted runtime, cycles.
    pub predicted: u64,
    /// Measured runtime, cycles (when the input has one).
    pub measured: Option<u64>,
    /// Events or transfers read.
    pub events: usize,
    /// Kernels replayed.
    pub kernels: usize,
    /// Calls skipped because tensim cannot replay them (semaphore waits, fabric), with counts.
    pub skipped: Vec<(String, usize)>,
    /// The run's report (NoC and DRAM statistics).
    pub report: RunReport,
}

impl ReplayResult {
    /// (predicted − measured) / measured.
    pub fn error(&self) -> Option<f64> {
        self.measured.map(|m| (self.predicted as f64 - m as f64) / m.max(1) as f64)
    }
}

/// One replayed call.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Call {
    Read {
        noc: NocId,
        x: u32,
        y: u32,
        base: u64,
        bytes: u32,
    },
    Write {
        noc: NocId,
        x: u32,
        y: u32,
        base: u64,
        bytes: u32,
    },
    Multicast {
        noc: NocId,
        rect: (u32, u32, u32, u32),
        dests: u32,
        bytes: u32,
    },
    Inc {
        noc: NocId,
        x: u32,
        y: u32,
    },
    Inline {
        noc: NocId,
        x: u32,
        y: u32,
    },
    Barrier {
        noc: NocId,
        which: BarrierKind,
    },
    /// A recorded event with no transfer (barrier ends, set-state calls).
    Mark,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BarrierKind {
    Reads,
    Writes,
    Flush,
    Atomics,
    Full,
}

/// A kernel slot of a replay: (logical y, logical x, RISC 0 = BRISC / 1 = NCRISC).
type Slot = (u32, u32, u8);
/// A call with its recorded cycle and its index in the input (to keep the input order on ties).
type TimedCall = (u64, usize, Call);

/// Replay kernel timing knobs (from the device's parameters).
#[derive(Debug, Clone, Copy)]
struct Knobs {
    mode: Mode,
    record: u64,
    prologue: u64,
    cmd: u64,
}

/// Scratch layout: local reads land in [LOCAL, +REGION), remote L1 sources sit in [REMOTE, +REGION).
const REGION: u64 = 256 * 1024;

fn run_kernel(k: &mut Dataflow, calls: &[(u64, Call)], start: u64, local: u64, knobs: Knobs) {
    k.delay(start);
    if knobs.mode == Mode::Kernels {
        k.delay(knobs.prologue);
    }
    let mut offset = 0u64;
    for &(t, call) in calls {
        match knobs.mode {
            Mode::Kernels => k.delay(knobs.record),
            Mode::Timestamps => {
                let now = k.cycle();
                let target = t.saturating_sub(knobs.cmd);
                if target > now {
                    k.delay(target - now);
                }
            }
        }
        let mut slot = |bytes: u32| {
            let span = (bytes as u64).div_ceil(64) * 64;
            if offset + span > REGION {
                offset = 0;
            }
            let o = offset;
            offset += span;
            o
        };
        match call {
            Call::Read { noc, x, y, base, bytes } => {
                let o = slot(bytes);
                let src = k.get_noc_addr(x, y, 0) + base + o;
                k.noc_async_read_on(src, (local + o) as u32, bytes, noc);
            }
            Call::Write { noc, x, y, base, bytes } => {
                let o = slot(bytes);
                let dst = k.get_noc_addr(x, y, 0) + base + o;
                k.noc_async_write_on((local + o) as u32, dst, bytes, noc);
            }
            Call::Multicast { rect, dests, bytes, .. } => {
                let o = slot(bytes);
                let dst = k.get_noc_multicast_addr(rect.0, rect.1, rect.2, rect.3, (local + REGION + o) as u32);
                k.noc_async_write_multicast((local + o) as u32, dst, bytes, dests, false);
            }
            Call::Inc { noc, x, y } => {
                let a = k.get_noc_addr(x, y, (local + 2 * REGION) as u32);
                k.noc_semaphore_inc_on(a, 1, noc);
            }
            Call::Inline { noc: _, x, y } => {
                let a = k.get_noc_addr(x, y, (local + 2 * REGION + 16) as u32);
                k.noc_inline_dw_write(a, 1);
            }
            Call::Barrier { noc, which } => {
                if knobs.mode == Mode::Kernels {
                    match which {
                        BarrierKind::Reads => k.noc_async_read_barrier_on(noc),
                        BarrierKind::Writes => k.noc_async_write_barrier_on(noc),
                        BarrierKind::Flush => k.noc_async_writes_flushed(),
                        BarrierKind::Atomics => k.noc_async_atomic_barrier(),
                        BarrierKind::Full => k.noc_async_full_barrier(),
                    }
                }
            }
            Call::Mark => {}
        }
    }
}

struct Builder<'d> {
    dev: &'d Device,
    skipped: BTreeMap<String, usize>,
}

impl Builder<'_> {
    fn noc(&self, s: Option<&str>, at: usize) -> Result<NocId, String> {
        match s {
            Some("NOC_0") => Ok(NocId::Noc0),
            Some("NOC_1") => Ok(NocId::Noc1),
            other => Err(format!("event {at}: NoC `{}` is not NOC_0 or NOC_1", other.unwrap_or("(none)"))),
        }
    }

    fn tile(&self, x: i64, y: i64, what: &str, at: usize) -> Result<Noc0Coord, String> {
        let soc = self.dev.chip().soc();
        if x < 0 || y < 0 || x as u32 >= soc.grid.x || y as u32 >= soc.grid.y {
            return Err(format!("event {at}: {what} ({x},{y}) is outside the {} NoC grid", soc.grid));
        }
        Ok(Noc0Coord::new(x as u32, y as u32))
    }

    /// Kernel coordinates and the DRAM bank offset (for DRAM endpoints) of a NoC0 tile.
    fn target(&self, noc: NocId, x: i64, y: i64, at: usize) -> Result<(u32, u32, u64), String> {
        let p = self.tile(x, y, "destination", at)?;
        let chip = self.dev.chip();
        let xy = chip.noc0_to_translated(p);
        let soc = chip.soc();
        let base = (0..soc.dram_banks.len())
            .find(|&b| soc.dram_bank_worker_endpoint(b, noc) == p)
            .map(|b| soc.dram_banks[b].address_offset)
            .unwrap_or(0);
        let local = self.dev.params().mem().l1_unreserved_base as u64;
        let base = if matches!(soc.tile(p), TileKind::Dram { .. }) { base + 4096 } else { local + REGION };
        Ok((xy.x, xy.y, base))
    }

    fn call(&mut self, e: &TraceEvent, at: usize) -> Result<Option<Call>, String> {
        let kind = e.kind.as_deref().unwrap_or("");
        let bytes = e.num_bytes.unwrap_or(0) as u32;
        let unicast = |b: &mut Self, read: bool| -> Result<Option<Call>, String> {
            let noc = b.noc(e.noc.as_deref(), at)?;
            let (x, y, base) = b.target(noc, e.dx.unwrap_or(-1), e.dy.unwrap_or(-1), at)?;
            Ok(Some(if read { Call::Read { noc, x, y, base, bytes } } else { Call::Write { noc, x, y, base, bytes } }))
        };
        match kind {
            "READ" | "READ_WITH_STATE" | "READ_DRAM_SHARDED_WITH_STATE" if bytes > 0 => unicast(self, true),
            "WRITE" | "WRITE_WITH_STATE" | "WRITE_WITH_TRID" if bytes > 0 => unicast(self, false),
            "WRITE_MULTICAST" => {
                let noc = self.noc(e.noc.as_deref(), at)?;
                let c = |v: Option<i64>| v.unwrap_or(-1);
                let a = self.tile(c(e.mcast_start_x), c(e.mcast_start_y), "multicast corner", at)?;
                let b = self.tile(c(e.mcast_end_x), c(e.mcast_end_y), "multicast corner", at)?;
                let chip = self.dev.chip();
                let ta = chip.noc0_to_translated(a);
                let tb = chip.noc0_to_translated(b);
                let me = Noc0Coord::new(e.sx as u32, e.sy as u32);
                let dests = (a.x.min(b.x)..=a.x.max(b.x))
                    .flat_map(|x| (a.y.min(b.y)..=a.y.max(b.y)).map(move |y| Noc0Coord::new(x, y)))
                    .filter(|p| *p != me && chip.is_worker(*p))
                    .count() as u32;
                Ok(Some(Call::Multicast { noc, rect: (ta.x, ta.y, tb.x, tb.y), dests, bytes }))
            }
            "SEMAPHORE_INC" => {
                let noc = self.noc(e.noc.as_deref(), at)?;
                let (x, y, _) = self.target(noc, e.dx.unwrap_or(-1), e.dy.unwrap_or(-1), at)?;
                Ok(Some(Call::Inc { noc, x, y }))
            }
            "WRITE_INLINE" => {
                let noc = self.noc(e.noc.as_deref(), at)?;
                let (x, y, _) = self.target(noc, e.dx.unwrap_or(-1), e.dy.unwrap_or(-1), at)?;
                Ok(Some(Call::Inline { noc, x, y }))
            }
            "READ_BARRIER_START" | "READ_BARRIER_WITH_TRID" => {
                Ok(Some(Call::Barrier { noc: self.noc(e.noc.as_deref(), at)?, which: BarrierKind::Reads }))
            }
            "WRITE_BARRIER_START" => {
                Ok(Some(Call::Barrier { noc: self.noc(e.noc.as_deref(), at)?, which: BarrierKind::Writes }))
            }
            "WRITE_FLUSH" => {
                Ok(Some(Call::Barrier { noc: self.noc(e.noc.as_deref(), at)?, which: BarrierKind::Flush }))
            }
            "ATOMIC_BARRIER" => {
                Ok(Some(Call::Barrier { noc: self.noc(e.noc.as_deref(), at)?, which: BarrierKind::Atomics }))
            }
            "FULL_BARRIER" => {
                Ok(Some(Call::Barrier { noc: self.noc(e.noc.as_deref(), at)?, which: BarrierKind::Full }))
            }
            "READ_BARRIER_END"
            | "WRITE_BARRIER_END"
            | "READ_SET_STATE"
            | "WRITE_SET_STATE"
            | "READ_DRAM_SHARDED_SET_STATE"
            | "SEMAPHORE_SET" => Ok(Some(Call::Mark)),
            "READ"
            | "WRITE"
            | "READ_WITH_STATE"
            | "WRITE_WITH_STATE"
            | "WRITE_WITH_TRID"
            | "READ_DRAM_SHARDED_WITH_STATE" => Ok(Some(Call::Mark)),
            other => {
                // Semaphore waits depend on values tensim cannot know; fabric calls leave the chip.
                *self
                    .skipped
                    .entry(if other.is_empty() { "(no type)".into() } else { other.to_string() })
                    .or_default() += 1;
                Ok(Some(Call::Mark))
            }
        }
    }
}

fn knobs(dev: &Device, mode: Mode) -> Knobs {
    let p = dev.params();
    Knobs {
        mode,
        record: p.u64("replay.noc_event_cycles"),
        prologue: p.u64("replay.kernel_prologue_cycles"),
        cmd: p.u64("api.noc_cmd_cycles"),
    }
}

fn kernel_for(calls: Vec<(u64, Call)>, start: u64, local: u64, knobs: Knobs) -> Kernel {
    let calls = Arc::new(calls);
    Kernel::dataflow("replay", move |k: &mut Dataflow| run_kernel(k, &calls, start, local, knobs))
}

fn logical_core(dev: &Device, x: i64, y: i64, at: usize) -> Result<CoreCoord, String> {
    let c = dev
        .chip()
        .noc0_to_logical(Noc0Coord::new(x.max(0) as u32, y.max(0) as u32))
        .filter(|_| x >= 0 && y >= 0)
        .ok_or_else(|| {
        format!("event {at}: core ({x},{y}) is not a usable Tensix worker of this {}", dev.arch())
    })?;
    let cg = dev.chip().compute_grid();
    if !cg.contains(c) {
        return Err(format!("event {at}: core ({x},{y}) is logical ({},{}), outside the compute grid", c.x, c.y));
    }
    Ok(c)
}

/// Replay a tt-metal NoC trace on `dev`.
pub fn replay_trace(dev: &mut Device, events: &[TraceEvent], mode: Mode) -> Result<ReplayResult, String> {
    let t0 = events.iter().map(|e| e.timestamp).min().unwrap_or(0);
    let mut b = Builder { dev, skipped: BTreeMap::new() };
    // (core, RISC) -> (kernel start, calls)
    let mut groups: BTreeMap<Slot, (u64, Vec<TimedCall>)> = BTreeMap::new();
    for (i, e) in events.iter().enumerate() {
        let risc = match e.proc.as_str() {
            "BRISC" => 0u8,
            "NCRISC" => 1u8,
            _ => continue,
        };
        let c = logical_core(b.dev, e.sx, e.sy, i)?;
        let g = groups.entry((c.y, c.x, risc)).or_insert((u64::MAX, Vec::new()));
        let t = e.timestamp - t0;
        if e.zone.is_some() {
            if e.zone_phase.as_deref() == Some("begin") {
                g.0 = g.0.min(t);
            }
            continue;
        }
        if let Some(call) = b.call(e, i)? {
            g.1.push((t, i, call));
        }
    }
    let local = dev.params().mem().l1_unreserved_base as u64;
    let kn = knobs(dev, mode);
    let mut p = Program::new();
    let mut starts = Vec::new();
    for (&(y, x, risc), (start, calls)) in groups.iter_mut() {
        calls.sort_by_key(|(t, i, _)| (*t, *i));
        let start = if *start == u64::MAX { calls.first().map(|c| c.0).unwrap_or(0) } else { *start };
        starts.push(start);
        let list: Vec<(u64, Call)> = calls.iter().map(|(t, _, c)| (*t, *c)).collect();
        let noc = list.iter().find_map(|(_, c)| match c {
            Call::Read { noc, .. }
            | Call::Write { noc, .. }
            | Call::Multicast { noc, .. }
            | Call::Barrier { noc, .. } => Some(*noc),
            _ => None,
        });
        let cfg = DataMovementConfig {
            processor: if risc == 0 { DataMovementProcessor::RISCV_0 } else { DataMovementProcessor::RISCV_1 },
            noc: noc.unwrap_or(if risc == 0 { NocId::Noc0 } else { NocId::Noc1 }),
            noc_mode: NocMode::Dynamic,
            ..Default::default()
        };
        p.create_kernel(kernel_for(list, start, local, kn), CoreCoord::new(x, y), cfg).map_err(|e| e.to_string())?;
    }
    let kernels = groups.len();
    let skipped = b.skipped.into_iter().collect();
    let report = dev.enqueue_program(&p).map_err(|e| e.to_string())?;
    let first = starts.iter().copied().min().unwrap_or(0);
    let predicted = match mode {
        Mode::Kernels => report.kernels.iter().map(|k| k.end.0).max().unwrap_or(0).saturating_sub(first),
        Mode::Timestamps => report.noc.transfers.iter().map(|t| t.done).max().unwrap_or(0).saturating_sub(first),
    };
    Ok(ReplayResult {
        predicted,
        measured: Some(measured_cycles(events)),
        events: events.len(),
        kernels,
        skipped,
        report,
    })
}

/// Replay a tt-npe workload on `dev` (timestamps mode: tt-npe workloads carry no kernels).
pub fn replay_workload(dev: &mut Device, w: &NpeWorkload) -> Result<ReplayResult, String> {
    let mut b = Builder { dev, skipped: BTreeMap::new() };
    // (core, RISC) -> timed calls
    let mut groups: BTreeMap<Slot, Vec<TimedCall>> = BTreeMap::new();
    let mut n = 0usize;
    for ph in &w.phases {
        for t in &ph.transfers {
            let at = n;
            n += 1;
            let noc = b.noc(Some(t.noc_type.as_str()), at)?;
            let src_is_worker = logical_core(b.dev, t.src_x, t.src_y, at).is_ok();
            let bytes = t.packet_size as u32;
            let gap = if t.injection_rate > 0.0 { (t.packet_size as f64 / t.injection_rate).ceil() as u64 } else { 0 };
            let risc = if noc == NocId::Noc0 { 0u8 } else { 1u8 };
            let (core, call) = match (t.dst_x, t.dst_y) {
                (Some(dx), Some(dy)) if src_is_worker => {
                    let (x, y, base) = b.target(noc, dx, dy, at)?;
                    (logical_core(b.dev, t.src_x, t.src_y, at)?, Call::Write { noc, x, y, base, bytes })
                }
                (Some(dx), Some(dy)) => {
                    // Data from a non-worker (DRAM) tile: the destination reads it.
                    let (x, y, base) = b.target(noc, t.src_x, t.src_y, at)?;
                    (logical_core(b.dev, dx, dy, at)?, Call::Read { noc, x, y, base, bytes })
                }
                _ => {
                    let ev = TraceEvent {
                        proc: String::new(),
                        sx: t.src_x,
                        sy: t.src_y,
                        noc: Some(t.noc_type.clone()),
                        dx: None,
                        dy: None,
                        mcast_start_x: t.mcast_start_x,
                        mcast_start_y: t.mcast_start_y,
                        mcast_end_x: t.mcast_end_x,
                        mcast_end_y: t.mcast_end_y,
                        kind: Some("WRITE_MULTICAST".into()),
                        num_bytes: Some(t.packet_size),
                        timestamp: 0,
                        zone: None,
                        zone_phase: None,
                    };
                    let call = b.call(&ev, at)?.expect("multicast call");
                    (logical_core(b.dev, t.src_x, t.src_y, at)?, call)
                }
            };
            let g = groups.entry((core.y, core.x, risc)).or_default();
            for k in 0..t.num_packets {
                g.push((t.phase_cycle_offset + k * gap, at, call));
            }
        }
    }
    let local = dev.params().mem().l1_unreserved_base as u64;
    let kn = knobs(dev, Mode::Timestamps);
    let mut p = Program::new();
    for (&(y, x, risc), calls) in groups.iter_mut() {
        calls.sort_by_key(|(t, i, _)| (*t, *i));
        let list: Vec<(u64, Call)> = calls.iter().map(|(t, _, c)| (*t, *c)).collect();
        let cfg = DataMovementConfig {
            processor: if risc == 0 { DataMovementProcessor::RISCV_0 } else { DataMovementProcessor::RISCV_1 },
            noc: if risc == 0 { NocId::Noc0 } else { NocId::Noc1 },
            noc_mode: NocMode::Dynamic,
            ..Default::default()
        };
        p.create_kernel(kernel_for(list, 0, local, kn), CoreCoord::new(x, y), cfg).map_err(|e| e.to_string())?;
    }
    let kernels = groups.len();
    let report = dev.enqueue_program(&p).map_err(|e| e.to_string())?;
    let predicted = report.noc.transfers.iter().map(|t| t.done).max().unwrap_or(0);
    Ok(ReplayResult {
        predicted,
        measured: w.golden_result.as_ref().map(|g| g.cycles),
        events: n,
        kernels,
        skipped: Vec::new(),
        report,
    })
}

/// Replay either input kind.
pub fn replay(dev: &mut Device, input: &ReplayInput, mode: Mode) -> Result<ReplayResult, String> {
    match input {
        ReplayInput::Trace(ev) => replay_trace(dev, ev, mode),
        ReplayInput::Workload(w) => replay_workload(dev, w),
    }
}
