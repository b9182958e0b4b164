//! NoC transactions of a run: decoding kernel NoC addresses into memories, checking bounds and alignment,
//! and moving data as timed events — writes and multicasts (data out, acknowledgements back); reads are in
//! `noc_reads.rs`, atomics in `atomics.rs`. Each packet's timing comes from the NoC model;
//! source data is captured when it leaves, destinations change when it lands.

use super::noc_tokens::Then;
use super::packets::{Mem, NO_RECORD, Xfer};
use super::{ChipState, Engine, Ev};
use report::{TransferKind, TransferRecord};
use sim_core::{Cycle, Cycles};
use sim_noc::{Rect, VcClass};
use sim_params::SEMAPHORE_BYTES;
use sim_tensix::{CoreIdx, McastReq, NocError, Risc, WriteReq};
use soc_descriptors::{Noc0Coord, NocId, TileKind, TranslatedCoord};

impl ChipState {
    /// A slot for packet `x`, whose other destinations are `more` (a multicast's; empty otherwise).
    pub(super) fn alloc_xfer(&mut self, x: Xfer, more: Vec<(Mem, Noc0Coord)>) -> u32 {
        // Tags matter only where payloads move (timing-only runs never touch the tag of a slot: it stays 0).
        let tag = if self.move_data && !more.is_empty() {
            self.next_tag += 1;
            self.next_tag - 1
        } else {
            0
        };
        if let Some(i) = self.free_xfers.pop() {
            self.xfers[i as usize] = x;
            // Nothing captured yet: the slot's last packet's data must not land with this one.
            self.xfer_data[i as usize].clear();
            if self.move_data {
                self.xfer_tags[i as usize] = tag;
            }
            if more.is_empty() {
                // Only destinations after the first are read from the slot's list, so a packet without
                // any leaves it alone and hands the allocation back for the next packet.
                self.spare_dests = more;
            } else {
                self.spare_dests = std::mem::replace(&mut self.xfer_more[i as usize], more);
            }
            i
        } else {
            self.xfers.push(x);
            self.xfer_tags.push(tag);
            self.xfer_more.push(more);
            self.xfer_data.push(Vec::new());
            self.xfers.len() as u32 - 1
        }
    }

    pub(super) fn done_with(&mut self, id: u32) {
        let x = &mut self.xfers[id as usize];
        x.pending -= 1;
        if x.pending == 0 {
            self.free_xfers.push(id);
        }
    }

    /// Decode a kernel's NoC coordinate and local address into a memory; checks the range `[local, +len)`.
    pub(super) fn target(&self, x: u32, y: u32, local: u64, len: u64) -> Result<(Mem, Noc0Coord), NocError> {
        let tile = self.chip.translated_to_noc0(TranslatedCoord::new(x, y)).ok_or(NocError::NotATile {
            x,
            y,
            arch: self.chip.arch().name(),
        })?;
        match self.chip.soc().tile(tile) {
            TileKind::Tensix => {
                let core = self.tile_core[(tile.y * self.chip.soc().grid.x + tile.x) as usize]
                    .ok_or(NocError::Harvested { x, y })?;
                let l1 = &self.cores[core.0 as usize].l1;
                if let Err(err) = l1.check(local, len) {
                    return Err(NocError::RemoteL1 { err, core: self.logical(core), xy: (x, y) });
                }
                Ok((Mem::L1 { core, addr: local }, tile))
            }
            TileKind::Dram { channel, .. } => {
                let ch = self.dram.channel(channel as usize);
                if !ch.contains(local, len) {
                    return Err(NocError::Dram {
                        addr: local,
                        end: local.saturating_add(len),
                        size: ch.size(),
                        channel,
                        xy: (x, y),
                    });
                }
                Ok((Mem::Dram { channel, addr: local }, tile))
            }
            TileKind::Eth { .. } => {
                let core = self.tile_core[(tile.y * self.chip.soc().grid.x + tile.x) as usize]
                    .ok_or(NocError::Unmodelled { x, y, kind: "unused Ethernet", noc0: tile })?;
                let l1 = &self.cores[core.0 as usize].l1;
                if let Err(err) = l1.check(local, len) {
                    return Err(NocError::RemoteL1 { err, core: self.logical(core), xy: (x, y) });
                }
                Ok((Mem::L1 { core, addr: local }, tile))
            }
            kind => Err(NocError::Unmodelled { x, y, kind: kind.name(), noc0: tile }),
        }
    }

