//! NoC transactions of a run: decoding kernel NoC addresses into memories, checking bounds and alignment,
//! and moving data as timed events — reads (request out, data back), writes and multicasts (data out,
//! acknowledgements back) and atomics. Each packet's timing comes from the NoC model; source data is
//! captured when it leaves, destinations change when it lands.

use super::{Engine, Ev};
use crate::error::DeviceError;
use crate::report::{TransferKind, TransferRecord};
use sim_core::Cycle;
use sim_noc::{Rect, VcClass};
use sim_tensix::addrgen::{decode_multicast_addr, decode_noc_addr};
use sim_tensix::{AtomicOp, AtomicReq, CoreIdx, ReadReq, Risc, WriteReq};
use soc_descriptors::{Noc0Coord, NocId, TileKind, TranslatedCoord};

/// A memory location reachable over the NoC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mem {
    /// A Tensix core's L1.
    L1 { core: CoreIdx, addr: u64 },
    /// A DRAM channel.
    Dram { channel: u32, addr: u64 },
}

impl Mem {
    fn is_dram(&self) -> bool {
        matches!(self, Mem::Dram { .. })
    }
}

/// One in-flight packet (or multicast packet) and its data.
#[derive(Debug, Clone)]
pub(crate) struct Xfer {
    pub core: CoreIdx,
    pub risc: Risc,
    pub noc: NocId,
    pub src_tile: Noc0Coord,
    pub dests: Vec<(Mem, Noc0Coord)>,
    pub l1_addr: u32,
    pub size: u32,
    pub data: Vec<u8>,
    pub posted: bool,
    pub op: Option<AtomicOp>,
    pub pending: u32,
    /// Index of this packet's [`TransferRecord`].
    pub record: u32,
}

impl Engine {
    fn alloc_xfer(&mut self, mut x: Xfer) -> u32 {
        if let Some(i) = self.free_xfers.pop() {
            let slot = &mut self.xfers[i as usize];
            let mut data = std::mem::take(&mut slot.data);
            data.clear();
            x.data = data;
            *slot = x;
            i
        } else {
            self.xfers.push(x);
            self.xfers.len() as u32 - 1
        }
    }

    fn record(&mut self, r: TransferRecord) -> u32 {
        self.records.push(r);
        self.records.len() as u32 - 1
    }

    fn record_arrival(&mut self, id: u32, first_byte: Cycle, done: Cycle) {
        let r = self.xfers[id as usize].record as usize;
        let rec = &mut self.records[r];
        rec.first_byte = rec.first_byte.min(first_byte.0);
        rec.done = rec.done.max(done.0);
    }

    fn done_with(&mut self, id: u32) {
        let x = &mut self.xfers[id as usize];
        x.pending -= 1;
        if x.pending == 0 {
            self.free_xfers.push(id);
        }
    }

    /// Decode a kernel's NoC coordinate and local address into a memory; checks the range `[local, +len)`.
    fn target(&self, x: u32, y: u32, local: u64, len: u64) -> Result<(Mem, Noc0Coord), String> {
        let tile = self
            .chip
            .translated_to_noc0(TranslatedCoord::new(x, y))
            .ok_or_else(|| format!("NoC coordinate ({x},{y}) is not a tile of this {}", self.chip.arch()))?;
        match self.chip.soc().tile(tile) {
            TileKind::Tensix => {
                let core = self.tile_core[(tile.y * self.chip.soc().grid.x + tile.x) as usize]
                    .ok_or_else(|| format!("NoC coordinate ({x},{y}) is a harvested Tensix core"))?;
                let l1 = &self.cores[core.0 as usize].l1;
                if let Err(e) = l1.check(local, len) {
                    let l = self.logical(core);
                    return Err(format!("{e} of core ({},{}) [NoC ({x},{y})]", l.0, l.1));
                }
                Ok((Mem::L1 { core, addr: local }, tile))
            }
            TileKind::Dram { channel, .. } => {
                let ch = self.dram.channel(channel as usize);
                if !ch.contains(local, len) {
                    return Err(format!(
                        "DRAM access [{local:#x}, {:#x}) is outside the {}-byte channel {channel} at NoC ({x},{y})",
                        local + len,
                        ch.size()
                    ));
                }
                Ok((Mem::Dram { channel, addr: local }, tile))
            }
            kind => Err(format!(
                "NoC coordinate ({x},{y}) is a {} tile (NoC0 {}); tensim models Tensix L1 and DRAM endpoints",
                kind.name(),
                tile
            )),
        }
    }

