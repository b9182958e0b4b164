//! The narrow interface through which a kernel running on a Tensix core reaches everything outside its
//! own RISC: the event queue (to synchronise), its core's shared state, the NoC, and reporting. sim-device
//! implements it for the whole chip; sim-tensix never sees the NoC model itself.

use crate::hw::core::{TensixCore, Touched, Waiter};
use crate::hw::l1::L1OutOfRange;
use crate::hw::risc::Risc;
use sim_core::{Cycle, Cycles, FiberId, TraceArg};
use soc_descriptors::NocId;
use std::fmt;

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
    /// Transaction id (0..=15) the read command buffer tags it with.
    pub trid: u8,
    /// The static VC number of the request (0..=3; tt-metal's `NOC_UNICAST_WRITE_VC` unless told
    /// otherwise).
    pub vc: u8,
}

/// tt-metal's default VC number for unicast writes and read requests (`NOC_UNICAST_WRITE_VC`).
pub const NOC_UNICAST_WRITE_VC: u8 = 1;

/// What a host returns for a NoC command whose start is not yet known (a NoC model that times packets as
/// they move): the command buffer stays busy until the host says it started
/// ([`crate::hw::core::NocCounters::cmd_pending`]).
pub const CMD_PENDING: Cycle = Cycle(u64::MAX);

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
    /// Transaction id (0..=15) the write command buffer tags it with.
    pub trid: u8,
    /// The static VC number of a unicast write (0..=3; multicasts use their own class).
    pub vc: u8,
}

/// What an atomic NoC operation does at its destination word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtomicOp {
    /// Add (32-bit wrap): `noc_semaphore_inc`.
    Inc(u32),
    /// Store a value from a register: `noc_inline_dw_write`; only the bytes whose bit is set in
    /// `byte_enable` (bit i: byte i of the word) are written.
    Store { val: u32, byte_enable: u8 },
}

impl AtomicOp {
    /// A store of the whole word.
    pub fn store(val: u32) -> AtomicOp {
        AtomicOp::Store { val, byte_enable: 0xF }
    }

    /// The word after the operation, given the word before.
    pub fn apply(self, old: u32) -> u32 {
        match self {
            AtomicOp::Inc(v) => old.wrapping_add(v),
            AtomicOp::Store { val, byte_enable } => {
                let mask = (0..4).filter(|b| byte_enable >> b & 1 == 1).fold(0u32, |m, b| m | 0xFF << (8 * b));
                (old & !mask) | (val & mask)
            }
        }
    }
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
    /// The VC number the packet travels on (static, as a unicast write's).
    pub vc: u8,
    /// A multicast atomic (`noc_semaphore_inc_multicast`): `dst` is a rectangle address; one packet along the
    /// broadcast tree, the operation at every core of it, one acknowledgement from each.
    pub mcast: Option<McastReq>,
}

/// One Ethernet send command (`eth_send_packet`): `size` bytes of the Ethernet core's L1 at `src_l1` to
/// `dst_l1` in the L1 of the Ethernet core at the other end of its link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EthSend {
    /// The sending Ethernet core.
    pub core: CoreIdx,
    /// Its logical channel.
    pub channel: u32,
    /// Source in the sender's L1.
    pub src_l1: u32,
    /// Destination in the receiver's L1.
    pub dst_l1: u32,
    /// Bytes.
    pub size: u32,
}

/// Why an Ethernet send was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EthError {
    /// The channel has no link to a chip of the run.
    Unlinked {
        /// The channel.
        channel: u32,
    },
    /// A source or destination range outside the Ethernet core's L1.
    Range {
        /// `source` or `destination`.
        side: &'static str,
        /// The bounds problem.
        err: L1OutOfRange,
    },
    /// This host has no Ethernet (a test host).
    NoEthernet,
}

impl fmt::Display for EthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EthError::Unlinked { channel } => write!(
                f,
                "Ethernet channel {channel} has no link to another chip of this run (run the program on a mesh whose chips this channel connects)"
            ),
            EthError::Range { side, err } => write!(f, "{side}: {err} of the Ethernet core"),
            EthError::NoEthernet => write!(f, "this chip has no Ethernet model"),
        }
    }
}

impl std::error::Error for EthError {}

