//! A flit-by-flit reference for the calendar model ([`crate::model::NocModel`]): credit-based wormhole routers
//! stepped one cycle at a time. It is slow (every channel every cycle) and serves tests and research (the
//! `flit_a2a` example), never a run.
//!
//! What it models, per NoC:
//! - **Channels**: every router-to-router link (latency `hop`), every NIU-to-router injection port
//!   (`niu_to_router`) and router-to-NIU ejection port (`router_to_niu`); each carries one flit per cycle.
//! - **Buffers**: at the far end of every link and injection port, per virtual channel, `buffer_flits`
//!   flits; a sender spends a credit per flit and gets it back `credit_delay` cycles after the flit leaves
//!   that buffer. The ejecting NIU takes one flit per cycle and never fills.
//! - **Virtual channels**: one for all packets, plus its dateline twin: a packet that crosses a ring's
//!   wrap-around link continues on VC 1 until it turns into the next dimension (without it, wormhole
//!   routing on a torus deadlocks).
//! - **Wormhole switching**: an output VC belongs to one packet from its head to its tail; free output VCs
//!   go to the waiting heads round-robin over the router's inputs.
//! - **Sources**: packets leave each NIU in the order they were sent, no earlier than they are ready.
//!
//! With no contention it times a packet exactly as the calendar model does at one flit per cycle (a test
//! checks every route of a grid); under contention the two differ where the calendar model's unbounded
//! link queues let traffic pass a stalled packet.

use crate::params::NocParams;
use crate::topology::{Dir, Topology};
use sim_core::Cycle;
use soc_descriptors::{GridSize, Noc0Coord, NocId};
use std::collections::VecDeque;

/// A packet handed to [`FlitNoc::send`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlitPacketId(pub u32);

/// The reference model's parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlitParams {
    /// Router-to-router link latency, cycles.
    pub hop: u64,
    /// NIU-to-router latency, cycles.
    pub niu_to_router: u64,
    /// Router-to-NIU latency, cycles.
    pub router_to_niu: u64,
    /// Flits each VC of an inbound port buffers.
    pub buffer_flits: u64,
    /// Cycles from a flit leaving a buffer to its credit reaching the sender.
    pub credit_delay: u64,
    /// Bytes per flit.
    pub flit_bytes: u32,
    /// Header flits per packet.
    pub header_flits: u32,
    /// Of a hop's `hop` cycles, those a head flit spends in the next router's input buffer (route and
    /// channel allocation) before it may leave it; the wire takes the rest. Body flits leave the buffer as
    /// soon as they are at its front, so only `hop - head_pipeline` cycles of the hop are in a body flit's
    /// credit round trip. `0`: the whole hop is wire; at most `hop - 1` (a wire takes at least a cycle).
    pub head_pipeline: u64,
    /// The same split for a NIU-to-router injection port: of its `niu_to_router` cycles, those a head
    /// spends in the router's input buffer; at most `niu_to_router - 1`.
    pub inject_head_pipeline: u64,
}

