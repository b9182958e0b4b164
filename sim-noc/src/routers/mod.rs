//! Router-level NoC: credit-based wormhole routers with the flow control the hardware documents
//! (reference/noc-flow-control.md), stepped one cycle at a time over the channels that hold anything.
//!
//! Per NoC, every router has three inputs (its NIU's injection port and the X and Y links arriving) and three
//! outputs (the X and Y links leaving and its NIU's ejection port). What it models:
//! - **Sixteen VCs per link**: a dateline bit × eight VC numbers (two class bits × a buddy bit). Unicast
//!   requests use the number the command names (static: it never changes along the route), multicast its
//!   own ([`MULTICAST_VC`]), responses (read data, write acknowledgements) the response class
//!   ([`RESPONSE_VC`]). The dateline bit is set on the ring's wrap link and cleared when the route turns
//!   into the next dimension.
//! - **Shared input buffers**: the buffer at the far end of every link, injection and ejection port is one
//!   pool; each VC is guaranteed `reserved_flits` and may claim more from the shared part, up to
//!   `vc_cap_flits` in all. The sender keeps the credits: a flit goes out on a VC only if the VC is under
//!   its guarantee, or under its cap while the shared part has room; a credit comes back `credit_delay`
//!   cycles after the flit leaves the buffer.
//! - **VC-first arbitration**: each cycle an input picks one VC among those holding a flit (round-robin).
//!   With `blind` set it does so without looking at whether that flit can move, and if it cannot (its
//!   output VC belongs to another packet, no credit downstream, or it loses the output to another input)
//!   no flit leaves that input that cycle. Without `blind` it picks among the VCs whose flit can move.
//!   With `blind` but not `blind_responses` (Blackhole's fit), a pick that lands on a blocked response VC
//!   looks on for a VC that can move instead, as without `blind`.
//! - **Port arbitration**: each output grants one of the inputs whose pick wants it, round-robin or (with
//!   `fixed_priority`, a what-if: the parameter files say why the built-in chips use round-robin) in a
//!   fixed order — the router's own NIU, then the link continuing in the route's second dimension, then the
//!   link turning into it.
//! - **Wormhole switching**: an output VC belongs to one packet from its head to its tail.
//! - **Multicast**: a packet follows its broadcast tree; a flit at a fork leaves its buffer once every
//!   branch has taken a copy (branches move independently).
//! - **End points**: an NIU injects at most one flit per cycle (at its injection rate) from two queues —
//!   requests and data in command order, responses by ready time — alternating when both can go; it takes
//!   one flit per cycle from its ejection port.
//!
//! With nothing else on the NoC a packet takes exactly what the calendar model says (a test checks every
//! route of a grid). The engine drives it through [`RouterNoc::advance`] and learns what happened from
//! [`RouterEvent`]s.

mod channels;
mod cycle;
mod paths;
mod stepped;
pub mod worms;
pub use stepped::RouterTiming;

pub use crate::stepping::{Happened, MULTICAST_VC, Outgoing, RESPONSE_VC, RouterEvent, UNICAST_VC};
use channels::{Arb, Chan, Flit, NO_OWNER, Niu, Packet, Req, Rings, Sender, Wheel, has_credit, put_in_slot};

use crate::topology::{LinkId, Topology};
use sim_core::Cycle;
use soc_descriptors::GridSize;
use std::cell::Cell;

/// VCs per link: dateline bit × eight VC numbers.
pub const VCS: usize = 16;
/// Cycles without a flit moving, while flits wait in buffers, after which the routers count as deadlocked
/// (or four round trips of a flit and its credit over one hop, if longer: latencies that large are a
/// what-if, not a deadlock).
pub const STUCK_CYCLES: u64 = 200_000;
use paths::NOT_A_DEST;

