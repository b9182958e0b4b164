//! Waits that already hold, and CB pushes and pops, go on without waiting for the core's other kernels (the
//! scheduler's lookahead): the same cycles and data as in exact order with fewer resumptions, and a CB
//! pushed by two kernels of one core is refused with a clear message instead of giving a different result.

use sim_device::prelude::*;
use sim_device::{DeviceError, Kernel, Params};

fn device(lookahead: bool) -> Device {
    let mut p = Params::builtin(Arch::WormholeB0);
    p.sim.lookahead = lookahead;
    Device::open_with_params(&ChipSpec::builtin(Arch::WormholeB0), p).unwrap()
}

/// A program with a 4-page CB c_0 of 64-byte pages on `cores`.
fn with_cb(cores: impl Into<CoreRangeSet>) -> Program {
    let mut p = Program::new();
    p.create_circular_buffer(
        cores,
        CircularBufferConfig::new(4 * 64, &[(CBIndex::c_0, DataFormat::UInt32)]).set_page_size(CBIndex::c_0, 64),
    )
    .unwrap();
    p
}

/// A data-movement kernel on NCRISC, NoC 1.
fn ncrisc() -> DataMovementConfig {
    DataMovementConfig { processor: DataMovementProcessor::RISCV_1, noc: NocId::Noc1, ..Default::default() }
}

/// Run kernel `brisc` on BRISC and `ncrisc` on NCRISC of core (0,0), which has the 4-page CB c_0.
fn one_core(lookahead: bool, brisc: Kernel, ncrisc_kernel: Kernel) -> Result<RunReport, DeviceError> {
    let mut dev = device(lookahead);
    let core = CoreCoord::new(0, 0);
    let mut p = with_cb(core);
    p.create_kernel(brisc, core, DataMovementConfig::default())?;
    p.create_kernel(ncrisc_kernel, core, ncrisc())?;
    dev.enqueue_program(&p)
}

/// Check that `r` is the lookahead's refusal of a CB pushed by two kernels, raised in `kernel`.
fn assert_refused(r: Result<RunReport, DeviceError>, kernel: &str) {
    match r {
        Err(DeviceError::Run(sim_device::RunError::Kernel { kernel: k, message, .. })) => {
            assert_eq!(k, kernel);
            assert!(message.contains("cb_push_back(c_0): not modelled with the scheduler's lookahead"), "{message}");
            assert!(message.contains("parameter sim.lookahead=0"), "{message}");
        }
        other => panic!("expected the two-producer error, got {other:?}"),
    }
}

/// Producer on BRISC and consumer on NCRISC of every core of a 4×2 grid, `pages` one-page hand-offs through
/// a 4-page CB, the consumer spending `work` cycles per page; returns the report.
fn pingpong(dev: &mut Device, pages: u32, work: u64) -> RunReport {
    let cores = CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(3, 1));
    let mut p = with_cb(cores);
    p.create_kernel(
        Kernel::dataflow("producer", move |k: &mut Dataflow| {
            for _ in 0..pages {
                k.cb_reserve_back(CBIndex::c_0, 1);
                k.cb_push_back(CBIndex::c_0, 1);
            }
        }),
        cores,
        DataMovementConfig::default(),
    )
    .unwrap();
    p.create_kernel(
        Kernel::dataflow("consumer", move |k: &mut Dataflow| {
            for _ in 0..pages {
                k.cb_wait_front(CBIndex::c_0, 1);
                k.delay(work);
                k.cb_pop_front(CBIndex::c_0, 1);
            }
        }),
        cores,
        ncrisc(),
    )
    .unwrap();
    dev.enqueue_program(&p).unwrap()
}

#[test]
fn waits_that_hold_go_ahead_with_the_same_cycles() {
    for work in [0, 3, 40] {
        let exact = pingpong(&mut device(false), 64, work);
        let ahead = pingpong(&mut device(true), 64, work);
        assert_eq!(ahead.cycles, exact.cycles, "work {work}");
        assert_eq!(ahead.api_calls, exact.api_calls);
        let busy = |r: &RunReport| r.kernels.iter().map(|k| (k.start, k.end, k.busy, k.blocked)).collect::<Vec<_>>();
        assert_eq!(busy(&ahead), busy(&exact), "per-kernel start, end, busy and blocked time, work {work}");
        assert!(
            ahead.resumes < exact.resumes,
            "work {work}: {} resumptions, exact order {}",
            ahead.resumes,
            exact.resumes
        );
    }
}

#[test]
fn pushes_and_pops_go_ahead_so_the_kernels_hand_over_a_cb_full_at_a_time() {
    // 8 cores, 64 pages through a 4-page CB: with pushes and pops in exact order the two kernels of a core
    // alternate about once per page (about 1040 resumptions); going ahead, each runs until the CB is full
    // (or empty) as of its own cycle: one resumption per kernel per 4 pages, and one to start.
    let r = pingpong(&mut device(true), 64, 0);
    assert!(r.resumes <= 2 * 8 * (64 / 4 + 1), "{} resumptions", r.resumes);
}

