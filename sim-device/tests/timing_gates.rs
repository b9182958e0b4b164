//! Timing gates: an event is not done at t-1 and is done at exactly t, where t comes from the documented
//! formulas (zero-load NoC latency, NIU and L1 latencies, CB and barrier hand-offs). API costs are set to
//! zero so the NoC and hand-off terms stand alone.

use sim_device::prelude::*;
use sim_device::{Kernel, Params};
use std::sync::{Arc, Mutex};

fn device(extra: &[&str]) -> Device {
    let mut p = Params::builtin(Arch::WormholeB0);
    let keys: Vec<&str> = p.entries().iter().map(|e| e.key).filter(|k| k.starts_with("api.")).collect();
    for k in keys {
        p.set("--set", &format!("{k}=0")).unwrap();
    }
    p.set("--set", "noc.inject_cycles_per_kflit=1000").unwrap();
    p.set("--set", "noc.hop_cycles=9").unwrap();
    p.set("--set", "noc.ack_turnaround_cycles=0").unwrap();
    p.set("--set", "noc.read_serve_cycles=0").unwrap();
    p.set("--set", "noc.read_interval_cycles=0").unwrap();
    for s in extra {
        p.set("--set", s).unwrap();
    }
    Device::open_with_params(&ChipSpec::builtin(Arch::WormholeB0), p).unwrap()
}

/// Runs `f` on core (0,0) BRISC (with a 2-tile CB c_0 on cores (0,0) and (1,0)) and returns what it records.
fn measure(dev: &mut Device, f: impl Fn(&mut Dataflow, &mut Vec<u64>) + Send + Sync + 'static) -> Vec<u64> {
    let out = Arc::new(Mutex::new(Vec::new()));
    let o = out.clone();
    let mut p = Program::new();
    let cores = CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(1, 0));
    p.create_circular_buffer(
        cores,
        CircularBufferConfig::new(4096, &[(CBIndex::c_0, DataFormat::Float16_b)]).set_page_size(CBIndex::c_0, 2048),
    )
    .unwrap();
    p.create_kernel(
        Kernel::dataflow("gate", move |k: &mut Dataflow| {
            let mut v = Vec::new();
            f(k, &mut v);
            o.lock().unwrap().extend(v);
        }),
        CoreCoord::new(0, 0),
        DataMovementConfig::default(),
    )
    .unwrap();
    dev.enqueue_program(&p).unwrap();
    out.lock().unwrap().clone()
}

const HOP: u64 = 9;
const NIU: u64 = 5;

#[test]
fn zero_load_read_latency_is_the_formula() {
    let mut dev = device(&[]);
    // (0,0) is NoC0 (1,1); (1,0) is NoC0 (2,1). Request: 1 hop east, 1 header flit. Response: 9 hops east
    // around the torus, header + 1 data flit. Plus the L1 read and write latencies at each end.
    let t = measure(&mut dev, |k, v| {
        let l1 = k.get_write_ptr(CBIndex::c_0);
        let src = k.get_noc_addr(19, 18, l1);
        k.noc_async_read(src, l1 + 2048, 32);
        v.push(k.cycle());
        k.noc_async_read_barrier();
        v.push(k.cycle());
    });
    let request = NIU + HOP + NIU + 1;
    let response = NIU + 9 * HOP + NIU + 2;
    assert_eq!(t, vec![0, request + 8 + response + 4]);
}

#[test]
fn write_barrier_completes_when_the_ack_arrives() {
    let mut dev = device(&[]);
    let t = measure(&mut dev, |k, v| {
        let l1 = k.get_write_ptr(CBIndex::c_0);
        let dst = k.get_noc_addr(19, 18, l1);
        k.noc_async_write(l1, dst, 2048);
        k.noc_async_writes_flushed();
        v.push(k.cycle());
        k.noc_async_write_barrier();
        v.push(k.cycle());
    });
    // 2048 B = 64 data flits + 1 header: the tail leaves after 65 cycles; the data lands after one hop,
    // the L1 write latency (4), then a 1-flit ack goes 9 hops back.
    let land = NIU + HOP + NIU + 65 + 4;
    let ack = NIU + 9 * HOP + NIU + 1;
    assert_eq!(t, vec![65, land + ack]);
}

