//! NoC atomics and inline writes of a run: an increment or a store of one L1 word, timed as a header-only
//! packet out and, unless posted, an acknowledgement back; a multicast increment as one header-only packet
//! along the broadcast tree and an acknowledgement from every destination.

use super::noc_tokens::Then;
use super::noc_transactions::send;
use super::packets::{Mem, NO_RECORD, Xfer};
use super::{Engine, Ev};
use report::TransferKind;
use sim_core::{Cycle, Cycles};
use sim_noc::VcClass;
use sim_tensix::{AtomicOp, AtomicReq, McastReq, NocError};
use soc_descriptors::Noc0Coord;

impl Engine {
    pub(crate) fn issue_atomic(&mut self, a: AtomicReq, now: Cycle) -> Result<Cycle, NocError> {
        if let Some(m) = a.mcast {
            return self.issue_atomic_multicast(a, m, now);
        }
        let c = &mut self.chip;
        let (x, y, local) = c.addr_map.decode(a.dst);
        let (mem, tile) = c.target(x, y, local, 4)?;
        if mem.is_dram() {
            return Err(NocError::AtomicOnDram { x, y });
        }
        if local % 4 != 0 {
            return Err(NocError::AtomicMisaligned { addr: local });
        }
        let me = c.core_tile[a.core.0 as usize];
        let stepped = c.steps.on;
        let (d, land) = if stepped {
            let d = sim_noc::Delivery { inject_start: now, inject_end: now, first_byte: now, arrive: now };
            (d, now)
        } else {
            let d = c.noc.unicast(a.noc, me, tile, 0, now, VcClass::Unicast);
            let land = d.arrive + c.noc_params.l1_write_latency;
            (d, land)
        };
        let record = self.new_record(TransferKind::Atomic, a.noc, me, &[tile], None, 4, now);
        let id = self.atomic_xfer(&a, me, (mem, tile), Vec::new(), record);
        let c = &mut self.chip;
        let cnt = c.cores[a.core.0 as usize].counters(a.risc, a.noc);
        match a.op {
            AtomicOp::Inc(_) => cnt.atomics_issued += 1,
            AtomicOp::Store { .. } => {
                // An inline write is a (header-only) non-posted write: it has left once injected.
                cnt.nonposted_issued += 1;
                cnt.nonposted_departed += 1;
                cnt.nonposted_acks_expected += if a.posted { 0 } else { 1 };
                // A posted one expects no ack: it is done as soon as it is issued.
                cnt.nonposted_done += a.posted as u32;
            }
        }
        if stepped {
            let c = &mut self.chip;
            let token = c.steps.token(Then::Atomic(id), 1);
            let vc = a.vc;
            let started = c.routers().send(send(a.noc, me, &[tile], None, 0, now, vc, true, token));
            self.noc_sent(now);
            return Ok(started.unwrap_or(sim_tensix::CMD_PENDING));
        }
        self.rec.arrival(record, d.first_byte, land);
        self.sched.queue.push(land, Ev::AtomicLand(id, 0));
        Ok(d.inject_start)
    }

