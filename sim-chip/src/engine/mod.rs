//! One program run. The [`Engine`] is what kernels reach through [`sim_tensix::KernelHost`], in three
//! parts: [`ChipState`] (cores, DRAM, the NoC model and the packets in flight), [`Scheduler`] (the event
//! queue, the kernel threads' bookkeeping, the run's counters) and [`Recorder`] (what the report and the
//! optional outputs are built from). Plain data sits below this file (`packets.rs`, `eth_links.rs`,
//! `router.rs`, `run_error.rs`, `noc_tokens.rs`); the logic that changes it sits above: `event_loop.rs` drives the run and
//! diagnoses deadlocks, `noc_transactions.rs` moves data as timed NoC events (`atomics.rs` its atomics;
//! `noc_steps.rs` drives a NoC model that times packets as it moves them),
//! `ethernet_cores.rs` and `fabric_routers.rs` the chip's Ethernet side, `kernel_host.rs` implements the
//! kernel host, `outcome.rs` builds the report.

mod atomics;
pub(crate) mod eth_links;
mod ethernet_cores;
pub(crate) mod event_loop;
mod fabric_routers;
mod kernel_host;
mod noc_reads;
mod noc_steps;
pub(crate) mod noc_tokens;
mod noc_transactions;
pub(crate) mod outcome;
mod packets;
pub(crate) mod router;
pub(crate) mod run_error;

use eth_links::{EthPacket, EthPort, EthTiming};
use router::Router;

use packets::{Mem, Xfer};
use report::{DataRecord, TransferRecord, ZoneRecord};
use sim_core::{Agenda, Cycle, Cycles, FiberId, TraceBuilder};
use sim_noc::{Dram, DramTiming, NocAddrMap, NocParams, NocTiming};
use sim_params::MemLayout;
use sim_tensix::{CoreIdx, Risc, TensixCore, Wait};
use soc_descriptors::{Chip, Noc0Coord};
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;
use std::sync::Arc;

/// Called now and then during a long run with the simulated time reached (for a progress display).
pub type Progress = Box<dyn FnMut(sim_core::Cycle) + Send>;

/// An event of the run.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Ev {
    /// A read's data leaves its source (captured now) and travels back.
    ReadRespond(u32),
    /// A read's data has landed in the requester's L1.
    ReadLand(u32),
    /// A write's tail has left the source core (data captured now).
    WriteDepart(u32),
    /// A write has fully arrived at destination `1`.
    WriteLand(u32, u16),
    /// A write's acknowledgement reached the source.
    WriteAck(u32),
    /// An atomic reached its destination word.
    AtomicLand(u32, u16),
    /// An atomic's acknowledgement reached the source.
    AtomicAck(u32),
    /// An Ethernet packet from another chip has landed.
    EthLand(u32),
    /// A fabric router's ERISC takes its next step.
    FabricStep(u32),
    /// A fabric router's deferred atomic increment is due.
    FabricInc(u32),
    /// A stepped NoC model has something to do in the cycle before this one.
    NocWake,
}

/// Static facts about a kernel thread, and its state for diagnostics.
#[derive(Debug, Clone)]
pub(crate) struct FiberMeta {
    pub kernel: Rc<str>,
    pub core: CoreIdx,
    pub risc: Risc,
    /// What it is blocked on, since when.
    pub blocked: Option<(Wait, Cycle)>,
    /// (start, end, blocked) once finished.
    pub run: Option<(Cycle, Cycle, Cycles)>,
}

