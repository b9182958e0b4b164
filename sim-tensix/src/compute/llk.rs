//! The low-level calls custom compute kernels make directly (seed 002's custom SFPU kernel): unpacking a
//! tile from each of two CBs into SrcA and SrcB (`llk_unpack_AB`), and MATH's datacopies from either
//! source register into DST (`llk_math_eltwise_unary_datacopy<A2D|B2D>`).

use super::*;

/// Which source register a datacopy moves into DST (`DataCopyType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataCopyType {
    /// SrcA to DST.
    A2D,
    /// SrcB to DST.
    B2D,
}

impl Compute<'_> {
    /// `llk_unpack_AB_init<BroadcastType::NONE>(cb0, cb1)` (UNPACK): the unpackers read `cb0` into SrcA and
    /// `cb1` into SrcB.
    pub fn llk_unpack_ab_init(&mut self, cb0: impl CbId, cb1: impl CbId) {
        if self.role != ComputeRole::Unpack {
            return;
        }
        self.configure_formats("llk_unpack_AB_init", Some(cb0.cb_index()), Some(cb1.cb_index()), None);
        self.ctx.spend(self.cost().init());
    }

    /// `llk_unpack_AB(cb0, cb1, t0, t1)` (UNPACK): tile `t0` of `cb0` into SrcA and `t1` of `cb1` into SrcB,
    /// as one operand set.
    pub fn llk_unpack_ab(&mut self, cb0: impl CbId, cb1: impl CbId, t0: u32, t1: u32) {
        if self.role != ComputeRole::Unpack {
            return;
        }
        self.unpack("llk_unpack_AB", SrcKind::UnpackAB, &[(cb0.cb_index(), t0), (cb1.cb_index(), t1)], usize::MAX);
    }

    /// `llk_math_eltwise_unary_datacopy_init<A2D|B2D, …>(…, cb)` (MATH).
    pub fn llk_math_eltwise_unary_datacopy_init(&mut self, _kind: DataCopyType, _cb: impl CbId) {
        if self.role != ComputeRole::Math {
            return;
        }
        self.set_config(FpuConfig::Copy);
    }

    /// `llk_math_eltwise_unary_datacopy<A2D|B2D, …>(dst)` (MATH): the SrcA or SrcB tile of the operand set
    /// `llk_unpack_AB` unpacked into DST tile `dst`. The set is consumed once both registers were copied
    /// (or when the same register is copied again, which takes the next set).
    pub fn llk_math_eltwise_unary_datacopy(&mut self, kind: DataCopyType, dst: u32) {
        if self.role != ComputeRole::Math {
            return;
        }
        let api = "llk_math_eltwise_unary_datacopy";
        self.require(api, FpuConfig::Copy);
        let slot = self.math_slot(api, dst);
        let side = kind as usize;
        if self.held_ab.as_ref().is_none_or(|(_, used)| used[side]) {
            if let Some((e, _)) = self.held_ab.take() {
                self.state(|s| s.recycle(e.tiles));
            }
            let e = self.take(api, |k| *k == SrcKind::UnpackAB);
            self.held_ab = Some((e, [false; 2]));
        }
        self.ctx.spend(self.cost().datacopy());
        let (e, used) = self.held_ab.as_mut().expect("held");
        used[side] = true;
        // (Timing-only runs keep no operand values, and write none into DST.)
        let tile = e.tiles.get(side).cloned();
        let done = used[0] && used[1];
        if let Some(tile) = tile {
            self.dst_overwrite(slot, |d, fp32, _| math::copy_to_dst(d, &tile, fp32));
        }
        if done {
            let (e, _) = self.held_ab.take().expect("held");
            self.state(|s| s.recycle(e.tiles));
        }
    }
}