#[test]
fn a_consumer_behind_a_push_made_ahead_wakes_when_that_push_happens() {
    // BRISC pushes at about cycle 100 while NCRISC is still at cycle 0, so the push goes on ahead; NCRISC
    // then waits at about cycle 10, finds no page as of its cycle, and must wake exactly as it would have
    // in exact order: the CB wake-up latency after the push.
    let run = |lookahead: bool| {
        let producer = Kernel::dataflow("producer", |k: &mut Dataflow| {
            k.delay(100);
            k.cb_reserve_back(CBIndex::c_0, 1);
            k.cb_push_back(CBIndex::c_0, 1);
        });
        let consumer = Kernel::dataflow("consumer", |k: &mut Dataflow| {
            k.delay(10);
            k.cb_wait_front(CBIndex::c_0, 1);
            k.cb_pop_front(CBIndex::c_0, 1);
        });
        one_core(lookahead, producer, consumer).unwrap()
    };
    let (exact, ahead) = (run(false), run(true));
    let times = |r: &RunReport| r.kernels.iter().map(|k| (k.start, k.end, k.busy, k.blocked)).collect::<Vec<_>>();
    assert_eq!(times(&ahead), times(&exact));
    assert_eq!(ahead.cycles, exact.cycles);
    let consumer = exact.kernels.iter().find(|k| k.kernel == "consumer").unwrap();
    assert!(consumer.blocked.0 > 80, "the consumer waited for the push: {:?}", consumer.blocked);
}

#[test]
fn a_cb_pushed_ahead_and_then_by_a_kernel_behind_is_refused() {
    // BRISC pushes at about cycle 100, ahead of NCRISC, which then pushes the same CB at about cycle 10.
    let run = |lookahead: bool| {
        let pusher = |name: &str, wait: u64| {
            Kernel::dataflow(name, move |k: &mut Dataflow| {
                k.delay(wait);
                k.cb_push_back(CBIndex::c_0, 1);
            })
        };
        one_core(lookahead, pusher("late", 100), pusher("early", 10))
    };
    assert!(run(false).is_ok(), "exact order runs it");
    assert_refused(run(true), "early");
}

#[test]
fn a_cb_pushed_by_two_kernels_of_a_core_is_refused_not_misordered() {
    // BRISC spends 100 cycles, then reserves (which holds and goes on ahead of NCRISC, still at cycle 0)
    // and pushes; NCRISC pushes the same CB at once, before BRISC's reserve in exact order.
    let run = |lookahead: bool| {
        let producer = |name: &str, wait: u64| {
            Kernel::dataflow(name, move |k: &mut Dataflow| {
                k.delay(wait);
                k.cb_reserve_back(CBIndex::c_0, 1);
                k.cb_push_back(CBIndex::c_0, 1);
            })
        };
        one_core(lookahead, producer("late_producer", 100), producer("early_producer", 0))
    };
    assert!(run(false).is_ok(), "exact order runs it");
    assert_refused(run(true), "early_producer");
}

#[test]
fn a_consumer_blocks_ahead_of_its_producer_and_goes_on_where_exact_order_would() {
    // NCRISC waits for a page at about cycle `wait` while BRISC, which pushes it, is still at about cycle
    // 50 (its probe made it hand control back). NCRISC blocks at once instead of first letting BRISC catch
    // up. A page pushed before NCRISC's wait lets NCRISC go on at its own cycle, as exact order does, even
    // when that is less than the CB wake-up latency after the push; one pushed later wakes NCRISC the
    // wake-up latency after the push.
    let run = |lookahead: bool, late: u64, wait: u64| {
        let producer = Kernel::dataflow("producer", move |k: &mut Dataflow| {
            k.delay(50);
            assert!(k.cb_pages_reservable_at_back(CBIndex::c_0, 1));
            k.delay(late);
            k.cb_reserve_back(CBIndex::c_0, 1);
            k.cb_push_back(CBIndex::c_0, 1);
        });
        let consumer = Kernel::dataflow("consumer", move |k: &mut Dataflow| {
            k.delay(wait);
            k.cb_wait_front(CBIndex::c_0, 1);
            k.delay(5);
            k.cb_pop_front(CBIndex::c_0, 1);
        });
        one_core(lookahead, producer, consumer).unwrap()
    };
    let times = |r: &RunReport| r.kernels.iter().map(|k| (k.start, k.end, k.busy, k.blocked)).collect::<Vec<_>>();
    // Every wait cycle around the push (at about 75), so that some fall within the wake-up latency after it.
    for wait in 60..=100 {
        let (exact, ahead) = (run(false, 0, wait), run(true, 0, wait));
        assert_eq!(times(&ahead), times(&exact), "wait at {wait}");
        assert_eq!(ahead.cycles, exact.cycles, "wait at {wait}");
        assert!(
            ahead.resumes <= exact.resumes,
            "wait at {wait}: {} resumptions, exact {}",
            ahead.resumes,
            exact.resumes
        );
    }
    let consumer = |r: &RunReport| r.kernels.iter().find(|k| k.kernel == "consumer").unwrap().blocked.0;
    assert_eq!(consumer(&run(true, 0, 100)), 0, "pushed before the wait");
    // Pushed at about 325: blocking at once saves the resumption that let BRISC catch up only for the wait
    // to block anyway. Each kernel starts (2), BRISC goes on after its probe (1), NCRISC wakes (1); in
    // exact order BRISC and NCRISC also resume once each to keep the order.
    let (exact, ahead) = (run(false, 250, 100), run(true, 250, 100));
    assert_eq!(times(&ahead), times(&exact));
    assert!((150..=300).contains(&consumer(&ahead)), "consumer blocked {}", consumer(&ahead));
    assert_eq!((ahead.resumes, exact.resumes), (4, 6));
}
