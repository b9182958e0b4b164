//! From a [`Program`] to a run: [`Launch::build`] checks the program against the device (cores inside the
//! compute grid, runtime-arg limits, CB indices), places its circular buffers in the allocator's CB region,
//! orders the kernel instances by (core, RISC) — the scheduler's fixed tie-break — and builds the cores,
//! the engine and one fiber per instance (three for a compute kernel). Nothing of the device changes until
//! every check has passed. [`Launch::run`] then runs the engine and hands the memories back.

use crate::core_ranges::CoreRangeSet;
use crate::device::{Device, DispatchMode};
use crate::engine::{ChipState, Engine, EthPort, EthTiming, FiberMeta, Finished, Recorder, Router, Runner, run};
use crate::error::DeviceError;
use crate::fabric_config::{FabricLayout, RouterSpec};
use crate::program::{EthernetConfig, KernelBody, KernelConfig, Program, check_arg_count};
use crate::report::RunReport;
use crate::runs::Running;
use allocator::report::ProgramL1Usage;
use sim_core::{Cycle, Cycles, Fiber, FiberId};
use sim_params::{PACKET_HEADER_POOL_SLOT_BYTES, RUNTIME_ARG_SLOT_BYTES, SEMAPHORE_BYTES};
use sim_tensix::compute::offload::Offload;
use sim_tensix::compute::shared::SharedTiles;
use sim_tensix::compute::state::ComputeState;
use sim_tensix::{
    CircularBuffer, Compute, ComputeRole, CoreIdx, Dataflow, EthInfo, KernelArgs, KernelHost, KernelInstance, Risc,
    TensixCore,
};
use soc_descriptors::{LogicalCoord, NocId};
use std::cell::RefCell;
use std::rc::Rc;

/// A chip's Ethernet links and fabric routers in a mesh run.
#[derive(Debug, Clone, Default)]
pub(crate) struct Links {
    /// The other end of each Ethernet channel, `(device slot in the run, channel)`, when it is a chip of
    /// the run.
    pub peers: Vec<Option<(u32, u32)>>,
    /// Fabric routers.
    pub routers: Vec<RouterSpec>,
    /// Their layout, when the fabric is on.
    pub layout: Option<FabricLayout>,
    /// The fabric is a ring.
    pub ring: bool,
}

/// One kernel on one core and RISC.
struct Instance {
    core: CoreIdx,
    risc: Risc,
    kernel: usize,
    role: Option<ComputeRole>,
}

/// A checked, placed program ready to run on the device it was built for.
pub(crate) struct Launch {
    engine: Rc<RefCell<Engine>>,
    fibers: Vec<Fiber>,
    /// When each fiber starts (its core's launch).
    starts: Vec<Cycle>,
    program_id: u32,
    cb_top: u64,
}

fn check_cores(dev: &Device, cores: &CoreRangeSet, what: &str) -> Result<(), DeviceError> {
    let cg = dev.chip.compute_grid();
    for c in cores.iter() {
        if !cg.contains(c) {
            let s = cg.size();
            return Err(DeviceError::api(format!(
                "{what}: core ({},{}) is outside the {}x{} compute grid of this device",
                c.x, c.y, s.x, s.y
            )));
        }
    }
    Ok(())
}

/// An Ethernet kernel: on logical Ethernet cores `(0, channel)` of existing channels, on an ERISC the
/// chip has, within the runtime-arg limits.
fn check_eth_kernel(dev: &Device, k: &crate::program::KernelDef, e: &EthernetConfig) -> Result<(), DeviceError> {
    let n = dev.num_eth_channels();
    for c in k.cores.iter() {
        if c.x != 0 || c.y >= n {
            return Err(DeviceError::api(format!(
                "kernel `{}`: Ethernet core ({},{}) does not exist: Ethernet cores are (0, channel) with channel 0..{n} on this chip",
                k.name, c.x, c.y
            )));
        }
        let unique = k.runtime_args.get(&(c.x, c.y)).map(|v| v.len()).unwrap_or(0);
        check_arg_count(&k.name, c, unique, k.common_args.len())?;
    }
    if e.risc() == Risc::Erisc1 && dev.arch() != soc_descriptors::Arch::Blackhole {
        return Err(DeviceError::api(format!(
            "kernel `{}`: {} Ethernet cores have one ERISC; use DataMovementProcessor::RISCV_0 (RISCV_1 is Blackhole's second ERISC)",
            k.name,
            dev.arch()
        )));
    }
    Ok(())
}

