//! TTNN's alignment rules that reach beyond one spec: strides computed on the logical shape with the
//! alignment, and the alignment a given (legacy) padded shape implies.

/// `v` rounded up to a multiple of `a` (the one line this module shares with `derive.rs`, kept here so
/// the two do not import each other).
fn round_up(v: u64, a: u64) -> u64 {
    v.div_ceil(a) * a
}

/// TTNN's strides: on the logical shape, the last stride 1 and going outward each stride the next one times
/// the next logical extent rounded up to the alignment entry lined up (from the right) with this dim.
/// Tiled bf16 [5,4,3,2] (alignment [32,32]): [384, 96, 32, 1].
pub fn aligned_strides(logical: &[u64], alignment: &[u64]) -> Vec<u64> {
    let rank = logical.len();
    let mut strides = vec![1u64; rank];
    for i in (0..rank.saturating_sub(1)).rev() {
        let k = i as isize - (rank as isize - alignment.len() as isize);
        let a = if k >= 0 { alignment[k as usize].max(1) } else { 1 };
        strides[i] = strides[i + 1].saturating_mul(round_up(logical[i + 1], a));
    }
    strides
}

/// The alignment TTNN infers from a given padded shape (legacy padded shapes): the padded last two
/// extents when only they are padded; otherwise one entry per dim, each outer one the padded extent times
/// the next entry.
pub(crate) fn alignment_of_padded(logical: &[u64], padded: &[u64]) -> Vec<u64> {
    let rank = padded.len();
    let only_2d = (0..rank.saturating_sub(2)).all(|i| logical[i] == padded[i]);
    if only_2d {
        return padded[rank.saturating_sub(2)..].to_vec();
    }
    let mut v = vec![1u64; rank];
    v[rank - 1] = padded[rank - 1];
    if rank >= 2 {
        v[rank - 2] = padded[rank - 2];
    }
    for i in (0..rank.saturating_sub(2)).rev() {
        v[i] = padded[i].saturating_mul(v[i + 1]);
    }
    v.iter().map(|&x| x.max(1)).collect()
}
