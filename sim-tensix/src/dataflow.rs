//! The data-movement kernel API (tt-metal's `dataflow_api.h`) as methods of [`Dataflow`], the context a
//! BRISC/NCRISC kernel receives. Names and argument orders follow tt-metal; optional trailing `noc`
//! arguments become `_on` variants.
//!
//! Every call charges its per-arch issue cost to the kernel's local clock. Calls that touch shared state
//! (CB counters, L1, the NoC, barriers) first synchronise with global time; blocking calls register what
//! they wait for and sleep until it holds. API misuse stops the kernel with an error naming the call.

use crate::addrgen::{AddrGen, InterleavedAddrGen, TensorAccessorArgs, noc_multicast_addr, noc_xy_addr};
use crate::args::KernelInstance;
use crate::core::{Barrier, TensixCore, Wait, Waiter, WordCond};
use crate::format::DataFormat;
use crate::host::{AtomicOp, AtomicReq, KernelHost, McastReq, ReadReq, WriteReq};
use crate::params::ApiCosts;
use sim_core::{Cycle, Cycles, FiberClock, TraceArg, Yielder, abort};
use soc_descriptors::NocId;
use std::cell::RefCell;
use std::rc::Rc;

/// A circular-buffer index: a plain number or a [`CBIndex`].
pub trait CbId: Copy {
    /// The index.
    fn cb_index(self) -> u32;
}

impl CbId for u32 {
    fn cb_index(self) -> u32 {
        self
    }
}

impl CbId for CBIndex {
    fn cb_index(self) -> u32 {
        self as u32
    }
}

/// tt-metal's `tt::CBIndex::c_0 … c_63`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(non_camel_case_types, missing_docs)]
#[repr(u32)]
pub enum CBIndex {
    c_0,
    c_1,
    c_2,
    c_3,
    c_4,
    c_5,
    c_6,
    c_7,
    c_8,
    c_9,
    c_10,
    c_11,
    c_12,
    c_13,
    c_14,
    c_15,
    c_16,
    c_17,
    c_18,
    c_19,
    c_20,
    c_21,
    c_22,
    c_23,
    c_24,
    c_25,
    c_26,
    c_27,
    c_28,
    c_29,
    c_30,
    c_31,
    c_32,
    c_33,
    c_34,
    c_35,
    c_36,
    c_37,
    c_38,
    c_39,
    c_40,
    c_41,
    c_42,
    c_43,
    c_44,
    c_45,
    c_46,
    c_47,
    c_48,
    c_49,
    c_50,
    c_51,
    c_52,
    c_53,
    c_54,
    c_55,
    c_56,
    c_57,
    c_58,
    c_59,
    c_60,
    c_61,
    c_62,
    c_63,
}

/// A 4-byte runtime-arg value type (`get_arg_val<T>`).
pub trait ArgValue {
    /// Reinterpret the arg's 32 bits.
    fn from_arg_bits(bits: u32) -> Self;
}
impl ArgValue for u32 {
    fn from_arg_bits(bits: u32) -> Self {
        bits
    }
}
impl ArgValue for i32 {
    fn from_arg_bits(bits: u32) -> Self {
        bits as i32
    }
}
impl ArgValue for f32 {
    fn from_arg_bits(bits: u32) -> Self {
        f32::from_bits(bits)
    }
}

/// Shared machinery of every kernel context: host access, local clock, blocking, statistics.
pub struct KernelCtx<'y> {
    pub(crate) host: Rc<RefCell<dyn KernelHost>>,
    pub(crate) clock: FiberClock<'y>,
    pub(crate) k: Rc<KernelInstance>,
    pub(crate) costs: Rc<ApiCosts>,
    start: Cycle,
    blocked: Cycles,
    tracing: bool,
    zones: Vec<(&'static str, Cycle)>,
    calls: std::cell::Cell<u64>,
    /// When each NoC command buffer (per NoC: read, write, atomic) takes its next command.
    cmd_ready: [[Cycle; 3]; 2],
}

/// The NoC command buffers a RISC programs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CmdBuf {
    Read = 0,
    Write = 1,
    Atomic = 2,
}

