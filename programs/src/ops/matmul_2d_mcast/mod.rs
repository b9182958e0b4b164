//! `matmul_2d_mcast`: TTNN's 2-D multicast matmul (`MatmulMultiCoreReuseMultiCastProgramConfig`,
//! gemm-bench.md §3) written again against tensim's API. The left column reads in0 row-bands from DRAM
//! (or every core owns a K slice of a block-sharded in0) and multicasts K blocks along the rows; the top row
//! reads in1 column-bands and multicasts them down the columns; every core accumulates its per-core output
//! block with packer L1 accumulation and writes it to DRAM (or leaves it in its L1 shard).

pub mod compute;
pub mod config;
pub mod dataflow;

use crate::options::{ExampleOptions, OptionError, Outcome, ProgramError};
use crate::rng::Rng;
use compute::ComputeArgs;
pub use config::{Matmul2d, ProgramConfig};
use dataflow::{DmArgs, INVALID, ROW_X_BASE};
use layout::ttnn::{DataType, PageConfig, TensorSpec};
use sim_device::prelude::*;
use sim_device::tensor::{DeviceTensor, quantize};

/// in0 blocks.
pub const CB_IN0: CBIndex = CBIndex::c_0;
/// in1 blocks.
pub const CB_IN1: CBIndex = CBIndex::c_1;
/// The in0 shard (block-sharded in0 only), on the tensor's L1 buffer.
pub const CB_IN0_SHARD: CBIndex = CBIndex::c_2;
/// The output (the output shard when sharded).
pub const CB_OUT: CBIndex = CBIndex::c_4;
/// Partial sums.
pub const CB_INTERM: CBIndex = CBIndex::c_5;
/// One word holding VALID, multicast to the receivers' semaphores (block-sharded in0).
pub const CB_VALID: CBIndex = CBIndex::c_6;

/// The device tensors of one matmul.
pub struct Operands {
    /// A [m, k].
    pub in0: DeviceTensor,
    /// B [k, n].
    pub in1: DeviceTensor,
    /// C [m, n].
    pub out: DeviceTensor,
}

/// The spec of a `rows × cols` tensor of the op's data type, tiled, block-sharded over the grid in L1 or
/// interleaved in DRAM.
pub fn spec(dev: &Device, mm: &Matmul2d, rows: u32, cols: u32, sharded: bool) -> Result<TensorSpec, DeviceError> {
    let shape: Shape =
        format!("{rows}x{cols}").parse().map_err(|e| DeviceError::api(format!("matmul_2d_mcast shape: {e}")))?;
    let place: super::spec::Placement = if sharded {
        format!("l1:block:{}x{}", mm.program.grid.1, mm.program.grid.0)
    } else {
        "dram:interleaved".to_string()
    }
    .parse()
    .map_err(|e: String| DeviceError::api(format!("matmul_2d_mcast placement: {e}")))?;
    let mut s = super::spec_for(dev, &shape, PageConfig::Tile(TileShape::T32X32), &place)?;
    s.dtype = mm.dtype;
    Ok(s)
}

/// Allocate the three tensors without data (timing-only runs).
pub fn allocate(dev: &mut Device, mm: &Matmul2d) -> Result<Operands, DeviceError> {
    let in0 = DeviceTensor::allocate(dev, &spec(dev, mm, mm.m, mm.k, mm.in0_sharded)?)?;
    let in1 = DeviceTensor::allocate(dev, &spec(dev, mm, mm.k, mm.n, false)?)?;
    let out = DeviceTensor::allocate(dev, &spec(dev, mm, mm.m, mm.n, mm.out_sharded)?)?;
    Ok(Operands { in0, in1, out })
}

fn noc_xy(dev: &Device, x: u32, y: u32) -> Result<(u32, u32), DeviceError> {
    let t = dev.worker_core_from_logical_core(CoreCoord::new(x, y))?;
    Ok((t.x, t.y))
}