/// The chip's state during a run.
pub(crate) struct ChipState {
    pub chip: Arc<Chip>,
    pub mem: MemLayout,
    pub noc_params: NocParams,
    pub addr_map: NocAddrMap,
    /// NoC transfers carry their data (else timing only; see [`crate::plan::Recording::timing_only`]).
    pub move_data: bool,
    /// Counts this run among the process's runs while it lives.
    pub _running: crate::runs::Running,
    pub cores: Vec<TensixCore>,
    /// NoC0 tile of each core.
    pub core_tile: Vec<Noc0Coord>,
    /// Core at each NoC0 tile, if it is a usable worker.
    pub tile_core: Vec<Option<CoreIdx>>,
    pub dram: Dram,
    pub dram_timing: Box<dyn DramTiming>,
    pub noc: Box<dyn NocTiming>,
    /// The engine's side of a stepped NoC model (`noc.model=router`).
    pub steps: noc_tokens::NocSteps,
    /// Packets in flight, recycled through `free_xfers`.
    pub xfers: Vec<Xfer>,
    /// Beside each packet: the data it carries (when payloads are moved), and a multicast's destinations
    /// after the first.
    pub xfer_data: Vec<Vec<u8>>,
    pub xfer_more: Vec<Vec<(Mem, Noc0Coord)>>,
    /// Beside each packet: the tag its L1 writes carry when it has more than one destination (0 for one):
    /// a multicast's copies are the same bytes at the same address, which L1 records so that cores can
    /// share what they decode from them (`L1::content_tag`). Tags count from 1 in each run (a launch
    /// clears the L1s' tags).
    pub xfer_tags: Vec<u64>,
    pub next_tag: u64,
    pub free_xfers: Vec<u32>,
    /// Scratch: a destination list to reuse, and the (first byte, landing) times of the packet being issued.
    pub spare_dests: Vec<(Mem, Noc0Coord)>,
    pub lands: Vec<(Cycle, Cycle)>,
    /// The multicast path each (core, RISC, NoC) holds reserved by a linked multicast.
    pub mcast_paths: HashMap<(u32, u8, u8), sim_noc::Rect>,
    /// Worker cores; `cores[num_workers..]` are the Ethernet cores, one per logical channel.
    pub num_workers: u32,
    /// The Ethernet channels.
    pub eth: Vec<EthPort>,
    pub eth_timing: EthTiming,
    /// Packets sent to other chips, not yet collected by the mesh runner.
    pub eth_out: Vec<EthPacket>,
    /// Packets from other chips waiting to land, recycled through `eth_free`.
    pub eth_in: Vec<Option<EthPacket>>,
    pub eth_free: Vec<u32>,
    /// The fabric router of each Ethernet channel, if it runs one.
    pub routers: Vec<Option<Router>>,
    pub fabric_packet_cycles: Cycles,
    /// Atomic increments routers deferred until their writes landed.
    pub fabric_incs: Vec<(u32, sim_tensix::AtomicReq)>,
    /// On a stepped NoC model: the writes fabric routers issued that have not landed, by packet id, with
    /// the router's channel and the write's number there.
    pub fabric_writes: HashMap<u32, (u32, u64)>,
    /// The packet id of the last write issued.
    pub last_write: u32,
    /// On a stepped NoC model: the writes that read a fabric router's receiver slot, by packet id, with the
    /// router's channel and the packet's number there (the slot is freed once they have left L1).
    pub fabric_slot_writes: HashMap<u32, (u32, u32)>,
}

/// The run's ordering of events and kernel resumptions, and its counters.
pub(crate) struct Scheduler {
    /// Hardware events and kernel resumptions (fiber ids are indices of `fibers`).
    pub queue: Agenda<Ev>,
    pub fibers: Vec<FiberMeta>,
    /// Scratch list of woken kernels and the cycles they resume at.
    pub ready: Vec<(FiberId, Cycle)>,
    /// Cycle of the last hardware event.
    pub last_event: Cycle,
    pub events: u64,
    /// Kernel resumptions (counted by the runner, added here when it finishes).
    pub resumes: u64,
    pub api_calls: u64,
}

impl Scheduler {
    /// A hardware event at `at` reads or changes core `c`: check that none of its kernels already ran past
    /// it (the lookahead guard, `sim_core::SyncView::check_ahead`).
    #[inline]
    pub fn touch(&self, c: CoreIdx, at: Cycle) {
        self.queue.view_ref().check_ahead(c.0, at);
    }
}

/// How many per-packet records a run keeps at most when they are asked for.
pub const MAX_TRANSFER_RECORDS: usize = 2_000_000;

/// What the run records for its report and outputs.
pub(crate) struct Recorder {
    pub trace: Option<TraceBuilder>,
    pub dprints: Vec<(Cycle, FiberId, String)>,
    /// Warnings about kernels, with the kernel thread that raised them.
    pub kernel_warnings: Vec<(u32, String)>,
    /// Warnings of the hardware models.
    pub warnings: Vec<String>,
    warned: BTreeSet<(u32, String)>,
    pub zones: Vec<ZoneRecord>,
    /// `DeviceTimestampedData` values.
    pub timestamped_data: Vec<DataRecord>,
    /// Per-packet records, when asked for (bounded by [`MAX_TRANSFER_RECORDS`]).
    pub records: Option<Vec<TransferRecord>>,
    /// Packets whose records were not kept because the bound was reached.
    pub records_dropped: u64,
    /// When the last NoC transfer completed at its destination(s).
    pub last_arrival: Cycle,
}

impl Recorder {
    pub fn new(tracing: bool, records: bool) -> Recorder {
        Recorder {
            trace: tracing.then(TraceBuilder::new),
            dprints: Vec::new(),
            kernel_warnings: Vec::new(),
            warnings: Vec::new(),
            warned: BTreeSet::new(),
            zones: Vec::new(),
            timestamped_data: Vec::new(),
            records: records.then(Vec::new),
            records_dropped: 0,
            last_arrival: Cycle::ZERO,
        }
    }

    /// Keep `r` if records are wanted and the bound allows; returns its index.
    pub fn record(&mut self, r: impl FnOnce() -> TransferRecord) -> Option<u32> {
        let v = self.records.as_mut()?;
        if v.len() >= MAX_TRANSFER_RECORDS {
            self.records_dropped += 1;
            return None;
        }
        v.push(r());
        Some(v.len() as u32 - 1)
    }

