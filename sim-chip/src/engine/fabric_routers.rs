//! The fabric's routers (Ethernet data movers) during a run, one per fabric channel of the chip, each an
//! event-driven model of the ERISC loop: one unit of work per step, `fabric.router_packet_cycles` each.
//!
//! - Sender channels: channel 0 takes packets from the connected worker (its doorbell counts them),
//!   channel 1 from the chip's other router (pass-through traffic). A packet goes over the link into the
//!   next receiver slot of the router at the other end when that router has a free slot (its credits come
//!   back over Ethernet); once it has left, the worker's credit word is updated over the NoC.
//! - Receiver channel: packets land in order. The header's route says whether this chip executes the
//!   packet's NoC command (a write from the slot, an atomic increment, or both) and whether it continues:
//!   then it is written over the NoC into a channel-1 slot of the opposite router, which must have room.
//!   Then the slot is freed and its credit sent back.
//!
//! On a ring, packets from the worker enter only while the far receiver keeps a second slot free (bubble
//! flow control), so the ring's buffers can never all fill.
//!
//! Atomic increments are issued no earlier than the router's previous writes have landed, so an increment
//! implies its payloads are in place (the fabric's ordered virtual channel with flush). A NoC model that
//! books packets when they are sent says at once when a write will land; on a stepped one
//! (`noc.model=router`) the increment waits until the writes in flight before it report that they landed.

use super::router::Router;
use super::{Engine, Ev};
use crate::fabric_config::RouterSpec;
use sim_core::Cycle;
use sim_tensix::dataflow::fabric::{FabricCmd, FabricHeader, FabricRoute, router_layout};
use sim_tensix::{AtomicOp, AtomicReq, EthSend, Risc, WriteReq};
use soc_descriptors::NocId;

impl Engine {
    fn l1_word(&self, ch: u32, addr: u32) -> u32 {
        let core = self.chip.eth[ch as usize].core;
        self.chip.cores[core.0 as usize].l1.read_u32(addr as u64).expect("router words inside L1")
    }

    /// Something changed on the Ethernet core of channel `ch`: make its router look.
    pub(crate) fn fabric_poke(&mut self, ch: u32, now: Cycle) {
        let Some(r) = self.chip.routers.get_mut(ch as usize).and_then(|r| r.as_mut()) else { return };
        if !r.scheduled {
            r.scheduled = true;
            let at = now.max(r.erisc_free);
            self.sched.queue.push(at, Ev::FabricStep(ch));
        }
    }

    /// A packet landed in channel `ch`'s L1 at `dst` from the other end of its link.
    pub(crate) fn fabric_landed(&mut self, ch: u32, dst: u32) {
        if let Some(Some(r)) = self.chip.routers.get_mut(ch as usize)
            && r.layout.in_receiver(dst)
        {
            r.rx_arrived += 1;
        }
    }

    /// One step of router `ch`'s loop at `now`.
    pub(crate) fn fabric_step(&mut self, ch: u32, now: Cycle) {
        let Some(r) = self.chip.routers[ch as usize].as_mut() else { return };
        r.scheduled = false;
        let did = self.fabric_receive(ch, now) || self.fabric_send(ch, now);
        if did {
            let cost = self.chip.fabric_packet_cycles;
            let r = self.chip.routers[ch as usize].as_mut().expect("router");
            r.erisc_free = now + cost;
            r.packets += 1;
            r.scheduled = true;
            let at = r.erisc_free;
            self.sched.queue.push(at, Ev::FabricStep(ch));
        }
    }

    fn router(&self, ch: u32) -> &Router {
        self.chip.routers[ch as usize].as_ref().expect("router")
    }

