//! The compute calls of the kernel ABI: every compute_kernel_api operation by op code, and the SFPI
//! model's DST access.

use crate::ffi;
use sim_core::fiber::abort;
use sim_tensix::{
    BroadcastType, DataCopyType, EltwiseBinaryReuseDestType, EltwiseOp, PoolType, ReduceDim, ScalarOp, SfpuBinary,
    SfpuUnary,
};

/// The operation's bits of an SFPU code word; bit 30 says bit 31 holds the call's approximation flag.
const SFPU_CODE: u32 = (1 << 30) - 1;
const SFPU_APPROX_SET: u32 = 1 << 30;

fn sfpu(code: u32, param: u32, p1: u32, p2: u32) -> SfpuUnary {
    match code {
        0 => SfpuUnary::Exp,
        1 => SfpuUnary::Recip,
        2 => SfpuUnary::Sqrt,
        3 => SfpuUnary::Rsqrt,
        4 => SfpuUnary::Log,
        5 => SfpuUnary::Sigmoid,
        6 => SfpuUnary::Tanh,
        7 => SfpuUnary::Gelu,
        8 => SfpuUnary::Relu,
        9 => SfpuUnary::Abs,
        10 => SfpuUnary::Square,
        11 => SfpuUnary::Power(param),
        12 => SfpuUnary::Fill(param),
        13 => SfpuUnary::Negative,
        14 => SfpuUnary::Softplus { beta: param, beta_reciprocal: p1, threshold: p2 },
        15 => SfpuUnary::Silu,
        16 => SfpuUnary::ReluMin(param),
        17 => SfpuUnary::ReluMax(param),
        18 => SfpuUnary::LeakyRelu(param),
        19 => SfpuUnary::Sign,
        20 => SfpuUnary::Signbit,
        21 => SfpuUnary::Exp2,
        22 => SfpuUnary::Expm1,
        23 => SfpuUnary::Heaviside(param),
        24 => SfpuUnary::UnaryMax(param),
        25 => SfpuUnary::UnaryMin(param),
        26 => SfpuUnary::Scalar(ScalarOp::Add, param),
        27 => SfpuUnary::Scalar(ScalarOp::Sub, param),
        28 => SfpuUnary::Scalar(ScalarOp::Mul, param),
        29 => SfpuUnary::Scalar(ScalarOp::Div, param),
        30 => SfpuUnary::Scalar(ScalarOp::Rsub, param),
        31 => SfpuUnary::ExpScaled(param as u16),
        _ => abort(format!("unknown SFPU operation {code}: the kernel was built against other tensim headers")),
    }
}

fn sfpu_binary(code: u32) -> SfpuBinary {
    match code {
        0 => SfpuBinary::Add,
        1 => SfpuBinary::Sub,
        2 => SfpuBinary::Mul,
        3 => SfpuBinary::Div,
        4 => SfpuBinary::Rsub,
        5 => SfpuBinary::Pow,
        6 => SfpuBinary::Max,
        7 => SfpuBinary::Min,
        8 => SfpuBinary::Eq,
        9 => SfpuBinary::Ne,
        10 => SfpuBinary::Lt,
        11 => SfpuBinary::Gt,
        12 => SfpuBinary::Le,
        13 => SfpuBinary::Ge,
        14 => SfpuBinary::DivNoNan,
        _ => abort(format!("unknown SFPU binary operation {code}: the kernel was built against other tensim headers")),
    }
}

fn datacopy(kind: u32) -> DataCopyType {
    match kind {
        0 => DataCopyType::A2D,
        1 => DataCopyType::B2D,
        _ => abort(format!("unknown datacopy type {kind}: the kernel was built against other tensim headers")),
    }
}

