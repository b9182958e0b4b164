//! The router model's state: a flit, a channel (the input buffer at its far end, whose flits live in one
//! pool of rings, and counts of what is on its wire and on its way back as credits; those travel on the
//! model's timing wheels), its sender's credits and VC owners, an output's arbitration
//! record, a packet's hops (its route or broadcast tree), an NIU's queues — and the credit and round-robin
//! rules every cycle applies to them.

use super::{RouterParams, VCS};
use std::collections::VecDeque;

#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Flit {
    pub(super) pkt: u32,
    /// The channel of the tree node's first branch (valid when `nkids` > 0), so that a router input can
    /// ask whether a flit with one way on can move without reading its packet.
    pub(super) next: u32,
    /// The tree node (index into the packet's hops) whose channel it is on or buffered at the end of.
    pub(super) k: u16,
    /// Branches of that node, and those that have taken a copy.
    pub(super) nkids: u8,
    pub(super) taken: u8,
    /// The VC the first branch asks for.
    pub(super) next_vc: u8,
    /// Whether it is its packet's last flit.
    pub(super) tail: bool,
}

/// One channel: a link, injection port or ejection port, with the input buffer at its far end. Laid out
/// by hand (`repr(C)`): what every cycle's passes read first, then the wire and credit counts, then the
/// per-VC state, the buffers last.
#[derive(Debug, Clone)]
#[repr(C)]
pub(super) struct Chan {
    /// VCs whose buffer holds a flit (bit per VC).
    pub(super) full: u16,
    /// Input stage: the VC looked at first next.
    pub(super) in_rr: u8,
    /// Whether the channel is on the live list.
    pub(super) live: bool,
    /// Whether its input is asleep: with blind VC arbitration, its buffer holds flits of one VC only and the
    /// first of them, a flit with one way on, cannot move on `sleep_on` (no credit, or the VC belongs to
    /// another packet). Until that channel's sender state changes or a flit of another VC arrives, every
    /// cycle would pick that VC and lose (a head-of-line cycle) without changing anything, so the routers'
    /// pass skips it and counts the cycle.
    pub(super) asleep: bool,
    /// Flits in the buffer.
    pub(super) held: u32,
    /// Cycles a flit takes on its wire (at least one).
    pub(super) lat: u64,
    /// Flits on its wire, and credits on their way back to its sender (both on the timing wheels).
    pub(super) on_wire: u32,
    pub(super) credits_back: u32,
    /// Cycles its input picked a VC whose flit could not move.
    pub(super) hol_cycles: u64,
    /// Sum over cycles of the flits in its buffer (occupancy × time), and when `held` last changed.
    pub(super) occupancy: u64,
    pub(super) since: u64,
    /// The far end's buffer, per VC: a ring in the pool ([`Rings`]) at `ring + v·cap`, its first flit at
    /// `head[v]`, `len[v]` flits.
    pub(super) head: [u16; VCS],
    pub(super) len: [u16; VCS],
    /// Where this channel's rings start in the pool ([`NO_RING`]: not yet placed), and their size.
    pub(super) ring: u32,
    pub(super) ring_cap: u16,
    /// The channel its input sleeps on (valid while `asleep`).
    pub(super) sleep_on: u32,
}

/// What arrives in a cycle, bucketed by arrival cycle modulo a power of two larger than every latency
/// (a timing wheel): a step takes its cycle's bucket whole instead of looking at every channel's queues.
#[derive(Debug, Clone)]
pub(super) struct Wheel<T> {
    buckets: Vec<Vec<T>>,
    mask: u64,
    /// Entries in all buckets.
    pub(super) len: u64,
}

impl<T> Wheel<T> {
    /// A wheel for entries due at most `max_lat` cycles after they are added.
    pub(super) fn new(max_lat: u64) -> Wheel<T> {
        let n = max_lat.saturating_add(1).max(2).next_power_of_two();
        Wheel { buckets: (0..n).map(|_| Vec::new()).collect(), mask: n - 1, len: 0 }
    }

    /// Add `t`, due at cycle `at` (after the current one, at most `max_lat` cycles on).
    #[inline]
    pub(super) fn push(&mut self, at: u64, t: T) {
        self.buckets[(at & self.mask) as usize].push(t);
        self.len += 1;
    }

