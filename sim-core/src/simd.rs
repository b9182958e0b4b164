//! Vectorised f32 loops for the hot paths of tile math and of CPU references: compiled for AVX-512 or
//! AVX2+FMA when the host has them (checked at run time) and for the baseline target otherwise. Every version
//! performs the same IEEE operations in the same order, so results are bit-identical whichever runs: `axpy`
//! multiplies then adds; the matmuls use fused multiply-adds (`f32::mul_add`, one rounding — a hardware
//! instruction on the vector paths, the correctly rounded library routine on the baseline). Matmul operands
//! in tensim have at most 11 significant bits (bfloat16, fp16, block floats, or values rounded to the source
//! registers' TF32), so their products are exact in f32 and fusing changes no result outside overflow and
//! underflow; it halves the floating-point work. Also the cache prefetch hint of the simulator's hot loops
//! ([`prefetch`]): CPU intrinsics are tensim's one use of `unsafe` outside FFI.
#![allow(unsafe_code)]

#[inline(always)]
fn axpy_body(y: &mut [f32], a: f32, x: &[f32]) {
    for (y, x) in y.iter_mut().zip(x) {
        *y += a * x;
    }
}

/// The loop of [`widen_bf16_rows`]: row `r` of 16 little-endian bfloat16 values lands at `dst[map(r)..]`.
#[inline(always)]
fn widen_bf16_body<F: Fn(usize) -> usize>(src: &[u8], dst: &mut [f32], map: &F) {
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
fn narrow_bf16_rows_body<F: Fn(usize) -> usize>(src: &[f32], dst: &mut [u8], map: &F) {
    for (r, out) in dst.chunks_exact_mut(32).enumerate() {
        let s = map(r);
        narrow_bf16_body(&src[s..s + 16], out);
    }
}

/// The loop of [`narrow_bf16`].
#[inline(always)]
fn narrow_bf16_body(src: &[f32], dst: &mut [u8]) {
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
fn copy_round_bf16_body(dst: &mut [f32], src: &[f32]) {
    for (d, &x) in dst.iter_mut().zip(src) {
        *d = round_bf16(x);
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

/// `matmul32`, [`matmul_body`] for 32 columns written out for one vector ISA: `$rows` rows per pass keep
/// their 32 sums each in `32 / $lanes` registers, and each row of B is loaded once per pass (the compiler's
/// version of the body reloads B for every row, and loads, not multiply-adds, then bound the loop). Each
/// output still sees the same fused multiply-adds in order of k, so the result is bit-identical to the
/// generic body. `$feat` enables the ISA and FMA, `$base` the ISA alone (for the write-back helper).
#[cfg(target_arch = "x86_64")]
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
#[cfg(target_arch = "x86_64")]
use matmul32_kernel;

#[cfg(target_arch = "x86_64")]
mod avx2 {
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn axpy(y: &mut [f32], a: f32, x: &[f32]) {
        super::axpy_body(y, a, x)
    }

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn widen_bf16<F: Fn(usize) -> usize>(src: &[u8], dst: &mut [f32], map: &F) {
        super::widen_bf16_body(src, dst, map)
    }

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn narrow_bf16(src: &[f32], dst: &mut [u8]) {
        super::narrow_bf16_body(src, dst)
    }

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn narrow_bf16_rows<F: Fn(usize) -> usize>(src: &[f32], dst: &mut [u8], map: &F) {
        super::narrow_bf16_rows_body(src, dst, map)
    }

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn copy_round_bf16(dst: &mut [f32], src: &[f32]) {
        super::copy_round_bf16_body(dst, src)
    }

    #[allow(clippy::too_many_arguments)]
    #[target_feature(enable = "avx2,fma")]
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
        if N == 32 {
            // SAFETY: the caller guarantees AVX2 and FMA, which is all `matmul32` needs.
            return unsafe { matmul32::<FRESH, ROUND>(c, ldc, a, lda, b, ldb, m, k) };
        }
        super::matmul_body::<N, FRESH, ROUND>(c, ldc, a, lda, b, ldb, m, k)
    }

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

#[cfg(target_arch = "x86_64")]
mod avx512 {
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn widen_bf16<F: Fn(usize) -> usize>(src: &[u8], dst: &mut [f32], map: &F) {
        super::widen_bf16_body(src, dst, map)
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn narrow_bf16(src: &[f32], dst: &mut [u8]) {
        super::narrow_bf16_body(src, dst)
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn narrow_bf16_rows<F: Fn(usize) -> usize>(src: &[f32], dst: &mut [u8], map: &F) {
        super::narrow_bf16_rows_body(src, dst, map)
    }

    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn copy_round_bf16(dst: &mut [f32], src: &[f32]) {
        super::copy_round_bf16_body(dst, src)
    }

    #[allow(clippy::too_many_arguments)]
    #[target_feature(enable = "avx512f,fma")]
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
        if N == 32 {
            // SAFETY: the caller guarantees AVX-512F and FMA, which is all `matmul32` needs.
            return unsafe { matmul32::<FRESH, ROUND>(c, ldc, a, lda, b, ldb, m, k) };
        }
        super::matmul_body::<N, FRESH, ROUND>(c, ldc, a, lda, b, ldb, m, k)
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

/// Whether the host has every one of the named x86 features (checked once each; the standard library caches
/// the answers); always false on other architectures.
macro_rules! host_has {
    ($($feature:tt),+) => {{
        #[cfg(target_arch = "x86_64")]
        {
            true $(&& std::is_x86_feature_detected!($feature))+
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }};
}

/// AVX-512F and FMA: the matmuls' best path.
#[inline]
fn has_avx512() -> bool {
    host_has!("avx512f", "fma")
}

/// AVX-512F and AVX-512BW: the bfloat16 conversions' best path.
#[inline]
fn has_avx512bw() -> bool {
    host_has!("avx512f", "avx512bw")
}

/// AVX2: axpy and the bfloat16 conversions.
#[inline]
fn has_avx2() -> bool {
    host_has!("avx2")
}

/// AVX2 and FMA: the matmuls' second-best path.
#[inline]
fn has_avx2_fma() -> bool {
    host_has!("avx2", "fma")
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

/// Widen rows of 16 little-endian bfloat16 values (32 bytes each) from `src` to f32: row `r` lands at
/// `dst[map(r) .. map(r) + 16]` (a tile's faces to its rows, say). Exact, so every path gives the same bits.
pub fn widen_bf16_rows<F: Fn(usize) -> usize>(src: &[u8], dst: &mut [f32], map: F) {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx512bw() {
            // SAFETY: the host supports AVX-512F and AVX-512BW (checked above); the function is otherwise safe.
            return unsafe { avx512::widen_bf16(src, dst, &map) };
        }
        if has_avx2() {
            // SAFETY: the host supports AVX2 (checked above); the function is otherwise safe.
            return unsafe { avx2::widen_bf16(src, dst, &map) };
        }
    }
    widen_bf16_body(src, dst, &map)
}

/// `src` rounded to bfloat16 (nearest, ties to even; NaNs stay NaN with the quiet bit set) as little-endian
/// bytes, two per value, into `dst`. Integer operations only, so every path gives the same bytes.
pub fn narrow_bf16(src: &[f32], dst: &mut [u8]) {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx512bw() {
            // SAFETY: the host supports AVX-512F and AVX-512BW (checked above); the function is otherwise safe.
            return unsafe { avx512::narrow_bf16(src, dst) };
        }
        if has_avx2() {
            // SAFETY: the host supports AVX2 (checked above); the function is otherwise safe.
            return unsafe { avx2::narrow_bf16(src, dst) };
        }
    }
    narrow_bf16_body(src, dst)
}

/// [`narrow_bf16`] by rows of 16 values: output row `r` (32 bytes of `dst`) is `src[map(r)..map(r) + 16]`
/// narrowed (a tile's rows to its faces, say).
pub fn narrow_bf16_rows<F: Fn(usize) -> usize>(src: &[f32], dst: &mut [u8], map: F) {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx512bw() {
            // SAFETY: the host supports AVX-512F and AVX-512BW (checked above); the function is otherwise safe.
            return unsafe { avx512::narrow_bf16_rows(src, dst, &map) };
        }
        if has_avx2() {
            // SAFETY: the host supports AVX2 (checked above); the function is otherwise safe.
            return unsafe { avx2::narrow_bf16_rows(src, dst, &map) };
        }
    }
    narrow_bf16_rows_body(src, dst, &map)
}

/// `dst[i] = round_bf16(src[i])` over the common length: a copy into a 16-bit DST in one pass. Integer
/// operations only, so every path gives the same bits.
pub fn copy_round_bf16(dst: &mut [f32], src: &[f32]) {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx512() {
            // SAFETY: the host supports AVX-512F (checked above); the function is otherwise safe.
            return unsafe { avx512::copy_round_bf16(dst, src) };
        }
        if has_avx2() {
            // SAFETY: the host supports AVX2 (checked above); the function is otherwise safe.
            return unsafe { avx2::copy_round_bf16(dst, src) };
        }
    }
    copy_round_bf16_body(dst, src)
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
/// B `k × N`. Each output's `k` products are summed in f32 (fused multiply-adds), in order of k, starting
/// from zero, and the sum is then added to C — and rounded to bfloat16 when `ROUND` (the FPU writing a 16-bit DST).
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
    if has_avx2_fma() {
        // SAFETY: the host supports AVX2 (checked above); the function is otherwise safe.
        return unsafe { avx2::matmul::<N, true, ROUND>(c, ldc, a, lda, b, ldb, m, k) };
    }
    matmul_body::<N, true, ROUND>(c, ldc, a, lda, b, ldb, m, k)
}

/// `C += A · B` like [`matmul_acc`], but each output accumulates straight onto C: `fma(a₁, b₁, fma(a₀, b₀,
/// c))…` in order of k — what a row-by-row `axpy` computes, with C held in registers, when the products are
/// exact.
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
    if has_avx2_fma() {
        // SAFETY: the host supports AVX2 (checked above); the function is otherwise safe.
        return unsafe { avx2::matmul::<N, false, false>(c, ldc, a, lda, b, ldb, m, k) };
    }
    matmul_body::<N, false, false>(c, ldc, a, lda, b, ldb, m, k)
}

/// Ask the CPU to start loading the cache lines of `value` (a hint: no effect on results, a no-op off
/// x86-64).
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        let p = (value as *const T).cast::<i8>();
        let mut off = 0;
        while off < std::mem::size_of::<T>() {
            // SAFETY: a prefetch never faults and changes no memory, whatever the address; SSE is part of
            // every x86-64 CPU.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.wrapping_add(off)) };
            off += 64;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
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
        for (avx512, avx2) in [(has_avx512(), false), (false, has_avx2_fma())] {
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
        let want: f32 = (0..16).fold(0.0f32, |s, k| a[k].mul_add(b[k * 32], s)) + 0.5;
        assert_eq!(c1[0], want);
        // Rounding fused into the write-back equals rounding afterwards.
        let mut r1 = vec![0.5f32; 1024];
        let mut r2 = r1.clone();
        matmul_acc::<32, true>(&mut r1, 32, &a, 32, &b[..], 32, 32, 16);
        matmul_acc::<32, false>(&mut r2, 32, &a, 32, &b[..], 32, 32, 16);
        r2.iter_mut().for_each(|x| *x = round_bf16(*x));
        assert_eq!(r1, r2);
        // Infinities and NaNs pass the rounding unchanged on every path (compared as bits).
        let mut s1: Vec<f32> = (0..1024).map(|i| [f32::INFINITY, f32::NAN, -f32::INFINITY, 1.0][i % 4]).collect();
        let mut s2 = s1.clone();
        matmul_acc::<32, true>(&mut s1, 32, &a, 32, &b[..], 32, 32, 16);
        matmul_body::<32, true, true>(&mut s2, 32, &a, 32, &b[..], 32, 32, 16);
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&s1), bits(&s2), "special values");
        // With bfloat16 operands every product is exact, so the fused sums equal multiply-then-add ones.
        let a16: Vec<f32> = a.iter().map(|&x| round_bf16(x)).collect();
        let b16: Vec<f32> = b.iter().map(|&x| round_bf16(x)).collect();
        let mut d1 = vec![0.25f32; 1024];
        let mut d2 = d1.clone();
        matmul_into::<32>(&mut d1, 32, &a16, 32, &b16, 32, 32, 32);
        for i in 0..32 {
            for kk in 0..32 {
                axpy_body(&mut d2[i * 32..i * 32 + 32], a16[i * 32 + kk], &b16[kk * 32..kk * 32 + 32]);
            }
        }
        assert_eq!(d1, d2, "matmul_into equals row-by-row axpy");
        // Every path fuses the same way, also when products are inexact.
        let mut e1 = vec![0.25f32; 1024];
        let mut e2 = e1.clone();
        matmul_into::<32>(&mut e1, 32, &a, 32, &b, 32, 32, 32);
        matmul_body::<32, false, false>(&mut e2, 32, &a, 32, &b, 32, 32, 32);
        assert_eq!(e1, e2, "vector and scalar matmul_into agree");
        let mut y1 = vec![1.0f32; 100];
        let mut y2 = y1.clone();
        axpy(&mut y1, 0.3, &a[..100]);
        axpy_body(&mut y2, 0.3, &a[..100]);
        assert_eq!(y1, y2);
    }

    #[test]
    fn bfloat16_widening_and_narrowing_agree_on_every_path() {
        let vals: Vec<f32> = (0..4096u32)
            .map(|i| f32::from_bits(i.wrapping_mul(2_654_435_761)))
            .chain([f32::INFINITY, -f32::INFINITY, f32::NAN, 0.0, -0.0, 1.0 + f32::EPSILON * 64.0])
            .collect();
        let n = vals.len() / 16 * 16;
        let mut fast = vec![0u8; n * 2];
        let mut slow = vec![0u8; n * 2];
        let (mut r_fast, mut r_slow) = (vec![0f32; vals.len()], vec![1f32; vals.len()]);
        copy_round_bf16(&mut r_fast, &vals);
        copy_round_bf16_body(&mut r_slow, &vals);
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&r_fast), bits(&r_slow), "copy_round_bf16: vector and scalar paths");
        assert!(vals.iter().zip(&r_fast).all(|(v, r)| r.to_bits() == round_bf16(*v).to_bits()));
        let mut by_rows = vec![0u8; n * 2];
        narrow_bf16_rows(&vals[..n], &mut by_rows, |r| (n / 16 - 1 - r) * 16);
        let mut reversed = vec![0u8; n * 2];
        for r in 0..n / 16 {
            narrow_bf16_body(&vals[(n / 16 - 1 - r) * 16..][..16], &mut reversed[r * 32..r * 32 + 32]);
        }
        assert_eq!(by_rows, reversed, "narrow_bf16_rows");
        narrow_bf16(&vals[..n], &mut fast);
        narrow_bf16_body(&vals[..n], &mut slow);
        assert_eq!(fast, slow);
        // Ties go to even: 1 + 2^-8 (exactly halfway) rounds down to 1, 1 + 3·2^-8 up.
        let mut two = [0u8; 4];
        narrow_bf16(&[1.0 + 2f32.powi(-8), 1.0 + 3.0 * 2f32.powi(-8)], &mut two);
        assert_eq!(two, [0x80, 0x3f, 0x82, 0x3f]);
        // Rows land where the map says; widening is exact.
        let rows = n / 16;
        let mut w1 = vec![0f32; n];
        let mut w2 = vec![0f32; n];
        widen_bf16_rows(&fast, &mut w1, |r| (rows - 1 - r) * 16);
        widen_bf16_body(&fast, &mut w2, &|r| (rows - 1 - r) * 16);
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&w1), bits(&w2));
        assert_eq!(w1[(rows - 1) * 16 + 1].to_bits() >> 16, u16::from_le_bytes([fast[2], fast[3]]) as u32);
    }
}
