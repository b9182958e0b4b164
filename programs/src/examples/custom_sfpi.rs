//! Custom SFPU functions written in the SFPI model: seed 002's `a + b` through SrcA/SrcB → DST → SFPU
//! (`sfpu_custom_add`, with the low-level unpack and datacopy calls that example makes), and ports of
//! tt-metal's `custom_sfpi_add` and `custom_sfpi_smoothstep` programming examples (copy_tile into DST, then
//! a face function under `_llk_math_eltwise_{binary,unary}_sfpu_params_`).

use super::common::{
    CB_IN0, CB_IN1, CB_OUT0, bf16_dram_buffer, check_close, create_bf16_cbs, random_bf16, reader_binary,
    reader_binary_ta, reader_unary_ta, writer_unary, writer_unary_ta,
};
use crate::options::{ExampleOptions, Outcome, ProgramError};
use crate::rng::Rng;
use sim_device::prelude::*;

/// Seed 002's face function: DST tile 1 added into DST tile 0, one vector per iteration (ITERATIONS is
/// the arch's vectors per face; the second tile starts one tile's worth of vectors further).
pub fn sfpu_custom_func(s: &mut Sfpi) {
    let second = s.vectors_per_tile() as isize;
    for _ in 0..s.vectors_per_face() {
        let a = s.dst(0);
        let b = s.dst(second);
        s.set_dst(0, a + b);
        s.inc();
    }
}

/// Seed 002's compute kernel: per tile, `llk_unpack_AB` puts a c_0 tile in SrcA and a c_1 tile in SrcB,
/// MATH copies them to DST 0 and 1 (A2D, B2D) and runs [`sfpu_custom_func`] over DST 0; PACK writes DST 0
/// to c_16. RT arg 0: tiles.
pub fn seed_custom_add(c: &mut Compute) {
    let n: u32 = c.get_arg_val(0);
    c.binary_op_init_common(CB_IN0, CB_IN1, CB_OUT0);
    for _ in 0..n {
        c.acquire_dst();
        c.cb_wait_front(CB_IN0, 1);
        c.cb_wait_front(CB_IN1, 1);
        c.llk_unpack_ab_init(CB_IN0, CB_IN1);
        c.llk_unpack_ab(CB_IN0, CB_IN1, 0, 0);
        c.llk_math_eltwise_unary_datacopy_init(DataCopyType::A2D, CB_IN0);
        c.llk_math_eltwise_unary_datacopy(DataCopyType::A2D, 0);
        c.llk_math_eltwise_unary_datacopy_init(DataCopyType::B2D, CB_IN1);
        c.llk_math_eltwise_unary_datacopy(DataCopyType::B2D, 1);
        c.llk_math_eltwise_unary_sfpu_0_param(sfpu_custom_func, sfpu_custom_func, 0, VectorMode::RC);
        c.cb_reserve_back(CB_OUT0, 1);
        c.pack_tile(0, CB_OUT0);
        c.cb_push_back(CB_OUT0, 1);
        c.cb_pop_front(CB_IN0, 1);
        c.cb_pop_front(CB_IN1, 1);
        c.release_dst();
    }
}

/// `custom_sfpi_add`'s face function: DST[out] = DST[in0] + DST[in1], 8 vectors (one face) addressed from
/// the tiles' bases.
fn add_tile_face(s: &mut Sfpi, in0: u32, in1: u32, out: u32) {
    let per_tile = s.vectors_per_tile() as isize;
    let (a0, b0, o0) = (in0 as isize * per_tile, in1 as isize * per_tile, out as isize * per_tile);
    for i in 0..s.vectors_per_face() as isize {
        let a = s.dst(a0 + i);
        let b = s.dst(b0 + i);
        s.set_dst(o0 + i, a + b);
    }
}

