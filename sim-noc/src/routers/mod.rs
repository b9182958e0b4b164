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

mod stepped;
pub use stepped::RouterTiming;

use crate::topology::{Dir, LinkId, Topology, TreeNode};
use sim_core::Cycle;
use soc_descriptors::{GridSize, Noc0Coord, NocId};
use std::collections::VecDeque;

/// VCs per link: dateline bit × eight VC numbers.
pub const VCS: usize = 16;
/// The VC number of responses (read data, acknowledgements): class 11, buddy 0.
pub const RESPONSE_VC: u8 = 6;
/// The VC number tt-metal gives multicast writes (class 10).
pub const MULTICAST_VC: u8 = 4;
/// The VC number tt-metal gives unicast writes and read requests unless told otherwise.
pub const UNICAST_VC: u8 = 1;
/// No destination (a tree node that only forwards).
const NOT_A_DEST: u16 = u16::MAX;

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
    /// Whether a response's head may take either buddy VC of its class at each hop.
    pub dynamic_responses: bool,
    /// Cycles a source NIU takes per 1000 flits it injects.
    pub inject_cycles_per_kflit: u32,
    /// Cycles a NIU takes per 1000 flits of a packet addressed to its own tile.
    pub loopback_cycles_per_kflit: u32,
    /// Extra latency of a packet addressed to its own tile.
    pub loopback_turn: u64,
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
            dynamic_responses: params.dynamic_response_vcs,
            inject_cycles_per_kflit: params.inject_cycles_per_kflit,
            loopback_cycles_per_kflit: params.loopback_cycles_per_kflit,
            loopback_turn: params.loopback_turn.0,
        }
    }
}

/// A packet handed to [`RouterNoc::send`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RouterPacketId(pub u32);

/// What the engine hears about a packet (`token` is the engine's, given to [`RouterNoc::send`]).
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
    /// The head flit left the source NIU (the command buffer takes the next command).
    Started,
    /// The tail flit left the source NIU (the source data may be reused).
    Departed,
    /// The head reached destination `dest` (index in the packet's destination list).
    FirstByte(u16),
    /// The whole packet reached destination `dest`.
    Arrived(u16),
}

/// A packet to send: from `src`'s NIU on `noc` to `dests` (one, or a multicast's over `tree`).
#[derive(Debug, Clone)]
pub struct Send<'a> {
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

#[derive(Debug, Clone, Copy)]
struct Flit {
    pkt: u32,
    /// The tree node (index into the packet's hops) whose channel it is on or buffered at the end of.
    k: u16,
    /// Branches of that node that have taken a copy.
    taken: u8,
}

/// One channel: a link, injection port or ejection port, with the input buffer at its far end. Laid out
/// by hand (`repr(C)`): what every cycle's passes read first, then the wire and credit queues, then the
/// per-VC state, the buffers last.
#[derive(Debug, Clone, Default)]
#[repr(C)]
struct Chan {
    /// VCs whose buffer holds a flit (bit per VC).
    full: u16,
    /// Input stage: the VC looked at first next.
    in_rr: u8,
    /// Output stage: the input looked at first next.
    out_rr: u8,
    /// Input stage result this cycle: the VC picked …
    req_vc: u8,
    /// Whether the channel is on the live list.
    live: bool,
    /// Whether a branch of its input's pick was granted this cycle.
    granted: bool,
    /// Flits in the buffer.
    held: u32,
    /// Sender side: flits sent beyond the VCs' guarantees and not yet credited back.
    shared_used: u32,
    /// … and, per branch of its flit, the output asked for.
    req: [Option<u32>; 3],
    /// … and the output VC each would take.
    req_vo: [u8; 3],
    /// The last cycle its output stage ran.
    arbitrated: u64,
    lat: u64,
    /// Flits on the wire: when they reach the buffer, the flit, its VC.
    wire: VecDeque<(u64, Flit, u8)>,
    credit_back: VecDeque<(u64, u8)>,
    /// Sender side: flits per VC sent and not yet credited back.
    out: [u32; VCS],
    /// Per output VC: the packet that owns it and the flits of it sent.
    owner: [Option<(u32, u32)>; VCS],
    /// The router inputs feeding this channel (empty for an injection port).
    ups: Vec<u32>,
    /// Cycles its input picked a VC whose flit could not move.
    hol_cycles: u64,
    /// Sum over cycles of the flits in its buffer (occupancy × time), and when `held` last changed.
    occupancy: u64,
    since: u64,
    /// The far end's buffer, per VC.
    buf: [VecDeque<Flit>; VCS],
}

