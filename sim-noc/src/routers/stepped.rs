//! The router-level model behind the NoC timing seam (`noc.model=router`): the engine sends packets with
//! [`RouterTiming::send`], steps the routers with [`RouterTiming::advance`] as its own time moves on, and
//! hears what happened as [`super::RouterEvent`]s. The counters the reports read (traffic, per-link and
//! per-port use) are kept as the other models keep them.

use super::worms::PacketNoc;
use super::{RouterNoc, RouterParams, RouterStats};
use crate::backpressure::Backpressure;
use crate::calendar::Calendar;
use crate::model::{Delivery, NocTraffic, VcClass};
use crate::params::{NocModelKind, NocParams};
use crate::stepping::{Outgoing, RouterEvent, SteppedNoc};
use crate::timing::NocTiming;
use crate::topology::{LinkId, Rect, Topology};
use crate::use_counters::UseCounters;
use sim_core::{Cycle, Cycles};
use soc_descriptors::{GridSize, Noc0Coord, NocId};

/// The routers, flit by flit or packet by packet.
#[derive(Debug, Clone)]
enum Routers {
    Flits(RouterNoc),
    Packets(PacketNoc),
}

/// The router model (flit- or packet-level, as `noc.model` says) with its counters.
#[derive(Debug, Clone)]
pub struct RouterTiming {
    params: NocParams,
    topo: Topology,
    routers: Routers,
    uses: UseCounters,
    /// Per NIU: when it is free to serve the next read request.
    serve_free: Vec<Cycle>,
    /// Per NIU: the earliest its next read request may be served (`noc.read_interval_cycles`).
    read_next: Vec<Cycle>,
}

impl RouterTiming {
    /// Idle routers of a `grid`-sized chip.
    pub fn new(grid: GridSize, params: NocParams) -> RouterTiming {
        let topo = Topology::new(grid);
        let p = RouterParams::from_noc(&params);
        let routers = match params.model {
            NocModelKind::Packets => Routers::Packets(PacketNoc::new(grid, p)),
            _ => Routers::Flits(RouterNoc::new(grid, p)),
        };
        RouterTiming {
            routers,
            uses: UseCounters::new(&topo),
            serve_free: vec![Cycle::ZERO; grid.count() * 2],
            read_next: vec![Cycle::ZERO; grid.count() * 2],
            topo,
            params,
        }
    }

    /// The flit-level routers' counters (`None` on the packet-level model).
    pub fn router_stats(&self) -> Option<RouterStats> {
        match &self.routers {
            Routers::Flits(r) => Some(r.stats()),
            Routers::Packets(_) => None,
        }
    }

    /// Per router port: head-of-line-blocked cycles and occupancy (flit-cycles), links first in
    /// [`LinkId`] order, then the NIUs' injection and ejection ports (see [`RouterNoc::port_counters`];
    /// the packet-level model reckons them from its heads' waits: see `worms/ports.rs`).
    pub fn port_counters(&self) -> Option<Vec<(u64, u64)>> {
        match &self.routers {
            Routers::Flits(r) => Some(r.port_counters().collect()),
            Routers::Packets(r) => Some(r.port_counters().collect()),
        }
    }

    fn flits(&self, payload: u32) -> u32 {
        match &self.routers {
            Routers::Flits(r) => r.flits(payload),
            Routers::Packets(r) => r.flits(payload),
        }
    }
}

impl SteppedNoc for RouterTiming {
    fn stuck(&self) -> Option<String> {
        match &self.routers {
            Routers::Flits(r) => r.stuck(),
            Routers::Packets(r) => r.stuck(),
        }
    }

