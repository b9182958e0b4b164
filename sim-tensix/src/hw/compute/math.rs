//! Tile math as the Tensix FPU and SFPU compute it, on row-major 32×32 tiles of f32.
//!
//! Precision model (see docs/architecture-notes.md, "Numerics"):
//! - Source registers hold operands at TF32 precision (10 mantissa bits); bf16 inputs are exact.
//! - The multiplier works in fidelity phases: SrcA's significand splits into 5 high bits (hidden + 4) and
//!   the rest, SrcB's into 7 high bits (hidden + 6) and the rest. LoFi multiplies high × high; HiFi2 adds
//!   SrcA-low × SrcB-high; HiFi3 adds SrcA-high × SrcB-low; HiFi4 all four (the exact product).
//! - DST holds bfloat16 unless fp32 accumulation is on; a matmul accumulates 16 products of a K-half in f32
//!   and rounds into DST after each half (the FPU's 8×16 × 16×16 step).
//! - Results can differ from silicon in the last bit where the hardware's internal rounding differs
//!   (unpacker TF32 conversion, multiplier phase truncation, SFPU polynomial details).

pub use super::sfpu_math::{ScalarOp, SfpuBinary, SfpuUnary, sfpu_binary, sfpu_unary};

/// A row-major 32×32 tile.
pub type Tile = [f32; 1024];

pub use layout::tile::{bf16_faces_to_rows, bf16_rows_to_faces, faces_to_rows, rows_to_faces};

/// Keep `bits` mantissa bits of `v` (truncating the rest).
#[inline]
pub fn keep_mantissa(v: f32, bits: u32) -> f32 {
    let mask = !((1u32 << (23 - bits)) - 1);
    f32::from_bits(v.to_bits() & mask)
}

/// Round `v` to `bits` mantissa bits, ties to even.
#[inline]
pub fn round_mantissa(v: f32, bits: u32) -> f32 {
    if !v.is_finite() {
        return v;
    }
    let drop = 23 - bits;
    let b = v.to_bits();
    let half = 1u32 << (drop - 1);
    let lsb = (b >> drop) & 1;
    f32::from_bits(b.wrapping_add(half - 1 + lsb) & !((1u32 << drop) - 1))
}

pub use layout::format::round_bf16;

/// Round every value of a slice to bfloat16 (as [`round_bf16`], written branch-free so it vectorises).
pub fn round_slice_bf16(v: &mut [f32]) {
    for x in v {
        *x = sim_core::simd::round_bf16(*x);
    }
}

/// A datacopy into DST: `src` as it is (32-bit DST) or rounded to bfloat16 (16-bit DST).
pub fn copy_to_dst(dst: &mut Tile, src: &Tile, fp32_dest: bool) {
    if fp32_dest {
        dst.copy_from_slice(src);
    } else {
        sim_core::simd::copy_round_bf16(dst, src);
    }
}

/// A datacopy into DST of a broadcast of `src`: its row 0 down every row (`Row`), its column 0 across every
/// column (`Col`) or its element (0,0) everywhere (`Scalar`) — `unary_bcast`.
pub fn bcast_to_dst(dst: &mut Tile, src: &Tile, bcast: BroadcastType, fp32_dest: bool) {
    for i in 0..32 {
        for j in 0..32 {
            let v = match bcast {
                BroadcastType::None => src[i * 32 + j],
                BroadcastType::Row => src[j],
                BroadcastType::Col => src[i * 32],
                BroadcastType::Scalar => src[0],
            };
            dst[i * 32 + j] = if fp32_dest { v } else { round_bf16(v) };
        }
    }
}

/// Operands as the source registers hold them (TF32: 10 mantissa bits).
pub fn to_src_precision(t: &mut Tile) {
    for x in t.iter_mut() {
        *x = round_mantissa(*x, 10);
    }
}

