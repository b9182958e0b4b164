//! The seam between the engine and a NoC timing model. The engine hands every packet to a [`NocTiming`]
//! and gets back when it moves; which model answers is a parameter (`noc.model`):
//!
//! - `calendar` ([`crate::model::NocModel`], the default and the one calibrated against silicon): every port
//!   and link is a calendar of busy intervals; a packet books its whole path when it is injected.
//! - `zero_load` ([`ZeroLoadNoc`]): every packet sees an empty NoC — the zero-load latency of its route
//!   and its own serialisation, nothing else. A floor for what contention costs, and a second
//!   implementation that keeps the seam honest. Not calibrated.
//!
//! - `router` ([`crate::routers::RouterTiming`]): credit-based wormhole routers stepped cycle by cycle;
//!   it times a packet as it moves, so the engine sends packets through [`NocTiming::stepped`] and
//!   advances it in time order.
//!
//! The flit-by-flit model ([`crate::flit`]) stays a test oracle for the calendar model.

use crate::backpressure::Backpressure;
use crate::calendar::Calendar;
use crate::model::{Delivery, NocModel, NocTraffic, VcClass};
use crate::params::{NocModelKind, NocParams};
use crate::topology::{LinkId, Rect, Topology, TreeNode};
use crate::use_counters::UseCounters;
use sim_core::{Cycle, Cycles};
use soc_descriptors::{GridSize, Noc0Coord, NocId};

/// A NoC timing model.
///
/// Contract (what every implementation keeps, and the engine relies on):
/// - A packet is timed once, when the engine issues it (`unicast`, `request`, `served_request`, `ack`,
///   `multicast`), never re-timed later; `ready` is never before the last [`NocTiming::set_now`].
/// - Packets of one flow — same source, destination, NoC and class (unicast or multicast) — arrive in
///   the order they were issued (data written later lands later). Responses (`VcClass::Response`), read
///   requests and acknowledgements may overtake each other.
/// - A delivery's times are ordered: `inject_start ≤ inject_end`, `inject_start ≤ first_byte ≤ arrive`,
///   and nothing from one tile reaches another sooner than [`NocTiming::min_remote_latency`] after it
///   was ready (the scheduler's lookahead depends on it).
/// - Counters (`traffic`, link and port calendars' `busy`/`bytes`/`uses`) count every packet, whatever
///   the model charges for it.
pub trait NocTiming: Send {
    /// Which model this is.
    fn kind(&self) -> NocModelKind;
    /// The parameters.
    fn params(&self) -> &NocParams;
    /// The topology.
    fn topology(&self) -> &Topology;
    /// A lower bound on the time from a NoC command on one tile to its first effect on another's memory.
    fn min_remote_latency(&self) -> Cycles;
    /// Cycles a NIU takes to stream a `payload`-byte packet out (its serialisation).
    fn serialisation(&self, payload: u32) -> Cycles;
    /// A unicast packet of `payload` bytes from `src` to `dst` on `noc`, ready at `ready`.
    fn unicast(
        &mut self,
        noc: NocId,
        src: Noc0Coord,
        dst: Noc0Coord,
        payload: u32,
        ready: Cycle,
        vc: VcClass,
    ) -> Delivery;
    /// A read request (one header flit).
    fn request(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, ready: Cycle) -> Delivery;
    /// A read request that `dst`'s NIU serves for `serve` cycles.
    fn served_request(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, ready: Cycle, serve: Cycles) -> Delivery;
    /// A write acknowledgement from `src` back to `dst`: when it arrives.
    fn ack(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, ready: Cycle) -> Cycle;
    /// Cycles an unlinked multicast spends reserving its path before its head leaves.
    fn path_reservation(&self, noc: NocId, src: Noc0Coord, rect: Rect) -> Cycles;
    /// A multicast over `rect` delivered to `dests`: one delivery per destination, in `dests` order.
    #[allow(clippy::too_many_arguments)]
    fn multicast(
        &mut self,
        noc: NocId,
        src: Noc0Coord,
        rect: Rect,
        dests: &[Noc0Coord],
        payload: u32,
        ready: Cycle,
        setup: Cycles,
    ) -> Vec<Delivery>;
    /// The simulation has reached `now`: no later packet is ready before it.
    fn set_now(&mut self, now: Cycle);
    /// Traffic injected on `noc` so far.
    fn traffic(&self, noc: NocId) -> NocTraffic;
    /// Head-of-line blocking beyond router buffering seen so far (models without queues see none).
    fn backpressure(&self) -> Backpressure;
    /// Every link with its calendar (its counters: busy cycles, bytes, uses).
    fn links(&self) -> Box<dyn Iterator<Item = (LinkId, &Calendar)> + '_>;
    /// Injection (`true`) or ejection port calendar of `tile` on `noc`.
    fn port(&self, tile: Noc0Coord, noc: NocId, inject: bool) -> &Calendar;
    /// A model that times packets as it steps through time rather than when they are issued (the router
    /// model): the engine then sends through it and advances it in time order instead of calling the
    /// packet methods above.
    fn stepped(&mut self) -> Option<&mut dyn crate::stepping::SteppedNoc> {
        None
    }
    /// Per router buffer, for models that have them: (head-of-line-blocked cycles, flits held summed over
    /// cycles), links first in [`LinkId`] order, then every NIU's injection port and its ejection port in
    /// [`Topology::niu_index`] order.
    fn buffer_counters(&self) -> Option<Vec<(u64, u64)>> {
        None
    }
}