/// Check every kernel, semaphore and CB; place the CBs. Returns (CB addresses, top of the CB region).
fn check_and_place(dev: &Device, p: &Program) -> Result<(Vec<u32>, u64), DeviceError> {
    let g = dev.chip.logical_grid();
    let num_cbs = dev.params.mem.num_circular_buffers;
    for k in &p.kernels {
        if let KernelConfig::Ethernet(e) = &k.config {
            check_eth_kernel(dev, k, e)?;
            continue;
        }
        check_cores(dev, &k.cores, &format!("kernel `{}`", k.name))?;
        for c in k.cores.iter() {
            let unique = k.runtime_args.get(&(c.x, c.y)).map(|v| v.len()).unwrap_or(0);
            check_arg_count(&k.name, c, unique, k.common_args.len())?;
        }
    }
    for s in &p.semaphores {
        check_cores(dev, &s.cores, "CreateSemaphore")?;
    }
    let m = &dev.params.mem;
    let cb_align = m.dram_alignment.max(m.dram_read_alignment).max(m.l1_alignment) as u64;
    let mut region = dev.allocator.cb_region(cb_align);
    let mut addrs = Vec::with_capacity(p.cbs.len());
    for cb in &p.cbs {
        check_cores(dev, &cb.cores, "CreateCircularBuffer")?;
        if let Some((i, _)) = cb.config.formats.iter().find(|(i, _)| *i >= num_cbs) {
            return Err(DeviceError::api(format!(
                "CreateCircularBuffer: CB index {i} is out of range: {} has {num_cbs} CBs per core (0..{})",
                dev.arch(),
                num_cbs - 1
            )));
        }
        if let Some(b) = &cb.config.globally_allocated {
            addrs.push(check_global_cb(dev, cb, b)?);
            continue;
        }
        let cores: Vec<u32> = cb.cores.iter().map(|c| c.y * g.x + c.x).collect();
        let addr = region.place(&cores, cb.config.total_size as u64).map_err(|e| {
            let idx: Vec<String> = cb.config.formats.iter().map(|(i, _)| format!("c_{i}")).collect();
            let l1_top = dev.l1_size_per_core();
            // With no L1 buffer below the top, the CB simply runs past the end of L1.
            let against = if e.limit >= l1_top {
                format!("runs past the end of L1 at {l1_top:#x}; shrink the CBs")
            } else {
                format!("overlaps the L1 buffers at [{:#x}, {l1_top:#x}); shrink the CBs or the L1 buffers", e.limit)
            };
            DeviceError::api(format!(
                "L1 overflow on core ({},{}): circular buffer {} at [{:#x}, {:#x}) ({} bytes) {against}",
                e.core % g.x,
                e.core / g.x,
                idx.join("/"),
                e.addr,
                e.end,
                cb.config.total_size,
            ))
        })?;
        addrs.push(addr as u32);
    }
    Ok((addrs, region.top()))
}

/// A CB on an L1 buffer: the buffer must be live and in L1, hold a region on every core of the CB (its shard
/// cores, or every L1 bank for an interleaved buffer), and be at least as large there as the CB.
fn check_global_cb(dev: &Device, cb: &crate::program::CbDef, b: &crate::buffer::Buffer) -> Result<u32, DeviceError> {
    let idx: Vec<String> = cb.config.formats.iter().map(|(i, _)| format!("c_{i}")).collect();
    let what = format!("circular buffer {} on buffer {:#x}", idx.join("/"), b.address());
    dev.check_live(b, &format!("CreateCircularBuffer ({what})"))?;
    if b.is_dram() {
        return Err(DeviceError::api(format!(
            "CreateCircularBuffer: {what}: set_globally_allocated_address needs an L1 buffer, not a DRAM one"
        )));
    }
    if let Some(s) = b.sharding()
        && let Some(c) = cb.cores.iter().find(|c| !s.cores.contains(c))
    {
        return Err(DeviceError::api(format!(
            "CreateCircularBuffer: {what}: core ({},{}) holds no shard of the buffer (its shards are on {} cores starting at ({},{}))",
            c.x,
            c.y,
            s.cores.len(),
            s.cores[0].x,
            s.cores[0].y
        )));
    }
    let room = b.aligned_size_per_bank();
    if cb.config.total_size as u64 > room {
        return Err(DeviceError::api(format!(
            "CreateCircularBuffer: {what}: the CB's {} bytes exceed the buffer's {room} bytes per core",
            cb.config.total_size
        )));
    }
    Ok(b.address())
}

