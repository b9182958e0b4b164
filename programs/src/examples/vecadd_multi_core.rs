//! vecadd_multi_core (tt-metal `programming_examples/vecadd_multi_core`): a + b over 640 bf16 tiles split
//! across the compute grid with `split_work_to_cores`; each core reads, adds and writes its own slice.

use super::common::{
    CB_IN0, CB_IN1, CB_OUT0, bf16_dram_buffer, check_close, create_bf16_cbs, random_bf16, reader_binary_ta,
    writer_unary_ta,
};
use super::eltwise_binary::tiles_add;
use crate::options::{ExampleOptions, Outcome, ProgramError};
use crate::rng::Rng;
use sim_device::prelude::*;

/// Run it: `size` (default 640) tiles, values uniform in [0, 10); within 0.3 of the reference.
pub fn run(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let n = o.size.unwrap_or(640);
    let grid = dev.compute_with_storage_grid_size();
    let split = split_work_to_cores(grid, n, true)?;
    let (s0, s1, d) = (bf16_dram_buffer(dev, n)?, bf16_dram_buffer(dev, n)?, bf16_dram_buffer(dev, n)?);
    let mut rng = Rng::new(o.seed);
    let a = random_bf16(&mut rng, n as usize * 1024, 0.0, 10.0);
    let b = random_bf16(&mut rng, n as usize * 1024, 0.0, 10.0);
    let to_bf16 = |v: &[f32]| v.iter().map(|&x| bfloat16::from_f32(x)).collect::<Vec<_>>();
    dev.enqueue_write_buffer(&s0, &to_bf16(&a))?;
    dev.enqueue_write_buffer(&s1, &to_bf16(&b))?;
    let mut p = Program::new();
    let cores = split.all_cores.clone();
    create_bf16_cbs(&mut p, cores.clone(), &[(CB_IN0, 2), (CB_IN1, 2), (CB_OUT0, 2)])?;
    let r = p.create_kernel(
        Kernel::dataflow("vecadd_multi_core/kernels/interleaved_tile_read_multi_core.cpp", reader_binary_ta),
        cores.clone(),
        DataMovementConfig::reader([tensor_accessor_args(&s0), tensor_accessor_args(&s1)].concat()),
    )?;
    let w = p.create_kernel(
        Kernel::dataflow("vecadd_multi_core/kernels/tile_write_multi_core.cpp", writer_unary_ta),
        cores.clone(),
        DataMovementConfig::writer(tensor_accessor_args(&d)),
    )?;
    let c = p.create_kernel(
        Kernel::compute("vecadd_multi_core/kernels/add_multi_core.cpp", tiles_add),
        cores.clone(),
        ComputeConfig::default(),
    )?;
    let mut start = 0;
    for core in split.all_cores.iter() {
        let count =
            if split.core_group_1.contains(core) { split.units_per_core_group_1 } else { split.units_per_core_group_2 };
        p.set_runtime_args(r, core, &[s0.address(), s1.address(), count, start])?;
        p.set_runtime_args(w, core, &[d.address(), count, start])?;
        p.set_runtime_args(c, core, &[count])?;
        start += count;
    }
    let report = dev.enqueue_program(&p)?;
    let got: Vec<bfloat16> = dev.enqueue_read_buffer(&d)?;
    let got: Vec<f32> = got.iter().map(|v| v.to_f32()).collect();
    let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    let (passed, check) = check_close("a + b", &got, &want, 0.3, 0.0);
    let check = format!("{check}; {n} tiles over {} cores", split.num_cores);
    Ok(Outcome { passed, check, report, metrics: Vec::new() })
}