impl NocTiming for NocModel {
    fn kind(&self) -> NocModelKind {
        NocModelKind::Calendar
    }
    fn params(&self) -> &NocParams {
        NocModel::params(self)
    }
    fn topology(&self) -> &Topology {
        NocModel::topology(self)
    }
    fn min_remote_latency(&self) -> Cycles {
        NocModel::min_remote_latency(self)
    }
    fn serialisation(&self, payload: u32) -> Cycles {
        NocModel::serialisation(self, payload)
    }
    fn unicast(
        &mut self,
        noc: NocId,
        src: Noc0Coord,
        dst: Noc0Coord,
        payload: u32,
        ready: Cycle,
        vc: VcClass,
    ) -> Delivery {
        NocModel::unicast(self, noc, src, dst, payload, ready, vc)
    }
    fn request(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, ready: Cycle) -> Delivery {
        NocModel::request(self, noc, src, dst, ready)
    }
    fn served_request(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, ready: Cycle, serve: Cycles) -> Delivery {
        NocModel::served_request(self, noc, src, dst, ready, serve)
    }
    fn ack(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, ready: Cycle) -> Cycle {
        NocModel::ack(self, noc, src, dst, ready)
    }
    fn path_reservation(&self, noc: NocId, src: Noc0Coord, rect: Rect) -> Cycles {
        NocModel::path_reservation(self, noc, src, rect)
    }
    fn multicast(
        &mut self,
        noc: NocId,
        src: Noc0Coord,
        rect: Rect,
        dests: &[Noc0Coord],
        payload: u32,
        ready: Cycle,
        setup: Cycles,
    ) -> Vec<Delivery> {
        NocModel::multicast(self, noc, src, rect, dests, payload, ready, setup)
    }
    fn set_now(&mut self, now: Cycle) {
        NocModel::set_now(self, now)
    }
    fn traffic(&self, noc: NocId) -> NocTraffic {
        NocModel::traffic(self, noc)
    }
    fn backpressure(&self) -> Backpressure {
        NocModel::backpressure(self)
    }
    fn links(&self) -> Box<dyn Iterator<Item = (LinkId, &Calendar)> + '_> {
        Box::new(NocModel::links(self))
    }
    fn port(&self, tile: Noc0Coord, noc: NocId, inject: bool) -> &Calendar {
        NocModel::port(self, tile, noc, inject)
    }
}

/// Every packet at its zero-load latency: the route's fixed latencies plus its own serialisation, as if
/// no other packet were on the NoC. Ports and links keep their counters (the heatmaps show the traffic)
/// but never delay anything. Flows stay in order (data written later lands later).
#[derive(Debug, Clone)]
pub struct ZeroLoadNoc {
    params: NocParams,
    topo: Topology,
    uses: UseCounters,
    /// Arrival of the last packet of each ordered flow.
    flows: Vec<Cycle>,
}

impl ZeroLoadNoc {
    /// The NoCs of a `grid`-sized chip.
    pub fn new(grid: GridSize, params: NocParams) -> ZeroLoadNoc {
        let topo = Topology::new(grid);
        ZeroLoadNoc {
            uses: UseCounters::new(&topo),
            flows: vec![Cycle::ZERO; grid.count() * grid.count() * 4],
            topo,
            params,
        }
    }

