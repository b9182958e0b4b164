//! The router model at packet granularity (`noc.model=packets`): the same channels, VCs and paths as the
//! flit-level routers ([`super::RouterNoc`]), but a packet moves as a worm whose head is timed hop by hop
//! on an event queue and whose body follows at a flit per cycle, instead of one flit at a time.
//!
//! What it keeps of the routers' flow control:
//! - **Wormhole VC ownership**: a packet's head takes its VC on a channel when no other packet owns it and
//!   holds it until its tail has crossed; heads that find the VC owned wait in arrival order (head-of-line
//!   blocking on one static VC). Responses may take either buddy VC of their class.
//! - **Finite buffers behind a blocked head**: the tail crosses a channel once the flit a buffer's worth
//!   ahead of it has left the buffer at the channel's far end and its credit has come back. With `B` the
//!   flits a VC may hold and `cd` the credit delay, the tail crosses hop `a` at
//!   `T_a = max over the hops d at depth r below a with r·B < flits of (s_d + dur_d − 1 − r·(B − cd))`,
//!   `s_d` the cycle the head took hop `d` and `dur_d` its body's cycles there: a packet no longer than a
//!   buffer lets its VCs go as soon as it has passed, a long one holds them until its head is far enough
//!   on. A head that waits in a buffer keeps the next packet of its VC out of that buffer.
//! - **One body per channel at a time** (a packet waits for the body before it, whatever its VC); a
//!   one-flit packet (read request, acknowledgement) passes between bodies but takes one of the channel's
//!   cycles: one-flit packets cross a channel one per cycle, and a body crossing then ends a cycle later.
//! - **The blind VC pick's cost**: a body leaving a buffer in which heads of other VCs wait for other
//!   channels moves every other cycle while each of them waits (it loses min(w / 2, flits) cycles per such
//!   head, `w` that head's remaining wait: the owner's known tail time, a whole body's worth while that is
//!   not known, nothing for a VC that is free; behind a packet parked in the buffer beyond, only the flits
//!   that do not fit in the room it leaves wait); a response does not count heads waiting for the channel
//!   it takes (it carries one body at a time anyway, and responses take either buddy VC).
//! - **A multicast's branches in step at an ejection port**: when a one-flit packet takes a cycle of an
//!   ejection port in the middle of a multicast's body (acknowledgements reaching a source that is among
//!   its own destinations), every branch of the tree still carrying that body loses the cycle (a flit leaves
//!   its buffer once every branch has taken it). Only there: on a link the next router's buffer takes the
//!   branch's flits, and charging link crossings too made multicast streams 12-40% slower than the
//!   flit-level routers.
//! - **End points** (`niu.rs`): an NIU injects its two queues one packet at a time each at its injection
//!   rate; an ejection port takes one body at a time.
//! - **Per-port counters** (`ports.rs`): head-of-line cycles and flits held, reckoned from heads' waits.
//!
//! What it approximates: flits of different VCs interleaving on one channel (they take turns by whole
//! bodies), the shared part of a port's buffer beyond one VC's cap, how long a blocked VC stays blocked.
//! With nothing else on the NoC a packet takes exactly the cycles of the flit-level routers (property
//! tests check lone packets of every kind and streams from one NIU).

use super::channels::Hop;
use super::paths::NOT_A_DEST;
use super::{RouterParams, VCS};
use crate::stepping::{Happened, RESPONSE_VC, RouterEvent};
use crate::topology::{LinkId, Topology};
use sim_core::Cycle;
use sim_core::EventQueue;
use soc_descriptors::GridSize;
use std::collections::VecDeque;

const NONE: u32 = u32::MAX;
const UNKNOWN: u64 = u64::MAX;

#[derive(Debug, Clone)]
struct PHop {
    chan: u32,
    vc: u8,
    kids: [u16; 3],
    nkids: u8,
    dest: u16,
    parent: u16,
    /// The cycle the head took the channel (`UNKNOWN`: not yet).
    s: u64,
    /// Cycles its body takes to cross (its flits, more behind an input whose other VCs are blocked).
    dur: u64,
    /// Hops not yet taken among this one and those below it within a buffer's reach (its tail's time is
    /// known when none is left), and the latest tail time they give so far.
    pending: u16,
    tail: u64,
}

