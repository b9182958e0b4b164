//! The compute kernel API's errors and warnings: unpacking a format the unpacker was not configured for, a
//! DST index over capacity, packing into a CB without room, an operation without its init, a custom SFPU
//! function reaching outside DST, untilizing outside the rows or the CB — each names what is wrong.

mod support;

use programs::examples::common::{reader_binary, writer_unary};
use sim_device::prelude::*;
use std::sync::Arc;
use support::*;

#[test]
fn unpacking_a_format_the_unpacker_was_not_configured_for_warns() {
    // c_0 bf16, c_1 fp32; binary_op_init_common configured for (c_0, c_0) only.
    let run = |reconfigure: bool| {
        let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
        let core = CoreCoord::new(0, 0);
        let mk = |dev: &mut Device, page: u64| {
            dev.create_buffer(InterleavedBufferConfig { size: page, page_size: page, buffer_type: BufferType::Dram })
                .unwrap()
        };
        let (s0, s1, d) = (mk(&mut dev, 2048), mk(&mut dev, 4096), mk(&mut dev, 2048));
        dev.enqueue_write_buffer(&s0, &vec![bfloat16::from_f32(1.5); 1024]).unwrap();
        dev.enqueue_write_buffer(&s1, &vec![2.25f32; 1024]).unwrap();
        let mut p = Program::new();
        for (cb, f, page) in
            [(C0, DataFormat::Float16_b, 2048), (C1, DataFormat::Float32, 4096), (OUT, DataFormat::Float16_b, 2048)]
        {
            p.create_circular_buffer(core, CircularBufferConfig::new(page, &[(cb, f)]).set_page_size(cb, page))
                .unwrap();
        }
        let r = p
            .create_kernel(Kernel::dataflow("reader", reader_binary), core, DataMovementConfig::reader(vec![]))
            .unwrap();
        let w = p
            .create_kernel(Kernel::dataflow("writer", writer_unary), core, DataMovementConfig::writer(vec![]))
            .unwrap();
        let init = move |c: &mut Compute| {
            c.binary_op_init_common(C0, C0, OUT);
            if reconfigure {
                c.reconfig_data_format(C0, C1);
            }
            c.add_tiles_init(C0, C1, false);
        };
        let body = one_tile_body_after(init, |c: &mut Compute| c.add_tiles(C0, C1, 0, 0, 0));
        p.create_kernel(Kernel::compute("add", move |c: &mut Compute| body(c)), core, ComputeConfig::default())
            .unwrap();
        p.set_runtime_args(r, core, &[s0.address(), s1.address(), 1, 0]).unwrap();
        p.set_runtime_args(w, core, &[d.address(), 1, 0]).unwrap();
        let report = dev.enqueue_program(&p).unwrap();
        let got: Vec<bfloat16> = dev.enqueue_read_buffer(&d).unwrap();
        assert!(got.iter().all(|v| v.to_f32() == 3.75), "the sum is computed from each CB's own format");
        report.warnings
    };
    let w = run(false).join("\n");
    assert!(
        w.contains("add_tiles unpacks c_1 (Float32) but the unpackers are configured for Float16_b/Float16_b (by binary_op_init_common); call reconfig_data_format first"),
        "{w}"
    );
    assert!(run(true).is_empty(), "reconfig_data_format(c_0, c_1) configures both formats");
}

fn kernel_error(e: DeviceError) -> String {
    match e {
        DeviceError::Run(sim_device::RunError::Kernel { message, kernel, risc, .. }) => {
            format!("{kernel} on {risc}: {message}")
        }
        other => panic!("expected a kernel error, got {other}"),
    }
}

#[test]
fn a_broadcast_row_outside_the_tile_is_an_error_naming_it() {
    let (a, b) = inputs();
    for (bc, row) in [(BroadcastType::Row, 32u32), (BroadcastType::Col, 1)] {
        let body: ComputeBody = Arc::new(move |c: &mut Compute| {
            c.cb_wait_front(C0, 1);
            c.cb_wait_front(C1, 1);
            c.tile_regs_acquire();
            c.init_bcast(EltwiseOp::Add, bc, C0, C1);
            c.tiles_bcast_row(EltwiseOp::Add, bc, C0, C1, 0, 0, 0, row);
        });
        let msg = kernel_error(run_with(Arch::WormholeB0, &a, &b, 1, ComputeConfig::default(), body).unwrap_err());
        assert!(msg.contains(&format!("bcast_row_idx {row}")) && msg.contains("row broadcast"), "{msg}");
    }
}

