//! The data-movement kernel API (tt-metal's `dataflow_api.h`) as methods of [`Dataflow`], the context a
//! BRISC/NCRISC kernel receives. Names and argument orders follow tt-metal; optional trailing `noc`
//! arguments become `_on` variants. This module holds arguments, identity and circular buffers; `addr`
//! the NoC address calls, `noc` reads, writes, multicasts and barriers, `sem` semaphores and L1 words.
//!
//! Every call charges its per-arch issue cost to the kernel's local clock. Calls that touch shared state
//! (CB counters, L1, the NoC, barriers) first synchronise with global time; blocking calls register what
//! they wait for and sleep until it holds. API misuse stops the kernel with an error naming the call.

mod addr;
mod eth;
pub mod fabric;
pub mod fabric_mesh;
mod noc;
mod sem;
pub use sem::{AtomicOpts, SemaphoreCore};
mod set_state;

use crate::args::{ArgValue, KernelInstance};
use crate::hw::cb::CbId;
use crate::hw::core::Wait;
use crate::kernel_ctx::KernelCtx;
use crate::kernel_host::KernelHost;
use layout::format::DataFormat;
use sim_core::{Cycle, Cycles, Yielder};
use soc_descriptors::NocId;
use std::cell::RefCell;
use std::rc::Rc;

/// The context of a data-movement kernel (BRISC or NCRISC).
pub struct Dataflow<'y> {
    pub(crate) ctx: KernelCtx<'y>,
}

impl<'y> Dataflow<'y> {
    /// The host address of this core's L1 byte 0 when its L1 lives in a host window (C++ kernels, which
    /// dereference L1 addresses), else `None`.
    pub fn l1_window_base(&self) -> Option<usize> {
        self.ctx.l1_window_base()
    }

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

    /// `get_arg_addr(i)`: the L1 address of unique runtime arg `i` (the args sit in the core's L1).
    pub fn get_arg_addr(&mut self, i: usize) -> u32 {
        self.ctx.runtime_arg_addr(false, i)
    }

    /// `get_common_arg_addr(i)`: the L1 address of common runtime arg `i`.
    pub fn get_common_arg_addr(&mut self, i: usize) -> u32 {
        self.ctx.runtime_arg_addr(true, i)
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

    /// Which RISC this kernel runs on.
    pub fn risc(&self) -> crate::hw::risc::Risc {
        self.ctx.k.risc
    }

    /// "`name` on core (x,y) RISC", for messages about this kernel.
    pub fn who(&self) -> String {
        self.ctx.who()
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
        self.ctx.dprint(format!("{text}\n"));
    }

    /// Debug-print text as a C++ kernel's print statement made it: lines end at each `\n`; text after the
    /// last one waits for the RISC's next print (or the end of the run).
    pub fn dprint_raw(&mut self, text: String) {
        self.ctx.dprint(text);
    }

    /// The DPRINT stream's format state of this RISC (sticky manipulators), kept between print statements:
    /// returns the stored word, after storing `value` when `set`.
    pub fn dprint_state(&mut self, set: bool, value: u32) -> u32 {
        self.ctx.dprint_state(set, value)
    }

    /// `DeviceTimestampedData(name, data)`: log `data` under `name` at this cycle (reports, stats, trace).
    pub fn timestamped_data(&mut self, name: &str, data: u64) {
        self.ctx.timestamped_data(name, data);
    }

    /// `TSLICE(cb, tile, range, …, ptr)`: the text DPRINT shows for a slice of tile `tile` of `cb`, read
    /// at this RISC's `ptr` pointer (print it with [`Self::dprint`]).
    pub fn tile_slice(
        &mut self,
        cb: impl CbId,
        tile: u32,
        range: crate::tile_slice::SliceRange,
        ptr: crate::tile_slice::SlicePtr,
        style: crate::tile_slice::SliceStyle,
    ) -> String {
        self.ctx.tile_slice(cb.cb_index(), tile, range, ptr, style)
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
        self.ctx.sync_local();
        let key = self.ctx.key();
        self.ctx.with_core(|c| c.satisfied_at(&Wait::CbBack { cb, pages: n }, key))
    }

    /// `cb_pages_available_at_front(cb, n)`: non-blocking probe.
    pub fn cb_pages_available_at_front(&mut self, cb: impl CbId, n: u32) -> bool {
        let cb = self.ctx.cb_index("cb_pages_available_at_front", cb.cb_index());
        self.ctx.spend(self.ctx.costs.cb_poll);
        self.ctx.cb_checked("cb_pages_available_at_front", cb, 0);
        self.ctx.sync_local();
        let key = self.ctx.key();
        self.ctx.with_core(|c| c.satisfied_at(&Wait::CbFront { cb, pages: n }, key))
    }

    fn cb_field<R>(
        &self,
        api: &str,
        cb: u32,
        f: impl FnOnce(&crate::hw::cb::CircularBuffer, crate::hw::risc::Risc) -> R,
    ) -> R {
        self.ctx.cb_field(api, cb, f)
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

    /// The page size the host configured for `cb`, bytes.
    pub fn get_cb_page_size(&self, cb: impl CbId) -> u32 {
        self.cb_field("the page size of a circular buffer", cb.cb_index(), |c, _| c.page_size)
    }

    /// The number of pages `cb` holds.
    pub fn get_cb_num_pages(&self, cb: impl CbId) -> u32 {
        self.cb_field("the page count of a circular buffer", cb.cb_index(), |c, _| c.size / c.page_size.max(1))
    }

    /// The size of `cb`, bytes.
    pub fn get_cb_size_bytes(&self, cb: impl CbId) -> u32 {
        self.cb_field("the size of a circular buffer", cb.cb_index(), |c, _| c.size)
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
}
