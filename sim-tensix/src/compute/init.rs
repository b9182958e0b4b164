//! The `*_init` calls: what the FPU is configured for and which data formats the unpackers and the
//! packer expect, with warnings when an operation runs without its init or on a format it was not
//! configured for.

use super::*;

impl Compute<'_> {
    pub(super) fn require(&mut self, api: &str, want: FpuConfig) {
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

    pub(super) fn set_config(&mut self, c: FpuConfig) {
        self.ctx.spend(self.cost().init());
        self.fpu = Some(c);
    }

    /// The format of CB `cb`, if it is configured on this core.
    pub(super) fn cb_format(&self, cb: u32) -> Option<DataFormat> {
        let i = u8::try_from(cb).ok()?;
        self.ctx.host.borrow().core(self.ctx.k.core).cb(i).map(|c| c.format)
    }

    /// Record the formats an init call configures: operands `a` and `b` (unpackers), output `out` (packer).
    pub(super) fn configure_formats(&mut self, by: &'static str, a: Option<u32>, b: Option<u32>, out: Option<u32>) {
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
    /// Whether copies from CB `cb` (format `f`) go straight to DST (`UnpackToDestFp32`); a 32-bit integer
    /// copy through the source registers is warned about, since they keep only 19 bits of each value.
    pub(super) fn unpack_to_dest(&mut self, api: &str, cb: u32, f: DataFormat) -> bool {
        let to_dest = self.settings.unpacks_to_dest(cb);
        if !to_dest && f.is_32bit_int() {
            self.ctx.host.borrow_mut().warn(
                self.ctx.k.fiber,
                format!(
                    "{api} copies c_{cb} ({f}) through the source registers, which keep 19 bits of a value: \
                     integers beyond ±2048 lose their low bits, as on hardware; set \
                     UnpackToDestMode::UnpackToDestFp32 for c_{cb} (with fp32_dest_acc_en) to copy them exactly"
                ),
            );
        }
        to_dest
    }

    pub(super) fn check_unpack_format(&mut self, api: &str, cb: u32, f: DataFormat) {
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
    pub(super) fn check_pack_format(&mut self, api: &str, cb: u32, f: DataFormat) {
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

    /// `mm_block_init_short(in0, in1, transpose, ct_dim, rt_dim, kt_dim)`.
    pub fn mm_block_init_short(
        &mut self,
        in0: impl CbId,
        in1: impl CbId,
        transpose: u32,
        _ct: u32,
        _rt: u32,
        _kt: u32,
    ) {
        self.mm_init_short(in0, in1, transpose);
    }

    /// `mm_block_init_short_with_dt(in0, in1, old_in1, transpose, ct_dim, rt_dim, kt_dim)`: after another
    /// operation reconfigured the unpackers (a reload of partials).
    #[allow(clippy::too_many_arguments)]
    pub fn mm_block_init_short_with_dt(
        &mut self,
        in0: impl CbId,
        in1: impl CbId,
        old: impl CbId,
        transpose: u32,
        _ct: u32,
        _rt: u32,
        _kt: u32,
    ) {
        self.mm_init_short_with_dt(in0, in1, old, transpose);
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
        self.ctx.spend(self.cost().init());
        self.fpu = None;
    }

    /// `transpose_wh_init(icb, ocb)`.
    pub fn transpose_wh_init(&mut self, icb: impl CbId, ocb: impl CbId) {
        self.configure_formats("transpose_wh_init", Some(icb.cb_index()), None, Some(ocb.cb_index()));
        self.set_config(FpuConfig::Transpose);
    }

    /// `transpose_wh_init_short(icb)`: the FPU set for transposes, formats as they are.
    pub fn transpose_wh_init_short(&mut self, _icb: impl CbId) {
        self.set_config(FpuConfig::Transpose);
    }

    /// `tilize_init(icb, block, ocb)`.
    pub fn tilize_init(&mut self, icb: impl CbId, _block: u32, ocb: impl CbId) {
        self.configure_formats("tilize_init", Some(icb.cb_index()), None, Some(ocb.cb_index()));
        self.set_config(FpuConfig::Tilize);
    }

    /// `tilize_uninit(icb, ocb)`.
    pub fn tilize_uninit(&mut self, _icb: impl CbId, _ocb: impl CbId) {
        self.ctx.spend(self.cost().init());
        self.fpu = None;
    }

    /// `untilize_init(icb)`.
    pub fn untilize_init(&mut self, icb: impl CbId) {
        self.configure_formats("untilize_init", Some(icb.cb_index()), None, None);
        self.set_config(FpuConfig::Untilize);
    }

    /// `untilize_uninit(icb)`.
    pub fn untilize_uninit(&mut self, _icb: impl CbId) {
        self.ctx.spend(self.cost().init());
        self.fpu = None;
    }

    /// `pack_untilize_init(icb, ocb)`.
    pub fn pack_untilize_init(&mut self, icb: impl CbId, ocb: impl CbId) {
        self.configure_formats("pack_untilize_init", Some(icb.cb_index()), None, Some(ocb.cb_index()));
        self.set_config(FpuConfig::Untilize);
    }

    /// `pack_untilize_dest_init(ocb)`: the packer writes row-major from DST.
    pub fn pack_untilize_dest_init(&mut self, ocb: impl CbId) {
        self.configure_formats("pack_untilize_dest_init", None, None, Some(ocb.cb_index()));
        self.ctx.spend(self.cost().init());
    }

    /// `reconfig_data_format_srcb(new)`.
    pub fn reconfig_data_format_srcb(&mut self, b: impl CbId) {
        self.formats.unpack[1] = self.cb_format(b.cb_index());
        self.formats.unpack_by = "reconfig_data_format_srcb";
        self.ctx.spend(self.cost().init());
    }

    /// `pack_untilize_uninit(ocb)`.
    pub fn pack_untilize_uninit(&mut self, _ocb: impl CbId) {
        self.ctx.spend(self.cost().init());
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
        self.ctx.spend(self.cost().init());
    }

    /// `reconfig_data_format(srca_new, srcb_new)`: the unpacker's formats follow the CBs it reads.
    pub fn reconfig_data_format(&mut self, a: impl CbId, b: impl CbId) {
        self.configure_formats("reconfig_data_format", Some(a.cb_index()), Some(b.cb_index()), None);
        self.ctx.spend(self.cost().init());
    }

    /// `reconfig_data_format_srca(new)`.
    pub fn reconfig_data_format_srca(&mut self, a: impl CbId) {
        self.formats.unpack[0] = self.cb_format(a.cb_index());
        self.formats.unpack_by = "reconfig_data_format_srca";
        self.ctx.spend(self.cost().init());
    }

    pub(super) fn sfpu_init(&mut self, name: &'static str) {
        self.ctx.spend(self.cost().init());
        if !self.sfpu.contains(&name) {
            self.sfpu.push(name);
        }
    }
}