/// Why the chip refused a NoC transaction; the kernel's error names the call and adds this.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NocError {
    /// The coordinate is not a tile of this chip.
    NotATile {
        /// NoC x as the kernel gave it.
        x: u32,
        /// NoC y as the kernel gave it.
        y: u32,
        /// The chip's architecture name.
        arch: &'static str,
    },
    /// A Tensix tile that harvesting removed.
    Harvested {
        /// NoC x.
        x: u32,
        /// NoC y.
        y: u32,
    },
    /// A tile kind tensim does not model as an endpoint (ARC, PCIe, router-only…).
    Unmodelled {
        /// NoC x.
        x: u32,
        /// NoC y.
        y: u32,
        /// The tile's kind.
        kind: &'static str,
        /// NoC0 coordinate of the tile.
        noc0: soc_descriptors::Noc0Coord,
    },
    /// A remote L1 range outside L1.
    RemoteL1 {
        /// The bounds problem.
        err: L1OutOfRange,
        /// Logical coordinate of the core.
        core: (u32, u32),
        /// NoC coordinate as given.
        xy: (u32, u32),
    },
    /// A DRAM range outside its channel.
    Dram {
        /// First byte.
        addr: u64,
        /// One past the last byte.
        end: u64,
        /// Channel size.
        size: u64,
        /// Channel.
        channel: u32,
        /// NoC coordinate as given.
        xy: (u32, u32),
    },
    /// The issuing core's own L1 range (`source` or `destination`) is outside L1.
    Local {
        /// Which side.
        side: &'static str,
        /// The bounds problem.
        err: L1OutOfRange,
    },
    /// A read whose source and destination differ modulo the read alignment.
    MisalignedRead {
        /// `L1` or `DRAM`.
        kind: &'static str,
        /// Source address.
        src: u64,
        /// Destination L1 address.
        dst: u32,
        /// Alignment, bytes.
        align: u64,
    },
    /// A write whose source and destination differ modulo the write alignment.
    MisalignedWrite {
        /// Source L1 address.
        src: u32,
        /// Destination address.
        dst: u64,
        /// Alignment, bytes.
        align: u64,
    },
    /// A multicast corner that is not a Tensix tile.
    McastCorner {
        /// NoC x.
        x: u32,
        /// NoC y.
        y: u32,
        /// The tile's kind, when it is a tile.
        kind: Option<&'static str>,
    },
    /// The multicast rectangle holds no worker.
    McastEmpty {
        /// The rectangle as given.
        rect: (u32, u32, u32, u32),
    },
    /// A multicast destination range outside L1.
    McastDest(L1OutOfRange),
    /// An atomic aimed at DRAM.
    AtomicOnDram {
        /// NoC x.
        x: u32,
        /// NoC y.
        y: u32,
    },
    /// An atomic on an address that is not 4-byte aligned.
    AtomicMisaligned {
        /// The address.
        addr: u64,
    },
}

impl fmt::Display for NocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NocError::NotATile { x, y, arch } => write!(
                f,
                "NoC coordinate ({x},{y}) is not a tile of this {arch} (hard-coded coordinates differ between \
                 chips: take them from the host's worker_core_from_logical_core or an address generator)"
            ),
            NocError::Harvested { x, y } => write!(f, "NoC coordinate ({x},{y}) is a harvested Tensix core"),
            NocError::Unmodelled { x, y, kind, noc0 } => write!(
                f,
                "NoC coordinate ({x},{y}) is a {kind} tile (NoC0 {noc0}); tensim models Tensix L1 and DRAM endpoints \
                 (hard-coded coordinates differ between chips)"
            ),
            NocError::RemoteL1 { err, core, xy } => {
                write!(f, "{err} of core ({},{}) [NoC ({},{})]", core.0, core.1, xy.0, xy.1)
            }
            NocError::Dram { addr, end, size, channel, xy } => write!(
                f,
                "DRAM access [{addr:#x}, {end:#x}) is outside the {size}-byte channel {channel} at NoC ({},{})",
                xy.0, xy.1
            ),
            NocError::Local { side, err } => write!(f, "{side}: {err}"),
            NocError::MisalignedRead { kind, src, dst, align } => write!(
                f,
                "misaligned NoC read: source {kind} address {src:#x} and destination L1 address {dst:#x} differ modulo \
                 {align} (NOC_{kind}_READ_ALIGNMENT_BYTES); align both to {align} bytes"
            ),
            NocError::MisalignedWrite { src, dst, align } => write!(
                f,
                "misaligned NoC write: source L1 address {src:#x} and destination address {dst:#x} differ modulo \
                 {align} (NOC_WRITE_ALIGNMENT_BYTES); align both to {align} bytes"
            ),
            NocError::McastCorner { x, y, kind: None } => {
                write!(f, "multicast corner ({x},{y}) is not a tile of this chip")
            }
            NocError::McastCorner { x, y, kind: Some(k) } => {
                write!(f, "multicast corner ({x},{y}) is a {k} tile; multicast rectangles are of Tensix cores")
            }
            NocError::McastEmpty { rect } => write!(
                f,
                "the multicast rectangle ({},{})-({},{}) holds no Tensix worker",
                rect.0, rect.1, rect.2, rect.3
            ),
            NocError::McastDest(e) => write!(f, "multicast destination: {e}"),
            NocError::AtomicOnDram { x, y } => {
                write!(f, "NoC ({x},{y}) is DRAM; semaphores, atomics and inline writes work on Tensix L1 words")
            }
            NocError::AtomicMisaligned { addr } => write!(f, "L1 word address {addr:#x} is not 4-byte aligned"),
        }
    }
}

