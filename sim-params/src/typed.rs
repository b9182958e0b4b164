//! The typed parameters: one struct per part of the chip (`MemLayout`, `EthParams`, `FabricParams`, …)
//! gathered in [`Params`], the fixed memory-map constants, and [`ParamEntry`], one row of the table.

use sim_core::Cycles;
use sim_noc::{DramParams, NocParams};
use sim_tensix::ApiCosts;
use soc_descriptors::Arch;

/// The memory map of a core and DRAM bank, and the alignments of buffers and NoC transfers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemLayout {
    /// `L1_ALIGNMENT`, bytes: L1 buffers and their pages.
    pub l1_alignment: u32,
    /// `DRAM_ALIGNMENT`, bytes: DRAM buffers and their pages.
    pub dram_alignment: u32,
    /// NoC read alignment of L1, bytes.
    pub l1_read_alignment: u32,
    /// NoC read alignment of DRAM, bytes.
    pub dram_read_alignment: u32,
    /// NoC write alignment, bytes.
    pub write_alignment: u32,
    /// First L1 address above the reserved region, bytes.
    pub l1_unreserved_base: u32,
    /// L1 address of semaphore 0.
    pub semaphore_base: u32,
    /// L1 address of the runtime-arg slots ([`RUNTIME_ARG_SLOTS`] of [`RUNTIME_ARG_SLOT_BYTES`]).
    pub runtime_args_base: u32,
    /// L1 address of the fabric packet-header pools ([`PACKET_HEADER_POOL_SLOTS`] of
    /// [`PACKET_HEADER_POOL_SLOT_BYTES`]).
    pub packet_header_pool_base: u32,
    /// First allocatable DRAM address in every bank, bytes.
    pub dram_unreserved_base: u64,
    /// Number of CB indices per core.
    pub num_circular_buffers: u32,
}

/// Runtime-arg slots per core: RISCV_0, RISCV_1 and the compute kernel (its three TRISCs share one).
pub const RUNTIME_ARG_SLOTS: u32 = 3;
/// Bytes of one slot: up to 341 unique then 341 common words, rounded up to 16 bytes.
pub const RUNTIME_ARG_SLOT_BYTES: u32 = (2 * sim_tensix::RUNTIME_ARGS_SLOT_WORDS * 4).next_multiple_of(16);
/// Packet-header pools per core: one per data-movement RISC.
pub const PACKET_HEADER_POOL_SLOTS: u32 = 2;
/// Bytes of one RISC's packet-header pool.
pub const PACKET_HEADER_POOL_SLOT_BYTES: u32 =
    sim_tensix::PACKET_HEADERS_PER_RISC * sim_tensix::PACKET_HEADER_SLOT_BYTES;

/// Semaphores per core and the bytes each takes (tt-metal-api.md §1.4).
pub const SEMAPHORES: u32 = 16;
/// Bytes of one semaphore slot.
pub const SEMAPHORE_BYTES: u32 = 16;

/// Costs of replaying a recorded NoC trace.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReplayParams {
    /// Cycles a recorded NoC event costs its RISC when profiling was on.
    pub noc_event: Cycles,
    /// Cycles from a traced kernel's start to its first recorded NoC call.
    pub kernel_prologue: Cycles,
}

/// Program launch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DispatchParams {
    /// Slow dispatch: cycles between one core's launch and the next's.
    pub slow_core_interval: Cycles,
    /// Fast dispatch of a captured trace: cycles from one program's end to the next program's start (the
    /// dispatcher's launch of back-to-back programs; benchmarks that time op loops add it per op).
    pub program_launch: Cycles,
}