impl<'y> KernelCtx<'y> {
    pub(crate) fn new(
        host: Rc<RefCell<dyn KernelHost>>,
        yielder: &'y Yielder,
        k: Rc<KernelInstance>,
        start: Cycle,
    ) -> Self {
        let tracing = host.borrow().tracing();
        let costs = k.costs.clone();
        let clock = FiberClock::new(yielder, k.fiber, start);
        clock.advance(costs.kernel_start);
        KernelCtx {
            host,
            clock,
            k,
            costs,
            start,
            blocked: Cycles::ZERO,
            tracing,
            zones: Vec::new(),
            calls: std::cell::Cell::new(0),
            cmd_ready: [[Cycle::ZERO; 3]; 2],
        }
    }

    pub(crate) fn finish(self) {
        let end = self.now();
        self.host.borrow_mut().finished(self.k.fiber, self.start, end, self.blocked, self.calls.get());
    }

    /// Charge one API call costing `c` cycles.
    #[inline]
    pub(crate) fn spend(&self, c: Cycles) {
        self.calls.set(self.calls.get() + 1);
        self.clock.advance(c);
    }

    #[inline]
    pub(crate) fn now(&self) -> Cycle {
        self.clock.now()
    }

    #[inline]
    pub(crate) fn sync(&self) {
        if self.now().0 > self.k.max_cycles {
            self.clock.yield_now();
            return;
        }
        let head = self.host.borrow().queue_head();
        self.clock.sync(head);
    }

    pub(crate) fn fail(&self, msg: String) -> ! {
        abort(msg)
    }

    /// Block until `wait` holds; the kernel notices `latency` cycles after it becomes true.
    pub(crate) fn wait_for(&mut self, wait: Wait, latency: Cycles) {
        loop {
            self.sync();
            {
                let mut h = self.host.borrow_mut();
                if h.core(self.k.core).satisfied(&wait) {
                    return;
                }
                h.block(self.k.core, Waiter { fiber: self.k.fiber, wait, latency }, self.now());
            }
            let since = self.now();
            self.clock.block();
            let woke = self.now();
            self.blocked += woke - since;
            if self.tracing && woke > since {
                let name = wait_label(&wait);
                self.host.borrow_mut().trace_slice(self.k.fiber, &name, "wait", since, woke, Vec::new());
            }
        }
    }

    pub(crate) fn with_core<R>(&mut self, f: impl FnOnce(&mut TensixCore) -> R) -> R {
        let mut h = self.host.borrow_mut();
        f(h.core_mut(self.k.core))
    }

    pub(crate) fn notify(&mut self) {
        let now = self.now();
        self.host.borrow_mut().notify(self.k.core, now);
    }

    pub(crate) fn trace_noc(&mut self, name: &'static str, bytes: u32, addr: u64) {
        if self.tracing {
            let args = vec![
                ("bytes".to_string(), TraceArg::U(bytes as u64)),
                ("addr".to_string(), TraceArg::S(format!("{addr:#x}"))),
            ];
            let now = self.now();
            self.host.borrow_mut().trace_instant(self.k.fiber, name, "noc", now, args);
        }
    }

    pub(crate) fn cb_index(&self, api: &str, cb: u32) -> u8 {
        if cb >= self.k.num_cbs {
            self.fail(format!("{api}: CB index {cb} is out of range (this chip has {} CBs per core)", self.k.num_cbs));
        }
        cb as u8
    }

    /// Check CB `cb` is configured and `n` pages can ever fit; returns its page count.
    pub(crate) fn cb_checked(&mut self, api: &str, cb: u8, n: u32) -> u32 {
        let pages = self.host.borrow().core(self.k.core).cb(cb).map(|c| c.num_pages());
        match pages {
            None => self.fail(format!("{api}(c_{cb}, {n}): CB {cb} is not configured on this core")),
            Some(p) if n > p => {
                self.fail(format!("{api}(c_{cb}, {n}): the CB holds only {p} pages, so this can never succeed"))
            }
            Some(p) => p,
        }
    }

    pub(crate) fn arg(&self, api: &str, common: bool, i: usize) -> u32 {
        let v = if common { &self.k.args.common } else { &self.k.args.runtime };
        match v.get(i) {
            Some(x) => *x,
            None => self.fail(format!(
                "{api}({i}): only {} {} runtime args were set for this core",
                v.len(),
                if common { "common" } else { "unique" }
            )),
        }
    }

