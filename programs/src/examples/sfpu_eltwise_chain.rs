//! sfpu_eltwise_chain (tt-metal `programming_examples/sfpu_eltwise_chain`): softplus(x) = log(1 + exp(x))
//! as a chain of SFPU operations on DST — exp, a binary add of a ones tile, log — without leaving the core.

use super::common::{
    CB_IN0, CB_IN1, CB_OUT0, bf16_dram_buffer, check_pcc, create_bf16_cbs, random_bf16, writer_unary_ta,
};
use crate::options::{ExampleOptions, Outcome, ProgramError};
use crate::rng::Rng;
use sim_device::prelude::*;

/// The reader: the ones tile once into c_1, then the input tiles into c_0, through TensorAccessors (their
/// args, page size included, at compile-time offset 0 and after it). RT args: src address, ones address,
/// number of tiles.
pub fn reader_softplus(k: &mut Dataflow) {
    let src: u32 = k.get_arg_val(0);
    let ones: u32 = k.get_arg_val(1);
    let n: u32 = k.get_arg_val(2);
    let s_args = k.tensor_accessor_args(0);
    let o_args = k.tensor_accessor_args(s_args.next_compile_time_args_offset());
    let (s, o) = (TensorAccessor::new(s_args, src, 0), TensorAccessor::new(o_args, ones, 0));
    k.cb_reserve_back(CB_IN1, 1);
    let l1 = k.get_write_ptr(CB_IN1);
    k.noc_async_read_tile(0, &o, l1);
    k.noc_async_read_barrier();
    k.cb_push_back(CB_IN1, 1);
    for t in 0..n {
        k.cb_reserve_back(CB_IN0, 1);
        let l1 = k.get_write_ptr(CB_IN0);
        k.noc_async_read_tile(t, &s, l1);
        k.noc_async_read_barrier();
        k.cb_push_back(CB_IN0, 1);
    }
}

/// The compute kernel: DST0 = x, exp; DST1 = ones; DST0 += DST1; log. RT arg 0 = number of tiles.
pub fn softplus(c: &mut Compute) {
    let n: u32 = c.get_arg_val(0);
    c.init_sfpu(CB_IN0, CB_OUT0);
    c.cb_wait_front(CB_IN1, 1);
    for _ in 0..n {
        c.cb_wait_front(CB_IN0, 1);
        c.tile_regs_acquire();
        c.copy_tile_init(CB_IN0);
        c.copy_tile(CB_IN0, 0, 0);
        c.exp_tile_init();
        c.exp_tile(0);
        c.copy_tile_init(CB_IN1);
        c.copy_tile(CB_IN1, 0, 1);
        c.add_binary_tile_init();
        c.add_binary_tile(0, 1, 0);
        c.log_tile_init();
        c.log_tile(0);
        c.tile_regs_commit();
        c.cb_pop_front(CB_IN0, 1);
        c.cb_reserve_back(CB_OUT0, 1);
        c.tile_regs_wait();
        c.pack_tile(0, CB_OUT0);
        c.tile_regs_release();
        c.cb_push_back(CB_OUT0, 1);
    }
    c.cb_pop_front(CB_IN1, 1);
}

/// Run it: softplus of `size` (default 16) tiles of values uniform in [-4, 4); PCC above 0.999.
pub fn run(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let n = o.size.unwrap_or(16);
    let core = CoreCoord::new(0, 0);
    let (s, ones, d) = (bf16_dram_buffer(dev, n)?, bf16_dram_buffer(dev, 1)?, bf16_dram_buffer(dev, n)?);
    let x = random_bf16(&mut Rng::new(o.seed), n as usize * 1024, -4.0, 4.0);
    dev.enqueue_write_buffer(&s, &x.iter().map(|&v| bfloat16::from_f32(v)).collect::<Vec<_>>())?;
    dev.enqueue_write_buffer(&ones, &vec![bfloat16::from_f32(1.0); 1024])?;
    let mut p = Program::new();
    create_bf16_cbs(&mut p, core, &[(CB_IN0, 2), (CB_IN1, 1), (CB_OUT0, 2)])?;
    let r = p.create_kernel(
        Kernel::dataflow("sfpu_eltwise_chain/kernels/dataflow/reader.cpp", reader_softplus),
        core,
        DataMovementConfig::reader([tensor_accessor_args(&s), tensor_accessor_args(&ones)].concat()),
    )?;
    let w = p.create_kernel(
        Kernel::dataflow("sfpu_eltwise_chain/kernels/dataflow/writer.cpp", writer_unary_ta),
        core,
        DataMovementConfig::writer(tensor_accessor_args(&d)),
    )?;
    let c = p.create_kernel(
        Kernel::compute("sfpu_eltwise_chain/kernels/compute/compute.cpp", softplus),
        core,
        ComputeConfig::default(),
    )?;
    p.set_runtime_args(r, core, &[s.address(), ones.address(), n])?;
    p.set_runtime_args(w, core, &[d.address(), n, 0])?;
    p.set_runtime_args(c, core, &[n])?;
    let report = dev.enqueue_program(&p)?;
    let got: Vec<bfloat16> = dev.enqueue_read_buffer(&d)?;
    let got: Vec<f32> = got.iter().map(|v| v.to_f32()).collect();
    let want: Vec<f32> = x.iter().map(|v| (1.0 + v.exp()).ln()).collect();
    let (passed, check) = check_pcc("softplus(x) = log(1 + exp(x))", &got, &want, 0.999);
    Ok(Outcome { passed, check, report, metrics: Vec::new() })
}
