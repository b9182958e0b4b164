//! matmul_single_core (tt-metal `programming_examples/matmul/matmul_single_core`): C = A·B (bf16, 640 ×
//! 640 × 640 by default) on one core, one output tile at a time: the reader streams the Kt tile pairs of
//! each output tile, the compute kernel accumulates them in DST, the writer stores the tile.

use super::common::{CB_IN0, CB_IN1, CB_OUT0, create_bf16_cbs, writer_unary_ta};
use super::matmul_common::{MatmulShape, fidelity, finish, mm_tiles, reader_mm, setup};
use crate::options::{ExampleOptions, Outcome, ProgramError};
use sim_device::prelude::*;

/// Run it (`--m --n --k`, default 640 each; `--fidelity`, default HiFi4); PCC above 0.97.
pub fn run(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let s = MatmulShape::from_opts(o, 640)?;
    let fid = fidelity(o);
    let d = setup(dev, s, o.seed, o.check.unwrap_or_default())?;
    let core = CoreCoord::new(0, 0);
    let mut p = Program::new();
    create_bf16_cbs(&mut p, core, &[(CB_IN0, 2), (CB_IN1, 2), (CB_OUT0, 2)])?;
    let r = p.create_kernel(
        Kernel::dataflow("matmul/matmul_single_core/kernels/dataflow/reader_single_core_mm.cpp", reader_mm),
        core,
        DataMovementConfig::reader([tensor_accessor_args(&d.in0), tensor_accessor_args(&d.in1)].concat()),
    )?;
    let w = p.create_kernel(
        Kernel::dataflow("matmul/matmul_single_core/kernels/dataflow/writer_single_core_mm.cpp", writer_unary_ta),
        core,
        DataMovementConfig::writer(tensor_accessor_args(&d.out)),
    )?;
    let c = p.create_kernel(
        Kernel::compute("matmul/matmul_single_core/kernels/compute/mm.cpp", mm_tiles),
        core,
        ComputeConfig { math_fidelity: fid, ..Default::default() },
    )?;
    let tiles = s.mt() * s.nt();
    p.set_runtime_args(r, core, &[d.in0.address(), d.in1.address(), s.mt(), s.kt(), s.nt(), 0, tiles])?;
    p.set_runtime_args(w, core, &[d.out.address(), tiles, 0])?;
    p.set_runtime_args(c, core, &[tiles, s.kt()])?;
    let report = dev.enqueue_program(&p)?;
    finish(dev, d, report, s, 1, fid, 0.97)
}