fn set_of(cores: &[CoreCoord]) -> Result<CoreRangeSet, DeviceError> {
    CoreRangeSet::new(cores.iter().map(|c| CoreRange::single(*c)).collect())
        .map_err(|e| DeviceError::api(format!("matmul_2d_mcast cores: {e}")))
}

/// The data-movement kernel roles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Role {
    In0Sender,
    In0Receiver,
    In0Sharded,
    In1Sender,
    In1Receiver,
}

impl Role {
    fn kernel(self) -> Kernel {
        const DIR: &str = "ttnn/operations/matmul/device/kernels/dataflow";
        match self {
            Role::In0Sender => {
                Kernel::dataflow(&format!("{DIR}/reader_bmm_tile_layout_in0_sender_padding"), dataflow::in0_sender)
            }
            Role::In0Receiver => {
                Kernel::dataflow(&format!("{DIR}/reader_bmm_tile_layout_in0_receiver"), dataflow::in0_receiver)
            }
            Role::In0Sharded => Kernel::dataflow(
                &format!("{DIR}/reader_bmm_tile_layout_in0_sender_receiver_padding_block_sharded"),
                dataflow::in0_sharded,
            ),
            Role::In1Sender => Kernel::dataflow(
                &format!("{DIR}/reader_bmm_tile_layout_in1_sender_writer_padding"),
                dataflow::in1_sender_writer,
            ),
            Role::In1Receiver => Kernel::dataflow(
                &format!("{DIR}/reader_bmm_tile_layout_in1_receiver_writer_padding"),
                dataflow::in1_receiver_writer,
            ),
        }
    }
}

