//! The simulated device and its host API (tt-metal's classic API in Rust): open a chip, allocate buffers,
//! write and read them, enqueue programs. Memory (L1 of every worker, sparse DRAM) persists across programs.

use crate::buffer::{Buffer, BufferType, HostData, InterleavedBufferConfig, from_bytes, to_bytes};
use crate::chip_spec::ChipSpec;
use crate::coords::{CoreCoord, CoreRangeSet};
use crate::engine::{self, Engine, EngineParts, FiberMeta, Launch};
use crate::error::DeviceError;
use crate::params::{ArchParams, MemParams};
use crate::program::{KernelBody, KernelConfig, Program, check_arg_count};
use crate::report::RunReport;
use allocator::report::{ProgramL1Usage, detailed_memory_usage, l1_usage_summary, memory_usage_summary};
use allocator::{Allocator, AllocatorConfig, BufferKind};
use sim_core::{Cycle, Cycles, Fiber, FiberId};
use sim_noc::{Dram, DramTiming, NocModel};
use sim_tensix::compute::state::ComputeState;
use sim_tensix::{
    BankTables, CircularBuffer, Compute, ComputeRole, CoreIdx, Dataflow, KernelArgs, KernelHost, KernelInstance, L1,
    Risc, TensixCore,
};
use soc_descriptors::{Arch, Chip, LogicalCoord, NocId, TranslatedCoord};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::Path;
use std::rc::Rc;

/// The three allocator reports (CSV text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryReports {
    /// `l1_usage_summary.csv`.
    pub l1_usage_summary: String,
    /// `memory_usage_summary.csv`.
    pub memory_usage_summary: String,
    /// `detailed_memory_usage.csv`.
    pub detailed_memory_usage: String,
}

/// A simulated Tenstorrent chip.
pub struct Device {
    chip: Rc<Chip>,
    soc_name: String,
    params: ArchParams,
    mem: MemParams,
    /// L1 of every logical worker, row-major over the logical grid.
    l1: Vec<L1>,
    dram: Dram,
    allocator: Allocator,
    /// Per L1 bank: its core and the offset of the bank from the lock-step address.
    l1_banks: Vec<(CoreCoord, i64)>,
    tables: BankTables,
    buffers: BTreeMap<u32, Buffer>,
    next_buffer: u32,
    programs_run: u32,
    total_cycles: Cycles,
    l1_usage: Vec<ProgramL1Usage>,
    tracing: bool,
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Device({}, {})", self.chip.arch(), self.soc_name)
    }
}

impl Device {
    /// Open the chip `spec` describes, with its built-in parameters.
    pub fn open(spec: &ChipSpec) -> Result<Device, DeviceError> {
        let chip = spec.load().map_err(|e| DeviceError::Config(e.to_string()))?;
        let params = ArchParams::builtin(chip.arch());
        Device::from_chip(chip, spec.soc_name(), params)
    }

    /// Open the chip `spec` describes with `params` (e.g. after `--set` overrides).
    pub fn open_with_params(spec: &ChipSpec, params: ArchParams) -> Result<Device, DeviceError> {
        let chip = spec.load().map_err(|e| DeviceError::Config(e.to_string()))?;
        if params.arch() != chip.arch() {
            return Err(DeviceError::Config(format!(
                "parameters are for {} but the chip is {}",
                params.arch(),
                chip.arch()
            )));
        }
        Device::from_chip(chip, spec.soc_name(), params)
    }

    /// The built-in chip of `arch`, unharvested (`CreateDevice(0)`).
    pub fn builtin(arch: Arch) -> Result<Device, DeviceError> {
        Device::open(&ChipSpec::builtin(arch))
    }