#[derive(Debug, Clone)]
struct Pkt {
    hops: Vec<PHop>,
    flits: u32,
    ready: u64,
    token: u64,
    ser: u64,
    extra: u64,
    turn: u64,
    setup: u64,
    port: u32,
    q: u8,
    takeup: u64,
    taken: bool,
    start: u64,
    /// Cycles its body has lost to blind VC picks so far (the most at any one input on its way).
    stretch: u64,
    /// A multicast: its branches move in lockstep (a flit leaves a buffer once every branch has taken it).
    tree: bool,
    /// Hops not yet taken, and hops not yet let go.
    unacquired: u32,
    unreleased: u32,
}

#[derive(Debug, Clone, Default)]
struct VcState {
    /// The packet that owns the VC from its head to its tail, and from when it is free again (`UNKNOWN`
    /// while its tail's time is not known).
    owner: u32,
    owner_until: u64,
    /// A packet whose head waits in the buffer at the channel's far end on this VC: the next packet of the
    /// VC queues behind it (one packet parked per VC buffer).
    parked: u32,
    /// Heads waiting to take the VC (packet, hop, since when), in arrival order.
    waiting: VecDeque<(u32, u16, u64)>,
}

#[derive(Debug, Clone, Default)]
struct NiuQ {
    q: [VecDeque<u32>; 2],
    /// The packet of each queue being injected whose tail time is not yet known.
    busy: [u32; 2],
    /// The next packet of each queue may start no earlier than this.
    next_ok: [u64; 2],
    promised: [bool; 2],
    last: usize,
    /// The NIU takes the next paced packet no earlier than this (its injection rate).
    free_at: u64,
    /// The earliest wake-up scheduled and not yet come (`UNKNOWN`: none).
    wake: u64,
}

/// What the model does at a cycle, in the order scheduled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Ev {
    /// A packet's head reached the buffer at the far end of one of its hops.
    Head(u32, u16),
    /// A channel's VC: its owner (the packet given, or none) lets it go, and waiting heads may take it.
    Release(u32, u8, u32),
    /// An NIU may be able to start a packet.
    Niu(u32),
}

/// Counters of one run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PacketStats {
    /// Packets sent.
    pub packets: u64,
    /// Flit moves the flit-level model would make (flits × channels).
    pub flit_hops: u64,
    /// Cycles heads spent waiting for a VC another packet owned, summed over heads.
    pub head_wait_cycles: u64,
    /// Events processed.
    pub events: u64,
}

/// Both NoCs of one chip, packet by packet.
#[derive(Debug, Clone)]
pub struct PacketNoc {
    p: RouterParams,
    topo: Topology,
    lat: Vec<u64>,
    vcs: Vec<VcState>,
    /// Per channel: when it is free of the body it carries, and of the one-flit packets passing between
    /// bodies.
    phys_free: Vec<u64>,
    phys_start: Vec<u64>,
    /// Per channel: the packet whose body it carries (or last carried).
    phys_owner: Vec<u32>,
    flit_free: Vec<u64>,
    pkts: Vec<Pkt>,
    free_pkts: Vec<u32>,
    nius: Vec<NiuQ>,
    queue: EventQueue<Ev>,
    /// What to report at the end of the current [`PacketNoc::advance`].
    events: Vec<RouterEvent>,
    /// Flits one VC may hold in the buffer at a channel's far end.
    buffer: u64,
    /// The first cycle not yet processed.
    now: u64,
    /// The cycle being processed.
    t: u64,
    live: u64,
    route: Vec<LinkId>,
    stats: PacketStats,
    ports: PortCounters,
    /// Heads waiting for a VC.
    waiting: u64,
    /// Per channel: heads waiting in the buffer at its far end whose VC a blind pick lands on.
    /// (packet, the VC it waits for as `channel · VCS + vc`).
    blocked: Vec<Vec<(u32, u32)>>,
    /// The first injection and ejection channels.
    first_inject: usize,
    first_eject: usize,
    /// Scratch for a packet's hops.
    scratch_hops: Vec<Hop>,
}