    fn check_local(&self, core: CoreIdx, addr: u32, len: u32, what: &str) -> Result<(), String> {
        self.cores[core.0 as usize].l1.check(addr as u64, len as u64).map_err(|e| format!("{what}: {e}"))
    }

    fn read_mem(&self, m: Mem, out: &mut Vec<u8>, len: u32) {
        out.resize(len as usize, 0);
        match m {
            Mem::L1 { core, addr } => {
                out.copy_from_slice(self.cores[core.0 as usize].l1.read(addr, len as u64).expect("checked at issue"))
            }
            Mem::Dram { channel, addr } => self.dram.channel(channel as usize).read(addr, out),
        }
    }

    fn fiber_of(&self, core: CoreIdx, risc: Risc) -> Option<sim_core::FiberId> {
        self.fibers.iter().position(|f| f.core == core && f.risc == risc).map(|i| sim_core::FiberId(i as u32))
    }

    // ---------------------------------------------------------------------------------------------
    // Reads
    // ---------------------------------------------------------------------------------------------

    pub(crate) fn issue_read(&mut self, r: ReadReq, now: Cycle) -> Result<Cycle, String> {
        let (x, y, local) = decode_noc_addr(r.src);
        let (src, src_tile) = self.target(x, y, local, r.size as u64)?;
        self.check_local(r.core, r.dst_l1, r.size, "destination")?;
        let a = if src.is_dram() { self.mem.dram_read_alignment } else { self.mem.l1_read_alignment } as u64;
        if local % a != r.dst_l1 as u64 % a {
            let kind = if src.is_dram() { "DRAM" } else { "L1" };
            return Err(format!(
                "misaligned NoC read: source {kind} address {local:#x} and destination L1 address {:#x} differ modulo {a} \
                 (NOC_{kind}_READ_ALIGNMENT_BYTES); align both to {a} bytes",
                r.dst_l1
            ));
        }
        let me = self.core_tile[r.core.0 as usize];
        let req = self.noc.unicast(r.noc, me, src_tile, 0, now, VcClass::Unicast);
        let ready = match src {
            Mem::L1 { .. } => req.arrive + self.mem.l1_noc_read_latency,
            Mem::Dram { channel, addr } => self.dram_timing.read(channel as usize, addr, r.size, req.arrive),
        };
        let record = self.record(TransferRecord {
            kind: TransferKind::Read,
            noc: r.noc,
            src: (src_tile.x, src_tile.y),
            dst: vec![(me.x, me.y)],
            rect: None,
            bytes: r.size,
            issue: now.0,
            first_byte: u64::MAX,
            done: 0,
        });
        let id = self.alloc_xfer(Xfer {
            core: r.core,
            risc: r.risc,
            noc: r.noc,
            src_tile: me,
            dests: vec![(src, src_tile)],
            l1_addr: r.dst_l1,
            size: r.size,
            data: Vec::new(),
            posted: false,
            op: None,
            pending: 1,
            record,
        });
        self.queue.push(ready, Ev::ReadRespond(id));
        self.cores[r.core.0 as usize].counters(r.risc, r.noc).reads_issued += 1;
        // The read command buffer takes the next command once this request has been injected.
        Ok(req.inject_start)
    }

    pub(crate) fn read_respond(&mut self, id: u32, at: Cycle) -> Result<(), DeviceError> {
        let (src, src_tile) = self.xfers[id as usize].dests[0];
        let (size, noc, me) = {
            let x = &self.xfers[id as usize];
            (x.size, x.noc, x.src_tile)
        };
        let mut data = std::mem::take(&mut self.xfers[id as usize].data);
        self.read_mem(src, &mut data, size);
        self.xfers[id as usize].data = data;
        let resp = self.noc.unicast(noc, src_tile, me, size, at, VcClass::Response);
        let land = resp.arrive + self.mem.l1_noc_write_latency;
        self.record_arrival(id, resp.first_byte, land);
        self.queue.push(land, Ev::ReadLand(id));
        Ok(())
    }

    pub(crate) fn read_land(&mut self, id: u32, at: Cycle) -> Result<(), DeviceError> {
        let x = &self.xfers[id as usize];
        let (core, risc, noc, addr) = (x.core, x.risc, x.noc, x.l1_addr);
        self.cores[core.0 as usize].l1.write(addr as u64, &x.data).expect("checked at issue");
        self.cores[core.0 as usize].counters(risc, noc).reads_done += 1;
        self.done_with(id);
        self.notify_core(core, at);
        Ok(())
    }