    fn from_chip(chip: Chip, soc_name: String, params: ArchParams) -> Result<Device, DeviceError> {
        let mem = params.mem();
        let soc = chip.soc();
        let l1_size = soc.worker_l1_size;
        if mem.l1_unreserved_base as u64 >= l1_size || mem.semaphore_base + 16 * 16 > mem.l1_unreserved_base {
            return Err(DeviceError::Config(format!(
                "mem.l1_unreserved_base ({}) and mem.semaphore_base ({}) do not fit a {l1_size}-byte L1",
                mem.l1_unreserved_base, mem.semaphore_base
            )));
        }
        let g = chip.logical_grid();
        let l1 = (0..g.count()).map(|_| L1::new(l1_size as u32)).collect();
        let dram = Dram::new(soc.dram_channels.len(), soc.dram_channel_size);
        // L1 banks: one per compute core (row-major), then N per storage-only core.
        let cg = chip.compute_grid();
        let mut l1_banks: Vec<(CoreCoord, i64)> = Vec::new();
        for y in cg.start.y..=cg.end.y {
            for x in cg.start.x..=cg.end.x {
                let c = LogicalCoord::new(x, y);
                if !chip.storage_cores().contains(&c) && !chip.dispatch_cores().contains(&c) {
                    l1_banks.push((c, 0));
                }
            }
        }
        let bank_size = chip.storage_core_bank_size().unwrap_or(l1_size - mem.l1_unreserved_base as u64);
        for &c in chip.storage_cores() {
            let n = (l1_size / bank_size).max(1);
            for k in 0..n {
                l1_banks.push((c, -((k * bank_size) as i64)));
            }
        }
        let xy = |c: CoreCoord| {
            let t = chip.worker_core_from_logical_core(c).expect("bank core in grid");
            (t.x, t.y)
        };
        let tables = BankTables {
            dram_xy: [NocId::Noc0, NocId::Noc1].map(|noc| {
                (0..soc.dram_banks.len())
                    .map(|b| {
                        let t = chip.dram_bank_noc_xy(noc, b);
                        (t.x, t.y)
                    })
                    .collect()
            }),
            dram_offset: soc.dram_banks.iter().map(|b| b.address_offset as i64).collect(),
            l1_xy: [0, 1].map(|_| l1_banks.iter().map(|(c, _)| xy(*c)).collect()),
            l1_offset: l1_banks.iter().map(|(_, o)| *o).collect(),
            dram_alignment: mem.dram_alignment,
            l1_alignment: mem.l1_alignment,
        };
        let allocator = Allocator::new(AllocatorConfig {
            dram_banks: soc.dram_banks.len() as u32,
            dram_bank_size: soc.dram_banks.first().map(|b| b.size_bytes).unwrap_or(0),
            dram_unreserved_base: mem.dram_unreserved_base,
            dram_alignment: mem.dram_alignment as u64,
            l1_banks: l1_banks.len() as u32,
            l1_size,
            l1_unreserved_base: mem.l1_unreserved_base as u64,
            l1_bank_size: bank_size,
            l1_alignment: mem.dram_alignment as u64,
        });
        Ok(Device {
            chip: Rc::new(chip),
            soc_name,
            params,
            mem,
            l1,
            dram,
            allocator,
            l1_banks,
            tables,
            buffers: BTreeMap::new(),
            next_buffer: 0,
            programs_run: 0,
            total_cycles: Cycles::ZERO,
            l1_usage: Vec::new(),
            tracing: false,
        })
    }

    /// The chip.
    pub fn chip(&self) -> &Chip {
        &self.chip
    }

    /// `arch()`.
    pub fn arch(&self) -> Arch {
        self.chip.arch()
    }

    /// Where the SoC description came from.
    pub fn soc_name(&self) -> &str {
        &self.soc_name
    }

    /// The parameters in use.
    pub fn params(&self) -> &ArchParams {
        &self.params
    }

    /// AICLK, MHz.
    pub fn clock_mhz(&self) -> u32 {
        self.params.clock_mhz()
    }

    /// Record a Chrome trace of every following run (`RunReport::trace_json`).
    pub fn set_tracing(&mut self, on: bool) {
        self.tracing = on;
    }

    /// `compute_with_storage_grid_size()`.
    pub fn compute_with_storage_grid_size(&self) -> CoreCoord {
        let g = self.chip.compute_with_storage_grid_size();
        CoreCoord::new(g.x, g.y)
    }

