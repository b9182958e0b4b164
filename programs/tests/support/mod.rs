//! Shared helpers of the compute API tests: a one-core program with a binary reader, a compute body and a
//! unary writer, run on a chosen chip, and the closeness checks.
#![allow(dead_code)]

use programs::examples::common::{reader_binary, writer_unary};
use sim_device::prelude::*;
use std::sync::Arc;

pub const C0: CBIndex = CBIndex::c_0;
pub const C1: CBIndex = CBIndex::c_1;
pub const OUT: CBIndex = CBIndex::c_16;

/// A deterministic row-major tile of bf16 values from `f(row, col)`.
pub fn tile(f: impl Fn(usize, usize) -> f32) -> Vec<f32> {
    (0..1024).map(|i| bfloat16::from_f32(f(i / 32, i % 32)).to_f32()).collect()
}

pub fn bf16(v: f32) -> f32 {
    bfloat16::from_f32(v).to_f32()
}

pub type ComputeBody = Arc<dyn for<'a, 'y> Fn(&'a mut Compute<'y>) + Send + Sync>;

/// Run `body` on core (0,0) with the tiles of `a` in c_0 and of `b` in c_1 (each a whole number of row-major
/// 32×32 tiles, read from DRAM a pair at a time), writing `n_out` tiles of c_16 back; returns them
/// row-major, tile after tile, and the report.
pub fn run_with(
    arch: Arch,
    a: &[f32],
    b: &[f32],
    n_out: u32,
    cfg: ComputeConfig,
    body: ComputeBody,
) -> Result<(Vec<f32>, RunReport), DeviceError> {
    let mut dev = Device::builtin(arch)?;
    let core = CoreCoord::new(0, 0);
    let n_in = (a.len() / 1024) as u32;
    assert_eq!(a.len(), b.len(), "as many tiles of a as of b");
    let buf = |dev: &mut Device, tiles: u32| {
        dev.create_buffer(InterleavedBufferConfig {
            size: 2048 * tiles as u64,
            page_size: 2048,
            buffer_type: BufferType::Dram,
        })
    };
    let (s0, s1, d) = (buf(&mut dev, n_in)?, buf(&mut dev, n_in)?, buf(&mut dev, n_out)?);
    let to_dev =
        |v: &[f32]| v.chunks(1024).flat_map(|t| tilize_nfaces(t, 32, 32)).map(bfloat16::from_f32).collect::<Vec<_>>();
    dev.enqueue_write_buffer(&s0, &to_dev(a))?;
    dev.enqueue_write_buffer(&s1, &to_dev(b))?;
    let mut p = Program::new();
    for (cb, depth) in [(C0, n_in.max(2)), (C1, n_in.max(2)), (OUT, n_out.max(2))] {
        p.create_circular_buffer(
            core,
            CircularBufferConfig::new(2048 * depth, &[(cb, DataFormat::Float16_b)]).set_page_size(cb, 2048),
        )?;
    }
    let r = p.create_kernel(Kernel::dataflow("reader", reader_binary), core, DataMovementConfig::reader(vec![]))?;
    let w = p.create_kernel(Kernel::dataflow("writer", writer_unary), core, DataMovementConfig::writer(vec![]))?;
    p.create_kernel(Kernel::compute("compute", move |c: &mut Compute| body(c)), core, cfg)?;
    p.set_runtime_args(r, core, &[s0.address(), s1.address(), n_in, 0])?;
    p.set_runtime_args(w, core, &[d.address(), n_out, 0])?;
    let report = dev.enqueue_program(&p)?;
    let got: Vec<bfloat16> = dev.enqueue_read_buffer(&d)?;
    let vals: Vec<f32> = got.iter().map(|v| v.to_f32()).collect();
    let mut rows = Vec::new();
    for t in vals.chunks(1024) {
        rows.extend(untilize_nfaces(t, 32, 32));
    }
    Ok((rows, report))
}

/// The compute body of a one-tile operation: wait for both inputs, `op` into DST 0, pack to c_16.
pub fn one_tile_body(op: impl Fn(&mut Compute) + Send + Sync + 'static) -> ComputeBody {
    one_tile_body_after(|_: &mut Compute| {}, op)
}

/// [`one_tile_body`] after `init` (the kernel's configuration calls, before it waits for input).
pub fn one_tile_body_after(
    init: impl Fn(&mut Compute) + Send + Sync + 'static,
    op: impl Fn(&mut Compute) + Send + Sync + 'static,
) -> ComputeBody {
    Arc::new(move |c: &mut Compute| {
        init(c);
        c.cb_wait_front(C0, 1);
        c.cb_wait_front(C1, 1);
        c.tile_regs_acquire();
        op(c);
        c.tile_regs_commit();
        c.cb_pop_front(C0, 1);
        c.cb_pop_front(C1, 1);
        c.cb_reserve_back(OUT, 1);
        c.tile_regs_wait();
        c.pack_tile(0, OUT);
        c.tile_regs_release();
        c.cb_push_back(OUT, 1);
    })
}

/// One-tile operation ([`one_tile_body`]), run without warnings.
pub fn run_op(a: &[f32], b: &[f32], cfg: ComputeConfig, op: impl Fn(&mut Compute) + Send + Sync + 'static) -> Vec<f32> {
    let body = one_tile_body(op);
    let (out, report) = run_with(Arch::WormholeB0, a, b, 1, cfg, body).unwrap_or_else(|e| panic!("{e}"));
    assert!(report.warnings.is_empty(), "unexpected warnings: {:?}", report.warnings);
    out
}

pub fn assert_close(what: &str, got: &[f32], want: &[f32], rtol: f32, atol: f32) {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= atol + rtol * w.abs(),
            "{what}: element ({}, {}) got {g}, expected {w}",
            i / 32,
            i % 32
        );
    }
}

pub fn inputs() -> (Vec<f32>, Vec<f32>) {
    let a = tile(|i, j| ((i * 7 + j * 3) % 23) as f32 / 4.0 - 2.5);
    let b = tile(|i, j| ((i * 5 + j * 11) % 19) as f32 / 8.0 + 0.25);
    (a, b)
}
