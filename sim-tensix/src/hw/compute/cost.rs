//! Every cycle formula of the compute engines, in one place: what each unpack, FPU, SFPU and pack operation
//! costs the TRISC thread that issues it, from the per-arch [`ComputeParams`] and the kernel's
//! [`ComputeSettings`] (math fidelity, approximate mode).

use super::math::{EltwiseOp, SfpuBinary, SfpuUnary};
use super::state::ComputeSettings;
use crate::params::ComputeParams;
use sim_core::Cycles;

/// The cost model of one compute kernel.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cost<'a> {
    pub c: &'a ComputeParams,
    pub s: ComputeSettings,
}

impl Cost<'_> {
    /// An `*_init` call (reconfiguring unpacker, math and packer registers).
    pub fn init(&self) -> Cycles {
        self.c.init
    }

    /// A `tile_regs_*` call.
    pub fn sync(&self) -> Cycles {
        self.c.sync
    }

    /// Hand-off latency between the TRISC threads.
    pub fn handoff(&self) -> Cycles {
        self.c.handoff
    }

    /// UNPACK: one operand set of `tiles` tiles, `bytes` in all (both unpackers work when there are two
    /// operands or more).
    pub fn unpack(&self, tiles: usize, bytes: u64) -> Cycles {
        let rate = if tiles > 1 { self.c.unpack_ab_bytes_per_cycle } else { self.c.unpack_bytes_per_cycle };
        Cycles(self.c.unpack_base.0 * tiles as u64 + bytes.div_ceil(rate.max(1)))
    }

    /// UNPACK: one tile of row-major data (tilize).
    pub fn unpack_row_major(&self, tile_bytes: u64) -> Cycles {
        self.c.unpack_base + Cycles(tile_bytes.div_ceil(self.c.unpack_bytes_per_cycle.max(1)))
    }

    /// MATH: a tile moved into DST (copy, tilize, untilize).
    pub fn datacopy(&self) -> Cycles {
        self.c.math_base + self.c.datacopy
    }

    /// MATH: a transposed tile into DST (two passes of the datacopy).
    pub fn transpose(&self) -> Cycles {
        self.c.math_base + self.c.datacopy * 2
    }

    /// MATH: an element-wise tile operation; a multiply takes one pass per fidelity phase.
    pub fn eltwise(&self, op: EltwiseOp) -> Cycles {
        let phases = if op == EltwiseOp::Mul { self.s.fidelity_phases as u64 } else { 1 };
        self.c.math_base + self.c.eltwise * phases
    }

    /// MATH: `tiles` 32×32×32 tile products at the kernel's fidelity.
    pub fn matmul(&self, tiles: u32) -> Cycles {
        let phases = self.s.fidelity_phases as u64;
        let overhead = Cycles((phases * self.c.matmul_phase_overhead_millicycles).div_ceil(1000));
        let per_tile = self.c.matmul_per_phase * phases + self.c.matmul_per_tile + overhead;
        self.c.math_base + per_tile * tiles as u64
    }

    /// MATH: one tile reduction.
    pub fn reduce(&self) -> Cycles {
        self.c.math_base + self.c.reduce
    }

    /// MATH: an SFPU unary operation over one tile.
    pub fn sfpu_unary(&self, op: SfpuUnary) -> Cycles {
        let c = &self.c.sfpu;
        let pick = |p: (u64, u64)| if self.s.approx { p.1 } else { p.0 };
        let instr = match op {
            SfpuUnary::Exp => pick(c.exp),
            SfpuUnary::Recip => pick(c.recip),
            SfpuUnary::Sqrt => pick(c.sqrt),
            SfpuUnary::Rsqrt => pick(c.rsqrt),
            SfpuUnary::Log => pick(c.log),
            SfpuUnary::Sigmoid => pick(c.sigmoid),
            SfpuUnary::Tanh => pick(c.tanh),
            SfpuUnary::Gelu => pick(c.gelu),
            SfpuUnary::Relu | SfpuUnary::Abs | SfpuUnary::Square | SfpuUnary::Fill(_) | SfpuUnary::Negative => c.simple,
            // An exponential, a logarithm and the threshold compare (no table of its own).
            SfpuUnary::Softplus { .. } => pick(c.exp) + pick(c.log) + c.simple,
            // Power by squaring: one multiply step per bit of the exponent.
            SfpuUnary::Power(p) => c.power_per_mul * (32 - p.max(1).leading_zeros()) as u64,
            // Compositions of the ones with a table (no table of their own): a sigmoid and a multiply; an
            // exponential and an add or a multiply; a compare and select, or one operation with a constant.
            SfpuUnary::Silu => pick(c.sigmoid) + c.simple,
            SfpuUnary::Exp2 => pick(c.exp),
            SfpuUnary::Expm1 | SfpuUnary::ExpScaled(_) => pick(c.exp) + c.simple,
            SfpuUnary::ReluMin(_)
            | SfpuUnary::ReluMax(_)
            | SfpuUnary::LeakyRelu(_)
            | SfpuUnary::Sign
            | SfpuUnary::Signbit
            | SfpuUnary::Heaviside(_)
            | SfpuUnary::UnaryMax(_)
            | SfpuUnary::UnaryMin(_)
            | SfpuUnary::Scalar(..) => c.simple,
        };
        self.c.math_base + self.c.sfpu_per_instr * instr
    }

    /// MATH: an SFPU binary operation between two DST tiles.
    pub fn sfpu_binary(&self, op: SfpuBinary) -> Cycles {
        let c = &self.c.sfpu;
        let instr = match op {
            SfpuBinary::Div | SfpuBinary::DivNoNan => c.div,
            // a^b = e^(b·ln a): a logarithm, a multiply and an exponential (no table of its own).
            SfpuBinary::Pow => c.log.0 + c.binary + c.exp.0,
            _ => c.binary,
        };
        self.c.math_base + self.c.sfpu_per_instr * instr
    }

    /// PACK: one tile of `bytes` into a CB.
    pub fn pack(&self, bytes: u64) -> Cycles {
        self.c.pack_base + Cycles(bytes.div_ceil(self.c.pack_bytes_per_cycle.max(1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas() {
        let c = ComputeParams {
            unpack_base: Cycles(8),
            unpack_bytes_per_cycle: 64,
            unpack_ab_bytes_per_cycle: 80,
            math_base: Cycles(4),
            matmul_per_phase: Cycles(16),
            matmul_per_tile: Cycles(3),
            matmul_phase_overhead_millicycles: 0,
            eltwise: Cycles(8),
            pack_base: Cycles(8),
            pack_bytes_per_cycle: 64,
            ..ComputeParams::default()
        };
        let s = ComputeSettings { fidelity_phases: 4, ..ComputeSettings::default() };
        let k = Cost { c: &c, s };
        assert_eq!(k.unpack(2, 4096), Cycles(16 + 52));
        assert_eq!(k.unpack(1, 2048), Cycles(8 + 32));
        assert_eq!(k.matmul(2), Cycles(4 + (16 * 4 + 3) * 2));
        assert_eq!(k.eltwise(EltwiseOp::Mul), Cycles(4 + 32));
        assert_eq!(k.eltwise(EltwiseOp::Add), Cycles(12));
        assert_eq!(k.pack(1088), Cycles(8 + 17));
    }

    /// The math cost beyond the FPU's passes can grow with the fidelity phases (issue 51's refit): 3.25
    /// cycles per phase, rounded up once per product.
    #[test]
    fn a_phase_overhead_grows_with_the_fidelity() {
        let c = ComputeParams {
            matmul_per_phase: Cycles(16),
            matmul_per_tile: Cycles(0),
            matmul_phase_overhead_millicycles: 3250,
            ..ComputeParams::default()
        };
        let per = |phases| {
            let s = ComputeSettings { fidelity_phases: phases, ..ComputeSettings::default() };
            Cost { c: &c, s }.matmul(1).0
        };
        assert_eq!([per(1), per(2), per(4)], [16 + 4, 32 + 7, 64 + 13]);
    }
}
