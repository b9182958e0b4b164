//! The compute kernel context. A compute kernel is compiled three times on hardware — for TRISC0 (UNPACK),
//! TRISC1 (MATH) and TRISC2 (PACK) — and so tensim runs its body three times, as three threads with one
//! [`ComputeRole`] each. Every API call acts only in the role(s) that own it (tt-metal-api.md §3.1); plain
//! code between calls runs on all three.

pub mod math;
pub mod state;

use crate::args::KernelInstance;
use crate::core::Wait;
use crate::dataflow::{ArgValue, CbId, KernelCtx};
use crate::format::{DataFormat, decode_tile};
use crate::host::KernelHost;
use crate::risc::Risc;
use math::{
    BroadcastType, EltwiseOp, PoolType, ReduceDim, SfpuBinary, SfpuUnary, Tile, faces_to_rows, to_src_precision,
};
use sim_core::{Cycle, Cycles, Yielder};
use state::{
    ComputeSettings, ComputeState, SRC_DEPTH, SYNC_DST_COMMITTED, SYNC_DST_RELEASED, SYNC_SRC_POPPED, SYNC_SRC_PUSHED,
    SrcEntry, SrcKind,
};
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
}

/// The data formats the unpackers and the packer were last configured for, and by which call.
#[derive(Debug, Clone, Copy, Default)]
struct FormatConfig {
    unpack: [Option<DataFormat>; 2],
    pack: Option<DataFormat>,
    unpack_by: &'static str,
    pack_by: &'static str,
}