#[test]
fn ack_turnaround_adds_exactly_to_the_write_barrier() {
    let run = |extra: &[&str]| {
        let mut dev = device(extra);
        measure(&mut dev, |k, v| {
            let l1 = k.get_write_ptr(CBIndex::c_0);
            let dst = k.get_noc_addr(19, 18, l1);
            k.noc_async_write(l1, dst, 64);
            k.noc_async_write_barrier();
            v.push(k.cycle());
        })
    };
    let base = run(&[])[0];
    assert_eq!(run(&["noc.ack_turnaround_cycles=10"])[0], base + 10);
    // One more cycle per hop adds the 1 + 9 hops of the data and ack paths.
    assert_eq!(run(&["noc.hop_cycles=10"])[0], base + 10);
}

#[test]
fn barrier_wake_latency_adds_exactly() {
    let mut dev = device(&["api.barrier_wake_cycles=7", "api.noc_read_cmd_cycles=3"]);
    let t = measure(&mut dev, |k, v| {
        let l1 = k.get_write_ptr(CBIndex::c_0);
        let src = k.get_noc_addr(19, 18, l1);
        k.noc_async_read(src, l1 + 2048, 32);
        k.noc_async_read_barrier();
        v.push(k.cycle());
    });
    let request = NIU + HOP + NIU + 1;
    let response = NIU + 9 * HOP + NIU + 2;
    assert_eq!(t, vec![3 + request + 8 + response + 4 + 7]);
}

#[test]
fn injection_rate_stretches_serialisation() {
    // At 1022 cycles per 1000 flits a 65-flit packet leaves the source NIU in ceil(66.43) = 67 cycles.
    let mut dev = device(&["noc.inject_cycles_per_kflit=1022"]);
    let t = measure(&mut dev, |k, v| {
        let l1 = k.get_write_ptr(CBIndex::c_0);
        let dst = k.get_noc_addr(19, 18, l1);
        k.noc_async_write(l1, dst, 2048);
        k.noc_async_writes_flushed();
        v.push(k.cycle());
    });
    assert_eq!(t, vec![67]);
}

#[test]
fn outstanding_limit_serialises_reads() {
    // With one read in flight at a time, four reads take four round trips; with the default limit they
    // overlap and take one round trip plus three serialisations.
    let four = |extra: &[&str]| {
        let mut dev = device(extra);
        measure(&mut dev, |k, v| {
            let l1 = k.get_write_ptr(CBIndex::c_0);
            let src = k.get_noc_addr(19, 18, l1);
            for i in 0..4 {
                k.noc_async_read(src, l1 + 2048 + 32 * i, 32);
            }
            k.noc_async_read_barrier();
            v.push(k.cycle());
        })[0]
    };
    let round_trip = NIU + HOP + NIU + 1 + 8 + NIU + 9 * HOP + NIU + 2 + 4;
    assert_eq!(four(&["noc.max_outstanding=1"]), 4 * round_trip);
    // Overlapped: requests leave back to back (one flit each); responses share the target's NIU.
    assert_eq!(four(&[]), round_trip + 3 * 2);
}

