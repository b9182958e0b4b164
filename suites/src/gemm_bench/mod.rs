//! The GEMM benchmark (gemm-bench.md): TTNN's manually tuned 2-D multicast matmuls on the Wormhole 8x8 grid,
//! each timed on its own and reported as the benchmark reports it — per-op time, TFLOP/s and utilisation
//! of the matrix engine — and, with a measured CSV, compared row by row.

pub mod compare;

use layout::ttnn::DataType;
use programs::ops::matmul_2d_mcast::{self, Matmul2d};
use sim_device::prelude::*;

use DataType::{Bf16, Bfp4, Bfp8};
use MathFidelity::{HiFi2, HiFi4, LoFi};

/// One configuration of the benchmark's table (gemm-bench.md §1.3): id, (m, k, n), data type, fidelity,
/// in0 and output sharded, `in0_block_w_div`, (`num_out_blocks_h`, `num_out_blocks_w`).
pub type Row = (&'static str, (u32, u32, u32), DataType, MathFidelity, bool, u32, (u32, u32));

/// The 73 manual configurations, in the benchmark's run order.
pub const ROWS: &[Row] = &[
    ("M1", (512, 512, 512), Bf16, HiFi2, true, 1, (1, 1)),
    ("M2", (512, 1024, 1024), Bf16, HiFi2, true, 1, (1, 1)),
    ("M3", (512, 1024, 2048), Bf16, HiFi2, true, 1, (1, 1)),
    ("M4", (1024, 1024, 1024), Bf16, HiFi2, true, 1, (1, 1)),
    ("M5", (1024, 1024, 2048), Bf16, HiFi2, true, 1, (1, 1)),
    ("M6", (1024, 2048, 2048), Bf16, HiFi2, true, 1, (1, 1)),
    ("M7", (2048, 2048, 2048), Bf16, HiFi2, true, 1, (1, 1)),
    ("M8", (2048, 2048, 3072), Bf16, HiFi2, true, 1, (1, 1)),
    ("M9", (2048, 3072, 3072), Bf16, HiFi2, true, 2, (1, 1)),
    ("M10", (3072, 3072, 3072), Bf16, HiFi2, true, 4, (1, 1)),
    ("M11", (3072, 3072, 4096), Bf16, HiFi2, false, 2, (1, 1)),
    ("M12", (3072, 4096, 4096), Bf16, HiFi2, false, 2, (1, 1)),
    ("M13", (4096, 4096, 4096), Bf16, HiFi2, false, 1, (2, 2)),
    ("M14", (8192, 8192, 8192), Bf16, HiFi2, false, 2, (4, 4)),
    ("M15", (16384, 16384, 16384), Bf16, HiFi2, false, 4, (8, 8)),
    ("M16", (512, 512, 512), Bf16, HiFi4, true, 1, (1, 1)),
    ("M17", (512, 1024, 1024), Bf16, HiFi4, true, 1, (1, 1)),
    ("M18", (512, 1024, 2048), Bf16, HiFi4, true, 1, (1, 1)),
    ("M19", (1024, 1024, 1024), Bf16, HiFi4, true, 1, (1, 1)),
    ("M20", (1024, 1024, 2048), Bf16, HiFi4, true, 1, (1, 1)),
    ("M21", (1024, 2048, 2048), Bf16, HiFi4, true, 1, (1, 1)),
    ("M22", (2048, 2048, 2048), Bf16, HiFi4, true, 1, (1, 1)),
    ("M23", (2048, 2048, 3072), Bf16, HiFi4, true, 1, (1, 1)),
    ("M24", (2048, 3072, 3072), Bf16, HiFi4, true, 2, (1, 1)),
    ("M25", (3072, 3072, 3072), Bf16, HiFi4, true, 4, (1, 1)),
    ("M26", (3072, 3072, 4096), Bf16, HiFi4, false, 2, (1, 1)),
    ("M27", (3072, 4096, 4096), Bf16, HiFi4, false, 2, (1, 1)),
    ("M28", (4096, 4096, 4096), Bf16, HiFi4, false, 1, (2, 2)),
    ("M29", (8192, 8192, 8192), Bf16, HiFi4, false, 2, (4, 4)),
    ("M30", (16384, 16384, 16384), Bf16, HiFi4, false, 4, (8, 8)),
    ("M31", (512, 512, 512), Bfp8, HiFi2, true, 1, (1, 1)),
    ("M32", (512, 1024, 1024), Bfp8, HiFi2, true, 1, (1, 1)),
    ("M33", (512, 1024, 2048), Bfp8, HiFi2, true, 1, (1, 1)),
    ("M34", (1024, 1024, 1024), Bfp8, HiFi2, true, 1, (1, 1)),
    ("M35", (1024, 1024, 2048), Bfp8, HiFi2, true, 1, (1, 1)),
    ("M36", (1024, 2048, 2048), Bfp8, HiFi2, true, 1, (1, 1)),
    ("M37", (2048, 2048, 2048), Bfp8, HiFi2, true, 1, (1, 1)),
    ("M38", (2048, 2048, 3072), Bfp8, HiFi2, true, 1, (1, 1)),
    ("M39", (2048, 3072, 3072), Bfp8, HiFi2, true, 1, (1, 1)),
    ("M40", (3072, 3072, 3072), Bfp8, HiFi2, true, 2, (1, 1)),
    ("M41", (3072, 3072, 4096), Bfp8, HiFi2, true, 2, (1, 1)),
    ("M42", (4096, 4096, 4096), Bfp8, HiFi2, false, 1, (2, 2)),
    ("M43", (8192, 8192, 8192), Bfp8, HiFi2, false, 2, (4, 4)),
    ("M44", (16384, 16384, 16384), Bfp8, HiFi2, false, 4, (8, 8)),
    ("M45", (512, 512, 512), Bfp8, LoFi, true, 1, (1, 1)),
    ("M46", (512, 1024, 1024), Bfp8, LoFi, true, 1, (1, 1)),
    ("M47", (512, 1024, 2048), Bfp8, LoFi, true, 1, (1, 1)),
    ("M48", (1024, 1024, 1024), Bfp8, LoFi, true, 1, (1, 1)),
    ("M49", (1024, 1024, 2048), Bfp8, LoFi, true, 1, (1, 1)),
    ("M50", (1024, 2048, 2048), Bfp8, LoFi, true, 1, (1, 1)),
    ("M51", (2048, 2048, 2048), Bfp8, LoFi, true, 1, (1, 1)),
    ("M52", (2048, 2048, 3072), Bfp8, LoFi, true, 1, (1, 1)),
    ("M53", (2048, 3072, 3072), Bfp8, LoFi, true, 1, (1, 1)),
    ("M54", (3072, 3072, 3072), Bfp8, LoFi, true, 2, (1, 1)),
    ("M55", (3072, 3072, 4096), Bfp8, LoFi, true, 2, (1, 1)),
    ("M56", (4096, 4096, 4096), Bfp8, LoFi, false, 1, (2, 2)),
    ("M57", (8192, 8192, 8192), Bfp8, LoFi, false, 2, (4, 4)),
    ("M58", (16384, 16384, 16384), Bfp8, LoFi, false, 4, (8, 8)),
    ("M59", (512, 512, 512), Bfp4, LoFi, true, 1, (1, 1)),
    ("M60", (512, 1024, 1024), Bfp4, LoFi, true, 1, (1, 1)),
    ("M61", (512, 1024, 2048), Bfp4, LoFi, true, 1, (1, 1)),
    ("M62", (1024, 1024, 1024), Bfp4, LoFi, true, 1, (1, 1)),
    ("M63", (1024, 1024, 2048), Bfp4, LoFi, true, 1, (1, 1)),
    ("M64", (1024, 2048, 2048), Bfp4, LoFi, true, 1, (1, 1)),
    ("M65", (2048, 2048, 2048), Bfp4, LoFi, true, 1, (1, 1)),
    ("M66", (2048, 2048, 3072), Bfp4, LoFi, true, 1, (1, 1)),
    ("M67", (2048, 3072, 3072), Bfp4, LoFi, true, 1, (1, 1)),
    ("M68", (3072, 3072, 3072), Bfp4, LoFi, true, 1, (1, 1)),
    ("M69", (3072, 3072, 4096), Bfp4, LoFi, true, 1, (1, 1)),
    ("M70", (3072, 4096, 4096), Bfp4, LoFi, true, 2, (1, 1)),
    ("M71", (4096, 4096, 4096), Bfp4, LoFi, true, 2, (1, 1)),
    ("M72", (8192, 8192, 8192), Bfp4, LoFi, false, 2, (2, 2)),
    ("M73", (16384, 16384, 16384), Bfp4, LoFi, false, 4, (4, 4)),
];

/// One configuration as the benchmark runs it.
#[derive(Debug, Clone)]
pub struct Config {
    /// The table's id (M1..M73).
    pub id: &'static str,
    /// The op.
    pub mm: Matmul2d,
}

/// The configurations, or those whose id, data type or size a filter keeps.
pub fn configs(filter: &Filter) -> Result<Vec<Config>, DeviceError> {
    let mut v = Vec::new();
    for &(id, shape, dtype, fid, sharded, div, blocks) in ROWS {
        if !filter.keeps(id, shape, dtype) {
            continue;
        }
        v.push(Config { id, mm: Matmul2d::benchmark(shape, sharded, div, blocks, dtype, fid)? });
    }
    Ok(v)
}

/// Which rows to run.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Only these ids.
    pub ids: Vec<String>,
    /// Only this data type.
    pub dtype: Option<DataType>,
    /// Only shapes whose largest dimension is at most this.
    pub max_dim: Option<u32>,
}

