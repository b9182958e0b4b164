//! From a [`Program`] to a run: [`Launch::build`] checks the program against the device (cores inside the
//! compute grid, runtime-arg limits, CB indices), places its circular buffers in the allocator's CB region
//! and orders the kernel instances by (core, RISC) — the scheduler's fixed tie-break — into a
//! [`RunPlan`], without changing the device. [`Launch::run`] hands the plan and the device's memories to
//! the chip (`sim_chip::launch`) and takes the memories back with the report, whatever happened.

use crate::device::{Device, DispatchMode};
use crate::error::DeviceError;
use crate::program::{EthernetConfig, KernelConfig, Program, check_arg_count};
use allocator::report::ProgramL1Usage;
use layout::core_ranges::CoreRangeSet;
use report::RunReport;
pub(crate) use sim_chip::Links;
use sim_chip::{ChipMemories, ChipRun, PlannedCb, PlannedInstance, PlannedKernel, PlannedSemaphore, RunError, RunPlan};
use sim_core::Cycle;
use sim_params::SEMAPHORE_BYTES;
use sim_tensix::{ComputeRole, CoreIdx, Risc};
use soc_descriptors::NocId;

/// A checked, placed program ready to run on the device it was built for.
pub(crate) struct Launch {
    plan: RunPlan,
    cb_top: u64,
    /// Whether the run counts on its device (a what-if run does not; see [`Launch::what_if`]).
    counted: bool,
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
        if s.on_eth {
            let n = dev.num_eth_channels();
            if let Some(c) = s.cores.iter().find(|c| c.x != 0 || c.y >= n) {
                return Err(DeviceError::api(format!(
                    "CreateSemaphore(CoreType::ETH): Ethernet core ({},{}) does not exist: Ethernet cores are (0, channel) with channel 0..{n} on this chip",
                    c.x, c.y
                )));
            }
        } else {
            check_cores(dev, &s.cores, "CreateSemaphore")?;
        }
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
        let launch = Launch::build(self, p)?;
        let snapshot = self.router_check_snapshot();
        let mut report = launch.run(self)?;
        if let Some(s) = snapshot {
            self.check_on_routers(p, &Links::default(), s, &mut report);
        }
        Ok(report)
    }
}

impl Device {
    /// Take back the memories a run had.
    fn put_memories(&mut self, mem: ChipMemories) {
        let ChipMemories { l1, eth_l1, dram } = mem;
        (self.l1, self.eth_l1, self.dram) = (l1, eth_l1, dram);
    }
}

impl Launch {
    /// Check and place `p` on `dev` and plan its run.
    pub(crate) fn build(dev: &Device, p: &Program) -> Result<Launch, DeviceError> {
        Launch::build_linked(dev, p, &Links::default())
    }

