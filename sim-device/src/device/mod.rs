//! The simulated device and its host API (tt-metal's classic API in Rust): open a chip, allocate buffers,
//! write and read them (`buffers`), enqueue programs. Memory (L1 of every worker, sparse DRAM) persists
//! across programs.

mod buffers;
mod raw_memory;
#[cfg(test)]
mod tag_tests;

pub use buffers::{BufferPlacement, PageNocLocation};

use crate::buffer::{Buffer, BufferType};
use crate::chip_spec::ChipSpec;
use crate::error::DeviceError;
use allocator::report::{ProgramL1Usage, detailed_memory_usage, l1_usage_summary, memory_usage_summary};
use allocator::{Allocator, AllocatorConfig};
use layout::core_ranges::CoreCoord;
use sim_core::Cycles;
use sim_noc::{Dram, NocAddrMap};
use sim_params::{MemLayout, Params, SEMAPHORE_BYTES, SEMAPHORES};
use sim_tensix::{BankTables, L1};
use soc_descriptors::{Arch, Chip, LogicalCoord, Noc0Coord, NocId, SocDescriptor, TranslatedCoord};
use std::collections::BTreeMap;
use std::sync::Arc;

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

pub use sim_chip::Recording;

/// Everything needed to open identical devices: one per task of a parallel sweep (a [`Device`] itself
/// stays on the thread that opened it).
#[derive(Debug, Clone)]
pub struct DeviceSetup {
    /// The chip.
    pub chip: Chip,
    /// Where its description came from.
    pub soc_name: String,
    /// The parameters.
    pub params: Params,
    /// How programs are launched on the devices it opens.
    pub dispatch: DispatchMode,
}

impl DeviceSetup {
    /// Load the chip `spec` describes and check `params` against it (by opening one device).
    pub fn new(spec: &ChipSpec, params: Params) -> Result<DeviceSetup, DeviceError> {
        let chip = spec.load().map_err(|e| DeviceError::Config(e.to_string()))?;
        let setup = DeviceSetup { chip, soc_name: spec.soc_name(), params, dispatch: DispatchMode::Fast };
        setup.open()?;
        Ok(setup)
    }

    /// A fresh device.
    pub fn open(&self) -> Result<Device, DeviceError> {
        let mut d = Device::with_chip(self.chip.clone(), self.soc_name.clone(), self.params.clone())?;
        d.set_dispatch_mode(self.dispatch);
        Ok(d)
    }
}

pub use sim_chip::Progress;

/// A simulated Tenstorrent chip.
pub struct Device {
    pub(crate) chip: Arc<Chip>,
    soc_name: String,
    pub(crate) params: std::sync::Arc<Params>,
    /// L1 of every logical worker, row-major over the logical grid.
    pub(crate) l1: Vec<L1>,
    /// NoC0 tile of each logical Ethernet channel.
    pub(crate) eth_tiles: Vec<Noc0Coord>,
    /// L1 of each logical Ethernet channel's core.
    pub(crate) eth_l1: Vec<L1>,
    pub(crate) dram: Dram,
    pub(crate) allocator: Allocator,
    /// Per L1 bank: its core and the offset of the bank from the lock-step address.
    pub(crate) l1_banks: Vec<(CoreCoord, i64)>,
    pub(crate) tables: Arc<BankTables>,
    pub(crate) buffers: BTreeMap<u32, Buffer>,
    pub(crate) next_buffer: u32,
    pub(crate) programs_run: u32,
    pub(crate) total_cycles: Cycles,
    pub(crate) l1_usage: Vec<ProgramL1Usage>,
    pub(crate) recording: Recording,
    pub(crate) progress: Option<Progress>,
    pub(crate) dispatch: DispatchMode,
    /// The router-level model's check of runs that stall packets beyond buffering: at most this many
    /// flit moves (`None`: no check; see [`Device::set_router_check`]).
    pub(crate) router_check: Option<u64>,
    /// Host seconds the router-level checks took.
    pub(crate) router_check_secs: f64,
}