    /// Take the entries due at cycle `at` (the caller hands the vector back with [`Wheel::put_back`]).
    #[inline]
    pub(super) fn take(&mut self, at: u64) -> Vec<T> {
        let v = std::mem::take(&mut self.buckets[(at & self.mask) as usize]);
        self.len -= v.len() as u64;
        v
    }

    /// Return a bucket's (emptied) vector so its allocation is reused.
    #[inline]
    pub(super) fn put_back(&mut self, at: u64, mut v: Vec<T>) {
        v.clear();
        let b = &mut self.buckets[(at & self.mask) as usize];
        if b.is_empty() && b.capacity() < v.capacity() {
            *b = v;
        }
    }

    /// The first cycle from `from` on with entries due, when every entry is due at `from` or later
    /// (`None`: the wheel is empty).
    pub(super) fn next_due(&self, from: u64) -> Option<u64> {
        if self.len == 0 {
            return None;
        }
        (0..=self.mask).map(|d| from + d).find(|&t| !self.buckets[(t & self.mask) as usize].is_empty())
    }
}

/// No packet owns the output VC.
pub(super) const NO_OWNER: u32 = u32::MAX;
/// A channel whose rings are not placed yet.
pub(super) const NO_RING: u32 = u32::MAX;

/// The flits of every input buffer, in one pool: each channel that ever holds a flit gets a ring per VC, all
/// of one size (a power of two) that starts small and doubles when a VC needs more (the channel's rings move
/// to the end of the pool; the space they left is not reused, so a channel takes at most twice its largest
/// rings). A VC never holds more flits than its sender has credits for, at most min(`vc_cap_flits`,
/// `reserved_flits` + `shared_flits`), so the rings never grow past that bound rounded up.
#[derive(Debug, Clone)]
pub(super) struct Rings {
    pool: Vec<Flit>,
    max_cap: u32,
}

/// Flits per VC a channel's rings start with.
const FIRST_RING: u32 = 4;

impl Rings {
    pub(super) fn new(p: &RouterParams) -> Rings {
        let bound = p.vc_cap_flits.min(p.reserved_flits.saturating_add(p.shared_flits)).max(1);
        Rings { pool: Vec::new(), max_cap: bound.next_power_of_two() }
    }

    #[inline]
    fn at(&self, c: &Chan, v: usize, i: u32) -> usize {
        let cap = c.ring_cap as u32;
        c.ring as usize + v * cap as usize + ((c.head[v] as u32 + i) & (cap - 1)) as usize
    }

    /// The first flit of VC `v` of `c` (which holds one).
    #[inline]
    pub(super) fn front(&self, c: &Chan, v: usize) -> Flit {
        debug_assert!(c.len[v] > 0);
        self.pool[self.at(c, v, 0)]
    }

    /// The first flit of VC `v` of `c` (which holds one), to update.
    #[inline]
    pub(super) fn front_mut(&mut self, c: &Chan, v: usize) -> &mut Flit {
        debug_assert!(c.len[v] > 0);
        let i = self.at(c, v, 0);
        &mut self.pool[i]
    }

    /// Append `f` to VC `v` of `c`.
    #[inline]
    pub(super) fn push(&mut self, c: &mut Chan, v: usize, f: Flit) {
        if c.len[v] as u32 == c.ring_cap as u32 {
            self.grow(c);
        }
        let i = self.at(c, v, c.len[v] as u32);
        self.pool[i] = f;
        c.len[v] += 1;
        c.full |= 1 << v;
    }

    /// Give `c` rings twice as large (or its first ones), its flits in order at their fronts.
    #[cold]
    fn grow(&mut self, c: &mut Chan) {
        let old = c.ring_cap as u32;
        let cap = if c.ring == NO_RING { FIRST_RING.min(self.max_cap) } else { old * 2 };
        assert!(cap <= self.max_cap, "a VC holds more flits than its credits allow");
        let base = self.pool.len();
        let n = base + VCS * cap as usize;
        assert!(n <= u32::MAX as usize, "router buffers beyond 4 G flits");
        self.pool.resize(n, Flit::default());
        if c.ring != NO_RING {
            for v in 0..VCS {
                for i in 0..c.len[v] as u32 {
                    self.pool[base + v * cap as usize + i as usize] = self.pool[self.at(c, v, i)];
                }
                c.head[v] = 0;
            }
        }
        c.ring = base as u32;
        c.ring_cap = cap as u16;
    }

