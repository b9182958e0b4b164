//! Pieces the compute examples share: the tile reader and writer kernels of tt-metal's eltwise examples
//! (`reader_unary`, `reader_binary`, `writer_unary`, with a start tile so a core can take a slice), host
//! data helpers (bf16 tensors, tilize/untilize) and the figures a matmul reports (TFLOP/s against the ideal).

pub use crate::golden::{check_close, check_pcc};
pub use crate::rng::random_bf16;
use sim_device::prelude::*;

/// Input CB of the first operand.
pub const CB_IN0: CBIndex = CBIndex::c_0;
/// Input CB of the second operand.
pub const CB_IN1: CBIndex = CBIndex::c_1;
/// Output CB.
pub const CB_OUT0: CBIndex = CBIndex::c_16;
/// Bytes of one bfloat16 tile.
pub const BF16_TILE: u32 = 2048;

/// `reader_unary`: tiles `start .. start + n` of one interleaved DRAM tensor into c_0, one at a time.
/// RT args: src address, n, start.
pub fn reader_unary(k: &mut Dataflow) {
    let src: u32 = k.get_arg_val(0);
    let n: u32 = k.get_arg_val(1);
    let start: u32 = k.get_arg_val(2);
    let tile = k.get_tile_size(CB_IN0);
    let fmt = k.get_dataformat(CB_IN0);
    let s = InterleavedAddrGenFast::<true> { bank_base_address: src, page_size: tile, data_format: fmt };
    for t in start..start + n {
        k.cb_reserve_back(CB_IN0, 1);
        let l1 = k.get_write_ptr(CB_IN0);
        k.noc_async_read_tile(t, &s, l1);
        k.noc_async_read_barrier();
        k.cb_push_back(CB_IN0, 1);
    }
}

/// `reader_unary` in today's API: the input's TensorAccessorArgs (page size included) at compile-time offset
/// 0; per tile, a classic tile read through the accessor into c_0. RT args: src address, n, start.
pub fn reader_unary_ta(k: &mut Dataflow) {
    let src: u32 = k.get_arg_val(0);
    let n: u32 = k.get_arg_val(1);
    let start: u32 = k.get_arg_val(2);
    let args = k.tensor_accessor_args(0);
    let s = TensorAccessor::new(args, src, 0);
    for t in start..start + n {
        k.cb_reserve_back(CB_IN0, 1);
        let l1 = k.get_write_ptr(CB_IN0);
        k.noc_async_read_tile(t, &s, l1);
        k.noc_async_read_barrier();
        k.cb_push_back(CB_IN0, 1);
    }
}

/// `writer_unary` in today's API: the output's TensorAccessorArgs at compile-time offset 0; per tile, a
/// classic tile write of c_16 through the accessor. RT args: dst address, n, start.
pub fn writer_unary_ta(k: &mut Dataflow) {
    let dst: u32 = k.get_arg_val(0);
    let n: u32 = k.get_arg_val(1);
    let start: u32 = k.get_arg_val(2);
    let args = k.tensor_accessor_args(0);
    let d = TensorAccessor::new(args, dst, 0);
    for t in start..start + n {
        k.cb_wait_front(CB_OUT0, 1);
        let l1 = k.get_read_ptr(CB_OUT0);
        k.noc_async_write_tile(t, &d, l1);
        k.noc_async_write_barrier();
        k.cb_pop_front(CB_OUT0, 1);
    }
}

/// `reader_binary` in today's API: two TensorAccessors from compile-time args (offset 0, then after the
/// first), classic tile reads into c_0 and c_1 a pair at a time. RT args: src0 address, src1 address, n, start.
pub fn reader_binary_ta(k: &mut Dataflow) {
    let src0: u32 = k.get_arg_val(0);
    let src1: u32 = k.get_arg_val(1);
    let n: u32 = k.get_arg_val(2);
    let start: u32 = k.get_arg_val(3);
    let a_args = k.tensor_accessor_args(0);
    let b_args = k.tensor_accessor_args(a_args.next_compile_time_args_offset());
    let (a, b) = (TensorAccessor::new(a_args, src0, 0), TensorAccessor::new(b_args, src1, 0));
    for t in start..start + n {
        k.cb_reserve_back(CB_IN0, 1);
        k.cb_reserve_back(CB_IN1, 1);
        let (l0, l1) = (k.get_write_ptr(CB_IN0), k.get_write_ptr(CB_IN1));
        k.noc_async_read_tile(t, &a, l0);
        k.noc_async_read_tile(t, &b, l1);
        k.noc_async_read_barrier();
        k.cb_push_back(CB_IN0, 1);
        k.cb_push_back(CB_IN1, 1);
    }
}

