//! What the matmul examples share: the problem shape from the command line, random bf16 operands in
//! DRAM with their CPU reference, the per-output-tile kernels of the simple matmuls, the blocked compute
//! kernel (`bmm_large_block_zm`) and output writer of the reuse variants, and the block plan that spreads
//! the output over a core grid.

use super::common::{BF16_TILE, CB_IN0, CB_IN1, CB_OUT0, bf16_cb, random_bf16};
use crate::checks::{matmul_metrics, matmul_reference};
use crate::options::{ExampleOptions, OptionError, Outcome, ProgramError};
use crate::rng::Rng;
use sim_device::prelude::*;

/// The intermediate (partial sums) CB of the blocked matmuls; it shares memory with c_16.
pub const CB_INTERM0: CBIndex = CBIndex::c_24;

/// A matmul problem: (M × K) · (K × N), in elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatmulShape {
    /// Rows of A and of the output.
    pub m: u32,
    /// Columns of B and of the output.
    pub n: u32,
    /// The inner dimension.
    pub k: u32,
}

impl MatmulShape {
    /// The shape asked for on the command line (`--m --n --k`, falling back to `--size` then `default`).
    pub fn from_opts(o: &ExampleOptions, default: u32) -> Result<MatmulShape, OptionError> {
        let d = o.size.unwrap_or(default);
        let s = MatmulShape { m: o.m.unwrap_or(d), n: o.n.unwrap_or(d), k: o.k.unwrap_or(d) };
        for (name, v) in [("m", s.m), ("n", s.n), ("k", s.k)] {
            if v == 0 || v % 32 != 0 {
                return Err(OptionError::value(
                    name,
                    v,
                    "matmul dimensions are whole tiles; use a positive multiple of 32",
                ));
            }
        }
        Ok(s)
    }

    /// Tiles of M.
    pub fn mt(&self) -> u32 {
        self.m / 32
    }

    /// Tiles of N.
    pub fn nt(&self) -> u32 {
        self.n / 32
    }

    /// Tiles of K.
    pub fn kt(&self) -> u32 {
        self.k / 32
    }
}

/// The operands in DRAM and on the host.
pub struct MatmulData {
    /// A, row-major (host copy, bf16 values), shared with the reference thread.
    pub a: std::sync::Arc<Vec<f32>>,
    /// B, row-major (host copy, bf16 values).
    pub b: std::sync::Arc<Vec<f32>>,
    /// A on the device, tilized, one tile per page.
    pub in0: Buffer,
    /// B on the device.
    pub in1: Buffer,
    /// The output on the device.
    pub out: Buffer,
    /// The CPU reference, computed on another host thread while the simulation runs (only for a full check).
    reference: Option<std::thread::JoinHandle<Vec<f32>>>,
    /// How the output is checked, and the seed that picks a sampled check's tiles.
    check: (super::CheckMode, u64),
}