    /// Handle the oldest landed packet, if it can go on.
    fn fabric_receive(&mut self, ch: u32, now: Cycle) -> bool {
        let r = self.router(ch).clone();
        if r.rx_next == r.rx_arrived {
            return false;
        }
        let l = r.layout;
        let seq = r.rx_next;
        let slot = l.receiver_slot(seq);
        // On a stepped NoC model, the writes that read the slot (freed once they have left L1).
        let mut reads: Vec<u32> = Vec::new();
        let core = self.chip.eth[ch as usize].core;
        let bytes = self.chip.cores[core.0 as usize]
            .l1
            .read(slot as u64, FabricHeader::ENCODED_BYTES as u64)
            .expect("slot in L1");
        let Some(mut h) = FabricHeader::decode(&bytes) else {
            self.rec
                .warnings
                .push(format!("fabric router on Ethernet channel {ch}: a packet with an unknown header was dropped"));
            self.fabric_rx_handled(ch, seq, &[], now);
            return true;
        };
        // Whether this chip executes the command, and the direction the packet continues in.
        let (write, onward) = match h.route {
            FabricRoute::Line { start_distance, range } => {
                let hop = h.hops_done as u32 + 1;
                let (start, range) = (start_distance as u32, range as u32);
                let last = start + range - 1;
                (hop >= start && hop < start + range, (hop < last).then_some((r.spec.dir ^ 1, last - hop)))
            }
            FabricRoute::Mesh { dst_dev_id, .. } => {
                let cols = r.spec.cols.max(1);
                let dst = (dst_dev_id as u32 / cols, dst_dev_id as u32 % cols);
                match RouterSpec::next_dir(r.spec.coord, dst) {
                    None => (true, None),
                    Some(d) => (false, Some((d, 1))),
                }
            }
        };
        let mut target = None;
        if let Some((dir, more)) = onward {
            let Some(f) = r.spec.dirs[dir] else {
                self.rec.warnings.push(format!(
                    "fabric router on Ethernet channel {ch}: a packet routed {more} more hop(s) {} reached the edge of the mesh and was dropped",
                    ["east", "west", "north", "south"][dir]
                ));
                self.fabric_rx_handled(ch, seq, &[], now);
                return true;
            };
            let c = if l.sender_channels == 2 { 1 } else { RouterSpec::upstream_channel(dir, r.spec.dir) };
            let fr = self.router(f);
            if r.forwarded[dir] - fr.sent[c as usize] >= l.sender_slots {
                // That router's pass-through channel is full: try again when it sends.
                return false;
            }
            target = Some((f, dir, c));
        }
        let addr_map = self.chip.addr_map;
        let me = self.chip.eth[ch as usize].core;
        let src = slot + l.header_bytes;
        if write {
            match h.cmd {
                FabricCmd::Write { dst } | FabricCmd::FusedWriteInc { dst, .. } if h.payload_bytes > 0 => {
                    let w = WriteReq {
                        core: me,
                        risc: Risc::Erisc0,
                        noc: NocId::Noc0,
                        src_l1: src,
                        dst,
                        size: h.payload_bytes,
                        posted: false,
                        mcast: None,
                        trid: 0,
                        vc: sim_tensix::NOC_UNICAST_WRITE_VC,
                    };
                    match self.issue_write(w, now) {
                        Ok(_) if self.chip.steps.on => {
                            // When it lands is known only as it does (`fabric_write_landed`).
                            let id = self.chip.last_write;
                            reads.push(id);
                            let r = self.chip.routers[ch as usize].as_mut().expect("router");
                            let n = r.writes_issued;
                            r.writes_issued += 1;
                            r.writes_in_flight.push(n);
                            self.chip.fabric_writes.insert(id, (ch, n));
                        }
                        Ok(_) => {
                            let land = self.chip.lands.iter().map(|l| l.1).max().unwrap_or(now);
                            let r = self.chip.routers[ch as usize].as_mut().expect("router");
                            r.last_write_land = r.last_write_land.max(land);
                        }
                        Err(e) => self
                            .rec
                            .warnings
                            .push(format!("fabric router on Ethernet channel {ch}: a write was dropped: {e}")),
                    }
                }
                _ => {}
            }
            if let FabricCmd::AtomicInc { sem, val } | FabricCmd::FusedWriteInc { sem, val, .. } = h.cmd {
                let at = now.max(self.router(ch).last_write_land);
                let a = AtomicReq {
                    core: me,
                    risc: Risc::Erisc0,
                    noc: NocId::Noc0,
                    dst: sem,
                    op: AtomicOp::Inc(val),
                    posted: true,
                    vc: sim_tensix::NOC_UNICAST_WRITE_VC,
                    mcast: None,
                };
                self.chip.fabric_incs.push((ch, a));
                let i = self.chip.fabric_incs.len() as u32 - 1;
                let r = self.chip.routers[ch as usize].as_mut().expect("router");
                if r.writes_in_flight.is_empty() {
                    self.sched.queue.push(at, Ev::FabricInc(i));
                } else {
                    // Stepped NoC model: after the writes in flight now have landed.
                    let n = r.writes_issued;
                    r.held_incs.push_back((i, n));
                }
            }
        }
        if let Some((f, dir, c)) = target {
            h.hops_done += 1;
            let enc = h.encode();
            self.chip.cores[core.0 as usize].l1.write(slot as u64, &enc).expect("slot in L1");
            let fl = self.router(f).layout;
            let dst_slot = fl.sender_slot(c, r.forwarded[dir]);
            let ft = self.chip.chip.noc0_to_translated(self.chip.eth[f as usize].tile);
            let size = (l.header_bytes + h.payload_bytes).next_multiple_of(16);
            let w = WriteReq {
                core: me,
                risc: Risc::Erisc0,
                noc: NocId::Noc0,
                src_l1: slot,
                dst: addr_map.xy(ft.x, ft.y, dst_slot as u64),
                size,
                posted: false,
                mcast: None,
                trid: 0,
                vc: sim_tensix::NOC_UNICAST_WRITE_VC,
            };
            let bell = AtomicReq {
                core: me,
                risc: Risc::Erisc0,
                noc: NocId::Noc0,
                dst: addr_map.xy(ft.x, ft.y, (fl.base + router_layout::DOORBELLS[c as usize]) as u64),
                op: AtomicOp::Inc(1),
                posted: true,
                vc: sim_tensix::NOC_UNICAST_WRITE_VC,
                mcast: None,
            };
            let sent = self.issue_write(w, now);
            if sent.is_ok() && self.chip.steps.on {
                reads.push(self.chip.last_write);
            }
            if let Err(e) = sent.and_then(|_| self.issue_atomic(bell, now)) {
                self.rec.warnings.push(format!("fabric router on Ethernet channel {ch}: forwarding failed: {e}"));
            }
            self.chip.routers[ch as usize].as_mut().expect("router").forwarded[dir] += 1;
        }
        self.fabric_rx_handled(ch, seq, &reads, now);
        true
    }

