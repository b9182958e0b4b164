//! The engine's bookkeeping for a stepped NoC model: each packet's token and what its movements mean
//! ([`Then`]), the events still to come, the wake-up scheduled — plain data, driven by `noc_steps.rs`.

use sim_core::Cycle;
use sim_noc::RouterEvent;

/// What a packet's movements mean to the engine.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Then {
    /// A read request of packet `0`: once it arrives, its source is read and the data sent back.
    ReadRequest(u32),
    /// A read's data: once it arrives, it lands in the requester's L1.
    ReadResponse(u32),
    /// A write or multicast: departs, lands at each destination.
    Write(u32),
    /// A write's acknowledgement.
    WriteAck(u32),
    /// An atomic: lands at its word.
    Atomic(u32),
    /// An atomic's acknowledgement.
    AtomicAck(u32),
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Pending {
    pub(crate) then: Then,
    /// Events still to come (`Started`, `Departed`, and per destination `FirstByte` and `Arrived`).
    pub(crate) left: u32,
    /// The earliest first byte at a destination so far.
    pub(crate) first: Cycle,
    /// The command buffer (read, write, atomic) it holds until its first flit leaves, if any.
    pub(crate) holds: Option<u8>,
    /// A read request: when its destination's NIU was booked to start serving it.
    pub(crate) booked: Cycle,
}

/// The engine's side of a stepped NoC model.
#[derive(Debug, Default)]
pub(crate) struct NocSteps {
    /// Whether the run's NoC model is stepped.
    pub(crate) on: bool,
    pub(crate) pending: Vec<Pending>,
    pub(crate) free: Vec<u32>,
    pub(crate) events: Vec<RouterEvent>,
    /// The earliest wake-up scheduled and not yet handled.
    pub(crate) wake: Option<Cycle>,
    /// The routers deadlocked (when noticed, where).
    pub(crate) stuck: Option<(Cycle, String)>,
    /// The token of the packet sent last.
    pub(crate) last: u64,
}

impl NocSteps {
    /// A token for a packet to `dests` destinations.
    pub fn token(&mut self, then: Then, dests: u32) -> u64 {
        let p = Pending { then, left: 2 + 2 * dests, first: Cycle(u64::MAX), holds: None, booked: Cycle::ZERO };
        let t = match self.free.pop() {
            Some(i) => {
                self.pending[i as usize] = p;
                i
            }
            None => {
                self.pending.push(p);
                self.pending.len() as u32 - 1
            }
        };
        self.last = t as u64;
        t as u64
    }

    /// The packet sent last belongs to `then` (a write learns its packet's id after sending).
    pub fn retarget_last(&mut self, then: Then) {
        self.pending[self.last as usize].then = then;
    }

    /// The read request sent last was booked to be served from `at`.
    pub fn booked_last(&mut self, at: Cycle) {
        self.pending[self.last as usize].booked = at;
    }

    /// The packet sent last holds command buffer `buf` until its first flit leaves.
    pub fn hold_last(&mut self, buf: u8) {
        self.pending[self.last as usize].holds = Some(buf);
    }
}
