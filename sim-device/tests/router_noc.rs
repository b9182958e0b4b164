//! The router-level NoC model (`noc.model=router`) through the whole engine: uncontended transfers take
//! exactly the calendar model's cycles, and congestion reaches back to the senders' command buffers.

use sim_device::prelude::*;
use sim_device::{Kernel, Params};
use std::sync::{Arc, Mutex};

fn device(model: &str) -> Device {
    let mut p = Params::builtin(Arch::WormholeB0);
    p.set("test", &format!("noc.model={model}")).unwrap();
    Device::open_with_params(&ChipSpec::builtin(Arch::WormholeB0), p).unwrap()
}

type Probe = Arc<Mutex<Vec<(u32, u64)>>>;

/// Runs `f` on each of `cores` (BRISC, NoC0) with a 16 KiB CB c_0 everywhere on row 0 and 1; returns what
/// each recorded, by core index, and the run's cycles.
fn run(dev: &mut Device, cores: u32, f: fn(&mut Dataflow, u32) -> Vec<u64>) -> (Vec<Vec<u64>>, u64) {
    let out: Probe = Arc::new(Mutex::new(Vec::new()));
    let o = out.clone();
    let mut p = Program::new();
    let all = CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(7, 1));
    p.create_circular_buffer(
        all,
        CircularBufferConfig::new(16384, &[(CBIndex::c_0, DataFormat::Float16_b)]).set_page_size(CBIndex::c_0, 8192),
    )
    .unwrap();
    let k = p
        .create_kernel(
            Kernel::dataflow("probe", move |k: &mut Dataflow| {
                let me: u32 = k.get_arg_val(0);
                let v = f(k, me);
                o.lock().unwrap().extend(v.into_iter().map(|t| (me, t)));
            }),
            CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(cores - 1, 0)),
            DataMovementConfig::default(),
        )
        .unwrap();
    let sink = dev.worker_core_from_logical_core(CoreCoord::new(0, 1)).unwrap();
    let far = dev.worker_core_from_logical_core(CoreCoord::new(7, 7)).unwrap();
    for c in 0..cores {
        p.set_runtime_args(k, CoreCoord::new(c, 0), &[c, sink.x, sink.y, far.x, far.y]).unwrap();
    }
    let report = dev.enqueue_program(&p).unwrap();
    let mut by_core = vec![Vec::new(); cores as usize];
    for (c, t) in out.lock().unwrap().iter() {
        by_core[*c as usize].push(*t);
    }
    (by_core, report.cycles.0)
}

/// A read and a write, each alone on the NoC: the cycle each completes.
fn alone(k: &mut Dataflow, _me: u32) -> Vec<u64> {
    let l1 = k.get_write_ptr(CBIndex::c_0);
    let (x, y): (u32, u32) = (k.get_arg_val(3), k.get_arg_val(4));
    let far = k.get_noc_addr(x, y, l1);
    let mut v = Vec::new();
    k.noc_async_read(far, l1 + 8192, 2048);
    k.noc_async_read_barrier();
    v.push(k.cycle());
    k.noc_async_write(l1, far, 8192);
    k.noc_async_writes_flushed();
    v.push(k.cycle());
    k.noc_async_write_barrier();
    v.push(k.cycle());
    v
}

#[test]
fn a_transfer_alone_takes_the_calendar_models_cycles() {
    let (cal, cal_cycles) = run(&mut device("calendar"), 1, alone);
    let (router, router_cycles) = run(&mut device("router"), 1, alone);
    assert_eq!(router, cal);
    assert_eq!(router_cycles, cal_cycles);
}

/// 16 writes of 8 KiB to core (0,1): the cycle the last one was handed to the command buffer, and the
/// cycle the barrier completed.
fn incast(k: &mut Dataflow, _me: u32) -> Vec<u64> {
    let l1 = k.get_write_ptr(CBIndex::c_0);
    let (x, y): (u32, u32) = (k.get_arg_val(1), k.get_arg_val(2));
    let dst = k.get_noc_addr(x, y, l1);
    for _ in 0..16 {
        k.noc_async_write(l1, dst, 8192);
    }
    let issued = k.cycle();
    k.noc_async_write_barrier();
    vec![issued, k.cycle()]
}

#[test]
fn congestion_holds_the_senders_command_buffers() {
    // Eight cores write into one: its NIU takes one flit per cycle, so each sender gets an eighth of it.
    // On the router model the senders' packets back up into the routers and then into their NIUs, so their
    // command buffers take the last command late; the calendar model queues the packets at the
    // destination and lets each sender hand over its sixteen writes at its own injection rate.
    let (cal, _) = run(&mut device("calendar"), 8, incast);
    let (router, _) = run(&mut device("router"), 8, incast);
    let last = |v: &[Vec<u64>], i: usize| v.iter().map(|t| t[i]).max().unwrap();
    eprintln!("issue loops: router {} vs calendar {}", last(&router, 0), last(&cal, 0));
    eprintln!("barriers: router {} vs calendar {}", last(&router, 1), last(&cal, 1));
    assert!(
        last(&router, 0) > 4 * last(&cal, 0),
        "issue loops: router {} vs calendar {}",
        last(&router, 0),
        last(&cal, 0)
    );
    // Both deliver 8 × 128 KiB through one ejection port: done within a few percent of each other.
    let (r, c) = (last(&router, 1) as f64, last(&cal, 1) as f64);
    assert!((r / c - 1.0).abs() < 0.1, "barriers: router {r} vs calendar {c}");
}