impl PacketNoc {
    /// Idle NoCs of a `grid`-sized chip.
    pub fn new(grid: GridSize, p: RouterParams) -> PacketNoc {
        let topo = Topology::new(grid);
        let links = topo.num_links();
        let ports = grid.count() * 2;
        let mut lat = vec![p.hop.max(1); links];
        lat.extend((0..ports).map(|_| p.niu_to_router.max(1)));
        lat.extend((0..ports).map(|_| p.router_to_niu.max(1)));
        let n = lat.len();
        PacketNoc {
            p,
            topo,
            vcs: vec![VcState { owner: NONE, owner_until: 0, parked: NONE, waiting: VecDeque::new() }; n * VCS],
            phys_free: vec![0; n],
            flit_free: vec![0; n],
            phys_start: vec![0; n],
            phys_owner: vec![NONE; n],
            lat,
            pkts: Vec::new(),
            free_pkts: Vec::new(),
            nius: vec![NiuQ { busy: [NONE; 2], wake: UNKNOWN, ..NiuQ::default() }; ports],
            queue: EventQueue::new(),
            events: Vec::new(),
            buffer: p.vc_cap_flits.min(p.reserved_flits.saturating_add(p.shared_flits)).max(1) as u64,
            now: 0,
            t: 0,
            live: 0,
            route: Vec::new(),
            stats: PacketStats::default(),
            ports: PortCounters::new(n),
            waiting: 0,
            blocked: vec![Vec::new(); n],
            first_inject: links,
            first_eject: links + ports,
            scratch_hops: Vec::new(),
        }
    }

    /// The counters so far.
    pub fn stats(&self) -> PacketStats {
        self.stats
    }

    /// Flits of a packet carrying `payload` bytes.
    pub fn flits(&self, payload: u32) -> u32 {
        self.p.header_flits + payload.div_ceil(self.p.flit_bytes)
    }

    fn at(&mut self, t: u64, e: Ev) {
        if let Ev::Niu(port) = e {
            // One wake-up per NIU at a time: a pending earlier one will look again.
            let w = &mut self.nius[port as usize].wake;
            if *w != UNKNOWN && *w <= t {
                return;
            }
            *w = t;
        }
        self.queue.push(Cycle(t), e);
    }

    /// Report what happened to a packet at `t`: a start when it happens (the engine frees the command
    /// buffer then), a departure, first byte or arrival as soon as it is known (the engine acts on it at
    /// `t`).
    fn emit(&mut self, t: u64, token: u64, what: Happened) {
        self.events.push(RouterEvent { token, at: Cycle(t), what });
    }

    /// Head of packet `p` takes hop `m` at `t` if its VC is free, else waits for it.
    fn acquire(&mut self, p: u32, m: u16, t: u64) {
        let pk = &self.pkts[p as usize];
        let h = &pk.hops[m as usize];
        let c = h.chan as usize;
        let mut v = h.vc;
        let owned = |vcs: &Vec<VcState>, v: u8| Self::held(&vcs[c * VCS + v as usize], p, t);
        if self.p.dynamic_responses && v & 0b110 == RESPONSE_VC && owned(&self.vcs, v) && !owned(&self.vcs, v ^ 1) {
            v ^= 1;
        }
        if owned(&self.vcs, v) {
            let x = &mut self.vcs[c * VCS + v as usize];
            x.waiting.push_back((p, m, t));
            if x.waiting.len() == 1 && x.parked == NONE && x.owner_until != UNKNOWN {
                // The owner's tail time is known: wake the queue then.
                let (until, o) = (x.owner_until, x.owner);
                self.at(until, Ev::Release(c as u32, v, o));
            }
            self.waiting += 1;
            // The head waits in the buffer at the far end of the hop before.
            let pk = &self.pkts[p as usize];
            let up = &pk.hops[pk.hops[m as usize].parent as usize];
            let (input, vin) = (up.chan as usize, up.vc as usize);
            if self.vcs[input * VCS + vin].parked == NONE {
                self.vcs[input * VCS + vin].parked = p;
            }
            if self.picked_blind(v) {
                self.blocked[input].push((p, (c * VCS + v as usize) as u32));
            }
            return;
        }
        self.pkts[p as usize].hops[m as usize].vc = v;
        self.take(p, m, t);
    }