/// Random A and B uniform in [-1, 1) written tilized to interleaved DRAM, and an output buffer.
pub fn setup(dev: &mut Device, s: MatmulShape, seed: u64, check: super::CheckMode) -> Result<MatmulData, DeviceError> {
    // The device buffers first: a problem too large for DRAM is an error before any host memory is taken.
    let tiles = |name: &str, r: u32, c: u32| {
        u32::try_from(u64::from(r) * u64::from(c)).map_err(|_| {
            DeviceError::Api(format!("matmul {name}: {r}x{c} tiles do not fit 32 bits; make the problem smaller"))
        })
    };
    let in0 = super::common::bf16_dram_buffer(dev, tiles("A", s.mt(), s.kt())?)?;
    let in1 = super::common::bf16_dram_buffer(dev, tiles("B", s.kt(), s.nt())?)?;
    let out = super::common::bf16_dram_buffer(dev, tiles("C", s.mt(), s.nt())?)?;
    // A then B from one random stream; B, its part of the stream skipped to, is made and tilized on a
    // second host thread at the same time.
    let (m, n, k) = (s.m as usize, s.n as usize, s.k as usize);
    let mut rng = Rng::new(seed);
    let mut rng_b = rng.clone();
    rng_b.skip((m * k) as u64);
    let make = |rng: &mut Rng, rows: usize, cols: usize| {
        let v = random_bf16(rng, rows * cols, -1.0, 1.0);
        let tiled = layout::tile::tilize_bf16_bytes(&v, rows, cols);
        (v, tiled)
    };
    let ((a, a_tiled), (b, b_tiled)) = std::thread::scope(|sc| {
        let b = sc.spawn(|| make(&mut rng_b, k, n));
        let a = make(&mut rng, m, k);
        (a, b.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
    });
    dev.enqueue_write_buffer_bytes(&in0, &a_tiled)?;
    dev.enqueue_write_buffer_bytes(&in1, &b_tiled)?;
    drop((a_tiled, b_tiled));
    let (a, b) = (std::sync::Arc::new(a), std::sync::Arc::new(b));
    // The reference starts only now: a second thread running while this one frees large blocks makes every
    // free a cross-core TLB shootdown (measured: setup 21 -> 29 ms when it started before the writes).
    let (ra, rb) = (a.clone(), b.clone());
    // Full: the whole product; sampled: only the tiles the check compares; off: nothing.
    let picked = crate::checks::sampled_tiles(m / 32, n / 32, seed);
    let reference = (check != super::CheckMode::Off)
        .then(|| {
            std::thread::Builder::new()
                .name("matmul reference".into())
                .spawn(move || {
                    sim_core::host_threads::run_in_background();
                    match check {
                        super::CheckMode::Sample => crate::checks::matmul_reference_tiles(&ra, &rb, n, k, &picked),
                        _ => matmul_reference(&ra, &rb, m, n, k),
                    }
                })
                .ok()
        })
        .flatten();
    Ok(MatmulData { a, b, in0, in1, out, reference, check: (check, seed) })
}

/// Read the output, check it against the CPU reference by PCC, and add the TFLOP/s figures.
pub fn finish(
    dev: &mut Device,
    mut d: MatmulData,
    report: RunReport,
    s: MatmulShape,
    cores: u32,
    fidelity: MathFidelity,
    min_pcc: f64,
) -> Result<Outcome, ProgramError> {
    let (m, n, k) = (s.m as usize, s.n as usize, s.k as usize);
    let (mode, seed) = d.check;
    // The reference thread computes exactly what this would (it panics only if the host is out of memory);
    // it is done long before the simulation in practice.
    let want = match (mode, d.reference.take().map(|h| h.join())) {
        (super::CheckMode::Off, _) => Vec::new(),
        (_, Some(Ok(v))) => v,
        (super::CheckMode::Full, _) => matmul_reference(&d.a, &d.b, m, n, k),
        (super::CheckMode::Sample, _) => {
            crate::checks::matmul_reference_tiles(&d.a, &d.b, n, k, &crate::checks::sampled_tiles(m / 32, n / 32, seed))
        }
    };
    // A's host copy is not needed any more: its memory takes the output.
    let spare = std::sync::Arc::try_unwrap(std::mem::take(&mut d.a)).unwrap_or_default();
    let got = super::common::read_bf16_matrix_into(dev, &d.out, m, n, spare)?;
    let (passed, check) = crate::checks::check_matmul(
        &format!("C = A·B ({}x{}x{})", s.m, s.k, s.n),
        mode,
        &got,
        (m, n),
        |_| want,
        seed,
        min_pcc,
    );
    let metrics = matmul_metrics(dev, &report, (s.m, s.n, s.k), cores, fidelity);
    Ok(Outcome { passed, check, report, metrics })
}

// -------------------------------------------------------------------------------------------------
// One output tile at a time (matmul_single_core, matmul_multi_core)
// -------------------------------------------------------------------------------------------------

/// `reader_mm`: for each output tile `start .. start + n` (row-major over Mt × Nt), the Kt tile pairs
/// A(mt, kt) → c_0 and B(kt, nt) → c_1, through TensorAccessors (their args, page size included, at
/// compile-time offset 0 and after it). RT args: in0 address, in1 address, Mt, Kt, Nt, start, n.
pub fn reader_mm(k: &mut Dataflow) {
    let (a_addr, b_addr): (u32, u32) = (k.get_arg_val(0), k.get_arg_val(1));
    let (_mt, kt, nt): (u32, u32, u32) = (k.get_arg_val(2), k.get_arg_val(3), k.get_arg_val(4));
    let (start, n): (u32, u32) = (k.get_arg_val(5), k.get_arg_val(6));
    let a_args = k.tensor_accessor_args(0);
    let b_args = k.tensor_accessor_args(a_args.next_compile_time_args_offset());
    let (a, b) = (TensorAccessor::new(a_args, a_addr, 0), TensorAccessor::new(b_args, b_addr, 0));
    for out in start..start + n {
        let (m, nn) = (out / nt, out % nt);
        for kk in 0..kt {
            k.cb_reserve_back(CB_IN0, 1);
            let l1 = k.get_write_ptr(CB_IN0);
            k.noc_async_read_tile(m * kt + kk, &a, l1);
            k.noc_async_read_barrier();
            k.cb_push_back(CB_IN0, 1);
            k.cb_reserve_back(CB_IN1, 1);
            let l1 = k.get_write_ptr(CB_IN1);
            k.noc_async_read_tile(kk * nt + nn, &b, l1);
            k.noc_async_read_barrier();
            k.cb_push_back(CB_IN1, 1);
        }
    }
}

/// The compute kernel `mm`: for each of `n` output tiles, DST = Σ over Kt of A·B, packed to c_16.
/// RT args: n, Kt. (Today's `compute_kernel_hw_startup<SrcOrder::Reverse>` + `matmul_init`.)
pub fn mm_tiles(c: &mut Compute) {
    let n: u32 = c.get_arg_val(0);
    let kt: u32 = c.get_arg_val(1);
    c.compute_kernel_hw_startup(CB_IN0, CB_IN1, CB_OUT0);
    c.mm_init_short(CB_IN0, CB_IN1, 0);
    for _ in 0..n {
        c.tile_regs_acquire();
        for _ in 0..kt {
            c.cb_wait_front(CB_IN0, 1);
            c.cb_wait_front(CB_IN1, 1);
            c.matmul_tiles(CB_IN0, CB_IN1, 0, 0, 0);
            c.cb_pop_front(CB_IN0, 1);
            c.cb_pop_front(CB_IN1, 1);
        }
        c.tile_regs_commit();
        c.tile_regs_wait();
        c.cb_reserve_back(CB_OUT0, 1);
        c.pack_tile(0, CB_OUT0);
        c.cb_push_back(CB_OUT0, 1);
        c.tile_regs_release();
    }
}

// -------------------------------------------------------------------------------------------------
// Blocked matmuls (matmul_multicore_reuse, matmul_multicore_reuse_mcast)
// -------------------------------------------------------------------------------------------------

/// How the output is blocked over a core grid: each core computes `per_core_m × per_core_n` output tiles in
/// `out_subblock_h × out_subblock_w` sub-blocks that fit in half of DST, stepping K `in0_block_w` tiles
/// at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockPlan {
    /// Output tile rows per core.
    pub per_core_m: u32,
    /// Output tile columns per core.
    pub per_core_n: u32,
    /// K tiles per block.
    pub in0_block_w: u32,
    /// Sub-block rows.
    pub out_subblock_h: u32,
    /// Sub-block columns.
    pub out_subblock_w: u32,
    /// Cores across (one per `per_core_n` columns).
    pub cores_x: u32,
    /// Cores down (one per `per_core_m` rows).
    pub cores_y: u32,
    /// K blocks.
    pub num_blocks: u32,
}

