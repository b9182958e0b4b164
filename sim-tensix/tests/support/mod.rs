//! A fake kernel host: one Tensix core, its kernel threads, and a NoC that delivers every transfer inside
//! that core's own L1 after a fixed latency. Enough to test the kernel APIs (their semantics, errors and
//! per-call costs) inside sim-tensix, without the chip model of sim-device.

#![allow(dead_code)]

use sim_core::{Agenda, Cycle, Cycles, Fiber, FiberId, Next, Step, Suspend, TraceArg};
use sim_noc::NocAddrMap;
use sim_tensix::hw::compute::state::{ComputeSettings, ComputeState};
use sim_tensix::{
    ApiCosts, AtomicOp, AtomicReq, BY_HARDWARE, BankTables, CircularBuffer, Compute, ComputeRole, CoreIdx, DataFormat,
    Dataflow, KernelArgs, KernelHost, KernelInstance, L1, NocError, ReadReq, Risc, TensixCore, Waiter, WriteReq,
};
use soc_descriptors::{Arch, NocId};
use std::cell::RefCell;
use std::rc::Rc;

/// The fake core's NoC coordinates.
pub const XY: (u32, u32) = (18, 18);
/// Cycles every transfer takes to land.
pub const NOC_LATENCY: Cycles = Cycles(100);

enum Ev {
    Land { addr: u64, data: Vec<u8>, risc: Risc, noc: NocId, read: bool },
    Atomic { addr: u64, op: AtomicOp, risc: Risc, noc: NocId },
}

/// The host: one core, an event queue, what kernels reported.
pub struct FakeHost {
    pub core: TensixCore,
    queue: Agenda<Ev>,
    pub blocked: Vec<Option<Waiter>>,
    pub finished: Vec<Option<(Cycle, Cycle, Cycles, u64)>>,
    pub warnings: Vec<String>,
    pub dprints: Vec<String>,
    pub zones: Vec<(String, Cycle, Cycle)>,
}

impl FakeHost {
    fn map(&self) -> NocAddrMap {
        NocAddrMap::of(Arch::WormholeB0)
    }

    fn local(&self, a: u64) -> Result<u64, NocError> {
        let (x, y, local) = self.map().decode(a);
        if (x, y) != XY {
            return Err(NocError::NotATile { x, y, arch: "fake chip" });
        }
        Ok(local)
    }
}