/// Ethernet cores and links.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EthParams {
    /// Line rate of one direction of one link, bytes per second.
    pub link_bytes_per_sec: u64,
    /// One-way latency of a link (Ethernet subsystems and wire), ns.
    pub latency_ns: u64,
    /// Payload bytes of one Ethernet frame (larger sends are split into frames).
    pub frame_payload_bytes: u32,
    /// Bytes each frame adds on the wire (headers, FEC, CRC).
    pub frame_overhead_bytes: u32,
    /// `ERISC_L1_UNRESERVED_BASE`: the first L1 byte Ethernet kernels may use.
    pub l1_unreserved_base: u32,
    /// End of the L1 region Ethernet kernels may use (`MAX_L1_LOADING_ADDR`).
    pub l1_kernel_top: u32,
    /// `ERISC_APP_SYNC_INFO_BASE`: the `erisc_info_t` sync block.
    pub app_sync_info_base: u32,
    /// L1 address of Ethernet semaphore 0 (`CreateSemaphore(…, CoreType::ETH)`,
    /// `get_semaphore<ProgrammableCoreType::ACTIVE_ETH>`), 16 B apart.
    pub semaphore_base: u32,
}

/// The fabric's routers (Ethernet data movers).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FabricParams {
    /// Largest payload of one fabric packet, bytes.
    pub max_payload_bytes: u32,
    /// Packet header of the 1-D (linear) fabric, bytes.
    pub header_bytes_1d: u32,
    /// Packet header of the 2-D (mesh) fabric, bytes.
    pub header_bytes_2d: u32,
    /// Buffer slots of a sender channel on a line fabric.
    pub line_sender_slots: u32,
    /// Buffer slots of the receiver channel on a line fabric.
    pub line_receiver_slots: u32,
    /// Buffer slots of a sender channel on a ring fabric.
    pub ring_sender_slots: u32,
    /// Buffer slots of the receiver channel on a ring fabric.
    pub ring_receiver_slots: u32,
    /// Buffer slots of each of the 4 sender channels of a 2-D fabric router.
    pub mesh_sender_slots: u32,
    /// Buffer slots of the receiver channel of a 2-D fabric router.
    pub mesh_receiver_slots: u32,
    /// ERISC cycles a router spends on one packet (check the slot, decode the header, issue the send).
    pub router_packet_cycles: Cycles,
    /// A collective op's fixed start: its launch on every chip and the workers opening their fabric
    /// connections, before the handshake that walks the line.
    pub op_launch: Cycles,
}

/// Limits of the simulation itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SimParams {
    /// Watchdog: a run still going past this many cycles is reported as a livelock.
    pub max_cycles: u64,
    /// Host stack per kernel thread, bytes.
    pub stack_bytes: usize,
    /// Let kernels run ahead of other cores in calls on their own core, by the NoC's minimum latency
    /// between tiles (`sim_core::agenda`): the same results with fewer kernel resumptions. Off while a
    /// Chrome trace is recorded, whose event order would change.
    pub lookahead: bool,
    /// Compute tile products on a helper host thread (`sim_tensix::hw::compute::offload`): 0 never, 1 when
    /// the host has a core to spare and no other simulation runs in this process, 2 always. Results and
    /// cycles are identical either way.
    pub math_thread: u32,
}

/// Every parameter of one chip.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Params {
    pub(crate) arch: Arch,
    /// AICLK, MHz.
    pub clock_mhz: u32,
    /// The NoCs and their endpoints.
    pub noc: NocParams,
    /// DRAM channels.
    pub dram: DramParams,
    /// Memory map and alignments.
    pub mem: MemLayout,
    /// Kernel API and compute-engine costs.
    pub api: ApiCosts,
    /// Trace replay costs.
    pub replay: ReplayParams,
    /// Program launch.
    pub dispatch: DispatchParams,
    /// Simulation limits.
    pub sim: SimParams,
    /// Ethernet.
    pub eth: EthParams,
    /// The fabric.
    pub fabric: FabricParams,
    /// Source note of every key, in [`keys::KEYS`] order.
    pub(crate) sources: Vec<String>,
}

/// One parameter as listed by [`Params::entries`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamEntry {
    /// The key.
    pub key: &'static str,
    /// Its value (for a named key, the index of its name).
    pub value: u64,
    /// A named key's value as its name (`noc.model`: `calendar`).
    pub name: Option<&'static str>,
    /// Its unit.
    pub unit: &'static str,
    /// The allowed values.
    pub allowed: String,
    /// Where the value comes from.
    pub source: String,
}
