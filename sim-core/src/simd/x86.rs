//! The x86 paths of the vectorised kernels: the portable loops compiled with AVX2 or AVX-512 enabled, and
//! the 32-column matmul written out with intrinsics for each (see [`super`]).

use super::bodies::*;

/// `matmul32`, [`matmul_body`] for 32 columns written out for one vector ISA: `$rows` rows per pass keep
/// their 32 sums each in `32 / $lanes` registers, and each row of B is loaded once per pass (the compiler's
/// version of the body reloads B for every row, and loads, not multiply-adds, then bound the loop). Each
/// output still sees the same fused multiply-adds in order of k, so the result is bit-identical to the
/// generic body. `$feat` enables the ISA and FMA, `$base` the ISA alone (for the write-back helper).
macro_rules! matmul32_kernel {
    ($feat:literal, $base:literal, $vt:ident, $lanes:literal, $rows:literal, $zero:ident, $load:ident, $store:ident,
     $set1:ident, $fma:ident, $add:ident, $round:ident) => {
        #[allow(clippy::too_many_arguments)]
        #[target_feature(enable = $feat)]
        unsafe fn matmul32<const FRESH: bool, const ROUND: bool>(
            c: &mut [f32],
            ldc: usize,
            a: &[f32],
            lda: usize,
            b: &[f32],
            ldb: usize,
            m: usize,
            k: usize,
        ) {
            use std::arch::x86_64::*;
            const V: usize = 32 / $lanes;
            if m == 0 {
                return;
            }
            // Every access below stays inside these bounds.
            assert!(c.len() >= (m - 1) * ldc + 32, "matmul: C is too short");
            assert!(k == 0 || a.len() >= (m - 1) * lda + k, "matmul: A is too short");
            assert!(k == 0 || b.len() >= (k - 1) * ldb + 32, "matmul: B is too short");
            let (cp, ap, bp) = (c.as_mut_ptr(), a.as_ptr(), b.as_ptr());
            /// Store one accumulator to `dst` (`$lanes` writable floats), adding and rounding as the body does.
            #[inline]
            #[target_feature(enable = $base)]
            unsafe fn finish<const FRESH: bool, const ROUND: bool>(dst: *mut f32, acc: $vt) {
                // SAFETY: the caller passes `$lanes` valid floats at `dst`; the ISA is enabled by the caller.
                unsafe {
                    if FRESH {
                        let v = $add($load(dst), acc);
                        let v = if ROUND { $round(v) } else { v };
                        $store(dst, v);
                    } else {
                        $store(dst, acc);
                    }
                }
            }
            // SAFETY (every pointer below): rows i..i+$rows ≤ m or row i < m, columns < 32 and kk < k, all
            // within the lengths asserted above; loads and stores are unaligned.
            unsafe {
                let mut i = 0;
                while i + $rows <= m {
                    let mut acc = [[$zero(); V]; $rows];
                    if !FRESH {
                        for (r, acc_r) in acc.iter_mut().enumerate() {
                            let row = cp.add((i + r) * ldc);
                            for (j, v) in acc_r.iter_mut().enumerate() {
                                *v = $load(row.add($lanes * j));
                            }
                        }
                    }
                    for kk in 0..k {
                        // The rows' broadcasts first, then one B vector at a time: $rows + $rows·V + 1 registers.
                        let x: [$vt; $rows] = std::array::from_fn(|r| $set1(*ap.add((i + r) * lda + kk)));
                        #[allow(clippy::needless_range_loop)] // j picks B's vector and each row's accumulator
                        for j in 0..V {
                            let bj = $load(bp.add(kk * ldb + $lanes * j));
                            for (acc_r, &xr) in acc.iter_mut().zip(&x) {
                                acc_r[j] = $fma(xr, bj, acc_r[j]);
                            }
                        }
                    }
                    for (r, acc_r) in acc.iter().enumerate() {
                        let row = cp.add((i + r) * ldc);
                        for (j, v) in acc_r.iter().enumerate() {
                            finish::<FRESH, ROUND>(row.add($lanes * j), *v);
                        }
                    }
                    i += $rows;
                }
                while i < m {
                    let row = cp.add(i * ldc);
                    let mut acc = [$zero(); V];
                    if !FRESH {
                        for (j, v) in acc.iter_mut().enumerate() {
                            *v = $load(row.add($lanes * j));
                        }
                    }
                    for kk in 0..k {
                        let x = $set1(*ap.add(i * lda + kk));
                        for (j, v) in acc.iter_mut().enumerate() {
                            *v = $fma(x, $load(bp.add(kk * ldb + $lanes * j)), *v);
                        }
                    }
                    for (j, v) in acc.iter().enumerate() {
                        finish::<FRESH, ROUND>(row.add($lanes * j), *v);
                    }
                    i += 1;
                }
            }
        }
    };
}
use matmul32_kernel;