/// `reader_binary`: tiles `start .. start + n` of two interleaved DRAM tensors into c_0 and c_1, a pair at
/// a time. RT args: src0 address, src1 address, n, start.
pub fn reader_binary(k: &mut Dataflow) {
    let src0: u32 = k.get_arg_val(0);
    let src1: u32 = k.get_arg_val(1);
    let n: u32 = k.get_arg_val(2);
    let start: u32 = k.get_arg_val(3);
    let (t0, t1) = (k.get_tile_size(CB_IN0), k.get_tile_size(CB_IN1));
    let s0 = InterleavedAddrGenFast::<true> {
        bank_base_address: src0,
        page_size: t0,
        data_format: k.get_dataformat(CB_IN0),
    };
    let s1 = InterleavedAddrGenFast::<true> {
        bank_base_address: src1,
        page_size: t1,
        data_format: k.get_dataformat(CB_IN1),
    };
    for t in start..start + n {
        k.cb_reserve_back(CB_IN0, 1);
        k.cb_reserve_back(CB_IN1, 1);
        let (l0, l1) = (k.get_write_ptr(CB_IN0), k.get_write_ptr(CB_IN1));
        k.noc_async_read_tile(t, &s0, l0);
        k.noc_async_read_tile(t, &s1, l1);
        k.noc_async_read_barrier();
        k.cb_push_back(CB_IN0, 1);
        k.cb_push_back(CB_IN1, 1);
    }
}

/// `reader_binary` in today's API: two interleaved tensors described by TensorAccessorArgs (page size
/// included) at compile-time offsets 0 and after the first; per tile, each CB's write pointer, the page's
/// NoC address and a read of one tile (the object-style `noc.async_read(accessor, cb, …)`). RT args: src0
/// address, src1 address, n, start.
pub fn reader_binary_accessor(k: &mut Dataflow) {
    let src0: u32 = k.get_arg_val(0);
    let src1: u32 = k.get_arg_val(1);
    let n: u32 = k.get_arg_val(2);
    let start: u32 = k.get_arg_val(3);
    let a_args = k.tensor_accessor_args(0);
    let b_args = k.tensor_accessor_args(a_args.next_compile_time_args_offset());
    let (a, b) = (TensorAccessor::new(a_args, src0, 0), TensorAccessor::new(b_args, src1, 0));
    let tile = k.get_tile_size(CB_IN0);
    for t in start..start + n {
        k.cb_reserve_back(CB_IN0, 1);
        k.cb_reserve_back(CB_IN1, 1);
        let (l0, src) = (k.get_write_ptr(CB_IN0), k.get_noc_addr_page(t, &a, 0));
        k.noc_async_read(src, l0, tile);
        let (l1, src) = (k.get_write_ptr(CB_IN1), k.get_noc_addr_page(t, &b, 0));
        k.noc_async_read(src, l1, tile);
        k.noc_async_read_barrier();
        k.cb_push_back(CB_IN0, 1);
        k.cb_push_back(CB_IN1, 1);
    }
}

/// `writer_unary` in today's API: the output's TensorAccessorArgs at compile-time offset 0; per tile, c_16's
/// read pointer, the page's NoC address and a write of one tile. RT args: dst address, n, start.
pub fn writer_unary_accessor(k: &mut Dataflow) {
    let dst: u32 = k.get_arg_val(0);
    let n: u32 = k.get_arg_val(1);
    let start: u32 = k.get_arg_val(2);
    let args = k.tensor_accessor_args(0);
    let d = TensorAccessor::new(args, dst, 0);
    let tile = k.get_tile_size(CB_OUT0);
    for t in start..start + n {
        k.cb_wait_front(CB_OUT0, 1);
        let (l1, to) = (k.get_read_ptr(CB_OUT0), k.get_noc_addr_page(t, &d, 0));
        k.noc_async_write(l1, to, tile);
        k.noc_async_write_barrier();
        k.cb_pop_front(CB_OUT0, 1);
    }
}

/// `writer_unary`: n tiles from c_16 to tiles `start .. start + n` of an interleaved DRAM tensor.
/// RT args: dst address, n, start.
pub fn writer_unary(k: &mut Dataflow) {
    let dst: u32 = k.get_arg_val(0);
    let n: u32 = k.get_arg_val(1);
    let start: u32 = k.get_arg_val(2);
    let tile = k.get_tile_size(CB_OUT0);
    let d = InterleavedAddrGenFast::<true> {
        bank_base_address: dst,
        page_size: tile,
        data_format: k.get_dataformat(CB_OUT0),
    };
    for t in start..start + n {
        k.cb_wait_front(CB_OUT0, 1);
        let l1 = k.get_read_ptr(CB_OUT0);
        k.noc_async_write_tile(t, &d, l1);
        k.noc_async_write_barrier();
        k.cb_pop_front(CB_OUT0, 1);
    }
}

/// A bfloat16 CB of `tiles` one-tile pages.
pub fn bf16_cb(tiles: u32, cb: CBIndex) -> CircularBufferConfig {
    CircularBufferConfig::new(tiles * BF16_TILE, &[(cb, DataFormat::Float16_b)]).set_page_size(cb, BF16_TILE)
}

/// Create bfloat16 CBs of the given depths (tiles) on `cores`.
pub fn create_bf16_cbs(
    p: &mut Program,
    cores: impl Into<CoreRangeSet>,
    cbs: &[(CBIndex, u32)],
) -> Result<(), DeviceError> {
    let cores = cores.into();
    for &(cb, tiles) in cbs {
        p.create_circular_buffer(cores.clone(), bf16_cb(tiles, cb))?;
    }
    Ok(())
}

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

