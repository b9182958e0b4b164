//! softmax: a fused softmax over the rows of an H × W bf16 tensor (the compute kernel of seed 002 — exp,
//! a row-sum reduction with a scaler tile, a reciprocal, and a column-broadcast multiply — on one core per
//! slice of tile-rows). Each core's reader generates the reduction scaler tile, then streams its tile-rows;
//! the compute kernel keeps one tile-row of exponentials in an intermediate CB.

use super::common::{
    BF16_TILE, CB_IN0, CB_OUT0, bf16_dram_buffer, check_close, check_pcc, create_bf16_cbs, random_bf16, writer_unary,
};
use crate::options::{ExampleOptions, OptionError, Outcome, ProgramError};
use crate::rng::Rng;
use sim_device::prelude::*;

/// The reduction scaler tile (1.0 in the first row of each face).
pub const CB_SCALER: CBIndex = CBIndex::c_2;
/// exp(x) of the current tile-row.
pub const CB_EXPS: CBIndex = CBIndex::c_24;
/// 1 / Σ exp(x) of the current tile-row (column 0).
pub const CB_RECIPSUMEXPS: CBIndex = CBIndex::c_25;

/// The reader: the scaler tile into c_2 (a float written to the first row of every face, the rest zero),
/// then `rows` tile-rows of `wt` tiles each from tile `start`. RT args: src address, start tile, rows, Wt,
/// scaler bits (f32).
pub fn reader_softmax(k: &mut Dataflow) {
    let src: u32 = k.get_arg_val(0);
    let start: u32 = k.get_arg_val(1);
    let rows: u32 = k.get_arg_val(2);
    let wt: u32 = k.get_arg_val(3);
    let scaler = f32::from_bits(k.get_arg_val(4));
    k.cb_reserve_back(CB_SCALER, 1);
    let l1 = k.get_write_ptr(CB_SCALER);
    let bf = bfloat16::from_f32(scaler);
    let word = pack_two_bfloat16_into_uint32(bf, bf);
    for w in 0..BF16_TILE / 4 {
        // Face f occupies 512 bytes; its first row is 16 values (32 bytes = 8 words).
        let in_first_row = (w % 128) < 8;
        k.l1_write_u32(l1 + 4 * w, if in_first_row { word } else { 0 });
    }
    k.cb_push_back(CB_SCALER, 1);
    let tile = k.get_tile_size(CB_IN0);
    let s =
        InterleavedAddrGenFast::<true> { bank_base_address: src, page_size: tile, data_format: DataFormat::Float16_b };
    for t in start..start + rows * wt {
        k.cb_reserve_back(CB_IN0, 1);
        let l1 = k.get_write_ptr(CB_IN0);
        k.noc_async_read_tile(t, &s, l1);
        k.noc_async_read_barrier();
        k.cb_push_back(CB_IN0, 1);
    }
}

/// The compute kernel: for each tile-row, exp every tile into c_24; sum the row with `reduce_tile` and take
/// the reciprocal into c_25; multiply every exp tile by it (column broadcast) into c_16. RT args: rows, Wt.
pub fn softmax(c: &mut Compute) {
    let rows: u32 = c.get_arg_val(0);
    let wt: u32 = c.get_arg_val(1);
    c.binary_op_init_common(CB_IN0, CB_SCALER, CB_OUT0);
    c.cb_wait_front(CB_SCALER, 1);
    for _ in 0..rows {
        // exp
        c.copy_tile_init(CB_IN0);
        c.exp_tile_init();
        for _ in 0..wt {
            c.acquire_dst();
            c.cb_wait_front(CB_IN0, 1);
            c.copy_tile(CB_IN0, 0, 0);
            c.cb_pop_front(CB_IN0, 1);
            c.cb_reserve_back(CB_EXPS, 1);
            c.exp_tile(0);
            c.pack_tile(0, CB_EXPS);
            c.cb_push_back(CB_EXPS, 1);
            c.release_dst();
        }
        // reduce + recip
        c.reduce_init(PoolType::Sum, ReduceDim::Row, CB_EXPS, CB_SCALER, CB_RECIPSUMEXPS);
        c.recip_tile_init();
        c.acquire_dst();
        c.cb_reserve_back(CB_RECIPSUMEXPS, 1);
        for w in 0..wt {
            c.cb_wait_front(CB_EXPS, w + 1);
            c.reduce_tile(PoolType::Sum, ReduceDim::Row, CB_EXPS, CB_SCALER, w, 0, 0);
        }
        c.recip_tile(0);
        c.pack_tile(0, CB_RECIPSUMEXPS);
        c.cb_push_back(CB_RECIPSUMEXPS, 1);
        c.release_dst();
        c.reduce_uninit();
        // multiply
        c.mul_bcast_cols_init_short(CB_EXPS, CB_RECIPSUMEXPS);
        c.cb_wait_front(CB_RECIPSUMEXPS, 1);
        for w in 0..wt {
            c.acquire_dst();
            c.cb_reserve_back(CB_OUT0, 1);
            c.mul_tiles_bcast_cols(CB_EXPS, CB_RECIPSUMEXPS, w, 0, 0);
            c.pack_tile(0, CB_OUT0);
            c.cb_push_back(CB_OUT0, 1);
            c.release_dst();
        }
        c.cb_pop_front(CB_RECIPSUMEXPS, 1);
        c.cb_pop_front(CB_EXPS, wt);
    }
}