    /// Whether VC state `x` keeps packet `p` out at `t`: another packet owns it, or a head waits in the
    /// buffer beyond.
    fn held(x: &VcState, p: u32, t: u64) -> bool {
        (x.owner != NONE && x.owner != p && x.owner_until > t) || x.parked != NONE
    }

    /// Whether a blind VC pick lands on VC `v` even when its flit cannot move.
    fn picked_blind(&self, v: u8) -> bool {
        self.p.blind && (self.p.blind_responses || v & 0b110 != RESPONSE_VC)
    }

    /// Packet `p`'s head takes hop `m` (its VC free) at `t` or, if the channel still carries another body,
    /// when that has passed.
    fn take(&mut self, p: u32, m: u16, t: u64) {
        if m > 0 {
            let pk = &self.pkts[p as usize];
            let up = &pk.hops[pk.hops[m as usize].parent as usize];
            let i = up.chan as usize * VCS + up.vc as usize;
            if self.vcs[i].parked == p {
                // Its head has left the buffer: the VC's next packet may come in.
                self.vcs[i].parked = NONE;
                let x = &self.vcs[i];
                if !x.waiting.is_empty()
                    || up.chan as usize >= self.first_inject && (up.chan as usize) < self.first_eject
                {
                    if x.owner == NONE || x.owner_until <= t {
                        self.at(t, Ev::Release(up.chan, up.vc, NONE));
                    } else if x.owner_until != UNKNOWN {
                        let (until, o) = (x.owner_until, x.owner);
                        self.at(until, Ev::Release(up.chan, up.vc, o));
                    }
                }
            }
            // Other VCs blocked in the buffer the body leaves: a blind pick lands on each of them in turn and
            // moves nothing. With one such VC blocked for `w` more cycles the body moves every other cycle
            // meanwhile and loses min(w / 2, flits) cycles; each blocked VC counts so.
            let input = self.pkts[p as usize].hops[self.pkts[p as usize].hops[m as usize].parent as usize].chan;
            let flits = self.pkts[p as usize].flits as u64;
            let mut loss = 0;
            let h = &self.pkts[p as usize].hops[m as usize];
            let out = h.chan as usize;
            // A response's head blocked on the channel this response takes costs nothing more: that channel
            // carries one body at a time anyway, and responses take either buddy VC.
            let response = self.p.dynamic_responses && h.vc & 0b110 == RESPONSE_VC;
            for &(q, wi) in &self.blocked[input as usize] {
                if q == p || (response && wi as usize / VCS == out) {
                    continue;
                }
                let x = &self.vcs[wi as usize];
                let half_wait = if x.parked != NONE {
                    // Held by a packet parked in the buffer beyond: the blocked packet's flits move into the
                    // room that one leaves (the flit-level routers fill a VC's buffer behind a waiting head),
                    // so its VC is blocked only for the flits that do not fit, at most the parked packet's
                    // body.
                    let z = self.pkts[x.parked as usize].flits as u64;
                    z.min((z + self.pkts[q as usize].flits as u64).saturating_sub(self.buffer))
                } else if x.owner == NONE {
                    // Free: the head takes it this cycle.
                    0
                } else if x.owner_until != UNKNOWN {
                    x.owner_until.saturating_sub(t) / 2
                } else {
                    // Owned by a packet whose tail time is not known yet (its head is still on its way, or
                    // waits): blocked for the whole body.
                    UNKNOWN
                };
                loss += half_wait.min(flits);
            }
            self.ports.slowed(input as usize, t, loss.min(flits), flits.min(self.buffer));
            let pk = &mut self.pkts[p as usize];
            pk.stretch = pk.stretch.max(loss);
        }
        let pk = &self.pkts[p as usize];
        let h = &pk.hops[m as usize];
        let (c, v) = (h.chan as usize, h.vc as usize);
        let paced = pk.ser > 0;
        let dur = pk.flits as u64 + pk.stretch;
        // A one-flit packet that passes between bodies still takes one of the channel's flit cycles: such
        // packets cross a channel one per cycle (a multicast's acknowledgements reach its sender so).
        let s = if paced { t.max(self.phys_free[c]) } else { t.max(self.flit_free[c]) };
        if m > 0 {
            self.stalled(p, m, t, s);
        }
        let pk = &self.pkts[p as usize];
        let h = &pk.hops[m as usize];
        let (dest, flits, turn, extra, token) = (h.dest, pk.flits as u64, pk.turn, pk.extra, pk.token);
        if paced {
            self.phys_start[c] = s;
            self.phys_free[c] = s + dur;
            self.phys_owner[c] = p;
        } else {
            // It takes a cycle of the body on the channel, if any: the bodies after it start a cycle later.
            self.flit_free[c] = s + 1;
            if self.phys_start[c] <= s && s < self.phys_free[c] {
                self.phys_free[c] += 1;
                self.lockstep(c, s);
            }
        }
        if flits > 1 {
            self.vcs[c * VCS + v].owner = p;
            self.vcs[c * VCS + v].owner_until = UNKNOWN;
        }
        let lat = self.lat[c];
        let pk = &mut self.pkts[p as usize];
        pk.hops[m as usize].s = s;
        pk.hops[m as usize].dur = dur;
        pk.unacquired -= 1;
        if dest != NOT_A_DEST {
            let first = s + lat + turn + u64::from(!paced);
            self.emit(first, token, Happened::FirstByte(dest));
            self.emit(s + lat + dur + extra + turn, token, Happened::Arrived(dest));
        } else {
            self.at(s + lat, Ev::Head(p, m));
        }
        // This hop and those above it within a buffer's reach learn a bound on when their tail passes (see the
        // module notes); those with every hop within reach below them taken now know it.
        let (b, cd) = (self.buffer, self.p.credit_delay);
        let reach = (flits - 1) / b;
        let mut a = m;
        for r in 0..=reach {
            let h = &mut self.pkts[p as usize].hops[a as usize];
            h.tail = h.tail.max((s + dur - 1 + r * cd).saturating_sub(r * b));
            h.pending -= 1;
            let (up, tail) = (h.parent, h.tail);
            if h.pending == 0 {
                self.release_hop(p, a, tail);
            }
            if a == 0 || r == reach {
                break;
            }
            a = up;
        }
    }