impl std::error::Error for NocError {}

/// The chip as a kernel sees it.
pub trait KernelHost {
    /// A core's shared state.
    fn core(&self, c: CoreIdx) -> &TensixCore;
    /// A core's shared state, mutably. Callers must [`KernelHost::notify`] after changing it.
    fn core_mut(&mut self, c: CoreIdx) -> &mut TensixCore;
    /// Wake every kernel of core `c` whose wait condition now holds, after an update at `now` by the
    /// kernel at scheduler key `by` ([`TensixCore::take_ready`] says when each goes on).
    fn notify(&mut self, c: CoreIdx, now: Cycle, by: sim_core::OrderKey);
    /// [`KernelHost::notify`] after an update that changed only what `touched` names
    /// ([`TensixCore::take_ready_after`]).
    fn notify_touched(&mut self, c: CoreIdx, now: Cycle, by: sim_core::OrderKey, touched: Touched) {
        let _ = touched;
        self.notify(c, now, by);
    }
    /// Register `w` as blocked on core `c` from `now`.
    fn block(&mut self, c: CoreIdx, w: Waiter, now: Cycle);
    /// Nothing is pending in this chip's schedule besides the running kernel: no event, no other kernel
    /// due to resume. (Only the running kernel can then change anything in the chip.)
    fn nothing_pending(&self) -> bool {
        false
    }
    /// Issue one read packet at `now`; returns when the issuing RISC may continue.
    fn noc_read(&mut self, r: ReadReq, now: Cycle) -> Result<Cycle, NocError>;
    /// Issue one write packet at `now`; returns when the issuing RISC may continue.
    fn noc_write(&mut self, w: WriteReq, now: Cycle) -> Result<Cycle, NocError>;
    /// Issue one atomic/inline operation at `now`; returns when the issuing RISC may continue.
    fn noc_atomic(&mut self, a: AtomicReq, now: Cycle) -> Result<Cycle, NocError>;
    /// Issue one Ethernet send command at `now` (the transmit queue is free); returns when the ERISC may
    /// continue.
    fn eth_send(&mut self, s: EthSend, now: Cycle) -> Result<Cycle, EthError> {
        let _ = (s, now);
        Err(EthError::NoEthernet)
    }
    /// When the transmit queue of Ethernet channel `channel` is next free (`eth_txq_is_busy` until then).
    fn eth_txq_free(&self, channel: u32) -> Cycle {
        let _ = channel;
        Cycle::ZERO
    }
    /// Whether a timeline is being recorded.
    fn tracing(&self) -> bool;
    /// Whether kernels move and compute data (false in timing-only runs: unpack, math and pack keep their
    /// costs and hand-offs but skip the arithmetic, and L1 keeps whatever it held).
    fn moves_data(&self) -> bool {
        true
    }
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
    /// A timestamped value a kernel logged (`DeviceTimestampedData(name, data)`, `DeviceRecordEvent`).
    fn timestamped_data(&mut self, fiber: FiberId, name: &str, data: u64, at: Cycle);
}