    /// A multicast increment (`noc_semaphore_inc_multicast`): one header-only packet along the broadcast
    /// tree of the rectangle (its path reserved as an unlinked multicast write's is), the increment at every
    /// destination as the packet reaches it, and an acknowledgement from each; the atomic barrier counts
    /// `num_dests` of them.
    fn issue_atomic_multicast(&mut self, a: AtomicReq, m: McastReq, now: Cycle) -> Result<Cycle, NocError> {
        let (xs, ys, xe, ye, local) = self.chip.addr_map.decode_multicast(a.dst);
        if local % 4 != 0 {
            return Err(NocError::AtomicMisaligned { addr: local });
        }
        let (dests, rect) = self.multicast_dests((a.core, a.risc), Some(m), 4, local, (xs, ys, xe, ye))?;
        let c = &mut self.chip;
        let me = c.core_tile[a.core.0 as usize];
        let tiles: Vec<_> = dests.iter().map(|d| d.1).collect();
        let key = (a.core.0, a.risc.index() as u8, a.noc as u8);
        let held = c.mcast_paths.remove(&key) == Some(rect);
        let setup = if held { Cycles::ZERO } else { c.noc.path_reservation(a.noc, me, rect) };
        let record = self.new_record(TransferKind::Atomic, a.noc, me, &tiles, Some(rect), 4, now);
        let n = dests.len() as u32;
        let id = self.atomic_xfer(&a, me, dests[0], dests[1..].to_vec(), record);
        let c = &mut self.chip;
        c.cores[a.core.0 as usize].counters(a.risc, a.noc).atomics_issued += if a.posted { 0 } else { m.num_dests };
        if c.steps.on {
            let tree = c.noc.topology().broadcast_tree(a.noc, me, rect);
            let token = c.steps.token(Then::Atomic(id), n);
            let s = send(a.noc, me, &tiles, Some(&tree), 0, now, sim_noc::MULTICAST_VC, true, token);
            let s = sim_noc::Outgoing { setup: setup.0, ..s };
            let started = c.routers().send(s);
            self.noc_sent(now);
            return Ok(started.unwrap_or(sim_tensix::CMD_PENDING));
        }
        let deliveries = c.noc.multicast(a.noc, me, rect, &tiles, 0, now, setup);
        let lat = c.noc_params.l1_write_latency;
        for (i, d) in deliveries.iter().enumerate() {
            self.rec.arrival(record, d.first_byte, d.arrive + lat);
            self.sched.queue.push(d.arrive + lat, Ev::AtomicLand(id, i as u16));
        }
        Ok(deliveries[0].inject_start)
    }

    /// The packet of atomic `a` from tile `me` to `first` and `more`: it lands at each and, unless posted, is
    /// acknowledged from each.
    fn atomic_xfer(
        &mut self,
        a: &AtomicReq,
        me: Noc0Coord,
        first: (Mem, Noc0Coord),
        more: Vec<(Mem, Noc0Coord)>,
        record: Option<u32>,
    ) -> u32 {
        let n = 1 + more.len() as u32;
        self.chip.alloc_xfer(
            Xfer {
                core: a.core,
                risc: a.risc,
                noc: a.noc,
                src_tile: me,
                dest: first,
                l1_addr: 0,
                size: 4,
                posted: a.posted,
                op: Some(a.op),
                pending: if a.posted { n } else { 2 * n },
                record: record.unwrap_or(NO_RECORD),
                trid: 0,
            },
            more,
        )
    }

    pub(crate) fn atomic_land(&mut self, id: u32, dest: u16, at: Cycle) {
        let c = &mut self.chip;
        let (mem, tile) =
            if dest == 0 { c.xfers[id as usize].dest } else { c.xfer_more[id as usize][dest as usize - 1] };
        let (noc, me, posted, op) = {
            let x = &c.xfers[id as usize];
            (x.noc, x.src_tile, x.posted, x.op.expect("atomic"))
        };
        let mut woken = None;
        if let Mem::L1 { core, addr } = mem {
            self.sched.touch(core, at);
            let l1 = &mut c.cores[core.0 as usize].l1;
            let old = l1.read_u32(addr).expect("checked at issue");
            let new = op.apply(old);
            l1.write_u32(addr, new).expect("checked at issue");
            woken = Some(core);
        }
        if !posted {
            let ready = at + c.noc_params.ack_turnaround;
            self.send_ack(noc, tile, me, ready, at, Then::AtomicAck(id), Ev::AtomicAck(id));
        }
        self.chip.done_with(id);
        if let Some(core) = woken {
            self.notify_core(core, at);
        }
    }

    pub(crate) fn atomic_ack(&mut self, id: u32, at: Cycle) {
        let c = &mut self.chip;
        let (core, risc, noc, op) = {
            let x = &c.xfers[id as usize];
            (x.core, x.risc, x.noc, x.op.expect("atomic"))
        };
        self.sched.touch(core, at);
        let cnt = c.cores[core.0 as usize].counters(risc, noc);
        match op {
            AtomicOp::Inc(_) => cnt.atomics_acked += 1,
            AtomicOp::Store { .. } => {
                cnt.nonposted_acked += 1;
                cnt.nonposted_done += 1;
            }
        }
        c.done_with(id);
        self.notify_core(core, at);
    }
}
