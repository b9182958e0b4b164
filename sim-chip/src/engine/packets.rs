//! A NoC packet in flight as the engine keeps it ([`Xfer`], one cache line) and the memory a transfer
//! reads or writes ([`Mem`]): plain data, below the logic that moves them.

use sim_tensix::{AtomicOp, CoreIdx, Risc};
use soc_descriptors::{Noc0Coord, NocId};

/// A memory location reachable over the NoC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mem {
    /// A Tensix core's L1.
    L1 { core: CoreIdx, addr: u64 },
    /// A DRAM channel.
    Dram { channel: u32, addr: u64 },
}

impl Mem {
    pub(super) fn is_dram(&self) -> bool {
        matches!(self, Mem::Dram { .. })
    }
}

/// One in-flight packet (or multicast packet): what its events need, in one cache line (a full grid keeps
/// tens of thousands in flight, and each event finds its packet long out of cache). Its data and a
/// multicast's other destinations live beside it ([`ChipState::xfer_data`], [`ChipState::xfer_more`]).
#[derive(Debug, Clone)]
#[repr(align(64))]
pub(crate) struct Xfer {
    pub core: CoreIdx,
    pub risc: Risc,
    pub noc: NocId,
    pub posted: bool,
    /// Transaction id of a read or write (its per-id counters).
    pub trid: u8,
    pub src_tile: Noc0Coord,
    /// The (first) destination.
    pub dest: (Mem, Noc0Coord),
    pub l1_addr: u32,
    pub size: u32,
    pub op: Option<AtomicOp>,
    pub pending: u32,
    /// Index of this packet's [`TransferRecord`] ([`NO_RECORD`]: none kept).
    pub record: u32,
}

/// [`Xfer::record`] of a packet whose record is not kept.
pub(super) const NO_RECORD: u32 = u32::MAX;

const _: () = assert!(std::mem::size_of::<Xfer>() == 64, "a packet in flight fills one cache line");

impl Xfer {
    pub(super) fn record(&self) -> Option<u32> {
        (self.record != NO_RECORD).then_some(self.record)
    }
}
