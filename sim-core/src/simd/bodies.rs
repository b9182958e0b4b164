//! The portable loops of the vectorised kernels: what every path computes, compiled as they are for the
//! baseline target and, with the ISA enabled, for AVX2 and AVX-512 (see [`super`]).

use super::round_bf16;

#[inline(always)]
pub(super) fn axpy_body(y: &mut [f32], a: f32, x: &[f32]) {
    for (y, x) in y.iter_mut().zip(x) {
        *y += a * x;
    }
}

/// The loop of [`fill_indexed`].
#[inline(always)]
pub(super) fn fill_indexed_body<F: Fn(u64) -> f32>(out: &mut [f32], f: &F) {
    for (i, o) in out.iter_mut().enumerate() {
        *o = f(i as u64);
    }
}

/// The loop of [`widen_bf16_rows`]: row `r` of 16 little-endian bfloat16 values lands at `dst[map(r)..]`.
#[inline(always)]
pub(super) fn widen_bf16_body<F: Fn(usize) -> usize>(src: &[u8], dst: &mut [f32], map: &F) {
    for (r, row) in src.chunks_exact(32).enumerate() {
        let row: &[u8; 32] = row.try_into().expect("32-byte rows");
        let d = map(r);
        let out: &mut [f32; 16] = (&mut dst[d..d + 16]).try_into().expect("16 values");
        for j in 0..16 {
            out[j] = f32::from_bits(((row[2 * j] as u32) << 16) | ((row[2 * j + 1] as u32) << 24));
        }
    }
}

/// The loop of [`narrow_bf16_rows`]: row `r` of 16 bytes pairs comes from `src[map(r)..map(r) + 16]`.
#[inline(always)]
pub(super) fn narrow_bf16_rows_body<F: Fn(usize) -> usize>(src: &[f32], dst: &mut [u8], map: &F) {
    for (r, out) in dst.chunks_exact_mut(32).enumerate() {
        let s = map(r);
        narrow_bf16_body(&src[s..s + 16], out);
    }
}

/// The loop of [`narrow_bf16`].
#[inline(always)]
pub(super) fn narrow_bf16_body(src: &[f32], dst: &mut [u8]) {
    for (v, out) in src.iter().zip(dst.chunks_exact_mut(2)) {
        let b = v.to_bits();
        let rounded = b.wrapping_add(0x7fff + ((b >> 16) & 1)) >> 16;
        let nan = b & 0x7fff_ffff > 0x7f80_0000;
        let h = if nan { (b >> 16) | 0x40 } else { rounded } as u16;
        out.copy_from_slice(&h.to_le_bytes());
    }
}

/// The loop of [`copy_round_bf16`].
#[inline(always)]
pub(super) fn copy_round_bf16_body(dst: &mut [f32], src: &[f32]) {
    for (d, &x) in dst.iter_mut().zip(src) {
        *d = round_bf16(x);
    }
}

/// The shared loop of [`matmul_acc`] (`FRESH`: sums start at zero and are added to C at the end) and
/// [`matmul_into`] (sums start from C). Rows are taken four at a time so that the accumulators of four rows
/// form independent add chains (each output's products are still summed in order of k).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn matmul_body<const N: usize, const FRESH: bool, const ROUND: bool>(
    c: &mut [f32],
    ldc: usize,
    a: &[f32],
    lda: usize,
    b: &[f32],
    ldb: usize,
    m: usize,
    k: usize,
) {
    const R: usize = 4;
    let mut i = 0;
    while i < m {
        let rows = R.min(m - i);
        let mut acc = [[0f32; N]; R];
        if !FRESH {
            for r in 0..rows {
                acc[r].copy_from_slice(&c[(i + r) * ldc..(i + r) * ldc + N]);
            }
        }
        if rows == R {
            for kk in 0..k {
                let brow: &[f32; N] = b[kk * ldb..kk * ldb + N].try_into().expect("row of N");
                for (r, acc_r) in acc.iter_mut().enumerate() {
                    let aik = a[(i + r) * lda + kk];
                    for j in 0..N {
                        acc_r[j] = aik.mul_add(brow[j], acc_r[j]);
                    }
                }
            }
        } else {
            for kk in 0..k {
                let brow: &[f32; N] = b[kk * ldb..kk * ldb + N].try_into().expect("row of N");
                for (r, acc_r) in acc.iter_mut().enumerate().take(rows) {
                    let aik = a[(i + r) * lda + kk];
                    for j in 0..N {
                        acc_r[j] = aik.mul_add(brow[j], acc_r[j]);
                    }
                }
            }
        }
        for (r, acc_r) in acc.iter().enumerate().take(rows) {
            let crow: &mut [f32; N] = (&mut c[(i + r) * ldc..(i + r) * ldc + N]).try_into().expect("row of N");
            if FRESH {
                for j in 0..N {
                    let v = crow[j] + acc_r[j];
                    crow[j] = if ROUND { round_bf16(v) } else { v };
                }
            } else {
                *crow = *acc_r;
            }
        }
        i += rows;
    }
}