#[test]
fn reads_in_a_row_to_one_tile_go_out_at_its_serving_rate() {
    // Four reads to one tile whose NIU serves a request in 20 cycles: each request waits at the source
    // until the NIU is free, so they arrive — and their responses land — 20 cycles apart. With a 2-cycle
    // serving time the responses' own serialisation (2 flits) spaces them instead.
    let four = |extra: &[&str]| {
        let mut dev = device(extra);
        measure(&mut dev, |k, v| {
            let l1 = k.get_write_ptr(CBIndex::c_0);
            let src = k.get_noc_addr(19, 18, l1);
            for i in 0..4 {
                k.noc_async_read(src, l1 + 2048 + 32 * i, 32);
                v.push(k.cycle());
            }
            k.noc_async_read_barrier();
            v.push(k.cycle());
        })
    };
    let round_trip = NIU + HOP + NIU + 1 + 8 + NIU + 9 * HOP + NIU + 2 + 4;
    let t = four(&["noc.read_serve_cycles=20"]);
    assert_eq!(t[4], round_trip + 3 * 20);
    // A waiting request holds the read command buffer: the second read's request leaves at 20, so the
    // third read is handed over then, and the fourth at 40 (its request leaves at 60).
    assert_eq!(&t[..4], &[0, 0, 20, 40]);
    assert_eq!(four(&["noc.read_serve_cycles=2"])[4], round_trip + 3 * 2, "no floor below the serialisation");
}

#[test]
fn reads_to_different_tiles_are_not_serialised_by_serving() {
    // A read from (1,0) = NoC0 (2,1) and one from (0,1) = NoC0 (1,2), each tile taking 100 cycles to serve
    // a request: the second request leaves at once, so the pair ends with the longer round trip (the
    // second: 1 hop south, 11 back around the torus), not a serving time later.
    let mut dev = device(&["noc.read_serve_cycles=100"]);
    let t = measure(&mut dev, |k, v| {
        let l1 = k.get_write_ptr(CBIndex::c_0);
        k.noc_async_read(k.get_noc_addr(19, 18, l1), l1 + 2048, 32);
        k.noc_async_read(k.get_noc_addr(18, 19, l1), l1 + 2048 + 32, 32);
        k.noc_async_read_barrier();
        v.push(k.cycle());
    });
    let second = NIU + HOP + NIU + 1 + 8 + NIU + 11 * HOP + NIU + 2 + 4;
    assert_eq!(t, vec![second]);
}

#[test]
fn a_requesters_reads_are_served_at_least_the_read_interval_apart() {
    // The pair above with no serving time but a 100-cycle interval between the services of one
    // requester's reads: the first is served when it arrives (1 hop: 20), the second not before 120, so
    // its request waits at the source 100 cycles longer and the pair ends 100 cycles later.
    let pair = |interval: u64| {
        let mut dev = device(&[&format!("noc.read_interval_cycles={interval}")]);
        measure(&mut dev, |k, v| {
            let l1 = k.get_write_ptr(CBIndex::c_0);
            k.noc_async_read(k.get_noc_addr(19, 18, l1), l1 + 2048, 32);
            v.push(k.cycle());
            k.noc_async_read(k.get_noc_addr(18, 19, l1), l1 + 2048 + 32, 32);
            v.push(k.cycle());
            k.noc_async_read_barrier();
            v.push(k.cycle());
        })
    };
    let second = NIU + HOP + NIU + 1 + 8 + NIU + 11 * HOP + NIU + 2 + 4;
    assert_eq!(pair(0), vec![0, 0, second]);
    assert_eq!(pair(100), vec![0, 0, second + 100]);
    assert_eq!(pair(99), vec![0, 0, second + 99], "not a cycle more than the interval");
}

#[test]
fn unlinked_multicast_holds_the_niu_for_its_path_reservation() {
    // (0,0) = NoC0 (1,1) multicasts 32 B (2 flits) to (2,1)-(3,1): the farthest router is 2 hops away,
    // so the NIU reserves for 5 + 2 × 7 cycles and then sends: the tail leaves at 19 + 2.
    let mut dev = device(&["noc.mcast_reserve_base_cycles=5", "noc.mcast_reserve_hop_cycles=7"]);
    let t = measure(&mut dev, |k, v| {
        let l1 = k.get_write_ptr(CBIndex::c_0);
        let dst = k.get_noc_multicast_addr(19, 18, 20, 18, l1);
        k.noc_async_write_multicast(l1, dst, 32, 2, false);
        k.noc_async_writes_flushed();
        v.push(k.cycle());
        // A second one waits for the first to leave, then reserves again.
        k.noc_async_write_multicast(l1, dst, 32, 2, false);
        k.noc_async_writes_flushed();
        v.push(k.cycle());
    });
    assert_eq!(t, vec![5 + 2 * 7 + 2, 2 * (5 + 2 * 7 + 2)]);
}

