//! matmul_multi_core (tt-metal `programming_examples/matmul/matmul_multi_core`): the single-core algorithm
//! with the output tiles split over the compute grid by `split_work_to_cores`; every core streams its own
//! tiles' operands from DRAM (no reuse between cores).

use super::common::{CB_IN0, CB_IN1, CB_OUT0, create_bf16_cbs, writer_unary_ta};
use super::matmul_common::{MatmulShape, fidelity, finish, mm_tiles, reader_mm, setup};
use crate::options::{ExampleOptions, Outcome, ProgramError};
use sim_device::prelude::*;

/// Run it (`--m --n --k`, default 640 each; `--fidelity`, default HiFi4); PCC above 0.97.
pub fn run(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let s = MatmulShape::from_opts(o, 640)?;
    let fid = fidelity(o);
    let d = setup(dev, s, o.seed, o.check.unwrap_or_default())?;
    let tiles = s.mt() * s.nt();
    let split = split_work_to_cores(dev.compute_with_storage_grid_size(), tiles, true)?;
    let cores = split.all_cores.clone();
    let mut p = Program::new();
    create_bf16_cbs(&mut p, cores.clone(), &[(CB_IN0, 2), (CB_IN1, 2), (CB_OUT0, 2)])?;
    let r = p.create_kernel(
        Kernel::dataflow("matmul/matmul_multi_core/kernels/dataflow/reader_mm_output_tiles_partitioned.cpp", reader_mm),
        cores.clone(),
        DataMovementConfig::reader([tensor_accessor_args(&d.in0), tensor_accessor_args(&d.in1)].concat()),
    )?;
    let w = p.create_kernel(
        Kernel::dataflow(
            "matmul/matmul_multi_core/kernels/dataflow/writer_unary_interleaved_start_id.cpp",
            writer_unary_ta,
        ),
        cores.clone(),
        DataMovementConfig::writer(tensor_accessor_args(&d.out)),
    )?;
    let c = p.create_kernel(
        Kernel::compute("matmul/matmul_multi_core/kernels/compute/mm.cpp", mm_tiles),
        cores.clone(),
        ComputeConfig { math_fidelity: fid, ..Default::default() },
    )?;
    let mut start = 0;
    for core in split.all_cores.iter() {
        let n =
            if split.core_group_1.contains(core) { split.units_per_core_group_1 } else { split.units_per_core_group_2 };
        p.set_runtime_args(r, core, &[d.in0.address(), d.in1.address(), s.mt(), s.kt(), s.nt(), start, n])?;
        p.set_runtime_args(w, core, &[d.out.address(), n, start])?;
        p.set_runtime_args(c, core, &[n, s.kt()])?;
        start += n;
    }
    let report = dev.enqueue_program(&p)?;
    finish(dev, d, report, s, split.num_cores, fid, 0.97)
}