    /// `cb_reserve_back` (`back`) or `cb_wait_front`: block until `n` pages are free or available.
    pub(crate) fn cb_wait(&mut self, back: bool, cb: u32, n: u32) {
        let api = if back { "cb_reserve_back" } else { "cb_wait_front" };
        let cb = self.cb_index(api, cb);
        self.spend(self.costs.cb_poll);
        self.cb_checked(api, cb, n);
        let wait = if back { Wait::CbBack { cb, pages: n } } else { Wait::CbFront { cb, pages: n } };
        self.wait_for(wait, self.costs.cb_wake);
    }

    /// `cb_push_back` (`push`: publish `n` pages) or `cb_pop_front` (free them).
    pub(crate) fn cb_update(&mut self, push: bool, cb: u32, n: u32) {
        let api = if push { "cb_push_back" } else { "cb_pop_front" };
        let cb = self.cb_index(api, cb);
        self.spend(self.costs.cb_update);
        self.cb_checked(api, cb, n);
        self.sync();
        let risc = self.k.risc;
        self.with_core(|c| {
            let b = c.cb_mut(cb).expect("checked");
            if push { b.push(risc, n) } else { b.pop(risc, n) }
        });
        self.notify();
    }

    /// `get_arg_val` / `get_common_arg_val`.
    pub(crate) fn runtime_arg<T: ArgValue>(&self, common: bool, i: usize) -> T {
        self.spend(self.costs.arg_read);
        let api = if common { "get_common_arg_val" } else { "get_arg_val" };
        T::from_arg_bits(self.arg(api, common, i))
    }

    /// `get_compile_time_arg_val(i)`.
    pub(crate) fn compile_time_arg(&self, i: usize) -> u32 {
        match self.k.args.compile.get(i) {
            Some(v) => *v,
            None => self.fail(format!(
                "get_compile_time_arg_val({i}): only {} compile-time args were given",
                self.k.args.compile.len()
            )),
        }
    }

    /// `get_named_compile_time_arg_val("name")`.
    pub(crate) fn named_compile_time_arg(&self, name: &str) -> u32 {
        match self.k.args.named.iter().find(|(n, _)| n == name) {
            Some((_, v)) => *v,
            None => self.fail(format!("get_named_compile_time_arg_val(\"{name}\"): no such named compile-time arg")),
        }
    }

    /// The value of define `name`, if the host set it.
    pub(crate) fn define(&self, name: &str) -> Option<&str> {
        self.k.args.defines.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Issue one NoC command: wait (spinning) for the command buffer, program it, synchronise, hand it to
    /// the host; the host says when the buffer takes the next command.
    pub(crate) fn noc_command(
        &mut self,
        noc: NocId,
        buf: CmdBuf,
        issue: impl FnOnce(&mut dyn KernelHost, Cycle) -> Result<Cycle, String>,
    ) -> Result<(), String> {
        self.clock.catch_up(self.cmd_ready[noc.index()][buf as usize]);
        self.spend(self.costs.noc_cmd);
        self.sync();
        let now = self.now();
        let ready = issue(&mut *self.host.borrow_mut(), now)?;
        self.cmd_ready[noc.index()][buf as usize] = ready;
        Ok(())
    }

    pub(crate) fn zone_begin(&mut self, name: &'static str) {
        self.spend(self.costs.zone);
        self.zones.push((name, self.now()));
    }

    pub(crate) fn zone_end(&mut self) {
        self.spend(self.costs.zone);
        match self.zones.pop() {
            Some((name, start)) => {
                let now = self.now();
                self.host.borrow_mut().zone(self.k.fiber, name, start, now);
            }
            None => self.fail("zone_end: no zone is open".into()),
        }
    }
}

fn wait_label(w: &Wait) -> String {
    match *w {
        Wait::CbFront { cb, pages } => format!("cb_wait_front(c_{cb}, {pages})"),
        Wait::CbBack { cb, pages } => format!("cb_reserve_back(c_{cb}, {pages})"),
        Wait::L1Word { addr, cond } => format!("wait L1[{addr:#x}] {cond}"),
        Wait::Noc { noc, barrier, .. } => format!("{} ({noc})", barrier.api_name()),
        Wait::NocSlot { noc, reads, .. } => format!("NoC {} slot ({noc})", if reads { "read" } else { "write" }),
        Wait::Sync { slot, .. } => format!("compute hand-off {slot}"),
    }
}

/// How a write is issued.
#[derive(Debug, Clone, Copy)]
struct WriteOpts {
    noc: NocId,
    posted: bool,
    mcast: Option<McastReq>,
    one_packet: bool,
}

/// The context of a data-movement kernel (BRISC or NCRISC).
pub struct Dataflow<'y> {
    pub(crate) ctx: KernelCtx<'y>,
}

