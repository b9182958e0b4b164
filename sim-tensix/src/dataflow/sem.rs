//! Semaphores and L1 words: `get_semaphore`, local waits and sets, NoC atomic increments and inline
//! writes, remote and multicast semaphore sets, and the RISC's own loads and stores of its L1.

use super::Dataflow;
use super::noc::WriteOpts;
use crate::hw::core::{Wait, WordCond};
use crate::kernel_ctx::CmdBuf;
use crate::kernel_host::{AtomicOp, AtomicReq, McastReq, NOC_UNICAST_WRITE_VC};
use sim_core::Cycles;
use soc_descriptors::NocId;

/// Which cores' semaphores an address is asked for (`ProgrammableCoreType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SemaphoreCore {
    /// Worker (Tensix) cores.
    Worker,
    /// Ethernet cores.
    Eth,
}

impl Dataflow<'_> {
    // ---------------------------------------------------------------------------------------------
    // Semaphores and L1 words
    // ---------------------------------------------------------------------------------------------

    /// `get_semaphore(id)`: L1 address of semaphore `id` (the same on every worker core).
    pub fn get_semaphore(&self, id: u32) -> u32 {
        self.get_semaphore_on(id, SemaphoreCore::Worker)
    }

    /// `get_semaphore<type>(id)`: L1 address of semaphore `id` on the cores of `on` — worker
    /// (`ProgrammableCoreType::TENSIX`) or Ethernet (`ACTIVE_ETH`, `IDLE_ETH`) cores, whichever core asks:
    /// a worker builds an Ethernet core's semaphore address this way, and the reverse.
    pub fn get_semaphore_on(&self, id: u32, on: SemaphoreCore) -> u32 {
        self.ctx.spend(self.ctx.costs.local_lookup);
        if id >= 16 {
            self.ctx.fail(format!("get_semaphore({id}): semaphore ids are 0..16"));
        }
        let base = match on {
            SemaphoreCore::Worker => self.ctx.k.sem_base,
            SemaphoreCore::Eth => self.ctx.k.eth_sem_base,
        };
        base + id * 16
    }

    fn atomic(&mut self, api: &'static str, dst: u64, op: AtomicOp, o: AtomicOpts) {
        if o.vc > 3 {
            self.ctx.fail(format!("{api}: VC {} is not a unicast request VC (0..=3)", o.vc));
        }
        self.ctx.trace_noc(api, 4, dst);
        let (noc, posted, vc) = (o.noc, o.posted, o.vc);
        let req = AtomicReq { core: self.ctx.k.core, risc: self.ctx.k.risc, noc, dst, op, posted, vc, mcast: None };
        if let Err(e) = self.ctx.noc_command(noc, CmdBuf::Atomic, |h, now| h.noc_atomic(req, now)) {
            self.ctx.fail(format!("{api}: {e}"));
        }
    }

    /// `noc_semaphore_wait(sem_addr, val)`: spin until the word equals `val`.
    pub fn noc_semaphore_wait(&mut self, sem_addr: u32, val: u32) {
        self.l1_poll_u32(sem_addr, WordCond::Eq(val));
    }

    /// `noc_semaphore_wait_min(sem_addr, val)`: spin until the word is at least `val`.
    pub fn noc_semaphore_wait_min(&mut self, sem_addr: u32, val: u32) {
        self.l1_poll_u32(sem_addr, WordCond::Ge(val));
    }

    /// `noc_semaphore_set(sem_addr, val)`: a local store.
    pub fn noc_semaphore_set(&mut self, sem_addr: u32, val: u32) {
        self.l1_write_u32(sem_addr, val);
    }

    /// `noc_semaphore_inc(remote_noc_addr, incr)`: NoC atomic add (async; see `noc_async_atomic_barrier`).
    pub fn noc_semaphore_inc(&mut self, addr: u64, incr: u32) {
        let o = AtomicOpts::on(self.ctx.k.noc);
        self.atomic("noc_semaphore_inc", addr, AtomicOp::Inc(incr), o);
    }

    /// `noc_semaphore_inc(…, noc)`.
    pub fn noc_semaphore_inc_on(&mut self, addr: u64, incr: u32, noc: NocId) {
        self.atomic("noc_semaphore_inc", addr, AtomicOp::Inc(incr), AtomicOpts::on(noc));
    }

    /// `noc_semaphore_inc<posted>(addr, incr, noc, vc)`: a posted increment is not acknowledged, so
    /// `noc_async_atomic_barrier` does not wait for it.
    pub fn noc_semaphore_inc_with(&mut self, addr: u64, incr: u32, o: AtomicOpts) {
        self.atomic("noc_semaphore_inc", addr, AtomicOp::Inc(incr), o);
    }

    /// `noc_semaphore_inc_multicast(mcast_addr, incr, num_dests)`: an atomic add on every core of the
    /// rectangle (the sender excluded): one header-only packet along the broadcast tree, as a multicast
    /// write travels, and one acknowledgement from each destination; `noc_async_atomic_barrier` waits for
    /// `num_dests` of them.
    pub fn noc_semaphore_inc_multicast(&mut self, mcast_addr: u64, incr: u32, num_dests: u32) {
        let noc = self.ctx.k.noc;
        self.noc_semaphore_inc_multicast_on(mcast_addr, incr, num_dests, noc);
    }

    /// `noc_semaphore_inc_multicast(…, noc)` on the NoC the call names.
    pub fn noc_semaphore_inc_multicast_on(&mut self, mcast_addr: u64, incr: u32, num_dests: u32, noc: NocId) {
        let api = "noc_semaphore_inc_multicast";
        if num_dests == 0 {
            self.ctx.fail(format!("{api}: num_dests is 0; a multicast reaches at least one core"));
        }
        self.ctx.trace_noc(api, 4, mcast_addr);
        let req = AtomicReq {
            core: self.ctx.k.core,
            risc: self.ctx.k.risc,
            noc,
            dst: mcast_addr,
            op: AtomicOp::Inc(incr),
            posted: false,
            vc: NOC_UNICAST_WRITE_VC, // not used: a multicast travels on the multicast VC
            mcast: Some(McastReq { num_dests, loopback: false, linked: false }),
        };
        if let Err(e) = self.ctx.noc_command(noc, CmdBuf::Atomic, |h, now| h.noc_atomic(req, now)) {
            self.ctx.fail(format!("{api}: {e}"));
        }
    }

    /// `noc_inline_dw_write(addr, val)`: a 32-bit write from a register.
    pub fn noc_inline_dw_write(&mut self, addr: u64, val: u32) {
        let o = AtomicOpts::on(self.ctx.k.noc);
        self.atomic("noc_inline_dw_write", addr, AtomicOp::store(val), o);
    }

    /// `noc_inline_dw_write<…, posted>(addr, val, be, noc, vc)`: only the bytes of the word whose bit is set
    /// in `byte_enable` (bit i: byte i) are written; a posted write is not acknowledged.
    pub fn noc_inline_dw_write_with(&mut self, addr: u64, val: u32, byte_enable: u8, o: AtomicOpts) {
        let api = "noc_inline_dw_write";
        if byte_enable > 0xF {
            self.ctx.fail(format!(
                "{api}: byte-enable mask {byte_enable:#x} names bytes beyond the 32-bit word (bits 0..=3: bytes 0..=3)"
            ));
        }
        self.atomic(api, addr, AtomicOp::Store { val, byte_enable }, o);
    }

    /// `noc_semaphore_set_remote(src_l1, dst_noc_addr)`: write the local word to a remote one.
    pub fn noc_semaphore_set_remote(&mut self, src_local_l1_addr: u32, dst_noc_addr: u64) {
        let noc = self.ctx.k.noc;
        self.noc_semaphore_set_remote_on(src_local_l1_addr, dst_noc_addr, noc);
    }

    /// `noc_semaphore_set_remote(…, noc)` on the NoC the call names.
    pub fn noc_semaphore_set_remote_on(&mut self, src_local_l1_addr: u32, dst_noc_addr: u64, noc: NocId) {
        self.write_on(
            "noc_semaphore_set_remote",
            src_local_l1_addr,
            dst_noc_addr,
            4,
            WriteOpts {
                noc,
                posted: false,
                mcast: None,
                one_packet: true,
                vc: crate::kernel_host::NOC_UNICAST_WRITE_VC,
            },
        );
    }

    /// `noc_semaphore_set_multicast(src_l1, dst_mcast_addr, num_dests, linked)`.
    pub fn noc_semaphore_set_multicast(
        &mut self,
        src_local_l1_addr: u32,
        dst_noc_addr_multicast: u64,
        num_dests: u32,
        linked: bool,
    ) {
        let (m, noc) = (McastReq { num_dests, loopback: false, linked }, self.ctx.k.noc);
        self.noc_semaphore_set_multicast_on(src_local_l1_addr, dst_noc_addr_multicast, m, noc);
    }

    /// `noc_semaphore_set_multicast[_loopback_src](…, noc)` on the NoC the call names.
    pub fn noc_semaphore_set_multicast_on(
        &mut self,
        src_local_l1_addr: u32,
        dst_noc_addr_multicast: u64,
        m: McastReq,
        noc: NocId,
    ) {
        let api = if m.loopback { "noc_semaphore_set_multicast_loopback_src" } else { "noc_semaphore_set_multicast" };
        self.multicast_on(api, src_local_l1_addr, dst_noc_addr_multicast, 4, m, true, noc);
    }

    /// `noc_semaphore_set_multicast_loopback_src`.
    pub fn noc_semaphore_set_multicast_loopback_src(
        &mut self,
        src_local_l1_addr: u32,
        dst_noc_addr_multicast: u64,
        num_dests: u32,
        linked: bool,
    ) {
        let (m, noc) = (McastReq { num_dests, loopback: true, linked }, self.ctx.k.noc);
        self.noc_semaphore_set_multicast_on(src_local_l1_addr, dst_noc_addr_multicast, m, noc);
    }

    /// Spin on an L1 word until `cond` holds (a polling loop that yields to the simulation).
    pub fn l1_poll_u32(&mut self, addr: u32, cond: WordCond) {
        self.ctx.spend(self.ctx.costs.l1_load);
        self.check_l1("L1 poll", addr, 4);
        let lat = self.ctx.costs.l1_wake;
        self.ctx.wait_for(Wait::L1Word { addr, cond }, lat);
    }

    fn check_l1(&mut self, api: &str, addr: u32, len: u32) {
        let ok = self.ctx.host.borrow().core(self.ctx.k.core).l1.check(addr as u64, len as u64);
        if let Err(e) = ok {
            self.ctx.fail(format!("{api}: {e}"));
        }
    }

    /// The size of this core's L1 in bytes.
    pub fn l1_size_bytes(&self) -> u32 {
        self.ctx.l1_size_bytes()
    }

    /// Foreign kernel code is about to load (`store` false) or store `bytes` at an L1 address through a
    /// pointer: take the access's time. After a store, call [`Dataflow::l1_pointer_stored`] once it happened.
    pub fn l1_pointer_access(&mut self, addr: u32, bytes: u32, store: bool) {
        self.ctx.pointer_access(addr, bytes, store);
    }

    /// Stores through L1 pointers happened: kernels waiting on L1 words look again.
    pub fn l1_pointer_stored(&mut self) {
        self.ctx.notify_l1();
    }

    /// Read `len` bytes of this core's L1.
    pub fn l1_read_bytes(&mut self, addr: u32, len: u32) -> Vec<u8> {
        self.ctx.spend(Cycles(self.ctx.costs.l1_load.0 * len.div_ceil(4).max(1) as u64));
        self.check_l1("L1 read", addr, len);
        self.ctx.sync_local();
        self.ctx.with_core(|c| c.l1.read(addr as u64, len as u64).expect("checked").to_vec())
    }

    /// Write bytes into this core's L1.
    pub fn l1_write_bytes(&mut self, addr: u32, data: &[u8]) {
        self.ctx.spend(Cycles(self.ctx.costs.l1_store.0 * (data.len() as u64).div_ceil(4).max(1)));
        self.check_l1("L1 write", addr, data.len() as u32);
        self.ctx.sync_local();
        self.ctx.update_core(|c| c.l1.write(addr as u64, data).expect("checked"));
    }

    /// Read a 32-bit word of this core's L1 (`*(volatile uint32_t*)addr`).
    pub fn l1_read_u32(&mut self, addr: u32) -> u32 {
        let b = self.l1_read_bytes(addr, 4);
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    /// Write a 32-bit word of this core's L1.
    pub fn l1_write_u32(&mut self, addr: u32, v: u32) {
        self.l1_write_bytes(addr, &v.to_le_bytes());
    }

    /// Read a 16-bit value of this core's L1.
    pub fn l1_read_u16(&mut self, addr: u32) -> u16 {
        let b = self.l1_read_bytes(addr, 2);
        u16::from_le_bytes([b[0], b[1]])
    }

    /// Write a 16-bit value of this core's L1.
    pub fn l1_write_u16(&mut self, addr: u32, v: u16) {
        self.l1_write_bytes(addr, &v.to_le_bytes());
    }

    /// Read an f32 from this core's L1.
    pub fn l1_read_f32(&mut self, addr: u32) -> f32 {
        f32::from_bits(self.l1_read_u32(addr))
    }

    /// `noc.async_write_zeros(cb, size)`: zero `size` bytes of this core's L1 at `dst`, the hardware's way —
    /// a NoC read of zeros into the core (timed as a read of this core's own L1 on `noc`; complete with a
    /// read barrier).
    pub fn noc_async_write_zeros_l1(&mut self, dst: u32, size: u32, noc: NocId) {
        self.check_l1("async_write_zeros", dst, size);
        self.ctx.sync_local();
        self.ctx.update_core(|c| c.l1.write(dst as u64, &vec![0u8; size as usize]).expect("checked"));
        let (x, y) = self.ctx.k.noc_xy;
        let src = self.ctx.k.tables.addr_map.xy(x, y, dst as u64);
        self.noc_async_read_on(src, dst, size, noc);
    }

    /// Copy `len` bytes inside this core's L1 (`memcpy` by the RISC: a load and a store per word).
    pub fn l1_memcpy(&mut self, dst: u32, src: u32, len: u32) {
        let words = len.div_ceil(4).max(1) as u64;
        self.ctx.spend(Cycles((self.ctx.costs.l1_load.0 + self.ctx.costs.l1_store.0) * words));
        self.check_l1("L1 copy", src, len);
        self.check_l1("L1 copy", dst, len);
        self.ctx.sync_local();
        self.ctx.update_core(|c| c.l1.copy_within(src as u64, dst as u64, len as u64).expect("checked"));
    }
}

/// How an atomic or inline write travels: its NoC, whether it is posted (no acknowledgement), and its static
/// VC number (0..=3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AtomicOpts {
    pub noc: NocId,
    pub posted: bool,
    pub vc: u8,
}

impl AtomicOpts {
    /// Non-posted, on the default unicast write VC, on `noc`.
    pub fn on(noc: NocId) -> AtomicOpts {
        AtomicOpts { noc, posted: false, vc: NOC_UNICAST_WRITE_VC }
    }
}