impl BlockPlan {
    /// The plan for `s` on a `grid`: the smallest per-core block that divides the output evenly and uses no
    /// more cores than the grid has, K blocks of `in0_block_w` (2, or 1 when Kt is odd), and the largest
    /// sub-block of at most `dst_tiles` tiles that divides the block.
    pub fn new(s: MatmulShape, grid: CoreCoord, dst_tiles: u32) -> BlockPlan {
        let smallest_fit = |tiles: u32, cores: u32| {
            (1..=tiles).find(|d| tiles.is_multiple_of(*d) && tiles / d <= cores).unwrap_or(tiles)
        };
        let per_core_m = smallest_fit(s.mt(), grid.y);
        let per_core_n = smallest_fit(s.nt(), grid.x);
        let in0_block_w = if s.kt().is_multiple_of(2) { 2 } else { 1 };
        let (out_subblock_h, out_subblock_w) = crate::ops::matmul_2d_mcast::config::SUBBLOCK_CHOICES
            .iter()
            .copied()
            .find(|&(h, w)| h * w <= dst_tiles && per_core_m % h == 0 && per_core_n % w == 0)
            .unwrap_or((1, 1));
        BlockPlan {
            per_core_m,
            per_core_n,
            in0_block_w,
            out_subblock_h,
            out_subblock_w,
            cores_x: s.nt() / per_core_n,
            cores_y: s.mt() / per_core_m,
            num_blocks: s.kt() / in0_block_w,
        }
    }