/// The router model's parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RouterParams {
    /// Router-to-router link latency, cycles.
    pub hop: u64,
    /// NIU-to-router latency, cycles.
    pub niu_to_router: u64,
    /// Router-to-NIU latency, cycles.
    pub router_to_niu: u64,
    /// Bytes per flit.
    pub flit_bytes: u32,
    /// Header flits per packet.
    pub header_flits: u32,
    /// Flits each VC of an input buffer is guaranteed.
    pub reserved_flits: u32,
    /// The most flits one VC may hold in an input buffer (guarantee included).
    pub vc_cap_flits: u32,
    /// Flits of an input buffer shared by its VCs beyond their guarantees.
    pub shared_flits: u32,
    /// Cycles from a flit leaving a buffer to its credit reaching the sender.
    pub credit_delay: u64,
    /// Whether an input picks its VC before knowing whether the VC's flit can move.
    pub blind: bool,
    /// With `blind`: whether the blind pick covers the response class too; if not, an input whose pick is
    /// a response VC that cannot move looks on for a VC that can, as without `blind`.
    pub blind_responses: bool,
    /// Whether a response's head may take either buddy VC of its class at each hop.
    pub dynamic_responses: bool,
    /// Whether a router output grants by a fixed priority over its inputs (the NIU's injection port, then
    /// the link arriving along the route's second dimension, then the first) instead of round-robin.
    pub fixed_priority: bool,
    /// Cycles a source NIU takes per 1000 flits it injects.
    pub inject_cycles_per_kflit: u32,
    /// Cycles a NIU takes per 1000 flits of a packet addressed to its own tile.
    pub loopback_cycles_per_kflit: u32,
    /// Extra latency of a packet addressed to its own tile.
    pub loopback_turn: u64,
    /// Whether router inputs that would lose every cycle until something changes sleep instead of picking
    /// (a speed-up with the same results, see `Chan::asleep`; off only to test that it is one).
    pub skip_blocked: bool,
}

impl RouterParams {
    /// The router parameters of a chip's NoC parameters.
    pub fn from_noc(params: &crate::params::NocParams) -> RouterParams {
        let reserved = params.vc_reserved_flits.max(1);
        RouterParams {
            hop: params.hop.0,
            niu_to_router: params.niu_to_router.0,
            router_to_niu: params.router_to_niu.0,
            flit_bytes: params.flit_bytes,
            header_flits: params.header_flits,
            reserved_flits: reserved,
            vc_cap_flits: params.vc_cap_flits.max(reserved),
            shared_flits: params.port_shared_flits,
            credit_delay: params.credit_delay.0,
            blind: params.blind_vc_arbitration,
            blind_responses: params.blind_response_vcs,
            dynamic_responses: params.dynamic_response_vcs,
            fixed_priority: params.fixed_port_priority,
            inject_cycles_per_kflit: params.inject_cycles_per_kflit,
            loopback_cycles_per_kflit: params.loopback_cycles_per_kflit,
            loopback_turn: params.loopback_turn.0,
            skip_blocked: true,
        }
    }
}

/// Counters of one run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RouterStats {
    /// Cycles an input picked a VC whose flit could not move (head-of-line blocking across VCs, or a lost
    /// output).
    pub hol_cycles: u64,
    /// Flit moves between buffers.
    pub moves: u64,
    /// Cycles stepped.
    pub cycles: u64,
}