    /// `logical_grid_size()`: every usable worker.
    pub fn logical_grid_size(&self) -> CoreCoord {
        let g = self.chip.logical_grid();
        CoreCoord::new(g.x, g.y)
    }

    /// `worker_core_from_logical_core(core)`: the NoC coordinate kernels use for a logical core.
    pub fn worker_core_from_logical_core(&self, c: CoreCoord) -> Result<TranslatedCoord, DeviceError> {
        self.chip.worker_core_from_logical_core(c).ok_or_else(|| {
            let g = self.chip.logical_grid();
            DeviceError::api(format!(
                "worker_core_from_logical_core: core ({},{}) is outside the {g} logical grid",
                c.x, c.y
            ))
        })
    }

    /// `num_dram_channels()` (DRAM banks as tt-metal counts them).
    pub fn num_dram_channels(&self) -> usize {
        self.chip.soc().dram_banks.len()
    }

    /// `l1_size_per_core()`.
    pub fn l1_size_per_core(&self) -> u64 {
        self.chip.soc().worker_l1_size
    }

    /// `allocator()->get_alignment(type)`.
    pub fn alignment(&self, t: BufferType) -> u32 {
        match t {
            BufferType::Dram => self.mem.dram_alignment,
            BufferType::L1 => self.mem.l1_alignment,
        }
    }

    /// Cycles of every program run so far.
    pub fn elapsed_cycles(&self) -> Cycles {
        self.total_cycles
    }

    /// Host memory used by simulated DRAM, bytes.
    pub fn dram_resident_bytes(&self) -> u64 {
        self.dram.resident_bytes()
    }

    // ---------------------------------------------------------------------------------------------
    // Buffers
    // ---------------------------------------------------------------------------------------------

    /// `CreateBuffer(InterleavedBufferConfig{…})`.
    pub fn create_buffer(&mut self, cfg: InterleavedBufferConfig) -> Result<Buffer, DeviceError> {
        if cfg.page_size == 0 || cfg.size == 0 {
            return Err(DeviceError::api(format!(
                "CreateBuffer: size {} and page size {} must be positive",
                cfg.size, cfg.page_size
            )));
        }
        if cfg.size % cfg.page_size != 0 {
            return Err(DeviceError::api(format!(
                "CreateBuffer: size {} is not a whole number of {}-byte pages",
                cfg.size, cfg.page_size
            )));
        }
        let kind = match cfg.buffer_type {
            BufferType::Dram => BufferKind::Dram,
            BufferType::L1 => BufferKind::L1,
        };
        let address = self
            .allocator
            .allocate(kind, cfg.size, cfg.page_size)
            .map_err(|e| DeviceError::api(format!("CreateBuffer: {e}")))?;
        let aligned = self.allocator.banks(kind).aligned_page_size(cfg.page_size);
        let id = self.next_buffer;
        self.next_buffer += 1;
        let b = Buffer {
            id,
            address,
            size: cfg.size,
            page_size: cfg.page_size,
            aligned_page_size: aligned,
            buffer_type: cfg.buffer_type,
        };
        self.buffers.insert(id, b);
        Ok(b)
    }

    /// `DeallocateBuffer(buffer)`.
    pub fn deallocate_buffer(&mut self, b: &Buffer) -> Result<(), DeviceError> {
        if self.buffers.remove(&b.id).is_none() {
            return Err(DeviceError::api(format!("DeallocateBuffer: buffer at {:#x} is not allocated", b.address)));
        }
        let kind = match b.buffer_type {
            BufferType::Dram => BufferKind::Dram,
            BufferType::L1 => BufferKind::L1,
        };
        self.allocator.deallocate(kind, b.address);
        Ok(())
    }

    fn check_live(&self, b: &Buffer, api: &str) -> Result<(), DeviceError> {
        if self.buffers.get(&b.id) != Some(b) {
            return Err(DeviceError::api(format!("{api}: the buffer at {:#x} has been deallocated", b.address)));
        }
        Ok(())
    }