    pub(super) fn check_local(&self, core: CoreIdx, addr: u32, len: u32, side: &'static str) -> Result<(), NocError> {
        self.cores[core.0 as usize].l1.check(addr as u64, len as u64).map_err(|err| NocError::Local { side, err })
    }

    /// Capture packet `id`'s `len` bytes from `m` as it leaves (nothing when payloads are not moved; see
    /// [`ChipState::moves`]).
    pub(super) fn capture(&mut self, id: u32, m: Mem, len: u32) {
        if !self.moves(len) {
            return;
        }
        let mut data = std::mem::take(&mut self.xfer_data[id as usize]);
        self.read_mem(m, &mut data, len);
        self.xfer_data[id as usize] = data;
    }

    /// Take write `id`'s data from its source in L1 unless it has it already: when its tail leaves, or when a
    /// multicast's near branch lands before that (a stepped model may land it while the far branches still
    /// hold the tail at the source; the flits that land left the source first).
    fn capture_write(&mut self, id: u32) {
        if self.carries(id) {
            return;
        }
        let x = &self.xfers[id as usize];
        let (core, addr, size) = (x.core, x.l1_addr, x.size);
        self.capture(id, Mem::L1 { core, addr: addr as u64 }, size);
    }

    /// Whether packet `id` carries data (captured when it left, in `xfer_data`): payloads are moved.
    pub(super) fn carries(&self, id: u32) -> bool {
        self.moves(self.xfers[id as usize].size) && !self.xfer_data[id as usize].is_empty()
    }

    /// Read `len` bytes of `m` into `out`.
    pub(super) fn read_mem(&self, m: Mem, out: &mut Vec<u8>, len: u32) {
        out.clear();
        match m {
            Mem::L1 { core, addr } => {
                self.cores[core.0 as usize].l1.append_to(addr, len as u64, out).expect("checked at issue")
            }
            Mem::Dram { channel, addr } => self.dram.channel(channel as usize).append_to(addr, len as u64, out),
        }
    }

    /// Whether a transfer of `len` bytes carries its data: always, unless the run moves timing only, in which
    /// case only semaphore-sized words (at most [`SEMAPHORE_BYTES`]) still carry theirs.
    pub(super) fn moves(&self, len: u32) -> bool {
        self.move_data || len <= SEMAPHORE_BYTES
    }
}

impl Engine {
    fn fiber_of(&self, core: CoreIdx, risc: Risc) -> Option<sim_core::FiberId> {
        self.sched.fibers.iter().position(|f| f.core == core && f.risc == risc).map(|i| sim_core::FiberId(i as u32))
    }

    #[allow(clippy::too_many_arguments)] // the fields of one record
    pub(super) fn new_record(
        &mut self,
        kind: TransferKind,
        noc: NocId,
        src: Noc0Coord,
        dst: &[Noc0Coord],
        rect: Option<Rect>,
        bytes: u32,
        now: Cycle,
    ) -> Option<u32> {
        self.rec.record(|| TransferRecord {
            kind,
            noc,
            src: (src.x, src.y),
            dst: dst.iter().map(|t| (t.x, t.y)).collect(),
            rect: rect.map(|r| (r.x0, r.y0, r.x1, r.y1)),
            bytes,
            issue: now,
            first_byte: Cycle(u64::MAX),
            done: Cycle::ZERO,
        })
    }

    // ---------------------------------------------------------------------------------------------
    // Writes and multicasts
    // ---------------------------------------------------------------------------------------------