#[derive(Debug, Clone)]
struct Hop {
    chan: u32,
    vc: u8,
    kids: [u16; 3],
    nkids: u8,
    dest: u16,
    arrived: u32,
}

#[derive(Debug, Clone)]
struct Packet {
    hops: Vec<Hop>,
    flits: u32,
    ready: u64,
    token: u64,
    /// Cycles its source NIU is busy with it (its serialisation at the NIU's injection rate; 0 for a
    /// one-flit packet that passes between others), and the part of that beyond one cycle per flit, which
    /// its tail pays on arrival; the extra latency of a packet to its own tile (its NIU turns it around).
    ser: u64,
    extra: u64,
    turn: u64,
    setup: u64,
    /// Destinations still to receive the tail.
    left: u32,
    /// When the head left the source NIU.
    start: u64,
    /// When the NIU took it up (a packet with a path reservation: `setup` cycles before its head).
    takeup: u64,
}

#[derive(Debug, Clone, Default)]
struct Niu {
    /// Request/data packets (command order) and responses (by ready time).
    q: [VecDeque<u32>; 2],
    sent: [u32; 2],
    last: usize,
    /// Packets promised to start at their ready cycle (see [`RouterNoc::send`]).
    promised: [bool; 2],
    /// The NIU takes the next paced packet's head no earlier than this (its injection rate).
    free_at: u64,
    /// Whether the front packet of each queue, one with a path reservation, has been taken up.
    taken: [bool; 2],
    live: bool,
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
    /// Inputs whose pick could move this cycle.
    reqs: Vec<u32>,
    /// Flits in buffers (not on wires) over all channels: while any, every cycle has work.
    buffered: u64,
}