    /// The cores used, logical (0,0) .. (cores_x−1, cores_y−1).
    pub fn cores(&self) -> CoreRange {
        CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(self.cores_x - 1, self.cores_y - 1))
    }

    /// Tiles of one A block (per_core_m × in0_block_w).
    pub fn in0_block_tiles(&self) -> u32 {
        self.per_core_m * self.in0_block_w
    }

    /// Tiles of one B block (in0_block_w × per_core_n).
    pub fn in1_block_tiles(&self) -> u32 {
        self.per_core_n * self.in0_block_w
    }

    /// The CBs: double-buffered A and B blocks, and the output block with the partials CB c_24 sharing its
    /// memory.
    pub fn create_cbs(&self, p: &mut Program, cores: CoreRange) -> Result<(), DeviceError> {
        p.create_circular_buffer(cores, bf16_cb(2 * self.in0_block_tiles(), CB_IN0))?;
        p.create_circular_buffer(cores, bf16_cb(2 * self.in1_block_tiles(), CB_IN1))?;
        let out_tiles = self.per_core_m * self.per_core_n;
        let shared = CircularBufferConfig::new(
            out_tiles * BF16_TILE,
            &[(CB_OUT0, DataFormat::Float16_b), (CB_INTERM0, DataFormat::Float16_b)],
        )
        .set_page_size(CB_OUT0, BF16_TILE)
        .set_page_size(CB_INTERM0, BF16_TILE);
        p.create_circular_buffer(cores, shared)?;
        Ok(())
    }

    /// The compile-time args of [`bmm_large_block_zm`].
    pub fn compute_args(&self) -> Vec<u32> {
        let in0_num_subblocks = self.per_core_m / self.out_subblock_h;
        let in1_num_subblocks = self.per_core_n / self.out_subblock_w;
        vec![
            self.in0_block_w,
            in0_num_subblocks,
            self.in0_block_tiles(),
            self.out_subblock_h * self.in0_block_w,
            in1_num_subblocks,
            self.in1_block_tiles(),
            self.per_core_n,
            self.num_blocks,
            self.out_subblock_h,
            self.out_subblock_w,
            self.out_subblock_h * self.out_subblock_w,
        ]
    }

    /// The runtime args of [`writer_bmm_tile_layout`] for the core at block (`bx`, `by`).
    pub fn writer_args(&self, s: MatmulShape, out_addr: u32, bx: u32, by: u32) -> Vec<u32> {
        let nt = s.nt();
        vec![
            out_addr,
            by * self.per_core_m * nt + bx * self.per_core_n,
            nt,
            self.out_subblock_w,
            self.out_subblock_h * nt,
            self.out_subblock_w,
            self.out_subblock_h,
            self.per_core_n / self.out_subblock_w,
            self.per_core_m / self.out_subblock_h,
        ]
    }
}

