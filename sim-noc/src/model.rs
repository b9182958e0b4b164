//! The NoC timing model: packets crossing ports and links that each carry one flit per cycle.
//!
//! Every source NIU injection port, every router-to-router link and every destination NIU ejection port is
//! a [`Calendar`]. A packet (one header flit plus its data flits) is timed at the moment it is injected:
//! its head crosses NIU→router, one hop per link of its dimension-ordered route, and router→NIU; at every
//! resource it starts at the earliest time the resource is free for the packet's length (cut-through: the
//! head moves on as soon as it wins a link, while the body follows). With no other traffic:
//!
//! `arrive = inject_start + niu_to_router + hops × hop + router_to_niu + serialisation`,
//!
//! where `serialisation` is the packet's flits at the source NIU's injection rate. Packets from one NIU on
//! one NoC leave one after another; packets of one flow (same source, destination, NoC and VC class) arrive
//! in program order. A multicast follows the broadcast tree — along the major axis to the rectangle, along
//! the minor axis down its first column, then along the major axis across each row — occupying each tree
//! link once and delivering to each destination as its head passes.

use crate::backpressure::{Backpressure, BackpressureTracker};
use crate::calendar::Calendar;
use crate::params::NocParams;
use crate::topology::{LinkId, Rect, Topology, TreeNode};
use sim_core::{Cycle, Cycles};
use soc_descriptors::{GridSize, Noc0Coord, NocId};

/// Virtual-channel class of a packet (ordering holds within a class).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VcClass {
    /// Unicast requests: writes, read requests, atomics.
    Unicast,
    /// Multicast (broadcast) writes.
    Multicast,
    /// Responses: read data, acknowledgements.
    Response,
}

/// When one packet moved, for one destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delivery {
    /// The head flit leaves the source NIU.
    pub inject_start: Cycle,
    /// The tail flit has left the source NIU (the source data may be reused).
    pub inject_end: Cycle,
    /// The head reaches the destination NIU (first byte).
    pub first_byte: Cycle,
    /// The whole packet has arrived at the destination NIU.
    pub arrive: Cycle,
}

/// Per-NoC traffic counters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NocTraffic {
    /// Packets injected.
    pub packets: u64,
    /// Flits injected (header and data).
    pub flits: u64,
    /// Payload bytes injected.
    pub bytes: u64,
}

/// The two NoCs of a chip.
#[derive(Debug, Clone)]
pub struct NocModel {
    params: NocParams,
    topo: Topology,
    links: Vec<Calendar>,
    inject: Vec<Calendar>,
    eject: Vec<Calendar>,
    /// Per NIU: the read requests it is serving (see [`NocModel::served_request`]).
    serve: Vec<Calendar>,
    /// Per NIU: the earliest its next read request may be served (`read_interval`).
    read_next: Vec<u64>,
    /// Per NIU: the acknowledgements it takes in, one per cycle (see [`NocModel::ack`]).
    acks: Vec<Calendar>,
    traffic: [NocTraffic; 2],
    /// Arrival of the last packet of each ordered flow, indexed by [`NocModel::flow`].
    flows: Vec<Cycle>,
    /// The current time: no packet is ever injected before it (calendars forget what ended by then).
    now: u64,
    /// Flits one virtual channel parks per router (`vc_buffer_bytes` in flits).
    vc_buffer_flits: u64,
    backpressure: BackpressureTracker,
}

impl NocModel {
    /// The NoCs of a `grid`-sized chip.
    pub fn new(grid: GridSize, params: NocParams) -> NocModel {
        let topo = Topology::new(grid);
        let vc_buffer_flits = (params.vc_buffer_bytes / params.flit_bytes.max(1)) as u64;
        NocModel {
            vc_buffer_flits,
            backpressure: BackpressureTracker::new(topo.num_links()),
            params,
            links: vec![Calendar::new(); topo.num_links()],
            inject: vec![Calendar::new(); grid.count() * 2],
            eject: vec![Calendar::new(); grid.count() * 2],
            serve: vec![Calendar::new(); grid.count() * 2],
            read_next: vec![0; grid.count() * 2],
            acks: vec![Calendar::new(); grid.count() * 2],
            topo,
            traffic: Default::default(),
            flows: vec![Cycle::ZERO; grid.count() * grid.count() * 4],
            now: 0,
        }
    }

