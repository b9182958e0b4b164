//! Every vector path against the portable loops, bit for bit.
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

#[test]
fn an_indexed_fill_gives_the_portable_loops_values() {
    // Integer mixing, an int-to-float conversion, a multiply and an add, as a counter-based generator does.
    let f = |i: u64| {
        let z = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (i >> 7);
        let z = (z ^ (z >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        -1.25 + 2.5 * ((z >> 40) as f32 / (1u64 << 24) as f32)
    };
    for n in [0usize, 1, 15, 16, 17, 1000] {
        let (mut got, mut want) = (vec![0f32; n], vec![0f32; n]);
        fill_indexed(&mut got, f);
        fill_indexed_body(&mut want, &f);
        assert!(got.iter().zip(&want).all(|(x, y)| x.to_bits() == y.to_bits()), "{n} values");
        assert!(want.iter().enumerate().all(|(i, v)| v.to_bits() == f(i as u64).to_bits()));
    }
}
