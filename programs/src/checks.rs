//! Host-side checks shared by the examples and the ops: that a problem fits DRAM at all, CPU matmul
//! references (whole, or on a deterministic sample of output tiles), the PCC check of a matmul's output and
//! the figures a matmul run reports.

use crate::golden::check_pcc;
use sim_device::prelude::*;

/// An error unless `bytes` of device data could fit the chip's DRAM at all: checked before the host makes
/// its copy of the data, so an impossible problem size is a named error rather than host memory exhausted.
pub fn check_fits_dram(dev: &Device, what: &str, bytes: u128) -> Result<(), DeviceError> {
    let dram: u64 = dev.chip().soc().dram_banks.iter().map(|b| b.size_bytes).sum();
    if bytes > u128::from(dram) {
        return Err(DeviceError::Api(format!(
            "{what} needs {bytes} bytes of device memory but the {}'s DRAM holds {dram}; make it smaller",
            dev.arch()
        )));
    }
    Ok(())
}

/// CPU reference matmul of row-major `a` (m × k) and `b` (k × n), n a multiple of 32: every output is an
/// f32 sum in order of k. The loops are blocked over k (B's block packed once into 32-column strips, so its
/// rows are not a power-of-two stride apart), then over groups of rows (A's block of a group stays in L1
/// while every strip of B passes it), which does not change any sum's order, so the result is the same on
/// every run and bit-identical to the plain loop. It runs on one thread: the matmul examples compute it on a
/// host thread of their own while the simulation runs on the other core.
pub fn matmul_reference(a: &[f32], b: &[f32], m: usize, n: usize, k: usize) -> Vec<f32> {
    /// K per block: a strip of B's block is 256 × 32 floats (32 KiB).
    const KB: usize = 256;
    /// Rows per group: A's block of a group is 48 × 256 floats (48 KiB); chosen by timing 2048³ on this
    /// host (K × rows of 128 × 48, 256 × 32, 256 × 48 and 512 × 24: 256 × 48 fastest, 1.5× the unblocked rows).
    const RB: usize = 48;
    assert!(n.is_multiple_of(32), "matmul_reference: n = {n} is not a multiple of 32");
    // Zeros written, not a zeroed allocation: the sums below read C before writing it, and a read of a
    // fresh zeroed page maps the shared zero page, which the write then copies with a TLB shootdown to every
    // CPU the process runs on (6% of the 2048³ example's time went to those).
    let mut out = Vec::with_capacity(m * n);
    out.resize(m * n, 0f32);
    let strips = n / 32;
    let mut packed = vec![0f32; KB * 32 * strips];
    for k0 in (0..k).step_by(KB) {
        let kb = KB.min(k - k0);
        for s in 0..strips {
            for kk in 0..kb {
                let src = (k0 + kk) * n + s * 32;
                let at = (s * KB + kk) * 32;
                packed[at..at + 32].copy_from_slice(&b[src..src + 32]);
            }
        }
        for r0 in (0..m).step_by(RB) {
            let rows = RB.min(m - r0);
            for s in 0..strips {
                let strip = &packed[s * KB * 32..];
                sim_core::simd::matmul_into::<32>(
                    &mut out[r0 * n + s * 32..],
                    n,
                    &a[r0 * k + k0..],
                    k,
                    strip,
                    32,
                    rows,
                    kb,
                );
            }
        }
    }
    out
}