impl Device {
    /// Check `p` as a launch would — its cores, CB indices and whether its CBs fit every core's L1 beside
    /// the L1 buffers allocated so far — without running it: a program can be checked before the host data
    /// it needs is made.
    pub fn check_program(&self, p: &Program) -> Result<(), DeviceError> {
        check_and_place(self, p).map(|_| ())
    }

    /// `EnqueueProgram(cq, program, blocking)`: run the program to completion. The program is checked and
    /// placed first (`Launch::build`); a rejected program leaves the device as it was.
    pub fn enqueue_program(&mut self, p: &Program) -> Result<RunReport, DeviceError> {
        Launch::build(self, p)?.run(self)
    }
}

impl Launch {
    /// Check and place `p` on `dev` and build its engine and kernel threads.
    pub(crate) fn build(dev: &mut Device, p: &Program) -> Result<Launch, DeviceError> {
        Launch::build_linked(dev, p, &Links::default())
    }

    /// [`Launch::build`] for a chip of a mesh run, with its Ethernet links and fabric routers.
    pub(crate) fn build_linked(dev: &mut Device, p: &Program, links: &Links) -> Result<Launch, DeviceError> {
        let peers = &links.peers;
        for k in p.kernels.iter().filter(|k| k.config.is_ethernet()) {
            if let Some(c) = k.cores.iter().find(|c| links.routers.iter().any(|r| r.channel == c.y)) {
                return Err(DeviceError::api(format!(
                    "kernel `{}`: Ethernet core (0,{}) runs a fabric router; with the fabric enabled, put Ethernet kernels on channels the fabric does not use",
                    k.name, c.y
                )));
            }
        }
        let (cb_addr, cb_top) = check_and_place(dev, p)?;
        let g = dev.chip.logical_grid();
        let num_workers = g.count() as u32;
        let params = &dev.params;
        let num_cbs = params.mem.num_circular_buffers;

        // Kernel instances, ordered by (core, RISC): the fixed tie-break among kernels.
        let mut insts = Vec::new();
        let mut compute_cores = Vec::new();
        for (ki, k) in p.kernels.iter().enumerate() {
            for c in k.cores.iter() {
                let core = CoreIdx(c.y * g.x + c.x);
                match &k.config {
                    KernelConfig::DataMovement(d) => {
                        insts.push(Instance { core, risc: d.processor.risc(), kernel: ki, role: None })
                    }
                    KernelConfig::Ethernet(e) => insts.push(Instance {
                        core: CoreIdx(num_workers + c.y),
                        risc: e.risc(),
                        kernel: ki,
                        role: None,
                    }),
                    KernelConfig::Compute(cc) => {
                        compute_cores.push((core, cc.settings()));
                        for (risc, role) in [
                            (Risc::Trisc0, ComputeRole::Unpack),
                            (Risc::Trisc1, ComputeRole::Math),
                            (Risc::Trisc2, ComputeRole::Pack),
                        ] {
                            insts.push(Instance { core, risc, kernel: ki, role: Some(role) });
                        }
                    }
                }
            }
        }
        insts.sort_by_key(|i| (i.core, i.risc));
        // Launch: every core at once (fast dispatch) or one core after another in row-major logical
        // order (slow dispatch). Instances are sorted by core, which is row-major.
        let mut starts = Vec::with_capacity(insts.len());
        let mut rank = 0u64;
        for (n, i) in insts.iter().enumerate() {
            if n > 0 && insts[n - 1].core != i.core {
                rank += 1;
            }
            starts.push(match dev.dispatch {
                DispatchMode::Fast => Cycle::ZERO,
                DispatchMode::Slow => Cycle(rank * params.dispatch.slow_core_interval.0),
            });
        }

        // From here on the device's memories move into the run; every check has passed.
        let mut cores: Vec<TensixCore> = std::mem::take(&mut dev.l1)
            .into_iter()
            .map(|l1| TensixCore::new(l1.untagged(), num_cbs as usize))
            .collect();
        cores.extend(std::mem::take(&mut dev.eth_l1).into_iter().map(|l1| TensixCore::new(l1, 0)));
        // Each run's routers start counting from zero: so do their doorbells and credit words in L1.
        if let Some(l) = links.layout {
            for r in &links.routers {
                let core = &mut cores[(num_workers + r.channel) as usize];
                let words = [0u8; sim_tensix::dataflow::fabric::router_layout::SLOTS as usize];
                core.l1.write(l.base as u64, &words).expect("FabricLayout::new checked the region fits L1");
            }
        }
        for (cb, &addr) in p.cbs.iter().zip(&cb_addr) {
            for c in cb.cores.iter() {
                let core = &mut cores[(c.y * g.x + c.x) as usize];
                for (i, fmt) in &cb.config.formats {
                    let page = cb.config.page_size(*i).expect("validated at creation");
                    core.cbs[*i as usize] = Some(CircularBuffer::new(*i as u8, addr, cb.config.total_size, page, *fmt));
                }
            }
        }
        for s in &p.semaphores {
            for c in s.cores.iter() {
                let core = &mut cores[(c.y * g.x + c.x) as usize];
                let addr = params.mem.semaphore_base + s.id * SEMAPHORE_BYTES;
                core.l1.write_u32(addr as u64, s.initial).expect("semaphores inside L1 (checked at open)");
            }
        }
        let running = Running::enter();
        let offload = if compute_cores.is_empty() || dev.recording.timing_only {
            None
        } else {
            running.math_thread(params.sim.math_thread).then(Offload::start).flatten().map(Rc::new)
        };
        // Decoded tiles of multicast bytes, shared by the cores (8 per core: a matmul block's operands).
        let shared = (!compute_cores.is_empty() && !dev.recording.timing_only)
            .then(|| Rc::new(RefCell::new(SharedTiles::new(8 * compute_cores.len()))));
        for (core, settings) in compute_cores {
            let mut state = ComputeState::new(settings);
            if let Some(o) = &offload {
                state.set_offload(o.clone());
            }
            if let Some(s) = &shared {
                state.set_shared(s.clone());
            }
            cores[core.0 as usize].compute = Some(Box::new(state));
        }

        let names: Vec<Rc<str>> = p.kernels.iter().map(|k| Rc::from(k.name.as_str())).collect();
        let metas = insts
            .iter()
            .map(|i| FiberMeta {
                kernel: names[i.kernel].clone(),
                core: i.core,
                risc: i.risc,
                blocked: None,
                run: None,
            })
            .collect();
        let chip = dev.chip.clone();
        let soc = chip.soc();
        let mut tile_core = vec![None; soc.grid.count()];
        let mut core_tile = Vec::with_capacity(cores.len());
        for i in 0..num_workers {
            let t = chip.logical_to_noc0(LogicalCoord::new(i % g.x, i / g.x)).expect("core in grid");
            tile_core[(t.y * soc.grid.x + t.x) as usize] = Some(CoreIdx(i));
            core_tile.push(t);
        }
        let mut eth = Vec::with_capacity(dev.eth_tiles.len());
        for (ch, &t) in dev.eth_tiles.iter().enumerate() {
            let core = CoreIdx(num_workers + ch as u32);
            tile_core[(t.y * soc.grid.x + t.x) as usize] = Some(core);
            core_tile.push(t);
            eth.push(EthPort {
                core,
                tile: t,
                peer: peers.get(ch).copied().flatten(),
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
            addr_map: dev.tables.addr_map,
            move_data: !dev.recording.timing_only,
            _running: running,
            cores,
            core_tile,
            tile_core,
            dram: std::mem::take(&mut dev.dram),
            dram_timing: sim_noc::dram_timing(soc.dram_channels.len(), soc.dram_channel_size, params.dram.clone()),
            noc: sim_noc::noc_timing(soc.grid, params.noc.clone()),
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
                    let mut v = vec![None; dev.eth_tiles.len()];
                    for r in &links.routers {
                        v[r.channel as usize] = Some(Router::new(l, *r, links.ring));
                    }
                    v
                }
                None => Vec::new(),
            },
            fabric_packet_cycles: params.fabric.router_packet_cycles,
            fabric_incs: Vec::new(),
        };
        let rec = Recorder::new(dev.recording.trace, dev.recording.transfers);
        // A Chrome trace records kernels' slices in the order they run, which lookahead would change.
        let lookahead =
            if params.sim.lookahead && !dev.recording.trace { state.noc.min_remote_latency() } else { Cycles::ZERO };
        let engine = Rc::new(RefCell::new(Engine::new(state, metas, rec, lookahead)));
        let sync = engine.borrow().sched.queue.view();
        let host: Rc<RefCell<dyn KernelHost>> = engine.clone();
        let costs = Rc::new(params.api.clone());
        let mut fibers = Vec::with_capacity(insts.len());
        for (fid, i) in insts.iter().enumerate() {
            let k = &p.kernels[i.kernel];
            let (logical, t, eth) = if i.core.0 >= num_workers {
                let ch = i.core.0 - num_workers;
                let info = EthInfo {
                    channel: ch,
                    sync_base: params.eth.app_sync_info_base,
                    unreserved_base: params.eth.l1_unreserved_base,
                };
                ((0, ch), chip.noc0_to_translated(dev.eth_tiles[ch as usize]), Some(info))
            } else {
                let logical = (i.core.0 % g.x, i.core.0 / g.x);
                let t =
                    chip.worker_core_from_logical_core(LogicalCoord::new(logical.0, logical.1)).expect("core in grid");
                (logical, t, None)
            };
            let (noc, compile, named, defines, compute) = match &k.config {
                KernelConfig::Ethernet(e) => {
                    (e.noc, e.compile_args.clone(), e.named_compile_args.clone(), e.defines.clone(), None)
                }
                KernelConfig::DataMovement(d) => {
                    (d.noc, d.compile_args.clone(), d.named_compile_args.clone(), d.defines.clone(), None)
                }
                KernelConfig::Compute(c) => (
                    NocId::Noc0,
                    c.compile_args.clone(),
                    c.named_compile_args.clone(),
                    c.defines.clone(),
                    Some(c.settings()),
                ),
            };
            let inst = Rc::new(KernelInstance {
                name: k.name.clone(),
                fiber: FiberId(fid as u32),
                core: i.core,
                risc: i.risc,
                noc,
                logical,
                noc_xy: (t.x, t.y),
                sem_base: params.mem.semaphore_base,
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
                    compile,
                    named,
                    defines,
                },
                tables: dev.tables.clone(),
                costs: costs.clone(),
                max_burst: params.noc.max_burst_bytes,
                num_cbs,
                max_cycles: params.sim.max_cycles,
                max_outstanding: params.noc.max_outstanding,
                compute,
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
                Err(e) => {
                    // Give the memories back before reporting.
                    drop(fibers);
                    drop(host);
                    Launch { engine, fibers: Vec::new(), starts, program_id: dev.programs_run, cb_top }.restore(dev);
                    return Err(DeviceError::Config(e));
                }
            }
        }
        drop(host);
        Ok(Launch { engine, fibers, starts, program_id: dev.programs_run, cb_top })
    }

