//! The 2-D multicast matmul's configuration: TTNN's `MatmulMultiCoreReuseMultiCastProgramConfig` fields,
//! the compute kernel config, and the benchmark's rule that derives them from a shape (gemm-bench.md §1.2),
//! with every check the op makes before it builds a program.

use layout::ttnn::DataType;
use sim_device::prelude::*;

/// Sub-block shapes (h, w) in order of preference, as tt-metal's matmul helpers try them: the largest that
/// fits DST first (also the candidate list of the GEMM benchmark's chooser, gemm-bench.md §1.2).
pub const SUBBLOCK_CHOICES: [(u32, u32); 20] = [
    (4, 2),
    (2, 4),
    (8, 1),
    (1, 8),
    (7, 1),
    (1, 7),
    (3, 2),
    (2, 3),
    (6, 1),
    (1, 6),
    (5, 1),
    (1, 5),
    (2, 2),
    (4, 1),
    (1, 4),
    (3, 1),
    (1, 3),
    (2, 1),
    (1, 2),
    (1, 1),
];

/// `MatmulMultiCoreReuseMultiCastProgramConfig` (tiles; `grid` is (x columns, y rows)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProgramConfig {
    /// `compute_with_storage_grid_size` (x, y).
    pub grid: (u32, u32),
    /// K-block width: the K loop runs Kt / in0_block_w times per output block.
    pub in0_block_w: u32,
    /// Output tiles held in DST at once: rows.
    pub out_subblock_h: u32,
    /// Output tiles held in DST at once: columns.
    pub out_subblock_w: u32,
    /// Output block one K loop produces: rows (divides per_core_m).
    pub out_block_h: u32,
    /// Output block one K loop produces: columns (divides per_core_n).
    pub out_block_w: u32,
    /// Output rows (tiles) one core owns.
    pub per_core_m: u32,
    /// Output columns (tiles) one core owns.
    pub per_core_n: u32,
}

/// One matmul `C[m, n] = A[m, k] · B[k, n]` as the op runs it.
#[derive(Debug, Clone, PartialEq)]
pub struct Matmul2d {
    /// Rows of A and C (elements).
    pub m: u32,
    /// Inner dimension (elements).
    pub k: u32,
    /// Columns of B and C (elements).
    pub n: u32,
    /// Data type of in0, in1 and the output (`bf16`, `bfp8_b`, `bfp4_b`).
    pub dtype: DataType,
    /// in0 block-sharded in L1 over the grid (else DRAM interleaved).
    pub in0_sharded: bool,
    /// The output block-sharded in L1 (else DRAM interleaved).
    pub out_sharded: bool,
    /// The program config.
    pub program: ProgramConfig,
    /// Math fidelity.
    pub fidelity: MathFidelity,
    /// `fp32_dest_acc_en`.
    pub fp32_dest_acc: bool,
    /// `packer_l1_acc` as asked for (the op uses it only with more than two K blocks).
    pub packer_l1_acc: bool,
    /// `math_approx_mode`.
    pub math_approx: bool,
}

fn err(msg: String) -> DeviceError {
    DeviceError::api(format!("matmul_2d_mcast: {msg}"))
}

impl Matmul2d {
    /// The benchmark's configuration of one shape (gemm-bench.md §1.2): an 8×8 grid, `in0_block_w =
    /// k/8/32/in0_block_w_div`, per-core blocks splitting the output evenly, output blocks
    /// `per_core/num_out_blocks`, and the first sub-block candidate that divides the output block (with
    /// height 1 when the output is sharded). Compute config: approximate mode, no fp32 DST, packer L1
    /// accumulation on.
    #[allow(clippy::too_many_arguments)]
    pub fn benchmark(
        (m, k, n): (u32, u32, u32),
        sharded: bool,
        in0_block_w_div: u32,
        num_out_blocks: (u32, u32),
        dtype: DataType,
        fidelity: MathFidelity,
    ) -> Result<Matmul2d, DeviceError> {
        let (gx, gy) = (8u32, 8u32);
        let nonzero = |v: u32, what: &str| if v == 0 { Err(err(format!("{what} is 0"))) } else { Ok(v) };
        nonzero(in0_block_w_div, "in0_block_w_div")?;
        nonzero(num_out_blocks.0, "num_out_blocks_h")?;
        nonzero(num_out_blocks.1, "num_out_blocks_w")?;
        let in0_block_w = k / gx / 32 / in0_block_w_div;
        let per_core_m = m / gy / 32;
        let per_core_n = n / gx / 32;
        let out_block_h = per_core_m / num_out_blocks.0;
        let out_block_w = per_core_n / num_out_blocks.1;
        let (out_subblock_h, out_subblock_w) = SUBBLOCK_CHOICES
            .iter()
            .copied()
            .find(|&(h, w)| out_block_h.is_multiple_of(h) && out_block_w.is_multiple_of(w) && (!sharded || h == 1))
            .unwrap_or((1, 1));
        let mm = Matmul2d {
            m,
            k,
            n,
            dtype,
            in0_sharded: sharded,
            out_sharded: sharded,
            program: ProgramConfig {
                grid: (gx, gy),
                in0_block_w,
                out_subblock_h,
                out_subblock_w,
                out_block_h,
                out_block_w,
                per_core_m,
                per_core_n,
            },
            fidelity,
            fp32_dest_acc: false,
            packer_l1_acc: true,
            math_approx: true,
        };
        mm.check()?;
        Ok(mm)
    }