/// Build the op's program for tensors `t` (gemm-bench.md §3.2–3.3).
pub fn program(dev: &Device, mm: &Matmul2d, t: &Operands) -> Result<Program, DeviceError> {
    mm.check()?;
    let p = &mm.program;
    let (c, r) = mm.cores();
    let grid = dev.compute_with_storage_grid_size();
    if c > grid.x || r > grid.y {
        return Err(DeviceError::api(format!(
            "matmul_2d_mcast: the op needs {c}x{r} cores (columns x rows) but the device's grid is {}x{}",
            grid.x, grid.y
        )));
    }
    let all = CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(c - 1, r - 1));
    let nb = mm.num_k_blocks();
    let fmt = mm.dtype.data_format();
    let tile = t.in0.derived.aligned_page_size as u32;
    let interm_fmt = DataFormat::Float16_b;
    let interm_tile = 2048;
    let mut prog = Program::new();
    let bufs = if nb > 1 { 2 } else { 1 };
    for (cb, tiles) in [(CB_IN0, p.out_block_h * p.in0_block_w), (CB_IN1, p.in0_block_w * p.out_block_w)] {
        prog.create_circular_buffer(
            all,
            CircularBufferConfig::new(bufs * tiles * tile, &[(cb, fmt)]).set_page_size(cb, tile),
        )?;
    }
    let shard_w = if mm.in0_sharded { mm.kt() / p.grid.0 } else { 0 };
    if mm.in0_sharded {
        prog.create_circular_buffer(
            all,
            CircularBufferConfig::new(p.per_core_m * shard_w * tile, &[(CB_IN0_SHARD, fmt)])
                .set_page_size(CB_IN0_SHARD, tile)
                .set_globally_allocated_address(&t.in0.buffer),
        )?;
        prog.create_circular_buffer(
            all,
            CircularBufferConfig::new(64, &[(CB_VALID, DataFormat::Float16_b)]).set_page_size(CB_VALID, 64),
        )?;
    }
    let out_tiles = if mm.out_sharded { p.per_core_m * p.per_core_n } else { p.out_block_h * p.out_block_w };
    let interm_shared = fmt == interm_fmt && !(mm.out_sharded && p.per_core_m != p.out_block_h);
    let with_out = |cfg: CircularBufferConfig| {
        if mm.out_sharded { cfg.set_globally_allocated_address(&t.out.buffer) } else { cfg }
    };
    if interm_shared {
        prog.create_circular_buffer(
            all,
            with_out(
                CircularBufferConfig::new(out_tiles * tile, &[(CB_OUT, fmt), (CB_INTERM, interm_fmt)])
                    .set_page_size(CB_OUT, tile)
                    .set_page_size(CB_INTERM, interm_tile),
            ),
        )?;
    } else {
        prog.create_circular_buffer(
            all,
            with_out(CircularBufferConfig::new(out_tiles * tile, &[(CB_OUT, fmt)]).set_page_size(CB_OUT, tile)),
        )?;
        let interm_tiles = p.out_block_h * p.out_block_w;
        prog.create_circular_buffer(
            all,
            CircularBufferConfig::new(interm_tiles * interm_tile, &[(CB_INTERM, interm_fmt)])
                .set_page_size(CB_INTERM, interm_tile),
        )?;
    }
    let sems: Vec<u32> = (0..4).map(|_| prog.create_semaphore(all, INVALID)).collect::<Result<_, _>>()?;

    // Kernel roles and NoCs per core (§3.2): in0 on RISCV_1 / NOC1 and in1 + writer on RISCV_0 / NOC0,
    // except that with an interleaved in0 the receivers right of the middle column in rows 1.. swap NoCs.
    let split = !mm.in0_sharded && c > 2 && r > 1;
    let half = c / 2;
    let mut groups: std::collections::BTreeMap<(Role, u8), Vec<CoreCoord>> = Default::default();
    for y in 0..r {
        for x in 0..c {
            let swapped = split && y >= 1 && x > half;
            let in0 = if mm.in0_sharded {
                Role::In0Sharded
            } else if x == 0 {
                Role::In0Sender
            } else {
                Role::In0Receiver
            };
            let in1 = if y == 0 { Role::In1Sender } else { Role::In1Receiver };
            groups.entry((in0, if swapped { 0 } else { 1 })).or_default().push(CoreCoord::new(x, y));
            groups.entry((in1, if swapped { 1 } else { 0 })).or_default().push(CoreCoord::new(x, y));
        }
    }
    let row_x: Vec<u32> = (0..c).map(|x| noc_xy(dev, x, 0).map(|v| v.0)).collect::<Result<_, _>>()?;
    for ((role, noc), cores) in &groups {
        let (processor, noc_id) = match role {
            Role::In0Sender | Role::In0Receiver | Role::In0Sharded => (DataMovementProcessor::RISCV_1, *noc),
            Role::In1Sender | Role::In1Receiver => (DataMovementProcessor::RISCV_0, *noc),
        };
        let cfg = DataMovementConfig {
            processor,
            noc: if noc_id == 0 { NocId::Noc0 } else { NocId::Noc1 },
            ..Default::default()
        };
        let k = prog.create_kernel(role.kernel(), set_of(cores)?, cfg)?;
        for &core in cores {
            let (x, y) = (core.x, core.y);
            let (s0x, s0y) = noc_xy(dev, 0, y)?;
            let (s1x, s1y) = noc_xy(dev, x, 0)?;
            let in0_rect = if mm.in0_sharded {
                let (a, b) = (noc_xy(dev, 0, y)?, noc_xy(dev, c - 1, y)?);
                [a.0, a.1, b.0, b.1, c - 1]
            } else if c > 1 {
                let (a, b) = (noc_xy(dev, 1, y)?, noc_xy(dev, c - 1, y)?);
                [a.0, a.1, b.0, b.1, c - 1]
            } else {
                [0; 5]
            };
            let in1_rect = if r > 1 {
                let (a, b) = (noc_xy(dev, x, 1)?, noc_xy(dev, x, r - 1)?);
                [a.0, a.1, b.0, b.1, r - 1]
            } else {
                [0; 5]
            };
            let args = DmArgs {
                in0_addr: t.in0.buffer.address(),
                in1_addr: t.in1.buffer.address(),
                out_addr: t.out.buffer.address(),
                kt: mm.kt(),
                nt: mm.nt(),
                in0_block_w: p.in0_block_w,
                out_block_h: p.out_block_h,
                out_block_w: p.out_block_w,
                per_core_m: p.per_core_m,
                per_core_n: p.per_core_n,
                sub_h: p.out_subblock_h,
                sub_w: p.out_subblock_w,
                nb,
                bx: x,
                by: y,
                in0_x0: in0_rect[0],
                in0_y0: in0_rect[1],
                in0_x1: in0_rect[2],
                in0_y1: in0_rect[3],
                in0_dests: in0_rect[4],
                in0_sx: s0x,
                in0_sy: s0y,
                in1_x0: in1_rect[0],
                in1_y0: in1_rect[1],
                in1_x1: in1_rect[2],
                in1_y1: in1_rect[3],
                in1_dests: in1_rect[4],
                in1_sx: s1x,
                in1_sy: s1y,
                sem_in0_s: sems[0],
                sem_in0_r: sems[1],
                sem_in1_s: sems[2],
                sem_in1_r: sems[3],
                out_sharded: mm.out_sharded as u32,
                shard_w,
                blocks_per_shard: if mm.in0_sharded { shard_w / p.in0_block_w } else { 0 },
                row_noc_y: s0y,
            };
            let mut v = args.to_vec();
            debug_assert_eq!(v.len(), ROW_X_BASE);
            if *role == Role::In0Sharded {
                v.extend(&row_x);
            }
            prog.set_runtime_args(k, core, &v)?;
        }
    }
    let cargs = ComputeArgs {
        in0_block_w: p.in0_block_w,
        out_block_h: p.out_block_h,
        out_block_w: p.out_block_w,
        num_blocks_hw: (p.per_core_m / p.out_block_h) * (p.per_core_n / p.out_block_w),
        sub_h: p.out_subblock_h,
        sub_w: p.out_subblock_w,
        nb,
        l1_acc: mm.l1_acc(),
        interm_shared,
    };
    prog.create_kernel(
        Kernel::compute(
            "ttnn/operations/matmul/device/kernels/compute/bmm_large_block_zm_fused_bias_activation",
            compute::bmm_large_block,
        ),
        all,
        ComputeConfig {
            math_fidelity: mm.fidelity,
            fp32_dest_acc_en: mm.fp32_dest_acc,
            math_approx_mode: mm.math_approx,
            compile_args: cargs.to_vec(),
            ..Default::default()
        },
    )?;
    Ok(prog)
}

