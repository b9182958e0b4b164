//! One program run: the chip's shared state during the run ([`Engine`], which kernels reach through
//! [`sim_tensix::KernelHost`]), the kernel threads, and the scheduler loop that hands out events and
//! kernel resumptions in `(cycle, tie-break)` order until everything has finished — or reports a deadlock,
//! a failed kernel, or a run past the watchdog.

mod host;
mod noc;

use crate::error::{BlockedKernel, DeviceError};
use crate::params::MemParams;
use crate::report::{KernelRun, NocReport, RunReport, TransferRecord, ZoneRecord};
use noc::Xfer;
use sim_core::{Cycle, Cycles, EventQueue, Fiber, FiberId, Step, Suspend, TraceArg, TraceBuilder, Track};
use sim_noc::{Dram, DramTiming, NocModel};
use sim_tensix::{CoreIdx, Risc, TensixCore, Wait};
use soc_descriptors::{Chip, Noc0Coord};
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

/// An event of the run.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Ev {
    /// Resume a kernel thread.
    Resume(FiberId),
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
    AtomicLand(u32),
    /// An atomic's acknowledgement reached the source.
    AtomicAck(u32),
}

/// Static facts about a kernel thread.
#[derive(Debug, Clone)]
pub(crate) struct FiberMeta {
    pub kernel: Rc<str>,
    pub core: CoreIdx,
    pub risc: Risc,
    pub blocked: Option<(Wait, Cycle)>,
    pub run: Option<(Cycle, Cycle, Cycles)>,
}

/// The chip during a run.
pub(crate) struct Engine {
    pub chip: Rc<Chip>,
    pub mem: MemParams,
    pub queue: EventQueue<Ev>,
    pub cores: Vec<TensixCore>,
    /// NoC0 tile of each core.
    pub core_tile: Vec<Noc0Coord>,
    /// Core at each NoC0 tile, if it is a usable worker.
    pub tile_core: Vec<Option<CoreIdx>>,
    pub dram: Dram,
    pub dram_timing: DramTiming,
    pub noc: NocModel,
    pub fibers: Vec<FiberMeta>,
    pub xfers: Vec<Xfer>,
    pub free_xfers: Vec<u32>,
    pub trace: Option<TraceBuilder>,
    pub dprints: Vec<(Cycle, FiberId, String)>,
    pub warnings: Vec<String>,
    warned: BTreeSet<(u32, String)>,
    pub zones: Vec<ZoneRecord>,
    pub error: Option<DeviceError>,
    pub records: Vec<TransferRecord>,
    pub mcast_paths: std::collections::HashMap<(u32, u8, u8), sim_noc::Rect>,
    pub last_event: Cycle,
    pub events: u64,
    pub api_calls: u64,
    ready: Vec<(FiberId, Cycles)>,
}

/// What the engine is built from; handed back, memories included, when the run ends.
pub(crate) struct EngineParts {
    pub chip: Rc<Chip>,
    pub mem: MemParams,
    pub cores: Vec<TensixCore>,
    pub dram: Dram,
    pub dram_timing: DramTiming,
    pub noc: NocModel,
    pub tracing: bool,
}

impl Engine {
    pub fn new(p: EngineParts, fibers: Vec<FiberMeta>) -> Engine {
        let soc = p.chip.soc();
        let mut tile_core = vec![None; soc.grid.count()];
        let g = p.chip.logical_grid();
        let mut core_tile = Vec::with_capacity(p.cores.len());
        for i in 0..p.cores.len() as u32 {
            let t = p.chip.logical_to_noc0(soc_descriptors::LogicalCoord::new(i % g.x, i / g.x)).expect("core in grid");
            tile_core[(t.y * soc.grid.x + t.x) as usize] = Some(CoreIdx(i));
            core_tile.push(t);
        }
        let trace = p.tracing.then(TraceBuilder::new);
        Engine {
            chip: p.chip,
            mem: p.mem,
            queue: EventQueue::new(),
            cores: p.cores,
            core_tile,
            tile_core,
            dram: p.dram,
            dram_timing: p.dram_timing,
            noc: p.noc,
            fibers,
            xfers: Vec::new(),
            free_xfers: Vec::new(),
            trace,
            dprints: Vec::new(),
            warnings: Vec::new(),
            warned: BTreeSet::new(),
            zones: Vec::new(),
            error: None,
            records: Vec::new(),
            mcast_paths: std::collections::HashMap::new(),
            last_event: Cycle::ZERO,
            events: 0,
            api_calls: 0,
            ready: Vec::new(),
        }
    }

    /// Wake every waiter of core `c` whose condition holds.
    pub fn notify_core(&mut self, c: CoreIdx, now: Cycle) {
        let mut ready = std::mem::take(&mut self.ready);
        self.cores[c.0 as usize].take_ready(&mut ready);
        for (f, lat) in ready.drain(..) {
            self.queue.push_fiber(now + lat, f.0, Ev::Resume(f));
        }
        self.ready = ready;
    }