    /// Where page `i` of `b` lives: (memory, address).
    fn page_location(&self, b: &Buffer, page: u64) -> (BufferKind, usize, u64) {
        let kind = if b.is_dram() { BufferKind::Dram } else { BufferKind::L1 };
        let nb = self.allocator.banks(kind).num_banks() as u64;
        let bank = (page % nb) as usize;
        let addr = b.address + (page / nb) * b.aligned_page_size;
        match kind {
            BufferKind::Dram => {
                let db = &self.chip.soc().dram_banks[bank];
                (kind, db.channel as usize, db.address_offset + addr)
            }
            BufferKind::L1 => {
                let (core, off) = self.l1_banks[bank];
                let g = self.chip.logical_grid();
                ((kind), (core.y * g.x + core.x) as usize, (addr as i64 + off) as u64)
            }
        }
    }

    fn write_page(&mut self, b: &Buffer, page: u64, data: &[u8]) {
        let (kind, idx, addr) = self.page_location(b, page);
        match kind {
            BufferKind::Dram => self.dram.channel_mut(idx).write(addr, data),
            BufferKind::L1 => self.l1[idx].write(addr, data).expect("buffer inside L1"),
        }
    }

    fn read_page(&self, b: &Buffer, page: u64, out: &mut [u8]) {
        let (kind, idx, addr) = self.page_location(b, page);
        match kind {
            BufferKind::Dram => self.dram.channel(idx).read(addr, out),
            BufferKind::L1 => out.copy_from_slice(self.l1[idx].read(addr, out.len() as u64).expect("buffer inside L1")),
        }
    }

    /// `EnqueueWriteBuffer(cq, buffer, data, blocking)`. Data shorter than the buffer is zero-padded (with a
    /// warning), as tt-metal programs rely on; longer data is an error.
    pub fn enqueue_write_buffer<T: HostData>(&mut self, b: &Buffer, data: &[T]) -> Result<(), DeviceError> {
        self.check_live(b, "EnqueueWriteBuffer")?;
        let mut bytes = to_bytes(data);
        if bytes.len() as u64 > b.size {
            return Err(DeviceError::api(format!(
                "EnqueueWriteBuffer: {} bytes of data do not fit the {}-byte buffer at {:#x}",
                bytes.len(),
                b.size,
                b.address
            )));
        }
        if (bytes.len() as u64) < b.size {
            tracing::warn!(
                "EnqueueWriteBuffer: {} bytes written to the {}-byte buffer at {:#x}; the rest is zero",
                bytes.len(),
                b.size,
                b.address
            );
            bytes.resize(b.size as usize, 0);
        }
        let ps = b.page_size as usize;
        for (i, page) in bytes.chunks(ps).enumerate() {
            self.write_page(b, i as u64, page);
        }
        Ok(())
    }

    /// `EnqueueReadBuffer(cq, buffer, data, blocking)`: the whole buffer.
    pub fn enqueue_read_buffer<T: HostData>(&mut self, b: &Buffer) -> Result<Vec<T>, DeviceError> {
        self.check_live(b, "EnqueueReadBuffer")?;
        let ps = b.page_size as usize;
        let mut bytes = vec![0u8; b.size as usize];
        for (i, page) in bytes.chunks_mut(ps).enumerate() {
            self.read_page(b, i as u64, page);
        }
        Ok(from_bytes(&bytes))
    }

    fn core_index(&self, c: CoreCoord, what: &str) -> Result<usize, DeviceError> {
        let g = self.chip.logical_grid();
        if c.x >= g.x || c.y >= g.y {
            return Err(DeviceError::api(format!("{what}: core ({},{}) is outside the {g} logical grid", c.x, c.y)));
        }
        Ok((c.y * g.x + c.x) as usize)
    }