/// Operation codes of `tensim/compute_ops.h`.
pub(super) extern "C-unwind" fn compute(op: u32, a: u32, b: u32, c3: u32, d4: u32, e5: u32, f6: u32) {
    ffi::compute("a compute call", |c| match op {
        0 => c.compute_kernel_hw_startup(a, b, c3),
        1 => c.binary_op_init_common(a, b, c3),
        2 => c.unary_op_init_common(a, b),
        3 => match a {
            0 => c.add_tiles_init(b, c3, d4 != 0),
            1 => c.sub_tiles_init(b, c3, d4 != 0),
            _ => c.mul_tiles_init(b, c3),
        },
        4 => match a {
            0 => c.add_tiles(b, c3, d4, e5, f6),
            1 => c.sub_tiles(b, c3, d4, e5, f6),
            _ => c.mul_tiles(b, c3, d4, e5, f6),
        },
        5 => match a {
            0 => c.tile_regs_acquire(),
            1 => c.tile_regs_commit(),
            2 => c.tile_regs_wait(),
            3 => c.tile_regs_release(),
            4 => c.acquire_dst(),
            _ => c.release_dst(),
        },
        6 => {
            if c3 != 0 {
                c.pack_tile_ooo(a, b, d4)
            } else {
                c.pack_tile(a, b)
            }
        }
        7 => {
            if b != 0 {
                c.copy_tile_to_dst_init_short(a, b)
            } else {
                c.copy_tile_init(a)
            }
        }
        8 => c.copy_tile(a, b, c3),
        9 => c.mm_init(a, b, c3, d4),
        10 => c.mm_init_short(a, b, c3),
        11 => c.matmul_tiles(a, b, c3, d4, e5),
        12 => c.sfpu_unary_init(sfpu(a, 0, 0, 0)),
        // Bit 30 of the code: the call gave its approximation flag (bit 31), as its template argument.
        13 => {
            c.sfpu_unary_approx(sfpu(a & SFPU_CODE, c3, d4, e5), b, (a & SFPU_APPROX_SET != 0).then_some(a >> 31 == 1))
        }
        14 => c.pack_reconfig_data_format(a),
        15 => c.reconfig_data_format(a, b),
        16 => c.pack_tile_block(a, b, c3),
        17 => c.llk_unpack_ab_init(a, b),
        18 => c.llk_unpack_ab(a, b, c3, d4),
        19 => c.llk_math_eltwise_unary_datacopy_init(datacopy(a), b),
        20 => c.llk_math_eltwise_unary_datacopy(datacopy(a), b),
        21 => c.sfpu_binary_init(sfpu_binary(a)),
        22 => c.sfpu_binary(sfpu_binary(a), b, c3, d4),
        23 => {
            if f6 != 0 {
                c.binary_op_init_common(c3, d4, e5);
            }
            c.init_bcast(eltwise(a), bcast(b), c3, d4)
        }
        // a: the operation, the broadcast << 8, the broadcast row << 16.
        24 => c.tiles_bcast_row(eltwise(a & 0xff), bcast((a >> 8) & 0xff), b, c3, d4, e5, f6, a >> 16),
        25 => c.reduce_init(pool(a), reduce_dim(b), c3, d4, e5),
        26 => c.reduce_tile(pool(a & 0xff), reduce_dim(a >> 8), b, c3, d4, e5, f6),
        27 => c.reduce_uninit(),
        28 => {
            if c3 != 0 {
                c.transpose_wh_init(a, b)
            } else {
                c.transpose_wh_init_short(a)
            }
        }
        29 => c.transpose_wh_tile(a, b, c3),
        30 => c.mm_init_short_with_dt(a, b, c3, d4),
        31 => c.matmul_block(a & 0xff, (a >> 8) & 0xff, b, c3, d4, (a >> 16) & 1, e5 & 0xffff, e5 >> 16, f6),
        32 => c.copy_tile_to_dst_init_short_with_dt(a, b, c3),
        33 => c.reconfig_data_format_srca(a),
        34 => c.pack_reconfig_l1_acc(a),
        35 => c.binary_dest_reuse_tiles_init(eltwise(a), reuse(b), c3),
        36 => c.binary_dest_reuse_tiles(eltwise(a & 0xff), reuse(a >> 8), b, c3, d4),
        37 => match a {
            0 => c.tilize_init(b, c3, d4),
            1 if e5 != 0 || f6 != 0 => abort(format!(
                "tilize_block with input tile index {e5} and output tile index {f6}: not modelled: tile offsets \
                 other than 0 (pop and push the CBs instead)"
            )),
            1 => c.tilize_block(b, c3, d4),
            _ => c.tilize_uninit(b, d4),
        },
        38 => match a {
            0 => c.untilize_init(b),
            1 => c.untilize_block(b, c3, d4),
            _ => c.untilize_uninit(b),
        },
        39 => match a {
            0 => c.pack_untilize_init(b, d4),
            1 => c.pack_untilize_block(b, c3, d4, e5 & 0xffff, e5 >> 16, f6),
            3 => c.pack_untilize_dest_init(d4),
            // c3: block_rt_dim; e5: block_ct | full_ct << 16; f6: block_c_index | DST tile offset << 16.
            4 => c.pack_untilize_dest(d4, c3, e5 & 0xffff, e5 >> 16, f6 & 0xffff, f6 >> 16),
            _ => c.pack_untilize_uninit(d4),
        },
        40 => c.unary_bcast(bcast(a), b, c3, d4),
        41 => c.set_fp32_dest_acc(a != 0),
        42 => c.reconfig_data_format_srcb(a),
        _ => abort(format!("unknown compute operation {op}: the kernel was built against other tensim headers")),
    })
}