#[test]
fn dst_index_over_capacity_is_an_error_naming_the_capacity() {
    let (a, b) = inputs();
    let copy_to = |dst: u32| -> ComputeBody {
        Arc::new(move |c: &mut Compute| {
            c.cb_wait_front(C0, 1);
            c.tile_regs_acquire();
            c.copy_tile_init(C0);
            c.copy_tile(C0, 0, dst);
            c.tile_regs_commit();
            c.cb_pop_front(C0, 1);
        })
    };
    for (cfg, dst, cap) in [
        (ComputeConfig::default(), 8, 8),
        (ComputeConfig { fp32_dest_acc_en: true, ..Default::default() }, 4, 4),
        (ComputeConfig { dst_full_sync_en: true, ..Default::default() }, 16, 16),
        (ComputeConfig { dst_full_sync_en: true, fp32_dest_acc_en: true, ..Default::default() }, 8, 8),
    ] {
        let e = run_with(Arch::WormholeB0, &a, &b, 1, cfg.clone(), copy_to(dst)).unwrap_err();
        let msg = kernel_error(e);
        assert!(msg.contains(&format!("DST index {dst} is over the capacity of {cap} tiles")), "{msg}");
        assert!(msg.contains("TRISC1"), "{msg}");
        // One below the capacity is fine (the writer then deadlocks on its output; only the DST check matters).
        let e = run_with(Arch::WormholeB0, &a, &b, 1, cfg, copy_to(dst - 1)).unwrap_err();
        assert!(matches!(e, DeviceError::Run(sim_device::RunError::Deadlock { .. })), "{e}");
    }
}

#[test]
fn packing_into_a_cb_without_room_is_an_error() {
    let (a, b) = inputs();
    let body: ComputeBody = Arc::new(|c: &mut Compute| {
        c.cb_wait_front(C0, 1);
        c.tile_regs_acquire();
        c.copy_tile_init(C0);
        c.copy_tile(C0, 0, 0);
        c.tile_regs_commit();
        c.tile_regs_wait();
        // No cb_reserve_back: the packer has no reserved page.
        c.pack_tile(0, OUT);
        c.pack_tile(0, OUT);
        c.pack_tile(0, OUT);
        c.tile_regs_release();
    });
    let msg = kernel_error(run_with(Arch::WormholeB0, &a, &b, 1, ComputeConfig::default(), body).unwrap_err());
    assert!(msg.contains("TRISC2") && msg.contains("c_16 has no room") && msg.contains("cb_reserve_back"), "{msg}");
}

#[test]
fn an_operation_without_its_init_warns() {
    let (a, b) = inputs();
    let body = one_tile_body(|c: &mut Compute| {
        c.add_tiles(C0, C1, 0, 0, 0); // no binary_op_init_common / add_tiles_init
        c.exp_tile(0); // no exp_tile_init
    });
    let (out, report) = run_with(Arch::WormholeB0, &a, &b, 1, ComputeConfig::default(), body).unwrap();
    let w = report.warnings.join("\n");
    assert!(w.contains("add_tiles ran without its init"), "{w}");
    assert!(w.contains("exp_tile ran without exp_tile_init"), "{w}");
    // The operation still happens.
    assert!((out[0] - (a[0] + b[0]).exp()).abs() < 0.05 * (a[0] + b[0]).exp());
}

#[test]
fn a_custom_sfpu_function_outside_dst_is_an_error_naming_the_vector() {
    let (a, b) = inputs();
    let body: ComputeBody = Arc::new(|c: &mut Compute| {
        c.tile_regs_acquire();
        c.llk_math_eltwise_unary_sfpu_params(0, VectorMode::RC, |s| {
            let _ = s.dst(10_000);
        });
        c.tile_regs_commit();
        c.tile_regs_wait();
        c.tile_regs_release();
    });
    let e = run_with(Arch::WormholeB0, &a, &b, 1, ComputeConfig::default(), body).unwrap_err().to_string();
    assert!(e.contains("_llk_math_eltwise_unary_sfpu_params_: dst_reg[10000]"), "{e}");
    assert!(e.contains("outside the section's 8 tiles"), "{e}");
}

#[test]
fn untilizing_outside_the_rows_or_the_cb_is_an_error_naming_it() {
    let (a, b) = inputs();
    // A column block past the row's width (block_c_index 1 of 1-tile blocks in 1-tile rows).
    let outside_row: ComputeBody = Arc::new(|c: &mut Compute| {
        c.cb_wait_front(C0, 1);
        c.pack_untilize_init(C0, OUT);
        c.cb_reserve_back(OUT, 1);
        c.pack_untilize_block(C0, 1, OUT, 1, 1, 1);
    });
    let msg = kernel_error(run_with(Arch::WormholeB0, &a, &b, 1, ComputeConfig::default(), outside_row).unwrap_err());
    assert!(
        msg.contains("pack_untilize_block: column block 1 of 1 tiles does not lie inside rows of 1 tiles"),
        "{msg}"
    );
    // Three block rows into an output CB of two pages (the third would run past its end).
    let past_cb: ComputeBody = Arc::new(|c: &mut Compute| {
        c.cb_wait_front(C0, 1);
        c.pack_untilize_init(C0, OUT);
        c.cb_reserve_back(OUT, 2);
        c.pack_untilize_block(C0, 3, OUT, 1, 1, 0);
    });
    let msg = kernel_error(run_with(Arch::WormholeB0, &a, &b, 2, ComputeConfig::default(), past_cb).unwrap_err());
    assert!(msg.contains("row-major block row 2") && msg.contains("past the end of c_16"), "{msg}");
}