impl RouterNoc {
    /// Idle NoCs of a `grid`-sized chip.
    pub fn new(grid: GridSize, p: RouterParams) -> RouterNoc {
        assert!(p.reserved_flits >= 1 && p.vc_cap_flits >= p.reserved_flits, "router buffer parameters");
        let topo = Topology::new(grid);
        let links = topo.num_links();
        let ports = grid.count() * 2;
        let mk = |lat: u64| Chan { lat, ..Chan::default() };
        let mut ch: Vec<Chan> = (0..links).map(|_| mk(p.hop)).collect();
        ch.extend((0..ports).map(|_| mk(p.niu_to_router)));
        ch.extend((0..ports).map(|_| mk(p.router_to_niu)));
        let mut noc = RouterNoc {
            p,
            topo,
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
            buffered: 0,
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
        for l in 0..links {
            let (at, dir) = noc.topo.link_info(LinkId(l as u32));
            noc.ch[l].ups = ins[noc.topo.niu_index(at, dir.noc())].clone();
        }
        for (i, r) in ins.into_iter().enumerate() {
            let e = noc.eject(i);
            noc.ch[e].ups = r;
        }
        noc
    }

    fn inject(&self, port: usize) -> usize {
        self.topo.num_links() + port
    }

    fn eject(&self, port: usize) -> usize {
        self.topo.num_links() + self.topo.grid().count() * 2 + port
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
    pub fn send(&mut self, s: Send<'_>) -> Option<Cycle> {
        assert!(s.vc < 8, "VC numbers are 0..8");
        assert!(s.ready.0 >= self.now, "a packet ready at {} after cycle {} was stepped", s.ready.0, self.now);
        let port = self.topo.niu_index(s.src, s.noc);
        let looped = s.payload > 0 && s.dests.contains(&s.src);
        let mut hops = Vec::with_capacity(8);
        hops.push(Hop {
            chan: self.inject(port) as u32,
            vc: s.vc,
            kids: [0; 3],
            nkids: 0,
            dest: NOT_A_DEST,
            arrived: 0,
        });
        match s.tree {
            None => self.unicast_hops(s.noc, s.src, s.dests[0], s.vc, &mut hops),
            Some(tree) => self.tree_hops(s.noc, tree, s.dests, s.vc, &mut hops),
        }
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
        let id = match self.free_pkts.pop() {
            Some(i) => {
                self.pkts[i as usize] = pk;
                i
            }
            None => {
                self.pkts.push(pk);
                self.pkts.len() as u32 - 1
            }
        };
        let qi = usize::from(s.vc == RESPONSE_VC);
        let i = self.inject(port);
        let niu = &mut self.nius[port];
        let certain = niu.q[0].is_empty()
            && niu.q[1].is_empty()
            && s.ready.0 == self.now
            && (!s.paced || niu.free_at <= self.now)
            && self.ch[i].owner[s.vc as usize].is_none()
            && has_credit(&self.ch[i], s.vc as usize, &self.p);
        let niu = &mut self.nius[port];
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

    fn unicast_hops(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, vc: u8, hops: &mut Vec<Hop>) {
        let mut route = std::mem::take(&mut self.scratch_route);
        route.clear();
        self.topo.unicast_route(noc, src, dst, &mut route);
        let mut last_dir = None;
        let mut dateline = 0u8;
        for &l in &route {
            let (at, dir) = self.topo.link_info(l);
            if last_dir != Some(dir) {
                dateline = 0;
                last_dir = Some(dir);
            }
            if self.wraps(at, dir) {
                dateline = 8;
            }
            let k = hops.len() as u16;
            let parent = hops.len() - 1;
            hops[parent].kids[0] = k;
            hops[parent].nkids = 1;
            hops.push(Hop { chan: l.0, vc: vc + dateline, kids: [0; 3], nkids: 0, dest: NOT_A_DEST, arrived: 0 });
        }
        self.scratch_route = route;
        let e = self.eject(self.topo.niu_index(dst, noc)) as u32;
        let k = hops.len() as u16;
        let parent = hops.len() - 1;
        hops[parent].kids[0] = k;
        hops[parent].nkids = 1;
        hops.push(Hop { chan: e, vc: vc + dateline, kids: [0; 3], nkids: 0, dest: 0, arrived: 0 });
    }

    fn tree_hops(&self, noc: NocId, tree: &[TreeNode], dests: &[Noc0Coord], vc: u8, hops: &mut Vec<Hop>) {
        // Tree node n is hop `at[n]`; its router's ejection port, when it is a destination, a hop of its own.
        let mut at = vec![0u16; tree.len()];
        let mut dateline = vec![0u8; tree.len()];
        let mut dir_in: Vec<Option<Dir>> = vec![None; tree.len()];
        let add_kid = |hops: &mut Vec<Hop>, parent: usize, kid: u16| {
            let h = &mut hops[parent];
            h.kids[h.nkids as usize] = kid;
            h.nkids += 1;
        };
        for (n, node) in tree.iter().enumerate() {
            if let (Some(p), Some(l)) = (node.parent, node.via) {
                let (from, dir) = self.topo.link_info(l);
                let mut d = if dir_in[p] == Some(dir) { dateline[p] } else { 0 };
                if self.wraps(from, dir) {
                    d = 8;
                }
                dateline[n] = d;
                dir_in[n] = Some(dir);
                let k = hops.len() as u16;
                add_kid(hops, at[p] as usize, k);
                hops.push(Hop { chan: l.0, vc: vc + d, kids: [0; 3], nkids: 0, dest: NOT_A_DEST, arrived: 0 });
                at[n] = k;
            }
        }
        for (i, d) in dests.iter().enumerate() {
            let n = tree.iter().rposition(|t| t.tile == *d).unwrap_or(0);
            let e = self.eject(self.topo.niu_index(*d, noc)) as u32;
            let k = hops.len() as u16;
            add_kid(hops, at[n] as usize, k);
            hops.push(Hop { chan: e, vc: vc + dateline[n], kids: [0; 3], nkids: 0, dest: i as u16, arrived: 0 });
        }
    }

    fn wraps(&self, at: Noc0Coord, dir: Dir) -> bool {
        let (w, h) = (self.topo.grid().x, self.topo.grid().y);
        match dir {
            Dir::East => at.x == w - 1,
            Dir::South => at.y == h - 1,
            Dir::West => at.x == 0,
            Dir::North => at.y == 0,
        }
    }

    /// When something next needs stepping (`None`: nothing queued or in flight).
    pub fn next_activity(&self) -> Option<Cycle> {
        if self.buffered > 0 {
            return Some(Cycle(self.now));
        }
        let mut next = u64::MAX;
        for &c in &self.live {
            let c = &self.ch[c as usize];
            if c.full != 0 {
                return Some(Cycle(self.now));
            }
            if let Some(&(t, _, _)) = c.wire.front() {
                next = next.min(t);
            }
            if let Some(&(t, _)) = c.credit_back.front() {
                next = next.min(t);
            }
        }
        for &n in &self.live_nius {
            let niu = &self.nius[n as usize];
            for q in 0..2 {
                if let Some(&p) = niu.q[q].front() {
                    let pk = &self.pkts[p as usize];
                    let t = if niu.sent[q] > 0 {
                        pk.ready
                    } else if niu.taken[q] {
                        pk.takeup + pk.setup
                    } else if pk.ser > 0 {
                        pk.ready.max(niu.free_at)
                    } else {
                        pk.ready
                    };
                    next = next.min(t);
                }
            }
        }
        (next != u64::MAX).then(|| Cycle(next.max(self.now)))
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

    fn make_live(&mut self, c: usize) {
        if !self.ch[c].live {
            self.ch[c].live = true;
            self.live.push(c as u32);
        }
    }

    fn set_held(&mut self, c: usize, delta: i32) {
        let now = self.now;
        let ch = &mut self.ch[c];
        ch.occupancy += ch.held as u64 * (now - ch.since);
        ch.since = now;
        ch.held = (ch.held as i32 + delta) as u32;
        self.buffered = (self.buffered as i64 + delta as i64) as u64;
    }

    /// One cycle (`self.now`), then `now` moves on.
    fn step(&mut self) {
        let now = self.now;
        self.stats.cycles += 1;
        let r = self.p.reserved_flits;
        let live = std::mem::take(&mut self.live);
        for &c in &live {
            let mut arrived = 0;
            let ch = &mut self.ch[c as usize];
            while ch.wire.front().is_some_and(|&(t, _, _)| t <= now) {
                let (_, f, v) = ch.wire.pop_front().expect("front");
                ch.buf[v as usize].push_back(f);
                ch.full |= 1 << v;
                arrived += 1;
            }
            while ch.credit_back.front().is_some_and(|&(t, _)| t <= now) {
                let (_, v) = ch.credit_back.pop_front().expect("front");
                if ch.out[v as usize] > r {
                    ch.shared_used -= 1;
                }
                ch.out[v as usize] -= 1;
            }
            if arrived > 0 {
                self.set_held(c as usize, arrived);
            }
        }
        self.live = live;
        self.eject_flits();
        self.inject_flits();
        self.route_flits();
        // Channels with nothing left drop off the live list.
        let ch = &mut self.ch;
        self.live.retain(|&c| {
            let x = &mut ch[c as usize];
            x.live = x.full != 0 || !x.wire.is_empty() || !x.credit_back.is_empty();
            x.live
        });
        let nius = &mut self.nius;
        self.live_nius.retain(|&n| {
            let x = &mut nius[n as usize];
            x.live = !x.q[0].is_empty() || !x.q[1].is_empty();
            x.live
        });
        self.now += 1;
    }

    /// Every NIU takes one flit per cycle from its ejection port, round-robin over VCs.
    fn eject_flits(&mut self) {
        let now = self.now;
        let first_eject = self.eject(0);
        for i in 0..self.live.len() {
            let e = self.live[i] as usize;
            if e < first_eject || self.ch[e].full == 0 {
                continue;
            }
            let c = &mut self.ch[e];
            let v = pick(c.full, c.in_rr);
            c.in_rr = (v as u8 + 1) % VCS as u8;
            let f = c.buf[v].pop_front().expect("full bit");
            if c.buf[v].is_empty() {
                c.full &= !(1 << v);
            }
            c.credit_back.push_back((now + self.p.credit_delay, v as u8));
            self.set_held(e, -1);
            self.stats.moves += 1;
            let pk = &mut self.pkts[f.pkt as usize];
            let h = &mut pk.hops[f.k as usize];
            h.arrived += 1;
            let dest = h.dest;
            // A packet to its own tile turns around inside the NIU: it lands `turn` later.
            if h.arrived == 1 {
                // A one-flit packet that passes between others counts as arrived when its flit is in.
                let at = Cycle(now + pk.turn + u64::from(pk.ser == 0));
                self.events.push(RouterEvent { token: pk.token, at, what: Happened::FirstByte(dest) });
            }
            if h.arrived == pk.flits {
                let at = Cycle(now + 1 + pk.extra + pk.turn);
                self.events.push(RouterEvent { token: pk.token, at, what: Happened::Arrived(dest) });
                pk.left -= 1;
                if pk.left == 0 {
                    self.free_pkts.push(f.pkt);
                }
            }
        }
    }

    /// Every NIU with a packet ready injects one flit, alternating between its queues when both can go; a
    /// promised packet goes first.
    fn inject_flits(&mut self) {
        let now = self.now;
        for idx in 0..self.live_nius.len() {
            let port = self.live_nius[idx] as usize;
            let i = self.inject(port);
            let niu = &self.nius[port];
            let order = if niu.promised[1] && !niu.promised[0] {
                [1, 0]
            } else if niu.promised[0] {
                [0, 1]
            } else {
                [(niu.last + 1) % 2, niu.last]
            };
            for qi in order {
                let niu = &self.nius[port];
                let Some(&p) = niu.q[qi].front() else { continue };
                let pk = &self.pkts[p as usize];
                let vo = pk.hops[0].vc as usize;
                let sent = niu.sent[qi];
                // A paced packet waits for the NIU to be done with the one before.
                let take_up = if pk.ser > 0 { pk.ready.max(niu.free_at) } else { pk.ready };
                if sent == 0 && pk.setup > 0 && !niu.taken[qi] {
                    if take_up > now {
                        continue;
                    }
                    // The NIU takes up a packet with a path reservation now: the command buffer is free
                    // again, and the head follows once the path is reserved.
                    let token = pk.token;
                    self.pkts[p as usize].takeup = now;
                    self.nius[port].taken[qi] = true;
                    self.events.push(RouterEvent { token, at: Cycle(now), what: Happened::Started });
                    continue;
                }
                let pk = &self.pkts[p as usize];
                let earliest = if sent > 0 {
                    0
                } else if pk.setup > 0 {
                    pk.takeup + pk.setup
                } else {
                    take_up
                };
                if earliest > now || !has_credit(&self.ch[i], vo, &self.p) {
                    continue;
                }
                if self.ch[i].owner[vo].is_some_and(|(o, _)| o != p) {
                    continue;
                }
                let (flits, token) = (pk.flits, pk.token);
                take_credit(&mut self.ch[i], vo, &self.p);
                let c = &mut self.ch[i];
                c.wire.push_back((now + c.lat, Flit { pkt: p, k: 0, taken: 0 }, vo as u8));
                self.make_live(i);
                let ser = self.pkts[p as usize].ser;
                let setup = self.pkts[p as usize].setup;
                if sent == 0 {
                    self.pkts[p as usize].start = now;
                    // (A packet with a path reservation said so when the NIU took it up.)
                    if setup == 0 {
                        self.events.push(RouterEvent { token, at: Cycle(now), what: Happened::Started });
                    }
                    if ser > 0 {
                        self.nius[port].free_at = now + ser;
                    }
                }
                let start = self.pkts[p as usize].start;
                let niu = &mut self.nius[port];
                niu.promised[qi] = false;
                niu.sent[qi] += 1;
                niu.last = qi;
                if niu.sent[qi] == flits {
                    niu.sent[qi] = 0;
                    niu.taken[qi] = false;
                    niu.q[qi].pop_front();
                    self.ch[i].owner[vo] = None;
                    let at = Cycle((now + 1).max(start + ser));
                    self.events.push(RouterEvent { token, at, what: Happened::Departed });
                } else {
                    self.ch[i].owner[vo] = Some((p, niu.sent[qi]));
                }
                break;
            }
        }
    }

    /// The branches of the front flit of VC `v` of channel `u` that can move now: output channel per branch.
    fn movable(&self, u: usize, v: usize) -> ([Option<u32>; 3], [u8; 3]) {
        let (mut req, mut vos) = ([None; 3], [0u8; 3]);
        let Some(f) = self.ch[u].buf[v].front() else { return (req, vos) };
        let pk = &self.pkts[f.pkt as usize];
        let h = &pk.hops[f.k as usize];
        for b in 0..h.nkids as usize {
            if f.taken & (1 << b) != 0 {
                continue;
            }
            let kid = &pk.hops[h.kids[b] as usize];
            let n = kid.chan as usize;
            let fits = |vo: u8| {
                self.ch[n].owner[vo as usize].is_none_or(|(p, _)| p == f.pkt)
                    && has_credit(&self.ch[n], vo as usize, &self.p)
            };
            let mut vo = kid.vc;
            // A response is not static: its head may take either buddy VC of its class at each hop
            // (noc-flow-control.md §1), the one its packet holds for the body.
            if self.p.dynamic_responses && kid.vc & 0b110 == RESPONSE_VC {
                let buddy = vo ^ 1;
                let holds = |x: u8| self.ch[n].owner[x as usize].is_some_and(|(p, _)| p == f.pkt);
                if holds(buddy) || (!holds(vo) && !fits(vo) && fits(buddy)) {
                    vo = buddy;
                }
            }
            if fits(vo) {
                req[b] = Some(kid.chan);
                vos[b] = vo;
            }
        }
        (req, vos)
    }

    /// Input stage, then output stage, over every router input that holds a flit.
    fn route_flits(&mut self) {
        let now = self.now;
        let first_eject = self.eject(0) as u32;
        let mut outs = std::mem::take(&mut self.outs);
        outs.clear();
        let mut reqs = std::mem::take(&mut self.reqs);
        reqs.clear();
        for i in 0..self.live.len() {
            let u = self.live[i] as usize;
            if u as u32 >= first_eject || self.ch[u].full == 0 {
                continue;
            }
            let full = self.ch[u].full;
            let start = self.ch[u].in_rr;
            let mut chosen = None;
            if self.p.blind {
                let v = pick(full, start);
                self.ch[u].in_rr = (v as u8 + 1) % VCS as u8;
                let req = self.movable(u, v);
                if req.0.iter().any(Option::is_some) {
                    chosen = Some((v, req));
                } else {
                    self.ch[u].hol_cycles += 1;
                    self.stats.hol_cycles += 1;
                }
            } else {
                for j in 0..VCS {
                    let v = (start as usize + j) % VCS;
                    if full & (1 << v) == 0 {
                        continue;
                    }
                    let req = self.movable(u, v);
                    if req.0.iter().any(Option::is_some) {
                        self.ch[u].in_rr = (v as u8 + 1) % VCS as u8;
                        chosen = Some((v, req));
                        break;
                    }
                }
            }
            if let Some((v, req)) = chosen {
                let c = &mut self.ch[u];
                c.req_vc = v as u8;
                c.req = req.0;
                c.req_vo = req.1;
                outs.extend(req.0.iter().flatten());
                reqs.push(u as u32);
            }
        }
        for &n in &outs {
            let n = n as usize;
            if self.ch[n].arbitrated == now + 1 {
                continue;
            }
            self.ch[n].arbitrated = now + 1;
            let len = self.ch[n].ups.len();
            let start = self.ch[n].out_rr as usize;
            let mut grant = None;
            for j in 0..len {
                let u = self.ch[n].ups[(start + j) % len] as usize;
                if let Some(b) = self.ch[u].req.iter().position(|&o| o == Some(n as u32)) {
                    grant = Some((u, b, (start + j + 1) % len));
                    break;
                }
            }
            let Some((u, b, next_rr)) = grant else { continue };
            self.ch[n].out_rr = next_rr as u8;
            self.ch[u].req[b] = None;
            let v = self.ch[u].req_vc as usize;
            let f = *self.ch[u].buf[v].front().expect("requested");
            let pk = &self.pkts[f.pkt as usize];
            let kid = pk.hops[f.k as usize].kids[b];
            let vo = self.ch[u].req_vo[b] as usize;
            let flits = pk.flits;
            take_credit(&mut self.ch[n], vo, &self.p);
            let c = &mut self.ch[n];
            c.wire.push_back((now + c.lat, Flit { pkt: f.pkt, k: kid, taken: 0 }, vo as u8));
            let sent = c.owner[vo].map_or(0, |(_, s)| s) + 1;
            c.owner[vo] = if sent == flits { None } else { Some((f.pkt, sent)) };
            self.make_live(n);
            self.stats.moves += 1;
            let front = self.ch[u].buf[v].front_mut().expect("requested");
            front.taken |= 1 << b;
            self.ch[u].granted = true;
        }
        // Inputs: a flit every branch of which has taken a copy leaves its buffer; an input whose pick moved
        // nothing lost the cycle.
        for &u in &reqs {
            let u = u as usize;
            let had_req = self.ch[u].req.iter().any(Option::is_some);
            let v = self.ch[u].req_vc as usize;
            let done = self.ch[u].buf[v].front().is_some_and(|f| {
                let pk = &self.pkts[f.pkt as usize];
                let nk = pk.hops[f.k as usize].nkids;
                f.taken == (1u8 << nk) - 1
            });
            let granted = std::mem::take(&mut self.ch[u].granted);
            if done && granted {
                let c = &mut self.ch[u];
                c.buf[v].pop_front();
                if c.buf[v].is_empty() {
                    c.full &= !(1 << v);
                }
                c.credit_back.push_back((now + self.p.credit_delay, v as u8));
                self.set_held(u, -1);
            } else if had_req && !granted {
                self.ch[u].hol_cycles += 1;
                self.stats.hol_cycles += 1;
            }
            self.ch[u].req = [None; 3];
        }
        self.outs = outs;
        self.reqs = reqs;
    }
}

/// Whether VC `v` of channel `c` can take one more flit.
fn has_credit(c: &Chan, v: usize, p: &RouterParams) -> bool {
    let o = c.out[v];
    o < p.reserved_flits || (o < p.vc_cap_flits && c.shared_used < p.shared_flits)
}

fn take_credit(c: &mut Chan, v: usize, p: &RouterParams) {
    if c.out[v] >= p.reserved_flits {
        c.shared_used += 1;
    }
    c.out[v] += 1;
}

/// The first VC at or after `start` (round-robin) whose bit is set in `full` (not empty).
fn pick(full: u16, start: u8) -> usize {
    let rot = full.rotate_right(start as u32);
    (rot.trailing_zeros() as usize + start as usize) % VCS
}

#[cfg(test)]
mod tests;