    // ---------------------------------------------------------------------------------------------
    // Writes and multicasts
    // ---------------------------------------------------------------------------------------------

    fn multicast_dests(
        &mut self,
        w: &WriteReq,
        local: u64,
        xs: u32,
        ys: u32,
        xe: u32,
        ye: u32,
    ) -> Result<(Vec<(Mem, Noc0Coord)>, Rect), String> {
        let corner = |x: u32, y: u32| -> Result<Noc0Coord, String> {
            let t = self
                .chip
                .translated_to_noc0(TranslatedCoord::new(x, y))
                .ok_or_else(|| format!("multicast corner ({x},{y}) is not a tile of this chip"))?;
            if self.chip.soc().tile(t) != TileKind::Tensix {
                return Err(format!(
                    "multicast corner ({x},{y}) is a {} tile; multicast rectangles are of Tensix cores",
                    self.chip.soc().tile(t).name()
                ));
            }
            Ok(t)
        };
        let a = corner(xs, ys)?;
        let b = corner(xe, ye)?;
        let (x0, x1, y0, y1) = (a.x.min(b.x), a.x.max(b.x), a.y.min(b.y), a.y.max(b.y));
        let me = self.core_tile[w.core.0 as usize];
        let loopback = w.mcast.is_some_and(|m| m.loopback);
        let inside = (x0..=x1).contains(&me.x) && (y0..=y1).contains(&me.y);
        if inside && !loopback {
            let l = self.logical(w.core);
            return Err(format!(
                "the multicast rectangle ({xs},{ys})-({xe},{ye}) contains the sender, core ({},{}); use the \
                 _loopback_src variant or leave the sender out of the rectangle",
                l.0, l.1
            ));
        }
        let mut dests = Vec::new();
        for y in y0..=y1 {
            for x in x0..=x1 {
                let t = Noc0Coord::new(x, y);
                if let Some(core) = self.tile_core[(y * self.chip.soc().grid.x + x) as usize] {
                    if t == me && !loopback {
                        continue;
                    }
                    let l1 = &self.cores[core.0 as usize].l1;
                    l1.check(local, w.size as u64).map_err(|e| format!("multicast destination: {e}"))?;
                    dests.push((Mem::L1 { core, addr: local }, t));
                }
            }
        }
        if dests.is_empty() {
            return Err(format!("the multicast rectangle ({xs},{ys})-({xe},{ye}) holds no Tensix worker"));
        }
        let num = w.mcast.map(|m| m.num_dests).unwrap_or(1);
        if num as usize != dests.len() {
            if let Some(f) = self.fiber_of(w.core, w.risc) {
                self.warn_once(
                    f,
                    format!(
                        "multicast num_dests = {num} but the rectangle ({xs},{ys})-({xe},{ye}) has {} destination cores; the write barrier counts num_dests acks",
                        dests.len()
                    ),
                );
            }
        }
        Ok((dests, Rect { x0, x1, y0, y1 }))
    }