/// Run the op once on timing only (tensors allocated, no data): the benchmark's measurement.
pub fn time(dev: &mut Device, mm: &Matmul2d) -> Result<RunReport, DeviceError> {
    let t = allocate(dev, mm)?;
    let prog = program(dev, mm, &t)?;
    dev.set_timing_only(true);
    let r = dev.enqueue_program(&prog);
    dev.set_timing_only(false);
    r
}

fn parse_dtype(o: &ExampleOptions) -> Result<DataType, OptionError> {
    match o.dtype.as_deref() {
        None | Some("bf16") | Some("bfloat16") => Ok(DataType::Bf16),
        Some("bfp8_b") | Some("bfloat8_b") => Ok(DataType::Bfp8),
        Some("bfp4_b") | Some("bfloat4_b") => Ok(DataType::Bfp4),
        Some(d) => Err(OptionError::value("dtype", d, "use bf16, bfp8_b or bfp4_b")),
    }
}

/// `tensim run matmul_2d_mcast [--m --k --n] [--dtype] [--fidelity] [--to dram|l1]`: the benchmark's
/// configuration of that shape (in0 and output block-sharded in L1 by default, or DRAM interleaved with
/// `--to dram`), run with data and checked against a CPU reference by PCC.
pub fn run(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let d = o.size.unwrap_or(512);
    let (m, k, n) = (o.m.unwrap_or(d), o.k.unwrap_or(d), o.n.unwrap_or(d));
    let dtype = parse_dtype(o)?;
    let sharded = match o.to.as_deref() {
        None | Some("l1") => true,
        Some("dram") => false,
        Some(t) => return Err(OptionError::value("to", t, "matmul_2d_mcast takes l1 (sharded) or dram").into()),
    };
    let fidelity = o.fidelity.unwrap_or(MathFidelity::HiFi4);
    let mm = Matmul2d::benchmark((m, k, n), sharded, 1, (1, 1), dtype, fidelity)?;
    run_checked(dev, &mm, o.seed, o.check.unwrap_or_default())
}