/// How programs reach the cores: tt-metal's fast dispatch (command queues; every core receives its go
/// signal at once) or slow dispatch (`TT_METAL_SLOW_DISPATCH_MODE=1`: the host launches the cores one
/// after another, `dispatch.slow_core_interval_cycles` apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DispatchMode {
    /// Every core starts at cycle 0.
    #[default]
    Fast,
    /// Cores start one after another in row-major logical order.
    Slow,
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Device({}, {})", self.chip.arch(), self.soc_name)
    }
}

/// What `allocator()->get_statistics(type)` and the bank queries report of one memory (per bank).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AllocatorStatistics {
    /// Banks of the memory.
    pub num_banks: u32,
    /// Allocatable bytes per bank.
    pub bank_size_bytes: u64,
    /// The first allocatable address.
    pub base_address: u64,
    /// Bytes allocated per bank.
    pub allocated_bytes: u64,
    /// Bytes free per bank.
    pub free_bytes: u64,
    /// The largest free block per bank.
    pub largest_free_block_bytes: u64,
}

/// The Ethernet kernel region's end depends on the chip: its data-file value is the built-in chip's, whose
/// Ethernet L1 has a fixed block at its top (the fabric router's and the system firmware's). On a chip whose
/// Ethernet L1 has another size (tt-umd's 256 KiB Blackhole descriptor against tt-metal's 512 KiB), the
/// same block sits at that L1's top, so the region ends that much lower. A value the user set is kept.
fn derive_eth_kernel_top(params: &mut Params, soc: &soc_descriptors::SocDescriptor) {
    let arch = params.arch();
    let builtin = Params::builtin(arch);
    let key = "eth.l1_kernel_top";
    if soc.eth.is_empty()
        || params.source(key) != builtin.source(key)
        || params.eth.l1_kernel_top != builtin.eth.l1_kernel_top
    {
        return;
    }
    let builtin_eth_l1 = soc_descriptors::builtin::builtin_soc(arch).eth_l1_size;
    if soc.eth_l1_size == builtin_eth_l1 {
        return;
    }
    let reserved_top = builtin_eth_l1.saturating_sub(builtin.eth.l1_kernel_top as u64);
    let top = soc.eth_l1_size.saturating_sub(reserved_top);
    if let Ok(top) = u32::try_from(top) {
        let note = format!(
            "derived from the chip: its {}-byte Ethernet L1 less the {reserved_top} bytes the built-in {arch} keeps at the top ({})",
            soc.eth_l1_size,
            builtin.source(key).unwrap_or_default()
        );
        params.set_derived(key, top as u64, note);
    }
}

impl Device {
    /// Open the chip `spec` describes, with its built-in parameters.
    pub fn open(spec: &ChipSpec) -> Result<Device, DeviceError> {
        let chip = spec.load().map_err(|e| DeviceError::Config(e.to_string()))?;
        let params = Params::builtin(chip.arch());
        Device::from_chip(chip, spec.soc_name(), params)
    }

    /// Open the chip `spec` describes with `params` (e.g. after `--set` overrides).
    pub fn open_with_params(spec: &ChipSpec, params: Params) -> Result<Device, DeviceError> {
        let chip = spec.load().map_err(|e| DeviceError::Config(e.to_string()))?;
        Device::with_chip(chip, spec.soc_name(), params)
    }

    /// A device on an already loaded `chip` with `params`.
    pub fn with_chip(chip: Chip, soc_name: String, params: Params) -> Result<Device, DeviceError> {
        if params.arch() != chip.arch() {
            return Err(DeviceError::Config(format!(
                "parameters are for {} but the chip is {}",
                params.arch(),
                chip.arch()
            )));
        }
        params.validate("parameters").map_err(DeviceError::Param)?;
        Device::from_chip(chip, soc_name, params)
    }

    /// The built-in chip of `arch`, unharvested (`CreateDevice(0)`).
    pub fn builtin(arch: Arch) -> Result<Device, DeviceError> {
        Device::open(&ChipSpec::builtin(arch))
    }