    pub(crate) fn issue_write(&mut self, w: WriteReq, now: Cycle) -> Result<Cycle, String> {
        self.check_local(w.core, w.src_l1, w.size, "source")?;
        let me = self.core_tile[w.core.0 as usize];
        let (dests, local, rect) = match w.mcast {
            None => {
                let (x, y, local) = decode_noc_addr(w.dst);
                (vec![self.target(x, y, local, w.size as u64)?], local, None)
            }
            Some(_) => {
                let (xs, ys, xe, ye, local) = decode_multicast_addr(w.dst);
                let (d, r) = self.multicast_dests(&w, local, xs, ys, xe, ye)?;
                (d, local, Some(r))
            }
        };
        let a = self.mem.write_alignment as u64;
        if w.size as u64 > a && local % a != w.src_l1 as u64 % a {
            return Err(format!(
                "misaligned NoC write: source L1 address {:#x} and destination address {local:#x} differ modulo {a} \
                 (NOC_WRITE_ALIGNMENT_BYTES); align both to {a} bytes",
                w.src_l1
            ));
        }
        let n = dests.len();
        let tiles: Vec<Noc0Coord> = dests.iter().map(|d| d.1).collect();
        let deliveries = match (w.mcast, rect) {
            (Some(m), Some(rect)) => {
                // Unlinked multicasts reserve the broadcast path first; a linked run pays it once.
                let key = (w.core.0, w.risc.index() as u8, w.noc as u8);
                let held = self.mcast_paths.get(&key) == Some(&rect);
                let setup = if held { sim_core::Cycles::ZERO } else { self.noc.path_reservation(w.noc, me, rect) };
                if m.linked {
                    self.mcast_paths.insert(key, rect);
                } else {
                    self.mcast_paths.remove(&key);
                }
                self.noc.multicast(w.noc, me, rect, &tiles, w.size, now + setup)
            }
            _ => vec![self.noc.unicast(w.noc, me, tiles[0], w.size, now, VcClass::Unicast)],
        };
        let inject_start = deliveries[0].inject_start;
        let inject_end = deliveries[0].inject_end;
        let kind = if w.mcast.is_some() { TransferKind::Multicast } else { TransferKind::Write };
        let record = self.record(TransferRecord {
            kind,
            noc: w.noc,
            src: (me.x, me.y),
            dst: tiles.iter().map(|t| (t.x, t.y)).collect(),
            rect: rect.map(|r| (r.x0, r.y0, r.x1, r.y1)),
            bytes: w.size,
            issue: now.0,
            first_byte: u64::MAX,
            done: 0,
        });
        let pending = 1 + n as u32 + if w.posted { 0 } else { n as u32 };
        let id = self.alloc_xfer(Xfer {
            core: w.core,
            risc: w.risc,
            noc: w.noc,
            src_tile: me,
            dests,
            l1_addr: w.src_l1,
            size: w.size,
            data: Vec::new(),
            posted: w.posted,
            op: None,
            pending,
            record,
        });
        self.queue.push(inject_end, Ev::WriteDepart(id));
        for (i, d) in deliveries.into_iter().enumerate() {
            let lat = if self.xfers[id as usize].dests[i].0.is_dram() {
                sim_core::Cycles::ZERO
            } else {
                self.mem.l1_noc_write_latency
            };
            self.record_arrival(id, d.first_byte, d.arrive + lat);
            self.queue.push(d.arrive + lat, Ev::WriteLand(id, i as u16));
        }
        let c = self.cores[w.core.0 as usize].counters(w.risc, w.noc);
        if w.posted {
            c.posted_issued += 1;
        } else {
            c.nonposted_issued += 1;
            c.nonposted_acks_expected += w.mcast.map(|m| m.num_dests).unwrap_or(1);
        }
        // The write command buffer takes the next command once the NIU has started on this one.
        Ok(inject_start)
    }

    pub(crate) fn write_depart(&mut self, id: u32, at: Cycle) -> Result<(), DeviceError> {
        let (core, risc, noc, addr, size, posted) = {
            let x = &self.xfers[id as usize];
            (x.core, x.risc, x.noc, x.l1_addr, x.size, x.posted)
        };
        let mut data = std::mem::take(&mut self.xfers[id as usize].data);
        self.read_mem(Mem::L1 { core, addr: addr as u64 }, &mut data, size);
        self.xfers[id as usize].data = data;
        let c = self.cores[core.0 as usize].counters(risc, noc);
        if posted {
            c.posted_departed += 1;
        } else {
            c.nonposted_departed += 1;
        }
        self.done_with(id);
        self.notify_core(core, at);
        Ok(())
    }

    pub(crate) fn write_land(&mut self, id: u32, dest: u16, at: Cycle) -> Result<(), DeviceError> {
        let (mem, tile) = self.xfers[id as usize].dests[dest as usize];
        let (noc, me, size, posted) = {
            let x = &self.xfers[id as usize];
            (x.noc, x.src_tile, x.size, x.posted)
        };
        let ack_ready = match mem {
            Mem::L1 { core, addr } => {
                let data = &self.xfers[id as usize].data;
                self.cores[core.0 as usize].l1.write(addr, data).expect("checked at issue");
                self.notify_core(core, at);
                at
            }
            Mem::Dram { channel, addr } => {
                let data = &self.xfers[id as usize].data;
                self.dram.channel_mut(channel as usize).write(addr, data);
                self.dram_timing.write(channel as usize, addr, size, at)
            }
        };
        if !posted {
            let ack_ready = ack_ready + self.mem.ack_turnaround;
            let ack = self.noc.unicast(noc, tile, me, 0, ack_ready, VcClass::Response);
            self.queue.push(ack.arrive, Ev::WriteAck(id));
        }
        self.done_with(id);
        Ok(())
    }

