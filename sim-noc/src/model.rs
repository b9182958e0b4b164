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
    traffic: [NocTraffic; 2],
    /// Arrival of the last packet of each ordered flow, indexed by [`NocModel::flow`].
    flows: Vec<Cycle>,
    route: Vec<LinkId>,
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
            topo,
            traffic: Default::default(),
            flows: vec![Cycle::ZERO; grid.count() * grid.count() * 4],
            route: Vec::new(),
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
        let p = &self.params;
        let touch = p.l1_write_latency.min(p.l1_read_latency + Cycles(1));
        p.niu_to_router + p.hop + p.router_to_niu + touch
    }

    /// Zero-load latency of a `payload`-byte packet over `hops` router hops, from head injection to full
    /// arrival.
    pub fn zero_load_latency(&self, hops: u32, payload: u32) -> Cycles {
        let p = &self.params;
        p.niu_to_router + p.hop * hops as u64 + p.router_to_niu + self.serialisation(payload)
    }

    fn niu(&self, at: Noc0Coord, noc: NocId) -> usize {
        ((at.y * self.topo.grid().x + at.x) as usize) * 2 + noc.index()
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
        let mut route = std::mem::take(&mut self.route);
        route.clear();
        self.topo.unicast_route(noc, src, dst, &mut route);
        let dst_tile = self.tile_index(dst);
        for (k, &l) in route.iter().enumerate() {
            let s = self.links[l.0 as usize].reserve_after(self.now, head, dur, payload as u64);
            // Behind its head, the packet's body fills this router's and every earlier router's buffer
            // (and the source NIU's) at one flit per cycle.
            let buffered = self.vc_buffer_flits * (k as u64 + 1);
            if s - head > buffered {
                self.backpressure.queued(l, dst_tile, head, s, dur, s - head - buffered);
            }
            head = s + self.params.hop.0;
        }
        self.route = route;
        let (first, arrive) = self.eject_at(noc, dst, head, dur, payload);
        let arrive = self.in_order(noc, src, dst, vc, arrive);
        Delivery { inject_start: Cycle(start), inject_end: Cycle(start + dur), first_byte: first.min(arrive), arrive }
    }

    /// A read request (one header flit, no payload) from `src` to `dst`, ready at `ready`: it arrives after
    /// the zero-load latency of its route. Requests travel on their own virtual channels, whose flits the
    /// routers and NIUs interleave with data flits (hardware.md §3.2: 16 VCs multiplexed onto each
    /// physical channel, request and response classes apart), so a request is not queued behind the
    /// response data or multicast leaving a busy NIU, nor behind the data entering its destination; but
    /// its flit takes one cycle of the source port, every link and the destination port,
    /// which the data booked after it pays for. (calibration/noc_traces: cores that serve reads issue
    /// their own next read about 150 cycles after the previous one, not after their queue of 4 KiB
    /// responses has left.)
    pub fn request(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, ready: Cycle) -> Delivery {
        self.count(noc, 0);
        let i = self.niu(src, noc);
        self.inject[i].reserve_after(self.now, ready.0, 1, 0);
        let head = self.header_flit_route(noc, src, dst, ready.0 + self.params.niu_to_router.0);
        let e = self.niu(dst, noc);
        self.eject[e].reserve_after(self.now, head, 1, 0);
        let arrive = Cycle(head + self.params.router_to_niu.0 + 1);
        Delivery { inject_start: ready, inject_end: Cycle(ready.0 + 1), first_byte: arrive, arrive }
    }

    /// A read request from `src` to an L1 tile `dst`, ready at `ready`, that `dst`'s NIU serves for
    /// `serve` cycles (reading the data and forming the response). A NIU serves one request at a time;
    /// while it is busy, the request waits at its source — holding the requester's read command buffer —
    /// and leaves so as to arrive when the NIU is free. Reads in a row to one tile therefore go out at
    /// the tile's serving rate, while reads to different tiles overlap (calibration/dm One from All on
    /// both chips: 16 single reads to 16 peers leave at the issuing RISC's pace, 256 reads in a row to
    /// each peer at one per `serve` cycles).
    pub fn served_request(
        &mut self,
        noc: NocId,
        src: Noc0Coord,
        dst: Noc0Coord,
        ready: Cycle,
        serve: Cycles,
    ) -> Delivery {
        if serve.0 == 0 {
            return self.request(noc, src, dst, ready);
        }
        let hops = self.topo.hops(noc, src, dst) as u64;
        let p = &self.params;
        let latency = p.niu_to_router.0 + hops * p.hop.0 + p.router_to_niu.0 + 1;
        let e = self.niu(dst, noc);
        let start = self.serve[e].reserve_after(self.now, ready.0 + latency, serve.0, 0);
        let d = self.request(noc, src, dst, Cycle(start - latency));
        debug_assert_eq!(d.arrive.0, start);
        d
    }

    /// A header flit on a virtual channel of its own crossing the links from `src` to `dst`, its head at
    /// the first router at `head`: it takes one cycle of every link but waits for none. Returns when its
    /// head reaches the last router.
    fn header_flit_route(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, mut head: u64) -> u64 {
        let hop = self.params.hop.0;
        let mut route = std::mem::take(&mut self.route);
        route.clear();
        self.topo.unicast_route(noc, src, dst, &mut route);
        for &l in &route {
            self.links[l.0 as usize].reserve_after(self.now, head, 1, 0);
            head += hop;
        }
        self.route = route;
        head
    }

    /// A write acknowledgement (one header flit) from `src` back to `dst`, ready at `ready`: it arrives
    /// after the zero-load latency of its route and takes one cycle of the destination NIU's ejection
    /// port. Acknowledgements travel on a response virtual channel, whose flits interleave with the data
    /// packets on each link rather than waiting behind them, so the ack is not delayed by the data; but
    /// its flit takes one cycle of every link on its route, which the data booked after it pays for. (A
    /// multicast to N cores returns N acks, which share the links of its own broadcast tree on the way
    /// back: calibration/dm multicast Linked 5x5 tables move 8 KiB packets ~20 cycles slower than 2x2.)
    pub fn ack(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, ready: Cycle) -> Cycle {
        self.count(noc, 0);
        let head = self.header_flit_route(noc, src, dst, ready.0 + self.params.niu_to_router.0);
        let (_, arrive) = self.eject_at(noc, dst, head, 1, 0);
        arrive
    }

    /// The broadcast tree from `src` covering `rect` on `noc` (see [`Topology::broadcast_tree`]).
    pub fn multicast_tree(&self, noc: NocId, src: Noc0Coord, rect: Rect) -> Vec<TreeNode> {
        self.topo.broadcast_tree(noc, src, rect)
    }

    /// Cycles the source NIU spends reserving the broadcast path of an unlinked multicast before its
    /// head leaves: a fixed cost plus a per-hop cost to the farthest router of the tree.
    pub fn path_reservation(&self, noc: NocId, src: Noc0Coord, rect: Rect) -> Cycles {
        let tree = self.multicast_tree(noc, src, rect);
        let mut depth = vec![0u64; tree.len()];
        for i in 1..tree.len() {
            depth[i] = depth[tree[i].parent.expect("non-root")] + 1;
        }
        let far = depth.iter().copied().max().unwrap_or(0);
        let p = &self.params;
        Cycles(p.mcast_reserve_base.0 + far * p.mcast_reserve_per_hop.0)
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
mod tests {
    use super::*;
    use crate::topology::Dir;

    fn wh() -> NocModel {
        test_model()
    }

    const U: VcClass = VcClass::Unicast;

    #[test]
    fn nothing_reaches_another_tile_sooner_than_the_minimum_remote_latency() {
        // The scheduler's lookahead rests on this bound: try every kind of packet between every pair of
        // distinct tiles of a small grid, on both NoCs, with the NIUs and links already busy or not.
        let mut n = NocModel::new(
            GridSize::new(5, 4),
            NocParams {
                l1_write_latency: Cycles(3),
                l1_read_latency: Cycles(2),
                read_serve: Cycles(40),
                ..test_model().params
            },
        );
        let bound = n.min_remote_latency();
        assert_eq!(bound, Cycles(5 + 9 + 5 + 3));
        let tiles: Vec<Noc0Coord> = (0..4).flat_map(|y| (0..5).map(move |x| Noc0Coord::new(x, y))).collect();
        let mut t = 0u64;
        for noc in [NocId::Noc0, NocId::Noc1] {
            for &a in &tiles {
                for &b in tiles.iter().filter(|&&b| b != a) {
                    t += 7;
                    let ready = Cycle(t);
                    for payload in [0, 32, 4096] {
                        let d = n.unicast(noc, a, b, payload, ready, U);
                        assert!(d.arrive + Cycles(3) >= ready + bound, "unicast {a:?}->{b:?}");
                    }
                    let r = n.request(noc, a, b, ready);
                    assert!(r.arrive + Cycles(2) >= ready + bound, "request {a:?}->{b:?}");
                    let r = n.served_request(noc, a, b, ready, Cycles(40));
                    assert!(r.arrive + Cycles(2) >= ready + bound, "served request {a:?}->{b:?}");
                    let rect = Rect { x0: a.x.min(b.x), x1: a.x.max(b.x), y0: a.y.min(b.y), y1: a.y.max(b.y) };
                    let others: Vec<Noc0Coord> = tiles
                        .iter()
                        .copied()
                        .filter(|&c| c != a && (rect.x0..=rect.x1).contains(&c.x) && (rect.y0..=rect.y1).contains(&c.y))
                        .collect();
                    for d in n.multicast(noc, a, rect, &others, 64, ready, Cycles::ZERO) {
                        assert!(d.arrive + Cycles(3) >= ready + bound, "multicast {a:?}->{rect:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_multicast_that_includes_its_source_streams_at_the_loopback_rate() {
        let mut n =
            NocModel::new(GridSize::new(10, 12), NocParams { loopback_cycles_per_kflit: 1500, ..test_model().params });
        let src = Noc0Coord::new(1, 1);
        let rect = Rect { x0: 1, x1: 2, y0: 1, y1: 2 };
        let others = [Noc0Coord::new(2, 1), Noc0Coord::new(1, 2), Noc0Coord::new(2, 2)];
        // 2048 B: 64 data flits + 1 header; 65 at one per cycle, 97.5 -> 98 at 1.5.
        let d = n.multicast(NocId::Noc0, src, rect, &others, 2048, Cycle(0), Cycles::ZERO);
        assert_eq!(d[0].inject_end - d[0].inject_start, Cycles(65));
        let mut with_src = others.to_vec();
        with_src.insert(0, src);
        let d = n.multicast(NocId::Noc0, src, rect, &with_src, 2048, Cycle(1000), Cycles::ZERO);
        assert_eq!(d[0].inject_end - d[0].inject_start, Cycles(98));
        assert!(d[1].arrive - d[1].first_byte >= Cycles(98), "the flits leave at that rate, so they arrive at it");
    }

    #[test]
    fn zero_load_unicast_latency_is_the_formula() {
        let mut n = wh();
        // (1,1) -> (2,2) on NoC0: 2 hops; 2048 B = 64 data flits + 1 header.
        let d = n.unicast(NocId::Noc0, Noc0Coord::new(1, 1), Noc0Coord::new(2, 2), 2048, Cycle(100), U);
        assert_eq!(d.inject_start, Cycle(100));
        assert_eq!(d.inject_end, Cycle(165));
        assert_eq!(d.arrive, Cycle(100 + 5 + 2 * 9 + 5 + 65));
        assert_eq!(d.first_byte, Cycle(100 + 5 + 2 * 9 + 5));
        assert_eq!(n.zero_load_latency(2, 2048), Cycles(5 + 18 + 5 + 65));
    }

    #[test]
    fn a_read_request_is_not_queued_behind_data_but_takes_a_cycle_of_each_link() {
        let mut n = wh();
        let (me, peer) = (Noc0Coord::new(1, 1), Noc0Coord::new(3, 1));
        // `me` is busy sending 8 KiB (257 flits) to `peer` on the same NoC.
        let data = n.unicast(NocId::Noc0, me, peer, 8192, Cycle(0), U);
        assert_eq!(data.inject_end, Cycle(257));
        // Its read request to `peer` goes out at once and arrives after the zero-load latency of a
        // header-only packet (two hops), not after the data.
        let req = n.request(NocId::Noc0, me, peer, Cycle(10));
        assert_eq!(req.inject_start, Cycle(10));
        assert_eq!(req.arrive, Cycle(10 + 5 + 2 * 9 + 5 + 1));
        // Its flit still took one cycle of each link it crossed, and of both NIU ports.
        let busy: u64 = n.links().map(|(_, c)| c.busy).sum();
        assert_eq!(busy, 2 * 257 + 2, "two links carry the data, and each one cycle of the request");
        assert_eq!(n.port(me, NocId::Noc0, true).busy, 257 + 1);
        assert_eq!(n.port(peer, NocId::Noc0, false).busy, 257 + 1);
    }

    #[test]
    fn one_niu_injects_packets_back_to_back_in_order() {
        let mut n = wh();
        let a = n.unicast(NocId::Noc0, Noc0Coord::new(1, 1), Noc0Coord::new(3, 1), 8192, Cycle(0), U);
        let b = n.unicast(NocId::Noc0, Noc0Coord::new(1, 1), Noc0Coord::new(3, 1), 4, Cycle(1), U);
        assert_eq!(b.inject_start, a.inject_end);
        assert!(b.arrive > a.arrive, "a small write after a big one still arrives after it");
        let c = n.unicast(NocId::Noc1, Noc0Coord::new(1, 1), Noc0Coord::new(3, 1), 4, Cycle(1), U);
        assert_eq!(c.inject_start, Cycle(1), "the other NoC's NIU is independent");
    }

    #[test]
    fn one_flow_saturates_at_one_flit_per_cycle() {
        let mut n = wh();
        let mut last =
            Delivery { inject_start: Cycle(0), inject_end: Cycle(0), first_byte: Cycle(0), arrive: Cycle(0) };
        let packets = 100;
        for _ in 0..packets {
            last = n.unicast(NocId::Noc0, Noc0Coord::new(1, 1), Noc0Coord::new(4, 3), 8192, Cycle(0), U);
        }
        // 257 flits per packet, one per cycle, plus one zero-load latency for the last.
        assert_eq!(last.arrive, Cycle(99 * 257) + n.zero_load_latency(5, 8192));
    }

    #[test]
    fn two_flows_sharing_a_link_each_get_half() {
        let mut n = wh();
        // (1,1)->(4,1) and (2,1)->(5,1) share links (2,1)E and (3,1)E; each source injects continuously.
        let (a_src, a_dst, b_src, b_dst) =
            (Noc0Coord::new(1, 1), Noc0Coord::new(4, 1), Noc0Coord::new(2, 1), Noc0Coord::new(5, 1));
        let (mut a_end, mut b_end) = (Cycle(0), Cycle(0));
        let packets = 200u64;
        let (mut ta, mut tb) = (Cycle(0), Cycle(0));
        for _ in 0..packets {
            // Each source issues its next packet when its previous one has been injected.
            let a = n.unicast(NocId::Noc0, a_src, a_dst, 8192, ta, U);
            let b = n.unicast(NocId::Noc0, b_src, b_dst, 8192, tb, U);
            ta = a.inject_end;
            tb = b.inject_end;
            a_end = a.arrive;
            b_end = b.arrive;
        }
        // Alone, each flow would take ~200 × 257 cycles; sharing, each gets half the link: ~2×.
        let alone = packets * 257;
        for end in [a_end, b_end] {
            let ratio = end.0 as f64 / alone as f64;
            assert!((1.9..2.1).contains(&ratio), "ratio {ratio}");
        }
        let shared =
            n.links().find(|(l, _)| n.topology().link_info(*l) == (Noc0Coord::new(3, 1), Dir::East)).unwrap().1;
        assert_eq!(shared.busy, 2 * packets * 257);
    }

    #[test]
    fn an_ack_takes_one_cycle_of_each_link_it_crosses() {
        let mut n = wh();
        // The ack (3,1) -> (1,1) on NoC0 goes east around the ring: through (4,1)E at 5 + 1 × 9.
        let a = n.ack(NocId::Noc0, Noc0Coord::new(3, 1), Noc0Coord::new(1, 1), Cycle(0));
        assert_eq!(a, Cycle(5 + 8 * 9 + 5 + 1), "the ack itself is not delayed");
        // A packet from (4,1) crossing (4,1)E at 14 waits one cycle for the ack's flit.
        let d = n.unicast(NocId::Noc0, Noc0Coord::new(4, 1), Noc0Coord::new(5, 1), 32, Cycle(9), U);
        assert_eq!(d.arrive, Cycle(9 + 5 + 1 + 9 + 5 + 2));
        let link = n.links().find(|(l, _)| n.topology().link_info(*l) == (Noc0Coord::new(4, 1), Dir::East)).unwrap();
        assert_eq!(link.1.busy, 1 + 2);
    }

    #[test]
    fn multicast_tree_covers_the_rectangle_and_nothing_else() {
        let n = wh();
        let rect = Rect { x0: 2, x1: 4, y0: 2, y1: 3 };
        let tree = n.multicast_tree(NocId::Noc0, Noc0Coord::new(1, 1), rect);
        let tiles: Vec<(u32, u32)> = tree.iter().map(|t| (t.tile.x, t.tile.y)).collect();
        // Approach east to column 2, trunk south to rows 2..3, branches east along each row.
        assert_eq!(tiles, vec![(1, 1), (2, 1), (2, 2), (2, 3), (3, 2), (4, 2), (3, 3), (4, 3)]);
        let covered: std::collections::BTreeSet<(u32, u32)> =
            tiles.iter().copied().filter(|&(x, y)| rect.contains(Noc0Coord::new(x, y))).collect();
        assert_eq!(covered.len(), 6);
        // NoC1 mirrors it: approach west to column 4, trunk north, branches west.
        let tree1 = n.multicast_tree(NocId::Noc1, Noc0Coord::new(6, 5), rect);
        let t1: Vec<(u32, u32)> = tree1.iter().map(|t| (t.tile.x, t.tile.y)).collect();
        assert_eq!(t1, vec![(6, 5), (5, 5), (4, 5), (4, 4), (4, 3), (4, 2), (3, 3), (2, 3), (3, 2), (2, 2)]);
    }

    #[test]
    fn multicast_delivers_as_the_head_passes() {
        let mut n = wh();
        let rect = Rect { x0: 2, x1: 4, y0: 1, y1: 1 };
        let dests = [Noc0Coord::new(2, 1), Noc0Coord::new(3, 1), Noc0Coord::new(4, 1)];
        let d = n.multicast(NocId::Noc0, Noc0Coord::new(1, 1), rect, &dests, 32, Cycle(0), Cycles::ZERO);
        for (k, del) in d.iter().enumerate() {
            assert_eq!(del.arrive, Cycle(0) + n.zero_load_latency(k as u32 + 1, 32));
        }
        // Each tree link carried the packet once.
        let busy: u64 = n.links().map(|(_, c)| c.busy).sum();
        assert_eq!(busy, 3 * 2);
    }
}
