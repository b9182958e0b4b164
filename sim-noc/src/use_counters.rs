//! What every NoC model counts per packet whatever it charges for it: traffic per NoC and each link's and
//! NIU port's busy cycles, bytes and uses (the stats and heatmaps read them). The calendar model keeps
//! them in its booking sheets; the models that book nothing (zero-load, router) keep them here.

use crate::calendar::Calendar;
use crate::model::NocTraffic;
use crate::topology::{LinkId, Topology, TreeNode};
use soc_descriptors::{Noc0Coord, NocId};

/// Per-link and per-port use, and traffic per NoC.
#[derive(Debug, Clone)]
pub struct UseCounters {
    links: Vec<Calendar>,
    inject: Vec<Calendar>,
    eject: Vec<Calendar>,
    traffic: [NocTraffic; 2],
}

fn count_use(c: &mut Calendar, dur: u64, bytes: u32) {
    c.busy += dur;
    c.bytes += bytes as u64;
    c.uses += 1;
}

impl UseCounters {
    /// Nothing counted yet, for the NoCs of `topo`.
    pub fn new(topo: &Topology) -> UseCounters {
        let ports = topo.grid().count() * 2;
        UseCounters {
            links: vec![Calendar::new(); topo.num_links()],
            inject: vec![Calendar::new(); ports],
            eject: vec![Calendar::new(); ports],
            traffic: Default::default(),
        }
    }

    /// A packet of `flits` flits carrying `payload` bytes injected on `noc`.
    pub fn packet(&mut self, noc: NocId, flits: u64, payload: u32) {
        let t = &mut self.traffic[noc.index()];
        t.packets += 1;
        t.flits += flits;
        t.bytes += payload as u64;
    }

    /// Link `l` carried a packet for `dur` cycles.
    pub fn link(&mut self, l: LinkId, dur: u64, payload: u32) {
        count_use(&mut self.links[l.0 as usize], dur, payload);
    }

    /// The injection (`true`) or ejection port of NIU `niu` ([`Topology::niu_index`]) carried a packet.
    pub fn port_use(&mut self, niu: usize, inject: bool, dur: u64, payload: u32) {
        let c = if inject { &mut self.inject[niu] } else { &mut self.eject[niu] };
        count_use(c, dur, payload);
    }

    /// A packet's whole way: its source's injection port, the links of its route (`tree`: a multicast's
    /// broadcast tree) and every destination's ejection port.
    #[allow(clippy::too_many_arguments)] // the fields of one packet
    pub fn way(
        &mut self,
        topo: &Topology,
        noc: NocId,
        src: Noc0Coord,
        dests: &[Noc0Coord],
        tree: Option<&[TreeNode]>,
        dur: u64,
        payload: u32,
    ) {
        self.port_use(topo.niu_index(src, noc), true, dur, payload);
        match tree {
            None => topo.for_each_route_link(noc, src, dests[0], |l| self.link(l, dur, payload)),
            Some(tree) => {
                for n in tree.iter().skip(1) {
                    self.link(n.via.expect("non-root"), dur, payload);
                }
            }
        }
        for &d in dests {
            self.port_use(topo.niu_index(d, noc), false, dur, payload);
        }
    }

    /// Traffic injected on `noc` so far.
    pub fn traffic(&self, noc: NocId) -> NocTraffic {
        self.traffic[noc.index()]
    }

    /// Every link with its counters.
    pub fn links(&self) -> impl Iterator<Item = (LinkId, &Calendar)> + '_ {
        self.links.iter().enumerate().map(|(i, c)| (LinkId(i as u32), c))
    }

    /// The injection (`true`) or ejection port counters of NIU `niu`.
    pub fn port(&self, niu: usize, inject: bool) -> &Calendar {
        if inject { &self.inject[niu] } else { &self.eject[niu] }
    }
}