impl<'y> Compute<'y> {
    /// A context for kernel `k` running as `role`, starting at `start`.
    pub fn new(
        host: Rc<RefCell<dyn KernelHost>>,
        yielder: &'y Yielder,
        k: Rc<KernelInstance>,
        role: ComputeRole,
        start: Cycle,
    ) -> Self {
        let settings = k.compute.unwrap_or_default();
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

    fn costs(&self) -> &crate::params::ComputeCosts {
        &self.ctx.costs.compute
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

    /// A debug line (`DPRINT_UNPACK/MATH/PACK`).
    pub fn dprint(&mut self, text: impl std::fmt::Display) {
        let text = text.to_string();
        self.ctx.spend(Cycles(self.ctx.costs.l1_store.0 * (text.len() as u64 / 4 + 1)));
        let now = self.ctx.now();
        self.ctx.host.borrow_mut().dprint(self.ctx.k.fiber, now, text);
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

    // ---------------------------------------------------------------------------------------------
    // Hand-offs between the threads
    // ---------------------------------------------------------------------------------------------

    fn wait_count(&mut self, slot: u8, at_least: i64) {
        if at_least <= 0 {
            return;
        }
        let lat = self.costs().handoff;
        self.ctx.wait_for(Wait::Sync { slot, at_least: at_least as u32 }, lat);
    }

    fn bump(&mut self, slot: u8) {
        self.ctx.sync();
        self.ctx.with_core(|c| c.sync[slot as usize] += 1);
        self.ctx.notify();
    }

    fn state<R>(&mut self, f: impl FnOnce(&mut ComputeState) -> R) -> R {
        let mut h = self.ctx.host.borrow_mut();
        let core = h.core_mut(self.ctx.k.core);
        match core.compute.as_mut() {
            Some(s) => f(s),
            None => {
                drop(h);
                self.ctx.fail("compute state missing on this core".into())
            }
        }
    }

    fn math_acquire(&mut self) {
        self.ctx.spend(self.costs().sync);
        let sections = self.settings.sections() as i64;
        self.wait_count(SYNC_DST_RELEASED, self.acquires as i64 + 1 - sections);
        self.acquires += 1;
    }

    fn math_commit(&mut self) {
        self.ctx.spend(self.costs().sync);
        self.bump(SYNC_DST_COMMITTED);
        self.math_section = (self.math_section + 1) % self.settings.sections();
    }

    fn pack_wait(&mut self) {
        self.ctx.spend(self.costs().sync);
        self.wait_count(SYNC_DST_COMMITTED, self.waits as i64 + 1);
        self.waits += 1;
    }

    fn pack_release(&mut self) {
        self.ctx.spend(self.costs().sync);
        self.ctx.sync();
        let section = self.pack_section;
        self.state(|s| s.clear_section(section));
        self.bump(SYNC_DST_RELEASED);
        self.pack_section = (self.pack_section + 1) % self.settings.sections();
    }

    /// `tile_regs_acquire()` — MATH: wait for a free DST section.
    pub fn tile_regs_acquire(&mut self) {
        if self.role == ComputeRole::Math {
            self.math_acquire();
        }
    }

    /// `tile_regs_commit()` — MATH: hand the section to PACK.
    pub fn tile_regs_commit(&mut self) {
        if self.role == ComputeRole::Math {
            self.math_commit();
        }
    }

    /// `tile_regs_wait()` — PACK: wait for MATH's commit.
    pub fn tile_regs_wait(&mut self) {
        if self.role == ComputeRole::Pack {
            self.pack_wait();
        }
    }

    /// `tile_regs_release()` — PACK: clear the section and give it back to MATH.
    pub fn tile_regs_release(&mut self) {
        if self.role == ComputeRole::Pack {
            self.pack_release();
        }
    }

    /// `acquire_dst()` (deprecated): acquire on MATH, wait on PACK.
    pub fn acquire_dst(&mut self) {
        self.tile_regs_acquire();
        self.tile_regs_wait();
    }

    /// `release_dst()` (deprecated): commit on MATH, release on PACK.
    pub fn release_dst(&mut self) {
        self.tile_regs_commit();
        self.tile_regs_release();
    }

    // ---------------------------------------------------------------------------------------------
    // Unpack → math
    // ---------------------------------------------------------------------------------------------

    fn tile_addr(&mut self, api: &str, cb: u32, tile: u32) -> (u32, u32, DataFormat) {
        let cbi = self.ctx.cb_index(api, cb);
        self.ctx.cb_checked(api, cbi, 0);
        let risc = self.risc();
        let h = self.ctx.host.borrow();
        let c = h.core(self.ctx.k.core).cb(cbi).expect("checked");
        (c.read_ptr(risc) + tile * c.page_size, c.page_size, c.format)
    }

    /// UNPACK: read tiles `(cb, index from the front)` into the source registers as one operand set.
    /// Tiles at positions `transpose_from..` are transposed on the way in (in1 of a transposed matmul, a
    /// transposed copy); `usize::MAX` transposes none.
    fn unpack(&mut self, api: &str, kind: SrcKind, reads: &[(u32, u32)], transpose_from: usize) {
        let mut bytes = 0u64;
        let mut addrs = Vec::with_capacity(reads.len());
        for &(cb, t) in reads {
            let (a, _, f) = self.tile_addr(api, cb, t);
            bytes += f.tile_size() as u64;
            addrs.push((a, f));
            self.check_unpack_format(api, cb, f);
        }
        let c = self.costs();
        let rate = if reads.len() > 1 { c.unpack_ab_bytes_per_cycle } else { c.unpack_bytes_per_cycle }.max(1);
        let cost = Cycles(c.unpack_base.0 * reads.len() as u64 + bytes.div_ceil(rate));
        self.ctx.spend(cost);
        self.wait_count(SYNC_SRC_POPPED, self.pushes as i64 + 1 - SRC_DEPTH as i64);
        self.ctx.sync();
        let core = self.ctx.k.core;
        let result: Result<(), String> = {
            let mut h = self.ctx.host.borrow_mut();
            let tc = h.core_mut(core);
            let mut tiles = Vec::with_capacity(addrs.len());
            let mut err = None;
            for (i, &(a, f)) in addrs.iter().enumerate() {
                let st = tc.compute.as_mut().expect("compute core");
                let mut t = st.tile();
                match tc.l1.read(a as u64, f.tile_size() as u64) {
                    Ok(bytes) if f == DataFormat::Float16_b => math::bf16_faces_to_rows(bytes, &mut t),
                    Ok(bytes) => {
                        let mut raw = [0f32; 1024];
                        decode_tile(f, bytes, &mut raw);
                        faces_to_rows(&raw, &mut t);
                    }
                    Err(e) => {
                        err = Some(format!("{api}: {e}"));
                        break;
                    }
                }
                let st = tc.compute.as_mut().expect("compute core");
                if i >= transpose_from {
                    let mut tt = st.tile();
                    math::transpose(&mut tt, &t);
                    st.recycle(vec![t]);
                    t = tt;
                }
                if !f.exact_in_src_registers() {
                    to_src_precision(&mut t);
                }
                tiles.push(t);
            }
            match err {
                Some(e) => Err(e),
                None => {
                    tc.compute.as_mut().expect("compute core").src.push_back(SrcEntry { kind, tiles });
                    Ok(())
                }
            }
        };
        if let Err(e) = result {
            self.ctx.fail(e);
        }
        self.pushes += 1;
        self.bump(SYNC_SRC_PUSHED);
    }

    /// MATH: take the next operand set, which must be for `api`.
    fn take(&mut self, api: &str, matches: impl Fn(&SrcKind) -> bool) -> SrcEntry {
        self.wait_count(SYNC_SRC_PUSHED, self.pops as i64 + 1);
        self.ctx.sync();
        let e = self.state(|s| s.src.pop_front());
        self.pops += 1;
        self.bump(SYNC_SRC_POPPED);
        match e {
            Some(e) if matches(&e.kind) => e,
            Some(e) => self.ctx.fail(
                format!(
                    "{api}: the compute threads are out of step: MATH runs {api} but UNPACK unpacked for {} (role-dependent control flow?)",
                    e.kind.api()
                ),
            ),
            None => self.ctx.fail(format!("{api}: no operands were unpacked")),
        }
    }

    fn dst_check(&self, api: &str, idx: u32) {
        let cap = self.settings.capacity();
        if idx >= cap {
            self.ctx.fail(format!(
                "{api}: DST index {idx} is over the capacity of {cap} tiles (fp32_dest_acc_en={}, dst_full_sync_en={})",
                self.settings.fp32_dest_acc, self.settings.dst_full_sync
            ));
        }
    }

    fn math_slot(&self, api: &str, idx: u32) -> usize {
        self.dst_check(api, idx);
        self.settings.slot(self.math_section, idx)
    }

    fn require(&mut self, api: &str, want: FpuConfig) {
        let ok = match (self.fpu, want) {
            (Some(FpuConfig::Eltwise(None)), FpuConfig::Eltwise(_)) => true,
            (Some(FpuConfig::Eltwise(Some(a))), FpuConfig::Eltwise(Some(b))) => a == b,
            (Some(a), b) => a == b,
            (None, _) => false,
        };
        if !ok {
            let now = match self.fpu {
                Some(c) => format!("configured for {c:?}"),
                None => "not configured".to_string(),
            };
            self.ctx
                .host
                .borrow_mut()
                .warn(self.ctx.k.fiber, format!("{api} ran without its init (the engine is {now})"));
        }
    }

    fn set_config(&mut self, c: FpuConfig) {
        self.ctx.spend(self.costs().init);
        self.fpu = Some(c);
    }

    fn dst_write(&mut self, slot: usize, f: impl FnOnce(&mut Tile, bool, u32)) {
        let fp32 = self.settings.fp32_dest_acc;
        let phases = self.settings.fidelity_phases;
        self.state(|s| {
            f(&mut s.dst[slot], fp32, phases);
            s.dst_written[slot] = true;
        });
    }

    /// The format of CB `cb`, if it is configured on this core.
    fn cb_format(&self, cb: u32) -> Option<DataFormat> {
        let i = u8::try_from(cb).ok()?;
        self.ctx.host.borrow().core(self.ctx.k.core).cb(i).map(|c| c.format)
    }

    /// Record the formats an init call configures: operands `a` and `b` (unpackers), output `out` (packer).
    fn configure_formats(&mut self, by: &'static str, a: Option<u32>, b: Option<u32>, out: Option<u32>) {
        if let Some(a) = a {
            self.formats.unpack[0] = self.cb_format(a);
            self.formats.unpack[1] = b.map_or(self.formats.unpack[0], |b| self.cb_format(b));
            self.formats.unpack_by = by;
        }
        if let Some(o) = out {
            self.formats.pack = self.cb_format(o);
            self.formats.pack_by = by;
        }
    }

    /// Warn when `api` unpacks CB `cb` in a format neither unpacker is configured for.
    fn check_unpack_format(&mut self, api: &str, cb: u32, f: DataFormat) {
        let [a, b] = self.formats.unpack;
        if a.is_some() && a != Some(f) && b != Some(f) {
            let list = [a, b].iter().flatten().map(|f| f.to_string()).collect::<Vec<_>>().join("/");
            let by = self.formats.unpack_by;
            self.ctx.host.borrow_mut().warn(
                self.ctx.k.fiber,
                format!(
                    "{api} unpacks c_{cb} ({f}) but the unpackers are configured for {list} (by {by}); call \
                     reconfig_data_format first"
                ),
            );
        }
    }

    /// Warn when `api` packs into CB `cb` in a format the packer is not configured for.
    fn check_pack_format(&mut self, api: &str, cb: u32, f: DataFormat) {
        if let Some(p) = self.formats.pack.filter(|p| *p != f) {
            let by = self.formats.pack_by;
            self.ctx.host.borrow_mut().warn(
                self.ctx.k.fiber,
                format!(
                    "{api} packs into c_{cb} ({f}) but the packer is configured for {p} (by {by}); call \
                     pack_reconfig_data_format first"
                ),
            );
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Init calls
    // ---------------------------------------------------------------------------------------------

    /// `compute_kernel_hw_startup(icb0, icb1, ocb)`.
    pub fn compute_kernel_hw_startup(&mut self, icb0: impl CbId, icb1: impl CbId, ocb: impl CbId) {
        self.configure_formats(
            "compute_kernel_hw_startup",
            Some(icb0.cb_index()),
            Some(icb1.cb_index()),
            Some(ocb.cb_index()),
        );
        self.set_config(FpuConfig::Eltwise(None));
    }

    /// `binary_op_init_common(icb0, icb1, ocb)`.
    pub fn binary_op_init_common(&mut self, icb0: impl CbId, icb1: impl CbId, ocb: impl CbId) {
        self.configure_formats(
            "binary_op_init_common",
            Some(icb0.cb_index()),
            Some(icb1.cb_index()),
            Some(ocb.cb_index()),
        );
        self.set_config(FpuConfig::Eltwise(None));
    }

    /// `unary_op_init_common(icb, ocb)`.
    pub fn unary_op_init_common(&mut self, icb: impl CbId, ocb: impl CbId) {
        self.configure_formats("unary_op_init_common", Some(icb.cb_index()), None, Some(ocb.cb_index()));
        self.set_config(FpuConfig::Copy);
    }

    /// `init_sfpu(icb, ocb)` (same as `unary_op_init_common`).
    pub fn init_sfpu(&mut self, icb: impl CbId, ocb: impl CbId) {
        self.unary_op_init_common(icb, ocb);
    }

    /// `add_tiles_init(icb0, icb1, acc_to_dest)`.
    pub fn add_tiles_init(&mut self, _icb0: impl CbId, _icb1: impl CbId, _acc_to_dest: bool) {
        self.set_config(FpuConfig::Eltwise(Some(EltwiseOp::Add)));
    }

    /// `sub_tiles_init(icb0, icb1, acc_to_dest)`.
    pub fn sub_tiles_init(&mut self, _icb0: impl CbId, _icb1: impl CbId, _acc_to_dest: bool) {
        self.set_config(FpuConfig::Eltwise(Some(EltwiseOp::Sub)));
    }

    /// `mul_tiles_init(icb0, icb1)`.
    pub fn mul_tiles_init(&mut self, _icb0: impl CbId, _icb1: impl CbId) {
        self.set_config(FpuConfig::Eltwise(Some(EltwiseOp::Mul)));
    }

    /// `init_bcast<op, dim>(icb0, icb1, ocb)` and the `*_bcast_*_init_short` family.
    pub fn init_bcast(&mut self, op: EltwiseOp, _bcast: BroadcastType, _icb0: impl CbId, _icb1: impl CbId) {
        self.set_config(FpuConfig::Eltwise(Some(op)));
    }

    /// `add_bcast_rows_init_short(icb0, icb1)`.
    pub fn add_bcast_rows_init_short(&mut self, icb0: impl CbId, icb1: impl CbId) {
        self.init_bcast(EltwiseOp::Add, BroadcastType::Row, icb0, icb1);
    }

    /// `add_bcast_cols_init_short(icb0, icb1)`.
    pub fn add_bcast_cols_init_short(&mut self, icb0: impl CbId, icb1: impl CbId) {
        self.init_bcast(EltwiseOp::Add, BroadcastType::Col, icb0, icb1);
    }

    /// `add_bcast_scalar_init_short(icb0, icb1)`.
    pub fn add_bcast_scalar_init_short(&mut self, icb0: impl CbId, icb1: impl CbId) {
        self.init_bcast(EltwiseOp::Add, BroadcastType::Scalar, icb0, icb1);
    }

    /// `sub_bcast_cols_init_short(icb0, icb1)`.
    pub fn sub_bcast_cols_init_short(&mut self, icb0: impl CbId, icb1: impl CbId) {
        self.init_bcast(EltwiseOp::Sub, BroadcastType::Col, icb0, icb1);
    }

    /// `mul_bcast_rows_init_short(icb0, icb1)`.
    pub fn mul_bcast_rows_init_short(&mut self, icb0: impl CbId, icb1: impl CbId) {
        self.init_bcast(EltwiseOp::Mul, BroadcastType::Row, icb0, icb1);
    }

    /// `mul_bcast_cols_init_short(icb0, icb1)`.
    pub fn mul_bcast_cols_init_short(&mut self, icb0: impl CbId, icb1: impl CbId) {
        self.init_bcast(EltwiseOp::Mul, BroadcastType::Col, icb0, icb1);
    }

    /// `mul_tiles_bcast_scalar_init_short(icb0, icb1)`.
    pub fn mul_tiles_bcast_scalar_init_short(&mut self, icb0: impl CbId, icb1: impl CbId) {
        self.init_bcast(EltwiseOp::Mul, BroadcastType::Scalar, icb0, icb1);
    }

    /// `mm_init(in0_cb, in1_cb, out_cb, transpose)`.
    pub fn mm_init(&mut self, in0: impl CbId, in1: impl CbId, out: impl CbId, transpose: u32) {
        self.configure_formats("mm_init", Some(in0.cb_index()), Some(in1.cb_index()), Some(out.cb_index()));
        self.set_config(FpuConfig::Matmul);
        self.mm_transpose = transpose != 0;
    }

    /// `mm_init_short(in0_cb, in1_cb, transpose)`.
    pub fn mm_init_short(&mut self, _in0: impl CbId, _in1: impl CbId, transpose: u32) {
        self.set_config(FpuConfig::Matmul);
        self.mm_transpose = transpose != 0;
    }

    /// `mm_init_short_with_dt(in0_cb, in1_cb, old_srca_cb, transpose)`.
    pub fn mm_init_short_with_dt(&mut self, in0: impl CbId, in1: impl CbId, _old: impl CbId, transpose: u32) {
        self.configure_formats("mm_init_short_with_dt", Some(in0.cb_index()), Some(in1.cb_index()), None);
        self.mm_init_short(in0, in1, transpose);
    }

    /// `mm_block_init(in0, in1, out, transpose, ct_dim, rt_dim, kt_dim)`.
    #[allow(clippy::too_many_arguments)]
    pub fn mm_block_init(
        &mut self,
        in0: impl CbId,
        in1: impl CbId,
        out: impl CbId,
        transpose: u32,
        _ct: u32,
        _rt: u32,
        _kt: u32,
    ) {
        self.mm_init(in0, in1, out, transpose);
    }

    /// `copy_tile_init(cb)`.
    pub fn copy_tile_init(&mut self, _cb: impl CbId) {
        self.set_config(FpuConfig::Copy);
        self.copy_transpose = false;
    }

    /// `copy_tile_to_dst_init_short(cb, transpose)`.
    pub fn copy_tile_to_dst_init_short(&mut self, _cb: impl CbId, transpose: u32) {
        self.set_config(FpuConfig::Copy);
        self.copy_transpose = transpose != 0;
    }

    /// `copy_tile_to_dst_init_short_with_dt(old_cb, new_cb, transpose)`.
    pub fn copy_tile_to_dst_init_short_with_dt(&mut self, _old: impl CbId, new: impl CbId, transpose: u32) {
        self.formats.unpack[0] = self.cb_format(new.cb_index());
        self.formats.unpack_by = "copy_tile_to_dst_init_short_with_dt";
        self.copy_tile_to_dst_init_short(new, transpose);
    }

    /// `reduce_init<pool, dim>(icb, icb_scaler, ocb)`.
    pub fn reduce_init(&mut self, _pool: PoolType, _dim: ReduceDim, icb: impl CbId, scaler: impl CbId, ocb: impl CbId) {
        self.configure_formats("reduce_init", Some(icb.cb_index()), Some(scaler.cb_index()), Some(ocb.cb_index()));
        self.set_config(FpuConfig::Reduce);
    }

    /// `reduce_uninit()`.
    pub fn reduce_uninit(&mut self) {
        self.ctx.spend(self.costs().init);
        self.fpu = None;
    }

    /// `transpose_wh_init(icb, ocb)`.
    pub fn transpose_wh_init(&mut self, icb: impl CbId, ocb: impl CbId) {
        self.configure_formats("transpose_wh_init", Some(icb.cb_index()), None, Some(ocb.cb_index()));
        self.set_config(FpuConfig::Transpose);
    }

    /// `tilize_init(icb, block, ocb)`.
    pub fn tilize_init(&mut self, icb: impl CbId, _block: u32, ocb: impl CbId) {
        self.configure_formats("tilize_init", Some(icb.cb_index()), None, Some(ocb.cb_index()));
        self.set_config(FpuConfig::Tilize);
    }

    /// `tilize_uninit(icb, ocb)`.
    pub fn tilize_uninit(&mut self, _icb: impl CbId, _ocb: impl CbId) {
        self.ctx.spend(self.costs().init);
        self.fpu = None;
    }

    /// `untilize_init(icb)`.
    pub fn untilize_init(&mut self, icb: impl CbId) {
        self.configure_formats("untilize_init", Some(icb.cb_index()), None, None);
        self.set_config(FpuConfig::Untilize);
    }

    /// `untilize_uninit(icb)`.
    pub fn untilize_uninit(&mut self, _icb: impl CbId) {
        self.ctx.spend(self.costs().init);
        self.fpu = None;
    }

    /// `pack_untilize_init(icb, ocb)`.
    pub fn pack_untilize_init(&mut self, icb: impl CbId, ocb: impl CbId) {
        self.configure_formats("pack_untilize_init", Some(icb.cb_index()), None, Some(ocb.cb_index()));
        self.set_config(FpuConfig::Untilize);
    }

    /// `pack_untilize_uninit(ocb)`.
    pub fn pack_untilize_uninit(&mut self, _ocb: impl CbId) {
        self.ctx.spend(self.costs().init);
        self.fpu = None;
    }

    /// `binary_dest_reuse_tiles_init<op, reuse>(icb)`.
    pub fn binary_dest_reuse_tiles_init(
        &mut self,
        _op: EltwiseOp,
        _reuse: EltwiseBinaryReuseDestType,
        _icb: impl CbId,
    ) {
        self.set_config(FpuConfig::DestReuse);
    }

    /// `pack_reconfig_data_format(new_cb)`: the packer's output format follows the CB it packs into.
    pub fn pack_reconfig_data_format(&mut self, new: impl CbId) {
        self.configure_formats("pack_reconfig_data_format", None, None, Some(new.cb_index()));
        self.ctx.spend(self.costs().init);
    }

    /// `reconfig_data_format(srca_new, srcb_new)`: the unpacker's formats follow the CBs it reads.
    pub fn reconfig_data_format(&mut self, a: impl CbId, b: impl CbId) {
        self.configure_formats("reconfig_data_format", Some(a.cb_index()), Some(b.cb_index()), None);
        self.ctx.spend(self.costs().init);
    }

    /// `reconfig_data_format_srca(new)`.
    pub fn reconfig_data_format_srca(&mut self, a: impl CbId) {
        self.formats.unpack[0] = self.cb_format(a.cb_index());
        self.formats.unpack_by = "reconfig_data_format_srca";
        self.ctx.spend(self.costs().init);
    }

    fn sfpu_init(&mut self, name: &'static str) {
        self.ctx.spend(self.costs().init);
        if !self.sfpu.contains(&name) {
            self.sfpu.push(name);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // FPU operations
    // ---------------------------------------------------------------------------------------------

    /// `copy_tile(cb, tile, dst)`: a CB tile (relative to the front) into DST.
    pub fn copy_tile(&mut self, cb: impl CbId, tile: u32, dst: u32) {
        match self.role {
            ComputeRole::Unpack => {
                let from = if self.copy_transpose { 0 } else { usize::MAX };
                self.unpack("copy_tile", SrcKind::Copy, &[(cb.cb_index(), tile)], from);
            }
            ComputeRole::Math => {
                self.require("copy_tile", FpuConfig::Copy);
                let slot = self.math_slot("copy_tile", dst);
                let e = self.take("copy_tile", |k| *k == SrcKind::Copy);
                self.ctx.spend(self.costs().math_base + self.costs().datacopy);
                self.dst_write(slot, |d, fp32, _| {
                    d.copy_from_slice(&e.tiles[0][..]);
                    if !fp32 {
                        math::round_slice_bf16(d);
                    }
                });
                self.state(|s| s.recycle(e.tiles));
            }
            ComputeRole::Pack => {}
        }
    }

    /// `add_tiles` / `sub_tiles` / `mul_tiles` with an optional broadcast of the second operand.
    #[allow(clippy::too_many_arguments)]
    pub fn tiles_bcast(
        &mut self,
        op: EltwiseOp,
        bcast: BroadcastType,
        cb0: impl CbId,
        cb1: impl CbId,
        t0: u32,
        t1: u32,
        dst: u32,
    ) {
        let api = SrcKind::Eltwise(op, bcast).api();
        match self.role {
            ComputeRole::Unpack => {
                self.unpack(api, SrcKind::Eltwise(op, bcast), &[(cb0.cb_index(), t0), (cb1.cb_index(), t1)], usize::MAX)
            }
            ComputeRole::Math => {
                self.require(api, FpuConfig::Eltwise(Some(op)));
                let slot = self.math_slot(api, dst);
                let e = self.take(api, |k| *k == SrcKind::Eltwise(op, bcast));
                let phases = if op == EltwiseOp::Mul { self.settings.fidelity_phases as u64 } else { 1 };
                self.ctx.spend(self.costs().math_base + self.costs().eltwise * phases);
                self.dst_write(slot, |d, fp32, ph| math::eltwise(d, &e.tiles[0], &e.tiles[1], op, bcast, ph, fp32));
                self.state(|s| s.recycle(e.tiles));
            }
            ComputeRole::Pack => {}
        }
    }

    /// `add_tiles(cb0, cb1, t0, t1, dst)`: DST = A + B.
    pub fn add_tiles(&mut self, cb0: impl CbId, cb1: impl CbId, t0: u32, t1: u32, dst: u32) {
        self.tiles_bcast(EltwiseOp::Add, BroadcastType::None, cb0, cb1, t0, t1, dst);
    }

    /// `sub_tiles(cb0, cb1, t0, t1, dst)`: DST = A − B.
    pub fn sub_tiles(&mut self, cb0: impl CbId, cb1: impl CbId, t0: u32, t1: u32, dst: u32) {
        self.tiles_bcast(EltwiseOp::Sub, BroadcastType::None, cb0, cb1, t0, t1, dst);
    }

    /// `mul_tiles(cb0, cb1, t0, t1, dst)`: DST = A × B.
    pub fn mul_tiles(&mut self, cb0: impl CbId, cb1: impl CbId, t0: u32, t1: u32, dst: u32) {
        self.tiles_bcast(EltwiseOp::Mul, BroadcastType::None, cb0, cb1, t0, t1, dst);
    }

    /// `add_tiles_bcast<dim>(…)`.
    pub fn add_tiles_bcast(
        &mut self,
        bcast: BroadcastType,
        cb0: impl CbId,
        cb1: impl CbId,
        t0: u32,
        t1: u32,
        dst: u32,
    ) {
        self.tiles_bcast(EltwiseOp::Add, bcast, cb0, cb1, t0, t1, dst);
    }

    /// `sub_tiles_bcast<dim>(…)`.
    pub fn sub_tiles_bcast(
        &mut self,
        bcast: BroadcastType,
        cb0: impl CbId,
        cb1: impl CbId,
        t0: u32,
        t1: u32,
        dst: u32,
    ) {
        self.tiles_bcast(EltwiseOp::Sub, bcast, cb0, cb1, t0, t1, dst);
    }

    /// `mul_tiles_bcast<dim>(…)`.
    pub fn mul_tiles_bcast(
        &mut self,
        bcast: BroadcastType,
        cb0: impl CbId,
        cb1: impl CbId,
        t0: u32,
        t1: u32,
        dst: u32,
    ) {
        self.tiles_bcast(EltwiseOp::Mul, bcast, cb0, cb1, t0, t1, dst);
    }

    /// `add_tiles_bcast_rows(…)`.
    pub fn add_tiles_bcast_rows(&mut self, cb0: impl CbId, cb1: impl CbId, t0: u32, t1: u32, dst: u32) {
        self.add_tiles_bcast(BroadcastType::Row, cb0, cb1, t0, t1, dst);
    }

    /// `add_tiles_bcast_cols(…)`.
    pub fn add_tiles_bcast_cols(&mut self, cb0: impl CbId, cb1: impl CbId, t0: u32, t1: u32, dst: u32) {
        self.add_tiles_bcast(BroadcastType::Col, cb0, cb1, t0, t1, dst);
    }

    /// `add_tiles_bcast_scalar(…)`.
    pub fn add_tiles_bcast_scalar(&mut self, cb0: impl CbId, cb1: impl CbId, t0: u32, t1: u32, dst: u32) {
        self.add_tiles_bcast(BroadcastType::Scalar, cb0, cb1, t0, t1, dst);
    }

    /// `sub_tiles_bcast_cols(…)`.
    pub fn sub_tiles_bcast_cols(&mut self, cb0: impl CbId, cb1: impl CbId, t0: u32, t1: u32, dst: u32) {
        self.sub_tiles_bcast(BroadcastType::Col, cb0, cb1, t0, t1, dst);
    }

    /// `sub_tiles_bcast_scalar(…)`.
    pub fn sub_tiles_bcast_scalar(&mut self, cb0: impl CbId, cb1: impl CbId, t0: u32, t1: u32, dst: u32) {
        self.sub_tiles_bcast(BroadcastType::Scalar, cb0, cb1, t0, t1, dst);
    }

    /// `mul_tiles_bcast_rows(…)`.
    pub fn mul_tiles_bcast_rows(&mut self, cb0: impl CbId, cb1: impl CbId, t0: u32, t1: u32, dst: u32) {
        self.mul_tiles_bcast(BroadcastType::Row, cb0, cb1, t0, t1, dst);
    }

    /// `mul_tiles_bcast_cols(…)`.
    pub fn mul_tiles_bcast_cols(&mut self, cb0: impl CbId, cb1: impl CbId, t0: u32, t1: u32, dst: u32) {
        self.mul_tiles_bcast(BroadcastType::Col, cb0, cb1, t0, t1, dst);
    }

    /// `mul_tiles_bcast_scalar(…)`.
    pub fn mul_tiles_bcast_scalar(&mut self, cb0: impl CbId, cb1: impl CbId, t0: u32, t1: u32, dst: u32) {
        self.mul_tiles_bcast(BroadcastType::Scalar, cb0, cb1, t0, t1, dst);
    }

    /// `binary_dest_reuse_tiles<op, reuse>(in_cb, in_tile, dst)`: combine a CB tile with DST in place.
    pub fn binary_dest_reuse_tiles(
        &mut self,
        op: EltwiseOp,
        reuse: EltwiseBinaryReuseDestType,
        cb: impl CbId,
        tile: u32,
        dst: u32,
    ) {
        let api = "binary_dest_reuse_tiles";
        match self.role {
            ComputeRole::Unpack => self.unpack(api, SrcKind::DestReuse(op), &[(cb.cb_index(), tile)], usize::MAX),
            ComputeRole::Math => {
                self.require(api, FpuConfig::DestReuse);
                let slot = self.math_slot(api, dst);
                let e = self.take(api, |k| *k == SrcKind::DestReuse(op));
                let phases = if op == EltwiseOp::Mul { self.settings.fidelity_phases as u64 } else { 1 };
                self.ctx.spend(self.costs().math_base + self.costs().eltwise * phases);
                self.dst_write(slot, |d, fp32, ph| {
                    let cur: Tile = *d;
                    match reuse {
                        EltwiseBinaryReuseDestType::DEST_TO_SRCA => {
                            math::eltwise(d, &cur, &e.tiles[0], op, BroadcastType::None, ph, fp32)
                        }
                        EltwiseBinaryReuseDestType::DEST_TO_SRCB => {
                            math::eltwise(d, &e.tiles[0], &cur, op, BroadcastType::None, ph, fp32)
                        }
                    }
                });
                self.state(|s| s.recycle(e.tiles));
            }
            ComputeRole::Pack => {}
        }
    }

    /// `matmul_tiles(in0_cb, in1_cb, in0_tile, in1_tile, dst)`: DST += A·B.
    pub fn matmul_tiles(&mut self, in0: impl CbId, in1: impl CbId, t0: u32, t1: u32, dst: u32) {
        match self.role {
            ComputeRole::Unpack => {
                let from = if self.mm_transpose { 1 } else { usize::MAX };
                self.unpack("matmul_tiles", SrcKind::Matmul, &[(in0.cb_index(), t0), (in1.cb_index(), t1)], from);
            }
            ComputeRole::Math => {
                self.require("matmul_tiles", FpuConfig::Matmul);
                let slot = self.math_slot("matmul_tiles", dst);
                let e = self.take("matmul_tiles", |k| *k == SrcKind::Matmul);
                if e.tiles.len() != 2 {
                    self.ctx.fail(format!(
                        "matmul_tiles: the compute threads are out of step ({} tiles unpacked)",
                        e.tiles.len()
                    ));
                }
                self.ctx.spend(
                    self.costs().math_base + self.costs().matmul_per_phase * self.settings.fidelity_phases as u64,
                );
                self.dst_write(slot, |d, fp32, ph| math::matmul(d, &e.tiles[0], &e.tiles[1], ph, fp32));
                self.state(|s| s.recycle(e.tiles));
            }
            ComputeRole::Pack => {}
        }
    }

    /// `matmul_block(in0, in1, in0_tile, in1_tile, dst, transpose, ct_dim, rt_dim, kt_dim)`: for one K step,
    /// DST[dst + r·ct + c] += A[in0_tile + r·kt] · B[in1_tile + c] over an rt × ct block.
    #[allow(clippy::too_many_arguments)]
    pub fn matmul_block(
        &mut self,
        in0: impl CbId,
        in1: impl CbId,
        t0: u32,
        t1: u32,
        dst: u32,
        transpose: u32,
        ct_dim: u32,
        rt_dim: u32,
        kt_dim: u32,
    ) {
        let api = "matmul_block";
        match self.role {
            ComputeRole::Unpack => {
                let mut reads: Vec<(u32, u32)> = (0..rt_dim).map(|r| (in0.cb_index(), t0 + r * kt_dim)).collect();
                reads.extend((0..ct_dim).map(|c| (in1.cb_index(), t1 + c)));
                // The in1 tiles follow the rt in0 tiles; only they are transposed.
                let from = if transpose != 0 { rt_dim as usize } else { usize::MAX };
                self.unpack(api, SrcKind::Matmul, &reads, from);
            }
            ComputeRole::Math => {
                self.require(api, FpuConfig::Matmul);
                self.dst_check(api, dst + rt_dim * ct_dim - 1);
                let e = self.take(api, |k| *k == SrcKind::Matmul);
                if e.tiles.len() != (rt_dim + ct_dim) as usize {
                    self.ctx
                        .fail(format!("{api}: the compute threads are out of step ({} tiles unpacked)", e.tiles.len()));
                }
                let per = self.costs().matmul_per_phase * self.settings.fidelity_phases as u64;
                self.ctx.spend(self.costs().math_base + per * (rt_dim * ct_dim) as u64);
                let base = self.math_slot(api, dst);
                let (fp32, ph) = (self.settings.fp32_dest_acc, self.settings.fidelity_phases);
                self.state(|s| {
                    for r in 0..rt_dim as usize {
                        for c in 0..ct_dim as usize {
                            let slot = base + r * ct_dim as usize + c;
                            math::matmul(&mut s.dst[slot], &e.tiles[r], &e.tiles[rt_dim as usize + c], ph, fp32);
                            s.dst_written[slot] = true;
                        }
                    }
                });
                self.state(|s| s.recycle(e.tiles));
            }
            ComputeRole::Pack => {}
        }
    }

    /// `reduce_tile<pool, dim>(icb, icb_scaler, itile, itile_scaler, dst)`: DST (op)= reduce(A) × scaler.
    #[allow(clippy::too_many_arguments)]
    pub fn reduce_tile(
        &mut self,
        pool: PoolType,
        dim: ReduceDim,
        icb: impl CbId,
        scaler: impl CbId,
        itile: u32,
        itile_scaler: u32,
        dst: u32,
    ) {
        let api = "reduce_tile";
        match self.role {
            ComputeRole::Unpack => self.unpack(
                api,
                SrcKind::Reduce(pool, dim),
                &[(icb.cb_index(), itile), (scaler.cb_index(), itile_scaler)],
                usize::MAX,
            ),
            ComputeRole::Math => {
                self.require(api, FpuConfig::Reduce);
                let slot = self.math_slot(api, dst);
                let e = self.take(api, |k| *k == SrcKind::Reduce(pool, dim));
                self.ctx.spend(self.costs().math_base + self.costs().reduce);
                let fp32 = self.settings.fp32_dest_acc;
                self.state(|s| {
                    let first = !s.dst_written[slot];
                    math::reduce(&mut s.dst[slot], &e.tiles[0], &e.tiles[1], pool, dim, first, fp32);
                    s.dst_written[slot] = true;
                });
                self.state(|s| s.recycle(e.tiles));
            }
            ComputeRole::Pack => {}
        }
    }

    /// `transpose_wh_tile(icb, itile, dst)`: DST = Aᵀ.
    pub fn transpose_wh_tile(&mut self, icb: impl CbId, itile: u32, dst: u32) {
        let api = "transpose_wh_tile";
        match self.role {
            ComputeRole::Unpack => self.unpack(api, SrcKind::Transpose, &[(icb.cb_index(), itile)], usize::MAX),
            ComputeRole::Math => {
                self.require(api, FpuConfig::Transpose);
                let slot = self.math_slot(api, dst);
                let e = self.take(api, |k| *k == SrcKind::Transpose);
                self.ctx.spend(self.costs().math_base + self.costs().datacopy * 2);
                self.dst_write(slot, |d, fp32, _| {
                    math::transpose(d, &e.tiles[0]);
                    if !fp32 {
                        math::round_slice_bf16(d);
                    }
                });
                self.state(|s| s.recycle(e.tiles));
            }
            ComputeRole::Pack => {}
        }
    }

    // ---------------------------------------------------------------------------------------------
    // SFPU operations (MATH)
    // ---------------------------------------------------------------------------------------------

    fn sfpu_cost(&self, op: SfpuUnary) -> Cycles {
        let c = &self.costs().sfpu;
        let a = self.settings.approx;
        let pick = |p: (u64, u64)| if a { p.1 } else { p.0 };
        let instr = match op {
            SfpuUnary::Exp => pick(c.exp),
            SfpuUnary::Recip => pick(c.recip),
            SfpuUnary::Sqrt => pick(c.sqrt),
            SfpuUnary::Rsqrt => pick(c.rsqrt),
            SfpuUnary::Log => pick(c.log),
            SfpuUnary::Sigmoid => pick(c.sigmoid),
            SfpuUnary::Tanh => pick(c.tanh),
            SfpuUnary::Gelu => pick(c.gelu),
            SfpuUnary::Relu | SfpuUnary::Abs | SfpuUnary::Square => c.simple,
            SfpuUnary::Power(p) => c.power_per_mul * (32 - p.max(1).leading_zeros()) as u64,
        };
        self.costs().math_base + self.costs().sfpu_per_instr * instr
    }

    /// Any SFPU unary operation on DST tile `dst`.
    pub fn sfpu_unary(&mut self, op: SfpuUnary, dst: u32) {
        if self.role != ComputeRole::Math {
            return;
        }
        let api = op.name();
        if !self.sfpu.contains(&api) {
            self.ctx.host.borrow_mut().warn(self.ctx.k.fiber, format!("{api}_tile ran without {api}_tile_init"));
        }
        let slot = self.math_slot(api, dst);
        self.ctx.spend(self.sfpu_cost(op));
        let approx = self.settings.approx;
        self.dst_write(slot, |d, fp32, _| math::sfpu_unary(d, op, approx, fp32));
    }

    /// `exp_tile_init()`.
    pub fn exp_tile_init(&mut self) {
        self.sfpu_init("exp");
    }
    /// `exp_tile(dst)`.
    pub fn exp_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Exp, dst);
    }
    /// `recip_tile_init()`.
    pub fn recip_tile_init(&mut self) {
        self.sfpu_init("recip");
    }
    /// `recip_tile(dst)`.
    pub fn recip_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Recip, dst);
    }
    /// `sqrt_tile_init()`.
    pub fn sqrt_tile_init(&mut self) {
        self.sfpu_init("sqrt");
    }
    /// `sqrt_tile(dst)`.
    pub fn sqrt_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Sqrt, dst);
    }
    /// `rsqrt_tile_init()`.
    pub fn rsqrt_tile_init(&mut self) {
        self.sfpu_init("rsqrt");
    }
    /// `rsqrt_tile(dst)`.
    pub fn rsqrt_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Rsqrt, dst);
    }
    /// `log_tile_init()`.
    pub fn log_tile_init(&mut self) {
        self.sfpu_init("log");
    }
    /// `log_tile(dst)`.
    pub fn log_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Log, dst);
    }
    /// `sigmoid_tile_init()`.
    pub fn sigmoid_tile_init(&mut self) {
        self.sfpu_init("sigmoid");
    }
    /// `sigmoid_tile(dst)`.
    pub fn sigmoid_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Sigmoid, dst);
    }
    /// `tanh_tile_init()`.
    pub fn tanh_tile_init(&mut self) {
        self.sfpu_init("tanh");
    }
    /// `tanh_tile(dst)`.
    pub fn tanh_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Tanh, dst);
    }
    /// `gelu_tile_init()`.
    pub fn gelu_tile_init(&mut self) {
        self.sfpu_init("gelu");
    }
    /// `gelu_tile(dst)`.
    pub fn gelu_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Gelu, dst);
    }
    /// `relu_tile_init()`.
    pub fn relu_tile_init(&mut self) {
        self.sfpu_init("relu");
    }
    /// `relu_tile(dst)`.
    pub fn relu_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Relu, dst);
    }
    /// `abs_tile_init()`.
    pub fn abs_tile_init(&mut self) {
        self.sfpu_init("abs");
    }
    /// `abs_tile(dst)`.
    pub fn abs_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Abs, dst);
    }
    /// `square_tile_init()`.
    pub fn square_tile_init(&mut self) {
        self.sfpu_init("square");
    }
    /// `square_tile(dst)`.
    pub fn square_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Square, dst);
    }
    /// `power_tile_init()`.
    pub fn power_tile_init(&mut self) {
        self.sfpu_init("power");
    }
    /// `power_tile(dst, p)`.
    pub fn power_tile(&mut self, dst: u32, p: u32) {
        self.sfpu_unary(SfpuUnary::Power(p), dst);
    }

    fn sfpu_binary(&mut self, op: SfpuBinary, i0: u32, i1: u32, out: u32) {
        if self.role != ComputeRole::Math {
            return;
        }
        let api = match op {
            SfpuBinary::Add => "add_binary_tile",
            SfpuBinary::Sub => "sub_binary_tile",
            SfpuBinary::Mul => "mul_binary_tile",
            SfpuBinary::Div => "div_binary_tile",
        };
        if !self.sfpu.contains(&api) {
            self.ctx.host.borrow_mut().warn(self.ctx.k.fiber, format!("{api} ran without {api}_init"));
        }
        let (s0, s1, so) = (self.math_slot(api, i0), self.math_slot(api, i1), self.math_slot(api, out));
        let c = &self.costs().sfpu;
        let instr = if op == SfpuBinary::Div { c.div } else { c.binary };
        self.ctx.spend(self.costs().math_base + self.costs().sfpu_per_instr * instr);
        let fp32 = self.settings.fp32_dest_acc;
        self.state(|s| {
            let (a, b) = (*s.dst[s0], *s.dst[s1]);
            math::sfpu_binary(&mut s.dst[so], &a, &b, op, fp32);
            s.dst_written[so] = true;
        });
    }

    /// `add_binary_tile_init()`.
    pub fn add_binary_tile_init(&mut self) {
        self.sfpu_init("add_binary_tile");
    }
    /// `add_binary_tile(i0, i1, out)`: DST[out] = DST[i0] + DST[i1].
    pub fn add_binary_tile(&mut self, i0: u32, i1: u32, out: u32) {
        self.sfpu_binary(SfpuBinary::Add, i0, i1, out);
    }
    /// `sub_binary_tile_init()`.
    pub fn sub_binary_tile_init(&mut self) {
        self.sfpu_init("sub_binary_tile");
    }
    /// `sub_binary_tile(i0, i1, out)`.
    pub fn sub_binary_tile(&mut self, i0: u32, i1: u32, out: u32) {
        self.sfpu_binary(SfpuBinary::Sub, i0, i1, out);
    }
    /// `mul_binary_tile_init()`.
    pub fn mul_binary_tile_init(&mut self) {
        self.sfpu_init("mul_binary_tile");
    }
    /// `mul_binary_tile(i0, i1, out)`.
    pub fn mul_binary_tile(&mut self, i0: u32, i1: u32, out: u32) {
        self.sfpu_binary(SfpuBinary::Mul, i0, i1, out);
    }
    /// `div_binary_tile_init()`.
    pub fn div_binary_tile_init(&mut self) {
        self.sfpu_init("div_binary_tile");
    }
    /// `div_binary_tile(i0, i1, out)`.
    pub fn div_binary_tile(&mut self, i0: u32, i1: u32, out: u32) {
        self.sfpu_binary(SfpuBinary::Div, i0, i1, out);
    }

    // ---------------------------------------------------------------------------------------------
    // Pack (DST → CB)
    // ---------------------------------------------------------------------------------------------

    fn pack_one(&mut self, api: &str, dst: u32, cb: u32, out_index: Option<u32>) {
        self.dst_check(api, dst);
        let cbi = self.ctx.cb_index(api, cb);
        self.ctx.cb_checked(api, cbi, 0);
        let format = {
            let h = self.ctx.host.borrow();
            h.core(self.ctx.k.core).cb(cbi).expect("checked").format
        };
        self.check_pack_format(api, cb, format);
        let fmt_size = format.tile_size() as u64;
        let c = self.costs();
        self.ctx.spend(c.pack_base + Cycles(fmt_size.div_ceil(c.pack_bytes_per_cycle.max(1))));
        self.ctx.sync();
        let risc = self.risc();
        let slot = self.settings.slot(self.pack_section, dst);
        let core = self.ctx.k.core;
        let r: Result<(), String> = {
            let mut h = self.ctx.host.borrow_mut();
            let tc = h.core_mut(core);
            let cbv = tc.cb(cbi).expect("checked");
            let index = out_index.unwrap_or_else(|| cbv.tile_write_index(risc));
            let (free, format, page, wp) = (cbv.pages_free(), cbv.format, cbv.page_size, cbv.write_ptr(risc));
            if free < index as i64 + 1 {
                Err(format!(
                    "{api}(dst {dst}, c_{cbi}): c_{cbi} has no room for page {index}: {} of {} pages free; call cb_reserve_back first",
                    free.max(0),
                    cbv.num_pages()
                ))
            } else {
                let st = tc.compute.as_mut().expect("compute core");
                let bytes = st.encode_dst(slot, format);
                let addr = wp as u64 + index as u64 * page as u64;
                match tc.l1.write(addr, bytes) {
                    Ok(()) => {
                        if out_index.is_none() {
                            tc.cb_mut(cbi).expect("checked").advance_tile_write(risc);
                        }
                        Ok(())
                    }
                    Err(e) => Err(format!("{api}: {e}")),
                }
            }
        };
        if let Err(e) = r {
            self.ctx.fail(e);
        }
        self.ctx.notify();
    }

    /// `pack_tile(dst, cb)`: DST tile into the next page of the CB's reserved region (sequential).
    pub fn pack_tile(&mut self, dst: u32, cb: impl CbId) {
        if self.role == ComputeRole::Pack {
            self.pack_one("pack_tile", dst, cb.cb_index(), None);
        }
    }

    /// `pack_tile<true>(dst, cb, index)`: DST tile into page `index` of the reserved region (out of order).
    pub fn pack_tile_ooo(&mut self, dst: u32, cb: impl CbId, index: u32) {
        if self.role == ComputeRole::Pack {
            self.pack_one("pack_tile", dst, cb.cb_index(), Some(index));
        }
    }

    /// `pack_tile_block(dst_start, cb, n)`.
    pub fn pack_tile_block(&mut self, dst: u32, cb: impl CbId, n: u32) {
        if self.role == ComputeRole::Pack {
            for i in 0..n {
                self.pack_one("pack_tile_block", dst + i, cb.cb_index(), None);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Tilize / untilize (each does its own DST hand-off per tile)
    // ---------------------------------------------------------------------------------------------

    /// UNPACK: `n` row-major tiles of width `width_tiles` × 32 starting at the CB front, tile `t` at
    /// column block `t`, pushed as datacopy operand sets.
    fn unpack_row_major(&mut self, api: &str, cb: u32, n: u32, width_tiles: u32, first_col: u32) {
        for t in 0..n {
            let (base, _page, fmt) = self.tile_addr(api, cb, 0);
            self.check_unpack_format(api, cb, fmt);
            let esize = fmt.tile_size() as u64 / 1024;
            let c = self.costs();
            self.ctx.spend(c.unpack_base + Cycles((fmt.tile_size() as u64).div_ceil(c.unpack_bytes_per_cycle.max(1))));
            self.wait_count(SYNC_SRC_POPPED, self.pushes as i64 + 1 - SRC_DEPTH as i64);
            self.ctx.sync();
            let core = self.ctx.k.core;
            let r: Result<(), String> = {
                let mut h = self.ctx.host.borrow_mut();
                let tc = h.core_mut(core);
                let row_bytes = width_tiles as u64 * 32 * esize;
                let mut tile = tc.compute.as_mut().expect("compute core").tile();
                let mut err = None;
                for r in 0..32u64 {
                    let a = base as u64 + r * row_bytes + (first_col + t) as u64 * 32 * esize;
                    match tc.l1.read(a, 32 * esize) {
                        Ok(b) => {
                            for j in 0..32 {
                                let e = &b[(j * esize) as usize..((j + 1) * esize) as usize];
                                tile[(r * 32 + j) as usize] = match fmt {
                                    DataFormat::Float32 => f32::from_le_bytes([e[0], e[1], e[2], e[3]]),
                                    DataFormat::Float16 => {
                                        crate::format::f16_bits_to_f32(u16::from_le_bytes([e[0], e[1]]))
                                    }
                                    _ => f32::from_bits((u16::from_le_bytes([e[0], e[1]]) as u32) << 16),
                                };
                            }
                        }
                        Err(e) => {
                            err = Some(format!("{api}: {e}"));
                            break;
                        }
                    }
                }
                match err {
                    Some(e) => Err(e),
                    None => {
                        tc.compute
                            .as_mut()
                            .expect("compute core")
                            .src
                            .push_back(SrcEntry { kind: SrcKind::Datacopy, tiles: vec![tile] });
                        Ok(())
                    }
                }
            };
            if let Err(e) = r {
                self.ctx.fail(e);
            }
            self.pushes += 1;
            self.bump(SYNC_SRC_PUSHED);
        }
    }

    /// MATH: one datacopy per operand set, each in its own DST section.
    fn math_datacopies(&mut self, api: &str, n: u32) {
        for _ in 0..n {
            self.math_acquire();
            let slot = self.math_slot(api, 0);
            let e = self.take(api, |k| *k == SrcKind::Datacopy);
            self.ctx.spend(self.costs().math_base + self.costs().datacopy);
            self.dst_write(slot, |d, fp32, _| {
                d.copy_from_slice(&e.tiles[0][..]);
                if !fp32 {
                    math::round_slice_bf16(d);
                }
            });
            self.state(|s| s.recycle(e.tiles));
            self.math_commit();
        }
    }

    /// `tilize_block(icb, block, ocb)`: `block` tiles' worth of row-major data (32 rows × block·32
    /// columns) from the front of `icb` into `block` tiles in `ocb`.
    pub fn tilize_block(&mut self, icb: impl CbId, block: u32, ocb: impl CbId) {
        let api = "tilize_block";
        match self.role {
            ComputeRole::Unpack => self.unpack_row_major(api, icb.cb_index(), block, block, 0),
            ComputeRole::Math => {
                self.require(api, FpuConfig::Tilize);
                self.math_datacopies(api, block);
            }
            ComputeRole::Pack => {
                for _ in 0..block {
                    self.pack_wait();
                    self.pack_one(api, 0, ocb.cb_index(), None);
                    self.pack_release();
                }
            }
        }
    }

    /// PACK: write DST tile 0 as 32 row-major rows into `ocb` at column block `col` of a `width_tiles`-wide
    /// row-major region, and at row block `row_block`.
    fn pack_row_major(&mut self, api: &str, ocb: u32, width_tiles: u32, col: u32, row_block: u32) {
        let cbi = self.ctx.cb_index(api, ocb);
        self.ctx.cb_checked(api, cbi, 0);
        let c = self.costs();
        self.ctx.spend(c.pack_base + Cycles(2048u64.div_ceil(c.pack_bytes_per_cycle.max(1))));
        self.ctx.sync();
        let risc = self.risc();
        let slot = self.settings.slot(self.pack_section, 0);
        let core = self.ctx.k.core;
        let r: Result<(), String> = {
            let mut h = self.ctx.host.borrow_mut();
            let tc = h.core_mut(core);
            let cbv = tc.cb(cbi).expect("checked");
            let (fmt, wp) = (cbv.format, cbv.write_ptr(risc));
            let esize = fmt.tile_size() as u64 / 1024;
            let row_bytes = width_tiles as u64 * 32 * esize;
            let vals: Tile = *tc.compute.as_ref().expect("compute core").dst[slot];
            let mut out = Ok(());
            for r in 0..32u64 {
                let mut bytes = Vec::with_capacity((32 * esize) as usize);
                for j in 0..32 {
                    let v = vals[(r * 32 + j) as usize];
                    match fmt {
                        DataFormat::Float32 => bytes.extend_from_slice(&v.to_le_bytes()),
                        DataFormat::Float16 => {
                            bytes.extend_from_slice(&crate::format::f32_to_f16_bits(v).to_le_bytes())
                        }
                        _ => bytes.extend_from_slice(&crate::format::bfloat16::from_f32(v).0.to_le_bytes()),
                    }
                }
                let a = wp as u64 + (row_block as u64 * 32 + r) * row_bytes + col as u64 * 32 * esize;
                if let Err(e) = tc.l1.write(a, &bytes) {
                    out = Err(format!("{api}: {e}"));
                    break;
                }
            }
            out
        };
        if let Err(e) = r {
            self.ctx.fail(e);
        }
        self.ctx.notify();
    }

    /// `untilize_block(icb, full_ct_dim, ocb)`: `full_ct_dim` tiles from the front of `icb` into 32
    /// row-major rows of `full_ct_dim` × 32 values in `ocb`.
    pub fn untilize_block(&mut self, icb: impl CbId, full_ct_dim: u32, ocb: impl CbId) {
        let api = "untilize_block";
        match self.role {
            ComputeRole::Unpack => {
                for t in 0..full_ct_dim {
                    self.unpack(api, SrcKind::Datacopy, &[(icb.cb_index(), t)], usize::MAX);
                }
            }
            ComputeRole::Math => {
                self.require(api, FpuConfig::Untilize);
                self.math_datacopies(api, full_ct_dim);
            }
            ComputeRole::Pack => {
                for t in 0..full_ct_dim {
                    self.pack_wait();
                    self.pack_row_major(api, ocb.cb_index(), full_ct_dim, t, 0);
                    self.pack_release();
                }
            }
        }
    }

    /// `pack_untilize_block<block_ct_dim, full_ct_dim>(icb, block_rt_dim, ocb, block_c_index)`: a
    /// `block_rt_dim × block_ct_dim` block of tiles from `icb` written row-major into `ocb`, whose rows are
    /// `full_ct_dim` tiles wide, at column block `block_c_index`.
    #[allow(clippy::too_many_arguments)]
    pub fn pack_untilize_block(
        &mut self,
        icb: impl CbId,
        block_rt_dim: u32,
        ocb: impl CbId,
        block_ct_dim: u32,
        full_ct_dim: u32,
        block_c_index: u32,
    ) {
        let api = "pack_untilize_block";
        let n = block_rt_dim * block_ct_dim;
        match self.role {
            ComputeRole::Unpack => {
                for t in 0..n {
                    self.unpack(api, SrcKind::Datacopy, &[(icb.cb_index(), t)], usize::MAX);
                }
            }
            ComputeRole::Math => {
                self.require(api, FpuConfig::Untilize);
                self.math_datacopies(api, n);
            }
            ComputeRole::Pack => {
                for t in 0..n {
                    self.pack_wait();
                    let (r, c) = (t / block_ct_dim, t % block_ct_dim);
                    self.pack_row_major(api, ocb.cb_index(), full_ct_dim, block_c_index * block_ct_dim + c, r);
                    self.pack_release();
                }
            }
        }
    }

    /// A value of the current DST section as MATH sees it (for tests and debugging prints).
    pub fn dst_value(&mut self, dst: u32, row: usize, col: usize) -> f32 {
        let slot = match self.role {
            ComputeRole::Pack => self.settings.slot(self.pack_section, dst),
            _ => self.math_slot("dst_value", dst),
        };
        self.state(|s| s.dst[slot][row * 32 + col])
    }
}
