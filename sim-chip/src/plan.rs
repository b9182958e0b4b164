//! A run as data: [`RunPlan`], what the host API's launch hands the chip once every check has passed —
//! the kernels with their bodies and arguments, the instances in the scheduler's fixed order with their
//! start cycles, where each circular buffer and semaphore sits, the chip's Ethernet links and fabric
//! routers, and what to record — and [`ChipMemories`], the memories that persist between runs.

use crate::fabric_config::{FabricLayout, RouterSpec};
use sim_core::Cycle;
use sim_noc::Dram;
use sim_params::Params;
use sim_tensix::hw::compute::state::ComputeSettings;
use sim_tensix::{BankTables, Compute, ComputeRole, CoreIdx, DataFormat, Dataflow, L1, Risc};
use soc_descriptors::{Chip, NocId};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A data-movement kernel body.
pub type DataflowFn = Arc<dyn for<'a, 'y> Fn(&'a mut Dataflow<'y>) + Send + Sync>;
/// A compute kernel body (run once per TRISC role).
pub type ComputeFn = Arc<dyn for<'a, 'y> Fn(&'a mut Compute<'y>) + Send + Sync>;

/// A kernel body.
#[derive(Clone)]
pub enum KernelBody {
    /// For BRISC/NCRISC.
    Dataflow(DataflowFn),
    /// For the TRISCs.
    Compute(ComputeFn),
}

/// What a run records besides its report.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Recording {
    /// A Chrome/Perfetto trace (`RunReport::trace_json`).
    pub trace: bool,
    /// One record per NoC packet (`NocReport::transfers`, bounded), e.g. for a tt-npe timeline.
    pub transfers: bool,
    /// NoC reads and writes move timing only: L1 and DRAM contents are not changed by transfers larger
    /// than a semaphore word (atomics, inline writes and semaphore-sized writes still apply), and compute
    /// kernels keep every cost and hand-off but skip the arithmetic of unpack, matmul and pack. For
    /// synthetic traffic whose data no kernel reads (data-movement benchmarks, trace replay) and for
    /// timing studies of ops whose result is not checked (gemm-bench), where computing the data would cost
    /// more than timing it.
    pub timing_only: bool,
}

/// A chip's Ethernet links and fabric routers in a mesh run.
#[derive(Debug, Clone, Default)]
pub struct Links {
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

/// A kernel of the program, with what every instance of it shares.
#[derive(Clone)]
pub struct PlannedKernel {
    /// The name (tt-metal's kernel path, or any label).
    pub name: String,
    /// The body.
    pub body: KernelBody,
    /// Its default NoC.
    pub noc: NocId,
    /// Compile-time args.
    pub compile: Vec<u32>,
    /// Named compile-time args.
    pub named: Vec<(String, u32)>,
    /// Defines.
    pub defines: Vec<(String, String)>,
    /// Compute settings (compute kernels only).
    pub compute: Option<ComputeSettings>,
    /// Unique runtime args by logical core.
    pub runtime_args: BTreeMap<(u32, u32), Vec<u32>>,
    /// Common runtime args.
    pub common_args: Vec<u32>,
}

/// One kernel on one core and RISC.
#[derive(Debug, Clone, Copy)]
pub struct PlannedInstance {
    /// Its core (workers first, row-major; then Ethernet channels).
    pub core: CoreIdx,
    /// Its RISC.
    pub risc: Risc,
    /// Index into [`RunPlan::kernels`].
    pub kernel: usize,
    /// Its role, for the three threads of a compute kernel.
    pub role: Option<ComputeRole>,
    /// When it starts (its core's launch).
    pub start: Cycle,
}

/// A circular buffer on some cores: every index it serves at one L1 address.
#[derive(Debug, Clone)]
pub struct PlannedCb {
    /// The cores it is on.
    pub cores: Vec<CoreIdx>,
    /// L1 address.
    pub addr: u32,
    /// Size in bytes.
    pub total_size: u32,
    /// `(CB index, page size, format)` of each index it serves.
    pub indices: Vec<(u8, u32, DataFormat)>,
}

/// A semaphore on some cores.
#[derive(Debug, Clone)]
pub struct PlannedSemaphore {
    /// The cores it is on.
    pub cores: Vec<CoreIdx>,
    /// L1 address.
    pub addr: u32,
    /// Initial value.
    pub initial: u32,
}

/// A checked, placed program: everything a chip needs to run it.
#[derive(Clone)]
pub struct RunPlan {
    /// The chip.
    pub chip: Arc<Chip>,
    /// Its parameters.
    pub params: std::sync::Arc<Params>,
    /// Interleaved bank tables and the NoC address encoding.
    pub tables: Arc<BankTables>,
    /// NoC0 tile of each Ethernet channel.
    pub eth_tiles: Vec<soc_descriptors::Noc0Coord>,
    /// The kernels.
    pub kernels: Vec<PlannedKernel>,
    /// Kernel instances in the scheduler's fixed order (core, then RISC).
    pub instances: Vec<PlannedInstance>,
    /// Cores running compute kernels.
    pub compute_cores: Vec<(CoreIdx, ComputeSettings)>,
    /// Circular buffers.
    pub cbs: Vec<PlannedCb>,
    /// Semaphores.
    pub semaphores: Vec<PlannedSemaphore>,
    /// Ethernet links and fabric routers (mesh runs).
    pub links: Links,
    /// What to record.
    pub recording: Recording,
    /// The program's number on its device.
    pub program_id: u32,
}

/// A chip's memories, which persist between runs: every worker core's L1, every Ethernet core's L1, DRAM.
pub struct ChipMemories {
    /// Worker cores' L1, row-major over the logical grid.
    pub l1: Vec<L1>,
    /// Ethernet cores' L1, by logical channel.
    pub eth_l1: Vec<L1>,
    /// DRAM.
    pub dram: Dram,
}