/// Mantissa bits of SrcA's and SrcB's high parts in the fidelity model.
pub const SRCA_HIGH_BITS: u32 = 4;
/// See [`SRCA_HIGH_BITS`].
pub const SRCB_HIGH_BITS: u32 = 6;

/// The high part (`bits` mantissa bits) of every value of `t`, into `out` (for fidelity phases).
pub fn high_part(t: &Tile, bits: u32, out: &mut Tile) {
    for (d, s) in out.iter_mut().zip(t.iter()) {
        *d = keep_mantissa(*s, bits);
    }
}

/// `c += a · b` over the K range `k0..k0+16`, accumulating each output row in f32 (and rounding the result
/// to bfloat16 when `round`).
#[inline]
fn mm_half(c: &mut Tile, a: &Tile, b: &Tile, k0: usize, round: bool) {
    if round {
        sim_core::simd::matmul_acc::<32, true>(c, 32, &a[k0..], 32, &b[k0 * 32..], 32, 32, 16);
    } else {
        sim_core::simd::matmul_acc::<32, false>(c, 32, &a[k0..], 32, &b[k0 * 32..], 32, 32, 16);
    }
}

/// `dst += a · b` as the FPU computes a tile matmul: in0 (`a`, M×K) goes to SrcB and in1 (`b`, K×N) to
/// SrcA; `phases` fidelity phases (1 LoFi … 4 HiFi4) decide which parts of the operands are multiplied; DST
/// rounds to bfloat16 after each K-half unless `fp32_dest`.
pub fn matmul(dst: &mut Tile, a: &Tile, b: &Tile, phases: u32, fp32_dest: bool) {
    if phases >= 4 {
        return accumulate_halves(dst, &[(a, b)], fp32_dest);
    }
    let mut a_hi = [0f32; 1024];
    high_part(a, SRCB_HIGH_BITS, &mut a_hi);
    if phases == 2 {
        return accumulate_halves(dst, &[(&a_hi, b)], fp32_dest);
    }
    let mut b_hi = [0f32; 1024];
    high_part(b, SRCA_HIGH_BITS, &mut b_hi);
    if phases <= 1 {
        return accumulate_halves(dst, &[(&a_hi, &b_hi)], fp32_dest);
    }
    let mut a_lo = *a;
    for (l, h) in a_lo.iter_mut().zip(a_hi.iter()) {
        *l -= *h;
    }
    accumulate_halves(dst, &[(&a_hi, b), (&a_lo, &b_hi)], fp32_dest);
}

/// `dst += Σ x·y` over `terms`, one K-half at a time, rounding DST to bfloat16 after each half unless
/// `fp32_dest`.
fn accumulate_halves(dst: &mut Tile, terms: &[(&Tile, &Tile)], fp32_dest: bool) {
    for k0 in [0, 16] {
        // DST rounds once per K-half, after every term: fused into the last term's write-back.
        for (i, (x, y)) in terms.iter().enumerate() {
            mm_half(dst, x, y, k0, !fp32_dest && i + 1 == terms.len());
        }
    }
}

/// Element-wise FPU operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EltwiseOp {
    /// a + b.
    Add,
    /// a − b.
    Sub,
    /// a × b.
    Mul,
}

/// How the second operand is broadcast.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BroadcastType {
    /// No broadcast.
    #[default]
    None,
    /// Row 0 of B to every row.
    Row,
    /// Column 0 of B to every column.
    Col,
    /// B\[0\]\[0\] to every element.
    Scalar,
}

fn mul_phases(a: f32, b: f32, phases: u32) -> f32 {
    // SrcA = a (5 high bits), SrcB = b (7 high bits).
    match phases {
        1 => keep_mantissa(a, SRCA_HIGH_BITS) * keep_mantissa(b, SRCB_HIGH_BITS),
        2 => a * keep_mantissa(b, SRCB_HIGH_BITS),
        3 => {
            let ah = keep_mantissa(a, SRCA_HIGH_BITS);
            let bh = keep_mantissa(b, SRCB_HIGH_BITS);
            a * bh + ah * (b - bh)
        }
        _ => a * b,
    }
}