    /// The destinations of a multicast of `size` bytes at `local` by `core`'s `risc` to the rectangle with
    /// `corners`, and the rectangle in NoC0 coordinates.
    pub(super) fn multicast_dests(
        &mut self,
        (core, risc): (CoreIdx, Risc),
        mcast: Option<McastReq>,
        size: u32,
        local: u64,
        corners: (u32, u32, u32, u32),
    ) -> Result<(Vec<(Mem, Noc0Coord)>, Rect), NocError> {
        let (xs, ys, xe, ye) = corners;
        let c = &self.chip;
        let corner = |x: u32, y: u32| -> Result<Noc0Coord, NocError> {
            let t = c.chip.translated_to_noc0(TranslatedCoord::new(x, y)).ok_or(NocError::McastCorner {
                x,
                y,
                kind: None,
            })?;
            match c.chip.soc().tile(t) {
                TileKind::Tensix => Ok(t),
                other => Err(NocError::McastCorner { x, y, kind: Some(other.name()) }),
            }
        };
        let a = corner(xs, ys)?;
        let b = corner(xe, ye)?;
        let (x0, x1, y0, y1) = (a.x.min(b.x), a.x.max(b.x), a.y.min(b.y), a.y.max(b.y));
        let me = c.core_tile[core.0 as usize];
        // Without NOC_CMD_BRCST_SRC_INCLUDE (the _loopback_src variant) a sender inside the rectangle is not
        // one of its recipients.
        let loopback = mcast.is_some_and(|m| m.loopback);
        let mut dests = Vec::new();
        for y in y0..=y1 {
            for x in x0..=x1 {
                let t = Noc0Coord::new(x, y);
                if let Some(core) = c.tile_core[(y * c.chip.soc().grid.x + x) as usize]
                    && !c.is_eth_core(core)
                {
                    if t == me && !loopback {
                        continue;
                    }
                    c.cores[core.0 as usize].l1.check(local, size as u64).map_err(NocError::McastDest)?;
                    dests.push((Mem::L1 { core, addr: local }, t));
                }
            }
        }
        if dests.is_empty() {
            return Err(NocError::McastEmpty { rect: corners });
        }
        let num = mcast.map(|m| m.num_dests).unwrap_or(1);
        if num as usize != dests.len()
            && let Some(f) = self.fiber_of(core, risc)
        {
            self.warn_once(
                    f,
                    format!(
                        "multicast num_dests = {num} but the rectangle ({xs},{ys})-({xe},{ye}) has {} destination cores; the write barrier counts num_dests acks",
                        dests.len()
                    ),
                );
        }
        Ok((dests, Rect { x0, x1, y0, y1 }))
    }

