//! CPU-reference comparisons used by the examples: Pearson correlation (PCC) and closeness checks, as the
//! tt-metal programming examples judge their outputs.

/// Pearson correlation coefficient of two equally long series. Two identical constant series give 1.0;
/// a constant series against a varying one gives 0.0. Sums run in f64 over eight interleaved lanes (element
/// `i` in lane `i % 8`, the lanes added in order at the end): a fixed order, so the result is the same on
/// every run, and the lanes' independent add chains vectorise (a 2048² check takes a few ms otherwise).
pub fn pcc(a: &[f32], b: &[f32]) -> f64 {
    assert_eq!(a.len(), b.len(), "pcc: lengths differ");
    if a.is_empty() {
        return 1.0;
    }
    let n = a.len() as f64;
    let (mut sa, mut sb) = ([0f64; LANES], [0f64; LANES]);
    for_each_lane(a, b, |l, x, y| {
        sa[l] += x as f64;
        sb[l] += y as f64;
    });
    let total = |v: [f64; LANES]| v.iter().sum::<f64>();
    let (ma, mb) = (total(sa) / n, total(sb) / n);
    let (mut sab, mut saa, mut sbb) = ([0f64; LANES], [0f64; LANES], [0f64; LANES]);
    for_each_lane(a, b, |l, x, y| {
        let (dx, dy) = (x as f64 - ma, y as f64 - mb);
        sab[l] += dx * dy;
        saa[l] += dx * dx;
        sbb[l] += dy * dy;
    });
    let (sab, saa, sbb) = (total(sab), total(saa), total(sbb));
    if saa == 0.0 || sbb == 0.0 {
        return if a == b { 1.0 } else { 0.0 };
    }
    sab / (saa.sqrt() * sbb.sqrt())
}

/// The lanes of [`pcc`]'s sums.
const LANES: usize = 8;

/// `f(lane, a[i], b[i])` for every `i`, with `lane = i % LANES`: chunk by chunk, so that per-lane
/// accumulators form independent add chains.
#[inline(always)]
fn for_each_lane(a: &[f32], b: &[f32], mut f: impl FnMut(usize, f32, f32)) {
    let (ca, cb) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (xs, ys) in ca.zip(cb) {
        for l in 0..LANES {
            f(l, xs[l], ys[l]);
        }
    }
    for (l, (&x, &y)) in ra.iter().zip(rb).enumerate() {
        f(l, x, y);
    }
}

/// Largest absolute difference between two equally long series.
pub fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len(), "max_abs_diff: lengths differ");
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

/// An element-wise closeness check: every `|got − want| ≤ atol + rtol·|want|`; returns (passed, line).
pub fn check_close(what: &str, got: &[f32], want: &[f32], atol: f32, rtol: f32) -> (bool, String) {
    let mut worst = (0usize, 0f32);
    let mut bad = 0usize;
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let err = (g - w).abs();
        let lim = atol + rtol * w.abs();
        if err > lim || err.is_nan() {
            bad += 1;
        }
        let excess = if lim > 0.0 { err / lim } else { err };
        if excess > worst.1 || excess.is_nan() {
            worst = (i, excess);
        }
    }
    let max_err = max_abs_diff(got, want);
    let passed = bad == 0 && got.len() == want.len();
    let line = if passed {
        format!(
            "{what}: {} values within {atol} + {rtol}·|ref| of the CPU reference (max |err| {max_err:.3e})",
            got.len()
        )
    } else {
        let i = worst.0;
        format!(
            "{what}: {bad} of {} values outside {atol} + {rtol}·|ref|; worst at {i}: got {} expected {}",
            want.len(),
            got.get(i).copied().unwrap_or(f32::NAN),
            want.get(i).copied().unwrap_or(f32::NAN)
        )
    };
    (passed, line)
}

/// A PCC check against the CPU reference; returns (passed, line).
pub fn check_pcc(what: &str, got: &[f32], want: &[f32], min_pcc: f64) -> (bool, String) {
    let p = pcc(got, want);
    let passed = p >= min_pcc && got.len() == want.len();
    let rel = {
        // The largest |want| and |got − want| in one pass.
        let (scale, diff) =
            got.iter().zip(want).fold((0f32, 0f32), |(s, d), (g, w)| (s.max(w.abs()), d.max((g - w).abs())));
        diff / scale.max(f32::MIN_POSITIVE)
    };
    (
        passed,
        format!(
            "{what}: PCC {p:.6} against the CPU reference (needs {min_pcc}); max |err| {:.2}% of max |ref|",
            rel * 100.0
        ),
    )
}

/// Median of `values` (the mean of the two middle ones for an even count; 0 for none). Sorts in place.
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    let n = values.len();
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pcc_in_lanes_matches_the_textbook_formula_for_lengths_around_the_lane_count() {
        for len in [1usize, 7, 8, 9, 37, 1000] {
            let a: Vec<f32> = (0..len).map(|i| ((i * 7919) % 101) as f32 / 13.0 - 3.0).collect();
            let b: Vec<f32> = (0..len).map(|i| ((i * 104729) % 97) as f32 / 7.0 + a[i] * 0.5).collect();
            let n = len as f64;
            let ma = a.iter().map(|&v| v as f64).sum::<f64>() / n;
            let mb = b.iter().map(|&v| v as f64).sum::<f64>() / n;
            let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
            for (&x, &y) in a.iter().zip(&b) {
                let (dx, dy) = (x as f64 - ma, y as f64 - mb);
                (sab, saa, sbb) = (sab + dx * dy, saa + dx * dx, sbb + dy * dy);
            }
            let want = if saa == 0.0 || sbb == 0.0 { pcc(&a, &b) } else { sab / (saa.sqrt() * sbb.sqrt()) };
            assert!((pcc(&a, &b) - want).abs() < 1e-12, "length {len}: {} against {want}", pcc(&a, &b));
        }
    }

    #[test]
    fn pcc_of_scaled_series_is_one() {
        let a = [1.0, 2.0, 3.0, 4.0];
        let b = [2.0, 4.0, 6.0, 8.0];
        assert!((pcc(&a, &b) - 1.0).abs() < 1e-12);
        let c = [4.0, 3.0, 2.0, 1.0];
        assert!((pcc(&a, &c) + 1.0).abs() < 1e-12);
        assert_eq!(pcc(&[1.0, 1.0], &[1.0, 1.0]), 1.0);
        assert_eq!(max_abs_diff(&a, &c), 3.0);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(&mut []), 0.0);
    }
}
