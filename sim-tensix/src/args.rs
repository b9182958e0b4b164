//! What a kernel instance is given: runtime args (unique and common), compile-time args, named compile-time
//! args and defines, and where it runs.

use crate::addrgen::BankTables;
use crate::hw::risc::Risc;
use crate::kernel_host::CoreIdx;
use crate::params::ApiCosts;
use sim_core::FiberId;
use soc_descriptors::NocId;
use std::rc::Rc;
use std::sync::Arc;

/// The arguments of one kernel on one core.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KernelArgs {
    /// Unique runtime args of this core.
    pub runtime: Vec<u32>,
    /// Common runtime args of the kernel.
    pub common: Vec<u32>,
    /// Compile-time args.
    pub compile: Vec<u32>,
    /// Named compile-time args.
    pub named: Vec<(String, u32)>,
    /// Defines.
    pub defines: Vec<(String, String)>,
}

/// Everything fixed about one kernel instance (one kernel on one core and RISC).
#[derive(Debug, Clone)]
pub struct KernelInstance {
    /// The kernel's name (its tt-metal path or the name given at creation).
    pub name: String,
    /// The fiber running it.
    pub fiber: FiberId,
    /// Its core.
    pub core: CoreIdx,
    /// Its RISC.
    pub risc: Risc,
    /// `noc_index`: its default NoC.
    pub noc: NocId,
    /// Logical coordinates of the core.
    pub logical: (u32, u32),
    /// The core's own NoC coordinates as kernels use them (translated).
    pub noc_xy: (u32, u32),
    /// L1 address of semaphore 0 on worker cores (`get_semaphore<ProgrammableCoreType::TENSIX>`).
    pub sem_base: u32,
    /// L1 address of semaphore 0 on Ethernet cores (`get_semaphore<ProgrammableCoreType::ACTIVE_ETH>`).
    pub eth_sem_base: u32,
    /// L1 address of this kernel's runtime-arg slot (its unique args, then its common args
    /// [`RUNTIME_ARGS_SLOT_WORDS`] words on), where `get_arg_addr` points; `None` on Ethernet cores.
    pub args_l1: Option<u32>,
    /// L1 address of this kernel's fabric packet-header pool ([`PACKET_HEADERS_PER_RISC`] slots of
    /// [`PACKET_HEADER_SLOT_BYTES`]); `None` where a RISC has none (compute, Ethernet cores).
    pub header_pool_l1: Option<u32>,
    /// Arguments.
    pub args: KernelArgs,
    /// Interleaved bank tables (and the chip's NoC address encoding).
    pub tables: Arc<BankTables>,
    /// API costs.
    pub costs: Rc<ApiCosts>,
    /// `NOC_MAX_BURST_SIZE` in bytes.
    pub max_burst: u32,
    /// Number of CB indices.
    pub num_cbs: u32,
    /// Read packets or non-posted write packets a RISC may have in flight per NoC.
    pub max_outstanding: u32,
    /// Compute configuration (compute kernels only).
    pub compute: Option<crate::hw::compute::state::ComputeSettings>,
    /// The run's watchdog: past this cycle the kernel hands control back on every synchronisation.
    pub max_cycles: u64,
    /// What the kernel synchronises against: the run's pending events and kernels, and the lookahead.
    pub sync: std::rc::Rc<sim_core::SyncView>,
    /// Set for a kernel on an Ethernet core.
    pub eth: Option<EthInfo>,
}

/// Where an Ethernet kernel runs and the Ethernet core's memory map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EthInfo {
    /// The core's logical Ethernet channel.
    pub channel: u32,
    /// `ERISC_APP_SYNC_INFO_BASE`: the `erisc_info_t` block (16 B header, then one 16 B sync word per
    /// channel).
    pub sync_base: u32,
    /// `ERISC_L1_UNRESERVED_BASE`: the first byte kernels may use.
    pub unreserved_base: u32,
}

/// Concurrent transaction channels of `erisc_info_t` (`MAX_NUM_CONCURRENT_TRANSACTIONS`).
pub const ETH_SYNC_CHANNELS: u32 = 8;

/// Words between a kernel's unique and its common runtime args in L1: tt-metal's limit of 341 runtime
/// args per kernel (tt-metal-api.md §1.7).
pub const RUNTIME_ARGS_SLOT_WORDS: u32 = 341;

/// Bytes of one fabric packet header slot of a RISC's header pool: the largest header a fabric may be
/// configured with (the 2-D header with 67 route bytes, multichip.md §4.4).
pub const PACKET_HEADER_SLOT_BYTES: u32 = 128;
/// Headers `PacketHeaderPool::allocate_header` gives one data-movement RISC.
pub const PACKET_HEADERS_PER_RISC: u32 = 12;

impl EthInfo {
    /// L1 address of sync channel `ch`'s `bytes_sent` word (`receiver_ack` follows it).
    pub fn channel_addr(&self, ch: u32) -> u32 {
        self.sync_base + 16 + 16 * ch
    }
}

/// A 4-byte runtime-arg value type (`get_arg_val<T>`).
pub trait ArgValue {
    /// Reinterpret the arg's 32 bits.
    fn from_arg_bits(bits: u32) -> Self;
}
impl ArgValue for u32 {
    fn from_arg_bits(bits: u32) -> Self {
        bits
    }
}
impl ArgValue for i32 {
    fn from_arg_bits(bits: u32) -> Self {
        bits as i32
    }
}
impl ArgValue for f32 {
    fn from_arg_bits(bits: u32) -> Self {
        f32::from_bits(bits)
    }
}