    pub(crate) fn issue_write(&mut self, w: WriteReq, now: Cycle) -> Result<Cycle, NocError> {
        self.chip.check_local(w.core, w.src_l1, w.size, "source")?;
        let me = self.chip.core_tile[w.core.0 as usize];
        let map = self.chip.addr_map;
        let align = self.chip.mem.write_alignment as u64;
        let check_align = |local: u64| {
            if w.size as u64 > align && local % align != w.src_l1 as u64 % align {
                Err(NocError::MisalignedWrite { src: w.src_l1, dst: local, align })
            } else {
                Ok(())
            }
        };
        let mut more = std::mem::take(&mut self.chip.spare_dests);
        more.clear();
        let (first, rect, inject_start, inject_end, kind) = match w.mcast {
            None => {
                let (x, y, local) = map.decode(w.dst);
                let dest = self.chip.target(x, y, local, w.size as u64)?;
                check_align(local)?;
                if self.chip.steps.on {
                    self.chip.lands.clear();
                    let token = self.chip.steps.token(Then::Write(u32::MAX), 1);
                    let to = [dest.1];
                    let started = self.chip.routers().send(send(w.noc, me, &to, None, w.size, now, w.vc, true, token));
                    let started = started.unwrap_or(sim_tensix::CMD_PENDING);
                    (dest, None, started, started, TransferKind::Write)
                } else {
                    let d = self.chip.noc.unicast(w.noc, me, dest.1, w.size, now, VcClass::Unicast);
                    let land =
                        d.arrive + if dest.0.is_dram() { Cycles::ZERO } else { self.chip.noc_params.l1_write_latency };
                    self.chip.lands.clear();
                    self.chip.lands.push((d.first_byte, land));
                    (dest, None, d.inject_start, d.inject_end, TransferKind::Write)
                }
            }
            Some(m) => {
                let (xs, ys, xe, ye, local) = map.decode_multicast(w.dst);
                let (dests, rect) = self.multicast_dests((w.core, w.risc), w.mcast, w.size, local, (xs, ys, xe, ye))?;
                check_align(local)?;
                let c = &mut self.chip;
                let tiles: Vec<Noc0Coord> = dests.iter().map(|d| d.1).collect();
                // Unlinked multicasts reserve the broadcast path first; a linked run pays it once.
                let key = (w.core.0, w.risc.index() as u8, w.noc as u8);
                let held = c.mcast_paths.get(&key) == Some(&rect);
                let setup = if held { Cycles::ZERO } else { c.noc.path_reservation(w.noc, me, rect) };
                if m.linked {
                    c.mcast_paths.insert(key, rect);
                } else {
                    c.mcast_paths.remove(&key);
                }
                more.extend_from_slice(&dests[1..]);
                if c.steps.on {
                    c.lands.clear();
                    let tree = c.noc.topology().broadcast_tree(w.noc, me, rect);
                    let token = c.steps.token(Then::Write(u32::MAX), tiles.len() as u32);
                    let vc = sim_noc::MULTICAST_VC;
                    let s = send(w.noc, me, &tiles, Some(&tree), w.size, now, vc, true, token);
                    let s = sim_noc::Outgoing { setup: setup.0, ..s };
                    let started = c.routers().send(s).unwrap_or(sim_tensix::CMD_PENDING);
                    (dests[0], Some(rect), started, started, TransferKind::Multicast)
                } else {
                    let deliveries = c.noc.multicast(w.noc, me, rect, &tiles, w.size, now, setup);
                    let lat = c.noc_params.l1_write_latency;
                    c.lands.clear();
                    c.lands.extend(deliveries.iter().map(|d| (d.first_byte, d.arrive + lat)));
                    (
                        dests[0],
                        Some(rect),
                        deliveries[0].inject_start,
                        deliveries[0].inject_end,
                        TransferKind::Multicast,
                    )
                }
            }
        };
        let n = 1 + more.len() as u32;
        let record = if self.rec.records.is_some() {
            let mut tiles = vec![first.1];
            tiles.extend(more.iter().map(|d| d.1));
            self.new_record(kind, w.noc, me, &tiles, rect, w.size, now)
        } else {
            None
        };
        let c = &mut self.chip;
        let pending = 1 + n + if w.posted { 0 } else { n };
        let id = c.alloc_xfer(
            Xfer {
                core: w.core,
                risc: w.risc,
                noc: w.noc,
                src_tile: me,
                dest: first,
                l1_addr: w.src_l1,
                size: w.size,
                posted: w.posted,
                op: None,
                pending,
                record: record.unwrap_or(NO_RECORD),
                trid: w.trid,
            },
            more,
        );
        let cnt = c.cores[w.core.0 as usize].counters(w.risc, w.noc);
        cnt.trid_unsent[w.trid as usize] += 1;
        if w.posted {
            cnt.posted_issued += 1;
        } else {
            let acks = w.mcast.map(|m| m.num_dests).unwrap_or(1);
            cnt.nonposted_issued += 1;
            cnt.nonposted_acks_expected += acks;
            cnt.trid_acks[w.trid as usize] += acks;
        }
        self.chip.last_write = id;
        if self.chip.steps.on {
            self.chip.steps.retarget_last(Then::Write(id));
            self.noc_sent(now);
            return Ok(inject_start);
        }
        self.sched.queue.push(inject_end, Ev::WriteDepart(id));
        for (i, &(first, land)) in self.chip.lands.iter().enumerate() {
            self.rec.arrival(record, first, land);
            self.sched.queue.push(land, Ev::WriteLand(id, i as u16));
        }
        // The write command buffer takes the next command once the NIU has started on this one.
        Ok(inject_start)
    }

    pub(crate) fn write_depart(&mut self, id: u32, at: Cycle) {
        if !self.chip.fabric_slot_writes.is_empty()
            && let Some((ch, seq)) = self.chip.fabric_slot_writes.remove(&id)
        {
            // Capture first (below): the slot's data has left L1 once this returns.
            self.write_depart_inner(id, at);
            self.fabric_slot_write_left(ch, seq, at);
            return;
        }
        self.write_depart_inner(id, at);
    }

    fn write_depart_inner(&mut self, id: u32, at: Cycle) {
        let c = &mut self.chip;
        let (core, risc, noc, posted, trid) = {
            let x = &c.xfers[id as usize];
            (x.core, x.risc, x.noc, x.posted, x.trid)
        };
        self.sched.touch(core, at);
        c.capture_write(id);
        let cnt = c.cores[core.0 as usize].counters(risc, noc);
        cnt.trid_unsent[trid as usize] -= 1;
        if posted {
            cnt.posted_departed += 1;
        } else {
            cnt.nonposted_departed += 1;
        }
        c.done_with(id);
        self.notify_core(core, at);
    }

