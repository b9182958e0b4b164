//! The data-movement API on a fake host (one core, a NoC that lands every transfer after a fixed latency):
//! CB counters and pointers across two RISCs, NoC reads and writes with their barriers, semaphores, args,
//! per-call costs, and the errors API misuse raises.

mod support;

use sim_core::{Cycle, Cycles};
use sim_tensix::{ApiCosts, CBIndex, DataFormat, Dataflow, Risc, WordCond};
use support::{Body, NOC_LATENCY, XY, run, unit_costs};

fn dm(risc: Risc, f: impl Fn(&mut Dataflow) + 'static) -> Body {
    Body::Dataflow(risc, Box::new(f))
}

const CB: (u8, u32, u32, u32, DataFormat) = (0, 0x10000, 4 * 256, 256, DataFormat::UInt32);

#[test]
fn a_producer_and_a_consumer_share_a_cb() {
    // BRISC writes page i with value i into a 4-page CB; NCRISC reads each page as it arrives.
    let got = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let g = got.clone();
    let out = run(
        &[CB],
        &[10],
        unit_costs(),
        vec![
            dm(Risc::Brisc, |k| {
                let n: u32 = k.get_arg_val(0);
                for i in 0..n {
                    k.cb_reserve_back(CBIndex::c_0, 1);
                    let w = k.get_write_ptr(CBIndex::c_0);
                    k.l1_write_u32(w, i);
                    k.cb_push_back(CBIndex::c_0, 1);
                }
            }),
            dm(Risc::Ncrisc, move |k| {
                for _ in 0..10 {
                    k.cb_wait_front(CBIndex::c_0, 1);
                    let r = k.get_read_ptr(CBIndex::c_0);
                    let v = k.l1_read_u32(r);
                    g.borrow_mut().push((r, v));
                    k.cb_pop_front(CBIndex::c_0, 1);
                }
            }),
        ],
    )
    .unwrap();
    let got = got.borrow();
    assert_eq!(got.iter().map(|p| p.1).collect::<Vec<_>>(), (0..10).collect::<Vec<_>>());
    // Read pointers wrap at the end of the 4-page CB.
    let ptrs: Vec<u32> = got.iter().map(|p| p.0).collect();
    assert_eq!(&ptrs[..5], &[0x10000, 0x10100, 0x10200, 0x10300, 0x10000]);
    let cb = out.host.core.cb(0).unwrap();
    assert_eq!((cb.counters.received, cb.counters.acked), (10, 10));
}

#[test]
fn every_call_charges_its_cost() {
    // With 1-cycle costs: 1 arg read + 3 × (reserve + push) = 7 cycles of calls, no waiting.
    let out = run(
        &[CB],
        &[3],
        unit_costs(),
        vec![dm(Risc::Brisc, |k| {
            let n: u32 = k.get_arg_val(0);
            for _ in 0..n {
                k.cb_reserve_back(CBIndex::c_0, 1);
                k.cb_push_back(CBIndex::c_0, 1);
            }
        })],
    )
    .unwrap();
    let (start, end, blocked, calls) = out.runs[0];
    assert_eq!((end - start, blocked, calls), (Cycles(7), Cycles::ZERO, 7));
    // Costs come from the parameters: a 23-cycle NoC command shows up as 23 cycles.
    let costs = ApiCosts { noc_cmd: Cycles(23), ..unit_costs() };
    let out = run(
        &[],
        &[],
        costs,
        vec![dm(Risc::Brisc, |k| {
            let a = k.get_noc_addr(XY.0, XY.1, 0x20000);
            k.noc_async_write(0x30000, a, 64);
        })],
    )
    .unwrap();
    let (start, end, _, _) = out.runs[0];
    assert_eq!(end - start, Cycles(1 + 23), "address (1) + command (23)");
}

#[test]
fn writes_and_reads_land_and_barriers_wait_for_them() {
    let out = run(
        &[],
        &[],
        unit_costs(),
        vec![dm(Risc::Brisc, |k| {
            k.l1_write_u32(0x30000, 0xfeed);
            let dst = k.get_noc_addr(XY.0, XY.1, 0x40000);
            k.noc_async_write(0x30000, dst, 4);
            let before = k.cycle();
            k.noc_async_write_barrier();
            assert!(k.cycle() >= before + NOC_LATENCY.0, "the barrier waited for the ack");
            let src = k.get_noc_addr(XY.0, XY.1, 0x40000);
            k.noc_async_read(src, 0x50000, 4);
            k.noc_async_read_barrier();
            assert_eq!(k.l1_read_u32(0x50000), 0xfeed);
        })],
    )
    .unwrap();
    assert_eq!(out.host.core.l1.read_u32(0x40000).unwrap(), 0xfeed);
}

