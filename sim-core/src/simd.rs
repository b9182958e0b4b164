//! Vectorised f32 loops for the hot paths of tile math and of CPU references: compiled for AVX2 when the
//! host has it (checked once at run time) and for the baseline target otherwise. Both versions perform the
//! same IEEE operations in the same order — a multiply, then an add, never fused — so results are
//! bit-identical whichever runs.
#![allow(unsafe_code)]

#[inline(always)]
fn axpy_body(y: &mut [f32], a: f32, x: &[f32]) {
    for (y, x) in y.iter_mut().zip(x) {
        *y += a * x;
    }
}

/// The shared loop of [`matmul_acc`] (`FRESH`: sums start at zero and are added to C at the end) and
/// [`matmul_into`] (sums start from C).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn matmul_body<const N: usize, const FRESH: bool>(
    c: &mut [f32],
    ldc: usize,
    a: &[f32],
    lda: usize,
    b: &[f32],
    ldb: usize,
    m: usize,
    k: usize,
) {
    for i in 0..m {
        let mut acc = [0f32; N];
        if !FRESH {
            acc.copy_from_slice(&c[i * ldc..i * ldc + N]);
        }
        let arow = &a[i * lda..i * lda + k];
        for (kk, &aik) in arow.iter().enumerate() {
            let brow: &[f32; N] = b[kk * ldb..kk * ldb + N].try_into().expect("row of N");
            for j in 0..N {
                acc[j] += aik * brow[j];
            }
        }
        let crow: &mut [f32; N] = (&mut c[i * ldc..i * ldc + N]).try_into().expect("row of N");
        if FRESH {
            for j in 0..N {
                crow[j] += acc[j];
            }
        } else {
            *crow = acc;
        }
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
    pub(super) unsafe fn matmul<const N: usize, const FRESH: bool>(
        c: &mut [f32],
        ldc: usize,
        a: &[f32],
        lda: usize,
        b: &[f32],
        ldb: usize,
        m: usize,
        k: usize,
    ) {
        super::matmul_body::<N, FRESH>(c, ldc, a, lda, b, ldb, m, k)
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

/// `C += A · B` for row-major blocks with leading dimensions `ldc`, `lda`, `ldb`: C is `m × N`, A `m × k`,
/// B `k × N`. Each output's `k` products are summed in f32, in order of k, starting from zero, and the sum
/// is then added to C.
#[allow(clippy::too_many_arguments)]
pub fn matmul_acc<const N: usize>(
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
    if has_avx2() {
        // SAFETY: the host supports AVX2 (checked above); the function is otherwise safe.
        return unsafe { avx2::matmul::<N, true>(c, ldc, a, lda, b, ldb, m, k) };
    }
    matmul_body::<N, true>(c, ldc, a, lda, b, ldb, m, k)
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
    if has_avx2() {
        // SAFETY: the host supports AVX2 (checked above); the function is otherwise safe.
        return unsafe { avx2::matmul::<N, false>(c, ldc, a, lda, b, ldb, m, k) };
    }
    matmul_body::<N, false>(c, ldc, a, lda, b, ldb, m, k)
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
        matmul_acc::<32>(&mut c1, 32, &a, 32, &b[..], 32, 32, 16);
        matmul_body::<32, true>(&mut c2, 32, &a, 32, &b[..], 32, 32, 16);
        assert_eq!(c1, c2);
        // A hand-computed entry.
        let want: f32 = (0..16).fold(0.0f32, |s, k| s + a[k] * b[k * 32]) + 0.5;
        assert_eq!(c1[0], want);
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
