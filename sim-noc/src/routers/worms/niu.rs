//! The packet-level model's end points: an NIU's two queues (requests and data in command order, responses by
//! ready time) and when it starts each packet (its injection rate, a multicast's path reservation, the VC
//! of its injection port).

use super::{Ev, Hop, NONE, PHop, PacketNoc, Pkt, UNKNOWN};
use crate::routers::VCS;
use crate::routers::channels::{put_in_slot, queue_order};
use crate::routers::paths;
use crate::stepping::{Happened, Outgoing, RESPONSE_VC};
use sim_core::Cycle;

impl PacketNoc {
    /// Queue a packet (as [`crate::routers::RouterNoc::send`]); returns when its head leaves if that is already
    /// certain.
    pub fn send(&mut self, s: Outgoing<'_>) -> Option<Cycle> {
        assert!(s.vc < 8, "VC numbers are 0..8");
        assert!(s.ready.0 >= self.now, "a packet ready at {} after cycle {} was processed", s.ready.0, self.now);
        let port = self.topo.niu_index(s.src, s.noc);
        let looped = s.payload > 0 && s.dests.contains(&s.src);
        let mut hops = std::mem::take(&mut self.scratch_hops);
        paths::packet_hops_into(&self.topo, &s, &mut self.route, &mut hops);
        let mut ph = self.free_pkts.last().map_or_else(Vec::new, |&i| std::mem::take(&mut self.pkts[i as usize].hops));
        ph.clear();
        ph.extend(hops.iter().map(|h: &Hop| PHop {
            chan: h.chan,
            vc: h.vc,
            kids: h.kids,
            nkids: h.nkids,
            dest: h.dest,
            parent: 0,
            s: UNKNOWN,
            dur: 0,
            pending: 0,
            tail: 0,
        }));
        self.scratch_hops = hops;
        for k in 0..ph.len() {
            for b in 0..ph[k].nkids as usize {
                let kid = ph[k].kids[b] as usize;
                ph[kid].parent = k as u16;
            }
        }
        let flits = self.flits(s.payload);
        // Each hop waits for itself and the hops below it within a buffer's reach (see `PacketNoc::take`).
        let reach = (flits as u64 - 1) / self.buffer;
        for k in 0..ph.len() {
            let mut a = k;
            for r in 0..=reach {
                ph[a].pending += 1;
                if a == 0 || r == reach {
                    break;
                }
                a = ph[a].parent as usize;
            }
        }
        let per_k = if looped { self.p.loopback_cycles_per_kflit } else { self.p.inject_cycles_per_kflit };
        let ser = if s.paced { (flits as u64 * per_k as u64).div_ceil(1000) } else { 0 };
        let n = ph.len() as u32;
        let qi = usize::from(s.vc == RESPONSE_VC);
        let pk = Pkt {
            hops: ph,
            flits,
            ready: s.ready.0,
            token: s.token,
            ser,
            extra: ser.saturating_sub(flits as u64),
            turn: if looped && s.tree.is_none() { self.p.loopback_turn } else { 0 },
            setup: s.setup,
            port: port as u32,
            q: qi as u8,
            takeup: 0,
            taken: false,
            start: 0,
            stretch: 0,
            tree: s.tree.is_some(),
            unacquired: n,
            unreleased: n,
        };
        self.stats.packets += 1;
        self.stats.flit_hops += flits as u64 * (n as u64);
        let id = put_in_slot(&mut self.pkts, &mut self.free_pkts, pk);
        self.live += 1;
        let inj = paths::inject_chan(&self.topo, port);
        let niu = &self.nius[port];
        let certain = niu.q[0].is_empty()
            && niu.q[1].is_empty()
            && niu.busy[qi] == NONE
            && niu.next_ok[qi] <= self.now
            && s.ready.0 == self.now
            && (!s.paced || (niu.free_at <= self.now && self.phys_free[inj] <= self.now))
            && !Self::held(&self.vcs[inj * VCS + s.vc as usize], NONE, self.now);
        let niu = &mut self.nius[port];
        if qi == 1 {
            // Responses by ready time (stable).
            let pkts = &self.pkts;
            let pos = niu.q[1].iter().rposition(|&q| pkts[q as usize].ready <= s.ready.0).map_or(0, |p| p + 1);
            niu.q[1].insert(pos, id);
        } else {
            niu.q[0].push_back(id);
        }
        if certain {
            niu.promised[qi] = true;
        }
        self.at(s.ready.0, Ev::Niu(port as u32));
        certain.then_some(s.ready)
    }

    /// Start what NIU `port` can start at `self.t`.
    pub(super) fn pump(&mut self, port: usize) {
        let t = self.t;
        let inj = paths::inject_chan(&self.topo, port);
        let niu = &self.nius[port];
        let order = queue_order(niu.promised, niu.last);
        let mut started = false;
        for qi in order {
            let niu = &self.nius[port];
            if niu.busy[qi] != NONE {
                continue;
            }
            let Some(&p) = niu.q[qi].front() else { continue };
            if started {
                // One packet's head per NIU per cycle.
                self.at(t + 1, Ev::Niu(port as u32));
                continue;
            }
            let pk = &self.pkts[p as usize];
            let paced = pk.ser > 0;
            let mut take_up = if paced { pk.ready.max(niu.free_at) } else { pk.ready };
            take_up = take_up.max(niu.next_ok[qi]);
            if pk.setup > 0 && !pk.taken {
                if take_up > t {
                    self.at(take_up, Ev::Niu(port as u32));
                    continue;
                }
                let (token, setup) = (pk.token, pk.setup);
                let pk = &mut self.pkts[p as usize];
                pk.taken = true;
                pk.takeup = t;
                self.emit(t, token, Happened::Started);
                self.at(t + setup, Ev::Niu(port as u32));
                continue;
            }
            let mut earliest = if pk.setup > 0 { pk.takeup + pk.setup } else { take_up };
            if paced {
                earliest = earliest.max(self.phys_free[inj]);
            }
            let x = &self.vcs[inj * VCS + pk.hops[0].vc as usize];
            if Self::held(x, p, t) {
                if x.parked == NONE && x.owner_until != UNKNOWN {
                    self.at(x.owner_until, Ev::Niu(port as u32));
                }
                // The other queue's packet holds the VC: its release wakes this NIU.
                continue;
            }
            if earliest > t {
                self.at(earliest, Ev::Niu(port as u32));
                continue;
            }
            // The head leaves now.
            started = true;
            let (token, ser, setup, flits) = (pk.token, pk.ser, pk.setup, pk.flits);
            let pk = &mut self.pkts[p as usize];
            pk.start = t;
            let niu = &mut self.nius[port];
            niu.q[qi].pop_front();
            niu.busy[qi] = p;
            niu.promised[qi] = false;
            niu.last = qi;
            if ser > 0 {
                niu.free_at = t + ser;
            }
            if setup == 0 {
                self.emit(t, token, Happened::Started);
            }
            let _ = flits;
            self.take(p, 0, t);
        }
    }
}
