//! The compute kernel context. A compute kernel is compiled three times on hardware — for TRISC0 (UNPACK),
//! TRISC1 (MATH) and TRISC2 (PACK) — and so tensim runs its body three times, as three threads with one
//! [`ComputeRole`] each. Every API call acts only in the role(s) that own it (tt-metal-api.md §3.1); plain
//! code between calls runs on all three.

mod fpu;
mod init;
mod llk;
mod pipeline;
pub mod sfpi;
mod sfpu;
mod tilize;

use crate::args::{ArgValue, KernelInstance};
use crate::hw::cb::CbId;
use crate::hw::compute::math::{
    BroadcastType, EltwiseOp, PoolType, ReduceDim, SfpuBinary, SfpuUnary, Tile, faces_to_rows, to_src_precision,
};
use crate::hw::compute::state::{
    ComputeSettings, ComputeState, SRC_DEPTH, SYNC_DST_COMMITTED, SYNC_DST_RELEASED, SYNC_SRC_POPPED, SYNC_SRC_PUSHED,
    SrcEntry, SrcKind,
};
use crate::hw::compute::{cost, math};
use crate::hw::core::{Touched, Wait};
use crate::hw::risc::Risc;
use crate::kernel_ctx::KernelCtx;
use crate::kernel_host::KernelHost;
use layout::format::{DataFormat, decode_tile};
use sim_core::{Cycle, Cycles, Yielder};
use std::cell::RefCell;
use std::rc::Rc;

/// Which TRISC thread a compute body runs as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ComputeRole {
    /// TRISC0: moves tiles from CBs into the source registers.
    Unpack,
    /// TRISC1: drives the FPU/SFPU on the DST register.
    Math,
    /// TRISC2: moves tiles from DST into CBs.
    Pack,
}

/// How `binary_dest_reuse_tiles` uses DST.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum EltwiseBinaryReuseDestType {
    /// DST is the first operand: `dst = dst op tile`.
    DEST_TO_SRCA,
    /// DST is the second operand: `dst = tile op dst`.
    DEST_TO_SRCB,
}

/// What the FPU is configured for (the last init call).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FpuConfig {
    /// Element-wise; `None` after a common init that covers every binary operation.
    Eltwise(Option<EltwiseOp>),
    Matmul,
    Copy,
    Reduce,
    Transpose,
    Tilize,
    Untilize,
    DestReuse,
}

/// The context of one thread of a compute kernel.
pub struct Compute<'y> {
    pub(crate) ctx: KernelCtx<'y>,
    role: ComputeRole,
    settings: ComputeSettings,
    acquires: u32,
    waits: u32,
    pushes: u32,
    pops: u32,
    math_section: u32,
    pack_section: u32,
    fpu: Option<FpuConfig>,
    sfpu: Vec<&'static str>,
    mm_transpose: bool,
    copy_transpose: bool,
    formats: FormatConfig,
    /// Data moves and is computed (false in timing-only runs).
    data: bool,
    /// PACK accumulates into L1 (`pack_reconfig_l1_acc`).
    l1_acc: bool,
    /// MATH: the `llk_unpack_AB` operand set being copied into DST, and which registers were copied.
    held_ab: Option<(SrcEntry, [bool; 2])>,
    /// MATH: the SFPU session a C++ kernel's wrapper opened, and the wrapper's name.
    sfpi_open: Option<(&'static str, sfpi::Sfpi)>,
    /// UNPACK: scratch list of the L1 addresses and formats of the tiles being unpacked.
    unpack_addrs: Vec<(u32, DataFormat, bool)>,
    /// UNPACK: scratch list of a block's `(cb, tile)` reads (`matmul_block`).
    unpack_reads: Vec<(u32, u32)>,
}

pub use llk::DataCopyType;

/// The data formats the unpackers and the packer were last configured for, and by which call.
#[derive(Debug, Clone, Copy, Default)]
struct FormatConfig {
    unpack: [Option<DataFormat>; 2],
    pack: Option<DataFormat>,
    unpack_by: &'static str,
    pack_by: &'static str,
}

impl<'y> Compute<'y> {
    /// The host address of this core's L1 byte 0 when its L1 lives in a host window (C++ kernels, which
    /// dereference L1 addresses), else `None`.
    pub fn l1_window_base(&self) -> Option<usize> {
        self.ctx.l1_window_base()
    }

    /// A context for kernel `k` running as `role`, starting at `start`.
    pub fn new(
        host: Rc<RefCell<dyn KernelHost>>,
        yielder: &'y Yielder,
        k: Rc<KernelInstance>,
        role: ComputeRole,
        start: Cycle,
    ) -> Self {
        let settings = k.compute.unwrap_or_default();
        let data = host.borrow().moves_data();
        Compute {
            ctx: KernelCtx::new(host, yielder, k, start),
            role,
            settings,
            acquires: 0,
            waits: 0,
            pushes: 0,
            pops: 0,
            math_section: 0,
            pack_section: 0,
            fpu: None,
            sfpu: Vec::new(),
            mm_transpose: false,
            copy_transpose: false,
            formats: FormatConfig::default(),
            data,
            l1_acc: false,
            held_ab: None,
            sfpi_open: None,
            unpack_addrs: Vec::new(),
            unpack_reads: Vec::new(),
        }
    }

    /// Report the thread's statistics.
    pub fn finish(self) {
        self.ctx.finish();
    }

    /// The role this body runs as.
    pub fn role(&self) -> ComputeRole {
        self.role
    }