    /// Note that record `id` delivered its first byte at `first` and completed at `done`.
    pub fn arrival(&mut self, id: Option<u32>, first: Cycle, done: Cycle) {
        self.last_arrival = self.last_arrival.max(done);
        if let (Some(i), Some(v)) = (id, self.records.as_mut()) {
            let r = &mut v[i as usize];
            r.first_byte = r.first_byte.min(first);
            r.done = r.done.max(done);
        }
    }
}

/// The chip during a run.
pub(crate) struct Engine {
    pub chip: ChipState,
    pub sched: Scheduler,
    pub rec: Recorder,
}

impl Engine {
    /// The engine of a run; kernels of worker cores may run `lookahead` ahead of other cores in calls on
    /// their own core (Ethernet cores' kernels never do: their own calls start the fabric routers).
    pub fn new(chip: ChipState, fibers: Vec<FiberMeta>, rec: Recorder, lookahead: Cycles) -> Engine {
        let group: Vec<u32> = fibers.iter().map(|f| f.core.0).collect();
        let ahead: Vec<Cycles> =
            fibers.iter().map(|f| if chip.is_eth_core(f.core) { Cycles::ZERO } else { lookahead }).collect();
        let sched = Scheduler {
            queue: Agenda::new(&group, chip.cores.len() as u32, &ahead),
            fibers,
            ready: Vec::new(),
            last_event: Cycle::ZERO,
            events: 0,
            resumes: 0,
            api_calls: 0,
        };
        Engine { chip, sched, rec }
    }

    /// Wake every waiter of core `c` whose condition holds after a hardware event at `now` (it comes after
    /// every waiter's check in key order: hardware events never change the counters a kernel may block on
    /// ahead of exact order).
    pub fn notify_core(&mut self, c: CoreIdx, now: Cycle) {
        self.notify_core_by(c, now, sim_tensix::BY_HARDWARE);
    }

    /// Wake every waiter of core `c` whose condition holds after an update at `now` with scheduler key
    /// `by` (`TensixCore::take_ready`).
    pub fn notify_core_by(&mut self, c: CoreIdx, now: Cycle, by: sim_core::OrderKey) {
        self.notify_core_after(c, now, by, sim_tensix::Touched::Anything);
    }

    /// [`Engine::notify_core_by`] after an update that changed only what `touched` names.
    pub fn notify_core_after(&mut self, c: CoreIdx, now: Cycle, by: sim_core::OrderKey, touched: sim_tensix::Touched) {
        let sched = &mut self.sched;
        self.chip.cores[c.0 as usize].take_ready_after(touched, now, by, &mut sched.ready);
        for (f, at) in sched.ready.drain(..) {
            sched.fibers[f.0 as usize].blocked = None;
            sched.queue.push_fiber(at, f.0);
        }
        if self.chip.is_eth_core(c) && !self.chip.routers.is_empty() {
            self.fabric_poke(c.0 - self.chip.num_workers, now);
        }
    }

    /// A warning about a kernel, reported once per kernel and text.
    pub fn warn_once(&mut self, fiber: FiberId, text: String) {
        if self.rec.warned.insert((fiber.0, text.clone())) {
            let m = &self.sched.fibers[fiber.0 as usize];
            let l = self.chip.logical(m.core);
            let w = format!("kernel `{}` on core ({},{}) {}: {text}", m.kernel, l.0, l.1, m.risc);
            self.rec.kernel_warnings.push((fiber.0, w));
        }
    }

    fn handle(&mut self, at: Cycle, ev: Ev) {
        self.sched.events += 1;
        // The packet of the next event is usually far out of cache: start loading it now.
        if let Some(Ev::ReadRespond(x) | Ev::ReadLand(x) | Ev::WriteDepart(x) | Ev::WriteLand(x, _) | Ev::WriteAck(x)) =
            self.sched.queue.peek_event()
            && let Some(slot) = self.chip.xfers.get(*x as usize)
        {
            sim_core::simd::prefetch(slot);
        }
        self.chip.noc.set_now(at);
        if self.chip.steps.on {
            self.noc_catch_up(at);
        }
        match ev {
            Ev::ReadRespond(x) => self.read_respond(x, at),
            Ev::ReadLand(x) => self.read_land(x, at),
            Ev::WriteDepart(x) => self.write_depart(x, at),
            Ev::WriteLand(x, d) => self.write_land(x, d, at),
            Ev::WriteAck(x) => self.write_ack(x, at),
            Ev::AtomicLand(x, d) => self.atomic_land(x, d, at),
            Ev::AtomicAck(x) => self.atomic_ack(x, at),
            Ev::EthLand(x) => self.eth_land(x, at),
            Ev::FabricStep(ch) => self.fabric_step(ch, at),
            Ev::FabricInc(i) => self.fabric_inc(i, at),
            Ev::NocWake => self.noc_woken(at),
        }
    }
}

impl ChipState {
    /// The logical coordinate of core `c` (an Ethernet core is `(0, channel)`, as tt-metal names it).
    pub fn logical(&self, c: CoreIdx) -> (u32, u32) {
        if c.0 >= self.num_workers {
            return (0, c.0 - self.num_workers);
        }
        let g = self.chip.logical_grid();
        (c.0 % g.x, c.0 / g.x)
    }
}