impl Filter {
    fn keeps(&self, id: &str, (m, k, n): (u32, u32, u32), dtype: DataType) -> bool {
        (self.ids.is_empty() || self.ids.iter().any(|i| i.eq_ignore_ascii_case(id)))
            && self.dtype.is_none_or(|d| d == dtype)
            && self.max_dim.is_none_or(|x| m.max(k).max(n) <= x)
    }
}

/// What one configuration measured.
#[derive(Debug, Clone)]
pub struct Timing {
    /// The configuration.
    pub id: &'static str,
    /// The op.
    pub mm: Matmul2d,
    /// Cycles of the op's program, first kernel start to last kernel end.
    pub op_cycles: u64,
    /// Cycles between consecutive ops of the benchmark's loop (`dispatch.program_launch_cycles`).
    pub launch_cycles: u64,
    /// The chip clock (MHz).
    pub clock_mhz: u32,
    /// Notes from the run ("not modelled: …").
    pub notes: Vec<String>,
}

impl Timing {
    /// Per-op time as the benchmark measures it (op plus the launch of the next), nanoseconds.
    pub fn time_ns(&self) -> f64 {
        (self.op_cycles + self.launch_cycles) as f64 * 1000.0 / self.clock_mhz as f64
    }

    /// 2·m·k·n / time.
    pub fn tflops(&self) -> f64 {
        2.0 * self.mm.m as f64 * self.mm.k as f64 * self.mm.n as f64 / self.time_ns() / 1000.0
    }