    fn risc(&self) -> Risc {
        self.ctx.k.risc
    }

    /// "`name` on core (x,y) RISC", for messages about this kernel (its TRISC).
    pub fn who(&self) -> String {
        self.ctx.who()
    }

    fn cost(&self) -> cost::Cost<'_> {
        cost::Cost { c: &self.ctx.costs.compute, s: self.settings }
    }
    // ---------------------------------------------------------------------------------------------
    // Arguments
    // ---------------------------------------------------------------------------------------------

    /// `get_arg_val<T>(i)` (all three threads read it).
    pub fn get_arg_val<T: ArgValue>(&self, i: usize) -> T {
        self.ctx.runtime_arg(false, i)
    }

    /// `get_common_arg_val<T>(i)`.
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

    /// `get_named_compile_time_arg_val("name")`.
    pub fn get_named_compile_time_arg_val(&self, name: &str) -> u32 {
        self.ctx.named_compile_time_arg(name)
    }

    /// The value of define `name`.
    pub fn get_define(&self, name: &str) -> Option<&str> {
        self.ctx.define(name)
    }

    /// Spend `cycles` on this thread.
    pub fn delay(&self, cycles: u64) {
        self.ctx.spend(Cycles(cycles));
    }

    /// The size of this core's L1 in bytes.
    pub fn l1_size_bytes(&self) -> u32 {
        self.ctx.l1_size_bytes()
    }

    /// Foreign kernel code is about to load or store `bytes` at an L1 address through a pointer (see
    /// `Dataflow::l1_pointer_access`).
    pub fn l1_pointer_access(&mut self, addr: u32, bytes: u32, store: bool) {
        self.ctx.pointer_access(addr, bytes, store);
    }

    /// Stores through L1 pointers happened: kernels waiting on L1 words look again.
    pub fn l1_pointer_stored(&mut self) {
        self.ctx.notify_l1();
    }

    /// `enable_fp32_dest_acc()` / `disable_fp32_dest_acc()`: DST in 32 bits from now on, or back in 16 (its
    /// capacity per section halves or doubles; the kernel's other threads switch with their own call).
    pub fn set_fp32_dest_acc(&mut self, on: bool) {
        self.settings.fp32_dest_acc = on;
    }

    /// `get_write_ptr(cb)` in a compute kernel: the L1 address of this TRISC's write pointer.
    pub fn get_write_ptr(&self, cb: impl crate::hw::cb::CbId) -> u32 {
        self.ctx.cb_field("get_write_ptr", cb.cb_index(), |c, r| c.write_ptr(r))
    }

    /// `get_read_ptr(cb)` in a compute kernel: the L1 address of this TRISC's read pointer.
    pub fn get_read_ptr(&self, cb: impl crate::hw::cb::CbId) -> u32 {
        self.ctx.cb_field("get_read_ptr", cb.cb_index(), |c, r| c.read_ptr(r))
    }

    /// `get_tile_size(cb)` in a compute kernel.
    pub fn get_tile_size(&self, cb: impl crate::hw::cb::CbId) -> u32 {
        self.ctx.cb_field("get_tile_size", cb.cb_index(), |c, _| c.format.tile_size())
    }

    /// `get_dataformat(cb)` in a compute kernel.
    pub fn get_dataformat(&self, cb: impl crate::hw::cb::CbId) -> layout::format::DataFormat {
        self.ctx.cb_field("get_dataformat", cb.cb_index(), |c, _| c.format)
    }

    /// A debug line (`DPRINT_UNPACK/MATH/PACK`).
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

    /// Open a profiler zone (`DeviceZoneScopedN`) on this TRISC; zones nest.
    pub fn zone_begin(&mut self, name: &'static str) {
        self.ctx.zone_begin(name);
    }

    /// Close the innermost open zone.
    pub fn zone_end(&mut self) {
        self.ctx.zone_end();
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

    // ---------------------------------------------------------------------------------------------
    // Circular buffers (UNPACK waits and pops, PACK reserves and pushes)
    // ---------------------------------------------------------------------------------------------

    /// `cb_wait_front(cb, n)` — UNPACK.
    pub fn cb_wait_front(&mut self, cb: impl CbId, n: u32) {
        if self.role == ComputeRole::Unpack {
            self.ctx.cb_wait(false, cb.cb_index(), n);
        }
    }

    /// `cb_pop_front(cb, n)` — UNPACK.
    pub fn cb_pop_front(&mut self, cb: impl CbId, n: u32) {
        if self.role == ComputeRole::Unpack {
            self.ctx.cb_update(false, cb.cb_index(), n);
        }
    }

    /// `cb_reserve_back(cb, n)` — PACK.
    pub fn cb_reserve_back(&mut self, cb: impl CbId, n: u32) {
        if self.role == ComputeRole::Pack {
            self.ctx.cb_wait(true, cb.cb_index(), n);
        }
    }

    /// `cb_push_back(cb, n)` — PACK.
    pub fn cb_push_back(&mut self, cb: impl CbId, n: u32) {
        if self.role == ComputeRole::Pack {
            self.ctx.cb_update(true, cb.cb_index(), n);
        }
    }

    /// A value of the current DST section as MATH sees it (for tests and debugging prints).
    pub fn dst_value(&mut self, dst: u32, row: usize, col: usize) -> f32 {
        let slot = match self.role {
            ComputeRole::Pack => self.settings.slot(self.pack_section, dst),
            _ => self.math_slot("dst_value", dst),
        };
        self.state(|s| s.dst(slot)[row * 32 + col])
    }
}