    /// [`Launch::build`] for a chip of a mesh run, with its Ethernet links and fabric routers.
    pub(crate) fn build_linked(dev: &Device, p: &Program, links: &Links) -> Result<Launch, DeviceError> {
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

        // Kernel instances, ordered by (core, RISC): the fixed tie-break among kernels.
        let mut instances = Vec::new();
        let mut compute_cores = Vec::new();
        let mut kernels = Vec::with_capacity(p.kernels.len());
        for (ki, k) in p.kernels.iter().enumerate() {
            let at = |core: CoreIdx, risc: Risc, role: Option<ComputeRole>| PlannedInstance {
                core,
                risc,
                kernel: ki,
                role,
                start: Cycle::ZERO,
            };
            for c in k.cores.iter() {
                let core = CoreIdx(c.y * g.x + c.x);
                match &k.config {
                    KernelConfig::DataMovement(d) => instances.push(at(core, d.processor.risc(), None)),
                    KernelConfig::Ethernet(e) => instances.push(at(CoreIdx(num_workers + c.y), e.risc(), None)),
                    KernelConfig::Compute(cc) => {
                        compute_cores.push((core, cc.settings()));
                        for (risc, role) in [
                            (Risc::Trisc0, ComputeRole::Unpack),
                            (Risc::Trisc1, ComputeRole::Math),
                            (Risc::Trisc2, ComputeRole::Pack),
                        ] {
                            instances.push(at(core, risc, Some(role)));
                        }
                    }
                }
            }
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
            kernels.push(PlannedKernel {
                name: k.name.clone(),
                body: k.body.clone(),
                noc,
                compile,
                named,
                defines,
                compute,
                runtime_args: k.runtime_args.clone(),
                common_args: k.common_args.clone(),
            });
        }
        instances.sort_by_key(|i| (i.core, i.risc));
        // Launch: every core at once (fast dispatch) or one core after another in row-major logical
        // order (slow dispatch). Instances are sorted by core, which is row-major.
        let mut rank = 0u64;
        for n in 0..instances.len() {
            if n > 0 && instances[n - 1].core != instances[n].core {
                rank += 1;
            }
            instances[n].start = match dev.dispatch {
                DispatchMode::Fast => Cycle::ZERO,
                DispatchMode::Slow => Cycle(rank * params.dispatch.slow_core_interval.0),
            };
        }
        let logical = |c: layout::core_ranges::CoreCoord| CoreIdx(c.y * g.x + c.x);
        let cbs = p
            .cbs
            .iter()
            .zip(&cb_addr)
            .map(|(cb, &addr)| PlannedCb {
                cores: cb.cores.iter().map(logical).collect(),
                addr,
                total_size: cb.config.total_size,
                indices: cb
                    .config
                    .formats
                    .iter()
                    .map(|(i, fmt)| (*i as u8, cb.config.page_size(*i).expect("validated at creation"), *fmt))
                    .collect(),
            })
            .collect();
        let semaphores = p
            .semaphores
            .iter()
            .map(|s| PlannedSemaphore {
                cores: if s.on_eth {
                    s.cores.iter().map(|c| CoreIdx(num_workers + c.y)).collect()
                } else {
                    s.cores.iter().map(logical).collect()
                },
                addr: if s.on_eth { params.eth.semaphore_base } else { params.mem.semaphore_base }
                    + s.id * SEMAPHORE_BYTES,
                initial: s.initial,
            })
            .collect();
        let plan = RunPlan {
            chip: dev.chip.clone(),
            params: params.clone(),
            tables: dev.tables.clone(),
            eth_tiles: dev.eth_tiles.clone(),
            kernels,
            instances,
            compute_cores,
            cbs,
            semaphores,
            links: links.clone(),
            recording: dev.recording,
            program_id: dev.programs_run,
        };
        Ok(Launch { plan, cb_top, counted: true })
    }

    /// Hand the plan and `dev`'s memories to the chip; a run that cannot start gives them back at once.
    pub(crate) fn start(self, dev: &mut Device) -> Result<(ChipRun, LaunchTail), DeviceError> {
        let program_id = self.plan.program_id;
        let mem = ChipMemories {
            l1: std::mem::take(&mut dev.l1),
            eth_l1: std::mem::take(&mut dev.eth_l1),
            dram: std::mem::take(&mut dev.dram),
        };
        match sim_chip::launch(self.plan, mem) {
            Ok(run) => Ok((run, LaunchTail { program_id, cb_top: self.cb_top, counted: self.counted })),
            Err((e, mem)) => {
                dev.put_memories(mem);
                Err(DeviceError::Run(e))
            }
        }
    }

    /// The same launch as a what-if: with `params` instead of the device's, recording nothing, as program
    /// `program_id`, and not counted on the device (its memories come back as the run left them).
    pub(crate) fn what_if(mut self, params: std::sync::Arc<sim_params::Params>, program_id: u32) -> Launch {
        self.plan.params = params;
        self.plan.recording.trace = false;
        self.plan.recording.transfers = false;
        self.plan.program_id = program_id;
        self.counted = false;
        self
    }

    /// Run the program to completion on `dev` (the device it was built for) and give its memories back.
    pub(crate) fn run(self, dev: &mut Device) -> Result<RunReport, DeviceError> {
        let (run, tail) = self.start(dev)?;
        let finished = run.run_to_end(dev.progress.as_mut());
        tail.complete(dev, finished)
    }
}

/// What a launch needs to hand a finished run's memories back to its device.
pub(crate) struct LaunchTail {
    pub program_id: u32,
    cb_top: u64,
    counted: bool,
}

impl LaunchTail {
    /// Give the memories back to `dev` (whatever happened), count the program (unless it was a what-if), and
    /// pass on its report.
    pub(crate) fn complete(
        self,
        dev: &mut Device,
        (result, mem): (Result<RunReport, RunError>, ChipMemories),
    ) -> Result<RunReport, DeviceError> {
        dev.put_memories(mem);
        if !self.counted {
            return result.map_err(DeviceError::Run);
        }
        dev.programs_run += 1;
        dev.l1_usage.push(ProgramL1Usage::measure(self.program_id, self.cb_top, &dev.allocator));
        if let Ok(r) = &result {
            dev.total_cycles += r.cycles;
        }
        result.map_err(DeviceError::Run)
    }
}