/// `dst = a op bcast(b)`.
pub fn eltwise(dst: &mut Tile, a: &Tile, b: &Tile, op: EltwiseOp, bcast: BroadcastType, phases: u32, fp32_dest: bool) {
    eltwise_row(dst, a, b, op, bcast, 0, phases, fp32_dest);
}

/// `dst = a op bcast(b)`, a row broadcast taking row `row` (0..32) of `b`.
#[allow(clippy::too_many_arguments)]
pub fn eltwise_row(
    dst: &mut Tile,
    a: &Tile,
    b: &Tile,
    op: EltwiseOp,
    bcast: BroadcastType,
    row: usize,
    phases: u32,
    fp32_dest: bool,
) {
    for i in 0..32 {
        for j in 0..32 {
            let bv = match bcast {
                BroadcastType::None => b[i * 32 + j],
                BroadcastType::Row => b[row * 32 + j],
                BroadcastType::Col => b[i * 32],
                BroadcastType::Scalar => b[0],
            };
            let av = a[i * 32 + j];
            let v = match op {
                EltwiseOp::Add => av + bv,
                EltwiseOp::Sub => av - bv,
                EltwiseOp::Mul => mul_phases(av, bv, phases),
            };
            dst[i * 32 + j] = if fp32_dest { v } else { round_bf16(v) };
        }
    }
}

/// Reduction kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PoolType {
    /// Sum.
    Sum,
    /// Average (a sum scaled by the scaler, which holds 1/N).
    Avg,
    /// Maximum.
    Max,
}

/// What a reduction collapses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReduceDim {
    /// Along each row: one value per row, in column 0.
    Row,
    /// Along each column: one value per column, in row 0.
    Col,
    /// The whole tile, into element (0,0).
    Scalar,
}

/// `dst (op)= reduce(a) × scaler[0][0]`; the first reduction into a DST tile since it was cleared sets it.
pub fn reduce(dst: &mut Tile, a: &Tile, scaler: &Tile, pool: PoolType, dim: ReduceDim, first: bool, fp32_dest: bool) {
    let s = scaler[0];
    let combine = |old: f32, new: f32| -> f32 {
        let v = match (pool, first) {
            (_, true) => new,
            (PoolType::Max, false) => old.max(new),
            (_, false) => old + new,
        };
        if fp32_dest { v } else { round_bf16(v) }
    };
    let fold = |it: &mut dyn Iterator<Item = f32>| -> f32 {
        match pool {
            PoolType::Max => it.fold(f32::NEG_INFINITY, f32::max) * s,
            _ => it.map(|v| v * s).sum::<f32>(),
        }
    };
    match dim {
        ReduceDim::Row => {
            for i in 0..32 {
                let v = fold(&mut a[i * 32..i * 32 + 32].iter().copied());
                dst[i * 32] = combine(dst[i * 32], v);
            }
        }
        ReduceDim::Col => {
            for j in 0..32 {
                let v = fold(&mut (0..32).map(|i| a[i * 32 + j]));
                dst[j] = combine(dst[j], v);
            }
        }
        ReduceDim::Scalar => {
            let v = fold(&mut a.iter().copied());
            dst[0] = combine(dst[0], v);
        }
    }
}