impl<'y> Dataflow<'y> {
    /// A context for kernel `k` starting at `start` (used by sim-device when it launches kernels).
    pub fn new(host: Rc<RefCell<dyn KernelHost>>, yielder: &'y Yielder, k: Rc<KernelInstance>, start: Cycle) -> Self {
        Dataflow { ctx: KernelCtx::new(host, yielder, k, start) }
    }

    /// Report the kernel's statistics (called by the launcher when the body returns).
    pub fn finish(self) {
        self.ctx.finish();
    }

    // ---------------------------------------------------------------------------------------------
    // Arguments and identity
    // ---------------------------------------------------------------------------------------------

    /// `get_arg_val<T>(i)`: unique runtime arg `i`.
    pub fn get_arg_val<T: ArgValue>(&self, i: usize) -> T {
        self.ctx.runtime_arg(false, i)
    }

    /// `get_common_arg_val<T>(i)`: common runtime arg `i`.
    pub fn get_common_arg_val<T: ArgValue>(&self, i: usize) -> T {
        self.ctx.runtime_arg(true, i)
    }

    /// `get_compile_time_arg_val(i)`.
    pub fn get_compile_time_arg_val(&self, i: usize) -> u32 {
        self.ctx.compile_time_arg(i)
    }

    /// The raw `kernel_compile_time_args[]` array.
    pub fn kernel_compile_time_args(&self) -> &[u32] {
        &self.ctx.k.args.compile
    }

    /// `get_named_compile_time_arg_val("name")`.
    pub fn get_named_compile_time_arg_val(&self, name: &str) -> u32 {
        self.ctx.named_compile_time_arg(name)
    }

    /// The value of define `name`, if the host set it.
    pub fn get_define(&self, name: &str) -> Option<&str> {
        self.ctx.define(name)
    }

    /// `get_absolute_logical_x()`.
    pub fn get_absolute_logical_x(&self) -> u32 {
        self.ctx.k.logical.0
    }

    /// `get_absolute_logical_y()`.
    pub fn get_absolute_logical_y(&self) -> u32 {
        self.ctx.k.logical.1
    }

    /// `get_relative_logical_x()` (the whole grid is one sub-device: same as absolute).
    pub fn get_relative_logical_x(&self) -> u32 {
        self.ctx.k.logical.0
    }

    /// `get_relative_logical_y()`.
    pub fn get_relative_logical_y(&self) -> u32 {
        self.ctx.k.logical.1
    }

    /// `my_x[noc]`: this core's NoC x coordinate.
    pub fn my_x(&self, _noc: NocId) -> u32 {
        self.ctx.k.noc_xy.0
    }

    /// `my_y[noc]`: this core's NoC y coordinate.
    pub fn my_y(&self, _noc: NocId) -> u32 {
        self.ctx.k.noc_xy.1
    }

    /// `noc_index`: the kernel's NoC.
    pub fn noc_index(&self) -> NocId {
        self.ctx.k.noc
    }

    /// The current cycle of this kernel (a cycle-counter read).
    pub fn cycle(&self) -> u64 {
        self.ctx.now().0
    }

    /// Spend `cycles` cycles of computation on this RISC.
    pub fn delay(&self, cycles: u64) {
        self.ctx.spend(Cycles(cycles));
    }

    /// `DPRINT << …`: a debug line attributed to this core and RISC.
    pub fn dprint(&mut self, text: impl std::fmt::Display) {
        let text = text.to_string();
        // DPRINT stores the message into the core's print buffer, one word at a time.
        self.ctx.spend(Cycles(self.ctx.costs.l1_store.0 * (text.len() as u64 / 4 + 1)));
        let now = self.ctx.now();
        self.ctx.host.borrow_mut().dprint(self.ctx.k.fiber, now, text);
    }

