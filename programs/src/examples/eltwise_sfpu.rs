//! eltwise_sfpu (tt-metal `programming_examples/eltwise_sfpu`): exp of 64 bf16 tiles on one core — each tile
//! copied into DST, exponentiated by the SFPU, packed and written back.

use super::common::{
    CB_IN0, CB_OUT0, bf16_dram_buffer, check_close, create_bf16_cbs, random_bf16, reader_unary_ta, writer_unary_ta,
};
use crate::options::{ExampleOptions, Outcome, ProgramError};
use crate::rng::Rng;
use sim_device::prelude::*;

/// The compute kernel `eltwise_sfpu`: RT arg 0 = number of tiles.
pub fn eltwise_exp(c: &mut Compute) {
    let n: u32 = c.get_arg_val(0);
    c.compute_kernel_hw_startup(CB_IN0, CB_IN0, CB_OUT0);
    c.copy_tile_init(CB_IN0);
    c.exp_tile_init();
    for _ in 0..n {
        c.tile_regs_acquire();
        c.cb_wait_front(CB_IN0, 1);
        c.copy_tile(CB_IN0, 0, 0);
        c.exp_tile(0);
        c.tile_regs_commit();
        c.tile_regs_wait();
        c.cb_reserve_back(CB_OUT0, 1);
        c.pack_tile(0, CB_OUT0);
        c.cb_push_back(CB_OUT0, 1);
        c.cb_pop_front(CB_IN0, 1);
        c.tile_regs_release();
    }
}

/// Run it: exp of `size` (default 64) tiles of values uniform in [0, 1); within 5e-2 relative.
pub fn run(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let n = o.size.unwrap_or(64);
    let core = CoreCoord::new(0, 0);
    let (s, d) = (bf16_dram_buffer(dev, n)?, bf16_dram_buffer(dev, n)?);
    let x = random_bf16(&mut Rng::new(o.seed), n as usize * 1024, 0.0, 1.0);
    dev.enqueue_write_buffer(&s, &x.iter().map(|&v| bfloat16::from_f32(v)).collect::<Vec<_>>())?;
    let mut p = Program::new();
    create_bf16_cbs(&mut p, core, &[(CB_IN0, 2), (CB_OUT0, 2)])?;
    let r = p.create_kernel(
        Kernel::dataflow("eltwise_sfpu/kernels/dataflow/read_tile.cpp", reader_unary_ta),
        core,
        DataMovementConfig::reader(tensor_accessor_args(&s)),
    )?;
    let w = p.create_kernel(
        Kernel::dataflow("eltwise_sfpu/kernels/dataflow/write_tile.cpp", writer_unary_ta),
        core,
        DataMovementConfig::writer(tensor_accessor_args(&d)),
    )?;
    let c = p.create_kernel(
        Kernel::compute("eltwise_sfpu/kernels/compute/eltwise_sfpu.cpp", eltwise_exp),
        core,
        ComputeConfig::default(),
    )?;
    p.set_runtime_args(r, core, &[s.address(), n, 0])?;
    p.set_runtime_args(w, core, &[d.address(), n, 0])?;
    p.set_runtime_args(c, core, &[n])?;
    let report = dev.enqueue_program(&p)?;
    let got: Vec<bfloat16> = dev.enqueue_read_buffer(&d)?;
    let got: Vec<f32> = got.iter().map(|v| v.to_f32()).collect();
    let want: Vec<f32> = x.iter().map(|v| v.exp()).collect();
    let (passed, check) = check_close("exp(x)", &got, &want, 0.0, 5e-2);
    Ok(Outcome { passed, check, report, metrics: Vec::new() })
}
