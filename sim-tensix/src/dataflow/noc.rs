//! NoC reads, writes and multicasts (split into bursts, each through the RISC's command buffer, within
//! the outstanding-transaction limit) and the barriers that wait for them.

use super::Dataflow;
use crate::addrgen::{AddrGen, TensorAccessor};
use crate::hw::core::{Barrier, Wait};
use crate::kernel_ctx::CmdBuf;
use crate::kernel_host::{McastReq, NOC_UNICAST_WRITE_VC, ReadReq, WriteReq};
use soc_descriptors::NocId;

/// How a write is issued.
#[derive(Debug, Clone, Copy)]
pub(super) struct WriteOpts {
    pub noc: NocId,
    pub posted: bool,
    pub mcast: Option<McastReq>,
    pub one_packet: bool,
    /// The static VC number of a unicast write.
    pub vc: u8,
}

impl Dataflow<'_> {
    // ---------------------------------------------------------------------------------------------
    // NoC reads and writes
    // ---------------------------------------------------------------------------------------------

    fn packets(&self, size: u32) -> u32 {
        size.div_ceil(self.ctx.k.max_burst).max(1)
    }

    /// Wait until another read (or non-posted write) packet may be put in flight on `noc`.
    fn wait_slot(&mut self, noc: NocId, reads: bool) {
        let risc = self.ctx.k.risc;
        let max = self.ctx.k.max_outstanding;
        let full = self.ctx.host.borrow().core(self.ctx.k.core).noc[risc.index()][noc.index()].in_flight(reads) >= max;
        if full {
            let lat = self.ctx.costs.barrier_wake;
            self.ctx.wait_for(Wait::NocSlot { risc, noc, reads, max }, lat);
        }
    }

    pub(super) fn read_on(&mut self, api: &'static str, src: u64, dst: u32, size: u32, noc: NocId, one_packet: bool) {
        if size == 0 {
            self.ctx.spend(self.ctx.costs.noc_read_cmd);
            return;
        }
        let burst = self.ctx.k.max_burst;
        if one_packet && size > burst {
            self.ctx.fail(format!("{api}: {size} bytes exceed one packet (NOC_MAX_BURST_SIZE = {burst})"));
        }
        self.ctx.trace_noc(api, size, src);
        for p in 0..self.packets(size) {
            let off = p * burst;
            let len = (size - off).min(burst);
            self.wait_slot(noc, true);
            let req = ReadReq {
                core: self.ctx.k.core,
                risc: self.ctx.k.risc,
                noc,
                src: src + off as u64,
                dst_l1: dst + off,
                size: len,
                trid: self.ctx.trid[0],
                vc: NOC_UNICAST_WRITE_VC,
            };
            if let Err(e) = self.ctx.noc_command(noc, CmdBuf::Read, |h, now| h.noc_read(req, now)) {
                self.ctx.fail(format!("{api}: {e}"));
            }
        }
    }

    pub(super) fn write_on(&mut self, api: &'static str, src: u32, dst: u64, size: u32, o: WriteOpts) {
        let WriteOpts { noc, posted, mcast, one_packet, vc } = o;
        if size == 0 {
            self.ctx.spend(self.ctx.costs.noc_cmd);
            return;
        }
        let burst = self.ctx.k.max_burst;
        if one_packet && size > burst {
            self.ctx.fail(format!("{api}: {size} bytes exceed one packet (NOC_MAX_BURST_SIZE = {burst})"));
        }
        if let Some(m) = mcast
            && m.num_dests == 0
        {
            self.ctx.fail(format!("{api}: num_dests is 0; pass the number of destination cores"));
        }
        self.ctx.trace_noc(api, size, dst);
        for p in 0..self.packets(size) {
            let off = p * burst;
            let len = (size - off).min(burst);
            if !posted {
                self.wait_slot(noc, false);
            }
            let req = WriteReq {
                core: self.ctx.k.core,
                risc: self.ctx.k.risc,
                noc,
                src_l1: src + off,
                dst: dst + off as u64,
                size: len,
                posted,
                mcast,
                trid: self.ctx.trid[1],
                vc,
            };
            if let Err(e) = self.ctx.noc_command(noc, CmdBuf::Write, |h, now| h.noc_write(req, now)) {
                self.ctx.fail(format!("{api}: {e}"));
            }
        }
    }

    /// `noc_async_read(src_noc_addr, dst_l1_addr, size)`, split into bursts.
    pub fn noc_async_read(&mut self, src_noc_addr: u64, dst_local_l1_addr: u32, size: u32) {
        let noc = self.ctx.k.noc;
        self.read_on("noc_async_read", src_noc_addr, dst_local_l1_addr, size, noc, false);
    }

    /// `noc_async_read(…, noc)`.
    pub fn noc_async_read_on(&mut self, src_noc_addr: u64, dst_local_l1_addr: u32, size: u32, noc: NocId) {
        self.read_on("noc_async_read", src_noc_addr, dst_local_l1_addr, size, noc, false);
    }

    /// `noc_async_read_one_packet`: at most one burst.
    pub fn noc_async_read_one_packet(&mut self, src_noc_addr: u64, dst_local_l1_addr: u32, size: u32) {
        let noc = self.ctx.k.noc;
        self.read_on("noc_async_read_one_packet", src_noc_addr, dst_local_l1_addr, size, noc, true);
    }

    /// `noc_async_read_page(id, addr_gen, dst_l1, offset)`.
    pub fn noc_async_read_page<G: AddrGen>(&mut self, id: u32, addrgen: &G, dst_local_l1_addr: u32, offset: u32) {
        let noc = self.ctx.k.noc;
        self.noc_async_read_page_on(id, addrgen, dst_local_l1_addr, offset, noc);
    }

    /// `noc_async_read_page(id, addr_gen, dst_l1, offset, noc)`: on the given NoC (its read barrier waits
    /// for it).
    pub fn noc_async_read_page_on<G: AddrGen>(
        &mut self,
        id: u32,
        addrgen: &G,
        dst_local_l1_addr: u32,
        offset: u32,
        noc: NocId,
    ) {
        let src = self.get_noc_addr_page(id, addrgen, offset);
        self.read_on("noc_async_read_page", src, dst_local_l1_addr, addrgen.page_size(), noc, false);
    }

    /// `noc_async_read_tile(id, addr_gen, dst_l1)` (deprecated alias of `noc_async_read_page`).
    pub fn noc_async_read_tile<G: AddrGen>(&mut self, id: u32, addrgen: &G, dst_local_l1_addr: u32) {
        self.noc_async_read_page(id, addrgen, dst_local_l1_addr, 0);
    }

    /// `noc_async_write(src_l1, dst_noc_addr, size)`, split into bursts (non-posted).
    pub fn noc_async_write(&mut self, src_local_l1_addr: u32, dst_noc_addr: u64, size: u32) {
        let noc = self.ctx.k.noc;
        self.write_on(
            "noc_async_write",
            src_local_l1_addr,
            dst_noc_addr,
            size,
            WriteOpts { noc, posted: false, mcast: None, one_packet: false, vc: NOC_UNICAST_WRITE_VC },
        );
    }

    /// `noc_async_write(…, noc)`.
    pub fn noc_async_write_on(&mut self, src_local_l1_addr: u32, dst_noc_addr: u64, size: u32, noc: NocId) {
        self.write_on(
            "noc_async_write",
            src_local_l1_addr,
            dst_noc_addr,
            size,
            WriteOpts { noc, posted: false, mcast: None, one_packet: false, vc: NOC_UNICAST_WRITE_VC },
        );
    }

    /// `noc_async_write(…, noc, vc)`: on static VC number `vc` (0..=3) instead of the default
    /// `NOC_UNICAST_WRITE_VC`.
    pub fn noc_async_write_on_vc(&mut self, src_local_l1_addr: u32, dst_noc_addr: u64, size: u32, noc: NocId, vc: u8) {
        if vc > 3 {
            self.ctx.fail(format!("noc_async_write: VC {vc} is not a unicast request VC (0..=3)"));
        }
        self.write_on(
            "noc_async_write",
            src_local_l1_addr,
            dst_noc_addr,
            size,
            WriteOpts { noc, posted: false, mcast: None, one_packet: false, vc },
        );
    }

    /// `noc_async_write<…, posted = true>`: not acknowledged.
    pub fn noc_async_write_posted(&mut self, src_local_l1_addr: u32, dst_noc_addr: u64, size: u32) {
        let noc = self.ctx.k.noc;
        self.noc_async_write_posted_on(src_local_l1_addr, dst_noc_addr, size, noc);
    }

    /// `noc_async_write<…, posted = true>(…, noc)`.
    pub fn noc_async_write_posted_on(&mut self, src_local_l1_addr: u32, dst_noc_addr: u64, size: u32, noc: NocId) {
        self.write_on(
            "noc_async_write",
            src_local_l1_addr,
            dst_noc_addr,
            size,
            WriteOpts { noc, posted: true, mcast: None, one_packet: false, vc: NOC_UNICAST_WRITE_VC },
        );
    }

    /// `noc_async_write_one_packet`: at most one burst.
    pub fn noc_async_write_one_packet(&mut self, src_local_l1_addr: u32, dst_noc_addr: u64, size: u32) {
        let noc = self.ctx.k.noc;
        self.write_on(
            "noc_async_write_one_packet",
            src_local_l1_addr,
            dst_noc_addr,
            size,
            WriteOpts { noc, posted: false, mcast: None, one_packet: true, vc: NOC_UNICAST_WRITE_VC },
        );
    }

    /// `noc_async_write_page(id, addr_gen, src_l1, size, offset)`; `size` 0 means the page size.
    pub fn noc_async_write_page<G: AddrGen>(
        &mut self,
        id: u32,
        addrgen: &G,
        src_local_l1_addr: u32,
        size: u32,
        offset: u32,
    ) {
        let noc = self.ctx.k.noc;
        self.noc_async_write_page_with(id, addrgen, src_local_l1_addr, size, offset, false, noc);
    }

    /// `noc_async_write_page<AddrGen, tracing, posted>(…, noc)`: a posted write is not acknowledged; it goes
    /// on the given NoC (whose barriers wait for it).
    #[allow(clippy::too_many_arguments)]
    pub fn noc_async_write_page_with<G: AddrGen>(
        &mut self,
        id: u32,
        addrgen: &G,
        src_local_l1_addr: u32,
        size: u32,
        offset: u32,
        posted: bool,
        noc: NocId,
    ) {
        let dst = self.get_noc_addr_page(id, addrgen, offset);
        let size = if size == 0 { addrgen.page_size() } else { size };
        self.write_on(
            "noc_async_write_page",
            src_local_l1_addr,
            dst,
            size,
            WriteOpts { noc, posted, mcast: None, one_packet: false, vc: NOC_UNICAST_WRITE_VC },
        );
    }

    /// `noc_async_write_tile(id, addr_gen, src_l1)` (deprecated alias of `noc_async_write_page`).
    pub fn noc_async_write_tile<G: AddrGen>(&mut self, id: u32, addrgen: &G, src_local_l1_addr: u32) {
        self.noc_async_write_page(id, addrgen, src_local_l1_addr, 0, 0);
    }

    /// `noc_async_read_shard(shard_id, accessor, dst_l1)`: a whole shard of a sharded buffer (its pages are
    /// contiguous in their bank).
    pub fn noc_async_read_shard(&mut self, shard_id: u32, accessor: &TensorAccessor, dst_local_l1_addr: u32) {
        let src = self.get_shard_noc_addr(accessor, shard_id, 0);
        let size = accessor.shard_bytes(&self.ctx.k.tables).unwrap_or(0) as u32;
        let noc = self.ctx.k.noc;
        self.read_on("noc_async_read_shard", src, dst_local_l1_addr, size, noc, false);
    }

    /// `noc_async_write_shard(shard_id, accessor, src_l1)`.
    pub fn noc_async_write_shard(&mut self, shard_id: u32, accessor: &TensorAccessor, src_local_l1_addr: u32) {
        let dst = self.get_shard_noc_addr(accessor, shard_id, 0);
        let size = accessor.shard_bytes(&self.ctx.k.tables).unwrap_or(0) as u32;
        let noc = self.ctx.k.noc;
        self.write_on(
            "noc_async_write_shard",
            src_local_l1_addr,
            dst,
            size,
            WriteOpts { noc, posted: false, mcast: None, one_packet: false, vc: NOC_UNICAST_WRITE_VC },
        );
    }

    /// A multicast write (data or a semaphore word) on NoC `noc`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn multicast_on(
        &mut self,
        api: &'static str,
        src: u32,
        dst: u64,
        size: u32,
        m: McastReq,
        one_packet: bool,
        noc: NocId,
    ) {
        self.write_on(
            api,
            src,
            dst,
            size,
            WriteOpts { noc, posted: false, mcast: Some(m), one_packet, vc: NOC_UNICAST_WRITE_VC },
        );
    }

    /// `noc_async_write_multicast(src_l1, dst_mcast_addr, size, num_dests, linked)`.
    pub fn noc_async_write_multicast(
        &mut self,
        src_local_l1_addr: u32,
        dst_noc_addr_multicast: u64,
        size: u32,
        num_dests: u32,
        linked: bool,
    ) {
        let (m, noc) = (McastReq { num_dests, loopback: false, linked }, self.ctx.k.noc);
        self.noc_async_write_multicast_on(src_local_l1_addr, dst_noc_addr_multicast, size, m, noc);
    }

    /// `noc_async_write_multicast[_loopback_src](…, noc)` on the NoC the call names (its write barrier waits
    /// for the acknowledgements there).
    pub fn noc_async_write_multicast_on(
        &mut self,
        src_local_l1_addr: u32,
        dst_noc_addr_multicast: u64,
        size: u32,
        m: McastReq,
        noc: NocId,
    ) {
        let api = if m.loopback { "noc_async_write_multicast_loopback_src" } else { "noc_async_write_multicast" };
        self.multicast_on(api, src_local_l1_addr, dst_noc_addr_multicast, size, m, false, noc);
    }

    /// `noc_async_write_multicast_loopback_src`: the sender is a destination too.
    pub fn noc_async_write_multicast_loopback_src(
        &mut self,
        src_local_l1_addr: u32,
        dst_noc_addr_multicast: u64,
        size: u32,
        num_dests: u32,
        linked: bool,
    ) {
        let (m, noc) = (McastReq { num_dests, loopback: true, linked }, self.ctx.k.noc);
        self.noc_async_write_multicast_on(src_local_l1_addr, dst_noc_addr_multicast, size, m, noc);
    }

    pub(super) fn barrier_on(&mut self, b: Barrier, noc: NocId) {
        self.ctx.spend(self.ctx.costs.barrier_poll);
        let risc = self.ctx.k.risc;
        let lat = self.ctx.costs.barrier_wake;
        self.ctx.wait_for(Wait::Noc { risc, noc, barrier: b }, lat);
    }

    /// `noc_async_read_barrier()`: every read of this RISC on its NoC has landed.
    pub fn noc_async_read_barrier(&mut self) {
        self.barrier_on(Barrier::Reads, self.ctx.k.noc);
    }

    /// `noc_async_read_barrier(noc)`.
    pub fn noc_async_read_barrier_on(&mut self, noc: NocId) {
        self.barrier_on(Barrier::Reads, noc);
    }

    /// `noc_async_write_barrier()`: every non-posted write has been acknowledged.
    pub fn noc_async_write_barrier(&mut self) {
        self.barrier_on(Barrier::Writes, self.ctx.k.noc);
    }

    /// `noc_async_write_barrier(noc)`.
    pub fn noc_async_write_barrier_on(&mut self, noc: NocId) {
        self.barrier_on(Barrier::Writes, noc);
    }

    /// `noc_async_writes_flushed()`: every non-posted write has left the core.
    pub fn noc_async_writes_flushed(&mut self) {
        self.barrier_on(Barrier::WritesFlushed, self.ctx.k.noc);
    }

    /// `noc_async_posted_writes_flushed()`.
    pub fn noc_async_posted_writes_flushed(&mut self) {
        self.barrier_on(Barrier::PostedWritesFlushed, self.ctx.k.noc);
    }

    /// `noc_async_atomic_barrier()`: every atomic has been acknowledged.
    pub fn noc_async_atomic_barrier(&mut self) {
        self.barrier_on(Barrier::Atomics, self.ctx.k.noc);
    }

    /// `noc_async_full_barrier()`.
    pub fn noc_async_full_barrier(&mut self) {
        self.barrier_on(Barrier::Full, self.ctx.k.noc);
    }

    /// `noc_async_writes_flushed(noc)`, `noc_async_posted_writes_flushed(noc)`, `noc_async_atomic_barrier(noc)`
    /// and `noc_async_full_barrier(noc)` on a NoC other than the kernel's: `which` 0, 1, 2, 3.
    pub fn noc_async_flush_or_barrier_on(&mut self, which: u32, noc: NocId) {
        let b = match which {
            0 => Barrier::WritesFlushed,
            1 => Barrier::PostedWritesFlushed,
            2 => Barrier::Atomics,
            _ => Barrier::Full,
        };
        self.barrier_on(b, noc);
    }
}