    fn restore(self, dev: &mut Device) {
        drop(self.fibers);
        let e = match Rc::try_unwrap(self.engine) {
            Ok(cell) => cell.into_inner(),
            Err(_) => unreachable!("no kernel thread ran"),
        };
        let mut cores = e.chip.cores;
        let eth = cores.split_off(e.chip.num_workers as usize);
        dev.l1 = cores.into_iter().map(TensixCore::into_l1).collect();
        dev.eth_l1 = eth.into_iter().map(TensixCore::into_l1).collect();
        dev.dram = e.chip.dram;
    }

    /// Run the program to completion on `dev` (the device it was built for) and give its memories back.
    pub(crate) fn run(self, dev: &mut Device) -> Result<RunReport, DeviceError> {
        let max = Cycle(dev.params.sim.max_cycles);
        let finished = run(self.engine, self.fibers, &self.starts, max, dev.progress.as_mut());
        LaunchTail { program_id: self.program_id, cb_top: self.cb_top }.complete(dev, finished)
    }

    /// The run as a [`Runner`] to drive in time windows, and what completing it needs.
    pub(crate) fn into_runner(self, dev: &Device) -> (Runner, LaunchTail) {
        let max = Cycle(dev.params.sim.max_cycles);
        (
            Runner::new(self.engine, self.fibers, &self.starts, max),
            LaunchTail { program_id: self.program_id, cb_top: self.cb_top },
        )
    }
}

/// What a launch needs to hand a finished run's memories back to its device.
pub(crate) struct LaunchTail {
    pub program_id: u32,
    cb_top: u64,
}

impl LaunchTail {
    /// Build the finished run's report (when it succeeded), give the memories back to `dev` (whatever
    /// happened) and count the program.
    pub(crate) fn complete(self, dev: &mut Device, finished: Finished) -> Result<RunReport, DeviceError> {
        let Finished { engine, result } = finished;
        let result = result.map(|()| crate::engine::outcome::report(&engine, self.program_id, dev.params.clock_mhz));
        let mut cores = engine.chip.cores;
        let eth = cores.split_off(engine.chip.num_workers as usize);
        dev.l1 = cores.into_iter().map(TensixCore::into_l1).collect();
        dev.eth_l1 = eth.into_iter().map(TensixCore::into_l1).collect();
        dev.dram = engine.chip.dram;
        dev.programs_run += 1;
        dev.l1_usage.push(ProgramL1Usage::measure(self.program_id, self.cb_top, &dev.allocator));
        if let Ok(r) = &result {
            dev.total_cycles += r.cycles;
        }
        result.map_err(DeviceError::Run)
    }
}