/// A DRAM buffer of `tiles` bfloat16 tiles, interleaved one tile per page.
pub fn bf16_dram_buffer(dev: &mut Device, tiles: u32) -> Result<Buffer, DeviceError> {
    let size = tiles as u64 * BF16_TILE as u64;
    dev.create_buffer(InterleavedBufferConfig { size, page_size: BF16_TILE as u64, buffer_type: BufferType::Dram })
}

/// Write a row-major `rows × cols` f32 matrix as tilized bfloat16 tiles.
pub fn write_bf16_matrix(
    dev: &mut Device,
    buf: &Buffer,
    data: &[f32],
    rows: usize,
    cols: usize,
) -> Result<(), DeviceError> {
    // Tilized and rounded to bfloat16 bytes in one pass (the host matrices are large).
    dev.enqueue_write_buffer_bytes(buf, &layout::tile::tilize_bf16_bytes(data, rows, cols))
}

/// Read a tilized bfloat16 buffer back as a row-major `rows × cols` f32 matrix.
pub fn read_bf16_matrix(dev: &mut Device, buf: &Buffer, rows: usize, cols: usize) -> Result<Vec<f32>, DeviceError> {
    read_bf16_matrix_into(dev, buf, rows, cols, Vec::new())
}

/// [`read_bf16_matrix`] into `out`'s memory (a host matrix no longer needed, say: its pages are already
/// mapped, where a fresh 2048² matrix takes four thousand page faults).
pub fn read_bf16_matrix_into(
    dev: &mut Device,
    buf: &Buffer,
    rows: usize,
    cols: usize,
    mut out: Vec<f32>,
) -> Result<Vec<f32>, DeviceError> {
    let bytes = dev.enqueue_read_buffer_bytes(buf)?;
    layout::tile::untilize_bf16_bytes_into(&bytes, rows, cols, &mut out);
    Ok(out)
}

/// CPU reference matmul of row-major `a` (m × k) and `b` (k × n), n a multiple of 32: every output is an
/// f32 sum in order of k. The loops are blocked over k and over 32-column strips so a block of B stays in
/// cache, which does not change any sum's order, so the result is the same on every run. It runs on one
/// thread: the matmul examples compute it on a host thread of their own while the simulation runs on the
/// other core.
pub fn matmul_reference(a: &[f32], b: &[f32], m: usize, n: usize, k: usize) -> Vec<f32> {
    const KB: usize = 128;
    assert!(n.is_multiple_of(32), "matmul_reference: n = {n} is not a multiple of 32");
    // Zeros written, not a zeroed allocation: the sums below read C before writing it, and a read of a
    // fresh zeroed page maps the shared zero page, which the write then copies with a TLB shootdown to every
    // CPU the process runs on (6% of the 2048³ example's time went to those).
    let mut out = Vec::with_capacity(m * n);
    out.resize(m * n, 0f32);
    let rows = |first: usize, chunk: &mut [f32]| {
        let rows = chunk.len() / n;
        // A 32-column strip of a K block of B, packed contiguously (B's rows are a power-of-two stride apart,
        // which would make them collide in the cache).
        let mut strip = vec![0f32; KB * 32];
        for k0 in (0..k).step_by(KB) {
            let kb = KB.min(k - k0);
            for n0 in (0..n).step_by(32) {
                for kk in 0..kb {
                    let src = (k0 + kk) * n + n0;
                    strip[kk * 32..kk * 32 + 32].copy_from_slice(&b[src..src + 32]);
                }
                sim_core::simd::matmul_into::<32>(&mut chunk[n0..], n, &a[first * k + k0..], k, &strip, 32, rows, kb);
            }
        }
    };
    rows(0, &mut out);
    out
}

/// The output tiles a sampled check compares (`--check sample`): at most [`super::SAMPLED_TILES`] of the
/// `mt × nt` tiles, spread over the output by a stride coprime with their count and an offset from the
/// seed, so the same run always samples the same tiles; `(tile row, tile column)` in increasing order.
pub fn sampled_tiles(mt: usize, nt: usize, seed: u64) -> Vec<(usize, usize)> {
    let count = mt * nt;
    if count <= super::SAMPLED_TILES {
        return (0..count).map(|t| (t / nt, t % nt)).collect();
    }
    let mut stride = count / super::SAMPLED_TILES + 1;
    while gcd(stride, count) != 1 {
        stride += 1;
    }
    let start = (seed as usize) % count;
    let mut v: Vec<(usize, usize)> =
        (0..super::SAMPLED_TILES).map(|i| (start + i * stride) % count).map(|t| (t / nt, t % nt)).collect();
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
    check: super::CheckMode,
    got: &[f32],
    (m, n): (usize, usize),
    reference: impl FnOnce(Option<&[(usize, usize)]>) -> Vec<f32>,
    seed: u64,
    min_pcc: f64,
) -> (bool, String) {
    match check {
        super::CheckMode::Full => check_pcc(what, got, &reference(None), min_pcc),
        super::CheckMode::Sample => {
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
        super::CheckMode::Off => {
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