    pub fn warn_once(&mut self, fiber: FiberId, text: String) {
        if self.warned.insert((fiber.0, text.clone())) {
            let m = &self.fibers[fiber.0 as usize];
            let l = self.logical(m.core);
            self.warnings.push(format!("kernel `{}` on core ({},{}) {}: {text}", m.kernel, l.0, l.1, m.risc));
        }
    }

    pub fn logical(&self, c: CoreIdx) -> (u32, u32) {
        let g = self.chip.logical_grid();
        (c.0 % g.x, c.0 / g.x)
    }

    fn handle(&mut self, at: Cycle, ev: Ev) {
        self.events += 1;
        let r = match ev {
            Ev::Resume(_) => unreachable!("resumptions are handled by the scheduler"),
            Ev::ReadRespond(x) => self.read_respond(x, at),
            Ev::ReadLand(x) => self.read_land(x, at),
            Ev::WriteDepart(x) => self.write_depart(x, at),
            Ev::WriteLand(x, d) => self.write_land(x, d, at),
            Ev::WriteAck(x) => self.write_ack(x, at),
            Ev::AtomicLand(x) => self.atomic_land(x, at),
            Ev::AtomicAck(x) => self.atomic_ack(x, at),
        };
        if let Err(e) = r {
            if self.error.is_none() {
                self.error = Some(e);
            }
        }
    }
}

/// A kernel thread ready to be launched.
pub(crate) struct Launch {
    pub fiber: Fiber,
}

/// Everything a finished run hands back.
pub(crate) struct RunOutcome {
    pub cores: Vec<TensixCore>,
    pub dram: Dram,
    pub result: Result<RunReport, DeviceError>,
}

/// Run every kernel to completion.
pub(crate) fn run(
    engine: Rc<RefCell<Engine>>,
    mut launches: Vec<Launch>,
    max_cycles: u64,
    program_id: u32,
    clock_mhz: u32,
) -> RunOutcome {
    {
        let mut e = engine.borrow_mut();
        for i in 0..launches.len() as u32 {
            e.queue.push_fiber(Cycle::ZERO, i, Ev::Resume(FiberId(i)));
        }
    }
    let mut alive = launches.len();
    let mut resumes = 0u64;
    let result = loop {
        let next = engine.borrow_mut().queue.pop();
        let Some((key, ev)) = next else {
            if alive == 0 {
                break Ok(());
            }
            break Err(deadlock(&engine.borrow()));
        };
        if key.at.0 > max_cycles {
            let e = engine.borrow();
            let running = e
                .fibers
                .iter()
                .filter(|f| f.run.is_none())
                .map(|f| {
                    let l = e.logical(f.core);
                    format!("`{}` on ({},{}) {}", f.kernel, l.0, l.1, f.risc)
                })
                .collect();
            break Err(DeviceError::Livelock { at: max_cycles, running });
        }
        match ev {
            Ev::Resume(f) => {
                resumes += 1;
                engine.borrow_mut().fibers[f.0 as usize].blocked = None;
                match launches[f.0 as usize].fiber.resume(key.at) {
                    Step::Suspended(Suspend::Until(t)) => engine.borrow_mut().queue.push_fiber(t, f.0, Ev::Resume(f)),
                    Step::Suspended(Suspend::Blocked) => {}
                    Step::Finished => alive -= 1,
                    Step::Failed(fail) => {
                        let e = engine.borrow();
                        let m = &e.fibers[f.0 as usize];
                        let msg = match fail.location {
                            Some(loc) if !fail.aborted => format!("{} (at {loc})", fail.message),
                            _ => fail.message,
                        };
                        break Err(DeviceError::Kernel {
                            kernel: m.kernel.to_string(),
                            core: e.logical(m.core),
                            risc: m.risc.name().to_string(),
                            message: msg,
                            panicked: !fail.aborted,
                            at: key.at.0,
                        });
                    }
                }
            }
            ev => {
                let mut e = engine.borrow_mut();
                e.last_event = e.last_event.max(key.at);
                e.handle(key.at, ev);
            }
        }
        if let Some(err) = engine.borrow_mut().error.take() {
            break Err(err);
        }
    };
    // Unwind every thread still suspended before the engine state goes away.
    drop(launches);
    let engine = match Rc::try_unwrap(engine) {
        Ok(cell) => cell.into_inner(),
        Err(_) => panic!("kernel threads still hold the engine after the run"),
    };
    let report = result.map(|()| report(&engine, program_id, clock_mhz, resumes));
    RunOutcome { cores: engine.cores, dram: engine.dram, result: report }
}