    fn from_chip(chip: Chip, soc_name: String, mut params: Params) -> Result<Device, DeviceError> {
        derive_eth_kernel_top(&mut params, chip.soc());
        check_params_for_chip(&params, chip.soc(), chip.arch())?;
        let mem = &params.mem;
        let soc = chip.soc();
        let l1_size = soc.worker_l1_size;
        debug_assert!(mem.semaphore_base + SEMAPHORES * SEMAPHORE_BYTES <= mem.l1_unreserved_base);
        let eth_tiles: Vec<Noc0Coord> = soc.eth.clone();
        let eth_l1 = eth_tiles.iter().map(|_| L1::new(soc.eth_l1_size as u32)).collect();
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
            addr_map: NocAddrMap::of(chip.arch()),
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
            // tt-metal's allocator places L1 buffers at DRAM_ALIGNMENT too ("Allocations in DRAM and SRAM are
            // done at DRAM_ALIGNMENT aligned addresses", hardware.md §3.4 note), not at L1_ALIGNMENT.
            l1_alignment: mem.dram_alignment as u64,
        });
        Ok(Device {
            chip: Arc::new(chip),
            soc_name,
            params: std::sync::Arc::new(params),
            l1,
            eth_tiles,
            eth_l1,
            dram,
            allocator,
            l1_banks,
            tables: Arc::new(tables),
            buffers: BTreeMap::new(),
            next_buffer: 0,
            programs_run: 0,
            total_cycles: Cycles::ZERO,
            l1_usage: Vec::new(),
            recording: Recording::default(),
            dispatch: DispatchMode::default(),
            router_check: None,
            router_check_secs: 0.0,
            progress: None,
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
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The memory map and alignments.
    pub fn mem(&self) -> &MemLayout {
        &self.params.mem
    }

    /// AICLK, MHz.
    pub fn clock_mhz(&self) -> u32 {
        self.params.clock_mhz
    }

    /// Record a Chrome trace of every following run (`RunReport::trace_json`).
    pub fn set_tracing(&mut self, on: bool) {
        self.recording.trace = on;
    }

    /// Keep one record per NoC packet in every following run (`NocReport::transfers`, bounded).
    pub fn set_record_transfers(&mut self, on: bool) {
        self.recording.transfers = on;
    }

    /// Let every following run move timing only (see [`Recording::timing_only`]).
    pub fn set_timing_only(&mut self, on: bool) {
        self.recording.timing_only = on;
    }

    /// Launch every following program in `mode` (see [`DispatchMode`]).
    pub fn set_dispatch_mode(&mut self, mode: DispatchMode) {
        self.dispatch = mode;
    }

    /// The dispatch mode of the following runs.
    pub fn dispatch_mode(&self) -> DispatchMode {
        self.dispatch
    }

    /// Report the simulated time reached, now and then, during every following run.
    pub fn set_progress(&mut self, p: Option<Progress>) {
        self.progress = p;
    }

    /// What runs record.
    pub fn recording(&self) -> Recording {
        self.recording
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

    /// Number of logical Ethernet channels (Ethernet cores `(0, channel)`).
    pub fn num_eth_channels(&self) -> u32 {
        self.eth_tiles.len() as u32
    }

    /// The Ethernet cores of a chip in a system: logical channel `c` is the core at `tiles[c]` (on
    /// Blackhole the harvested channels are left out). Their L1 starts empty.
    pub(crate) fn set_eth_channels(&mut self, tiles: Vec<Noc0Coord>) {
        let size = self.chip.soc().eth_l1_size as u32;
        self.eth_l1 = tiles.iter().map(|_| L1::new(size)).collect();
        self.eth_tiles = tiles;
    }

    /// The NoC coordinates kernels use for Ethernet channel `channel`'s core (translated).
    pub fn eth_core_noc_xy(&self, channel: u32) -> Result<TranslatedCoord, DeviceError> {
        let t = self.eth_tiles.get(channel as usize).ok_or_else(|| {
            DeviceError::api(format!(
                "Ethernet channel {channel} does not exist: this chip has channels 0..{}",
                self.eth_tiles.len()
            ))
        })?;
        Ok(self.chip.noc0_to_translated(*t))
    }

    /// `l1_size_per_core()`.
    pub fn l1_size_per_core(&self) -> u64 {
        self.chip.soc().worker_l1_size
    }

    /// The allocator's statistics of DRAM or L1 (`allocator()->get_statistics(type)`, per bank): total
    /// allocatable, allocated and free bytes, and the largest free block.
    pub fn allocator_statistics(&self, t: BufferType) -> AllocatorStatistics {
        let kind = match t {
            BufferType::Dram => allocator::BufferKind::Dram,
            BufferType::L1 => allocator::BufferKind::L1,
        };
        let banks = self.allocator.banks(kind);
        let list = banks.free_list();
        AllocatorStatistics {
            num_banks: banks.num_banks(),
            bank_size_bytes: list.size(),
            base_address: list.base(),
            allocated_bytes: list.allocated_bytes(),
            free_bytes: list.free_bytes(),
            largest_free_block_bytes: list.largest_free_block(),
        }
    }

    /// `allocator()->get_alignment(type)`.
    pub fn alignment(&self, t: BufferType) -> u32 {
        match t {
            BufferType::Dram => self.params.mem.dram_alignment,
            BufferType::L1 => self.params.mem.l1_alignment,
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

    /// The allocator's three reports.
    pub fn memory_reports(&self) -> MemoryReports {
        MemoryReports {
            l1_usage_summary: l1_usage_summary(&self.l1_usage),
            memory_usage_summary: memory_usage_summary(&self.allocator),
            detailed_memory_usage: detailed_memory_usage(&self.allocator),
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Programs
    // ---------------------------------------------------------------------------------------------

    /// Move every worker and Ethernet core's L1 into a host window made by `make(core, L1 bytes)` (cores
    /// numbered workers first, row-major, then Ethernet channels), so that compiled C++ kernels can
    /// dereference L1 addresses. Contents are kept; cores already in a window are left alone.
    pub fn move_l1_to_windows(&mut self, mut make: impl FnMut(usize, u32) -> Box<dyn sim_tensix::HostWindow>) {
        for (i, l1) in self.l1.iter_mut().chain(self.eth_l1.iter_mut()).enumerate() {
            if !l1.in_window() {
                l1.move_to_window(make(i, l1.size()));
            }
        }
    }

    /// Cores (workers, then Ethernet channels) whose L1 [`Device::move_l1_to_windows`] would move.
    pub fn num_l1_cores(&self) -> usize {
        self.l1.len() + self.eth_l1.len()
    }

    /// Whether the L1s live in host windows.
    pub fn l1_in_windows(&self) -> bool {
        self.l1.first().is_some_and(|l| l.in_window())
    }

    /// `Finish(cq)`: every enqueued program has run; returns the cycles of all programs so far.
    pub fn finish(&mut self) -> Cycles {
        self.total_cycles
    }
}

/// The parameters that depend on the chip they run on (L1 and DRAM addresses inside its memories, the
/// Ethernet kernel top inside its Ethernet L1): what `tensim params` and every run check alike.
pub fn check_params_for_chip(params: &Params, soc: &SocDescriptor, arch: Arch) -> Result<(), DeviceError> {
    let mem = &params.mem;
    let l1_size = soc.worker_l1_size;
    if mem.l1_unreserved_base as u64 >= l1_size {
        return Err(DeviceError::Config(format!(
            "mem.l1_unreserved_base = {} is not below the {l1_size}-byte L1 of this {arch}; choose a smaller value",
            mem.l1_unreserved_base
        )));
    }
    let dram_bank = soc.dram_banks.first().map(|b| b.size_bytes).unwrap_or(0);
    if mem.dram_unreserved_base >= dram_bank {
        return Err(DeviceError::Config(format!(
            "mem.dram_unreserved_base = {} is not below the {dram_bank}-byte DRAM bank of this {arch}",
            mem.dram_unreserved_base
        )));
    }
    if !soc.eth.is_empty() && params.eth.l1_kernel_top as u64 > soc.eth_l1_size {
        return Err(DeviceError::Config(format!(
            "eth.l1_kernel_top = {:#x} is above the {}-byte Ethernet L1 of this {arch}; choose a smaller value",
            params.eth.l1_kernel_top, soc.eth_l1_size
        )));
    }
    Ok(())
}