    /// Remove the first flit of VC `v` of `c` (which holds one).
    #[inline]
    pub(super) fn pop(&mut self, c: &mut Chan, v: usize) -> Flit {
        let f = self.front(c, v);
        c.head[v] = ((c.head[v] as u32 + 1) & (c.ring_cap as u32 - 1)) as u16;
        c.len[v] -= 1;
        if c.len[v] == 0 {
            c.full &= !(1 << v);
        }
        f
    }
}

impl Chan {
    /// An empty channel whose wire takes `lat` cycles (a flit sent in a cycle arrives in a later one).
    pub(super) fn new(lat: u64) -> Chan {
        Chan {
            full: 0,
            in_rr: 0,
            live: false,
            asleep: false,
            held: 0,
            lat: lat.max(1),
            on_wire: 0,
            credits_back: 0,
            hol_cycles: 0,
            occupancy: 0,
            since: 0,
            head: [0; VCS],
            len: [0; VCS],
            ring: NO_RING,
            ring_cap: 0,
            sleep_on: 0,
        }
    }
}

/// An input's pick in one cycle's routers' pass: the front flit of VC `v` of channel `u` (its `taken` bits
/// as the pass grants branches), and per branch that could move the output channel asked for and the VC it
/// would take there.
#[derive(Debug, Clone, Copy)]
pub(super) struct Req {
    pub(super) u: u32,
    pub(super) v: u8,
    pub(super) f: Flit,
    pub(super) outs: [u32; 3],
    pub(super) vos: [u8; 3],
    /// Branches asked for and not (yet) granted.
    pub(super) asked: u8,
    /// Whether any branch was granted.
    pub(super) granted: bool,
}

/// The output stage of one channel (a link leaving a router, or an ejection port), kept apart from the
/// channels so that a cycle's arbitration touches a few dense bytes per output.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Arb {
    /// The cycle (plus one) whose requests `input` and `branch` hold; another value: none yet.
    pub(super) stamp: u64,
    /// The request (an index into the cycle's requests) that comes first round-robin so far, the branch of
    /// its flit, and its rank (its input's distance from `out_rr` in the router's input order).
    pub(super) input: u32,
    pub(super) branch: u8,
    pub(super) rank: u8,
    /// The input looked at first next (an index into the router's inputs).
    pub(super) out_rr: u8,
    /// How many inputs the router has (0 for an injection port, which no router feeds).
    pub(super) inputs: u8,
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
    /// Whether it sleeps: the front packet of every queue holding one could go now but for a credit on its
    /// injection port. Nothing but a credit coming back on that port or a packet sent to the NIU changes
    /// that, so the injection pass skips it until one of them wakes it.
    pub(super) asleep: bool,
}

/// One VC of a channel as its sender sees it.
#[derive(Debug, Clone, Copy)]
pub(super) struct VcOut {
    /// The packet that owns it from its head to its tail ([`NO_OWNER`]: none).
    pub(super) owner: u32,
    /// Flits sent and not yet credited back.
    pub(super) out: u32,
}

/// The sender side of a channel: its credits and the owners of its VCs, kept apart from the channel so that
/// a router input asking whether its flit can move reads one or two cache lines of the channel ahead.
#[derive(Debug, Clone, Copy)]
pub(super) struct Sender {
    /// Flits sent beyond the VCs' guarantees and not yet credited back.
    pub(super) shared_used: u32,
    pub(super) vc: [VcOut; VCS],
}

impl Default for Sender {
    fn default() -> Sender {
        Sender { shared_used: 0, vc: [VcOut { owner: NO_OWNER, out: 0 }; VCS] }
    }
}

impl Niu {
    /// When the NIU next has something to do for `pk`, the front packet of queue `q`.
    #[inline]
    pub(super) fn front_due(&self, q: usize, pk: &Packet) -> u64 {
        if self.sent[q] > 0 {
            pk.ready
        } else if self.taken[q] {
            pk.takeup + pk.setup
        } else if pk.ser > 0 {
            pk.ready.max(self.free_at)
        } else {
            pk.ready
        }
    }
}

/// Whether VC `v` of the channel `c` sends on can take one more flit.
#[inline]
pub(super) fn has_credit(c: &Sender, v: usize, p: &RouterParams) -> bool {
    let o = c.vc[v].out;
    o < p.reserved_flits || (o < p.vc_cap_flits && c.shared_used < p.shared_flits)
}