    /// `WriteToDeviceL1(device, core, addr, data)`.
    pub fn write_to_device_l1<T: HostData>(
        &mut self,
        core: CoreCoord,
        addr: u32,
        data: &[T],
    ) -> Result<(), DeviceError> {
        let i = self.core_index(core, "WriteToDeviceL1")?;
        self.l1[i].write(addr as u64, &to_bytes(data)).map_err(|e| DeviceError::api(format!("WriteToDeviceL1: {e}")))
    }

    /// `ReadFromDeviceL1(device, core, addr, size)`.
    pub fn read_from_device_l1<T: HostData>(
        &self,
        core: CoreCoord,
        addr: u32,
        count: usize,
    ) -> Result<Vec<T>, DeviceError> {
        let i = self.core_index(core, "ReadFromDeviceL1")?;
        let bytes = self.l1[i]
            .read(addr as u64, (count * T::SIZE) as u64)
            .map_err(|e| DeviceError::api(format!("ReadFromDeviceL1: {e}")))?;
        Ok(from_bytes(bytes))
    }

    /// The allocator's three reports.
    pub fn memory_reports(&self) -> MemoryReports {
        MemoryReports {
            l1_usage_summary: l1_usage_summary(&self.l1_usage),
            memory_usage_summary: memory_usage_summary(&self.allocator),
            detailed_memory_usage: detailed_memory_usage(&self.allocator),
        }
    }