    /// A one-flit packet took cycle `s` of the body on channel `c`: if `c` is an ejection port and that body
    /// is a multicast's, its other branches lose the cycle too (see the module notes), so the bodies after
    /// it on each of the tree's channels still carrying it start a cycle later.
    fn lockstep(&mut self, c: usize, s: u64) {
        let o = self.phys_owner[c];
        if o == NONE || !self.pkts[o as usize].tree || c < self.first_eject {
            return;
        }
        for h in &self.pkts[o as usize].hops {
            let d = h.chan as usize;
            if d != c && self.phys_owner[d] == o && self.phys_start[d] <= s && s < self.phys_free[d] {
                self.phys_free[d] += 1;
            }
        }
    }

    /// Every hop a buffer's reach below hop `a` has been taken: its tail passes `a` at `tail` (see the module
    /// notes); the VC is let go the cycle after, and for the injection port the NIU moves on.
    fn release_hop(&mut self, p: u32, a: u16, tail: u64) {
        let pk = &self.pkts[p as usize];
        let ha = &pk.hops[a as usize];
        let (c, v) = (ha.chan, ha.vc);
        let (start, ser, token, port, q) = (pk.start, pk.ser, pk.token, pk.port as usize, pk.q as usize);
        let multi = pk.flits > 1;
        let pk = &mut self.pkts[p as usize];
        pk.unreleased -= 1;
        let done = pk.unreleased == 0;
        let at = (tail + 1).max(self.t);
        if multi {
            let x = &mut self.vcs[c as usize * VCS + v as usize];
            if x.owner == p {
                x.owner_until = at;
                if !x.waiting.is_empty() && x.parked == NONE {
                    self.at(at, Ev::Release(c, v, p));
                }
            }
        }
        if a == 0 {
            self.emit((tail + 1).max(start + ser), token, Happened::Departed);
            let niu = &mut self.nius[port];
            niu.busy[q] = NONE;
            niu.next_ok[q] = tail + 1;
            self.at(at, Ev::Niu(port as u32));
        }
        if done {
            self.free_pkts.push(p);
            self.live -= 1;
        }
    }