#[test]
fn a_multicast_is_one_outstanding_packet_however_many_acks_it_brings() {
    // Multicasts of 32 B from (0,0) = NoC0 (1,1) to (2,1)-(3,1): two destinations, two acks each.
    let run = |max: &str, barrier: bool| {
        let mut dev = device(&[max]);
        measure(&mut dev, move |k, v| {
            let l1 = k.get_write_ptr(CBIndex::c_0);
            let dst = k.get_noc_multicast_addr(19, 18, 20, 18, l1);
            k.noc_async_write_multicast(l1, dst, 32, 2, false);
            if barrier {
                k.noc_async_write_barrier();
            }
            v.push(k.cycle());
            k.noc_async_write_multicast(l1, dst, 32, 2, false);
            v.push(k.cycle());
        })
    };
    let acked = run("noc.max_outstanding=1", true)[0];
    // One packet in flight at a time: the second multicast waits until both acks of the first are back.
    assert_eq!(run("noc.max_outstanding=1", false)[1], acked);
    // Two packets may be in flight: the second goes as if there were no limit, although the first
    // still expects two acks.
    let free = run("noc.max_outstanding=1000", false)[1];
    assert!(free < acked);
    assert_eq!(run("noc.max_outstanding=2", false)[1], free);
}

#[test]
fn loopback_turn_and_rate_add_exactly() {
    let run = |extra: &[&str]| {
        let mut dev = device(extra);
        measure(&mut dev, |k, v| {
            let l1 = k.get_write_ptr(CBIndex::c_0);
            let me = k.get_noc_addr(18, 18, l1 + 2048);
            k.noc_async_write(l1, me, 32);
            k.noc_async_writes_flushed();
            v.push(k.cycle());
            k.noc_async_write_barrier();
            v.push(k.cycle());
        })
    };
    let base = run(&["noc.loopback_turn_cycles=0", "noc.loopback_cycles_per_kflit=1000"]);
    assert_eq!(base[0], 2, "two flits at one per cycle");
    let turned = run(&["noc.loopback_turn_cycles=13", "noc.loopback_cycles_per_kflit=1000"]);
    assert_eq!(turned, vec![2, base[1] + 13]);
    let slow = run(&["noc.loopback_turn_cycles=0", "noc.loopback_cycles_per_kflit=2000"]);
    assert_eq!(slow, vec![4, base[1] + 2]);
}

#[test]
fn cb_hand_off_wakes_the_consumer_exactly_cb_wake_cycles_later() {
    let mut dev = device(&["api.cb_wake_cycles=6"]);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s2 = seen.clone();
    let mut p = Program::new();
    let c = CoreCoord::new(0, 0);
    p.create_circular_buffer(
        c,
        CircularBufferConfig::new(2048, &[(CBIndex::c_0, DataFormat::Float16_b)]).set_page_size(CBIndex::c_0, 2048),
    )
    .unwrap();
    p.create_kernel(
        Kernel::dataflow("producer", |k: &mut Dataflow| {
            k.cb_reserve_back(CBIndex::c_0, 1);
            k.delay(100);
            k.cb_push_back(CBIndex::c_0, 1);
        }),
        c,
        DataMovementConfig::default(),
    )
    .unwrap();
    p.create_kernel(
        Kernel::dataflow("consumer", move |k: &mut Dataflow| {
            k.cb_wait_front(CBIndex::c_0, 1);
            s2.lock().unwrap().push(k.cycle());
        }),
        c,
        DataMovementConfig { processor: DataMovementProcessor::RISCV_1, noc: NocId::Noc1, ..Default::default() },
    )
    .unwrap();
    let r = dev.enqueue_program(&p).unwrap();
    assert_eq!(*seen.lock().unwrap(), vec![106]);
    let consumer = r.kernels.iter().find(|k| k.kernel == "consumer").unwrap();
    assert_eq!((consumer.blocked.0, consumer.busy.0), (106, 0));
}