    /// The parameters.
    pub fn params(&self) -> &NocParams {
        &self.params
    }

    /// The topology.
    pub fn topology(&self) -> &Topology {
        &self.topo
    }

    /// Flits of a packet carrying `payload` bytes.
    pub fn flits(&self, payload: u32) -> u32 {
        self.params.header_flits + payload.div_ceil(self.params.flit_bytes)
    }

    /// Cycles the source NIU needs to inject a packet carrying `payload` bytes.
    pub fn serialisation(&self, payload: u32) -> Cycles {
        Cycles((self.flits(payload) as u64 * self.params.inject_cycles_per_kflit as u64).div_ceil(1000))
    }

    /// Cycles a NIU needs to move a `payload`-byte packet to its own tile.
    pub fn loopback_serialisation(&self, payload: u32) -> Cycles {
        Cycles((self.flits(payload) as u64 * self.params.loopback_cycles_per_kflit as u64).div_ceil(1000))
    }

    /// A lower bound on the time from a NoC command issued by one tile to its first effect on the memory of
    /// another tile: a header leaves through the source NIU, crosses at least one router hop, enters the
    /// destination NIU, and either writes L1 (a write, multicast or atomic lands) or makes the NIU read L1
    /// (a read request is served one cycle after it arrives). Queueing only adds to it. The scheduler lets
    /// kernels run this far ahead of other cores in calls on their own core (`sim_core::agenda`).
    pub fn min_remote_latency(&self) -> Cycles {
        self.params.min_remote_latency()
    }

    /// Zero-load latency of a `payload`-byte packet over `hops` router hops, from head injection to full
    /// arrival.
    pub fn zero_load_latency(&self, hops: u32, payload: u32) -> Cycles {
        let p = &self.params;
        p.niu_to_router + p.hop * hops as u64 + p.router_to_niu + self.serialisation(payload)
    }

    fn niu(&self, at: Noc0Coord, noc: NocId) -> usize {
        self.topo.niu_index(at, noc)
    }

    fn tile_index(&self, at: Noc0Coord) -> u32 {
        at.y * self.topo.grid().x + at.x
    }

    fn count(&mut self, noc: NocId, payload: u32) {
        let flits = self.flits(payload) as u64;
        let t = &mut self.traffic[noc.index()];
        t.packets += 1;
        t.flits += flits;
        t.bytes += payload as u64;
    }

    /// Eject at `tile` a packet whose head reaches its router at `head`.
    fn eject_at(&mut self, noc: NocId, tile: Noc0Coord, head: u64, dur: u64, payload: u32) -> (Cycle, Cycle) {
        let i = self.niu(tile, noc);
        let e = self.eject[i].reserve_after(self.now, head, dur, payload as u64);
        let first = e + self.params.router_to_niu.0;
        (Cycle(first), Cycle(first + dur))
    }

    /// Index of the ordered flow (source, destination, NoC, unicast or multicast class).
    fn flow(&self, src: Noc0Coord, dst: Noc0Coord, noc: NocId, vc: VcClass) -> usize {
        let n = self.topo.grid().count();
        let class = if vc == VcClass::Multicast { 1 } else { 0 };
        ((self.tile_index(src) as usize * n + self.tile_index(dst) as usize) * 2 + noc.index()) * 2 + class
    }

    fn in_order(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, vc: VcClass, arrive: Cycle) -> Cycle {
        if vc == VcClass::Response {
            return arrive;
        }
        let i = self.flow(src, dst, noc, vc);
        let a = arrive.max(self.flows[i]);
        self.flows[i] = a;
        a
    }

