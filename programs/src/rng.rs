//! Deterministic pseudo-random test data (SplitMix64): the same seed gives the same values on every
//! machine and run.

/// SplitMix64's state increment per draw.
const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// A SplitMix64 generator.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let z = self.peek_u64(0);
        self.0 = self.0.wrapping_add(GAMMA);
        z
    }

    /// The bits [`Rng::next_u64`] will return after `i` more draws, without drawing (the state is a
    /// counter, so any draw can be computed on its own).
    #[inline(always)]
    pub fn peek_u64(&self, i: u64) -> u64 {
        let mut z = self.0.wrapping_add(i.wrapping_add(1).wrapping_mul(GAMMA));
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Skip `n` draws of [`Rng::next_u64`] at once (the state is a counter), so a later part of one stream
    /// can be generated on another thread.
    pub fn skip(&mut self, n: u64) {
        self.0 = self.0.wrapping_add(n.wrapping_mul(GAMMA));
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// A uniform f32 in `[lo, hi)`.
    pub fn uniform(&mut self, lo: f32, hi: f32) -> f32 {
        uniform_of(self.next_u64(), lo, hi)
    }

    /// `n` random u32 values.
    pub fn u32s(&mut self, n: usize) -> Vec<u32> {
        (0..n).map(|_| self.next_u32()).collect()
    }
}

/// `n` random 16-bit values (the top 16 bits of one draw each), computed by index: the same values as
/// drawing them one by one, without the draws' chain of state updates.
pub fn random_u16s(rng: &mut Rng, n: usize) -> Vec<u16> {
    let at = rng.clone();
    let out = (0..n as u64).map(|i| (at.peek_u64(i) >> 48) as u16).collect();
    rng.skip(n as u64);
    out
}

/// `n` uniform values in `[lo, hi)`, each rounded to bfloat16 (so the host reference sees the device's inputs);
/// one draw each.
pub fn random_bf16(rng: &mut Rng, n: usize, lo: f32, hi: f32) -> Vec<f32> {
    // Each value from its own draw, computed by index (vectorised where the host allows): the same values
    // as drawing them one by one.
    let mut out = vec![0f32; n];
    let at = rng.clone();
    sim_core::simd::fill_indexed(&mut out, |i| round_bf16(uniform_of(at.peek_u64(i), lo, hi)));
    rng.skip(n as u64);
    out
}

/// The uniform f32 in `[lo, hi)` of 64 random bits (the top 24 make the fraction).
#[inline(always)]
fn uniform_of(bits: u64, lo: f32, hi: f32) -> f32 {
    let u = (bits >> 40) as f32 / (1u64 << 24) as f32;
    lo + (hi - lo) * u
}

/// `v` rounded to the nearest bfloat16 (ties to even), as an f32: what `bfloat16::from_f32(v).to_f32()`
/// gives for the finite values [`uniform_of`] makes, without a branch.
#[inline(always)]
fn round_bf16(v: f32) -> f32 {
    let b = v.to_bits();
    f32::from_bits(b.wrapping_add(0x7fff + ((b >> 16) & 1)) & 0xffff_0000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_bf16_by_index_equals_drawing_one_by_one() {
        for (seed, n) in [(7u64, 1000usize), (u64::MAX - 3, 37), (12345, 0)] {
            let (mut a, mut b) = (Rng::new(seed), Rng::new(seed));
            let got = random_bf16(&mut a, n, -1.5, 2.0);
            let want: Vec<f32> =
                (0..n).map(|_| sim_device::bfloat16::from_f32(b.uniform(-1.5, 2.0)).to_f32()).collect();
            assert!(got.iter().zip(&want).all(|(x, y)| x.to_bits() == y.to_bits()), "seed {seed}");
            assert_eq!(got.len(), want.len());
            assert_eq!(a.next_u64(), b.next_u64(), "the stream goes on where drawing would leave it");
        }
    }

    #[test]
    fn random_u16s_by_index_equal_drawing_one_by_one() {
        let (mut a, mut b) = (Rng::new(99), Rng::new(99));
        let got = random_u16s(&mut a, 513);
        let want: Vec<u16> = (0..513).map(|_| (b.next_u64() >> 48) as u16).collect();
        assert_eq!(got, want);
        assert_eq!(a.next_u64(), b.next_u64());
    }

    #[test]
    fn deterministic_and_in_range() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        assert_eq!(a.u32s(4), b.u32s(4));
        for _ in 0..1000 {
            let v = a.uniform(-1.0, 1.0);
            assert!((-1.0..1.0).contains(&v));
        }
    }

    #[test]
    fn skipping_equals_drawing() {
        let mut drawn = Rng::new(3);
        let mut skipped = drawn.clone();
        random_bf16(&mut drawn, 1000, -1.0, 1.0);
        skipped.skip(1000);
        assert_eq!(drawn.u32s(5), skipped.u32s(5));
    }
}