    /// Packet `seq` of router `ch`'s receiver channel is handled; `reads` are the NoC writes still reading
    /// its slot (a stepped NoC model's, which leave L1 only as the model moves them; a booked model captures
    /// the data in time). The slot is freed, and its credit sent, once they have left — slots in order.
    fn fabric_rx_handled(&mut self, ch: u32, seq: u32, reads: &[u32], now: Cycle) {
        let r = self.chip.routers[ch as usize].as_mut().expect("router");
        r.rx_next += 1;
        r.rx_unfreed.push_back((seq, reads.len() as u32));
        for &id in reads {
            self.chip.fabric_slot_writes.insert(id, (ch, seq));
        }
        self.fabric_free_ready(ch, now);
    }

    /// A write reading packet `seq`'s slot of router `ch` has left L1 at `at`.
    pub(crate) fn fabric_slot_write_left(&mut self, ch: u32, seq: u32, at: Cycle) {
        let r = self.chip.routers[ch as usize].as_mut().expect("router");
        if let Some(e) = r.rx_unfreed.iter_mut().find(|e| e.0 == seq) {
            e.1 -= 1;
        }
        self.fabric_free_ready(ch, at);
    }

    /// Free, oldest first, the slots no write reads any more.
    fn fabric_free_ready(&mut self, ch: u32, now: Cycle) {
        while self.chip.routers[ch as usize].as_ref().expect("router").rx_unfreed.front().is_some_and(|e| e.1 == 0) {
            self.chip.routers[ch as usize].as_mut().expect("router").rx_unfreed.pop_front();
            self.fabric_free_rx(ch, now);
        }
    }

    /// Free the oldest receiver slot and send its credit back over the link.
    fn fabric_free_rx(&mut self, ch: u32, now: Cycle) {
        let r = self.chip.routers[ch as usize].as_mut().expect("router");
        r.rx_done += 1;
        let (done, base) = (r.rx_done, r.layout.base);
        let core = self.chip.eth[ch as usize].core;
        self.chip.cores[core.0 as usize].l1.write_u32((base + router_layout::CREDIT_OUT) as u64, done).expect("in L1");
        let s = EthSend {
            core,
            channel: ch,
            src_l1: base + router_layout::CREDIT_OUT,
            dst_l1: base + router_layout::CREDIT_IN,
            size: 16,
        };
        let at = now.max(self.chip.eth[ch as usize].tx_free);
        if let Err(e) = self.eth_send(s, at) {
            self.rec.warnings.push(format!("fabric router on Ethernet channel {ch}: credit not sent: {e}"));
        }
    }

