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

pub mod error;
pub mod parse;

pub use error::{EventProblem, ReplayError};
pub use parse::{
    CallEvent, EventBody, EventType, NpeWorkload, ReplayInput, TraceEvent, measured_cycles, parse_noc_trace,
    parse_npe_workload, parse_replay_input,
};

use sim_device::prelude::*;
use sim_device::{Noc0Coord, NocMode, RunReport, TileKind};
use std::collections::BTreeMap;
use std::str::FromStr;
use std::sync::Arc;

/// How a replay issues transfers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// At their recorded cycles.
    Timestamps,
    /// As kernels issuing their recorded calls in order, timed by tensim.
    Kernels,
}

impl FromStr for Mode {
    type Err = String;
    /// Parse `timestamps` or `kernels`.
    fn from_str(s: &str) -> Result<Mode, String> {
        match s {
            "timestamps" => Ok(Mode::Timestamps),
            "kernels" => Ok(Mode::Kernels),
            other => Err(format!("unknown replay mode `{other}`: use timestamps or kernels")),
        }
    }
}

impl Mode {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Timestamps => "timestamps",
            Mode::Kernels => "kernels",
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
    file: &'d str,
    skipped: BTreeMap<String, usize>,
}

impl Builder<'_> {
    fn err(&self, index: usize, problem: EventProblem) -> ReplayError {
        ReplayError::Event { file: self.file.to_string(), index, problem }
    }

    fn tile(&self, x: i64, y: i64, what: &'static str, at: usize) -> Result<Noc0Coord, ReplayError> {
        let soc = self.dev.chip().soc();
        if x < 0 || y < 0 || x >= soc.grid.x as i64 || y >= soc.grid.y as i64 {
            return Err(self.err(at, EventProblem::OutsideGrid { what, x, y, grid: soc.grid.to_string() }));
        }
        Ok(Noc0Coord::new(x as u32, y as u32))
    }

    /// Kernel coordinates and the DRAM bank offset (for DRAM endpoints) of a NoC0 tile.
    fn target(&self, noc: NocId, x: i64, y: i64, at: usize) -> Result<(u32, u32, u64), ReplayError> {
        let p = self.tile(x, y, "destination", at)?;
        let chip = self.dev.chip();
        let xy = chip.noc0_to_translated(p);
        let soc = chip.soc();
        let base = (0..soc.dram_banks.len())
            .find(|&b| soc.dram_bank_worker_endpoint(b, noc) == p)
            .map(|b| soc.dram_banks[b].address_offset)
            .unwrap_or(0);
        let local = self.dev.mem().l1_unreserved_base as u64;
        let base = if matches!(soc.tile(p), TileKind::Dram { .. }) { base + 4096 } else { local + REGION };
        Ok((xy.x, xy.y, base))
    }

    fn multicast(
        &self,
        noc: NocId,
        me: (i64, i64),
        m: (i64, i64, i64, i64),
        bytes: u32,
        at: usize,
    ) -> Result<Call, ReplayError> {
        let a = self.tile(m.0, m.1, "multicast corner", at)?;
        let b = self.tile(m.2, m.3, "multicast corner", at)?;
        let chip = self.dev.chip();
        let ta = chip.noc0_to_translated(a);
        let tb = chip.noc0_to_translated(b);
        let me = Noc0Coord::new(me.0.max(0) as u32, me.1.max(0) as u32);
        let dests = (a.x.min(b.x)..=a.x.max(b.x))
            .flat_map(|x| (a.y.min(b.y)..=a.y.max(b.y)).map(move |y| Noc0Coord::new(x, y)))
            .filter(|p| *p != me && chip.is_worker(*p))
            .count() as u32;
        Ok(Call::Multicast { noc, rect: (ta.x, ta.y, tb.x, tb.y), dests, bytes })
    }

    fn call(&mut self, me: (i64, i64), c: &CallEvent, at: usize) -> Result<Call, ReplayError> {
        // Checked at parse time: every type that needs a NoC, destination or size has one.
        let noc = c.noc.unwrap_or(NocId::Noc0);
        let bytes = c.bytes as u32;
        let dst = c.dst.unwrap_or((-1, -1));
        let barrier = |which| Call::Barrier { noc, which };
        Ok(match &c.kind {
            EventType::Read | EventType::ReadWithState | EventType::ReadDramShardedWithState if bytes > 0 => {
                let (x, y, base) = self.target(noc, dst.0, dst.1, at)?;
                Call::Read { noc, x, y, base, bytes }
            }
            EventType::Write | EventType::WriteWithState | EventType::WriteWithTrid if bytes > 0 => {
                let (x, y, base) = self.target(noc, dst.0, dst.1, at)?;
                Call::Write { noc, x, y, base, bytes }
            }
            EventType::WriteMulticast => {
                self.multicast(noc, me, c.mcast.expect("checked at parse time"), bytes, at)?
            }
            EventType::SemaphoreInc => {
                let (x, y, _) = self.target(noc, dst.0, dst.1, at)?;
                Call::Inc { noc, x, y }
            }
            EventType::WriteInline => {
                let (x, y, _) = self.target(noc, dst.0, dst.1, at)?;
                Call::Inline { noc, x, y }
            }
            EventType::ReadBarrierStart | EventType::ReadBarrierWithTrid => barrier(BarrierKind::Reads),
            EventType::WriteBarrierStart => barrier(BarrierKind::Writes),
            EventType::WriteFlush => barrier(BarrierKind::Flush),
            EventType::AtomicBarrier => barrier(BarrierKind::Atomics),
            EventType::FullBarrier => barrier(BarrierKind::Full),
            EventType::ReadBarrierEnd
            | EventType::WriteBarrierEnd
            | EventType::ReadSetState
            | EventType::WriteSetState
            | EventType::ReadDramShardedSetState
            | EventType::SemaphoreSet
            // Zero-byte data calls move nothing.
            | EventType::Read
            | EventType::ReadWithState
            | EventType::ReadDramShardedWithState
            | EventType::Write
            | EventType::WriteWithState
            | EventType::WriteWithTrid => Call::Mark,
            EventType::SemaphoreWait | EventType::Fabric(_) => {
                // Semaphore waits depend on values tensim cannot know; fabric calls leave the chip.
                *self.skipped.entry(c.kind.name().to_string()).or_default() += 1;
                Call::Mark
            }
        })
    }

    fn logical_core(&self, x: i64, y: i64, at: usize) -> Result<CoreCoord, ReplayError> {
        let chip = self.dev.chip();
        let c = (x >= 0 && y >= 0)
            .then(|| chip.noc0_to_logical(Noc0Coord::new(x as u32, y as u32)))
            .flatten()
            .ok_or_else(|| self.err(at, EventProblem::NotAWorker { x, y, arch: self.dev.arch().to_string() }))?;
        if !chip.compute_grid().contains(c) {
            return Err(self.err(at, EventProblem::OutsideComputeGrid { x, y, logical: (c.x, c.y) }));
        }
        Ok(c)
    }
}