/// The output tiles a sampled check compares (`--check sample`): at most [`crate::options::SAMPLED_TILES`] of the
/// `mt × nt` tiles, spread over the output by a stride coprime with their count and an offset from the
/// seed, so the same run always samples the same tiles; `(tile row, tile column)` in increasing order.
pub fn sampled_tiles(mt: usize, nt: usize, seed: u64) -> Vec<(usize, usize)> {
    let count = mt * nt;
    if count <= crate::options::SAMPLED_TILES {
        return (0..count).map(|t| (t / nt, t % nt)).collect();
    }
    let mut stride = count / crate::options::SAMPLED_TILES + 1;
    while gcd(stride, count) != 1 {
        stride += 1;
    }
    let start = (seed as usize) % count;
    let mut v: Vec<(usize, usize)> =
        (0..crate::options::SAMPLED_TILES).map(|i| (start + i * stride) % count).map(|t| (t / nt, t % nt)).collect();
    v.sort_unstable();
    v
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The CPU reference of the output tiles `tiles` of row-major `a` (m × k) times `b` (k × n): each tile's
/// 1024 values row-major, tiles one after another, every sum in order of k as [`matmul_reference`] does.
pub fn matmul_reference_tiles(a: &[f32], b: &[f32], n: usize, k: usize, tiles: &[(usize, usize)]) -> Vec<f32> {
    const KB: usize = 128;
    let mut out = vec![0f32; tiles.len() * 1024];
    let mut strip = vec![0f32; KB * 32];
    for (t, &(ti, tj)) in tiles.iter().enumerate() {
        let c = &mut out[t * 1024..(t + 1) * 1024];
        for k0 in (0..k).step_by(KB) {
            let kb = KB.min(k - k0);
            for kk in 0..kb {
                let src = (k0 + kk) * n + tj * 32;
                strip[kk * 32..kk * 32 + 32].copy_from_slice(&b[src..src + 32]);
            }
            sim_core::simd::matmul_into::<32>(c, 32, &a[ti * 32 * k + k0..], k, &strip, 32, 32, kb);
        }
    }
    out
}

/// The same tiles gathered from a row-major `_ × n` output.
pub fn gather_tiles(c: &[f32], n: usize, tiles: &[(usize, usize)]) -> Vec<f32> {
    let mut out = Vec::with_capacity(tiles.len() * 1024);
    for &(ti, tj) in tiles {
        for r in 0..32 {
            let at = (ti * 32 + r) * n + tj * 32;
            out.extend_from_slice(&c[at..at + 32]);
        }
    }
    out
}

/// Compare a matmul's output `got` (row-major `m × n`) with its reference the way `check` asks: every
/// element against `reference(None)`, the sampled tiles against `reference(Some(tiles))` (each computed
/// only when asked), or nothing. The check line says which.
pub fn check_matmul(
    what: &str,
    check: crate::options::CheckMode,
    got: &[f32],
    (m, n): (usize, usize),
    reference: impl FnOnce(Option<&[(usize, usize)]>) -> Vec<f32>,
    seed: u64,
    min_pcc: f64,
) -> (bool, String) {
    match check {
        crate::options::CheckMode::Full => check_pcc(what, got, &reference(None), min_pcc),
        crate::options::CheckMode::Sample => {
            let picked = sampled_tiles(m / 32, n / 32, seed);
            let want = reference(Some(&picked));
            let (passed, line) = check_pcc(what, &gather_tiles(got, n, &picked), &want, min_pcc);
            (
                passed,
                format!(
                    "{line} (sampled: {} of {} output tiles, check mode sample)",
                    picked.len(),
                    (m / 32) * (n / 32)
                ),
            )
        }
        crate::options::CheckMode::Off => {
            (true, format!("{what}: not checked (check mode off): the output was not compared with a reference"))
        }
    }
}

/// The lines a matmul reports: its achieved TFLOP/s at the arch clock and the ideal for its fidelity: one
/// 32×32×32 tile (65536 flop) per `compute.matmul_cycles_per_phase` × phases cycles per core, the cost the
/// timing model charges.
pub fn matmul_metrics(
    dev: &Device,
    r: &RunReport,
    (m, n, k): (u32, u32, u32),
    cores: u32,
    fidelity: MathFidelity,
) -> Vec<String> {
    let flops = 2.0 * m as f64 * n as f64 * k as f64;
    let hz = dev.clock_mhz() as f64 * 1e6;
    let secs = r.cycles.0 as f64 / hz;
    let achieved = flops / secs / 1e12;
    let tile_cycles = dev.params().api.compute.matmul_per_phase.0 * fidelity.phases() as u64;
    let per_core_flops_per_cycle = 2.0 * 32.0 * 32.0 * 32.0 / tile_cycles.max(1) as f64;
    let ideal = per_core_flops_per_cycle * cores as f64 * hz / 1e12;
    let ideal_cycles = flops / (per_core_flops_per_cycle * cores as f64);
    vec![
        format!("matmul {m}x{k} · {k}x{n} on {cores} cores, {fidelity:?}: {:.1} M flop", flops / 1e6),
        format!(
            "achieved {achieved:.3} TFLOP/s at {} MHz; ideal {ideal:.3} TFLOP/s ({:.0} cycles); utilisation {:.1}%",
            dev.clock_mhz(),
            ideal_cycles,
            100.0 * achieved / ideal
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The blocked reference is the plain loop: every output a chain of fused multiply-adds in order of k,
    /// whatever the blocks (sizes that leave partial row groups and K blocks).
    #[test]
    fn the_blocked_reference_sums_in_order_of_k() {
        let (m, n, k) = (101, 96, 300);
        let mut rng = crate::rng::Rng::new(5);
        let a = crate::rng::random_bf16(&mut rng, m * k, -1.0, 1.0);
        let b = crate::rng::random_bf16(&mut rng, k * n, -1.0, 1.0);
        let got = matmul_reference(&a, &b, m, n, k);
        for i in 0..m {
            for j in 0..n {
                let mut s = 0f32;
                for kk in 0..k {
                    s = a[i * k + kk].mul_add(b[kk * n + j], s);
                }
                assert_eq!(got[i * n + j].to_bits(), s.to_bits(), "C[{i}][{j}]");
            }
        }
    }
}
