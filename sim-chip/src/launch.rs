//! From a [`RunPlan`] and the chip's memories to a run: the cores (CBs, semaphores, fresh router words),
//! the chip state with its timing models, the engine and one fiber per kernel instance (three for a compute
//! kernel); [`ChipRun`] then runs it to the end, or in time windows beside other chips, and gives the
//! memories back with the report.

use crate::engine::eth_links::{EthPacket, EthPort, EthTiming};
use crate::engine::event_loop::{Finished, Pause, Runner};
use crate::engine::router::Router;
use crate::engine::run_error::RunError;
use crate::engine::{ChipState, Engine, FiberMeta, Progress, Recorder};
use crate::plan::{ChipMemories, KernelBody, RunPlan};
use crate::runs::Running;
use report::RunReport;
use sim_core::{Cycle, Cycles, Fiber, FiberId};
use sim_params::{PACKET_HEADER_POOL_SLOT_BYTES, RUNTIME_ARG_SLOT_BYTES};
use sim_tensix::hw::compute::offload::Offload;
use sim_tensix::hw::compute::shared::SharedTiles;
use sim_tensix::hw::compute::state::{ComputeState, TilePool};
use sim_tensix::{
    CircularBuffer, Compute, CoreIdx, Dataflow, EthInfo, KernelArgs, KernelHost, KernelInstance, Risc, TensixCore,
};
use soc_descriptors::LogicalCoord;
use std::cell::RefCell;
use std::rc::Rc;

/// A launched run on one chip.
pub struct ChipRun {
    runner: Runner,
    program_id: u32,
    clock_mhz: u32,
}