fn noc_report(e: &Engine) -> NocReport {
    use crate::report::{DramUse, LinkUse, PortUse};
    let topo = e.noc.topology();
    let g = topo.grid();
    let links = e
        .noc
        .links()
        .map(|(l, c)| {
            let (from, dir) = topo.link_info(l);
            LinkUse { noc: dir.noc(), from: (from.x, from.y), dir, busy: c.busy, bytes: c.bytes }
        })
        .collect();
    let mut ports = Vec::new();
    for y in 0..g.y {
        for x in 0..g.x {
            for noc in soc_descriptors::NocId::BOTH {
                for inject in [true, false] {
                    let c = e.noc.port(Noc0Coord::new(x, y), noc, inject);
                    if c.uses > 0 {
                        ports.push(PortUse { noc, tile: (x, y), inject, busy: c.busy, bytes: c.bytes });
                    }
                }
            }
        }
    }
    let k = e.dram_timing.gddr_per_channel();
    let dram = (0..e.dram_timing.num_gddr())
        .map(|i| DramUse {
            channel: i as u32 / k,
            sub: i as u32 % k,
            read_bytes: e.dram_timing.bytes[i].0,
            write_bytes: e.dram_timing.bytes[i].1,
            busy: e.dram_timing.busy(i),
        })
        .collect();
    NocReport {
        grid: (g.x, g.y),
        links,
        ports,
        dram,
        transfers: e.records.clone(),
        traffic: [e.noc.traffic(soc_descriptors::NocId::Noc0), e.noc.traffic(soc_descriptors::NocId::Noc1)],
    }
}

fn deadlock(e: &Engine) -> DeviceError {
    let mut blocked = Vec::new();
    let mut at = Cycle::ZERO;
    for m in &e.fibers {
        if let Some((w, since)) = m.blocked {
            at = at.max(since);
            let core = &e.cores[m.core.0 as usize];
            let t = e.core_tile[m.core.0 as usize];
            blocked.push(BlockedKernel {
                kernel: m.kernel.to_string(),
                core: e.logical(m.core),
                noc0: (t.x, t.y),
                risc: m.risc.name().to_string(),
                waiting_for: core.describe(&w),
                since: since.0,
            });
        }
    }
    DeviceError::Deadlock { at: at.0, blocked }
}

fn report(e: &Engine, program_id: u32, clock_mhz: u32, resumes: u64) -> RunReport {
    let mut kernels = Vec::new();
    let mut end = e.last_event;
    for m in &e.fibers {
        let (s, t, blocked) = m.run.unwrap_or((Cycle::ZERO, Cycle::ZERO, Cycles::ZERO));
        end = end.max(t);
        let tile = e.core_tile[m.core.0 as usize];
        kernels.push(KernelRun {
            kernel: m.kernel.to_string(),
            core: e.logical(m.core),
            noc0: (tile.x, tile.y),
            risc: m.risc,
            start: s,
            end: t,
            busy: (t - s) - blocked,
            blocked,
        });
    }
    let mut dprints: Vec<(Cycle, FiberId, String)> = e.dprints.clone();
    dprints.sort_by_key(|(t, f, _)| (*t, *f));
    let dprints = dprints
        .into_iter()
        .map(|(_, f, text)| {
            let m = &e.fibers[f.0 as usize];
            let l = e.logical(m.core);
            format!("({},{}) {}: {}", l.0, l.1, m.risc, text)
        })
        .collect();
    let trace_json = e.trace.as_ref().map(|t| {
        let mut t = t.clone();
        t.set_other("clock_mhz", TraceArg::U(clock_mhz as u64));
        t.set_other("program_id", TraceArg::U(program_id as u64));
        t.set_other("cycles", TraceArg::U(end.0));
        for (i, m) in e.fibers.iter().enumerate() {
            let l = e.logical(m.core);
            let tile = e.core_tile[m.core.0 as usize];
            t.name_process(m.core.0 + 1, format!("core ({},{}) [NoC0 ({},{})]", l.0, l.1, tile.x, tile.y));
            t.name_thread(m.core.0 + 1, m.risc.index() as u32, m.risc.name());
            if let Some((s, end, _)) = m.run {
                t.slice(
                    Track { pid: m.core.0 + 1, tid: m.risc.index() as u32 },
                    m.kernel.to_string(),
                    "kernel",
                    s,
                    end,
                    vec![("fiber".into(), TraceArg::U(i as u64))],
                );
            }
        }
        t.to_json()
    });
    RunReport {
        program_id,
        cycles: end - Cycle::ZERO,
        clock_mhz,
        kernels,
        zones: e.zones.clone(),
        dprints,
        warnings: e.warnings.clone(),
        noc: noc_report(e),
        events: e.events,
        resumes,
        api_calls: e.api_calls,
        trace_json,
    }
}