    /// Send a unicast packet of `payload` bytes from `src` to `dst` on `noc`, ready at `ready`.
    pub fn unicast(
        &mut self,
        noc: NocId,
        src: Noc0Coord,
        dst: Noc0Coord,
        payload: u32,
        ready: Cycle,
        vc: VcClass,
    ) -> Delivery {
        // A packet to its own tile (loopback) moves through one NIU that reads and writes the same L1:
        // it streams slower and turns around later than a packet between two tiles.
        let looped = src == dst && payload > 0;
        let dur = if looped { self.loopback_serialisation(payload).0 } else { self.serialisation(payload).0 };
        let i = self.niu(src, noc);
        let start = self.inject[i].reserve_after(self.now, ready.0, dur, payload as u64);
        self.count(noc, payload);
        let mut head = start + self.params.niu_to_router.0;
        if looped {
            head += self.params.loopback_turn.0;
        }
        let dst_tile = self.tile_index(dst);
        let (now, hop, vc_buffer_flits) = (self.now, self.params.hop.0, self.vc_buffer_flits);
        let (links, backpressure) = (&mut self.links, &mut self.backpressure);
        // Behind its head, the packet's body fills this router's and every earlier router's buffer (and
        // the source NIU's) at one flit per cycle.
        let mut buffered = 0;
        self.topo.for_each_route_link(noc, src, dst, |l| {
            let s = links[l.0 as usize].reserve_after(now, head, dur, payload as u64);
            buffered += vc_buffer_flits;
            if s - head > buffered {
                backpressure.queued(l, dst_tile, head, s, dur, s - head - buffered);
            }
            head = s + hop;
        });
        let (first, arrive) = self.eject_at(noc, dst, head, dur, payload);
        let arrive = self.in_order(noc, src, dst, vc, arrive);
        Delivery { inject_start: Cycle(start), inject_end: Cycle(start + dur), first_byte: first.min(arrive), arrive }
    }

    /// A read request (one header flit, no payload) from `src` to `dst`, ready at `ready`: it arrives after
    /// the zero-load latency of its route. Requests travel on their own virtual channels, whose flits the
    /// routers and NIUs interleave with data flits (hardware.md §3.2: 16 VCs multiplexed onto each
    /// physical channel, request and response classes apart), so a request is not queued behind the
    /// response data or multicast leaving a busy NIU, nor behind the data entering its destination; but
    /// its flit takes one cycle of the source port, every link and the destination port, which the data
    /// it interleaves with pays for ([`Calendar::pass_flit`]). (calibration/noc_traces: cores that serve
    /// reads issue their own next read about 150 cycles after the previous one, not after their queue of
    /// 4 KiB responses has left.)
    pub fn request(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, ready: Cycle) -> Delivery {
        self.count(noc, 0);
        let i = self.niu(src, noc);
        self.inject[i].pass_flit(ready.0);
        let head = self.header_flit_route(noc, src, dst, ready.0 + self.params.niu_to_router.0);
        let e = self.niu(dst, noc);
        self.eject[e].pass_flit(head);
        let arrive = Cycle(head + self.params.router_to_niu.0 + 1);
        Delivery { inject_start: ready, inject_end: Cycle(ready.0 + 1), first_byte: arrive, arrive }
    }

