//! Vectorised f32 loops for the hot paths of tile math and of CPU references: compiled for AVX-512 or AVX2
//! when the host has them (checked at run time) and for the baseline target otherwise. Every version
//! performs the same IEEE operations in the same order — a multiply, then an add, never fused — so results
//! are bit-identical whichever runs.
#![allow(unsafe_code)]

#[inline(always)]
fn axpy_body(y: &mut [f32], a: f32, x: &[f32]) {
    for (y, x) in y.iter_mut().zip(x) {
        *y += a * x;
    }
}

/// The shared loop of [`matmul_acc`] (`FRESH`: sums start at zero and are added to C at the end) and
/// [`matmul_into`] (sums start from C). Rows are taken four at a time so that the accumulators of four rows
/// form independent add chains (each output's products are still summed in order of k).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn matmul_body<const N: usize, const FRESH: bool, const ROUND: bool>(
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
                        acc_r[j] += aik * brow[j];
                    }
                }
            }
        } else {
            for kk in 0..k {
                let brow: &[f32; N] = b[kk * ldb..kk * ldb + N].try_into().expect("row of N");
                for (r, acc_r) in acc.iter_mut().enumerate().take(rows) {
                    let aik = a[(i + r) * lda + kk];
                    for j in 0..N {
                        acc_r[j] += aik * brow[j];
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

#[cfg(target_arch = "x86_64")]
mod avx2 {
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn axpy(y: &mut [f32], a: f32, x: &[f32]) {
        super::axpy_body(y, a, x)
    }

    #[allow(clippy::too_many_arguments)]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn matmul<const N: usize, const FRESH: bool, const ROUND: bool>(
        c: &mut [f32],
        ldc: usize,
        a: &[f32],
        lda: usize,
        b: &[f32],
        ldb: usize,
        m: usize,
        k: usize,
    ) {
        super::matmul_body::<N, FRESH, ROUND>(c, ldc, a, lda, b, ldb, m, k)
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    #[allow(clippy::too_many_arguments)]
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn matmul<const N: usize, const FRESH: bool, const ROUND: bool>(
        c: &mut [f32],
        ldc: usize,
        a: &[f32],
        lda: usize,
        b: &[f32],
        ldb: usize,
        m: usize,
        k: usize,
    ) {
        super::matmul_body::<N, FRESH, ROUND>(c, ldc, a, lda, b, ldb, m, k)
    }
}

/// Whether the host has AVX-512F (checked once; the answer is cached by the standard library).
#[inline]
fn has_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx512f")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[inline]
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `y[j] += a · x[j]` over the common length.
pub fn axpy(y: &mut [f32], a: f32, x: &[f32]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the host supports AVX2 (checked above); the function is otherwise safe.
        return unsafe { avx2::axpy(y, a, x) };
    }
    axpy_body(y, a, x)
}

/// `x` rounded to bfloat16 precision (nearest, ties to even; infinities and NaNs kept), as an f32:
/// branch-free, so loops of it vectorise.
#[inline(always)]
pub fn round_bf16(x: f32) -> f32 {
    let b = x.to_bits();
    let rounded = b.wrapping_add(0x7fff + ((b >> 16) & 1)) & 0xffff_0000;
    let special = b & 0x7f80_0000 == 0x7f80_0000;
    f32::from_bits(if special { b } else { rounded })
}

/// `C += A · B` for row-major blocks with leading dimensions `ldc`, `lda`, `ldb`: C is `m × N`, A `m × k`,
/// B `k × N`. Each output's `k` products are summed in f32, in order of k, starting from zero, and the sum
/// is then added to C — and rounded to bfloat16 when `ROUND` (the FPU writing a 16-bit DST).
#[allow(clippy::too_many_arguments)]
pub fn matmul_acc<const N: usize, const ROUND: bool>(
    c: &mut [f32],
    ldc: usize,
    a: &[f32],
    lda: usize,
    b: &[f32],
    ldb: usize,
    m: usize,
    k: usize,
) {
    #[cfg(target_arch = "x86_64")]
    if has_avx512() {
        // SAFETY: the host supports AVX-512F (checked above); the function is otherwise safe.
        return unsafe { avx512::matmul::<N, true, ROUND>(c, ldc, a, lda, b, ldb, m, k) };
    }
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the host supports AVX2 (checked above); the function is otherwise safe.
        return unsafe { avx2::matmul::<N, true, ROUND>(c, ldc, a, lda, b, ldb, m, k) };
    }
    matmul_body::<N, true, ROUND>(c, ldc, a, lda, b, ldb, m, k)
}

/// `C += A · B` like [`matmul_acc`], but each output accumulates straight onto C: `((c + a₀b₀) + a₁b₁) + …`
/// in order of k — what a row-by-row `axpy` would compute, with C held in registers.
#[allow(clippy::too_many_arguments)]
pub fn matmul_into<const N: usize>(
    c: &mut [f32],
    ldc: usize,
    a: &[f32],
    lda: usize,
    b: &[f32],
    ldb: usize,
    m: usize,
    k: usize,
) {
    #[cfg(target_arch = "x86_64")]
    if has_avx512() {
        // SAFETY: the host supports AVX-512F (checked above); the function is otherwise safe.
        return unsafe { avx512::matmul::<N, false, false>(c, ldc, a, lda, b, ldb, m, k) };
    }
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the host supports AVX2 (checked above); the function is otherwise safe.
        return unsafe { avx2::matmul::<N, false, false>(c, ldc, a, lda, b, ldb, m, k) };
    }
    matmul_body::<N, false, false>(c, ldc, a, lda, b, ldb, m, k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_and_scalar_paths_agree_bit_for_bit() {
        let a: Vec<f32> = (0..32 * 32).map(|i| ((i * 37 % 101) as f32 - 50.0) / 7.3).collect();
        let b: Vec<f32> = (0..32 * 32).map(|i| ((i * 53 % 97) as f32 - 48.0) / 3.1).collect();
        let mut c1 = vec![0.5f32; 1024];
        let mut c2 = c1.clone();
        matmul_acc::<32, false>(&mut c1, 32, &a, 32, &b[..], 32, 32, 16);
        matmul_body::<32, true, false>(&mut c2, 32, &a, 32, &b[..], 32, 32, 16);
        assert_eq!(c1, c2);
        #[cfg(target_arch = "x86_64")]
        for (avx512, avx2) in [(has_avx512(), false), (false, has_avx2())] {
            let mut c3 = vec![0.5f32; 1024];
            if avx512 {
                // SAFETY: checked above.
                unsafe { avx512::matmul::<32, true, false>(&mut c3, 32, &a, 32, &b[..], 32, 32, 16) };
                assert_eq!(c3, c2, "AVX-512 path");
            } else if avx2 {
                // SAFETY: checked above.
                unsafe { avx2::matmul::<32, true, false>(&mut c3, 32, &a, 32, &b[..], 32, 32, 16) };
                assert_eq!(c3, c2, "AVX2 path");
            }
        }
        // A hand-computed entry.
        let want: f32 = (0..16).fold(0.0f32, |s, k| s + a[k] * b[k * 32]) + 0.5;
        assert_eq!(c1[0], want);
        // Rounding fused into the write-back equals rounding afterwards.
        let mut r1 = vec![0.5f32; 1024];
        let mut r2 = r1.clone();
        matmul_acc::<32, true>(&mut r1, 32, &a, 32, &b[..], 32, 32, 16);
        matmul_acc::<32, false>(&mut r2, 32, &a, 32, &b[..], 32, 32, 16);
        r2.iter_mut().for_each(|x| *x = round_bf16(*x));
        assert_eq!(r1, r2);
        let mut d1 = vec![0.25f32; 1024];
        let mut d2 = d1.clone();
        matmul_into::<32>(&mut d1, 32, &a, 32, &b, 32, 32, 32);
        for i in 0..32 {
            for kk in 0..32 {
                axpy_body(&mut d2[i * 32..i * 32 + 32], a[i * 32 + kk], &b[kk * 32..kk * 32 + 32]);
            }
        }
        assert_eq!(d1, d2, "matmul_into equals row-by-row axpy");
        let mut y1 = vec![1.0f32; 100];
        let mut y2 = y1.clone();
        axpy(&mut y1, 0.3, &a[..100]);
        axpy_body(&mut y2, 0.3, &a[..100]);
        assert_eq!(y1, y2);
    }
}