    /// Open a profiler zone (`DeviceZoneScopedN`); zones nest.
    pub fn zone_begin(&mut self, name: &'static str) {
        self.ctx.zone_begin(name);
    }

    /// Close the innermost profiler zone.
    pub fn zone_end(&mut self) {
        self.ctx.zone_end();
    }

    // ---------------------------------------------------------------------------------------------
    // Circular buffers
    // ---------------------------------------------------------------------------------------------

    /// `cb_reserve_back(cb, n)`: block until `n` pages are free.
    pub fn cb_reserve_back(&mut self, cb: impl CbId, n: u32) {
        self.ctx.cb_wait(true, cb.cb_index(), n);
    }

    /// `cb_push_back(cb, n)`: publish `n` pages.
    pub fn cb_push_back(&mut self, cb: impl CbId, n: u32) {
        self.ctx.cb_update(true, cb.cb_index(), n);
    }

    /// `cb_wait_front(cb, n)`: block until `n` pages are available.
    pub fn cb_wait_front(&mut self, cb: impl CbId, n: u32) {
        self.ctx.cb_wait(false, cb.cb_index(), n);
    }

    /// `cb_pop_front(cb, n)`: free `n` pages.
    pub fn cb_pop_front(&mut self, cb: impl CbId, n: u32) {
        self.ctx.cb_update(false, cb.cb_index(), n);
    }

    /// `cb_pages_reservable_at_back(cb, n)`: non-blocking probe.
    pub fn cb_pages_reservable_at_back(&mut self, cb: impl CbId, n: u32) -> bool {
        let cb = self.ctx.cb_index("cb_pages_reservable_at_back", cb.cb_index());
        self.ctx.spend(self.ctx.costs.cb_poll);
        self.ctx.cb_checked("cb_pages_reservable_at_back", cb, 0);
        self.ctx.sync();
        self.ctx.with_core(|c| c.satisfied(&Wait::CbBack { cb, pages: n }))
    }

    /// `cb_pages_available_at_front(cb, n)`: non-blocking probe.
    pub fn cb_pages_available_at_front(&mut self, cb: impl CbId, n: u32) -> bool {
        let cb = self.ctx.cb_index("cb_pages_available_at_front", cb.cb_index());
        self.ctx.spend(self.ctx.costs.cb_poll);
        self.ctx.cb_checked("cb_pages_available_at_front", cb, 0);
        self.ctx.sync();
        self.ctx.with_core(|c| c.satisfied(&Wait::CbFront { cb, pages: n }))
    }

    fn cb_field<R>(&self, api: &str, cb: u32, f: impl FnOnce(&crate::cb::CircularBuffer, crate::risc::Risc) -> R) -> R {
        let cb = self.ctx.cb_index(api, cb);
        self.ctx.spend(self.ctx.costs.local_lookup);
        let risc = self.ctx.k.risc;
        let h = self.ctx.host.borrow();
        match h.core(self.ctx.k.core).cb(cb) {
            Some(c) => f(c, risc),
            None => {
                drop(h);
                self.ctx.fail(format!("{api}(c_{cb}): CB {cb} is not configured on this core"))
            }
        }
    }

    /// `get_write_ptr(cb)`: L1 address of this RISC's write pointer.
    pub fn get_write_ptr(&self, cb: impl CbId) -> u32 {
        self.cb_field("get_write_ptr", cb.cb_index(), |c, r| c.write_ptr(r))
    }

    /// `get_read_ptr(cb)`: L1 address of this RISC's read pointer.
    pub fn get_read_ptr(&self, cb: impl CbId) -> u32 {
        self.cb_field("get_read_ptr", cb.cb_index(), |c, r| c.read_ptr(r))
    }

    /// `get_tile_size(cb)`: tile size of the CB's data format, bytes.
    pub fn get_tile_size(&self, cb: impl CbId) -> u32 {
        self.cb_field("get_tile_size", cb.cb_index(), |c, _| c.format.tile_size())
    }