    /// A read request from `src` to an L1 tile `dst`, ready at `ready`, that `dst`'s NIU serves for
    /// `serve` cycles (reading the data and forming the response). A NIU serves one request at a time;
    /// while it is busy, the request waits at its source — holding the requester's read command buffer —
    /// and leaves so as to arrive when the NIU is free. Reads in a row to one tile therefore go out at
    /// the tile's serving rate. A requester's consecutive reads are also served at least `read_interval`
    /// apart whichever tiles serve them, so reads to different tiles overlap only as far as that allows
    /// (calibration/dm One from All on both chips: 16 single reads to 16 peers leave at the issuing RISC's
    /// pace, 256 reads in a row to each peer at one per `serve` cycles; the first read to the next peer
    /// does not overlap the last one to the previous).
    pub fn served_request(
        &mut self,
        noc: NocId,
        src: Noc0Coord,
        dst: Noc0Coord,
        ready: Cycle,
        serve: Cycles,
    ) -> Delivery {
        let p = &self.params;
        if serve.0 == 0 && p.read_interval.0 == 0 {
            return self.request(noc, src, dst, ready);
        }
        let hops = self.topo.hops(noc, src, dst) as u64;
        let latency = p.niu_to_router.0 + hops * p.hop.0 + p.router_to_niu.0 + 1;
        let (e, r) = (self.niu(dst, noc), self.niu(src, noc));
        let earliest = (ready.0 + latency).max(self.read_next[r]);
        let start = match serve.0 {
            0 => earliest,
            _ => self.serve[e].reserve_after(self.now, earliest, serve.0, 0),
        };
        if self.params.read_interval.0 > 0 {
            self.read_next[r] = start + self.params.read_interval.0;
        }
        let d = self.request(noc, src, dst, Cycle(start - latency));
        debug_assert_eq!(d.arrive.0, start);
        d
    }

    /// A header flit on a virtual channel of its own crossing the links from `src` to `dst`, its head at
    /// the first router at `head`: it takes one cycle of every link but waits for none
    /// ([`Calendar::pass_flit`]: the data it meets is a cycle longer). Returns when its
    /// head reaches the last router.
    fn header_flit_route(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, mut head: u64) -> u64 {
        let (hop, links) = (self.params.hop.0, &mut self.links);
        self.topo.for_each_route_link(noc, src, dst, |l| {
            links[l.0 as usize].pass_flit(head);
            head += hop;
        });
        head
    }

    /// A write acknowledgement (one header flit) from `src` back to `dst`, ready at `ready`: it arrives
    /// after the zero-load latency of its route. Acknowledgements travel on a response virtual channel,
    /// whose flits interleave with the data packets on each link and at the ejection port rather than
    /// waiting behind them, so the ack is not delayed by the data; but its flit takes one cycle of every
    /// link on its route and of the destination NIU's ejection port, which the data it meets pays for
    /// ([`Calendar::pass_flit`]). (A
    /// multicast to N cores returns N acks, which share the links of its own broadcast tree on the way
    /// back: calibration/dm multicast Linked 5x5 tables move 8 KiB packets ~20 cycles slower than 2x2.)
    /// The NIU takes the acknowledgements in one per cycle, so a multicast's N acks reach the sender over
    /// at least N cycles (issue 51: on large grids that, not the path, paces back-to-back multicasts).
    pub fn ack(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, ready: Cycle) -> Cycle {
        self.count(noc, 0);
        let head = self.header_flit_route(noc, src, dst, ready.0 + self.params.niu_to_router.0);
        let e = self.niu(dst, noc);
        self.eject[e].pass_flit(head);
        let at = head + self.params.router_to_niu.0;
        Cycle(self.acks[e].reserve_after(self.now, at, 1, 0) + 1)
    }

    /// The broadcast tree from `src` covering `rect` on `noc` (see [`Topology::broadcast_tree`]).
    pub fn multicast_tree(&self, noc: NocId, src: Noc0Coord, rect: Rect) -> Vec<TreeNode> {
        self.topo.broadcast_tree(noc, src, rect)
    }

    /// Cycles the source NIU spends reserving the broadcast path of an unlinked multicast before its
    /// head leaves: a fixed cost plus a per-hop cost to the farthest router of the tree.
    pub fn path_reservation(&self, noc: NocId, src: Noc0Coord, rect: Rect) -> Cycles {
        let tree = self.multicast_tree(noc, src, rect);
        self.params.path_reservation(crate::topology::tree_depth(&tree))
    }