/// Build the run of `plan` over `mem`. A failure (a kernel thread's stack cannot be had) gives the memories
/// back unchanged.
pub fn launch(plan: RunPlan, mem: ChipMemories) -> Result<ChipRun, (RunError, ChipMemories)> {
    let RunPlan {
        chip,
        params,
        tables,
        eth_tiles,
        kernels,
        instances,
        compute_cores,
        cbs,
        semaphores,
        links,
        recording,
        program_id,
    } = plan;
    let g = chip.logical_grid();
    let num_workers = g.count() as u32;
    let num_cbs = params.mem.num_circular_buffers;
    let ChipMemories { l1, eth_l1, dram } = mem;
    let mut cores: Vec<TensixCore> =
        l1.into_iter().map(|l1| TensixCore::new(l1.untagged(), num_cbs as usize)).collect();
    cores.extend(eth_l1.into_iter().map(|l1| TensixCore::new(l1, 0)));
    // Each run's routers start counting from zero: so do their doorbells and credit words in L1.
    if let Some(l) = links.layout {
        for r in &links.routers {
            let core = &mut cores[(num_workers + r.channel) as usize];
            let words = [0u8; sim_tensix::dataflow::fabric::router_layout::SLOTS as usize];
            core.l1.write(l.base as u64, &words).expect("FabricLayout::new checked the region fits L1");
        }
    }
    for cb in &cbs {
        for c in &cb.cores {
            let core = &mut cores[c.0 as usize];
            for &(i, page, fmt) in &cb.indices {
                core.cbs[i as usize] = Some(CircularBuffer::new(i, cb.addr, cb.total_size, page, fmt));
            }
        }
    }
    for s in &semaphores {
        for c in &s.cores {
            cores[c.0 as usize].l1.write_u32(s.addr as u64, s.initial).expect("semaphores inside L1 (checked at open)");
        }
    }
    let running = Running::enter();
    let offload = if compute_cores.is_empty() || recording.timing_only {
        None
    } else {
        running.math_thread(params.sim.math_thread).then(Offload::start).flatten().map(Rc::new)
    };
    // Decoded tiles of multicast bytes, shared by the cores (8 per core: a matmul block's operands).
    let shared = (!compute_cores.is_empty() && !recording.timing_only)
        .then(|| Rc::new(RefCell::new(SharedTiles::new(8 * compute_cores.len()))));
    // One pool of scratch tiles for the cores (a tile decoded on one core is often released on another).
    let pool = TilePool::default();
    for (core, settings) in &compute_cores {
        let mut state = ComputeState::new(*settings);
        state.set_pool(pool.clone());
        if let Some(o) = &offload {
            state.set_offload(o.clone());
        }
        if let Some(s) = &shared {
            state.set_shared(s.clone());
        }
        cores[core.0 as usize].compute = Some(Box::new(state));
    }

    let names: Vec<Rc<str>> = kernels.iter().map(|k| Rc::from(k.name.as_str())).collect();
    let metas = instances
        .iter()
        .map(|i| FiberMeta { kernel: names[i.kernel].clone(), core: i.core, risc: i.risc, blocked: None, run: None })
        .collect();
    let soc = chip.soc();
    let mut tile_core = vec![None; soc.grid.count()];
    let mut core_tile = Vec::with_capacity(cores.len());
    for i in 0..num_workers {
        let t = chip.logical_to_noc0(LogicalCoord::new(i % g.x, i / g.x)).expect("core in grid");
        tile_core[(t.y * soc.grid.x + t.x) as usize] = Some(CoreIdx(i));
        core_tile.push(t);
    }
    let mut eth = Vec::with_capacity(eth_tiles.len());
    for (ch, &t) in eth_tiles.iter().enumerate() {
        let core = CoreIdx(num_workers + ch as u32);
        tile_core[(t.y * soc.grid.x + t.x) as usize] = Some(core);
        core_tile.push(t);
        eth.push(EthPort {
            core,
            tile: t,
            peer: links.peers.get(ch).copied().flatten(),
            tx_free: Cycle::ZERO,
            tx_busy: Cycles::ZERO,
            tx_bytes: 0,
            tx_packets: 0,
            rx_bytes: 0,
        });
    }
    let state = ChipState {
        chip: chip.clone(),
        mem: params.mem.clone(),
        noc_params: params.noc.clone(),
        addr_map: tables.addr_map,
        move_data: !recording.timing_only,
        _running: running,
        cores,
        core_tile,
        tile_core,
        dram,
        dram_timing: sim_noc::dram_timing(soc.dram_channels.len(), soc.dram_channel_size, params.dram.clone()),
        noc: sim_noc::noc_timing(soc.grid, params.noc.clone()),
        steps: Default::default(),
        xfers: Vec::new(),
        free_xfers: Vec::new(),
        xfer_data: Vec::new(),
        xfer_more: Vec::new(),
        xfer_tags: Vec::new(),
        next_tag: 1,
        spare_dests: Vec::new(),
        lands: Vec::new(),
        mcast_paths: Default::default(),
        num_workers,
        eth,
        eth_timing: EthTiming::new(params.eth.clone(), params.clock_mhz),
        eth_out: Vec::new(),
        eth_in: Vec::new(),
        eth_free: Vec::new(),
        routers: match links.layout {
            Some(l) => {
                let mut v = vec![None; eth_tiles.len()];
                for r in &links.routers {
                    v[r.channel as usize] = Some(Router::new(l, *r, links.ring));
                }
                v
            }
            None => Vec::new(),
        },
        fabric_packet_cycles: params.fabric.router_packet_cycles,
        fabric_incs: Vec::new(),
        fabric_writes: Default::default(),
        fabric_slot_writes: Default::default(),
        last_write: 0,
    };
    let mut state = state;
    state.steps.on = state.noc.stepped().is_some();
    let rec = Recorder::new(recording.trace, recording.transfers);
    // A Chrome trace records kernels' slices in the order they run, which lookahead would change.
    // A stepped NoC model learns when a packet lands only as it gets there, so nothing may run ahead.
    let lookahead = if params.sim.lookahead && !recording.trace && !state.steps.on {
        state.noc.min_remote_latency()
    } else {
        Cycles::ZERO
    };
    let engine = Engine::new(state, metas, rec, lookahead);
    let engine = Rc::new(RefCell::new(engine));
    let sync = engine.borrow().sched.queue.view();
    let host: Rc<RefCell<dyn KernelHost>> = engine.clone();
    let costs = Rc::new(params.api.clone());
    let mut fibers = Vec::with_capacity(instances.len());
    for (fid, i) in instances.iter().enumerate() {
        let k = &kernels[i.kernel];
        let (logical, t, eth) = if i.core.0 >= num_workers {
            let ch = i.core.0 - num_workers;
            let info = EthInfo {
                channel: ch,
                sync_base: params.eth.app_sync_info_base,
                unreserved_base: params.eth.l1_unreserved_base,
            };
            ((0, ch), chip.noc0_to_translated(eth_tiles[ch as usize]), Some(info))
        } else {
            let logical = (i.core.0 % g.x, i.core.0 / g.x);
            let t = chip.worker_core_from_logical_core(LogicalCoord::new(logical.0, logical.1)).expect("core in grid");
            (logical, t, None)
        };
        let inst = Rc::new(KernelInstance {
            name: k.name.clone(),
            fiber: FiberId(fid as u32),
            core: i.core,
            risc: i.risc,
            noc: k.noc,
            logical,
            noc_xy: (t.x, t.y),
            sem_base: params.mem.semaphore_base,
            eth_sem_base: params.eth.semaphore_base,
            args_l1: match i.risc {
                Risc::Brisc => Some(params.mem.runtime_args_base),
                Risc::Ncrisc => Some(params.mem.runtime_args_base + RUNTIME_ARG_SLOT_BYTES),
                Risc::Trisc0 | Risc::Trisc1 | Risc::Trisc2 => {
                    Some(params.mem.runtime_args_base + 2 * RUNTIME_ARG_SLOT_BYTES)
                }
                Risc::Erisc0 | Risc::Erisc1 => None,
            },
            header_pool_l1: match i.risc {
                Risc::Brisc => Some(params.mem.packet_header_pool_base),
                Risc::Ncrisc => Some(params.mem.packet_header_pool_base + PACKET_HEADER_POOL_SLOT_BYTES),
                _ => None,
            },
            args: KernelArgs {
                runtime: k.runtime_args.get(&logical).cloned().unwrap_or_default(),
                common: k.common_args.clone(),
                compile: k.compile.clone(),
                named: k.named.clone(),
                defines: k.defines.clone(),
            },
            tables: tables.clone(),
            costs: costs.clone(),
            max_burst: params.noc.max_burst_bytes,
            num_cbs,
            max_cycles: params.sim.max_cycles,
            max_outstanding: params.noc.max_outstanding,
            compute: k.compute,
            sync: sync.clone(),
            eth,
        });
        let h = host.clone();
        let fiber = match (&k.body, i.role) {
            (KernelBody::Dataflow(f), _) => {
                let f = f.clone();
                Fiber::new(params.sim.stack_bytes, move |y, t0| {
                    let mut d = Dataflow::new(h, y, inst, t0);
                    f(&mut d);
                    d.finish();
                })
            }
            (KernelBody::Compute(f), Some(role)) => {
                let f = f.clone();
                Fiber::new(params.sim.stack_bytes, move |y, t0| {
                    let mut c = Compute::new(h, y, inst, role, t0);
                    f(&mut c);
                    c.finish();
                })
            }
            (KernelBody::Compute(_), None) => unreachable!("compute kernels always have a role"),
        };
        match fiber {
            Ok(f) => fibers.push(f),
            Err(err) => {
                // Give the memories back before reporting.
                drop(fibers);
                drop(host);
                let e = match Rc::try_unwrap(engine) {
                    Ok(cell) => cell.into_inner(),
                    Err(_) => unreachable!("no kernel thread ran"),
                };
                return Err((RunError::Setup(err), memories(e)));
            }
        }
    }
    drop(host);
    let starts: Vec<Cycle> = instances.iter().map(|i| i.start).collect();
    let max_cycles = Cycle(params.sim.max_cycles);
    Ok(ChipRun { runner: Runner::new(engine, fibers, &starts, max_cycles), program_id, clock_mhz: params.clock_mhz })
}