/// Both NoCs of one chip at router level.
#[derive(Debug, Clone)]
pub struct RouterNoc {
    p: RouterParams,
    topo: Topology,
    ch: Vec<Chan>,
    /// Per channel: its sender's credits and VC owners.
    tx: Vec<Sender>,
    /// The flits in the channels' input buffers.
    rings: Rings,
    /// Per channel: its output stage (see [`Arb`]).
    arb: Vec<Arb>,
    /// Per channel: its place among the inputs of the router at its far end (which all feed every output
    /// of that router in this order).
    in_idx: Vec<u8>,
    /// Per channel: its rank among the inputs of the router at its far end under a fixed priority (see
    /// [`RouterParams::fixed_priority`]): 0 the NIU's injection port, 1 a link of the route's second
    /// dimension (NoC0's southward, NoC1's westward), 2 one of the first.
    prio: Vec<u8>,
    pkts: Vec<Packet>,
    free_pkts: Vec<u32>,
    nius: Vec<Niu>,
    /// The first cycle not yet stepped.
    now: u64,
    live: Vec<u32>,
    live_nius: Vec<u32>,
    events: Vec<RouterEvent>,
    stats: RouterStats,
    scratch_route: Vec<LinkId>,
    outs: Vec<u32>,
    /// This cycle's requests: the inputs whose pick could move, with their flits.
    reqs: Vec<Req>,
    /// This cycle's router inputs and ejection ports with flits in their buffers (live-list order).
    inputs: Vec<u32>,
    ejects: Vec<u32>,
    /// Per channel: the router inputs asleep on it ([`Chan::asleep`]) waiting for a credit (`[0]`) or for a
    /// packet's tail to free a VC (`[1]`). May hold inputs that have woken since, or that sleep on another
    /// channel now: waking checks [`Chan::sleep_on`].
    sleepers: Vec<[Vec<u32>; 2]>,
    /// Flits on wires, by the cycle they reach the buffer at the wire's far end: channel, VC, flit.
    wires: Wheel<(u32, u8, Flit)>,
    /// Credits on their way back to channels' senders, by the cycle they arrive: channel, VC.
    credits: Wheel<(u32, u8)>,
    /// Flits in buffers (not on wires) over all channels: while any, every cycle has work.
    buffered: u64,
    /// The last cycle a flit moved.
    last_move: u64,
    /// Cycles without a flit moving, with flits buffered, that count as a deadlock ([`STUCK_CYCLES`], or
    /// four credit round trips of one hop if longer).
    stuck_after: u64,
    /// The earliest cycle a flit on a wire, a credit or a queued packet is due (`u64::MAX`: none), once
    /// [`RouterNoc::next_activity`] has looked; every change (a step, a send) forgets it.
    due: Cell<Option<u64>>,
}

impl RouterNoc {
    /// Idle NoCs of a `grid`-sized chip.
    pub fn new(grid: GridSize, p: RouterParams) -> RouterNoc {
        assert!(p.reserved_flits >= 1 && p.vc_cap_flits >= p.reserved_flits, "router buffer parameters");
        let topo = Topology::new(grid);
        let links = topo.num_links();
        let ports = grid.count() * 2;
        let mk = Chan::new;
        let mut ch: Vec<Chan> = (0..links).map(|_| mk(p.hop)).collect();
        ch.extend((0..ports).map(|_| mk(p.niu_to_router)));
        ch.extend((0..ports).map(|_| mk(p.router_to_niu)));
        let mut noc = RouterNoc {
            p,
            topo,
            arb: vec![Arb::default(); ch.len()],
            rings: Rings::new(&p),
            tx: vec![Sender::default(); ch.len()],
            sleepers: vec![[Vec::new(), Vec::new()]; ch.len()],
            wires: Wheel::new(p.hop.max(p.niu_to_router).max(p.router_to_niu).max(1)),
            credits: Wheel::new(p.credit_delay.max(1)),
            in_idx: vec![0; ch.len()],
            // A link's id is even in the route's first dimension and odd in its second; injection ports
            // come after the links.
            prio: (0..ch.len()).map(|c| if c < links { 2 - (c % 2) as u8 } else { 0 }).collect(),
            ch,
            pkts: Vec::new(),
            free_pkts: Vec::new(),
            nius: vec![Niu::default(); ports],
            now: 0,
            live: Vec::new(),
            live_nius: Vec::new(),
            events: Vec::new(),
            stats: RouterStats::default(),
            scratch_route: Vec::new(),
            outs: Vec::new(),
            reqs: Vec::new(),
            inputs: Vec::new(),
            ejects: Vec::new(),
            buffered: 0,
            last_move: 0,
            stuck_after: {
                let round_trip = p.hop.max(p.niu_to_router).max(p.router_to_niu).saturating_add(p.credit_delay);
                STUCK_CYCLES.max(round_trip.saturating_mul(4))
            },
            due: Cell::new(None),
        };
        let mut ins: Vec<Vec<u32>> = vec![Vec::new(); ports];
        for (i, r) in ins.iter_mut().enumerate() {
            r.push(noc.inject(i) as u32);
        }
        for l in 0..links {
            let (at, dir) = noc.topo.link_info(LinkId(l as u32));
            let to = noc.topo.step(at, dir);
            ins[noc.topo.niu_index(to, dir.noc())].push(l as u32);
        }
        for r in &ins {
            assert!(r.len() < u8::MAX as usize, "a router has at most a few inputs");
            for (k, &u) in r.iter().enumerate() {
                noc.in_idx[u as usize] = k as u8;
            }
        }
        for l in 0..links {
            let (at, dir) = noc.topo.link_info(LinkId(l as u32));
            noc.arb[l].inputs = ins[noc.topo.niu_index(at, dir.noc())].len() as u8;
        }
        for (i, r) in ins.iter().enumerate() {
            let e = noc.eject(i);
            noc.arb[e].inputs = r.len() as u8;
        }
        noc
    }

