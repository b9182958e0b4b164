//! NoC reads of a run: a kernel's read request goes out, the source's NIU serves it (one request at a
//! time; a DRAM tile through the DRAM model), and the data comes back and lands. The source's data is
//! captured when the response leaves it.

use super::noc_tokens::Then;
use super::noc_transactions::send;
use super::packets::{Mem, NO_RECORD, Xfer};
use super::{Engine, Ev};
use report::TransferKind;
use sim_core::Cycle;
use sim_noc::VcClass;
use sim_tensix::{NocError, ReadReq};

impl Engine {
    pub(crate) fn issue_read(&mut self, r: ReadReq, now: Cycle) -> Result<Cycle, NocError> {
        let c = &mut self.chip;
        let (x, y, local) = c.addr_map.decode(r.src);
        let (src, src_tile) = c.target(x, y, local, r.size as u64)?;
        c.check_local(r.core, r.dst_l1, r.size, "destination")?;
        let a = if src.is_dram() { c.mem.dram_read_alignment } else { c.mem.l1_read_alignment } as u64;
        if local % a != r.dst_l1 as u64 % a {
            let kind = if src.is_dram() { "DRAM" } else { "L1" };
            return Err(NocError::MisalignedRead { kind, src: local, dst: r.dst_l1, align: a });
        }
        let me = c.core_tile[r.core.0 as usize];
        let record = self.new_record(TransferKind::Read, r.noc, src_tile, &[me], None, r.size, now);
        let c = &mut self.chip;
        let id = c.alloc_xfer(
            Xfer {
                core: r.core,
                risc: r.risc,
                noc: r.noc,
                src_tile: me,
                dest: (src, src_tile),
                l1_addr: r.dst_l1,
                size: r.size,
                posted: false,
                op: None,
                pending: 1,
                record: record.unwrap_or(NO_RECORD),
                trid: r.trid,
            },
            Vec::new(),
        );
        let cnt = c.cores[r.core.0 as usize].counters(r.risc, r.noc);
        cnt.reads_issued += 1;
        cnt.trid_reads[r.trid as usize] += 1;
        // An L1 or DRAM tile's NIU takes one read request at a time; the DRAM channel's rate is the DRAM
        // model's, and the response streams out as the channel reads it.
        let serve = if src.is_dram() { c.dram_timing.read_serve() } else { c.noc_params.read_serve };
        if c.steps.on {
            // The request's arrival decides the rest (`noc_steps.rs`).
            let (depart, booked) = c.routers().book_serve(r.noc, me, src_tile, now, serve);
            let token = c.steps.token(Then::ReadRequest(id), 1);
            c.steps.booked_last(booked);
            let to = [src_tile];
            let started = c.routers().send(send(r.noc, me, &to, None, 0, depart, r.vc, false, token));
            self.noc_sent(now);
            return Ok(started.unwrap_or(sim_tensix::CMD_PENDING));
        }
        let req = c.noc.served_request(r.noc, me, src_tile, now, serve);
        let ready = match src {
            Mem::L1 { .. } => req.arrive + c.noc_params.l1_read_latency,
            Mem::Dram { channel, addr } => {
                let stream = c.noc.serialisation(r.size);
                c.dram_timing.read(channel as usize, addr, r.size, req.arrive, stream)
            }
        };
        self.sched.queue.push(ready, Ev::ReadRespond(id));
        // The read command buffer takes the next command once this request has been injected.
        Ok(req.inject_start)
    }

    pub(crate) fn read_respond(&mut self, id: u32, at: Cycle) {
        let c = &mut self.chip;
        let (src, src_tile) = c.xfers[id as usize].dest;
        if let Mem::L1 { core, .. } = src {
            self.sched.touch(core, at);
        }
        let c = &mut self.chip;
        let (size, noc, me, record) = {
            let x = &c.xfers[id as usize];
            (x.size, x.noc, x.src_tile, x.record())
        };
        c.capture(id, src, size);
        if c.steps.on {
            let token = c.steps.token(Then::ReadResponse(id), 1);
            let to = [me];
            c.routers().send(send(noc, src_tile, &to, None, size, at, sim_noc::RESPONSE_VC, true, token));
            self.noc_sent(at);
            return;
        }
        let resp = c.noc.unicast(noc, src_tile, me, size, at, VcClass::Response);
        let land = resp.arrive + c.noc_params.l1_write_latency;
        self.rec.arrival(record, resp.first_byte, land);
        self.sched.queue.push(land, Ev::ReadLand(id));
    }

    pub(crate) fn read_land(&mut self, id: u32, at: Cycle) {
        let c = &mut self.chip;
        let x = &c.xfers[id as usize];
        let (core, risc, noc, addr, trid) = (x.core, x.risc, x.noc, x.l1_addr, x.trid);
        self.sched.touch(core, at);
        let c = &mut self.chip;
        if c.carries(id) {
            c.cores[core.0 as usize].l1.write(addr as u64, &c.xfer_data[id as usize]).expect("checked at issue");
        }
        let cnt = c.cores[core.0 as usize].counters(risc, noc);
        cnt.reads_done += 1;
        cnt.trid_reads[trid as usize] -= 1;
        c.done_with(id);
        self.notify_core(core, at);
    }
}