/// `dst = aᵀ`.
pub fn transpose(dst: &mut Tile, a: &Tile) {
    for i in 0..32 {
        for j in 0..32 {
            dst[j * 32 + i] = a[i * 32 + j];
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::hw::compute) fn tile(f: impl Fn(usize, usize) -> f32) -> Box<Tile> {
        let mut t = Box::new([0f32; 1024]);
        for i in 0..32 {
            for j in 0..32 {
                t[i * 32 + j] = f(i, j);
            }
        }
        t
    }

    #[test]
    fn face_order_round_trips() {
        let rows = tile(|i, j| (i * 32 + j) as f32);
        let mut faces = vec![0f32; 1024];
        rows_to_faces(&rows, &mut faces);
        assert_eq!(faces[256], 16.0, "face 1 starts at row 0, column 16");
        assert_eq!(faces[512], 512.0, "face 2 starts at row 16, column 0");
        let mut back = [0f32; 1024];
        faces_to_rows(&faces, &mut back);
        assert_eq!(back[..], rows[..]);
    }

    #[test]
    fn rounding_helpers() {
        assert_eq!(round_bf16(1.0 + 1.0 / 256.0), 1.0);
        assert_eq!(round_bf16(1.0 + 3.0 / 256.0), 1.0 + 1.0 / 64.0);
        assert_eq!(keep_mantissa(1.0 + 1.0 / 32.0 + 1.0 / 64.0, 4), 1.0 + 1.0 / 16.0 - 1.0 / 16.0 + 0.0 + 0.0);
        assert_eq!(round_mantissa(1.5 + 1.0 / 4096.0, 10), 1.5);
    }

    #[test]
    fn hifi4_matmul_is_exact_for_small_integers_and_fidelity_reduces_precision() {
        let a = tile(|i, j| ((i + 2 * j) % 7) as f32);
        let b = tile(|i, j| ((3 * i + j) % 5) as f32 - 2.0);
        let mut want = [0f32; 1024];
        for i in 0..32 {
            for j in 0..32 {
                want[i * 32 + j] = (0..32).map(|k| a[i * 32 + k] * b[k * 32 + j]).sum();
            }
        }
        let mut c = [0f32; 1024];
        matmul(&mut c, &a, &b, 4, false);
        assert_eq!(c[..], want[..], "integers up to 256 are exact in bf16 DST");
        // Values with many mantissa bits: LoFi loses precision, HiFi4 keeps it (fp32 DST).
        let a = tile(|i, j| 1.0 + ((i * 7 + j * 3) % 127) as f32 / 128.0);
        let b = tile(|i, j| 1.0 + ((i * 5 + j * 11) % 127) as f32 / 128.0);
        let exact = {
            let mut c = [0f32; 1024];
            matmul(&mut c, &a, &b, 4, true);
            c
        };
        let err = |p: u32| {
            let mut c = [0f32; 1024];
            matmul(&mut c, &a, &b, p, true);
            c.iter().zip(exact.iter()).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
        };
        assert!(err(1) > err(2) && err(2) >= err(3) && err(3) > err(4), "{} {} {} {}", err(1), err(2), err(3), err(4));
        assert_eq!(err(4), 0.0);
    }

    #[test]
    fn broadcasts_reductions_and_transpose() {
        let a = tile(|i, j| (i * 32 + j) as f32);
        let b = tile(|i, j| (i + 100 * j) as f32);
        let mut d = [0f32; 1024];
        eltwise(&mut d, &a, &b, EltwiseOp::Add, BroadcastType::Col, 4, true);
        assert_eq!(d[5 * 32 + 7], (5 * 32 + 7) as f32 + 5.0, "column 0 of b, row 5");
        eltwise(&mut d, &a, &b, EltwiseOp::Sub, BroadcastType::Row, 4, true);
        assert_eq!(d[5 * 32 + 7], (5 * 32 + 7) as f32 - 700.0, "row 0 of b, column 7");
        let ones = tile(|_, _| 1.0);
        let mut r = [0f32; 1024];
        reduce(&mut r, &a, &ones, PoolType::Sum, ReduceDim::Row, true, true);
        assert_eq!(r[3 * 32], (0..32).map(|j| (3 * 32 + j) as f32).sum::<f32>());
        reduce(&mut r, &a, &ones, PoolType::Max, ReduceDim::Col, true, true);
        assert_eq!(r[4], (31 * 32 + 4) as f32);
        let mut t = [0f32; 1024];
        transpose(&mut t, &a);
        assert_eq!(t[2 * 32 + 9], a[9 * 32 + 2]);
    }
}