    fn inject(&self, port: usize) -> usize {
        paths::inject_chan(&self.topo, port)
    }

    fn eject(&self, port: usize) -> usize {
        paths::eject_chan(&self.topo, port)
    }

    /// The parameters.
    pub fn params(&self) -> &RouterParams {
        &self.p
    }

    /// The counters so far.
    pub fn stats(&self) -> RouterStats {
        self.stats
    }

    /// The first cycle not yet stepped.
    pub fn now(&self) -> Cycle {
        Cycle(self.now)
    }

    /// Per channel (links first, in [`LinkId`] order, then injection and ejection ports by NIU index): the
    /// cycles its input lost to head-of-line blocking and its buffer's occupancy summed over cycles.
    pub fn port_counters(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.ch.iter().map(|c| (c.hol_cycles, c.occupancy + c.held as u64 * self.now.saturating_sub(c.since)))
    }

    /// Flits of a packet carrying `payload` bytes (a header flit only for 0).
    pub fn flits(&self, payload: u32) -> u32 {
        self.p.header_flits + payload.div_ceil(self.p.flit_bytes)
    }

    /// Queue a packet. Request and data packets leave their NIU in the order they were sent; responses
    /// (VC [`RESPONSE_VC`]) by ready time. Returns when the head leaves if that is already certain: the NIU
    /// has nothing queued before it and the first hop has room, and `ready` is the first cycle not yet
    /// stepped (the packet is then promised that cycle).
    pub fn send(&mut self, s: Outgoing<'_>) -> Option<Cycle> {
        assert!(s.vc < 8, "VC numbers are 0..8");
        assert!(s.ready.0 >= self.now, "a packet ready at {} after cycle {} was stepped", s.ready.0, self.now);
        self.due.set(None);
        let port = self.topo.niu_index(s.src, s.noc);
        let looped = s.payload > 0 && s.dests.contains(&s.src);
        let hops = paths::packet_hops(&self.topo, &s, &mut self.scratch_route);
        let flits = self.flits(s.payload);
        let per_k = if looped { self.p.loopback_cycles_per_kflit } else { self.p.inject_cycles_per_kflit };
        let ser = if s.paced { (flits as u64 * per_k as u64).div_ceil(1000) } else { 0 };
        let pk = Packet {
            hops,
            flits,
            ready: s.ready.0,
            token: s.token,
            ser,
            setup: s.setup,
            extra: ser.saturating_sub(flits as u64),
            // A unicast to its own tile turns around inside the NIU; a multicast that includes its source
            // only streams at the loopback rate.
            turn: if looped && s.tree.is_none() { self.p.loopback_turn } else { 0 },
            left: s.dests.len() as u32,
            start: 0,
            takeup: 0,
        };
        let id = put_in_slot(&mut self.pkts, &mut self.free_pkts, pk);
        let qi = usize::from(s.vc == RESPONSE_VC);
        let i = self.inject(port);
        let niu = &mut self.nius[port];
        let certain = niu.q[0].is_empty()
            && niu.q[1].is_empty()
            && s.ready.0 == self.now
            && (!s.paced || niu.free_at <= self.now)
            && self.tx[i].vc[s.vc as usize].owner == NO_OWNER
            && has_credit(&self.tx[i], s.vc as usize, &self.p);
        let niu = &mut self.nius[port];
        niu.asleep = false;
        if qi == 1 {
            // Responses by ready time (stable).
            let pos = niu.q[1].iter().rposition(|&q| self.pkts[q as usize].ready <= s.ready.0).map_or(0, |p| p + 1);
            let pos = if niu.sent[1] > 0 { pos.max(1) } else { pos };
            niu.q[1].insert(pos, id);
        } else {
            niu.q[0].push_back(id);
        }
        if certain {
            niu.promised[qi] = true;
        }
        if !niu.live {
            niu.live = true;
            self.live_nius.push(port as u32);
        }
        certain.then_some(s.ready)
    }