/// Run it: softmax over the rows of an H × W tensor (`--m` H, default 2048; `--n` W, default 512) of values
/// uniform in [-4, 4), tile-rows split over the compute grid. Checked per element (5% relative) and by PCC.
pub fn run(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let (h, w) = (o.m.unwrap_or(2048), o.n.unwrap_or(512));
    for (name, v) in [("m", h), ("n", w)] {
        if v == 0 || v % 32 != 0 {
            return Err(OptionError::value(name, v, "softmax takes whole tiles; use a positive multiple of 32").into());
        }
    }
    let (ht, wt) = (h / 32, w / 32);
    let split = split_work_to_cores(dev.compute_with_storage_grid_size(), ht, true)?;
    let (src, dst) = (bf16_dram_buffer(dev, ht * wt)?, bf16_dram_buffer(dev, ht * wt)?);
    let x = random_bf16(&mut Rng::new(o.seed), (h * w) as usize, -4.0, 4.0);
    super::common::write_bf16_matrix(dev, &src, &x, h as usize, w as usize)?;
    let cores = split.all_cores.clone();
    let mut p = Program::new();
    let cbs = [(CB_IN0, 2), (CB_SCALER, 1), (CB_OUT0, 2), (CB_EXPS, wt), (CB_RECIPSUMEXPS, 1)];
    create_bf16_cbs(&mut p, cores.clone(), &cbs)?;
    let r = p.create_kernel(
        Kernel::dataflow("softmax/kernels/dataflow/reader_softmax.cpp", reader_softmax),
        cores.clone(),
        DataMovementConfig::reader(vec![]),
    )?;
    let wk = p.create_kernel(
        Kernel::dataflow("softmax/kernels/dataflow/writer_unary.cpp", writer_unary),
        cores.clone(),
        DataMovementConfig::writer(vec![]),
    )?;
    let c = p.create_kernel(
        Kernel::compute("softmax/kernels/compute/softmax.cpp", softmax),
        cores.clone(),
        ComputeConfig::default(),
    )?;
    let mut row = 0;
    for core in split.all_cores.iter() {
        let rows =
            if split.core_group_1.contains(core) { split.units_per_core_group_1 } else { split.units_per_core_group_2 };
        p.set_runtime_args(r, core, &[src.address(), row * wt, rows, wt, 1.0f32.to_bits()])?;
        p.set_runtime_args(wk, core, &[dst.address(), rows * wt, row * wt])?;
        p.set_runtime_args(c, core, &[rows, wt])?;
        row += rows;
    }
    let report = dev.enqueue_program(&p)?;
    let got = super::common::read_bf16_matrix(dev, &dst, h as usize, w as usize)?;
    let mut want = vec![0f32; x.len()];
    for (xr, wr) in x.chunks(w as usize).zip(want.chunks_mut(w as usize)) {
        let sum: f64 = xr.iter().map(|v| (*v as f64).exp()).sum();
        for (o, v) in wr.iter_mut().zip(xr) {
            *o = ((*v as f64).exp() / sum) as f32;
        }
    }
    let (ok_close, close) = check_close("softmax", &got, &want, 0.0, 5e-2);
    let (ok_pcc, pcc) = check_pcc("softmax", &got, &want, 0.995);
    let check = format!("{close}; {pcc}; {ht} tile-rows of {wt} tiles over {} cores", split.num_cores);
    Ok(Outcome { passed: ok_close && ok_pcc, check, report, metrics: Vec::new() })
}