/// The memories of a finished (or never started) engine.
fn memories(e: Engine) -> ChipMemories {
    let mut cores = e.chip.cores;
    let eth = cores.split_off(e.chip.num_workers as usize);
    ChipMemories {
        l1: cores.into_iter().map(TensixCore::into_l1).collect(),
        eth_l1: eth.into_iter().map(TensixCore::into_l1).collect(),
        dram: e.chip.dram,
    }
}

impl ChipRun {
    /// Run to the end (or the watchdog), calling `progress` now and then; the report (when the run
    /// succeeded) and the memories.
    pub fn run_to_end(self, progress: Option<&mut Progress>) -> (Result<RunReport, RunError>, ChipMemories) {
        let (program_id, clock_mhz) = (self.program_id, self.clock_mhz);
        let mut r = self.runner;
        let result = match r.run_until(None, progress) {
            Ok(Pause::Done) => Ok(()),
            Ok(_) => Err(r.deadlock()),
            Err(e) => Err(e),
        };
        complete(r.finish(result), program_id, clock_mhz)
    }

    /// Run until `limit` (`None`: until nothing is left to do).
    pub fn run_until(&mut self, limit: Option<Cycle>) -> Result<Pause, RunError> {
        self.runner.run_until(limit, None)
    }

    /// Hand the chip a packet from another chip.
    pub fn deliver(&mut self, p: EthPacket) {
        self.runner.engine().borrow_mut().deliver(p);
    }

    /// The packets sent to other chips since the last call.
    pub fn take_outbox(&mut self) -> Vec<EthPacket> {
        self.runner.engine().borrow_mut().take_outbox()
    }

    /// When the chip next has something to do.
    pub fn next_at(&self) -> Option<Cycle> {
        self.runner.next_at()
    }

    /// Per linked channel, the receiving chip and the earliest landing of a later send (no earlier than
    /// `from`).
    pub fn link_horizons(&self, from: Cycle) -> Vec<(u32, Cycle)> {
        self.runner.engine().borrow().link_horizons(from)
    }

    /// The deadlock the chip is in (every kernel blocked, nothing in flight).
    pub fn deadlock(&self) -> RunError {
        self.runner.deadlock()
    }

    /// End a windowed run with `result`: the report (when it succeeded) and the memories.
    pub fn finish(self, result: Result<(), RunError>) -> (Result<RunReport, RunError>, ChipMemories) {
        let (program_id, clock_mhz) = (self.program_id, self.clock_mhz);
        complete(self.runner.finish(result), program_id, clock_mhz)
    }

    /// The program's number on its device.
    pub fn program_id(&self) -> u32 {
        self.program_id
    }
}

/// The report of a finished run (when it succeeded) and its memories.
fn complete(finished: Finished, program_id: u32, clock_mhz: u32) -> (Result<RunReport, RunError>, ChipMemories) {
    let Finished { engine, result } = finished;
    let result = result.map(|()| crate::engine::outcome::report(&engine, program_id, clock_mhz));
    (result, memories(engine))
}
