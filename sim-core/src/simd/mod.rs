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

mod bodies;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "x86_64")]
mod x86;

use bodies::*;
#[cfg(target_arch = "x86_64")]
use x86::{avx2, avx512};

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

/// AVX-512F and AVX-512DQ (64-bit multiplies): [`fill_indexed`]'s best path.
#[inline]
fn has_avx512dq() -> bool {
    host_has!("avx512f", "avx512dq")
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

/// `out[i] = f(i)` for every `i`, the loop compiled with AVX-512 (with 64-bit multiplies) when the host has
/// it, so that an `f` of integer and single f32 operations — a counter-based random generator, say —
/// runs on vectors. `f` sees each index once, in any order, and must not depend on the order: every path
/// then computes the same values (IEEE operations and integer arithmetic give the same bits on vectors).
pub fn fill_indexed<F: Fn(u64) -> f32>(out: &mut [f32], f: F) {
    #[cfg(target_arch = "x86_64")]
    if has_avx512dq() {
        // SAFETY: the host supports AVX-512F and AVX-512DQ (checked above); the function is otherwise safe.
        return unsafe { avx512::fill_indexed(out, &f) };
    }
    fill_indexed_body(out, &f)
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
        if has_avx512bw() {
            // SAFETY: the host supports AVX-512F and AVX-512BW (checked above); the function is otherwise safe.
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