    fn release(&mut self, c: u32, v: u8, p: u32) {
        let i = c as usize * VCS + v as usize;
        if p != NONE && self.vcs[i].owner == p && self.vcs[i].owner_until <= self.t {
            self.vcs[i].owner = NONE;
        }
        if Self::held(&self.vcs[i], NONE, self.t) {
            // Another packet holds it, or a head still waits in the buffer beyond (it wakes the waiters when
            // it moves on).
            return;
        }
        while let Some((p, m, since)) = self.vcs[i].waiting.pop_front() {
            self.waiting -= 1;
            self.stats.head_wait_cycles += self.t - since;
            self.stalled(p, m, since, self.t);
            let hops = &self.pkts[p as usize].hops;
            if self.picked_blind(hops[m as usize].vc) {
                let input = hops[hops[m as usize].parent as usize].chan as usize;
                if let Some(k) = self.blocked[input].iter().position(|&(q, _)| q == p) {
                    self.blocked[input].swap_remove(k);
                }
            }
            self.acquire(p, m, self.t);
            if Self::held(&self.vcs[i], NONE, self.t) {
                break;
            }
        }
        // An injection port's VC: its NIU may go on.
        let first_inject = self.topo.num_links() as u32;
        let ports = (self.topo.grid().count() * 2) as u32;
        if (first_inject..first_inject + ports).contains(&c) {
            self.at(self.t, Ev::Niu(c - first_inject));
        }
    }

    /// When something next needs processing (`None`: nothing queued or in flight, or deadlocked).
    pub fn next_activity(&self) -> Option<Cycle> {
        self.queue.head().map(|k| Cycle(k.at.0.max(self.now)))
    }

    /// Process everything before `until`; what happened is appended to `out`.
    pub fn advance(&mut self, until: Cycle, out: &mut Vec<RouterEvent>) {
        while let Some(k) = self.queue.head() {
            if k.at >= until {
                break;
            }
            let (_, e) = self.queue.pop().expect("the head is there");
            self.t = k.at.0.max(self.now);
            self.stats.events += 1;
            match e {
                Ev::Head(p, k) => {
                    let pk = &self.pkts[p as usize];
                    let h = &pk.hops[k as usize];
                    let (kids, n) = (h.kids, h.nkids as usize);
                    for &m in &kids[..n] {
                        self.acquire(p, m, self.t);
                    }
                }
                Ev::Release(c, v, p) => self.release(c, v, p),
                Ev::Niu(port) => {
                    let w = &mut self.nius[port as usize].wake;
                    if *w == self.t {
                        *w = UNKNOWN;
                    }
                    self.pump(port as usize)
                }
            }
        }
        out.append(&mut self.events);
        self.now = self.now.max(until.0);
    }

    /// Heads waiting for VCs that nothing will free: the routers are deadlocked. Describes one of them.
    pub fn stuck(&self) -> Option<String> {
        if !self.queue.is_empty() || self.live == 0 {
            return None;
        }
        let (c, x) = self.vcs.iter().enumerate().find(|(_, x)| !x.waiting.is_empty())?;
        let (p, _, since) = x.waiting[0];
        Some(format!(
            "{} packets have not finished; packet {} has waited since cycle {since} for VC {} of channel {}",
            self.live,
            self.pkts[p as usize].token,
            c % VCS,
            c / VCS
        ))
    }
}

mod niu;
mod ports;
use ports::PortCounters;
#[cfg(test)]
mod tests;
