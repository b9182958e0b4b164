//! The `*_set_state` / `*_with_state` NoC calls: `set_state` programs a command buffer's remote coordinates
//! (and for the one-packet forms the size) once; each `with_state` call then gives only the local addresses,
//! so it issues for `api.noc_with_state_cmd_cycles` instead of a full command's cost. Transaction ids: the
//! read and write command buffers tag what they issue with the id last set (0 until then), the NIU counts
//! outstanding reads, write acks and unsent writes per id, and the `*_with_trid` barriers wait on one id.

use super::Dataflow;
use super::noc::WriteOpts;
use crate::hw::core::Barrier;
use crate::kernel_ctx::{CmdBuf, CmdState};
use crate::kernel_host::NOC_UNICAST_WRITE_VC;
use sim_core::Cycles;

impl Dataflow<'_> {
    fn set_state(&mut self, buf: CmdBuf, state: CmdState) {
        let cost = if buf == CmdBuf::Read { self.ctx.costs.noc_read_cmd } else { self.ctx.costs.noc_cmd };
        self.ctx.spend(cost);
        self.ctx.cmd_state[self.ctx.k.noc.index()][buf as usize] = Some(state);
    }

    /// The stored state of `buf`, or a failure naming the `set_state` call the kernel forgot.
    fn state(&self, api: &str, buf: CmdBuf, set: &str) -> CmdState {
        match self.ctx.cmd_state[self.ctx.k.noc.index()][buf as usize] {
            Some(s) => s,
            None => self.ctx.fail(format!("{api}: the command buffer has no stored state; call {set} first")),
        }
    }

    /// The stored remote address with its local address's low 32 bits replaced by `local`.
    fn remote(&self, state: CmdState, local: u32) -> u64 {
        let map = self.ctx.k.tables.addr_map;
        let (x, y, addr) = map.decode(state.remote);
        map.xy(x, y, (addr & !0xffff_ffff) | local as u64)
    }

    fn cheap<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let cost: Cycles = self.ctx.costs.noc_with_state_cmd;
        self.ctx.cmd_cost_override = Some(cost);
        let r = f(self);
        self.ctx.cmd_cost_override = None;
        r
    }

    /// `noc_async_read_one_packet_set_state(src_noc_addr, size)`: store the remote core and the size.
    pub fn noc_async_read_one_packet_set_state(&mut self, src_noc_addr: u64, size: u32) {
        self.set_state(CmdBuf::Read, CmdState { remote: src_noc_addr, size: Some(size), posted: false, vc: 0 });
    }

    /// `noc_async_read_one_packet_with_state(src_local_l1_addr, dst_local_l1_addr)`: read the stored size
    /// from the stored core's `src_local_l1_addr`.
    pub fn noc_async_read_one_packet_with_state(&mut self, src_local_l1_addr: u32, dst_local_l1_addr: u32) {
        let api = "noc_async_read_one_packet_with_state";
        let s = self.state(api, CmdBuf::Read, "noc_async_read_one_packet_set_state");
        let Some(size) = s.size else {
            self.ctx.fail(format!("{api}: the stored state has no size; call noc_async_read_one_packet_set_state"))
        };
        let (src, noc) = (self.remote(s, src_local_l1_addr), self.ctx.k.noc);
        self.cheap(|d| d.read_on(api, src, dst_local_l1_addr, size, noc, true));
    }

    /// `noc_async_read_set_state(src_noc_addr)`: store the remote core only.
    pub fn noc_async_read_set_state(&mut self, src_noc_addr: u64) {
        self.set_state(CmdBuf::Read, CmdState { remote: src_noc_addr, size: None, posted: false, vc: 0 });
    }

    /// `noc_async_read_with_state(src_local_l1_addr, dst_local_l1_addr, size)`: any size, in bursts.
    pub fn noc_async_read_with_state(&mut self, src_local_l1_addr: u32, dst_local_l1_addr: u32, size: u32) {
        let api = "noc_async_read_with_state";
        let s = self.state(api, CmdBuf::Read, "noc_async_read_set_state");
        let (src, noc) = (self.remote(s, src_local_l1_addr), self.ctx.k.noc);
        self.cheap(|d| d.read_on(api, src, dst_local_l1_addr, size, noc, false));
    }

    /// `noc_async_write_one_packet_set_state<posted>(dst_noc_addr, size)`: store the remote core and size.
    pub fn noc_async_write_one_packet_set_state(&mut self, dst_noc_addr: u64, size: u32, posted: bool) {
        self.noc_async_write_one_packet_set_state_on_vc(dst_noc_addr, size, posted, NOC_UNICAST_WRITE_VC);
    }

    /// `noc_async_write_one_packet_set_state<posted>(dst_noc_addr, size, noc, vc)`: the writes with this
    /// state travel on static VC number `vc` (0..=3).
    pub fn noc_async_write_one_packet_set_state_on_vc(&mut self, dst_noc_addr: u64, size: u32, posted: bool, vc: u8) {
        if vc > 3 {
            self.ctx.fail(format!("noc_async_write_one_packet_set_state: VC {vc} is not a unicast request VC (0..=3)"));
        }
        self.set_state(CmdBuf::Write, CmdState { remote: dst_noc_addr, size: Some(size), posted, vc });
    }

    /// `noc_async_write_one_packet_with_state<posted>(src_local_l1_addr, dst_local_l1_addr)`: write the
    /// stored size to the stored core's `dst_local_l1_addr`.
    pub fn noc_async_write_one_packet_with_state(&mut self, src_local_l1_addr: u32, dst_local_l1_addr: u32) {
        let api = "noc_async_write_one_packet_with_state";
        let s = self.state(api, CmdBuf::Write, "noc_async_write_one_packet_set_state");
        let Some(size) = s.size else {
            self.ctx.fail(format!("{api}: the stored state has no size; call noc_async_write_one_packet_set_state"))
        };
        let dst = self.remote(s, dst_local_l1_addr);
        let opts = WriteOpts { noc: self.ctx.k.noc, posted: s.posted, mcast: None, one_packet: true, vc: s.vc };
        self.cheap(|d| d.write_on(api, src_local_l1_addr, dst, size, opts));
    }

    /// `noc_async_write_one_packet_with_trid_set_state<posted>(dst_noc_addr)`: store the remote core (each
    /// `with_state` call gives the size and id).
    pub fn noc_async_write_one_packet_with_trid_set_state(&mut self, dst_noc_addr: u64, posted: bool) {
        self.set_state(CmdBuf::Write, CmdState { remote: dst_noc_addr, size: None, posted, vc: NOC_UNICAST_WRITE_VC });
    }

    /// `noc_async_write_one_packet_with_trid_with_state(src_local_l1_addr, dst_local_addr, size, trid)`:
    /// one packet of `size` bytes to the stored core's `dst_local_addr`, tagged `trid`.
    pub fn noc_async_write_one_packet_with_trid_with_state(
        &mut self,
        src_local_l1_addr: u32,
        dst_local_addr: u32,
        size: u32,
        trid: u32,
    ) {
        let api = "noc_async_write_one_packet_with_trid_with_state";
        let s = self.state(api, CmdBuf::Write, "noc_async_write_one_packet_with_trid_set_state");
        self.set_trid(api, 1, trid);
        let dst = self.remote(s, dst_local_addr);
        let opts = WriteOpts { noc: self.ctx.k.noc, posted: s.posted, mcast: None, one_packet: true, vc: s.vc };
        self.cheap(|d| d.write_on(api, src_local_l1_addr, dst, size, opts));
    }
}

