//! `noc_semaphore_inc_multicast`: one header-only packet along the broadcast tree of the rectangle, the
//! increment at every destination core (never at a sender inside it), and one acknowledgement from each, which
//! `noc_async_atomic_barrier` waits for. On an idle NoC both timing models time it alike, and for a 3x3
//! rectangle the sender is done sooner than with nine unicast increments.

use sim_device::prelude::*;
use sim_device::{Kernel, Params};
use std::sync::{Arc, Mutex};

/// What a run recorded: the sender's (cycle its barrier returned, value of its own semaphore then) and the
/// cycle each receiver saw `incr`.
struct Seen {
    sender: (u64, u32),
    receivers: Vec<u64>,
}

/// The sender on logical (0,0) increments semaphore 0 by `incr` on the logical rectangle `rect` — with one
/// multicast (`multicast`) or one unicast increment per core — and waits for the acknowledgements; every
/// core of the rectangle but the sender waits until its semaphore is `incr`.
fn run(model: &str, rect: (u32, u32, u32, u32), multicast: bool, incr: u32) -> Seen {
    let mut p = Params::builtin(Arch::WormholeB0);
    p.set("test", &format!("noc.model={model}")).unwrap();
    let mut dev = Device::open_with_params(&ChipSpec::builtin(Arch::WormholeB0), p).unwrap();
    let (x0, y0, x1, y1) = rect;
    let corner = |x, y| dev.worker_core_from_logical_core(CoreCoord::new(x, y)).unwrap();
    let (a, b) = (corner(x0, y0), corner(x1, y1));
    let cores: Vec<CoreCoord> = (y0..=y1)
        .flat_map(|y| (x0..=x1).map(move |x| CoreCoord::new(x, y)))
        .filter(|c| *c != CoreCoord::new(0, 0))
        .collect();
    let phys: Vec<(u32, u32)> = cores
        .iter()
        .map(|&c| {
            let t = dev.worker_core_from_logical_core(c).unwrap();
            (t.x, t.y)
        })
        .collect();
    let n = cores.len() as u32;
    let all = CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(x1.max(1), y1.max(1)));
    let mut prog = Program::new();
    let sem = prog.create_semaphore(all, 0).unwrap();
    let sender = Arc::new(Mutex::new((0, 0)));
    let s = sender.clone();
    prog.create_kernel(
        Kernel::dataflow("inc_sender", move |d| {
            let addr = d.get_semaphore(sem);
            if multicast {
                let m = d.get_noc_multicast_addr(a.x, a.y, b.x, b.y, addr);
                d.noc_semaphore_inc_multicast(m, incr, n);
            } else {
                for &(x, y) in &phys {
                    let u = d.get_noc_addr(x, y, addr);
                    d.noc_semaphore_inc(u, incr);
                }
            }
            d.noc_async_atomic_barrier();
            *s.lock().unwrap() = (d.cycle(), d.l1_read_u32(addr));
        }),
        CoreCoord::new(0, 0),
        DataMovementConfig::default(),
    )
    .unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    for &c in &cores {
        let o = seen.clone();
        prog.create_kernel(
            Kernel::dataflow("inc_receiver", move |d| {
                let addr = d.get_semaphore(sem);
                d.noc_semaphore_wait(addr, incr);
                o.lock().unwrap().push(d.cycle());
            }),
            c,
            DataMovementConfig { processor: DataMovementProcessor::RISCV_1, ..Default::default() },
        )
        .unwrap();
    }
    let r = dev.enqueue_program(&prog).unwrap();
    assert!(r.warnings.iter().all(|w| !w.contains("not modelled")), "{:?}", r.warnings);
    let receivers = seen.lock().unwrap().clone();
    assert_eq!(receivers.len(), cores.len());
    let sender = *sender.lock().unwrap();
    Seen { sender, receivers }
}

#[test]
fn a_multicast_increment_reaches_every_core_of_the_rectangle_once() {
    // 3x3 away from the sender: every core sees exactly 5 (a second increment would make the wait hang).
    let s = run("calendar", (1, 1, 3, 3), true, 5);
    assert_eq!(s.receivers.len(), 9);
    assert_eq!(s.sender.1, 0, "the sender is outside the rectangle");
    // The barrier returns after the last destination's acknowledgement, so after every increment landed.
    assert!(s.sender.0 > *s.receivers.iter().max().unwrap());
    // A sender inside the rectangle is not one of its destinations.
    let s = run("calendar", (0, 0, 2, 0), true, 3);
    assert_eq!(s.receivers.len(), 2);
    assert_eq!(s.sender.1, 0, "the sender's own semaphore is left alone");
}

#[test]
fn one_multicast_beats_nine_unicast_increments_and_both_models_agree_on_it() {
    let m = run("calendar", (1, 1, 3, 3), true, 1);
    let u = run("calendar", (1, 1, 3, 3), false, 1);
    eprintln!("3x3: multicast done at {}, nine unicasts at {}", m.sender.0, u.sender.0);
    assert!(m.sender.0 < u.sender.0, "multicast done at {}, nine unicasts at {}", m.sender.0, u.sender.0);
    // Alone on the NoC the router model times the packet and its acknowledgements as the calendar model does.
    let r = run("router", (1, 1, 3, 3), true, 1);
    assert_eq!(r.sender, m.sender);
    let (mut a, mut b) = (r.receivers.clone(), m.receivers.clone());
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b);
}