    /// Write the three reports into `dir` (created if missing); existing files of these names are replaced.
    pub fn write_memory_reports(&self, dir: &Path) -> Result<Vec<std::path::PathBuf>, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create directory: {e}", dir.display()))?;
        let r = self.memory_reports();
        let mut out = Vec::new();
        for (name, text) in [
            ("l1_usage_summary.csv", &r.l1_usage_summary),
            ("memory_usage_summary.csv", &r.memory_usage_summary),
            ("detailed_memory_usage.csv", &r.detailed_memory_usage),
        ] {
            let p = dir.join(name);
            std::fs::write(&p, text).map_err(|e| format!("{}: cannot write: {e}", p.display()))?;
            out.push(p);
        }
        Ok(out)
    }

    // ---------------------------------------------------------------------------------------------
    // Programs
    // ---------------------------------------------------------------------------------------------

    fn check_cores(&self, cores: &CoreRangeSet, what: &str) -> Result<(), DeviceError> {
        let cg = self.chip.compute_grid();
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

    /// The NoC link-utilisation heatmap of `report` (SVG).
    pub fn noc_heatmap_svg(&self, report: &RunReport) -> String {
        crate::report::heatmap::heatmap_svg(report, &self.chip)
    }

    /// `report` as a tt-npe timeline v1.0.0 (JSON).
    pub fn npe_timeline(&self, report: &RunReport) -> String {
        let noc = self.params.noc();
        let rate = noc.flit_bytes as f64 * 1000.0 / noc.inject_cycles_per_kflit.max(1) as f64;
        crate::report::npe::npe_timeline(report, &self.chip, noc.flit_bytes, rate)
    }

    /// `Finish(cq)`: every enqueued program has run; returns the cycles of all programs so far.
    pub fn finish(&mut self) -> Cycles {
        self.total_cycles
    }

    /// `EnqueueProgram(cq, program, blocking)`: run the program to completion.
    pub fn enqueue_program(&mut self, p: &Program) -> Result<RunReport, DeviceError> {
        let g = self.chip.logical_grid();
        let num_cbs = self.mem.num_circular_buffers;
        for k in &p.kernels {
            self.check_cores(&k.cores, &format!("kernel `{}`", k.name))?;
            for c in k.cores.iter() {
                let unique = k.runtime_args.get(&(c.x, c.y)).map(|v| v.len()).unwrap_or(0);
                check_arg_count(&k.name, c, unique, k.common_args.len())?;
            }
        }
        for s in &p.semaphores {
            self.check_cores(&s.cores, "CreateSemaphore")?;
        }
        // Circular buffers: lock-step addresses from the unreserved base upward.
        let cb_align = self.mem.dram_alignment.max(self.mem.dram_read_alignment).max(self.mem.l1_alignment);
        let mut top: BTreeMap<(u32, u32), u32> = BTreeMap::new();
        let mut cb_addr = Vec::with_capacity(p.cbs.len());
        let lowest_buffer = self.allocator.lowest_l1_buffer().unwrap_or(self.l1_size_per_core());
        for cb in &p.cbs {
            self.check_cores(&cb.cores, "CreateCircularBuffer")?;
            for (i, _) in &cb.config.formats {
                if *i >= num_cbs {
                    return Err(DeviceError::api(format!(
                        "CreateCircularBuffer: CB index {i} is out of range: {} has {num_cbs} CBs per core (0..{})",
                        self.arch(),
                        num_cbs - 1
                    )));
                }
            }
            let start = cb
                .cores
                .iter()
                .map(|c| *top.get(&(c.x, c.y)).unwrap_or(&self.mem.l1_unreserved_base))
                .max()
                .unwrap_or(0);
            let addr = start.div_ceil(cb_align) * cb_align;
            let end = addr as u64 + cb.config.total_size as u64;
            if end > lowest_buffer {
                let c = cb.cores.iter().next().expect("non-empty");
                let idx: Vec<String> = cb.config.formats.iter().map(|(i, _)| format!("c_{i}")).collect();
                return Err(DeviceError::api(format!(
                    "L1 overflow on core ({},{}): circular buffer {} at [{addr:#x}, {end:#x}) ({} bytes) overlaps the L1 buffers \
                     at [{lowest_buffer:#x}, {:#x}); shrink the CBs or the L1 buffers",
                    c.x,
                    c.y,
                    idx.join("/"),
                    cb.config.total_size,
                    self.l1_size_per_core()
                )));
            }
            for c in cb.cores.iter() {
                top.insert((c.x, c.y), end as u32);
            }
            cb_addr.push(addr);
        }
        let cb_top = top.values().copied().max().unwrap_or(self.mem.l1_unreserved_base) as u64;
        let program_id = self.programs_run;

        // Cores with their L1, CBs and semaphores.
        let mut cores: Vec<TensixCore> =
            std::mem::take(&mut self.l1).into_iter().map(|l1| TensixCore::new(l1, num_cbs as usize)).collect();
        for (cb, &addr) in p.cbs.iter().zip(&cb_addr) {
            for c in cb.cores.iter() {
                let core = &mut cores[(c.y * g.x + c.x) as usize];
                for (i, fmt) in &cb.config.formats {
                    let page = cb
                        .config
                        .page_sizes
                        .iter()
                        .find(|(j, _)| j == i)
                        .map(|(_, p)| *p)
                        .expect("validated at creation");
                    core.cbs[*i as usize] = Some(CircularBuffer::new(*i as u8, addr, cb.config.total_size, page, *fmt));
                }
            }
        }
        for s in &p.semaphores {
            for c in s.cores.iter() {
                let core = &mut cores[(c.y * g.x + c.x) as usize];
                core.l1
                    .write_u32((self.mem.semaphore_base + s.id * 16) as u64, s.initial)
                    .expect("semaphores inside L1");
            }
        }

        // Kernel instances, ordered by (core, RISC): the fixed tie-break among kernels.
        struct Inst {
            core: CoreIdx,
            risc: Risc,
            kernel: usize,
            role: Option<ComputeRole>,
        }
        let mut insts = Vec::new();
        for (ki, k) in p.kernels.iter().enumerate() {
            for c in k.cores.iter() {
                let core = CoreIdx(c.y * g.x + c.x);
                match &k.config {
                    KernelConfig::DataMovement(d) => {
                        insts.push(Inst { core, risc: d.processor.risc(), kernel: ki, role: None })
                    }
                    KernelConfig::Compute(cc) => {
                        let core_state = &mut cores[core.0 as usize];
                        core_state.compute = Some(Box::new(ComputeState::new(cc.settings())));
                        for (risc, role) in [
                            (Risc::Trisc0, ComputeRole::Unpack),
                            (Risc::Trisc1, ComputeRole::Math),
                            (Risc::Trisc2, ComputeRole::Pack),
                        ] {
                            insts.push(Inst { core, risc, kernel: ki, role: Some(role) });
                        }
                    }
                }
            }
        }
        insts.sort_by_key(|i| (i.core, i.risc));
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
        let soc = self.chip.soc();
        let engine = Engine::new(
            EngineParts {
                chip: self.chip.clone(),
                mem: self.mem.clone(),
                cores,
                dram: std::mem::take(&mut self.dram),
                dram_timing: DramTiming::new(soc.dram_channels.len(), soc.dram_channel_size, self.params.dram()),
                noc: NocModel::new(soc.grid, self.params.noc()),
                tracing: self.tracing,
            },
            metas,
        );
        let engine = Rc::new(RefCell::new(engine));
        let host: Rc<RefCell<dyn KernelHost>> = engine.clone();
        let tables = Rc::new(self.tables.clone());
        let costs = Rc::new(self.params.api_costs());
        let max_burst = self.params.noc().max_burst_bytes;
        let stack = self.params.stack_bytes();
        let mut launches = Vec::with_capacity(insts.len());
        for (fid, i) in insts.iter().enumerate() {
            let k = &p.kernels[i.kernel];
            let logical = (i.core.0 % g.x, i.core.0 / g.x);
            let t =
                self.chip.worker_core_from_logical_core(LogicalCoord::new(logical.0, logical.1)).expect("core in grid");
            let (noc, compile, named, defines) = match &k.config {
                KernelConfig::DataMovement(d) => {
                    (d.noc, d.compile_args.clone(), d.named_compile_args.clone(), d.defines.clone())
                }
                KernelConfig::Compute(c) => {
                    (NocId::Noc0, c.compile_args.clone(), c.named_compile_args.clone(), c.defines.clone())
                }
            };
            let inst = Rc::new(KernelInstance {
                name: k.name.clone(),
                fiber: FiberId(fid as u32),
                core: i.core,
                risc: i.risc,
                noc,
                logical,
                noc_xy: (t.x, t.y),
                sem_base: self.mem.semaphore_base,
                args: KernelArgs {
                    runtime: k.runtime_args.get(&logical).cloned().unwrap_or_default(),
                    common: k.common_args.clone(),
                    compile,
                    named,
                    defines,
                },
                tables: tables.clone(),
                costs: costs.clone(),
                max_burst,
                num_cbs,
                max_cycles: self.params.max_cycles(),
                max_outstanding: self.params.u64("noc.max_outstanding") as u32,
                compute: match &k.config {
                    KernelConfig::Compute(c) => Some(c.settings()),
                    KernelConfig::DataMovement(_) => None,
                },
            });
            let host = host.clone();
            let fiber = match (&k.body, i.role) {
                (KernelBody::Dataflow(f), _) => {
                    let f = f.clone();
                    Fiber::new(stack, move |y, t0| {
                        let mut d = Dataflow::new(host, y, inst, t0);
                        f(&mut d);
                        d.finish();
                    })
                }
                (KernelBody::Compute(f), Some(role)) => {
                    let f = f.clone();
                    Fiber::new(stack, move |y, t0| {
                        let mut c = Compute::new(host, y, inst, role, t0);
                        f(&mut c);
                        c.finish();
                    })
                }
                (KernelBody::Compute(_), None) => {
                    unreachable!("compute kernels always have a role")
                }
            };
            launches.push(Launch { fiber: fiber.map_err(DeviceError::Config)? });
        }
        drop(host);
        let outcome = engine::run(engine, launches, self.params.max_cycles(), program_id, self.clock_mhz());
        self.l1 = outcome.cores.into_iter().map(TensixCore::into_l1).collect();
        self.dram = outcome.dram;
        self.programs_run += 1;
        self.l1_usage.push(ProgramL1Usage::measure(program_id, cb_top, &self.allocator));
        let report = outcome.result?;
        self.total_cycles += report.cycles;
        let _ = Cycle::ZERO;
        Ok(report)
    }
}
