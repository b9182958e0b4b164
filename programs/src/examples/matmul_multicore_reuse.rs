//! matmul_multicore_reuse (tt-metal `programming_examples/matmul/matmul_multicore_reuse`): the output is cut
//! into one block per core; each core reads its A row-block and B column-block from DRAM K-block by K-block,
//! reuses every tile of them across its output block, and keeps partial sums in c_24, which shares memory
//! with the output CB c_16.

use super::common::{CB_IN0, CB_IN1};
use super::matmul_common::{
    BlockPlan, MatmulShape, bmm_large_block_zm, fidelity, finish, setup, writer_bmm_tile_layout,
};
use crate::options::{ExampleOptions, Outcome, ProgramError};
use sim_device::prelude::*;

/// `reader_bmm_8bank`-style blocked reader: for each K block, the A block (per_core_m × in0_block_w tiles,
/// row-major) into c_0 and the B block (in0_block_w × per_core_n) into c_1. RT args: in0 address, A first
/// tile, A stride h (Kt), A next-block stride, in0_block_w, per_core_m, in1 address, B first tile, B stride h
/// (Nt), B next-block stride, per_core_n, num_blocks.
pub fn reader_matmul_blocked(k: &mut Dataflow) {
    let a_addr: u32 = k.get_arg_val(0);
    let mut a_block = k.get_arg_val::<u32>(1);
    let a_stride_h: u32 = k.get_arg_val(2);
    let a_next: u32 = k.get_arg_val(3);
    let block_w: u32 = k.get_arg_val(4);
    let block_h: u32 = k.get_arg_val(5);
    let b_addr: u32 = k.get_arg_val(6);
    let mut b_block = k.get_arg_val::<u32>(7);
    let b_stride_h: u32 = k.get_arg_val(8);
    let b_next: u32 = k.get_arg_val(9);
    let b_w: u32 = k.get_arg_val(10);
    let num_blocks: u32 = k.get_arg_val(11);
    let tile = k.get_tile_size(CB_IN0);
    let a = InterleavedAddrGenFast::<true> {
        bank_base_address: a_addr,
        page_size: tile,
        data_format: DataFormat::Float16_b,
    };
    let b = InterleavedAddrGenFast::<true> {
        bank_base_address: b_addr,
        page_size: tile,
        data_format: DataFormat::Float16_b,
    };
    for _ in 0..num_blocks {
        k.cb_reserve_back(CB_IN0, block_h * block_w);
        k.cb_reserve_back(CB_IN1, block_w * b_w);
        let mut l1 = k.get_write_ptr(CB_IN0);
        for h in 0..block_h {
            for w in 0..block_w {
                k.noc_async_read_tile(a_block + h * a_stride_h + w, &a, l1);
                l1 += tile;
            }
        }
        let mut l1 = k.get_write_ptr(CB_IN1);
        for h in 0..block_w {
            for w in 0..b_w {
                k.noc_async_read_tile(b_block + h * b_stride_h + w, &b, l1);
                l1 += tile;
            }
        }
        k.noc_async_read_barrier();
        k.cb_push_back(CB_IN0, block_h * block_w);
        k.cb_push_back(CB_IN1, block_w * b_w);
        a_block += a_next;
        b_block += b_next;
    }
}

/// The program for `s` on a `grid` of cores with A, B and the output at `in0`, `in1`, `out` (tilized bf16,
/// interleaved in DRAM), and the number of cores it uses. Shared with the data-parallel matmul over a mesh.
pub fn program(
    grid: CoreCoord,
    s: MatmulShape,
    fid: MathFidelity,
    (in0, in1, out): (u32, u32, u32),
) -> Result<(Program, u32), DeviceError> {
    let dst_tiles = ComputeConfig { math_fidelity: fid, ..Default::default() }.settings().capacity();
    let plan = BlockPlan::new(s, grid, dst_tiles);
    let cores = plan.cores();
    let mut p = Program::new();
    plan.create_cbs(&mut p, cores)?;
    let r = p.create_kernel(
        Kernel::dataflow(
            "matmul/matmul_multicore_reuse/kernels/dataflow/reader_bmm_tile_layout.cpp",
            reader_matmul_blocked,
        ),
        cores,
        DataMovementConfig::reader(vec![]),
    )?;
    let w = p.create_kernel(
        Kernel::dataflow(
            "matmul/matmul_multicore_reuse/kernels/dataflow/writer_bmm_tile_layout.cpp",
            writer_bmm_tile_layout,
        ),
        cores,
        DataMovementConfig::writer(vec![]),
    )?;
    p.create_kernel(
        Kernel::compute("matmul/matmul_multicore_reuse/kernels/compute/bmm_large_block_zm.cpp", bmm_large_block_zm),
        cores,
        ComputeConfig { math_fidelity: fid, compile_args: plan.compute_args(), ..Default::default() },
    )?;
    let (kt, nt) = (s.kt(), s.nt());
    for core in cores.iter() {
        let (bx, by) = (core.x, core.y);
        p.set_runtime_args(
            r,
            core,
            &[
                in0,
                by * plan.per_core_m * kt,
                kt,
                plan.in0_block_w,
                plan.in0_block_w,
                plan.per_core_m,
                in1,
                bx * plan.per_core_n,
                nt,
                plan.in0_block_w * nt,
                plan.per_core_n,
                plan.num_blocks,
            ],
        )?;
        p.set_runtime_args(w, core, &plan.writer_args(s, out, bx, by))?;
    }
    Ok((p, plan.cores_x * plan.cores_y))
}

/// Run it (`--m --n --k`, default 640 each; `--fidelity`, default HiFi4); PCC above 0.99.
pub fn run(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let s = MatmulShape::from_opts(o, 640)?;
    let fid = fidelity(o);
    // The CBs must fit L1 before the host matrices are made.
    let plan = BlockPlan::new(
        s,
        dev.compute_with_storage_grid_size(),
        ComputeConfig { math_fidelity: fid, ..Default::default() }.settings().capacity(),
    );
    let mut cbs = Program::new();
    plan.create_cbs(&mut cbs, plan.cores())?;
    dev.check_program(&cbs)?;
    let d = setup(dev, s, o.seed, o.check.unwrap_or_default())?;
    let (p, cores) =
        program(dev.compute_with_storage_grid_size(), s, fid, (d.in0.address(), d.in1.address(), d.out.address()))?;
    let report = dev.enqueue_program(&p)?;
    finish(dev, d, report, s, cores, fid, 0.99)
}