impl FlitParams {
    /// The reference parameters matching `p` (one flit per cycle; the calendar model's injection-rate and
    /// loopback refinements are not part of the reference). `credit_delay` is the router's credit return.
    pub fn from_noc(p: &NocParams, credit_delay: u64) -> FlitParams {
        FlitParams {
            hop: p.hop.0,
            niu_to_router: p.niu_to_router.0,
            router_to_niu: p.router_to_niu.0,
            buffer_flits: (p.vc_buffer_bytes / p.flit_bytes.max(1)).max(1) as u64,
            credit_delay,
            flit_bytes: p.flit_bytes,
            header_flits: p.header_flits,
            head_pipeline: 0,
            inject_head_pipeline: 0,
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Flit {
    pkt: u32,
    /// When it entered the buffer it is in (while on a wire: when it left the previous one).
    at: u64,
    /// Index of the channel in the packet's path it is on (or buffered at the end of).
    k: u16,
}

#[derive(Debug, Clone, Default)]
struct Vc {
    credits: u64,
    buf: VecDeque<Flit>,
    /// The packet this output VC carries, and the input (channel, VC) its flits come from.
    owner: Option<(u32, u32, u8)>,
    sent: u32,
    credit_back: VecDeque<u64>,
    rr: usize,
}

#[derive(Debug, Clone)]
struct Chan {
    lat: u64,
    wire: VecDeque<(u64, Flit, u8)>,
    vc: [Vc; 2],
    /// Input channels of the router this channel leaves (empty for an injection port).
    ups: Vec<u32>,
    rr: u8,
    popped: u64,
}

#[derive(Debug, Clone)]
struct Packet {
    path: Vec<u32>,
    vcs: Vec<u8>,
    flits: u32,
    ready: u64,
    arrived: u32,
    done: Option<u64>,
}

/// Why [`FlitNoc::run`] stopped before every packet arrived.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlitError {
    /// Nothing moved for a long time while packets were still in the network.
    Deadlock { at: Cycle, delivered: usize, total: usize },
    /// The cycle limit was reached.
    Limit { at: Cycle, delivered: usize, total: usize },
}

/// The flit-level reference NoC of one chip (both NoCs).
#[derive(Debug, Clone)]
pub struct FlitNoc {
    p: FlitParams,
    topo: Topology,
    ch: Vec<Chan>,
    pkts: Vec<Packet>,
    /// Per injection channel: packets waiting, and flits of the front one sent.
    queue: Vec<(VecDeque<u32>, u32)>,
    now: u64,
    delivered: usize,
    /// Flits injected and not yet ejected.
    in_network: u64,
}

impl FlitNoc {
    /// Idle NoCs of a `grid`-sized chip.
    pub fn new(grid: GridSize, p: FlitParams) -> FlitNoc {
        let topo = Topology::new(grid);
        let links = topo.num_links();
        let ports = grid.count() * 2;
        let mk = |lat: u64, cap: u64| {
            let v = Vc { credits: cap, ..Vc::default() };
            Chan { lat, wire: VecDeque::new(), vc: [v.clone(), v], ups: Vec::new(), rr: 0, popped: u64::MAX }
        };
        // A wire takes at least a cycle: the router's share of a hop or injection port is clamped once here.
        let p = FlitParams {
            head_pipeline: p.head_pipeline.min(p.hop.saturating_sub(1)),
            inject_head_pipeline: p.inject_head_pipeline.min(p.niu_to_router.saturating_sub(1)),
            ..p
        };
        let mut ch: Vec<Chan> = (0..links).map(|_| mk(p.hop - p.head_pipeline, p.buffer_flits)).collect();
        ch.extend((0..ports).map(|_| mk(p.niu_to_router - p.inject_head_pipeline, p.buffer_flits)));
        ch.extend((0..ports).map(|_| mk(p.router_to_niu, u64::MAX / 2)));
        let mut noc = FlitNoc {
            p,
            topo,
            ch,
            pkts: Vec::new(),
            queue: vec![(VecDeque::new(), 0); ports],
            now: 0,
            delivered: 0,
            in_network: 0,
        };
        // Every router's inputs: its injection port and the links that end at it; its outputs: the links
        // that leave it and its ejection port.
        let mut ins: Vec<Vec<u32>> = vec![Vec::new(); ports];
        for (i, r) in ins.iter_mut().enumerate() {
            r.push(noc.inject(i) as u32);
        }
        for l in 0..links {
            let (at, dir) = noc.topo.link_info(crate::topology::LinkId(l as u32));
            let to = noc.topo.step(at, dir);
            ins[noc.port(to, dir.noc())].push(l as u32);
        }
        for l in 0..links {
            let (at, dir) = noc.topo.link_info(crate::topology::LinkId(l as u32));
            noc.ch[l].ups = ins[noc.port(at, dir.noc())].clone();
        }
        for (i, r) in ins.into_iter().enumerate() {
            let e = noc.eject(i);
            noc.ch[e].ups = r;
        }
        noc
    }

    fn port(&self, at: Noc0Coord, noc: NocId) -> usize {
        self.topo.niu_index(at, noc)
    }

    fn inject(&self, port: usize) -> usize {
        self.topo.num_links() + port
    }

    fn eject(&self, port: usize) -> usize {
        self.topo.num_links() + self.topo.grid().count() * 2 + port
    }

    /// Queue a packet of `payload` bytes from `src` to `dst` on `noc`, leaving no earlier than `ready`
    /// (and after the packets `src` sent before on that NoC).
    pub fn send(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, payload: u32, ready: Cycle) -> FlitPacketId {
        let mut route = Vec::new();
        self.topo.unicast_route(noc, src, dst, &mut route);
        let (w, h) = (self.topo.grid().x, self.topo.grid().y);
        let mut path = vec![self.inject(self.port(src, noc)) as u32];
        let mut vcs = vec![0u8];
        let (mut vc, mut last_dir) = (0u8, None);
        for l in route {
            let (at, dir) = self.topo.link_info(l);
            if last_dir != Some(dir) {
                vc = 0;
                last_dir = Some(dir);
            }
            let wraps = match dir {
                Dir::East => at.x == w - 1,
                Dir::South => at.y == h - 1,
                Dir::West => at.x == 0,
                Dir::North => at.y == 0,
            };
            if wraps {
                vc = 1;
            }
            path.push(l.0);
            vcs.push(vc);
        }
        path.push(self.eject(self.port(dst, noc)) as u32);
        vcs.push(0);
        let id = self.pkts.len() as u32;
        let flits = self.p.header_flits + payload.div_ceil(self.p.flit_bytes);
        self.pkts.push(Packet { path, vcs, flits, ready: ready.0, arrived: 0, done: None });
        let q = self.port(src, noc);
        self.queue[q].0.push_back(id);
        FlitPacketId(id)
    }

    /// When the packet's last flit had entered its destination NIU (`None` before it has).
    pub fn arrival(&self, id: FlitPacketId) -> Option<Cycle> {
        self.pkts[id.0 as usize].done.map(Cycle)
    }

    /// Step until every packet has arrived, or `limit` is reached.
    pub fn run(&mut self, limit: Cycle) -> Result<Cycle, FlitError> {
        let total = self.pkts.len();
        let mut idle = 0u64;
        while self.delivered < total {
            if self.now >= limit.0 {
                return Err(FlitError::Limit { at: Cycle(self.now), delivered: self.delivered, total });
            }
            if self.in_network == 0 {
                // An empty network: skip to the next packet's ready time.
                let next = self.queue.iter().filter_map(|(q, _)| q.front()).map(|&p| self.pkts[p as usize].ready).min();
                if let Some(t) = next {
                    self.now = self.now.max(t);
                }
            }
            if self.step() {
                idle = 0;
                continue;
            }
            idle += 1;
            // Nothing moved for a while: stuck, unless flits are on wires or packets are not ready yet.
            if idle > 10_000 {
                let in_flight = self.ch.iter().any(|c| !c.wire.is_empty());
                let waiting = self.pkts.iter().any(|p| p.ready > self.now && p.done.is_none());
                if !in_flight && !waiting {
                    return Err(FlitError::Deadlock { at: Cycle(self.now), delivered: self.delivered, total });
                }
                idle = 0;
            }
        }
        Ok(Cycle(self.now))
    }

    /// One cycle; whether any flit moved.
    fn step(&mut self) -> bool {
        let now = self.now;
        let mut moved = false;
        for c in &mut self.ch {
            while c.wire.front().is_some_and(|&(t, _, _)| t <= now) {
                let (_, mut f, v) = c.wire.pop_front().expect("front");
                f.at = now;
                c.vc[v as usize].buf.push_back(f);
            }
            for v in &mut c.vc {
                while v.credit_back.front().is_some_and(|&t| t <= now) {
                    v.credit_back.pop_front();
                    v.credits += 1;
                }
            }
        }
        // Ejection: one flit per cycle into each NIU.
        let ports = self.topo.grid().count() * 2;
        for port in 0..ports {
            let e = self.eject(port);
            let c = &mut self.ch[e];
            let got = if let Some(f) = c.vc[0].buf.pop_front() { Some(f) } else { c.vc[1].buf.pop_front() };
            if let Some(f) = got {
                moved = true;
                self.in_network -= 1;
                let p = &mut self.pkts[f.pkt as usize];
                p.arrived += 1;
                if p.arrived == p.flits {
                    p.done = Some(now + 1);
                    self.delivered += 1;
                }
            }
        }
        // Injection: the front packet of each NIU, one flit per cycle.
        for port in 0..ports {
            let i = self.inject(port);
            let (q, sent) = &mut self.queue[port];
            let Some(&p) = q.front() else { continue };
            let pk = &self.pkts[p as usize];
            if pk.ready > now || self.ch[i].vc[0].credits == 0 {
                continue;
            }
            let flits = pk.flits;
            let c = &mut self.ch[i];
            c.vc[0].credits -= 1;
            c.wire.push_back((now + c.lat, Flit { pkt: p, at: now, k: 0 }, 0));
            *sent += 1;
            self.in_network += 1;
            if *sent == flits {
                *sent = 0;
                q.pop_front();
            }
            moved = true;
        }
        // Routers: every link and ejection port takes at most one flit per cycle.
        let links = self.topo.num_links();
        let outs = (0..links).chain(self.eject(0)..self.eject(ports));
        for n in outs {
            moved |= self.forward(n);
        }
        self.now += 1;
        moved
    }

    /// Move one flit onto channel `n` if an output VC of it can take one.
    fn forward(&mut self, n: usize) -> bool {
        let now = self.now;
        for i in 0..2u8 {
            let vo = ((self.ch[n].rr + i) % 2) as usize;
            if self.ch[n].vc[vo].credits == 0 {
                continue;
            }
            let owner = match self.ch[n].vc[vo].owner {
                Some(o) => o,
                None => {
                    let ups = &self.ch[n].ups;
                    let r = self.ch[n].vc[vo].rr;
                    let mut pick = None;
                    'inputs: for j in 0..ups.len() {
                        let u = ups[(r + j) % ups.len()] as usize;
                        if self.ch[u].popped == now {
                            continue;
                        }
                        // A head at the end of a router-to-router link is routed and allocated first.
                        let wait =
                            if u < self.topo.num_links() { self.p.head_pipeline } else { self.p.inject_head_pipeline };
                        for vu in 0..2u8 {
                            if let Some(f) = self.ch[u].vc[vu as usize].buf.front() {
                                if f.at + wait > now {
                                    continue;
                                }
                                let pk = &self.pkts[f.pkt as usize];
                                let k = f.k as usize + 1;
                                if pk.path[k] as usize == n && pk.vcs[k] as usize == vo {
                                    pick = Some(((f.pkt, u as u32, vu), (r + j + 1) % ups.len()));
                                    break 'inputs;
                                }
                            }
                        }
                    }
                    let Some((o, next_rr)) = pick else { continue };
                    let v = &mut self.ch[n].vc[vo];
                    v.owner = Some(o);
                    v.sent = 0;
                    v.rr = next_rr;
                    o
                }
            };
            let (p, u, vu) = (owner.0, owner.1 as usize, owner.2 as usize);
            if self.ch[u].popped == now {
                continue;
            }
            let Some(&f) = self.ch[u].vc[vu].buf.front() else { continue };
            if f.pkt != p {
                continue;
            }
            let cu = &mut self.ch[u];
            cu.vc[vu].buf.pop_front();
            cu.popped = now;
            cu.vc[vu].credit_back.push_back(now + self.p.credit_delay);
            let flits = self.pkts[p as usize].flits;
            let c = &mut self.ch[n];
            c.vc[vo].credits -= 1;
            c.wire.push_back((now + c.lat, Flit { pkt: p, at: now, k: f.k + 1 }, vo as u8));
            c.vc[vo].sent += 1;
            if c.vc[vo].sent == flits {
                c.vc[vo].owner = None;
            }
            c.rr = (vo as u8 + 1) % 2;
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests;