impl KernelHost for FakeHost {
    fn core(&self, _: CoreIdx) -> &TensixCore {
        &self.core
    }
    fn core_mut(&mut self, _: CoreIdx) -> &mut TensixCore {
        &mut self.core
    }
    fn notify(&mut self, _: CoreIdx, now: Cycle, by: sim_core::OrderKey) {
        let mut ready = Vec::new();
        self.core.take_ready(now, by, &mut ready);
        for (f, at) in ready {
            self.blocked[f.0 as usize] = None;
            self.queue.push_fiber(at, f.0);
        }
    }
    fn block(&mut self, _: CoreIdx, w: Waiter, _now: Cycle) {
        self.blocked[w.fiber.0 as usize] = Some(w);
        self.core.add_waiter(w);
    }
    fn noc_read(&mut self, r: ReadReq, now: Cycle) -> Result<Cycle, NocError> {
        let src = self.local(r.src)?;
        let data =
            self.core.l1.read(src, r.size as u64).map_err(|err| NocError::Local { side: "source", err })?.to_vec();
        self.core.counters(r.risc, r.noc).reads_issued += 1;
        self.queue
            .push(now + NOC_LATENCY, Ev::Land { addr: r.dst_l1 as u64, data, risc: r.risc, noc: r.noc, read: true });
        Ok(now)
    }
    fn noc_write(&mut self, w: WriteReq, now: Cycle) -> Result<Cycle, NocError> {
        let dst = self.local(w.dst)?;
        let data = self
            .core
            .l1
            .read(w.src_l1 as u64, w.size as u64)
            .map_err(|err| NocError::Local { side: "source", err })?
            .to_vec();
        let c = self.core.counters(w.risc, w.noc);
        c.nonposted_issued += 1;
        c.nonposted_departed += 1;
        c.nonposted_acks_expected += 1;
        self.queue.push(now + NOC_LATENCY, Ev::Land { addr: dst, data, risc: w.risc, noc: w.noc, read: false });
        Ok(now)
    }
    fn noc_atomic(&mut self, a: AtomicReq, now: Cycle) -> Result<Cycle, NocError> {
        let addr = self.local(a.dst)?;
        self.core.counters(a.risc, a.noc).atomics_issued += 1;
        self.queue.push(now + NOC_LATENCY, Ev::Atomic { addr, op: a.op, risc: a.risc, noc: a.noc });
        Ok(now)
    }
    fn tracing(&self) -> bool {
        false
    }
    fn trace_slice(&mut self, _: FiberId, _: &str, _: &'static str, _: Cycle, _: Cycle, _: Vec<(String, TraceArg)>) {}
    fn trace_instant(&mut self, _: FiberId, _: &str, _: &'static str, _: Cycle, _: Vec<(String, TraceArg)>) {}
    fn dprint(&mut self, _: FiberId, _: Cycle, text: String) {
        self.dprints.push(text);
    }
    fn finished(&mut self, fiber: FiberId, start: Cycle, end: Cycle, blocked: Cycles, api_calls: u64) {
        self.finished[fiber.0 as usize] = Some((start, end, blocked, api_calls));
    }
    fn warn(&mut self, _: FiberId, text: String) {
        if !self.warnings.contains(&text) {
            self.warnings.push(text);
        }
    }
    fn zone(&mut self, _: FiberId, name: &str, start: Cycle, end: Cycle) {
        self.zones.push((name.to_string(), start, end));
    }
    fn timestamped_data(&mut self, _: FiberId, name: &str, data: u64, at: Cycle) {
        self.zones.push((format!("{name}={data}"), at, at));
    }
}

/// A kernel body for [`run`].
pub enum Body {
    /// On BRISC (RISCV_0) or NCRISC (RISCV_1).
    Dataflow(Risc, Box<dyn Fn(&mut Dataflow)>),
    /// On the three TRISCs.
    Compute(ComputeSettings, Box<dyn Fn(&mut Compute)>),
}

/// What a run gave back.
pub struct Outcome {
    pub host: FakeHost,
    /// Per fiber: (start, end, blocked, API calls).
    pub runs: Vec<(Cycle, Cycle, Cycles, u64)>,
    pub end: Cycle,
}

/// Run `bodies` on one core with CBs `(index, base, size, page, format)`, runtime args and costs; returns
/// the outcome or the first kernel failure (or a deadlock message).
pub fn run(
    cbs: &[(u8, u32, u32, u32, DataFormat)],
    args: &[u32],
    costs: ApiCosts,
    bodies: Vec<Body>,
) -> Result<Outcome, String> {
    run_prepared(|_| {}, cbs, args, costs, bodies)
}

/// [`run`] with `prepare` applied to the core (its compute state made) before any kernel starts.
pub fn run_prepared(
    prepare: impl FnOnce(&mut TensixCore),
    cbs: &[(u8, u32, u32, u32, DataFormat)],
    args: &[u32],
    costs: ApiCosts,
    bodies: Vec<Body>,
) -> Result<Outcome, String> {
    let mut core = TensixCore::new(L1::new(1 << 20), 32);
    for &(i, base, size, page, fmt) in cbs {
        core.cbs[i as usize] = Some(CircularBuffer::new(i, base, size, page, fmt));
    }
    let map = NocAddrMap::of(Arch::WormholeB0);
    let tables = std::sync::Arc::new(BankTables {
        dram_xy: [vec![], vec![]],
        dram_offset: vec![],
        l1_xy: [vec![XY], vec![XY]],
        l1_offset: vec![0],
        dram_alignment: 32,
        l1_alignment: 16,
        addr_map: map,
    });
    let costs = Rc::new(costs);
    // Fibers in (RISC) order, three per compute kernel.
    let mut plan: Vec<(Risc, Option<ComputeRole>, usize)> = Vec::new();
    for (i, b) in bodies.iter().enumerate() {
        match b {
            Body::Dataflow(r, _) => plan.push((*r, None, i)),
            Body::Compute(s, _) => {
                core.compute = Some(Box::new(ComputeState::new(*s)));
                plan.push((Risc::Trisc0, Some(ComputeRole::Unpack), i));
                plan.push((Risc::Trisc1, Some(ComputeRole::Math), i));
                plan.push((Risc::Trisc2, Some(ComputeRole::Pack), i));
            }
        }
    }
    prepare(&mut core);
    plan.sort_by_key(|p| p.0);
    let n = plan.len();
    let host = Rc::new(RefCell::new(FakeHost {
        core,
        // One core: every kernel is another's sibling, so lookahead could never apply.
        queue: Agenda::new(&vec![0; n], 1, &vec![Cycles::ZERO; n]),
        blocked: vec![None; n],
        finished: vec![None; n],
        warnings: Vec::new(),
        dprints: Vec::new(),
        zones: Vec::new(),
    }));
    let bodies: Vec<Rc<Body>> = bodies.into_iter().map(Rc::new).collect();
    let mut fibers = Vec::new();
    let sync = host.borrow().queue.view();
    for (fid, &(risc, role, bi)) in plan.iter().enumerate() {
        let inst = Rc::new(KernelInstance {
            name: format!("k{bi}"),
            fiber: FiberId(fid as u32),
            core: CoreIdx(0),
            risc,
            noc: if risc == Risc::Ncrisc { NocId::Noc1 } else { NocId::Noc0 },
            logical: (0, 0),
            noc_xy: XY,
            sem_base: 0x1000,
            eth_sem_base: 0x1200,
            args_l1: Some(0x2000),
            header_pool_l1: Some(0x3000),
            args: KernelArgs { runtime: args.to_vec(), ..Default::default() },
            tables: tables.clone(),
            costs: costs.clone(),
            max_burst: 8192,
            num_cbs: 32,
            max_outstanding: 255,
            compute: match &*bodies[bi] {
                Body::Compute(s, _) => Some(*s),
                Body::Dataflow(..) => None,
            },
            max_cycles: 1 << 40,
            sync: sync.clone(),
            eth: None,
        });
        let h: Rc<RefCell<dyn KernelHost>> = host.clone();
        let body = bodies[bi].clone();
        let fiber = Fiber::new(256 * 1024, move |y, t0| match (&*body, role) {
            (Body::Dataflow(_, f), _) => {
                let mut d = Dataflow::new(h, y, inst, t0);
                f(&mut d);
                d.finish();
            }
            (Body::Compute(_, f), Some(role)) => {
                let mut c = Compute::new(h, y, inst, role, t0);
                f(&mut c);
                c.finish();
            }
            (Body::Compute(..), None) => unreachable!(),
        })?;
        fibers.push(fiber);
        host.borrow_mut().queue.push_fiber(Cycle::ZERO, fid as u32);
    }
    let mut alive = n;
    let mut end = Cycle::ZERO;
    loop {
        let next = host.borrow_mut().queue.pop();
        let Some((key, ev)) = next else { break };
        end = end.max(key.at);
        match ev {
            Next::Resume(f) => match fibers[f.0 as usize].resume(key.at) {
                Step::Suspended(Suspend::Until(t)) => host.borrow_mut().queue.push_fiber(t, f.0),
                Step::Suspended(Suspend::Blocked) => {}
                Step::Finished => alive -= 1,
                Step::Failed(f) => return Err(f.message),
            },
            Next::Event(Ev::Land { addr, data, risc, noc, read }) => {
                let mut h = host.borrow_mut();
                h.core.l1.write(addr, &data).map_err(|e| e.to_string())?;
                let c = h.core.counters(risc, noc);
                if read {
                    c.reads_done += 1;
                } else {
                    c.nonposted_acked += 1;
                }
                h.notify(CoreIdx(0), key.at, BY_HARDWARE);
            }
            Next::Event(Ev::Atomic { addr, op, risc, noc }) => {
                let mut h = host.borrow_mut();
                let old = h.core.l1.read_u32(addr).map_err(|e| e.to_string())?;
                let new = op.apply(old);
                h.core.l1.write_u32(addr, new).map_err(|e| e.to_string())?;
                h.core.counters(risc, noc).atomics_acked += 1;
                h.notify(CoreIdx(0), key.at, BY_HARDWARE);
            }
        }
    }
    if alive > 0 {
        let h = host.borrow();
        let waits: Vec<String> = h.blocked.iter().flatten().map(|w| h.core.describe(&w.wait)).collect();
        return Err(format!("deadlock: {}", waits.join("; ")));
    }
    drop(fibers);
    let host = Rc::try_unwrap(host).ok().expect("fibers dropped").into_inner();
    let runs = host.finished.iter().map(|r| r.expect("every fiber finished")).collect();
    Ok(Outcome { host, runs, end })
}

/// API costs of 1 cycle each (compute engines: 1-cycle base costs, wide datapaths), so that counts of
/// calls show up as cycles.
pub fn unit_costs() -> ApiCosts {
    let one = Cycles(1);
    let mut c = ApiCosts {
        arg_read: one,
        cb_poll: one,
        cb_update: one,
        local_lookup: one,
        addr_gen: one,
        noc_cmd: one,
        noc_read_cmd: one,
        barrier_poll: one,
        l1_load: one,
        l1_store: one,
        cb_wake: one,
        l1_wake: one,
        barrier_wake: one,
        kernel_start: Cycles::ZERO,
        zone: one,
        ..ApiCosts::default()
    };
    c.compute.unpack_bytes_per_cycle = 1 << 20;
    c.compute.unpack_ab_bytes_per_cycle = 1 << 20;
    c.compute.pack_bytes_per_cycle = 1 << 20;
    c
}