    /// `get_tile_hw(cb)`.
    pub fn get_tile_hw(&self, cb: impl CbId) -> u32 {
        self.cb_field("get_tile_hw", cb.cb_index(), |_, _| 1024)
    }

    /// `get_tile_num_faces(cb)`.
    pub fn get_tile_num_faces(&self, cb: impl CbId) -> u32 {
        self.cb_field("get_tile_num_faces", cb.cb_index(), |_, _| 4)
    }

    /// `get_dataformat(cb)`.
    pub fn get_dataformat(&self, cb: impl CbId) -> DataFormat {
        self.cb_field("get_dataformat", cb.cb_index(), |c, _| c.format)
    }

    // ---------------------------------------------------------------------------------------------
    // NoC addresses
    // ---------------------------------------------------------------------------------------------

    /// `get_noc_addr(x, y, addr)`.
    pub fn get_noc_addr(&self, x: u32, y: u32, addr: u32) -> u64 {
        self.ctx.spend(self.ctx.costs.addr_gen);
        noc_xy_addr(x, y, addr as u64)
    }

    /// `get_noc_addr(addr)`: this core's own L1.
    pub fn get_noc_addr_local(&self, addr: u32) -> u64 {
        self.ctx.spend(self.ctx.costs.addr_gen);
        noc_xy_addr(self.ctx.k.noc_xy.0, self.ctx.k.noc_xy.1, addr as u64)
    }

    /// `get_noc_multicast_addr(x_start, y_start, x_end, y_end, addr)`.
    pub fn get_noc_multicast_addr(&self, x_start: u32, y_start: u32, x_end: u32, y_end: u32, addr: u32) -> u64 {
        self.ctx.spend(self.ctx.costs.addr_gen);
        noc_multicast_addr(x_start, y_start, x_end, y_end, addr as u64)
    }

    /// `get_noc_addr_from_bank_id<DRAM>(bank_id, offset)`.
    pub fn get_noc_addr_from_bank_id<const DRAM: bool>(&self, bank_id: u32, offset: u32) -> u64 {
        self.ctx.spend(self.ctx.costs.addr_gen);
        match self.ctx.k.tables.bank_noc_addr(DRAM, bank_id, offset as u64, self.ctx.k.noc) {
            Some(a) => a,
            None => self.ctx.fail(format!(
                "get_noc_addr_from_bank_id: bank {bank_id} does not exist ({} {} banks)",
                self.ctx.k.tables.num_banks(DRAM),
                if DRAM { "DRAM" } else { "L1" }
            )),
        }
    }

    /// `get_noc_addr(page_id, addr_gen, offset)`: NoC address of a page of an interleaved buffer.
    pub fn get_noc_addr_page<G: AddrGen>(&self, page_id: u32, addrgen: &G, offset: u32) -> u64 {
        self.ctx.spend(self.ctx.costs.addr_gen);
        let noc = self.ctx.k.noc;
        match addrgen.page_noc_addr(&self.ctx.k.tables, page_id, offset, noc) {
            Some(a) => a,
            None => self.ctx.fail("get_noc_addr: the chip has no banks of this kind".into()),
        }
    }

    /// `get_dram_noc_addr(id, page_size, base, offset)`.
    pub fn get_dram_noc_addr(&self, id: u32, page_size: u32, base: u32, offset: u32) -> u64 {
        self.get_noc_addr_page(id, &InterleavedAddrGen::<true> { bank_base_address: base, page_size }, offset)
    }

    /// `get_l1_noc_addr(id, page_size, base, offset)`.
    pub fn get_l1_noc_addr(&self, id: u32, page_size: u32, base: u32, offset: u32) -> u64 {
        self.get_noc_addr_page(id, &InterleavedAddrGen::<false> { bank_base_address: base, page_size }, offset)
    }

    /// `TensorAccessorArgs<cta_offset>()`: read an accessor description from the compile-time args.
    pub fn tensor_accessor_args(&self, cta_offset: u32) -> TensorAccessorArgs {
        let config = self.get_compile_time_arg_val(cta_offset as usize);
        let a = TensorAccessorArgs { cta_offset, config };
        if a.is_sharded() {
            self.ctx.fail(format!(
                "TensorAccessorArgs<{cta_offset}>: sharded tensor accessors are not modelled yet; use an interleaved buffer"
            ));
        }
        a
    }

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