/// One ISA's entry points: the portable loops of the bfloat16 conversions compiled with `$feat` enabled,
/// and the matmul with `$mm` (the ISA and FMA) — the 32-column kernel `matmul32` (which the module defines
/// with [`matmul32_kernel`]) or the portable body for other widths.
macro_rules! isa_paths {
    ($feat:literal, $mm:literal) => {
        #[target_feature(enable = $feat)]
        pub(in crate::simd) unsafe fn widen_bf16<F: Fn(usize) -> usize>(src: &[u8], dst: &mut [f32], map: &F) {
            super::widen_bf16_body(src, dst, map)
        }

        #[target_feature(enable = $feat)]
        pub(in crate::simd) unsafe fn narrow_bf16(src: &[f32], dst: &mut [u8]) {
            super::narrow_bf16_body(src, dst)
        }

        #[target_feature(enable = $feat)]
        pub(in crate::simd) unsafe fn narrow_bf16_rows<F: Fn(usize) -> usize>(src: &[f32], dst: &mut [u8], map: &F) {
            super::narrow_bf16_rows_body(src, dst, map)
        }

        #[target_feature(enable = $feat)]
        pub(in crate::simd) unsafe fn copy_round_bf16(dst: &mut [f32], src: &[f32]) {
            super::copy_round_bf16_body(dst, src)
        }

        #[allow(clippy::too_many_arguments)]
        #[target_feature(enable = $mm)]
        pub(in crate::simd) unsafe fn matmul<const N: usize, const FRESH: bool, const ROUND: bool>(
            c: &mut [f32],
            ldc: usize,
            a: &[f32],
            lda: usize,
            b: &[f32],
            ldb: usize,
            m: usize,
            k: usize,
        ) {
            if N == 32 {
                // SAFETY: the caller guarantees the ISA and FMA, which is all `matmul32` needs.
                return unsafe { matmul32::<FRESH, ROUND>(c, ldc, a, lda, b, ldb, m, k) };
            }
            super::matmul_body::<N, FRESH, ROUND>(c, ldc, a, lda, b, ldb, m, k)
        }
    };
}
use isa_paths;

pub(super) mod avx2 {
    #[target_feature(enable = "avx2")]
    pub(in crate::simd) unsafe fn axpy(y: &mut [f32], a: f32, x: &[f32]) {
        super::axpy_body(y, a, x)
    }

    super::isa_paths!("avx2", "avx2,fma");

    // [`super::matmul_body`] for 32 columns in four 8-lane registers per row, three rows per pass (12
    // accumulators, a B vector and the broadcasts fit the 16 registers).
    super::matmul32_kernel!(
        "avx2,fma",
        "avx2",
        __m256,
        8,
        3,
        _mm256_setzero_ps,
        _mm256_loadu_ps,
        _mm256_storeu_ps,
        _mm256_set1_ps,
        _mm256_fmadd_ps,
        _mm256_add_ps,
        round_bf16_x8
    );

    /// [`super::round_bf16`] on eight lanes.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn round_bf16_x8(v: std::arch::x86_64::__m256) -> std::arch::x86_64::__m256 {
        use std::arch::x86_64::*;
        let b = _mm256_castps_si256(v);
        let lsb = _mm256_and_si256(_mm256_srli_epi32::<16>(b), _mm256_set1_epi32(1));
        let bias = _mm256_add_epi32(_mm256_set1_epi32(0x7fff), lsb);
        let rounded = _mm256_and_si256(_mm256_add_epi32(b, bias), _mm256_set1_epi32(0xffff_0000u32 as i32));
        let exp = _mm256_and_si256(b, _mm256_set1_epi32(0x7f80_0000));
        let special = _mm256_cmpeq_epi32(exp, _mm256_set1_epi32(0x7f80_0000));
        _mm256_castsi256_ps(_mm256_blendv_epi8(rounded, b, special))
    }
}

pub(super) mod avx512 {
    super::isa_paths!("avx512f,avx512bw", "avx512f,fma");

    #[target_feature(enable = "avx512f,avx512dq")]
    pub(in crate::simd) unsafe fn fill_indexed<F: Fn(u64) -> f32>(out: &mut [f32], f: &F) {
        super::fill_indexed_body(out, f)
    }

    // [`super::matmul_body`] for 32 columns in two 16-lane registers per row, eight rows per pass (sixteen
    // accumulators).
    super::matmul32_kernel!(
        "avx512f,fma",
        "avx512f",
        __m512,
        16,
        8,
        _mm512_setzero_ps,
        _mm512_loadu_ps,
        _mm512_storeu_ps,
        _mm512_set1_ps,
        _mm512_fmadd_ps,
        _mm512_add_ps,
        round_bf16_x16
    );

    /// [`super::round_bf16`] on sixteen lanes.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn round_bf16_x16(v: std::arch::x86_64::__m512) -> std::arch::x86_64::__m512 {
        use std::arch::x86_64::*;
        let b = _mm512_castps_si512(v);
        let lsb = _mm512_and_si512(_mm512_srli_epi32::<16>(b), _mm512_set1_epi32(1));
        let bias = _mm512_add_epi32(_mm512_set1_epi32(0x7fff), lsb);
        let rounded = _mm512_and_si512(_mm512_add_epi32(b, bias), _mm512_set1_epi32(0xffff_0000u32 as i32));
        let exp = _mm512_and_si512(b, _mm512_set1_epi32(0x7f80_0000));
        let special = _mm512_cmpeq_epi32_mask(exp, _mm512_set1_epi32(0x7f80_0000));
        _mm512_castsi512_ps(_mm512_mask_blend_epi32(special, rounded, b))
    }
}