#[test]
fn same_noc_writes_arrive_in_program_order() {
    // A big write then a 4-byte flag to the same core: the flag must not overtake the data.
    let mut dev = device(&[]);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s2 = seen.clone();
    let mut p = Program::new();
    let cores = CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(1, 0));
    p.create_circular_buffer(
        cores,
        CircularBufferConfig::new(8192, &[(CBIndex::c_0, DataFormat::Float16_b)]).set_page_size(CBIndex::c_0, 8192),
    )
    .unwrap();
    let sem = p.create_semaphore(cores, 0).unwrap();
    let w = p
        .create_kernel(
            Kernel::dataflow("sender", |k: &mut Dataflow| {
                let sem = k.get_semaphore(k.get_arg_val(0));
                let l1 = k.get_write_ptr(CBIndex::c_0);
                k.l1_write_u32(l1 + 8188, 0xfeed);
                k.l1_write_u32(sem, 1);
                let dst = k.get_noc_addr(19, 18, l1);
                k.noc_async_write(l1, dst, 8192);
                let flag = k.get_noc_addr(19, 18, sem);
                k.noc_semaphore_set_remote(sem, flag);
                k.noc_async_write_barrier();
            }),
            CoreCoord::new(0, 0),
            DataMovementConfig::default(),
        )
        .unwrap();
    p.set_runtime_args(w, CoreCoord::new(0, 0), &[sem]).unwrap();
    let r = p
        .create_kernel(
            Kernel::dataflow("receiver", move |k: &mut Dataflow| {
                let sem = k.get_semaphore(k.get_arg_val(0));
                k.noc_semaphore_wait(sem, 1);
                let l1 = k.get_write_ptr(CBIndex::c_0);
                s2.lock().unwrap().push(k.l1_read_u32(l1 + 8188));
            }),
            CoreCoord::new(1, 0),
            DataMovementConfig::default(),
        )
        .unwrap();
    p.set_runtime_args(r, CoreCoord::new(1, 0), &[sem]).unwrap();
    dev.enqueue_program(&p).unwrap();
    assert_eq!(*seen.lock().unwrap(), vec![0xfeed]);
}

#[test]
fn slow_dispatch_starts_each_core_one_interval_after_the_previous() {
    // Three cores in a row, each recording its first cycle: fast dispatch starts all at 0; slow dispatch
    // starts core i (row-major rank) at i x dispatch.slow_core_interval_cycles.
    let starts = |mode: DispatchMode| -> Vec<(u32, u64)> {
        let mut dev = device(&["dispatch.slow_core_interval_cycles=1000"]);
        dev.set_dispatch_mode(mode);
        let out = Arc::new(Mutex::new(Vec::new()));
        let o = out.clone();
        let mut p = Program::new();
        p.create_kernel(
            Kernel::dataflow("start", move |k: &mut Dataflow| {
                let t = k.cycle();
                o.lock().unwrap().push((k.get_absolute_logical_x(), t));
            }),
            CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(2, 0)),
            DataMovementConfig::default(),
        )
        .unwrap();
        dev.enqueue_program(&p).unwrap();
        let mut v = out.lock().unwrap().clone();
        v.sort();
        v
    };
    assert_eq!(starts(DispatchMode::Fast), vec![(0, 0), (1, 0), (2, 0)]);
    assert_eq!(starts(DispatchMode::Slow), vec![(0, 0), (1, 1000), (2, 2000)]);
}