/// tensim's binary kind (0 add, 1 sub, 2 mul; the headers map EltwiseBinaryType onto it).
fn eltwise(kind: u32) -> EltwiseOp {
    match kind {
        0 => EltwiseOp::Add,
        1 => EltwiseOp::Sub,
        2 => EltwiseOp::Mul,
        _ => abort(
            "not modelled: an FPU broadcast or DST-reuse operation other than add, sub and mul (ELWDIV, ELWMAX)".into(),
        ),
    }
}

/// `BroadcastType` of the headers: NONE, COL, ROW, SCALAR.
fn bcast(code: u32) -> BroadcastType {
    match code {
        0 => BroadcastType::None,
        1 => BroadcastType::Col,
        2 => BroadcastType::Row,
        3 => BroadcastType::Scalar,
        _ => abort(format!("unknown BroadcastType {code}: the kernel was built against other tensim headers")),
    }
}

/// `PoolType` of the headers: SUM, AVG, MAX, MIN.
fn pool(code: u32) -> PoolType {
    match code {
        0 => PoolType::Sum,
        1 => PoolType::Avg,
        2 => PoolType::Max,
        3 => abort("not modelled: reductions with PoolType::MIN (SUM, AVG and MAX are)".into()),
        _ => abort(format!("unknown PoolType {code}: the kernel was built against other tensim headers")),
    }
}

/// `ReduceDim` of the headers: REDUCE_ROW, REDUCE_COL, REDUCE_SCALAR.
fn reduce_dim(code: u32) -> ReduceDim {
    match code {
        0 => ReduceDim::Row,
        1 => ReduceDim::Col,
        2 => ReduceDim::Scalar,
        _ => abort(format!("unknown ReduceDim {code}: the kernel was built against other tensim headers")),
    }
}

/// `EltwiseBinaryReuseDestType` of the headers: NONE, DEST_TO_SRCA, DEST_TO_SRCB.
fn reuse(code: u32) -> EltwiseBinaryReuseDestType {
    match code {
        1 => EltwiseBinaryReuseDestType::DEST_TO_SRCA,
        2 => EltwiseBinaryReuseDestType::DEST_TO_SRCB,
        _ => abort("binary_dest_reuse_tiles needs DEST_TO_SRCA or DEST_TO_SRCB (NONE reuses nothing)".into()),
    }
}

/// Lanes of the vectors the SFPI header passes (`tensim::sfpi::MAX_LANES`).
const SFPI_LANES: usize = sim_tensix::compute::sfpi::MAX_LANES;

/// The SFPI model's DST access (`tensim/sfpi.h`): 0 open (a = wrapper, b = start tile; returns the lanes,
/// 0 when not MATH), 1 seek (a = tile, b = face), 2 load `dst_reg[a]` into `data`, 3 store floats and
/// 4 store integer bits from `data` to `dst_reg[a]` on the lanes of `mask` (one byte per lane; null = all),
/// 5 advance the pointer, 6 close (b = instructions the header counted).
pub(super) extern "C-unwind" fn sfpi(op: u32, a: i32, b: u32, data: *mut f32, mask: *const u8) -> u32 {
    ffi::compute("an SFPI call", |c| match op {
        0 => c.sfpi_open(a.max(0) as usize, b),
        1 => {
            c.sfpi_session("the SFPU face walk").seek(a.max(0) as usize, b as usize);
            0
        }
        2 => {
            let mut v = [0f32; SFPI_LANES];
            c.sfpi_session("a dst_reg read").load_lanes(a as isize, &mut v);
            ffi::write_slice(data, &v);
            0
        }
        3 | 4 => {
            // Copied onto the stack: one store per vector instruction, no allocation.
            let mut vals = [0f32; SFPI_LANES];
            let src = ffi::read_slice(data as *const f32, SFPI_LANES);
            if src.len() != SFPI_LANES {
                abort("a dst_reg write without its lanes: the kernel was built against other tensim headers".into());
            }
            vals.copy_from_slice(src);
            let mut en = [true; SFPI_LANES];
            for (e, &m) in en.iter_mut().zip(ffi::read_slice(mask, SFPI_LANES)) {
                *e = m != 0;
            }
            c.sfpi_session("a dst_reg write").store_lanes(a as isize, &vals, Some(&en), op == 3);
            0
        }
        5 => {
            c.sfpi_session("dst_reg++").advance();
            0
        }
        6 => {
            c.sfpi_close(b as u64);
            0
        }
        _ => abort(format!("unknown SFPI call {op}: the kernel was built against other tensim headers")),
    })
}