    fn flits(&self, payload: u32) -> u64 {
        (self.params.header_flits + payload.div_ceil(self.params.flit_bytes.max(1))) as u64
    }

    fn stream_cycles(&self, payload: u32, looped: bool) -> u64 {
        let per_k = if looped { self.params.loopback_cycles_per_kflit } else { self.params.inject_cycles_per_kflit };
        (self.flits(payload) * per_k as u64).div_ceil(1000)
    }

    fn count(&mut self, noc: NocId, payload: u32) {
        self.uses.packet(noc, self.flits(payload), payload);
    }

    fn in_order(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, vc: VcClass, arrive: Cycle) -> Cycle {
        if vc == VcClass::Response {
            return arrive;
        }
        let g = self.topo.grid();
        let (n, tile) = (g.count(), |c: Noc0Coord| (c.y * g.x + c.x) as usize);
        let class = usize::from(vc == VcClass::Multicast);
        let i = ((tile(src) * n + tile(dst)) * 2 + noc.index()) * 2 + class;
        let a = arrive.max(self.flows[i]);
        self.flows[i] = a;
        a
    }

    /// A header flit's arrival at `dst`'s NIU (its last cycle), leaving `src` at `ready`.
    fn header_arrival(&self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, ready: Cycle) -> Cycle {
        let p = &self.params;
        let hops = self.topo.hops(noc, src, dst) as u64;
        Cycle(ready.0 + p.niu_to_router.0 + hops * p.hop.0 + p.router_to_niu.0 + 1)
    }
}