    /// Flits in buffers that have not moved for [`STUCK_CYCLES`]: the routers are deadlocked. Describes the
    /// first stuck buffer and packet.
    pub fn stuck(&self) -> Option<String> {
        if self.buffered == 0 || self.now.saturating_sub(self.last_move) < self.stuck_after {
            return None;
        }
        let links = self.topo.num_links();
        let ports = self.topo.grid().count() * 2;
        let (c, ch) = self.ch.iter().enumerate().find(|(_, c)| c.full != 0)?;
        let v = ch.full.trailing_zeros() as usize;
        let f = self.rings.front(ch, v);
        let where_ = if c < links {
            let (at, dir) = self.topo.link_info(LinkId(c as u32));
            format!("the buffer at the end of link {} from NoC0 tile ({},{})", dir.npe_name(), at.x, at.y)
        } else {
            let port = (c - links) % ports;
            let what = if c - links < ports { "injection" } else { "ejection" };
            format!("the {what} port of NIU {port}")
        };
        let pk = &self.pkts[f.pkt as usize];
        let kind = if pk.hops.iter().filter(|h| h.dest != NOT_A_DEST).count() > 1 { "multicast" } else { "packet" };
        Some(format!(
            "{} flits have not moved for {} cycles; one waits in {where_} on VC {v} ({kind} {})",
            self.buffered,
            self.now - self.last_move,
            pk.token
        ))
    }

    /// When something next needs stepping (`None`: nothing queued or in flight).
    pub fn next_activity(&self) -> Option<Cycle> {
        if self.stuck().is_some() {
            return None;
        }
        if self.buffered > 0 {
            return Some(Cycle(self.now));
        }
        let next = match self.due.get() {
            Some(t) => t,
            None => {
                let t = self.due_from_scratch();
                self.due.set(Some(t));
                t
            }
        };
        (next != u64::MAX).then(|| Cycle(next.max(self.now)))
    }

    /// The earliest cycle a flit on a wire, a credit coming back or a queued packet is due (`u64::MAX`: none),
    /// with no flit in a buffer (a step works it out as it ends; a send forgets it).
    fn due_from_scratch(&self) -> u64 {
        let mut next = u64::MAX;
        for &c in &self.live {
            if self.ch[c as usize].full != 0 {
                return self.now;
            }
        }
        if let Some(t) = self.wires.next_due(self.now) {
            next = next.min(t);
        }
        if let Some(t) = self.credits.next_due(self.now) {
            next = next.min(t);
        }
        for &n in &self.live_nius {
            let niu = &self.nius[n as usize];
            for q in 0..2 {
                if let Some(&p) = niu.q[q].front() {
                    next = next.min(niu.front_due(q, &self.pkts[p as usize]));
                }
            }
        }
        next
    }

    /// Step every cycle before `until` in which anything can happen; the events are appended to `out`.
    pub fn advance(&mut self, until: Cycle, out: &mut Vec<RouterEvent>) {
        while self.now < until.0 {
            match self.next_activity() {
                Some(t) if t.0 < until.0 => {
                    self.now = t.0;
                    self.step();
                }
                _ => {
                    self.now = until.0;
                    break;
                }
            }
        }
        out.append(&mut self.events);
    }
}

#[cfg(test)]
mod tests;