    /// Tiles of M.
    pub fn mt(&self) -> u32 {
        self.m / 32
    }

    /// Tiles of K.
    pub fn kt(&self) -> u32 {
        self.k / 32
    }

    /// Tiles of N.
    pub fn nt(&self) -> u32 {
        self.n / 32
    }

    /// K blocks per output block.
    pub fn num_k_blocks(&self) -> u32 {
        self.kt() / self.program.in0_block_w
    }

    /// Cores used: (columns, rows).
    pub fn cores(&self) -> (u32, u32) {
        let p = &self.program;
        (self.nt().div_ceil(p.per_core_n), self.mt().div_ceil(p.per_core_m))
    }

    /// Whether the op accumulates partials in L1 (packer L1 accumulation with more than two K blocks).
    pub fn l1_acc(&self) -> bool {
        self.packer_l1_acc && self.num_k_blocks() > 2
    }

    /// Tile products per core.
    pub fn products_per_core(&self) -> u64 {
        let p = &self.program;
        p.per_core_m as u64 * p.per_core_n as u64 * self.kt() as u64
    }

    /// Every rule the op relies on, checked before any program is built.
    pub fn check(&self) -> Result<(), DeviceError> {
        let p = &self.program;
        for (v, what) in [(self.m, "m"), (self.k, "k"), (self.n, "n")] {
            if v == 0 || !v.is_multiple_of(32) {
                return Err(err(format!("{what} = {v} must be a non-zero multiple of 32 (whole tiles)")));
            }
        }
        if !matches!(self.dtype, DataType::Bf16 | DataType::Bfp8 | DataType::Bfp4) {
            return Err(err(format!("data type {} is not one the op takes (bf16, bfp8_b, bfp4_b)", self.dtype)));
        }
        for (v, what) in [
            (p.per_core_m, "per_core_M"),
            (p.per_core_n, "per_core_N"),
            (p.in0_block_w, "in0_block_w"),
            (p.out_subblock_h, "out_subblock_h"),
            (p.out_subblock_w, "out_subblock_w"),
            (p.out_block_h, "out_block_h"),
            (p.out_block_w, "out_block_w"),
            (p.grid.0, "grid x"),
            (p.grid.1, "grid y"),
        ] {
            if v == 0 {
                return Err(err(format!("{what} is 0 (the shape is too small for this config)")));
            }
        }
        let need = |ok: bool, msg: String| if ok { Ok(()) } else { Err(err(msg)) };
        need(
            self.kt().is_multiple_of(p.in0_block_w),
            format!("in0_block_w {} does not divide Kt {}", p.in0_block_w, self.kt()),
        )?;
        need(
            self.mt() == p.per_core_m * self.cores().1 && self.nt() == p.per_core_n * self.cores().0,
            format!(
                "per_core_M x per_core_N = {}x{} tiles does not tile the {}x{}-tile output",
                p.per_core_m,
                p.per_core_n,
                self.mt(),
                self.nt()
            ),
        )?;
        let (cx, cy) = self.cores();
        need(
            cx <= p.grid.0 && cy <= p.grid.1,
            format!("the output needs {cx}x{cy} cores but the grid is {}x{}", p.grid.0, p.grid.1),
        )?;
        need(
            p.per_core_m.is_multiple_of(p.out_block_h) && p.per_core_n.is_multiple_of(p.out_block_w),
            format!(
                "out_block {}x{} does not divide the per-core block {}x{}",
                p.out_block_h, p.out_block_w, p.per_core_m, p.per_core_n
            ),
        )?;
        need(
            p.out_block_h.is_multiple_of(p.out_subblock_h) && p.out_block_w.is_multiple_of(p.out_subblock_w),
            format!(
                "out_subblock {}x{} does not divide the output block {}x{}",
                p.out_subblock_h, p.out_subblock_w, p.out_block_h, p.out_block_w
            ),
        )?;
        let dst = if self.fp32_dest_acc { 4 } else { 8 };
        need(
            p.out_subblock_h * p.out_subblock_w <= dst,
            format!(
                "out_subblock {}x{} holds more than the {dst} DST tiles of half-sync mode",
                p.out_subblock_h, p.out_subblock_w
            ),
        )?;
        if self.out_sharded {
            need(self.in0_sharded, "a sharded output needs a sharded in0 (as the benchmark runs it)".into())?;
            need(
                p.out_block_w == p.per_core_n,
                format!("a sharded output needs out_block_w = per_core_N ({} != {})", p.out_block_w, p.per_core_n),
            )?;
            need(
                p.out_subblock_h == 1 || p.out_subblock_w == p.out_block_w,
                "a sharded output needs sub-blocks in row-major tile order (out_subblock_h = 1)".into(),
            )?;
        }
        if self.in0_sharded {
            need(
                cx == p.grid.0 && cy == p.grid.1,
                format!("a block-sharded in0 needs the whole {}x{} grid ({cx}x{cy} used)", p.grid.0, p.grid.1),
            )?;
            need(
                self.kt().is_multiple_of(p.grid.0) && (self.kt() / p.grid.0).is_multiple_of(p.in0_block_w),
                format!(
                    "in0 shards of Kt/{} = {} tiles must hold whole K blocks of {}",
                    p.grid.0,
                    self.kt() as f64 / p.grid.0 as f64,
                    p.in0_block_w
                ),
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(shape: (u32, u32, u32), sharded: bool, div: u32, ob: (u32, u32)) -> ProgramConfig {
        Matmul2d::benchmark(shape, sharded, div, ob, DataType::Bf16, MathFidelity::HiFi2).unwrap().program
    }

    #[test]
    fn benchmark_rule_gives_the_table_configs() {
        // gemm-bench.md §1.3 rows M1, M8, M10, M13 and M72 (in0_block_w, sub_h, sub_w, pcM, pcN, ob_h, ob_w).
        let c = cfg((512, 512, 512), true, 1, (1, 1));
        assert_eq!((c.in0_block_w, c.out_subblock_h, c.out_subblock_w, c.per_core_m, c.per_core_n), (2, 1, 2, 2, 2));
        let c = cfg((2048, 2048, 3072), true, 1, (1, 1));
        assert_eq!((c.in0_block_w, c.out_subblock_h, c.out_subblock_w, c.per_core_n), (8, 1, 6, 12));
        let c = cfg((3072, 3072, 3072), true, 4, (1, 1));
        assert_eq!((c.in0_block_w, c.out_subblock_w), (3, 6));
        let c = cfg((4096, 4096, 4096), false, 1, (2, 2));
        assert_eq!((c.in0_block_w, c.out_subblock_h, c.out_subblock_w, c.out_block_h, c.out_block_w), (16, 4, 2, 8, 8));
        let c = cfg((8192, 8192, 8192), false, 2, (2, 2));
        assert_eq!((c.in0_block_w, c.per_core_m, c.out_block_h), (16, 32, 16));
    }

    #[test]
    fn bad_configs_are_named() {
        let e = Matmul2d::benchmark((512, 500, 512), true, 1, (1, 1), DataType::Bf16, MathFidelity::HiFi2);
        assert!(e.unwrap_err().to_string().contains("k = 500"));
        let e = Matmul2d::benchmark((128, 512, 512), true, 1, (1, 1), DataType::Bf16, MathFidelity::HiFi2);
        assert!(e.unwrap_err().to_string().contains("per_core_M is 0"));
        let e = Matmul2d::benchmark((512, 512, 512), true, 0, (1, 1), DataType::Bf16, MathFidelity::HiFi2);
        assert!(e.unwrap_err().to_string().contains("in0_block_w_div is 0"));
    }
}
