//! The NoC timing model: when does a packet leave its source NIU and when has it fully arrived.
//!
//! A packet is one header flit plus its data flits. Its head crosses NIU→router, one router-to-router hop
//! per link of its dimension-ordered route, and router→NIU; its tail follows one flit per cycle (cut-through),
//! so the whole packet has arrived `flits` cycles after the head reaches the destination NIU:
//!
//! `arrive = inject_start + niu_to_router + hops × hop + router_to_niu + flits`.
//!
//! Each NIU injects one flit per cycle per NoC, so packets from one core on one NoC leave in program order,
//! one after another; this also gives the NoC's ordering guarantee (same NoC, same destination: in order).

use crate::params::NocParams;
use crate::topology::Topology;
use sim_core::{Cycle, Cycles};
use soc_descriptors::{GridSize, Noc0Coord, NocId};

/// When one packet moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delivery {
    /// The head flit leaves the source NIU.
    pub inject_start: Cycle,
    /// The tail flit has left the source NIU (the source data may be reused).
    pub inject_end: Cycle,
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
    /// Next cycle each NIU (tile × NoC) can start injecting.
    inject_free: Vec<Cycle>,
    traffic: [NocTraffic; 2],
}

impl NocModel {
    /// The NoCs of a `grid`-sized chip.
    pub fn new(grid: GridSize, params: NocParams) -> NocModel {
        NocModel {
            params,
            topo: Topology::new(grid),
            inject_free: vec![Cycle::ZERO; grid.count() * 2],
            traffic: Default::default(),
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

    /// Zero-load latency of a `payload`-byte packet over `hops` router hops, from head injection to full
    /// arrival.
    pub fn zero_load_latency(&self, hops: u32, payload: u32) -> Cycles {
        let p = &self.params;
        p.niu_to_router + p.hop * hops as u64 + p.router_to_niu + Cycles(self.flits(payload) as u64)
    }

    fn niu(&self, at: Noc0Coord, noc: NocId) -> usize {
        ((at.y * self.topo.grid().x + at.x) as usize) * 2 + noc.index()
    }

    fn inject(&mut self, noc: NocId, src: Noc0Coord, payload: u32, ready: Cycle) -> (Cycle, Cycle) {
        let flits = self.flits(payload);
        let i = self.niu(src, noc);
        let start = ready.max(self.inject_free[i]);
        let end = start + Cycles(flits as u64);
        self.inject_free[i] = end;
        let t = &mut self.traffic[noc.index()];
        t.packets += 1;
        t.flits += flits as u64;
        t.bytes += payload as u64;
        (start, end)
    }

    /// Send a unicast packet of `payload` bytes from `src` to `dst` on `noc`, ready at `ready`.
    pub fn unicast(&mut self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, payload: u32, ready: Cycle) -> Delivery {
        let (start, end) = self.inject(noc, src, payload, ready);
        let hops = self.topo.hops(noc, src, dst);
        Delivery { inject_start: start, inject_end: end, arrive: start + self.zero_load_latency(hops, payload) }
    }

    /// Send a multicast packet to every tile of `dsts`; returns the injection times and each destination's
    /// arrival, in the order of `dsts`.
    pub fn multicast(
        &mut self,
        noc: NocId,
        src: Noc0Coord,
        dsts: &[Noc0Coord],
        payload: u32,
        ready: Cycle,
    ) -> (Cycle, Cycle, Vec<Cycle>) {
        let (start, end) = self.inject(noc, src, payload, ready);
        let arrivals =
            dsts.iter().map(|&d| start + self.zero_load_latency(self.topo.hops(noc, src, d), payload)).collect();
        (start, end, arrivals)
    }

    /// Traffic injected on `noc` so far.
    pub fn traffic(&self, noc: NocId) -> NocTraffic {
        self.traffic[noc.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wh() -> NocModel {
        NocModel::new(
            GridSize::new(10, 12),
            NocParams {
                flit_bytes: 32,
                max_burst_bytes: 8192,
                header_flits: 1,
                hop: Cycles(9),
                niu_to_router: Cycles(5),
                router_to_niu: Cycles(5),
            },
        )
    }

    #[test]
    fn zero_load_unicast_latency_is_the_formula() {
        let mut n = wh();
        // (1,1) -> (2,2) on NoC0: 2 hops; 2048 B = 64 data flits + 1 header.
        let d = n.unicast(NocId::Noc0, Noc0Coord::new(1, 1), Noc0Coord::new(2, 2), 2048, Cycle(100));
        assert_eq!(d.inject_start, Cycle(100));
        assert_eq!(d.inject_end, Cycle(165));
        assert_eq!(d.arrive, Cycle(100 + 5 + 2 * 9 + 5 + 65));
        // Not arrived one cycle earlier: the timing gate of the formula.
        assert_ne!(d.arrive, Cycle(100 + 5 + 2 * 9 + 5 + 64));
    }

    #[test]
    fn one_niu_injects_packets_back_to_back_in_order() {
        let mut n = wh();
        let a = n.unicast(NocId::Noc0, Noc0Coord::new(1, 1), Noc0Coord::new(3, 1), 8192, Cycle(0));
        let b = n.unicast(NocId::Noc0, Noc0Coord::new(1, 1), Noc0Coord::new(3, 1), 4, Cycle(1));
        assert_eq!(b.inject_start, a.inject_end);
        assert!(b.arrive > a.arrive, "a small write after a big one still arrives after it");
        // The other NoC's NIU is independent.
        let c = n.unicast(NocId::Noc1, Noc0Coord::new(1, 1), Noc0Coord::new(3, 1), 4, Cycle(1));
        assert_eq!(c.inject_start, Cycle(1));
        assert_eq!(n.traffic(NocId::Noc0).packets, 2);
        assert_eq!(n.traffic(NocId::Noc0).bytes, 8196);
    }
}