    /// Ideal cycles / actual cycles on the 64-core grid (LoFi 16 cycles per tile product per phase).
    pub fn utilisation(&self) -> f64 {
        let phases = fidelity_phases(self.mm.fidelity) as f64;
        let tiles = self.mm.m as f64 * self.mm.k as f64 * self.mm.n as f64 / 32768.0;
        let ideal = tiles * 16.0 * phases / 64.0;
        ideal / (self.time_ns() * self.clock_mhz as f64 / 1000.0)
    }
}

/// Fidelity phases of `f` (LoFi 1 … HiFi4 4).
pub fn fidelity_phases(f: MathFidelity) -> u32 {
    match f {
        MathFidelity::LoFi => 1,
        MathFidelity::HiFi2 => 2,
        MathFidelity::HiFi3 => 3,
        MathFidelity::HiFi4 => 4,
    }
}

/// Time one configuration on `dev` (timing only: no data is computed).
pub fn time(dev: &mut Device, c: &Config) -> Result<Timing, DeviceError> {
    let r = matmul_2d_mcast::time(dev, &c.mm)?;
    Ok(Timing {
        id: c.id,
        mm: c.mm.clone(),
        op_cycles: r.cycles.0,
        launch_cycles: dev.params().dispatch.program_launch.0,
        clock_mhz: dev.clock_mhz(),
        notes: r.warnings.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_the_reference_document() {
        // Every row's derived program config equals the one gemm-bench.md lists (when ../shared is present).
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/reference/gemm-bench.md");
        let Ok(text) = std::fs::read_to_string(path) else {
            eprintln!("skipped: {path} not found");
            return;
        };
        let mut seen = 0;
        for line in text.lines().filter(|l| l.starts_with("| M")) {
            let f: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            let Some(row) = ROWS.iter().find(|r| r.0 == f[0]) else { continue };
            let c = configs(&Filter { ids: vec![f[0].to_string()], ..Default::default() }).unwrap();
            let p = c[0].mm.program;
            let want: Vec<u32> = f[10..18].iter().map(|v| v.parse().unwrap()).collect();
            let got = vec![
                p.in0_block_w,
                p.out_subblock_h,
                p.out_subblock_w,
                p.per_core_m,
                p.per_core_n,
                p.out_block_h,
                p.out_block_w,
                c[0].mm.num_k_blocks(),
            ];
            assert_eq!(got, want, "row {}", row.0);
            assert_eq!(row.1, (f[1].parse().unwrap(), f[2].parse().unwrap(), f[3].parse().unwrap()));
            seen += 1;
        }
        assert_eq!(seen, ROWS.len());
    }
}