fn knobs(dev: &Device, mode: Mode) -> Knobs {
    let p = dev.params();
    Knobs { mode, record: p.replay.noc_event.0, prologue: p.replay.kernel_prologue.0, cmd: p.api.noc_cmd.0 }
}

fn kernel_for(calls: Vec<(u64, Call)>, start: u64, local: u64, knobs: Knobs) -> Kernel {
    let calls = Arc::new(calls);
    Kernel::dataflow("replay", move |k: &mut Dataflow| run_kernel(k, &calls, start, local, knobs))
}

fn dm_config(risc: u8, noc: NocId) -> DataMovementConfig {
    DataMovementConfig {
        processor: if risc == 0 { DataMovementProcessor::RISCV_0 } else { DataMovementProcessor::RISCV_1 },
        noc,
        noc_mode: NocMode::Dynamic,
        ..Default::default()
    }
}

fn run_program(dev: &mut Device, p: &Program, file: &str) -> Result<RunReport, ReplayError> {
    // Replayed kernels move scratch data nobody reads: time the traffic without copying payloads.
    dev.set_timing_only(true);
    dev.enqueue_program(p).map_err(|error| ReplayError::Run { file: file.to_string(), error })
}

/// Replay a tt-metal NoC trace on `dev`; `file` names it in errors.
pub fn replay_trace(
    dev: &mut Device,
    events: &[TraceEvent],
    mode: Mode,
    file: &str,
) -> Result<ReplayResult, ReplayError> {
    let t0 = events.iter().map(|e| e.timestamp).min().unwrap_or(0);
    let max_cycles = dev.params().sim.max_cycles;
    let mut b = Builder { dev, file, skipped: BTreeMap::new() };
    // (core, RISC) -> (kernel start, calls)
    let mut groups: BTreeMap<Slot, (u64, Vec<TimedCall>)> = BTreeMap::new();
    for (i, e) in events.iter().enumerate() {
        let Some(risc) = e.risc else { continue };
        let c = b.logical_core(e.sx, e.sy, i)?;
        let g = groups.entry((c.y, c.x, risc)).or_insert((u64::MAX, Vec::new()));
        let t = e.timestamp - t0;
        // In timestamps mode an event is issued at its recorded cycle.
        if mode == Mode::Timestamps && t >= max_cycles {
            return Err(b.err(i, EventProblem::BeyondRun { what: "timestamp", at: Some(t), max_cycles }));
        }
        match &e.body {
            EventBody::Zone { begin: true } => g.0 = g.0.min(t),
            EventBody::Zone { begin: false } => {}
            EventBody::Call(call) => {
                let call = b.call((e.sx, e.sy), call, i)?;
                g.1.push((t, i, call));
            }
        }
    }
    let local = dev.mem().l1_unreserved_base as u64;
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
        let cfg = dm_config(risc, noc.unwrap_or(if risc == 0 { NocId::Noc0 } else { NocId::Noc1 }));
        p.create_kernel(kernel_for(list, start, local, kn), CoreCoord::new(x, y), cfg)
            .map_err(|error| ReplayError::Run { file: file.to_string(), error })?;
    }
    let kernels = groups.len();
    let skipped = b.skipped.into_iter().collect();
    let report = run_program(dev, &p, file)?;
    let first = starts.iter().copied().min().unwrap_or(0);
    let predicted = match mode {
        Mode::Kernels => report.kernels.iter().map(|k| k.end.0).max().unwrap_or(0).saturating_sub(first),
        Mode::Timestamps => report.noc.last_arrival.0.saturating_sub(first),
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
pub fn replay_workload(dev: &mut Device, w: &NpeWorkload, file: &str) -> Result<ReplayResult, ReplayError> {
    let max_cycles = dev.params().sim.max_cycles;
    let b = Builder { dev, file, skipped: BTreeMap::new() };
    // (core, RISC) -> timed calls
    let mut groups: BTreeMap<Slot, Vec<TimedCall>> = BTreeMap::new();
    let mut n = 0usize;
    for ph in &w.phases {
        for t in &ph.transfers {
            let at = n;
            n += 1;
            let noc = parse::parse_noc(&t.noc_type).map_err(|p| b.err(at, p))?;
            let src_is_worker = b.logical_core(t.src_x, t.src_y, at).is_ok();
            let bytes = t.packet_size as u32;
            let gap = if t.injection_rate > 0.0 { (t.packet_size as f64 / t.injection_rate).ceil() } else { 0.0 };
            // The last packet is issued at offset + (packets - 1) x gap: within the run, or an error.
            let last = t.phase_cycle_offset as f64 + t.num_packets.saturating_sub(1) as f64 * gap;
            if last >= max_cycles as f64 {
                let (what, issue) = if t.phase_cycle_offset >= max_cycles {
                    ("phase_cycle_offset", Some(t.phase_cycle_offset))
                } else {
                    // Its packets, packet_size / injection_rate cycles apart, run past the limit.
                    ("injection_rate", (last < u64::MAX as f64).then_some(last as u64))
                };
                return Err(b.err(at, EventProblem::BeyondRun { what, at: issue, max_cycles }));
            }
            let gap = gap as u64;
            let risc = if noc == NocId::Noc0 { 0u8 } else { 1u8 };
            let (core, call) = match (t.dst_x, t.dst_y) {
                (Some(dx), Some(dy)) if src_is_worker => {
                    let (x, y, base) = b.target(noc, dx, dy, at)?;
                    (b.logical_core(t.src_x, t.src_y, at)?, Call::Write { noc, x, y, base, bytes })
                }
                (Some(dx), Some(dy)) => {
                    // Data from a non-worker (DRAM) tile: the destination reads it.
                    let (x, y, base) = b.target(noc, t.src_x, t.src_y, at)?;
                    (b.logical_core(dx, dy, at)?, Call::Read { noc, x, y, base, bytes })
                }
                _ => {
                    let m = (
                        t.mcast_start_x.unwrap_or(-1),
                        t.mcast_start_y.unwrap_or(-1),
                        t.mcast_end_x.unwrap_or(-1),
                        t.mcast_end_y.unwrap_or(-1),
                    );
                    let call = b.multicast(noc, (t.src_x, t.src_y), m, bytes, at)?;
                    (b.logical_core(t.src_x, t.src_y, at)?, call)
                }
            };
            let g = groups.entry((core.y, core.x, risc)).or_default();
            for k in 0..t.num_packets {
                g.push((t.phase_cycle_offset.saturating_add(k.saturating_mul(gap)), at, call));
            }
        }
    }
    let local = dev.mem().l1_unreserved_base as u64;
    let kn = knobs(dev, Mode::Timestamps);
    let mut p = Program::new();
    for (&(y, x, risc), calls) in groups.iter_mut() {
        calls.sort_by_key(|(t, i, _)| (*t, *i));
        let list: Vec<(u64, Call)> = calls.iter().map(|(t, _, c)| (*t, *c)).collect();
        let cfg = dm_config(risc, if risc == 0 { NocId::Noc0 } else { NocId::Noc1 });
        p.create_kernel(kernel_for(list, 0, local, kn), CoreCoord::new(x, y), cfg)
            .map_err(|error| ReplayError::Run { file: file.to_string(), error })?;
    }
    let kernels = groups.len();
    let report = run_program(dev, &p, file)?;
    Ok(ReplayResult {
        predicted: report.noc.last_arrival.0,
        measured: w.golden_result.as_ref().map(|g| g.cycles),
        events: n,
        kernels,
        skipped: Vec::new(),
        report,
    })
}

/// Replay either input kind; `file` names it in errors.
pub fn replay(dev: &mut Device, input: &ReplayInput, mode: Mode, file: &str) -> Result<ReplayResult, ReplayError> {
    match input {
        ReplayInput::Trace(ev) => replay_trace(dev, ev, mode, file),
        ReplayInput::Workload(w) => replay_workload(dev, w, file),
    }
}