impl Dataflow<'_> {
    fn set_trid(&mut self, api: &str, which: usize, trid: u32) {
        if trid > 15 {
            self.ctx.fail(format!("{api}({trid}): transaction ids are 0..=15"));
        }
        self.ctx.spend(self.ctx.costs.local_lookup);
        self.ctx.trid[which] = trid as u8;
    }

    /// `noc_async_read_set_trid(trid)`: the reads issued from now on carry id `trid` (4 bits; 0 until set),
    /// counted by the NIU per id for [`Dataflow::noc_async_read_barrier_with_trid`].
    pub fn noc_async_read_set_trid(&mut self, trid: u32) {
        self.set_trid("noc_async_read_set_trid", 0, trid);
    }

    /// `noc_async_write_set_trid(trid)`: the writes issued from now on carry id `trid`.
    pub fn noc_async_write_set_trid(&mut self, trid: u32) {
        self.set_trid("noc_async_write_set_trid", 1, trid);
    }

    fn trid_barrier(&mut self, api: &str, trid: u32, b: Barrier) {
        if trid > 15 {
            self.ctx.fail(format!("{api}({trid}): transaction ids are 0..=15"));
        }
        self.barrier_on(b, self.ctx.k.noc);
    }

    /// `noc_async_read_barrier_with_trid(trid)`: every read with id `trid` has landed (other reads may
    /// still be in flight).
    pub fn noc_async_read_barrier_with_trid(&mut self, trid: u32) {
        self.trid_barrier("noc_async_read_barrier_with_trid", trid, Barrier::ReadsWithTrid(trid as u8));
    }

    /// `noc_async_write_barrier_with_trid(trid)`: every non-posted write with id `trid` has been acknowledged.
    pub fn noc_async_write_barrier_with_trid(&mut self, trid: u32) {
        self.trid_barrier("noc_async_write_barrier_with_trid", trid, Barrier::WritesWithTrid(trid as u8));
    }

    /// `noc_async_write_flushed_with_trid(trid)`: every write with id `trid` has left the core.
    pub fn noc_async_write_flushed_with_trid(&mut self, trid: u32) {
        self.trid_barrier("noc_async_write_flushed_with_trid", trid, Barrier::WritesFlushedWithTrid(trid as u8));
    }
}

