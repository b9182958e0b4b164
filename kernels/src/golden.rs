//! CPU-reference comparisons used by the examples: Pearson correlation (PCC) and closeness checks, as the
//! tt-metal programming examples judge their outputs.

/// Pearson correlation coefficient of two equally long series. Two identical constant series give 1.0;
/// a constant series against a varying one gives 0.0.
pub fn pcc(a: &[f32], b: &[f32]) -> f64 {
    assert_eq!(a.len(), b.len(), "pcc: lengths differ");
    if a.is_empty() {
        return 1.0;
    }
    let n = a.len() as f64;
    let ma = a.iter().map(|&v| v as f64).sum::<f64>() / n;
    let mb = b.iter().map(|&v| v as f64).sum::<f64>() / n;
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (&x, &y) in a.iter().zip(b) {
        let (dx, dy) = (x as f64 - ma, y as f64 - mb);
        sab += dx * dy;
        saa += dx * dx;
        sbb += dy * dy;
    }
    if saa == 0.0 || sbb == 0.0 {
        return if a == b { 1.0 } else { 0.0 };
    }
    sab / (saa.sqrt() * sbb.sqrt())
}

/// Largest absolute difference between two equally long series.
pub fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len(), "max_abs_diff: lengths differ");
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pcc_of_scaled_series_is_one() {
        let a = [1.0, 2.0, 3.0, 4.0];
        let b = [2.0, 4.0, 6.0, 8.0];
        assert!((pcc(&a, &b) - 1.0).abs() < 1e-12);
        let c = [4.0, 3.0, 2.0, 1.0];
        assert!((pcc(&a, &c) + 1.0).abs() < 1e-12);
        assert_eq!(pcc(&[1.0, 1.0], &[1.0, 1.0]), 1.0);
        assert_eq!(max_abs_diff(&a, &c), 3.0);
    }
}