#[inline]
pub(super) fn take_credit(c: &mut Sender, v: usize, p: &RouterParams) {
    if c.vc[v].out >= p.reserved_flits {
        c.shared_used += 1;
    }
    c.vc[v].out += 1;
}

/// The order an NIU looks at its two queues (requests and data, responses): a queue whose packet was promised
/// its start goes first, otherwise they alternate from the one it served last.
pub(super) fn queue_order(promised: [bool; 2], last: usize) -> [usize; 2] {
    if promised[1] && !promised[0] {
        [1, 0]
    } else if promised[0] {
        [0, 1]
    } else {
        [(last + 1) % 2, last]
    }
}

/// Put `item` in a freed slot of `pool` (from `free`) or a new one; its index.
pub(super) fn put_in_slot<T>(pool: &mut Vec<T>, free: &mut Vec<u32>, item: T) -> u32 {
    match free.pop() {
        Some(i) => {
            pool[i as usize] = item;
            i
        }
        None => {
            pool.push(item);
            pool.len() as u32 - 1
        }
    }
}

/// The first VC at or after `start` (round-robin) whose bit is set in `full` (not empty).
pub(super) fn pick(full: u16, start: u8) -> usize {
    let rot = full.rotate_right(start as u32);
    (rot.trailing_zeros() as usize + start as usize) % VCS
}

#[cfg(test)]
mod tests {
    use super::{Chan, Flit, Rings};

    #[test]
    fn a_channels_rings_grow_and_keep_each_vcs_order() {
        let p = crate::routers::tests::params();
        let mut rings = Rings::new(&p);
        let (mut a, mut b) = (Chan::new(9), Chan::new(9));
        let flit = |pkt: u32| Flit { pkt, ..Flit::default() };
        let mut model: [std::collections::VecDeque<u32>; 2] = Default::default();
        let mut next = 0;
        // Two VCs of one channel wrap and grow past the first ring size, another channel interleaves.
        for round in 0..40u32 {
            for (v, q) in [(3usize, 0usize), (7, 1)] {
                if model[q].len() < p.vc_cap_flits as usize && round % 5 != 4 {
                    rings.push(&mut a, v, flit(next));
                    model[q].push_back(next);
                    next += 1;
                }
                if round % 3 == 2 && !model[q].is_empty() {
                    assert_eq!(rings.pop(&mut a, v).pkt, model[q].pop_front().unwrap());
                }
            }
            rings.push(&mut b, 0, flit(1000 + round));
            assert_eq!(rings.pop(&mut b, 0).pkt, 1000 + round);
        }
        assert!(a.ring_cap as u32 > super::FIRST_RING, "the rings grew");
        for (v, q) in [(3usize, 0usize), (7, 1)] {
            assert_eq!(a.len[v] as usize, model[q].len());
            while let Some(x) = model[q].pop_front() {
                assert_eq!(rings.front(&a, v).pkt, x);
                assert_eq!(rings.pop(&mut a, v).pkt, x);
            }
            assert_eq!(a.full & (1 << v), 0);
        }
    }

    #[test]
    fn a_wheel_gives_each_cycle_what_is_due_then() {
        let mut w: super::Wheel<u32> = super::Wheel::new(9);
        assert_eq!(w.next_due(0), None);
        // Entries due 1..=9 cycles on, added over several cycles, come out in their own cycles only.
        let mut expected: Vec<(u64, u32)> = Vec::new();
        let mut id = 0;
        for now in 0..40u64 {
            let got = w.take(now);
            let mut want: Vec<u32> = expected.iter().filter(|e| e.0 == now).map(|e| e.1).collect();
            expected.retain(|e| e.0 != now);
            let mut got_sorted = got.clone();
            got_sorted.sort();
            want.sort();
            assert_eq!(got_sorted, want, "cycle {now}");
            w.put_back(now, got);
            if now < 30 {
                for lat in [1, 9, (now % 9) + 1] {
                    w.push(now + lat, id);
                    expected.push((now + lat, id));
                    id += 1;
                }
            }
            assert_eq!(w.len, expected.len() as u64);
            assert_eq!(w.next_due(now + 1), expected.iter().map(|e| e.0).min());
        }
        assert_eq!(w.next_due(40), None);
    }
}