    /// Queue a packet (see [`RouterNoc::send`]); returns when its head leaves if that is already certain.
    fn send(&mut self, s: Outgoing<'_>) -> Option<Cycle> {
        let looped = s.payload > 0 && s.dests.contains(&s.src);
        let flits = self.flits(s.payload) as u64;
        let per_k = if looped { self.params.loopback_cycles_per_kflit } else { self.params.inject_cycles_per_kflit };
        let dur = if s.paced { (flits * per_k as u64).div_ceil(1000) } else { 1 };
        self.uses.packet(s.noc, flits, s.payload);
        self.uses.way(&self.topo, s.noc, s.src, s.dests, s.tree, dur, s.payload);
        match &mut self.routers {
            Routers::Flits(r) => r.send(s),
            Routers::Packets(r) => r.send(s),
        }
    }
    /// Step the routers through every cycle before `until`; what happened is appended to `out`.
    fn advance(&mut self, until: Cycle, out: &mut Vec<RouterEvent>) {
        match &mut self.routers {
            Routers::Flits(r) => r.advance(until, out),
            Routers::Packets(r) => r.advance(until, out),
        }
    }
    /// The next cycle in which the routers have something to do.
    fn next_activity(&self) -> Option<Cycle> {
        match &self.routers {
            Routers::Flits(r) => r.next_activity(),
            Routers::Packets(r) => r.next_activity(),
        }
    }
    /// A read request from `src` to `dst`'s NIU on `noc`, issued at `now`: the NIU serves one request at a
    /// time for `serve` cycles, no sooner than `read_interval` after the requester's previous one, and a
    /// request that would find it busy waits at its source, holding the requester's read command buffer
    /// (as [`crate::model::NocModel::served_request`] books it). Returns
    /// (when the request may leave, when its service is booked to start); service starts at the later of
    /// that and the request's actual arrival.
    fn book_serve(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, now: Cycle, serve: Cycles) -> (Cycle, Cycle) {
        let p = &self.params;
        if serve.0 == 0 && p.read_interval.0 == 0 {
            return (now, now);
        }
        let latency = p.niu_to_router.0 + self.topo.hops(noc, src, dst) as u64 * p.hop.0 + p.router_to_niu.0 + 1;
        let (i, r) = (self.topo.niu_index(dst, noc), self.topo.niu_index(src, noc));
        let start = (now + Cycles(latency)).max(self.serve_free[i]).max(self.read_next[r]);
        self.serve_free[i] = start + serve;
        if p.read_interval.0 > 0 {
            self.read_next[r] = start + p.read_interval;
        }
        (Cycle(start.0 - latency), start)
    }
}

const BOOKED_ONLY: &str = "the router model times packets as it steps (RouterTiming::send), not when they are issued";

impl NocTiming for RouterTiming {
    fn kind(&self) -> NocModelKind {
        self.params.model
    }
    fn params(&self) -> &NocParams {
        &self.params
    }
    fn topology(&self) -> &Topology {
        &self.topo
    }
    fn min_remote_latency(&self) -> Cycles {
        self.params.min_remote_latency()
    }
    fn serialisation(&self, payload: u32) -> Cycles {
        Cycles((self.flits(payload) as u64 * self.params.inject_cycles_per_kflit as u64).div_ceil(1000))
    }
    fn unicast(&mut self, _: NocId, _: Noc0Coord, _: Noc0Coord, _: u32, _: Cycle, _: VcClass) -> Delivery {
        unreachable!("{BOOKED_ONLY}")
    }
    fn request(&mut self, _: NocId, _: Noc0Coord, _: Noc0Coord, _: Cycle) -> Delivery {
        unreachable!("{BOOKED_ONLY}")
    }
    fn served_request(&mut self, _: NocId, _: Noc0Coord, _: Noc0Coord, _: Cycle, _: Cycles) -> Delivery {
        unreachable!("{BOOKED_ONLY}")
    }
    fn ack(&mut self, _: NocId, _: Noc0Coord, _: Noc0Coord, _: Cycle) -> Cycle {
        unreachable!("{BOOKED_ONLY}")
    }
    fn path_reservation(&self, noc: NocId, src: Noc0Coord, rect: Rect) -> Cycles {
        let tree = self.topo.broadcast_tree(noc, src, rect);
        self.params.path_reservation(crate::topology::tree_depth(&tree))
    }
    fn multicast(
        &mut self,
        _: NocId,
        _: Noc0Coord,
        _: Rect,
        _: &[Noc0Coord],
        _: u32,
        _: Cycle,
        _: Cycles,
    ) -> Vec<Delivery> {
        unreachable!("{BOOKED_ONLY}")
    }
    fn set_now(&mut self, _now: Cycle) {}
    fn traffic(&self, noc: NocId) -> NocTraffic {
        self.uses.traffic(noc)
    }
    fn backpressure(&self) -> Backpressure {
        // Back-pressure is what this model times; nothing to flag.
        Backpressure::default()
    }
    fn links(&self) -> Box<dyn Iterator<Item = (LinkId, &Calendar)> + '_> {
        Box::new(self.uses.links())
    }
    fn port(&self, tile: Noc0Coord, noc: NocId, inject: bool) -> &Calendar {
        self.uses.port(self.topo.niu_index(tile, noc), inject)
    }
    fn stepped(&mut self) -> Option<&mut dyn SteppedNoc> {
        Some(self)
    }
    fn buffer_counters(&self) -> Option<Vec<(u64, u64)>> {
        self.port_counters()
    }
}
