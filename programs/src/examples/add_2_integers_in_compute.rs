//! add_2_integers_in_compute (tt-metal `programming_examples/add_2_integers_in_compute`): one tile of each
//! operand read from DRAM, added by the FPU on one core, packed and written back.

use super::common::{
    CB_IN0, CB_IN1, CB_OUT0, bf16_dram_buffer, check_close, create_bf16_cbs, random_bf16, reader_binary, writer_unary,
};
use crate::options::{ExampleOptions, Outcome, ProgramError};
use crate::rng::Rng;
use sim_device::prelude::*;

/// The compute kernel `add_2_tiles` (written with the older `acquire_dst`/`release_dst` pair).
pub fn add_2_tiles(c: &mut Compute) {
    c.binary_op_init_common(CB_IN0, CB_IN1, CB_OUT0);
    c.add_tiles_init(CB_IN0, CB_IN1, false);
    c.cb_wait_front(CB_IN0, 1);
    c.cb_wait_front(CB_IN1, 1);
    c.acquire_dst();
    c.add_tiles(CB_IN0, CB_IN1, 0, 0, 0);
    c.cb_pop_front(CB_IN0, 1);
    c.cb_pop_front(CB_IN1, 1);
    c.cb_reserve_back(CB_OUT0, 1);
    c.pack_tile(0, CB_OUT0);
    c.cb_push_back(CB_OUT0, 1);
    c.release_dst();
}

/// Run it: two random bf16 tiles in [0, 14), sum checked within 0.3 (tt-metal's own tolerance).
pub fn run(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let core = CoreCoord::new(0, 0);
    let (s0, s1, d) = (bf16_dram_buffer(dev, 1)?, bf16_dram_buffer(dev, 1)?, bf16_dram_buffer(dev, 1)?);
    let mut rng = Rng::new(o.seed);
    let a = random_bf16(&mut rng, 1024, 0.0, 14.0);
    let b = random_bf16(&mut rng, 1024, 0.0, 14.0);
    let to_bf16 = |v: &[f32]| v.iter().map(|&x| bfloat16::from_f32(x)).collect::<Vec<_>>();
    dev.enqueue_write_buffer(&s0, &to_bf16(&a))?;
    dev.enqueue_write_buffer(&s1, &to_bf16(&b))?;
    let mut p = Program::new();
    create_bf16_cbs(&mut p, core, &[(CB_IN0, 1), (CB_IN1, 1), (CB_OUT0, 1)])?;
    let r = p.create_kernel(
        Kernel::dataflow("add_2_integers_in_compute/kernels/dataflow/reader_binary_1_tile.cpp", reader_binary),
        core,
        DataMovementConfig::reader(vec![]),
    )?;
    let w = p.create_kernel(
        Kernel::dataflow("add_2_integers_in_compute/kernels/dataflow/writer_1_tile.cpp", writer_unary),
        core,
        DataMovementConfig::writer(vec![]),
    )?;
    p.create_kernel(
        Kernel::compute("add_2_integers_in_compute/kernels/compute/add_2_tiles.cpp", add_2_tiles),
        core,
        ComputeConfig::default(),
    )?;
    p.set_runtime_args(r, core, &[s0.address(), s1.address(), 1, 0])?;
    p.set_runtime_args(w, core, &[d.address(), 1, 0])?;
    let report = dev.enqueue_program(&p)?;
    let got: Vec<bfloat16> = dev.enqueue_read_buffer(&d)?;
    let got: Vec<f32> = got.iter().map(|v| v.to_f32()).collect();
    let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    let (passed, check) = check_close("a + b", &got, &want, 0.3, 0.0);
    Ok(Outcome { passed, check, report, metrics: Vec::new() })
}