    pub(crate) fn write_ack(&mut self, id: u32, at: Cycle) -> Result<(), DeviceError> {
        let (core, risc, noc) = {
            let x = &self.xfers[id as usize];
            (x.core, x.risc, x.noc)
        };
        self.cores[core.0 as usize].counters(risc, noc).nonposted_acked += 1;
        self.done_with(id);
        self.notify_core(core, at);
        Ok(())
    }

    // ---------------------------------------------------------------------------------------------
    // Atomics and inline writes
    // ---------------------------------------------------------------------------------------------

    pub(crate) fn issue_atomic(&mut self, a: AtomicReq, now: Cycle) -> Result<Cycle, String> {
        let (x, y, local) = decode_noc_addr(a.dst);
        let (mem, tile) = self.target(x, y, local, 4)?;
        if mem.is_dram() {
            return Err(format!("NoC ({x},{y}) is DRAM; semaphores and atomics work on Tensix L1 words"));
        }
        if local % 4 != 0 {
            return Err(format!("L1 word address {local:#x} is not 4-byte aligned"));
        }
        let me = self.core_tile[a.core.0 as usize];
        let d = self.noc.unicast(a.noc, me, tile, 0, now, VcClass::Unicast);
        let record = self.record(TransferRecord {
            kind: TransferKind::Atomic,
            noc: a.noc,
            src: (me.x, me.y),
            dst: vec![(tile.x, tile.y)],
            rect: None,
            bytes: 4,
            issue: now.0,
            first_byte: u64::MAX,
            done: 0,
        });
        let id = self.alloc_xfer(Xfer {
            core: a.core,
            risc: a.risc,
            noc: a.noc,
            src_tile: me,
            dests: vec![(mem, tile)],
            l1_addr: 0,
            size: 4,
            data: Vec::new(),
            posted: a.posted,
            op: Some(a.op),
            pending: if a.posted { 1 } else { 2 },
            record,
        });
        self.record_arrival(id, d.first_byte, d.arrive + self.mem.l1_noc_write_latency);
        self.queue.push(d.arrive + self.mem.l1_noc_write_latency, Ev::AtomicLand(id));
        let c = self.cores[a.core.0 as usize].counters(a.risc, a.noc);
        match a.op {
            AtomicOp::Inc(_) => c.atomics_issued += 1,
            AtomicOp::Store(_) => {
                // An inline write is a (header-only) non-posted write: it has left once injected.
                c.nonposted_issued += 1;
                c.nonposted_departed += 1;
                c.nonposted_acks_expected += if a.posted { 0 } else { 1 };
            }
        }
        Ok(d.inject_start)
    }

    pub(crate) fn atomic_land(&mut self, id: u32, at: Cycle) -> Result<(), DeviceError> {
        let (mem, tile) = self.xfers[id as usize].dests[0];
        let (noc, me, posted, op) = {
            let x = &self.xfers[id as usize];
            (x.noc, x.src_tile, x.posted, x.op.expect("atomic"))
        };
        if let Mem::L1 { core, addr } = mem {
            let l1 = &mut self.cores[core.0 as usize].l1;
            let old = l1.read_u32(addr).expect("checked at issue");
            let new = match op {
                AtomicOp::Inc(v) => old.wrapping_add(v),
                AtomicOp::Store(v) => v,
            };
            l1.write_u32(addr, new).expect("checked at issue");
            self.notify_core(core, at);
        }
        if !posted {
            let ack = self.noc.unicast(noc, tile, me, 0, at + self.mem.ack_turnaround, VcClass::Response);
            self.queue.push(ack.arrive, Ev::AtomicAck(id));
        }
        self.done_with(id);
        Ok(())
    }

    pub(crate) fn atomic_ack(&mut self, id: u32, at: Cycle) -> Result<(), DeviceError> {
        let (core, risc, noc, op) = {
            let x = &self.xfers[id as usize];
            (x.core, x.risc, x.noc, x.op.expect("atomic"))
        };
        let c = self.cores[core.0 as usize].counters(risc, noc);
        match op {
            AtomicOp::Inc(_) => c.atomics_acked += 1,
            AtomicOp::Store(_) => c.nonposted_acked += 1,
        }
        self.done_with(id);
        self.notify_core(core, at);
        Ok(())
    }
}