    /// Send the next waiting packet of a sender channel over the link, if the far receiver has room.
    fn fabric_send(&mut self, ch: u32, now: Cycle) -> bool {
        let r = self.router(ch).clone();
        let l = r.layout;
        let freed_far = self.l1_word(ch, l.base + router_layout::CREDIT_IN);
        let sent_total: u32 = r.sent.iter().sum();
        let free_far = l.receiver_slots - (sent_total - freed_far);
        if free_far == 0 {
            return false;
        }
        let n = l.sender_channels as usize;
        for k in 0..n {
            let c = (r.turn + k) % n;
            if c == 0 && r.ring && free_far < 2 {
                // Bubble flow control: new packets enter a ring only while the next router keeps a slot free.
                continue;
            }
            let bell = self.l1_word(ch, l.base + router_layout::DOORBELLS[c]);
            if bell == r.sent[c] {
                continue;
            }
            let slot = l.sender_slot(c as u32, r.sent[c]);
            let core = self.chip.eth[ch as usize].core;
            let bytes = self.chip.cores[core.0 as usize]
                .l1
                .read(slot as u64, FabricHeader::ENCODED_BYTES as u64)
                .expect("in L1");
            let payload = FabricHeader::decode(&bytes).map_or(0, |h| h.payload_bytes.min(l.max_payload));
            let size = (l.header_bytes + payload).next_multiple_of(16);
            let dst = l.receiver_slot(sent_total);
            let at = now.max(self.chip.eth[ch as usize].tx_free);
            if let Err(e) = self.eth_send(EthSend { core, channel: ch, src_l1: slot, dst_l1: dst, size }, at) {
                self.rec.warnings.push(format!("fabric router on Ethernet channel {ch}: packet not sent: {e}"));
            }
            let r = self.chip.routers[ch as usize].as_mut().expect("router");
            r.sent[c] += 1;
            r.turn = (c + 1) % n;
            let sent = r.sent[c];
            if c == 0 {
                // The slot is free again: tell the worker (its NoC coordinates and credit word registered at open).
                let reg = l.base + router_layout::WORKER_REG;
                let (x, y, a) = (self.l1_word(ch, reg), self.l1_word(ch, reg + 4), self.l1_word(ch, reg + 8));
                let dst = self.chip.addr_map.xy(x, y, a as u64);
                let req = AtomicReq {
                    core,
                    risc: Risc::Erisc0,
                    noc: NocId::Noc0,
                    dst,
                    op: AtomicOp::store(sent),
                    posted: true,
                    vc: sim_tensix::NOC_UNICAST_WRITE_VC,
                    mcast: None,
                };
                if let Err(e) = self.issue_atomic(req, now) {
                    self.rec
                        .warnings
                        .push(format!("fabric router on Ethernet channel {ch}: worker credit not sent: {e}"));
                }
            } else {
                // The chip's other routers may be waiting for room in this pass-through channel.
                for o in 0..self.chip.routers.len() as u32 {
                    if o != ch {
                        self.fabric_poke(o, now);
                    }
                }
            }
            return true;
        }
        false
    }

    /// On a stepped NoC model: write number `n` of router `ch` landed at `at`. Its increments that waited
    /// for every earlier write are due now.
    pub(crate) fn fabric_write_landed(&mut self, ch: u32, n: u64, at: Cycle) {
        let r = self.chip.routers[ch as usize].as_mut().expect("router");
        if let Some(k) = r.writes_in_flight.iter().position(|&w| w == n) {
            r.writes_in_flight.remove(k);
        }
        // The oldest write still in flight (every one before it has landed).
        let oldest = r.writes_in_flight.first().copied().unwrap_or(u64::MAX);
        while let Some(&(i, before)) = r.held_incs.front() {
            if before > oldest {
                break;
            }
            r.held_incs.pop_front();
            self.sched.queue.push(at, Ev::FabricInc(i));
        }
    }

    /// A deferred atomic increment of a router is due.
    pub(crate) fn fabric_inc(&mut self, i: u32, now: Cycle) {
        let (ch, a) = self.chip.fabric_incs[i as usize];
        if let Err(e) = self.issue_atomic(a, now) {
            self.rec
                .warnings
                .push(format!("fabric router on Ethernet channel {ch}: an atomic increment was dropped: {e}"));
        }
    }
}
