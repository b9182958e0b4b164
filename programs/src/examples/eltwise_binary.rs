//! eltwise_binary (tt-metal `programming_examples/eltwise_binary`): two bf16 tensors of 64 tiles read tile
//! by tile, added on the FPU of one core, written back.

use super::common::{
    CB_IN0, CB_IN1, CB_OUT0, bf16_dram_buffer, check_close, create_bf16_cbs, random_bf16, reader_binary_accessor,
    writer_unary_accessor,
};
use crate::options::{ExampleOptions, Outcome, ProgramError};
use crate::rng::Rng;
use sim_device::prelude::*;

/// The compute kernel `tiles_add`: RT arg 0 = number of tiles. (Today's `compute_kernel_hw_startup` +
/// `add_init` are the same calls as `binary_op_init_common` + `add_tiles_init`.)
pub fn tiles_add(c: &mut Compute) {
    let n: u32 = c.get_arg_val(0);
    c.compute_kernel_hw_startup(CB_IN0, CB_IN1, CB_OUT0);
    c.add_tiles_init(CB_IN0, CB_IN1, false);
    for _ in 0..n {
        c.cb_wait_front(CB_IN0, 1);
        c.cb_wait_front(CB_IN1, 1);
        c.tile_regs_acquire();
        c.add_tiles(CB_IN0, CB_IN1, 0, 0, 0);
        c.tile_regs_commit();
        c.cb_pop_front(CB_IN0, 1);
        c.cb_pop_front(CB_IN1, 1);
        c.cb_reserve_back(CB_OUT0, 1);
        c.tile_regs_wait();
        c.pack_tile(0, CB_OUT0);
        c.tile_regs_release();
        c.cb_push_back(CB_OUT0, 1);
    }
}

/// Run it: `size` (default 64) tiles of a + b, a and b uniform in [-1, 1).
pub fn run(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let n = o.size.unwrap_or(64);
    let core = CoreCoord::new(0, 0);
    let (s0, s1, d) = (bf16_dram_buffer(dev, n)?, bf16_dram_buffer(dev, n)?, bf16_dram_buffer(dev, n)?);
    let mut rng = Rng::new(o.seed);
    let len = n as usize * 1024;
    let a = random_bf16(&mut rng, len, -1.0, 1.0);
    let b = random_bf16(&mut rng, len, -1.0, 1.0);
    let to_bf16 = |v: &[f32]| v.iter().map(|&x| bfloat16::from_f32(x)).collect::<Vec<_>>();
    dev.enqueue_write_buffer(&s0, &to_bf16(&a))?;
    dev.enqueue_write_buffer(&s1, &to_bf16(&b))?;
    let mut p = Program::new();
    create_bf16_cbs(&mut p, core, &[(CB_IN0, 2), (CB_IN1, 2), (CB_OUT0, 2)])?;
    let r = p.create_kernel(
        Kernel::dataflow("eltwise_binary/kernels/dataflow/read_tiles.cpp", reader_binary_accessor),
        core,
        DataMovementConfig::reader([tensor_accessor_args(&s0), tensor_accessor_args(&s1)].concat()),
    )?;
    let w = p.create_kernel(
        Kernel::dataflow("eltwise_binary/kernels/dataflow/write_tile.cpp", writer_unary_accessor),
        core,
        DataMovementConfig::writer(tensor_accessor_args(&d)),
    )?;
    let c = p.create_kernel(
        Kernel::compute("eltwise_binary/kernels/compute/tiles_add.cpp", tiles_add),
        core,
        ComputeConfig::default(),
    )?;
    p.set_runtime_args(r, core, &[s0.address(), s1.address(), n, 0])?;
    p.set_runtime_args(w, core, &[d.address(), n, 0])?;
    p.set_runtime_args(c, core, &[n])?;
    let report = dev.enqueue_program(&p)?;
    let got: Vec<bfloat16> = dev.enqueue_read_buffer(&d)?;
    let got: Vec<f32> = got.iter().map(|v| v.to_f32()).collect();
    let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    let (passed, check) = check_close("a + b", &got, &want, 1e-2, 1e-2);
    Ok(Outcome { passed, check, report, metrics: Vec::new() })
}
