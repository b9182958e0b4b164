//! The vocabulary of a NoC model that times packets as it moves them rather than when they are issued
//! ([`crate::timing::NocTiming::stepped`]; the router model): what the engine sends, what it hears back,
//! and the calls it makes in time order. Also the VC numbers tt-metal gives each kind of packet.

use crate::topology::TreeNode;
use sim_core::{Cycle, Cycles};
use soc_descriptors::{Noc0Coord, NocId};

/// The VC number of responses (read data, acknowledgements): class 11, buddy 0.
pub const RESPONSE_VC: u8 = 6;
/// The VC number tt-metal gives multicast writes (class 10).
pub const MULTICAST_VC: u8 = 4;
/// The VC number tt-metal gives unicast writes and read requests unless told otherwise.
pub const UNICAST_VC: u8 = 1;

/// A packet to send: from `src`'s NIU on `noc` to `dests` (one, or a multicast's over `tree`).
#[derive(Debug, Clone)]
pub struct Outgoing<'a> {
    /// The NoC.
    pub noc: NocId,
    /// The source tile.
    pub src: Noc0Coord,
    /// The destinations (a multicast's in the engine's order).
    pub dests: &'a [Noc0Coord],
    /// The broadcast tree of a multicast (`None`: a unicast to `dests[0]`).
    pub tree: Option<&'a [TreeNode]>,
    /// Payload bytes (0: a one-flit packet: read request, acknowledgement, atomic).
    pub payload: u32,
    /// No earlier than this.
    pub ready: Cycle,
    /// VC number (0..8).
    pub vc: u8,
    /// Whether the packet holds its NIU for its serialisation at the injection rate (data, atomics);
    /// otherwise it is one flit that passes between others (read requests, acknowledgements).
    pub paced: bool,
    /// Cycles the NIU spends on it before its head may leave (an unlinked multicast reserving its path):
    /// the NIU takes it up when free, no earlier than `ready`, and is busy for `setup` and then its
    /// serialisation.
    pub setup: u64,
    /// The engine's token, returned in every [`RouterEvent`].
    pub token: u64,
}

/// What the engine hears about a packet (`token` is the engine's, given with the [`Outgoing`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RouterEvent {
    /// The engine's token for the packet.
    pub token: u64,
    /// When it happened.
    pub at: Cycle,
    /// What happened.
    pub what: Happened,
}

/// See [`RouterEvent`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Happened {
    /// The NIU took the command up: its head left, or, for a packet with a path reservation, the NIU
    /// started reserving (the command buffer takes the next command).
    Started,
    /// The tail flit left the source NIU (the source data may be reused).
    Departed,
    /// The head reached destination `dest` (index in the packet's destination list).
    FirstByte(u16),
    /// The whole packet reached destination `dest`.
    Arrived(u16),
}

/// A NoC model stepped through time by the engine.
///
/// Contract: the engine calls [`SteppedNoc::advance`] with non-decreasing times before it acts at a cycle,
/// sends packets ready no earlier than the last `advance` time, and wakes the model the cycle after
/// [`SteppedNoc::next_activity`]. A [`Happened::Started`] is reported by the `advance` that passes it (the
/// engine frees the command buffer when it hears it); a departure, first byte or arrival may be reported
/// earlier, as soon as the model knows its time (the flit-level routers report an arrival with a fixed
/// latency still to come, the packet-level model every one of them when the head takes its last channel):
/// the engine acts on each at its time. A packet's first byte is reported before its arrival.
pub trait SteppedNoc {
    /// Queue a packet; returns when the NIU takes it up if that is already certain (the command buffer is
    /// free again then), otherwise the engine waits for [`Happened::Started`].
    fn send(&mut self, s: Outgoing<'_>) -> Option<Cycle>;
    /// Step through every cycle before `until`; what happened is appended to `out`.
    fn advance(&mut self, until: Cycle, out: &mut Vec<RouterEvent>);
    /// The next cycle in which the model has something to do.
    fn next_activity(&self) -> Option<Cycle>;
    /// A read request from `src` to `dst`'s NIU, issued at `now`, that the NIU serves for `serve` cycles,
    /// one at a time: (when the request may leave, when its service is booked to start).
    fn book_serve(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, now: Cycle, serve: Cycles) -> (Cycle, Cycle);
    /// Flits have been waiting without any moving for so long that the routers must be deadlocked:
    /// where, for the error report. (`None` while anything moves.)
    fn stuck(&self) -> Option<String>;
}