/// `custom_sfpi_add`'s compute kernel: c_0 and c_1 copied to DST 0 and 1, added by `add_tile_face`,
/// DST 0 packed to c_16. RT arg 0: tiles.
pub fn sfpi_add(c: &mut Compute) {
    let n: u32 = c.get_arg_val(0);
    c.init_sfpu(CB_IN0, CB_OUT0);
    for _ in 0..n {
        c.cb_wait_front(CB_IN0, 1);
        c.cb_wait_front(CB_IN1, 1);
        c.tile_regs_acquire();
        c.copy_tile_init(CB_IN0);
        c.copy_tile(CB_IN0, 0, 0);
        c.copy_tile_init(CB_IN1);
        c.copy_tile(CB_IN1, 0, 1);
        c.llk_math_eltwise_binary_sfpu_params(VectorMode::RC, |s| add_tile_face(s, 0, 1, 0));
        c.tile_regs_commit();
        c.tile_regs_wait();
        c.cb_reserve_back(CB_OUT0, 1);
        c.pack_tile(0, CB_OUT0);
        c.cb_push_back(CB_OUT0, 1);
        c.cb_pop_front(CB_IN0, 1);
        c.cb_pop_front(CB_IN1, 1);
        c.tile_regs_release();
    }
}

/// `custom_sfpi_smoothstep`'s face function (the shipped `smoothstep_tile_face`): for each vector i of the
/// face, t = clamp((x − edge0) / (edge1 − edge0), 0, 1), then t²(3 − 2t), in place.
fn smoothstep_face(s: &mut Sfpi, edge0: f32, inv_width: f32) {
    for i in 0..s.vectors_per_face() as isize {
        let x = s.dst(i);
        let mut t = (x - edge0) * inv_width;
        s.v_if(t.lt(0.0), |s| s.assign(&mut t, VFloat::CONST_0))
            .v_elseif(t.gt(1.0), |s| s.assign(&mut t, VFloat::CONST_1));
        let y = t * t * (3.0 - 2.0 * t);
        s.set_dst(i, y);
    }
}

/// `custom_sfpi_smoothstep`'s compute kernel: c_0 copied to DST 0, `smoothstep_face` over it, packed to
/// c_16. RT args: tiles, edge0 and edge1 as f32 bits.
pub fn sfpi_smoothstep(c: &mut Compute) {
    let n: u32 = c.get_arg_val(0);
    let e0 = f32::from_bits(c.get_arg_val(1));
    let e1 = f32::from_bits(c.get_arg_val(2));
    let inv = 1.0 / (e1 - e0);
    c.init_sfpu(CB_IN0, CB_OUT0);
    for _ in 0..n {
        c.cb_wait_front(CB_IN0, 1);
        c.tile_regs_acquire();
        c.copy_tile(CB_IN0, 0, 0);
        c.llk_math_eltwise_unary_sfpu_params(0, VectorMode::RC, |s| smoothstep_face(s, e0, inv));
        c.tile_regs_commit();
        c.tile_regs_wait();
        c.cb_reserve_back(CB_OUT0, 1);
        c.pack_tile(0, CB_OUT0);
        c.cb_push_back(CB_OUT0, 1);
        c.cb_pop_front(CB_IN0, 1);
        c.tile_regs_release();
    }
}

fn to_bf16(v: &[f32]) -> Vec<bfloat16> {
    v.iter().map(|&x| bfloat16::from_f32(x)).collect()
}

fn read_f32(dev: &mut Device, b: &Buffer) -> Result<Vec<f32>, DeviceError> {
    let got: Vec<bfloat16> = dev.enqueue_read_buffer(b)?;
    Ok(got.iter().map(|v| v.to_f32()).collect())
}