impl NocTiming for ZeroLoadNoc {
    fn serialisation(&self, payload: u32) -> Cycles {
        Cycles(self.stream_cycles(payload, false))
    }
    fn kind(&self) -> NocModelKind {
        NocModelKind::ZeroLoad
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
    fn unicast(
        &mut self,
        noc: NocId,
        src: Noc0Coord,
        dst: Noc0Coord,
        payload: u32,
        ready: Cycle,
        vc: VcClass,
    ) -> Delivery {
        let looped = src == dst && payload > 0;
        let dur = self.stream_cycles(payload, looped);
        self.count(noc, payload);
        self.uses.way(&self.topo, noc, src, &[dst], None, dur, payload);
        let p = &self.params;
        let turn = if looped { p.loopback_turn.0 } else { 0 };
        let head = ready.0 + p.niu_to_router.0 + turn + self.topo.hops(noc, src, dst) as u64 * p.hop.0;
        let first = head + self.params.router_to_niu.0;
        let arrive = self.in_order(noc, src, dst, vc, Cycle(first + dur));
        Delivery { inject_start: ready, inject_end: Cycle(ready.0 + dur), first_byte: Cycle(first).min(arrive), arrive }
    }
    fn request(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, ready: Cycle) -> Delivery {
        self.count(noc, 0);
        let arrive = self.header_arrival(noc, src, dst, ready);
        Delivery { inject_start: ready, inject_end: Cycle(ready.0 + 1), first_byte: arrive, arrive }
    }
    fn served_request(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, ready: Cycle, _serve: Cycles) -> Delivery {
        self.request(noc, src, dst, ready)
    }
    fn ack(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, ready: Cycle) -> Cycle {
        self.count(noc, 0);
        self.header_arrival(noc, src, dst, ready)
    }
    fn path_reservation(&self, noc: NocId, src: Noc0Coord, rect: Rect) -> Cycles {
        // The reservation is the source NIU's own work before the head leaves: zero-load has it too.
        let tree = self.topo.broadcast_tree(noc, src, rect);
        self.params.path_reservation(crate::topology::tree_depth(&tree))
    }
    fn multicast(
        &mut self,
        noc: NocId,
        src: Noc0Coord,
        rect: Rect,
        dests: &[Noc0Coord],
        payload: u32,
        ready: Cycle,
        setup: Cycles,
    ) -> Vec<Delivery> {
        let looped = payload > 0 && dests.contains(&src);
        let dur = self.stream_cycles(payload, looped);
        self.count(noc, payload);
        self.uses.port_use(self.topo.niu_index(src, noc), true, setup.0 + dur, payload);
        let tree = self.topo.broadcast_tree(noc, src, rect);
        let mut head = vec![0u64; tree.len()];
        head[0] = ready.0 + setup.0 + self.params.niu_to_router.0;
        for n in 1..tree.len() {
            let TreeNode { parent, via, .. } = tree[n];
            self.uses.link(via.expect("non-root"), dur, payload);
            head[n] = head[parent.expect("non-root")] + self.params.hop.0;
        }
        let mut out = Vec::with_capacity(dests.len());
        for &d in dests {
            let n = tree.iter().rposition(|t| t.tile == d).unwrap_or(0);
            self.uses.port_use(self.topo.niu_index(d, noc), false, dur, payload);
            let first = head[n] + self.params.router_to_niu.0;
            let arrive = self.in_order(noc, src, d, VcClass::Multicast, Cycle(first + dur));
            out.push(Delivery {
                inject_start: ready,
                inject_end: Cycle(ready.0 + setup.0 + dur),
                first_byte: Cycle(first).min(arrive),
                arrive,
            });
        }
        out
    }
    fn set_now(&mut self, _now: Cycle) {}
    fn traffic(&self, noc: NocId) -> NocTraffic {
        self.uses.traffic(noc)
    }
    fn backpressure(&self) -> Backpressure {
        Backpressure::default()
    }
    fn links(&self) -> Box<dyn Iterator<Item = (LinkId, &Calendar)> + '_> {
        Box::new(self.uses.links())
    }
    fn port(&self, tile: Noc0Coord, noc: NocId, inject: bool) -> &Calendar {
        self.uses.port(self.topo.niu_index(tile, noc), inject)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::test_model;

    fn both() -> (Box<dyn NocTiming>, Box<dyn NocTiming>) {
        let p = test_model().params().clone();
        let g = GridSize::new(10, 12);
        (crate::noc_timing(g, p.clone()), crate::noc_timing(g, NocParams { model: NocModelKind::ZeroLoad, ..p }))
    }

    #[test]
    fn one_packet_alone_takes_the_same_time_in_both_models() {
        let (mut cal, mut zero) = both();
        let (a, b) = (Noc0Coord::new(1, 1), Noc0Coord::new(4, 3));
        for (k, payload) in [0u32, 32, 2048, 8192].into_iter().enumerate() {
            let ready = Cycle(1000 + 100_000 * k as u64);
            cal.set_now(ready);
            let c = cal.unicast(NocId::Noc0, a, b, payload, ready, VcClass::Unicast);
            let z = zero.unicast(NocId::Noc0, a, b, payload, ready, VcClass::Unicast);
            assert_eq!(c, z, "{payload} B");
            assert_eq!(cal.ack(NocId::Noc0, b, a, ready), zero.ack(NocId::Noc0, b, a, ready));
        }
    }

    #[test]
    fn zero_load_is_a_floor_under_contention() {
        let (mut cal, mut zero) = both();
        let dst = Noc0Coord::new(5, 5);
        let mut last = (Cycle::ZERO, Cycle::ZERO);
        for x in 1..9 {
            let src = Noc0Coord::new(x, 1);
            let c = cal.unicast(NocId::Noc0, src, dst, 8192, Cycle(0), VcClass::Unicast);
            let z = zero.unicast(NocId::Noc0, src, dst, 8192, Cycle(0), VcClass::Unicast);
            assert!(z.arrive <= c.arrive, "{x}: zero-load {} after calendar {}", z.arrive.0, c.arrive.0);
            last = (last.0.max(c.arrive), last.1.max(z.arrive));
        }
        assert!(last.1 < last.0, "eight 8 KiB packets into one port must queue in the calendar model");
        // Counters count every packet in both.
        assert_eq!(cal.traffic(NocId::Noc0), zero.traffic(NocId::Noc0));
        assert_eq!(zero.port(dst, NocId::Noc0, false).uses, 8);
    }

    #[test]
    fn flows_stay_in_order_in_the_zero_load_model() {
        let (_, mut zero) = both();
        let (a, b) = (Noc0Coord::new(1, 1), Noc0Coord::new(2, 1));
        let big = zero.unicast(NocId::Noc0, a, b, 8192, Cycle(0), VcClass::Unicast);
        let small = zero.unicast(NocId::Noc0, a, b, 32, Cycle(1), VcClass::Unicast);
        assert!(small.arrive >= big.arrive);
    }
}