#[test]
fn semaphores_count_increments() {
    run(
        &[],
        &[],
        unit_costs(),
        vec![
            dm(Risc::Brisc, |k| {
                let s = k.get_semaphore(2);
                let a = k.get_noc_addr(XY.0, XY.1, s);
                for _ in 0..3 {
                    k.noc_semaphore_inc(a, 1);
                }
                k.noc_async_atomic_barrier();
            }),
            dm(Risc::Ncrisc, |k| {
                let s = k.get_semaphore(2);
                assert_eq!(s, 0x1000 + 2 * 16);
                k.noc_semaphore_wait(s, 3);
                k.l1_poll_u32(s, WordCond::Ge(3));
                k.noc_semaphore_set(s, 0);
            }),
        ],
    )
    .unwrap();
}

#[test]
fn misuse_stops_the_kernel_with_a_named_error() {
    let err = |f: fn(&mut Dataflow)| run(&[CB], &[7], unit_costs(), vec![dm(Risc::Brisc, f)]).err().unwrap();
    assert_eq!(
        err(|k| {
            let _: u32 = k.get_arg_val(1);
        }),
        "get_arg_val(1): only 1 unique runtime args were set for this core"
    );
    assert_eq!(
        err(|k| k.cb_reserve_back(CBIndex::c_3, 1)),
        "cb_reserve_back(c_3, 1): CB 3 is not configured on this core"
    );
    assert_eq!(
        err(|k| k.cb_wait_front(CBIndex::c_0, 5)),
        "cb_wait_front(c_0, 5): the CB holds only 4 pages, so this can never succeed"
    );
    assert_eq!(
        err(|k| {
            let _ = k.get_semaphore(16);
        }),
        "get_semaphore(16): semaphore ids are 0..16"
    );
    assert!(
        err(|k| k.noc_async_write(0x30000, k.get_noc_addr(3, 4, 0), 4))
            .starts_with("noc_async_write: NoC coordinate (3,4)")
    );
    assert!(err(|k| k.l1_write_u32(1 << 20, 1)).contains("is outside the 1048576-byte L1"));
    assert_eq!(err(|k| k.zone_end()), "zone_end: no zone is open");
    // A consumer with nothing to consume deadlocks, and says on what.
    let e = run(&[CB], &[], unit_costs(), vec![dm(Risc::Ncrisc, |k| k.cb_wait_front(CBIndex::c_0, 1))]).err().unwrap();
    assert_eq!(e, "deadlock: cb_wait_front(c_0, 1): 0 of 1 pages available");
}

#[test]
fn zones_and_prints_are_reported() {
    let out = run(
        &[],
        &[],
        unit_costs(),
        vec![dm(Risc::Brisc, |k| {
            k.zone_begin("RISCV0");
            k.delay(40);
            k.dprint("hello 7");
            k.zone_end();
        })],
    )
    .unwrap();
    let (name, s, e) = &out.host.zones[0];
    assert_eq!(name, "RISCV0");
    assert!(*e - *s >= Cycles(40) && *s >= Cycle(1));
    assert_eq!(out.host.dprints, vec!["hello 7\n".to_string()]);
}

#[test]
fn with_state_calls_reuse_the_stored_core_and_size_and_cost_less() {
    let costs =
        ApiCosts { noc_read_cmd: Cycles(11), noc_cmd: Cycles(20), noc_with_state_cmd: Cycles(3), ..unit_costs() };
    let out = run(
        &[],
        &[],
        costs,
        vec![dm(Risc::Brisc, |k| {
            for i in 0..4 {
                k.l1_write_u32(0x30000 + 64 * i, 100 + i);
            }
            k.noc_async_write_one_packet_set_state(k.get_noc_addr(XY.0, XY.1, 0x40000), 4, false);
            let before = k.cycle();
            for i in 0..4 {
                k.noc_async_write_one_packet_with_state(0x30000 + 64 * i, 0x40000 + 64 * i);
            }
            assert_eq!(k.cycle() - before, 4 * 3, "each with_state write issues for 3 cycles");
            k.noc_async_write_barrier();
            k.noc_async_read_set_state(k.get_noc_addr(XY.0, XY.1, 0));
            k.noc_async_read_with_state(0x40000 + 64 * 3, 0x50000, 4);
            k.noc_async_read_barrier();
            assert_eq!(k.l1_read_u32(0x50000), 103);
        })],
    )
    .unwrap();
    assert_eq!(out.host.core.l1.read_u32(0x40000 + 64 * 2).unwrap(), 102);
    let e = run(
        &[],
        &[],
        unit_costs(),
        vec![dm(Risc::Brisc, |k| k.noc_async_read_one_packet_with_state(0x40000, 0x50000))],
    )
    .err()
    .expect("with_state without set_state fails");
    assert!(e.contains("no stored state; call noc_async_read_one_packet_set_state first"), "{e}");
}