    pub(crate) fn write_land(&mut self, id: u32, dest: u16, at: Cycle) {
        let c = &mut self.chip;
        let (mem, tile) =
            if dest == 0 { c.xfers[id as usize].dest } else { c.xfer_more[id as usize][dest as usize - 1] };
        let (noc, me, size, posted) = {
            let x = &c.xfers[id as usize];
            (x.noc, x.src_tile, x.size, x.posted)
        };
        c.capture_write(id);
        let mut woken = None;
        let ack_ready = match mem {
            Mem::L1 { core, addr } => {
                self.sched.touch(core, at);
                if c.carries(id) {
                    let (l1, data, tag) =
                        (&mut c.cores[core.0 as usize].l1, &c.xfer_data[id as usize], c.xfer_tags[id as usize]);
                    if tag == 0 { l1.write(addr, data) } else { l1.write_tagged(addr, data, tag) }
                        .expect("checked at issue");
                }
                woken = Some(core);
                at
            }
            Mem::Dram { channel, addr } => {
                if c.carries(id) {
                    c.dram.channel_mut(channel as usize).write(addr, &c.xfer_data[id as usize]);
                }
                let stream = c.noc.serialisation(size);
                c.dram_timing.write(channel as usize, addr, size, at, stream)
            }
        };
        if !posted {
            let ack_ready = ack_ready + c.noc_params.ack_turnaround;
            self.send_ack(noc, tile, me, ack_ready, at, Then::WriteAck(id), Ev::WriteAck(id));
        }
        self.chip.done_with(id);
        if let Some(core) = woken {
            self.notify_core(core, at);
        }
        if !self.chip.fabric_writes.is_empty()
            && let Some((ch, n)) = self.chip.fabric_writes.remove(&id)
        {
            self.fabric_write_landed(ch, n, at);
        }
    }

    pub(crate) fn write_ack(&mut self, id: u32, at: Cycle) {
        let c = &mut self.chip;
        let (core, risc, noc, trid) = {
            let x = &c.xfers[id as usize];
            (x.core, x.risc, x.noc, x.trid)
        };
        self.sched.touch(core, at);
        // Acks come after their packet left and landed: the xfer's last pending event is its last ack.
        let last = c.xfers[id as usize].pending == 1;
        let cnt = c.cores[core.0 as usize].counters(risc, noc);
        cnt.nonposted_acked += 1;
        cnt.nonposted_done += last as u32;
        cnt.trid_acks[trid as usize] -= 1;
        c.done_with(id);
        self.notify_core(core, at);
    }
}

impl Engine {
    /// An acknowledgement from `from` back to `to` on `noc`, ready at `ready` (the engine is at `now`): on a
    /// booked model its arrival is scheduled as `arrives`, on a stepped one it is sent as `then`.
    #[allow(clippy::too_many_arguments)] // one acknowledgement
    pub(super) fn send_ack(
        &mut self,
        noc: NocId,
        from: Noc0Coord,
        to: Noc0Coord,
        ready: Cycle,
        now: Cycle,
        then: Then,
        arrives: Ev,
    ) {
        let c = &mut self.chip;
        if c.steps.on {
            let token = c.steps.token(then, 1);
            let dest = [to];
            c.routers().send(send(noc, from, &dest, None, 0, ready, sim_noc::RESPONSE_VC, false, token));
            self.noc_sent(now);
        } else {
            let at = c.noc.ack(noc, from, to, ready);
            self.sched.queue.push(at, arrives);
        }
    }
}

/// A packet for the stepped NoC model.
#[allow(clippy::too_many_arguments)] // the fields of one packet
pub(super) fn send<'a>(
    noc: NocId,
    src: Noc0Coord,
    dests: &'a [Noc0Coord],
    tree: Option<&'a [sim_noc::TreeNode]>,
    payload: u32,
    ready: Cycle,
    vc: u8,
    paced: bool,
    token: u64,
) -> sim_noc::Outgoing<'a> {
    sim_noc::Outgoing { noc, src, dests, tree, payload, ready, vc, paced, setup: 0, token }
}