/// Run `mm` with random data from `seed` and check the output against a CPU reference by PCC.
pub fn run_with(dev: &mut Device, mm: &Matmul2d, seed: u64) -> Result<Outcome, ProgramError> {
    run_checked(dev, mm, seed, crate::options::CheckMode::Full)
}

/// [`run_with`], checking the output as `check` asks (`--check full|sample|off`).
pub fn run_checked(
    dev: &mut Device,
    mm: &Matmul2d,
    seed: u64,
    check: crate::options::CheckMode,
) -> Result<Outcome, ProgramError> {
    let (m, k, n, dtype, fidelity) = (mm.m, mm.k, mm.n, mm.dtype, mm.fidelity);
    let mm = mm.clone();
    let mut rng = Rng::new(seed);
    let (mu, ku, nu) = (m as usize, k as usize, n as usize);
    let elements = |r: u32, c: u32| u128::from(r) * u128::from(c);
    let bytes = (elements(m, k) + elements(k, n) + elements(m, n)) * 2;
    crate::checks::check_fits_dram(dev, &format!("matmul {m}x{k}x{n} (A, B and C in bf16)"), bytes)?;
    let a: Vec<f32> = (0..mu * ku).map(|_| quantize(DataType::Bf16, rng.uniform(-1.0, 1.0))).collect();
    let b: Vec<f32> = (0..ku * nu).map(|_| quantize(DataType::Bf16, rng.uniform(-1.0, 1.0))).collect();
    let in0 = Tensor::from_vec(a.clone(), spec(dev, &mm, m, k, mm.in0_sharded)?)?.to_device(dev)?;
    let in1 = Tensor::from_vec(b.clone(), spec(dev, &mm, k, n, false)?)?.to_device(dev)?;
    let out = DeviceTensor::allocate(dev, &spec(dev, &mm, m, n, mm.out_sharded)?)?;
    // What the device holds (block floats round the inputs).
    let (ga, gb) = (in0.to_host(dev)?.data, in1.to_host(dev)?.data);
    let t = Operands { in0, in1, out };
    let prog = program(dev, &mm, &t)?;
    let report = dev.enqueue_program(&prog)?;
    let got = t.out.to_host(dev)?.data;
    let min_pcc = match dtype {
        DataType::Bfp4 => 0.97,
        _ => 0.99,
    };
    let (passed, check) = crate::checks::check_matmul(
        &format!("C = A·B ({m}x{k}x{n}, {dtype})"),
        check,
        &got,
        (mu, nu),
        |picked| match picked {
            None => crate::checks::matmul_reference(&ga, &gb, mu, nu, ku),
            Some(t) => crate::checks::matmul_reference_tiles(&ga, &gb, nu, ku, t),
        },
        seed,
        min_pcc,
    );
    let (cx, cy) = mm.cores();
    let p = &mm.program;
    let mut metrics = vec![format!(
        "program config: grid {cx}x{cy}, in0_block_w {}, out_subblock {}x{}, out_block {}x{}, per_core {}x{}, {} K blocks, packer L1 acc {}",
        p.in0_block_w,
        p.out_subblock_h,
        p.out_subblock_w,
        p.out_block_h,
        p.out_block_w,
        p.per_core_m,
        p.per_core_n,
        mm.num_k_blocks(),
        if mm.l1_acc() { "on" } else { "off" }
    )];
    metrics.extend(crate::checks::matmul_metrics(dev, &report, (m, n, k), cx * cy, fidelity));
    Ok(Outcome { passed, check, report, metrics })
}