impl Dataflow<'_> {
    /// `noc_inline_dw_write_set_state<posted, set_val>(addr, val, be, cmd_buf, noc, vc)`: store an inline
    /// write's destination, byte-enable mask, VC and (with `set_val`) value in command buffer `cmd_buf`
    /// (0..=3) of the kernel's NoC.
    pub fn noc_inline_dw_write_set_state(
        &mut self,
        cmd_buf: u8,
        dst_noc_addr: u64,
        val: Option<u32>,
        byte_enable: u8,
        vc: u8,
    ) {
        let api = "noc_inline_dw_write_set_state";
        if cmd_buf > 3 {
            self.ctx.fail(format!("{api}: command buffer {cmd_buf} does not exist (0..=3)"));
        }
        if byte_enable > 0xF {
            self.ctx.fail(format!("{api}: byte-enable mask {byte_enable:#x} names bytes beyond the 32-bit word"));
        }
        if vc > 3 {
            self.ctx.fail(format!("{api}: VC {vc} is not a unicast request VC (0..=3)"));
        }
        self.ctx.spend(self.ctx.costs.noc_cmd);
        let s = crate::kernel_ctx::InlineState { remote: dst_noc_addr, val, byte_enable, vc };
        self.ctx.inline_state[self.ctx.k.noc.index()][cmd_buf as usize] = Some(s);
    }

    /// `noc_inline_dw_write_with_state<update_addr_lo, update_counter, posted, …, update_val>(val, addr,
    /// cmd_buf, noc)`: an inline write from the state of `cmd_buf`, its local address replaced by `addr_lo`
    /// and its value by `val` where given (both stay in the command buffer for the next call). A write that
    /// does not update the counter is not counted by the write barrier, like a posted one.
    pub fn noc_inline_dw_write_with_state(
        &mut self,
        cmd_buf: u8,
        val: Option<u32>,
        addr_lo: Option<u32>,
        posted: bool,
    ) {
        let api = "noc_inline_dw_write_with_state";
        let noc = self.ctx.k.noc;
        let Some(mut s) = self.ctx.inline_state[noc.index()].get(cmd_buf as usize).copied().flatten() else {
            self.ctx.fail(format!(
                "{api}: command buffer {cmd_buf} has no stored inline write; call noc_inline_dw_write_set_state first"
            ))
        };
        if let Some(lo) = addr_lo {
            let map = self.ctx.k.tables.addr_map;
            let (x, y, addr) = map.decode(s.remote);
            s.remote = map.xy(x, y, (addr & !0xffff_ffff) | lo as u64);
        }
        if val.is_some() {
            s.val = val;
        }
        let Some(v) = s.val else {
            self.ctx.fail(format!(
                "{api}: no value: neither noc_inline_dw_write_set_state<…, set_val = true> nor update_val = true gave one"
            ))
        };
        self.ctx.inline_state[noc.index()][cmd_buf as usize] = Some(s);
        let o = super::AtomicOpts { noc, posted, vc: s.vc };
        self.cheap(|d| d.noc_inline_dw_write_with(s.remote, v, s.byte_enable, o));
    }
}