/// The blocked compute kernel `bmm_large_block_zm`: for each K block, every sub-block of the output is
/// accumulated in DST — reloading its partial sums from c_24 after the first block — and packed to c_24
/// (partials) or, after the last block, to c_16. CT args: see [`BlockPlan::compute_args`].
pub fn bmm_large_block_zm(c: &mut Compute) {
    let in0_block_w = c.get_compile_time_arg_val(0);
    let in0_num_subblocks = c.get_compile_time_arg_val(1);
    let in0_block_num_tiles = c.get_compile_time_arg_val(2);
    let in0_subblock_num_tiles = c.get_compile_time_arg_val(3);
    let in1_num_subblocks = c.get_compile_time_arg_val(4);
    let in1_block_num_tiles = c.get_compile_time_arg_val(5);
    let in1_per_core_w = c.get_compile_time_arg_val(6);
    let num_blocks = c.get_compile_time_arg_val(7);
    let out_subblock_h = c.get_compile_time_arg_val(8);
    let out_subblock_w = c.get_compile_time_arg_val(9);
    let out_subblock_num_tiles = c.get_compile_time_arg_val(10);

    c.mm_init(CB_IN0, CB_IN1, CB_OUT0, 0);
    let mut reload = false;
    let mut out_tiles_to_wait = out_subblock_num_tiles;
    for block in 0..num_blocks {
        let last = block + 1 == num_blocks;
        c.cb_wait_front(CB_IN0, in0_block_num_tiles);
        c.cb_wait_front(CB_IN1, in1_block_num_tiles);
        let mut in0_subblock_offset = 0;
        for _ in 0..in0_num_subblocks {
            let mut in1_subblock_offset = 0;
            for _ in 0..in1_num_subblocks {
                c.acquire_dst();
                if reload {
                    c.copy_tile_to_dst_init_short(CB_INTERM0, 0);
                    c.cb_wait_front(CB_INTERM0, out_subblock_num_tiles);
                    for i in 0..out_subblock_num_tiles {
                        c.copy_tile(CB_INTERM0, i, i);
                    }
                    c.cb_pop_front(CB_INTERM0, out_subblock_num_tiles);
                    c.mm_init_short(CB_IN0, CB_IN1, 0);
                }
                let mut dst = 0;
                for h in 0..out_subblock_h {
                    for w in 0..out_subblock_w {
                        for inner in 0..in0_block_w {
                            let a = in0_subblock_offset + h * in0_block_w + inner;
                            let b = in1_subblock_offset + inner * in1_per_core_w + w;
                            c.matmul_tiles(CB_IN0, CB_IN1, a, b, dst);
                        }
                        dst += 1;
                    }
                }
                if last {
                    c.cb_reserve_back(CB_OUT0, out_subblock_num_tiles);
                    for i in 0..out_subblock_num_tiles {
                        c.pack_tile(i, CB_OUT0);
                    }
                    c.cb_push_back(CB_OUT0, out_subblock_num_tiles);
                } else {
                    // c_16 and c_24 share memory: on the first block, keep the output's space reserved
                    // ahead of the partials so the two never overlap.
                    if block == 0 {
                        c.cb_reserve_back(CB_OUT0, out_tiles_to_wait);
                        out_tiles_to_wait += out_subblock_num_tiles;
                    }
                    c.cb_reserve_back(CB_INTERM0, out_subblock_num_tiles);
                    for i in 0..out_subblock_num_tiles {
                        c.pack_tile(i, CB_INTERM0);
                    }
                    c.cb_push_back(CB_INTERM0, out_subblock_num_tiles);
                }
                c.release_dst();
                in1_subblock_offset += out_subblock_w;
            }
            in0_subblock_offset += in0_subblock_num_tiles;
        }
        if num_blocks > 1 {
            reload = true;
        }
        c.cb_pop_front(CB_IN0, in0_block_num_tiles);
        c.cb_pop_front(CB_IN1, in1_block_num_tiles);
    }
}

/// `writer_bmm_tile_layout`: the output block from c_16, sub-block by sub-block, to its tiles of the
/// interleaved output. RT args: out address, first tile, stride_h (Nt), next sub-block stride w, next
/// sub-block stride h, sub-block w, sub-block h, sub-blocks across, sub-blocks down.
pub fn writer_bmm_tile_layout(k: &mut Dataflow) {
    let addr: u32 = k.get_arg_val(0);
    let start: u32 = k.get_arg_val(1);
    let stride_h: u32 = k.get_arg_val(2);
    let next_w: u32 = k.get_arg_val(3);
    let next_h: u32 = k.get_arg_val(4);
    let (sub_w, sub_h): (u32, u32) = (k.get_arg_val(5), k.get_arg_val(6));
    let (num_w, num_h): (u32, u32) = (k.get_arg_val(7), k.get_arg_val(8));
    let tile = k.get_tile_size(CB_OUT0);
    let out =
        InterleavedAddrGenFast::<true> { bank_base_address: addr, page_size: tile, data_format: DataFormat::Float16_b };
    let mut row_start = start;
    for _ in 0..num_h {
        let mut sub_start = row_start;
        for _ in 0..num_w {
            k.cb_wait_front(CB_OUT0, sub_h * sub_w);
            let mut l1 = k.get_read_ptr(CB_OUT0);
            let mut line = sub_start;
            for _ in 0..sub_h {
                for w in 0..sub_w {
                    k.noc_async_write_tile(line + w, &out, l1);
                    l1 += tile;
                }
                line += stride_h;
            }
            k.noc_async_write_barrier();
            k.cb_pop_front(CB_OUT0, sub_h * sub_w);
            sub_start += next_w;
        }
        row_start += next_h;
    }
}

/// The fidelity a matmul example runs at (`--fidelity`, default HiFi4).
pub fn fidelity(o: &ExampleOptions) -> MathFidelity {
    o.fidelity.unwrap_or(MathFidelity::HiFi4)
}