    /// Send a multicast packet along the broadcast tree covering `rect`; `dests` are the tiles that take the
    /// data (in any order). The source NIU is busy for `setup` (the path reservation of an unlinked
    /// multicast, zero on a held path) and then the packet's serialisation: the head leaves `setup` after
    /// the NIU takes the packet. Returns one delivery per destination, in `dests` order; `inject_start` is
    /// when the NIU took the packet and `inject_end` when its tail left.
    #[allow(clippy::too_many_arguments)]
    pub fn multicast(
        &mut self,
        noc: NocId,
        src: Noc0Coord,
        rect: Rect,
        dests: &[Noc0Coord],
        payload: u32,
        ready: Cycle,
        setup: Cycles,
    ) -> Vec<Delivery> {
        // A multicast that includes its source (the `_loopback_src` variants) has the source NIU write every
        // flit into its own L1 as it reads it out, like a packet to its own tile: the packet streams at the
        // loopback rate.
        let looped = payload > 0 && dests.contains(&src);
        let dur = if looped { self.loopback_serialisation(payload).0 } else { self.serialisation(payload).0 };
        let i = self.niu(src, noc);
        let start = self.inject[i].reserve_after(self.now, ready.0, setup.0 + dur, payload as u64);
        self.count(noc, payload);
        let tree = self.multicast_tree(noc, src, rect);
        let mut head = vec![0u64; tree.len()];
        head[0] = start + setup.0 + self.params.niu_to_router.0;
        for n in 1..tree.len() {
            let TreeNode { parent, via, .. } = tree[n];
            let h = head[parent.expect("non-root")];
            let s = self.links[via.expect("non-root").0 as usize].reserve_after(self.now, h, dur, payload as u64);
            head[n] = s + self.params.hop.0;
        }
        let mut out = Vec::with_capacity(dests.len());
        for &d in dests {
            // The last node at this tile (the source tile can appear twice when the tree wraps around).
            let n = tree.iter().rposition(|t| t.tile == d).unwrap_or(0);
            let (first, arrive) = self.eject_at(noc, d, head[n], dur, payload);
            let arrive = self.in_order(noc, src, d, VcClass::Multicast, arrive);
            out.push(Delivery {
                inject_start: Cycle(start),
                inject_end: Cycle(start + setup.0 + dur),
                first_byte: first.min(arrive),
                arrive,
            });
        }
        out
    }

    /// The simulation has reached `now`: every later packet is injected at `now` or after. Lets the
    /// calendars forget reservations that ended before it.
    pub fn set_now(&mut self, now: Cycle) {
        debug_assert!(now.0 >= self.now, "time went backwards: {} after {}", now.0, self.now);
        self.now = self.now.max(now.0);
    }

    /// Traffic injected on `noc` so far.
    pub fn traffic(&self, noc: NocId) -> NocTraffic {
        self.traffic[noc.index()]
    }

    /// Head-of-line blocking beyond router buffering seen so far (see [`crate::backpressure`]).
    pub fn backpressure(&self) -> Backpressure {
        self.backpressure.seen
    }

    /// Every link with its calendar (counters: busy cycles, bytes).
    pub fn links(&self) -> impl Iterator<Item = (LinkId, &Calendar)> + '_ {
        self.links.iter().enumerate().map(|(i, c)| (LinkId(i as u32), c))
    }

    /// Injection (`true`) or ejection port calendar of `tile` on `noc`.
    pub fn port(&self, tile: Noc0Coord, noc: NocId, inject: bool) -> &Calendar {
        let i = self.niu(tile, noc);
        if inject { &self.inject[i] } else { &self.eject[i] }
    }
}

/// A Wormhole-like 10×12 NoC with round numbers (9-cycle hops, one flit per cycle), for tests.
#[cfg(test)]
pub(crate) fn test_model() -> NocModel {
    NocModel::new(
        GridSize::new(10, 12),
        NocParams {
            flit_bytes: 32,
            max_burst_bytes: 8192,
            header_flits: 1,
            hop: Cycles(9),
            niu_to_router: Cycles(5),
            router_to_niu: Cycles(5),
            inject_cycles_per_kflit: 1000,
            vc_buffer_bytes: 512,
            ..NocParams::default()
        },
    )
}

#[cfg(test)]
mod tests;
