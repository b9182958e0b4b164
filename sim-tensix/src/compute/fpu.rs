//! FPU operations: copies into DST, element-wise add/sub/mul with broadcasts, DST-reuse, matmuls
//! (tile and block), reductions and transposes. UNPACK feeds the operands, MATH computes into DST.

use super::*;

impl Compute<'_> {
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
                self.ctx.spend(self.cost().datacopy());
                self.dst_overwrite(slot, |d, fp32, _| math::copy_to_dst(d, &e.tiles[0], fp32));
                let int_bits = e.int_bits;
                self.state(|s| {
                    s.set_dst_int_bits(slot, int_bits);
                    s.recycle(e.tiles)
                });
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
        self.tiles_bcast_row(op, bcast, cb0, cb1, t0, t1, dst, 0);
    }

    /// As [`Compute::tiles_bcast`], a row broadcast taking row `row` (0..32) of the second operand's tile
    /// (`bcast_row_idx`).
    #[allow(clippy::too_many_arguments)]
    pub fn tiles_bcast_row(
        &mut self,
        op: EltwiseOp,
        bcast: BroadcastType,
        cb0: impl CbId,
        cb1: impl CbId,
        t0: u32,
        t1: u32,
        dst: u32,
        row: u32,
    ) {
        let api = SrcKind::Eltwise(op, bcast).api();
        if row >= 32 || (row != 0 && bcast != BroadcastType::Row) {
            self.ctx.fail(format!(
                "{api}: bcast_row_idx {row}: a row of the broadcast tile (0..32), for a row broadcast only"
            ));
        }
        match self.role {
            ComputeRole::Unpack => {
                self.unpack(api, SrcKind::Eltwise(op, bcast), &[(cb0.cb_index(), t0), (cb1.cb_index(), t1)], usize::MAX)
            }
            ComputeRole::Math => {
                self.require(api, FpuConfig::Eltwise(Some(op)));
                let slot = self.math_slot(api, dst);
                let e = self.take(api, |k| *k == SrcKind::Eltwise(op, bcast));
                self.ctx.spend(self.cost().eltwise(op));
                let r = row as usize;
                self.dst_write(slot, |d, fp32, ph| {
                    math::eltwise_row(d, &e.tiles[0], &e.tiles[1], op, bcast, r, ph, fp32)
                });
                self.state(|s| s.recycle(e.tiles));
            }
            ComputeRole::Pack => {}
        }
    }

    /// `unary_bcast<bcast>(cb, tile, dst)`: a CB tile into DST, broadcast (after `unary_bcast_init`, which is
    /// the copy's init); timed as `copy_tile`.
    pub fn unary_bcast(&mut self, bcast: BroadcastType, cb: impl CbId, tile: u32, dst: u32) {
        if bcast == BroadcastType::None {
            return self.copy_tile(cb, tile, dst);
        }
        match self.role {
            ComputeRole::Unpack => self.unpack("unary_bcast", SrcKind::Copy, &[(cb.cb_index(), tile)], usize::MAX),
            ComputeRole::Math => {
                self.require("unary_bcast", FpuConfig::Copy);
                let slot = self.math_slot("unary_bcast", dst);
                let e = self.take("unary_bcast", |k| *k == SrcKind::Copy);
                self.ctx.spend(self.cost().datacopy());
                self.dst_overwrite(slot, |d, fp32, _| math::bcast_to_dst(d, &e.tiles[0], bcast, fp32));
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
                self.ctx.spend(self.cost().eltwise(op));
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
                if e.count != 2 {
                    self.ctx.fail(format!(
                        "matmul_tiles: the compute threads are out of step ({} tiles unpacked)",
                        e.count
                    ));
                }
                self.ctx.spend(self.cost().matmul(1));
                if self.data {
                    let (fp32, ph) = (self.settings.fp32_dest_acc, self.settings.fidelity_phases);
                    self.state(|s| s.matmul(slot, &e.tiles[0], &e.tiles[1], ph, fp32));
                }
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
                let mut reads = std::mem::take(&mut self.unpack_reads);
                reads.clear();
                reads.extend((0..rt_dim).map(|r| (in0.cb_index(), t0 + r * kt_dim)));
                reads.extend((0..ct_dim).map(|c| (in1.cb_index(), t1 + c)));
                // The in1 tiles follow the rt in0 tiles; only they are transposed.
                let from = if transpose != 0 { rt_dim as usize } else { usize::MAX };
                // The first product needs in0's first tile and in1's first tile.
                let head = (rt_dim * ct_dim > 1).then_some([0, rt_dim as usize]);
                self.unpack_streamed(api, SrcKind::Matmul, &reads, from, head);
                self.unpack_reads = reads;
            }
            ComputeRole::Math => {
                self.require(api, FpuConfig::Matmul);
                self.dst_check(api, dst + rt_dim * ct_dim - 1);
                let e = self.take(api, |k| *k == SrcKind::Matmul);
                if e.count != (rt_dim + ct_dim) as usize {
                    self.ctx.fail(format!("{api}: the compute threads are out of step ({} tiles unpacked)", e.count));
                }
                // The last product waits for the set's last tile.
                let all = self.cost().matmul(rt_dim * ct_dim);
                let last = (e.ready + self.cost().matmul(1)).0.saturating_sub(self.ctx.now().0);
                self.ctx.spend(all.max(Cycles(last)));
                let base = self.math_slot(api, dst);
                let (fp32, ph) = (self.settings.fp32_dest_acc, self.settings.fidelity_phases);
                let data = self.data;
                self.state(|s| {
                    if !data {
                        return;
                    }
                    for r in 0..rt_dim as usize {
                        for c in 0..ct_dim as usize {
                            let slot = base + r * ct_dim as usize + c;
                            s.matmul(slot, &e.tiles[r], &e.tiles[rt_dim as usize + c], ph, fp32);
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
                self.ctx.spend(self.cost().reduce());
                let fp32 = self.settings.fp32_dest_acc;
                let data = self.data;
                self.state(|s| {
                    if !data {
                        return;
                    }
                    let first = !s.dst_was_written(slot);
                    math::reduce(&mut s.dst_mut(slot), &e.tiles[0], &e.tiles[1], pool, dim, first, fp32);
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
                self.ctx.spend(self.cost().transpose());
                self.dst_overwrite(slot, |d, fp32, _| {
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
}