    fn read_on(&mut self, api: &'static str, src: u64, dst: u32, size: u32, noc: NocId, one_packet: bool) {
        if size == 0 {
            self.ctx.spend(self.ctx.costs.noc_cmd);
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
            };
            if let Err(e) = self.ctx.noc_command(noc, CmdBuf::Read, |h, now| h.noc_read(req, now)) {
                self.ctx.fail(format!("{api}: {e}"));
            }
        }
    }

    fn write_on(&mut self, api: &'static str, src: u32, dst: u64, size: u32, o: WriteOpts) {
        let WriteOpts { noc, posted, mcast, one_packet } = o;
        if size == 0 {
            self.ctx.spend(self.ctx.costs.noc_cmd);
            return;
        }
        let burst = self.ctx.k.max_burst;
        if one_packet && size > burst {
            self.ctx.fail(format!("{api}: {size} bytes exceed one packet (NOC_MAX_BURST_SIZE = {burst})"));
        }
        if let Some(m) = mcast {
            if m.num_dests == 0 {
                self.ctx.fail(format!("{api}: num_dests is 0; pass the number of destination cores"));
            }
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
        let src = self.get_noc_addr_page(id, addrgen, offset);
        let noc = self.ctx.k.noc;
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
            WriteOpts { noc, posted: false, mcast: None, one_packet: false },
        );
    }

    /// `noc_async_write(…, noc)`.
    pub fn noc_async_write_on(&mut self, src_local_l1_addr: u32, dst_noc_addr: u64, size: u32, noc: NocId) {
        self.write_on(
            "noc_async_write",
            src_local_l1_addr,
            dst_noc_addr,
            size,
            WriteOpts { noc, posted: false, mcast: None, one_packet: false },
        );
    }

    /// `noc_async_write<…, posted = true>`: not acknowledged.
    pub fn noc_async_write_posted(&mut self, src_local_l1_addr: u32, dst_noc_addr: u64, size: u32) {
        let noc = self.ctx.k.noc;
        self.write_on(
            "noc_async_write",
            src_local_l1_addr,
            dst_noc_addr,
            size,
            WriteOpts { noc, posted: true, mcast: None, one_packet: false },
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
            WriteOpts { noc, posted: false, mcast: None, one_packet: true },
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
        let dst = self.get_noc_addr_page(id, addrgen, offset);
        let size = if size == 0 { addrgen.page_size() } else { size };
        let noc = self.ctx.k.noc;
        self.write_on(
            "noc_async_write_page",
            src_local_l1_addr,
            dst,
            size,
            WriteOpts { noc, posted: false, mcast: None, one_packet: false },
        );
    }

    /// `noc_async_write_tile(id, addr_gen, src_l1)` (deprecated alias of `noc_async_write_page`).
    pub fn noc_async_write_tile<G: AddrGen>(&mut self, id: u32, addrgen: &G, src_local_l1_addr: u32) {
        self.noc_async_write_page(id, addrgen, src_local_l1_addr, 0, 0);
    }

    /// A multicast write on this kernel's NoC (data or a semaphore word).
    fn multicast(&mut self, api: &'static str, src: u32, dst: u64, size: u32, m: McastReq, one_packet: bool) {
        let noc = self.ctx.k.noc;
        self.write_on(api, src, dst, size, WriteOpts { noc, posted: false, mcast: Some(m), one_packet });
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
        self.multicast(
            "noc_async_write_multicast",
            src_local_l1_addr,
            dst_noc_addr_multicast,
            size,
            McastReq { num_dests, loopback: false, linked },
            false,
        );
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
        self.multicast(
            "noc_async_write_multicast_loopback_src",
            src_local_l1_addr,
            dst_noc_addr_multicast,
            size,
            McastReq { num_dests, loopback: true, linked },
            false,
        );
    }

    fn barrier_on(&mut self, b: Barrier, noc: NocId) {
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

    // ---------------------------------------------------------------------------------------------
    // Semaphores and L1 words
    // ---------------------------------------------------------------------------------------------

    /// `get_semaphore(id)`: L1 address of semaphore `id` (the same on every core).
    pub fn get_semaphore(&self, id: u32) -> u32 {
        self.ctx.spend(self.ctx.costs.local_lookup);
        if id >= 16 {
            self.ctx.fail(format!("get_semaphore({id}): semaphore ids are 0..16"));
        }
        self.ctx.k.sem_base + id * 16
    }

    fn atomic(&mut self, api: &'static str, dst: u64, op: AtomicOp, noc: NocId, posted: bool) {
        self.ctx.trace_noc(api, 4, dst);
        let req = AtomicReq { core: self.ctx.k.core, risc: self.ctx.k.risc, noc, dst, op, posted };
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
        let noc = self.ctx.k.noc;
        self.atomic("noc_semaphore_inc", addr, AtomicOp::Inc(incr), noc, false);
    }

    /// `noc_semaphore_inc(…, noc)`.
    pub fn noc_semaphore_inc_on(&mut self, addr: u64, incr: u32, noc: NocId) {
        self.atomic("noc_semaphore_inc", addr, AtomicOp::Inc(incr), noc, false);
    }

    /// `noc_inline_dw_write(addr, val)`: a 32-bit write from a register.
    pub fn noc_inline_dw_write(&mut self, addr: u64, val: u32) {
        let noc = self.ctx.k.noc;
        self.atomic("noc_inline_dw_write", addr, AtomicOp::Store(val), noc, false);
    }

    /// `noc_semaphore_set_remote(src_l1, dst_noc_addr)`: write the local word to a remote one.
    pub fn noc_semaphore_set_remote(&mut self, src_local_l1_addr: u32, dst_noc_addr: u64) {
        let noc = self.ctx.k.noc;
        self.write_on(
            "noc_semaphore_set_remote",
            src_local_l1_addr,
            dst_noc_addr,
            4,
            WriteOpts { noc, posted: false, mcast: None, one_packet: true },
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
        self.multicast(
            "noc_semaphore_set_multicast",
            src_local_l1_addr,
            dst_noc_addr_multicast,
            4,
            McastReq { num_dests, loopback: false, linked },
            true,
        );
    }

    /// `noc_semaphore_set_multicast_loopback_src`.
    pub fn noc_semaphore_set_multicast_loopback_src(
        &mut self,
        src_local_l1_addr: u32,
        dst_noc_addr_multicast: u64,
        num_dests: u32,
        linked: bool,
    ) {
        self.multicast(
            "noc_semaphore_set_multicast_loopback_src",
            src_local_l1_addr,
            dst_noc_addr_multicast,
            4,
            McastReq { num_dests, loopback: true, linked },
            true,
        );
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

    /// Read `len` bytes of this core's L1.
    pub fn l1_read_bytes(&mut self, addr: u32, len: u32) -> Vec<u8> {
        self.ctx.spend(Cycles(self.ctx.costs.l1_load.0 * len.div_ceil(4).max(1) as u64));
        self.check_l1("L1 read", addr, len);
        self.ctx.sync();
        self.ctx.with_core(|c| c.l1.read(addr as u64, len as u64).expect("checked").to_vec())
    }

    /// Write bytes into this core's L1.
    pub fn l1_write_bytes(&mut self, addr: u32, data: &[u8]) {
        self.ctx.spend(Cycles(self.ctx.costs.l1_store.0 * (data.len() as u64).div_ceil(4).max(1)));
        self.check_l1("L1 write", addr, data.len() as u32);
        self.ctx.sync();
        self.ctx.with_core(|c| c.l1.write(addr as u64, data).expect("checked"));
        self.ctx.notify();
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

    /// Copy `len` bytes inside this core's L1 (`memcpy` by the RISC: a load and a store per word).
    pub fn l1_memcpy(&mut self, dst: u32, src: u32, len: u32) {
        let words = len.div_ceil(4).max(1) as u64;
        self.ctx.spend(Cycles((self.ctx.costs.l1_load.0 + self.ctx.costs.l1_store.0) * words));
        self.check_l1("L1 copy", src, len);
        self.check_l1("L1 copy", dst, len);
        self.ctx.sync();
        self.ctx.with_core(|c| c.l1.copy_within(src as u64, dst as u64, len as u64).expect("checked"));
        self.ctx.notify();
    }
}
