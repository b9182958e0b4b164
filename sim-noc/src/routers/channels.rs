//! The router model's state: a flit, a channel with the input buffer at its far end and its sender's
//! credits, a packet's hops (its route or broadcast tree), an NIU's queues — and the credit and
//! round-robin rules every cycle applies to them.

use super::{RouterParams, VCS};
use std::collections::VecDeque;

#[derive(Debug, Clone, Copy)]
pub(super) struct Flit {
    pub(super) pkt: u32,
    /// The tree node (index into the packet's hops) whose channel it is on or buffered at the end of.
    pub(super) k: u16,
    /// Branches of that node that have taken a copy.
    pub(super) taken: u8,
}

/// One channel: a link, injection port or ejection port, with the input buffer at its far end. Laid out
/// by hand (`repr(C)`): what every cycle's passes read first, then the wire and credit queues, then the
/// per-VC state, the buffers last.
#[derive(Debug, Clone, Default)]
#[repr(C)]
pub(super) struct Chan {
    /// VCs whose buffer holds a flit (bit per VC).
    pub(super) full: u16,
    /// Input stage: the VC looked at first next.
    pub(super) in_rr: u8,
    /// Output stage: the input looked at first next.
    pub(super) out_rr: u8,
    /// Input stage result this cycle: the VC picked …
    pub(super) req_vc: u8,
    /// Whether the channel is on the live list.
    pub(super) live: bool,
    /// Whether a branch of its input's pick was granted this cycle.
    pub(super) granted: bool,
    /// Flits in the buffer.
    pub(super) held: u32,
    /// Sender side: flits sent beyond the VCs' guarantees and not yet credited back.
    pub(super) shared_used: u32,
    /// … and, per branch of its flit, the output asked for.
    pub(super) req: [Option<u32>; 3],
    /// … and the output VC each would take.
    pub(super) req_vo: [u8; 3],
    /// The last cycle its output stage ran.
    pub(super) arbitrated: u64,
    pub(super) lat: u64,
    /// Flits on the wire: when they reach the buffer, the flit, its VC.
    pub(super) wire: VecDeque<(u64, Flit, u8)>,
    pub(super) credit_back: VecDeque<(u64, u8)>,
    /// Sender side: flits per VC sent and not yet credited back.
    pub(super) out: [u32; VCS],
    /// Per output VC: the packet that owns it and the flits of it sent.
    pub(super) owner: [Option<(u32, u32)>; VCS],
    /// The router inputs feeding this channel (empty for an injection port).
    pub(super) ups: Vec<u32>,
    /// Cycles its input picked a VC whose flit could not move.
    pub(super) hol_cycles: u64,
    /// Sum over cycles of the flits in its buffer (occupancy × time), and when `held` last changed.
    pub(super) occupancy: u64,
    pub(super) since: u64,
    /// The far end's buffer, per VC.
    pub(super) buf: [VecDeque<Flit>; VCS],
}

#[derive(Debug, Clone)]
pub(super) struct Hop {
    pub(super) chan: u32,
    pub(super) vc: u8,
    pub(super) kids: [u16; 3],
    pub(super) nkids: u8,
    pub(super) dest: u16,
    pub(super) arrived: u32,
}

#[derive(Debug, Clone)]
pub(super) struct Packet {
    pub(super) hops: Vec<Hop>,
    pub(super) flits: u32,
    pub(super) ready: u64,
    pub(super) token: u64,
    /// Cycles its source NIU is busy with it (its serialisation at the NIU's injection rate; 0 for a
    /// one-flit packet that passes between others), and the part of that beyond one cycle per flit, which
    /// its tail pays on arrival; the extra latency of a packet to its own tile (its NIU turns it around).
    pub(super) ser: u64,
    pub(super) extra: u64,
    pub(super) turn: u64,
    pub(super) setup: u64,
    /// Destinations still to receive the tail.
    pub(super) left: u32,
    /// When the head left the source NIU.
    pub(super) start: u64,
    /// When the NIU took it up (a packet with a path reservation: `setup` cycles before its head).
    pub(super) takeup: u64,
}

#[derive(Debug, Clone, Default)]
pub(super) struct Niu {
    /// Request/data packets (command order) and responses (by ready time).
    pub(super) q: [VecDeque<u32>; 2],
    pub(super) sent: [u32; 2],
    pub(super) last: usize,
    /// Packets promised to start at their ready cycle (see [`RouterNoc::send`]).
    pub(super) promised: [bool; 2],
    /// The NIU takes the next paced packet's head no earlier than this (its injection rate).
    pub(super) free_at: u64,
    /// Whether the front packet of each queue, one with a path reservation, has been taken up.
    pub(super) taken: [bool; 2],
    pub(super) live: bool,
}

/// Whether VC `v` of channel `c` can take one more flit.
pub(super) fn has_credit(c: &Chan, v: usize, p: &RouterParams) -> bool {
    let o = c.out[v];
    o < p.reserved_flits || (o < p.vc_cap_flits && c.shared_used < p.shared_flits)
}

pub(super) fn take_credit(c: &mut Chan, v: usize, p: &RouterParams) {
    if c.out[v] >= p.reserved_flits {
        c.shared_used += 1;
    }
    c.out[v] += 1;
}

/// The first VC at or after `start` (round-robin) whose bit is set in `full` (not empty).
pub(super) fn pick(full: u16, start: u8) -> usize {
    let rot = full.rotate_right(start as u32);
    (rot.trailing_zeros() as usize + start as usize) % VCS
}