/// A two-input program: `compute` adds c_0 and c_1 into c_16 over `size` (default 16) tiles.
/// `accessors`: the data-movement kernels of today's API (TensorAccessors from compile-time args), else the
/// older ones (address generators the kernels build).
fn run_add(
    dev: &mut Device,
    o: &ExampleOptions,
    dir: &str,
    kernel: &str,
    compute: fn(&mut Compute),
    accessors: bool,
) -> Result<Outcome, ProgramError> {
    let n = o.size.unwrap_or(16);
    let core = CoreCoord::new(0, 0);
    let (s0, s1, d) = (bf16_dram_buffer(dev, n)?, bf16_dram_buffer(dev, n)?, bf16_dram_buffer(dev, n)?);
    let mut rng = Rng::new(o.seed);
    let len = n as usize * 1024;
    let a = random_bf16(&mut rng, len, -1.0, 1.0);
    let b = random_bf16(&mut rng, len, -1.0, 1.0);
    dev.enqueue_write_buffer(&s0, &to_bf16(&a))?;
    dev.enqueue_write_buffer(&s1, &to_bf16(&b))?;
    let mut p = Program::new();
    create_bf16_cbs(&mut p, core, &[(CB_IN0, 2), (CB_IN1, 2), (CB_OUT0, 2)])?;
    type KernelFn = fn(&mut Dataflow);
    let (reader, writer, reader_args, writer_args): (KernelFn, KernelFn, _, _) = if accessors {
        (
            reader_binary_ta,
            writer_unary_ta,
            [tensor_accessor_args(&s0), tensor_accessor_args(&s1)].concat(),
            tensor_accessor_args(&d),
        )
    } else {
        (reader_binary, writer_unary, vec![], vec![])
    };
    let r = p.create_kernel(
        Kernel::dataflow(&format!("{dir}/kernels/dataflow/read_tiles.cpp"), reader),
        core,
        DataMovementConfig::reader(reader_args),
    )?;
    let w = p.create_kernel(
        Kernel::dataflow(&format!("{dir}/kernels/dataflow/write_tile.cpp"), writer),
        core,
        DataMovementConfig::writer(writer_args),
    )?;
    let c = p.create_kernel(
        Kernel::compute(&format!("{dir}/kernels/compute/{kernel}"), compute),
        core,
        ComputeConfig::default(),
    )?;
    p.set_runtime_args(r, core, &[s0.address(), s1.address(), n, 0])?;
    p.set_runtime_args(w, core, &[d.address(), n, 0])?;
    p.set_runtime_args(c, core, &[n])?;
    let report = dev.enqueue_program(&p)?;
    let got = read_f32(dev, &d)?;
    let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    let (passed, check) = check_close("a + b on the SFPU", &got, &want, 1e-2, 1e-2);
    Ok(Outcome { passed, check, report, metrics: Vec::new() })
}

/// Seed 002's program: `size` (default 16) tiles of a + b, the add done by a custom SFPU function.
pub fn run_seed(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    run_add(dev, o, "sfpu_custom_add", "sfpu_custom_add.cpp", seed_custom_add, false)
}

/// `custom_sfpi_add`: `size` (default 16) tiles of a + b by an SFPI face function.
pub fn run_add_example(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    run_add(dev, o, "custom_sfpi_add", "tiles_add.cpp", sfpi_add, true)
}

/// `custom_sfpi_smoothstep`: smoothstep(0, 1, x) of `size` (default 16) tiles of x uniform in [-0.5, 1.5).
pub fn run_smoothstep(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let n = o.size.unwrap_or(16);
    let (e0, e1) = (0.0f32, 1.0f32);
    let core = CoreCoord::new(0, 0);
    let (s, d) = (bf16_dram_buffer(dev, n)?, bf16_dram_buffer(dev, n)?);
    let x = random_bf16(&mut Rng::new(o.seed), n as usize * 1024, -0.5, 1.5);
    dev.enqueue_write_buffer(&s, &to_bf16(&x))?;
    let mut p = Program::new();
    create_bf16_cbs(&mut p, core, &[(CB_IN0, 2), (CB_OUT0, 2)])?;
    let dir = "custom_sfpi_smoothstep/kernels";
    let r = p.create_kernel(
        Kernel::dataflow(&format!("{dir}/dataflow/read_tile.cpp"), reader_unary_ta),
        core,
        DataMovementConfig::reader(tensor_accessor_args(&s)),
    )?;
    let w = p.create_kernel(
        Kernel::dataflow(&format!("{dir}/dataflow/write_tile.cpp"), writer_unary_ta),
        core,
        DataMovementConfig::writer(tensor_accessor_args(&d)),
    )?;
    let c = p.create_kernel(
        Kernel::compute(&format!("{dir}/compute/tiles_smoothstep.cpp"), sfpi_smoothstep),
        core,
        ComputeConfig::default(),
    )?;
    p.set_runtime_args(r, core, &[s.address(), n, 0])?;
    p.set_runtime_args(w, core, &[d.address(), n, 0])?;
    p.set_runtime_args(c, core, &[n, e0.to_bits(), e1.to_bits()])?;
    let report = dev.enqueue_program(&p)?;
    let got = read_f32(dev, &d)?;
    let want: Vec<f32> = x
        .iter()
        .map(|&v| {
            let t = ((v - e0) / (e1 - e0)).clamp(0.0, 1.0);
            t * t * (3.0 - 2.0 * t)
        })
        .collect();
    let (passed, check) = check_close("smoothstep(0, 1, x)", &got, &want, 1e-2, 1e-2);
    Ok(Outcome { passed, check, report, metrics: Vec::new() })
}
