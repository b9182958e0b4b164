//! The narrow interface through which a kernel running on a Tensix core reaches everything outside its
//! own RISC: the event queue (to synchronise), its core's shared state, the NoC, and reporting. sim-device
//! implements it for the whole chip; sim-tensix never sees the NoC model itself.

use crate::core::{TensixCore, Waiter};
use crate::risc::Risc;
use sim_core::{Cycle, Cycles, EventKey, FiberId, TraceArg};
use soc_descriptors::NocId;

/// Index of a Tensix core within a run (dense, row-major over the logical grid).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CoreIdx(pub u32);

/// One NoC read packet: `size` bytes (at most one burst) from NoC address `src` into local L1 `dst_l1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadReq {
    /// Issuing core.
    pub core: CoreIdx,
    /// Issuing RISC.
    pub risc: Risc,
    /// NoC used.
    pub noc: NocId,
    /// Source NoC address (coordinates + local address).
    pub src: u64,
    /// Destination in the issuing core's L1.
    pub dst_l1: u32,
    /// Bytes (≤ NOC_MAX_BURST_SIZE).
    pub size: u32,
}

/// Multicast parameters of a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct McastReq {
    /// `num_dests` as the kernel passed it.
    pub num_dests: u32,
    /// The sender is also a destination (`_loopback_src`).
    pub loopback: bool,
    /// Linked: keep the path reserved for the next multicast.
    pub linked: bool,
}

/// One NoC write packet from local L1 `src_l1` to `dst` (unicast address, or multicast rectangle address).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteReq {
    /// Issuing core.
    pub core: CoreIdx,
    /// Issuing RISC.
    pub risc: Risc,
    /// NoC used.
    pub noc: NocId,
    /// Source in the issuing core's L1.
    pub src_l1: u32,
    /// Destination NoC address (multicast encoding when `mcast` is set).
    pub dst: u64,
    /// Bytes (≤ NOC_MAX_BURST_SIZE).
    pub size: u32,
    /// Posted writes are not acknowledged.
    pub posted: bool,
    /// Multicast parameters.
    pub mcast: Option<McastReq>,
}

/// What an atomic NoC operation does at its destination word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtomicOp {
    /// Add (32-bit wrap): `noc_semaphore_inc`.
    Inc(u32),
    /// Store a value from a register: `noc_inline_dw_write`.
    Store(u32),
}

/// One atomic/inline NoC operation on a 4-byte word at `dst`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AtomicReq {
    /// Issuing core.
    pub core: CoreIdx,
    /// Issuing RISC.
    pub risc: Risc,
    /// NoC used.
    pub noc: NocId,
    /// Destination NoC address.
    pub dst: u64,
    /// The operation.
    pub op: AtomicOp,
    /// Posted operations are not acknowledged.
    pub posted: bool,
}

/// The chip as a kernel sees it.
pub trait KernelHost {
    /// Key of the earliest pending event (for [`sim_core::FiberClock::sync`]).
    fn queue_head(&self) -> Option<EventKey>;
    /// A core's shared state.
    fn core(&self, c: CoreIdx) -> &TensixCore;
    /// A core's shared state, mutably. Callers must [`KernelHost::notify`] after changing it.
    fn core_mut(&mut self, c: CoreIdx) -> &mut TensixCore;
    /// Wake every kernel of core `c` whose wait condition now holds (at `now` + its latency).
    fn notify(&mut self, c: CoreIdx, now: Cycle);
    /// Register `w` as blocked on core `c` from `now`.
    fn block(&mut self, c: CoreIdx, w: Waiter, now: Cycle);
    /// Issue one read packet at `now`; returns when the issuing RISC may continue.
    fn noc_read(&mut self, r: ReadReq, now: Cycle) -> Result<Cycle, String>;
    /// Issue one write packet at `now`; returns when the issuing RISC may continue.
    fn noc_write(&mut self, w: WriteReq, now: Cycle) -> Result<Cycle, String>;
    /// Issue one atomic/inline operation at `now`; returns when the issuing RISC may continue.
    fn noc_atomic(&mut self, a: AtomicReq, now: Cycle) -> Result<Cycle, String>;
    /// Whether a timeline is being recorded.
    fn tracing(&self) -> bool;
    /// Record a slice on `fiber`'s track.
    fn trace_slice(
        &mut self,
        fiber: FiberId,
        name: &str,
        cat: &'static str,
        start: Cycle,
        end: Cycle,
        args: Vec<(String, TraceArg)>,
    );
    /// Record an instant on `fiber`'s track.
    fn trace_instant(
        &mut self,
        fiber: FiberId,
        name: &str,
        cat: &'static str,
        at: Cycle,
        args: Vec<(String, TraceArg)>,
    );
    /// A debug print from a kernel.
    fn dprint(&mut self, fiber: FiberId, at: Cycle, text: String);
    /// A kernel ran from `start` to `end`, blocked for `blocked`, making `api_calls` API calls.
    fn finished(&mut self, fiber: FiberId, start: Cycle, end: Cycle, blocked: Cycles, api_calls: u64);
    /// A warning about a kernel's use of the API (reported once per kind and kernel).
    fn warn(&mut self, fiber: FiberId, text: String);
    /// A named zone `[start, end)` of a kernel (profiler zones).
    fn zone(&mut self, fiber: FiberId, name: &str, start: Cycle, end: Cycle);
}
