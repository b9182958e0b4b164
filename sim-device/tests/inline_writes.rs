//! Inline (register-sourced) writes: the byte-enable mask writes only the bytes it names, a posted write is
//! not counted by the write barrier while a non-posted one is, the inline-write state of a command buffer
//! keeps its address and value across `with_state` calls (each update stays), and bad masks, VCs or a
//! missing state stop the kernel with an error naming the call. Both NoC models give the same words.

use sim_device::prelude::*;
use sim_device::{Kernel, Params};
use sim_tensix::AtomicOpts;
use std::sync::{Arc, Mutex};

/// Run `body` as a data-movement kernel on logical (0,0), which writes into the L1 of logical (1,0) at
/// `base` (its semaphore 0's address); then the eight words there. The kernel gets (the target's NoC
/// address of `base`, `base`).
fn run(
    model: &str,
    body: impl Fn(&mut sim_tensix::Dataflow<'_>, u64, u32) + Send + Sync + 'static,
) -> Result<Vec<u32>, String> {
    let mut p = Params::builtin(Arch::WormholeB0);
    p.set("test", &format!("noc.model={model}")).unwrap();
    let mut dev = Device::open_with_params(&ChipSpec::builtin(Arch::WormholeB0), p).unwrap();
    let target = dev.worker_core_from_logical_core(CoreCoord::new(1, 0)).unwrap();
    let mut prog = Program::new();
    let both = CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(1, 0));
    let sem = prog.create_semaphore(both, 0).unwrap();
    for _ in 1..8 {
        prog.create_semaphore(both, 0).unwrap();
    }
    let words = Arc::new(Mutex::new(Vec::<u32>::new()));
    let out = words.clone();
    prog.create_kernel(
        Kernel::dataflow("inline_writer", move |d| {
            let base = d.get_semaphore(sem);
            let remote = d.get_noc_addr(target.x, target.y, base);
            // Zero the eight words first (semaphores are 16 bytes apart; the words between are ours too).
            for i in 0..8 {
                d.noc_inline_dw_write(remote + 4 * i, 0);
            }
            d.noc_async_write_barrier();
            body(d, remote, base);
            d.noc_async_write_barrier();
            *out.lock().unwrap() = vec![base];
        }),
        CoreCoord::new(0, 0),
        DataMovementConfig::default(),
    )
    .unwrap();
    dev.enqueue_program(&prog).map_err(|e| e.to_string())?;
    let base = words.lock().unwrap()[0];
    // After the run every write has landed, posted ones too.
    Ok(dev.read_from_device_l1::<u32>(CoreCoord::new(1, 0), base, 8).unwrap())
}

#[test]
fn the_byte_enable_mask_writes_only_its_bytes() {
    for model in ["calendar", "router"] {
        let w = run(model, |d, remote, _| {
            let o = AtomicOpts::on(d.noc_index());
            d.noc_inline_dw_write_with(remote, 0x1122_3344, 0xF, o);
            d.noc_async_write_barrier();
            d.noc_inline_dw_write_with(remote, 0xAABB_CCDD, 0b0101, o);
            d.noc_inline_dw_write_with(remote + 4, 0xAABB_CCDD, 0b1000, o);
            d.noc_inline_dw_write_with(remote + 8, 0xAABB_CCDD, 0, o);
        })
        .unwrap();
        assert_eq!(w[0], 0x11BB_33DD, "{model}: bytes 0 and 2 from the second write");
        assert_eq!(w[1], 0xAA00_0000, "{model}");
        assert_eq!(w[2], 0, "{model}: an empty mask writes nothing");
    }
}

#[test]
fn the_inline_write_state_keeps_each_update() {
    for model in ["calendar", "router"] {
        let w = run(model, |d, remote, base| {
            d.noc_inline_dw_write_set_state(3, remote + 4, Some(0x1111_1111), 0xF, 1);
            d.noc_inline_dw_write_with_state(3, None, None, false); // word 1
            d.noc_inline_dw_write_with_state(3, None, Some(base + 8), false); // word 2, same value
            d.noc_inline_dw_write_with_state(3, Some(0x2222_2222), Some(base + 12), false); // word 3
            d.noc_inline_dw_write_with_state(3, None, Some(base + 16), true); // word 4, posted: last value
            // A second buffer's state is its own.
            d.noc_inline_dw_write_set_state(2, remote + 20, None, 0x3, 0);
            d.noc_inline_dw_write_with_state(2, Some(0xFFFF_ABCD), None, false); // word 5, two bytes
        })
        .unwrap();
        assert_eq!(w[..6], [0, 0x1111_1111, 0x1111_1111, 0x2222_2222, 0x2222_2222, 0xABCD], "{model}");
    }
}

#[test]
fn a_posted_inline_write_is_not_waited_for_by_the_write_barrier() {
    // Cycle the barrier returned after one inline write.
    let at = |posted: bool| {
        let seen = Arc::new(Mutex::new(0u64));
        let s = seen.clone();
        run("calendar", move |d, remote, _| {
            let o = AtomicOpts { posted, ..AtomicOpts::on(d.noc_index()) };
            let t0 = d.cycle();
            d.noc_inline_dw_write_with(remote + 28, 7, 0xF, o);
            d.noc_async_write_barrier();
            *s.lock().unwrap() = d.cycle() - t0;
        })
        .unwrap();
        *seen.lock().unwrap()
    };
    let (posted, acked) = (at(true), at(false));
    assert!(posted + 20 < acked, "posted {posted} cycles, non-posted {acked}: the barrier waits for the ack");
}

#[test]
fn bad_inline_writes_stop_with_the_call_named() {
    let e = run("calendar", |d, remote, _| {
        let o = AtomicOpts::on(d.noc_index());
        d.noc_inline_dw_write_with(remote, 1, 0x1F, o);
    })
    .unwrap_err();
    assert!(e.contains("noc_inline_dw_write") && e.contains("0x1f") && e.contains("byte"), "{e}");
    let e = run("calendar", |d, remote, _| {
        let o = AtomicOpts { vc: 4, ..AtomicOpts::on(d.noc_index()) };
        d.noc_inline_dw_write_with(remote, 1, 0xF, o);
    })
    .unwrap_err();
    assert!(e.contains("noc_inline_dw_write") && e.contains("VC 4"), "{e}");
    let e = run("calendar", |d, _, _| d.noc_inline_dw_write_with_state(3, Some(1), None, false)).unwrap_err();
    assert!(e.contains("noc_inline_dw_write_with_state") && e.contains("set_state"), "{e}");
    let e = run("calendar", |d, remote, _| {
        d.noc_inline_dw_write_set_state(3, remote, None, 0xF, 1);
        d.noc_inline_dw_write_with_state(3, None, None, false);
    })
    .unwrap_err();
    assert!(e.contains("no value"), "{e}");
    let e = run("calendar", |d, remote, _| d.noc_inline_dw_write_set_state(4, remote, Some(1), 0xF, 1)).unwrap_err();
    assert!(e.contains("command buffer 4"), "{e}");
}

#[test]
fn atomic_op_store_masks_bytes() {
    use sim_tensix::AtomicOp;
    assert_eq!(AtomicOp::store(5).apply(0xFFFF_FFFF), 5);
    assert_eq!(AtomicOp::Store { val: 0x0102_0304, byte_enable: 0b0110 }.apply(0xAAAA_AAAA), 0xAA02_03AA);
    assert_eq!(AtomicOp::Inc(2).apply(u32::MAX), 1);
}
