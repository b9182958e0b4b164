//! Property test of the scheduler's lookahead on CB counters: random producer/consumer programs over one
//! or two CBs (random depths, chunk sizes, delays, non-blocking probes, NoC writes to the next core whose
//! landings are hardware events, CB call costs and wake-up latencies, 0 included) give the same cycles and
//! the same start, end, busy and blocked time for every kernel with lookahead on as in exact order.

use proptest::prelude::*;
use sim_device::prelude::*;
use sim_device::{Kernel, Params};
use std::sync::Arc;

/// One step of a kernel: wait `delay` cycles, then move `pages` pages of CB `cb` (reserve and push for the
/// producer, wait and pop for the consumer), probing first when `probe`; `write` sends 64 bytes to the
/// next core's scratch L1 first.
#[derive(Debug, Clone, Copy)]
struct Step {
    cb: u8,
    pages: u32,
    delay: u64,
    probe: bool,
    write: bool,
}

#[derive(Debug, Clone)]
struct Case {
    depths: [u32; 2],
    producer: Vec<Step>,
    consumer: Vec<Step>,
    cb_wake: u64,
    /// CB calls cost one cycle instead of the data file's (so several updates fall within a wake-up).
    cheap: bool,
}

/// Split `total` pages into chunks of at most `depth`, the sizes chosen by `picks`.
fn chunks(total: u32, depth: u32, picks: &[u32]) -> Vec<u32> {
    let (mut out, mut left, mut i) = (Vec::new(), total, 0);
    while left > 0 {
        let n = (picks[i % picks.len()] % depth + 1).min(left);
        out.push(n);
        left -= n;
        i += 1;
    }
    out
}

/// Interleave the chunks of the two CBs in the order `order` picks, each with a delay and flags.
fn steps(per_cb: [Vec<u32>; 2], order: &[bool], extras: &[(u64, bool, bool)]) -> Vec<Step> {
    let (mut next, mut out, mut k) = ([0usize; 2], Vec::new(), 0);
    while next[0] < per_cb[0].len() || next[1] < per_cb[1].len() {
        let want = usize::from(order[k % order.len()]);
        let cb = if next[want] < per_cb[want].len() { want } else { 1 - want };
        let (delay, probe, write) = extras[k % extras.len()];
        out.push(Step { cb: cb as u8, pages: per_cb[cb][next[cb]], delay, probe, write });
        next[cb] += 1;
        k += 1;
    }
    out
}

/// Programs that always finish in exact order, of two kinds: (two CBs) the kernels move both CBs in
/// independent orders and chunks, each CB deep enough for all its pages, so only the consumer blocks;
/// (one CB) a shallow CB whose producer and consumer chunks never both wait (a push of `n` and a pop of `m`
/// pages with `n + m - 1` at most the depth), so both block.
fn case() -> impl Strategy<Value = Case> {
    (
        any::<bool>(),
        [1u32..7, 1u32..7],
        [1u32..24, 1u32..24],
        prop::collection::vec(0u32..8, 1..6),
        prop::collection::vec(0u32..8, 1..6),
        prop::collection::vec(any::<bool>(), 1..8),
        prop::collection::vec(any::<bool>(), 1..8),
        prop::collection::vec((0u64..30, prop::bool::weighted(0.2), prop::bool::weighted(0.15)), 1..8),
        prop::collection::vec((0u64..30, prop::bool::weighted(0.2), Just(false)), 1..8),
        prop::sample::select(vec![0u64, 1, 6, 40]),
        any::<bool>(),
    )
        .prop_map(|(two, depths, totals, ppicks, cpicks, porder, corder, pextra, cextra, cb_wake, cheap)| {
            let (depths, totals, chunk) = if two {
                (totals, totals, totals)
            } else {
                ([depths[0], 1], [totals[0], 0], [depths[0].div_ceil(2), 1])
            };
            let per = |picks: &[u32]| [0, 1].map(|i| chunks(totals[i], chunk[i], picks));
            Case {
                depths,
                producer: steps(per(&ppicks), &porder, &pextra),
                consumer: steps(per(&cpicks), &corder, &cextra),
                cb_wake,
                cheap,
            }
        })
}

/// A run's cycles and each kernel's start, end, busy and blocked cycles.
type Timings = (u64, Vec<(u64, u64, u64, u64)>);

/// The timings, or the error, of `c` on a row of three cores.
fn run(c: &Case, lookahead: bool) -> Result<Timings, String> {
    let mut params = Params::builtin(Arch::WormholeB0);
    params.sim.lookahead = lookahead;
    params.api.cb_wake = sim_core::Cycles(c.cb_wake);
    if c.cheap {
        (params.api.cb_poll, params.api.cb_update) = (sim_core::Cycles(1), sim_core::Cycles(1));
    }
    let scratch = params.mem.l1_unreserved_base + 0x8000;
    let mut dev = Device::open_with_params(&ChipSpec::builtin(Arch::WormholeB0), params).unwrap();
    let cores = CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(2, 0));
    let mut p = Program::new();
    for (i, cb) in [CBIndex::c_0, CBIndex::c_1].into_iter().enumerate() {
        p.create_circular_buffer(
            cores,
            CircularBufferConfig::new(c.depths[i] * 64, &[(cb, DataFormat::UInt32)]).set_page_size(cb, 64),
        )
        .unwrap();
    }
    let cb_of = |s: &Step| if s.cb == 0 { CBIndex::c_0 } else { CBIndex::c_1 };
    let producer = Arc::new(c.producer.clone());
    let prod = p
        .create_kernel(
            Kernel::dataflow("producer", move |k: &mut Dataflow| {
                let next = k.get_noc_addr(k.get_arg_val(0), k.get_arg_val(1), scratch);
                for s in producer.iter() {
                    k.delay(s.delay);
                    if s.write {
                        k.noc_async_write(scratch, next, 64);
                    }
                    if s.probe {
                        k.cb_pages_reservable_at_back(cb_of(s), s.pages);
                    }
                    k.cb_reserve_back(cb_of(s), s.pages);
                    k.cb_push_back(cb_of(s), s.pages);
                }
                k.noc_async_write_barrier();
            }),
            cores,
            DataMovementConfig::default(),
        )
        .unwrap();
    let consumer = Arc::new(c.consumer.clone());
    p.create_kernel(
        Kernel::dataflow("consumer", move |k: &mut Dataflow| {
            for s in consumer.iter() {
                k.delay(s.delay);
                if s.probe {
                    k.cb_pages_available_at_front(cb_of(s), s.pages);
                }
                k.cb_wait_front(cb_of(s), s.pages);
                k.cb_pop_front(cb_of(s), s.pages);
            }
        }),
        cores,
        DataMovementConfig { processor: DataMovementProcessor::RISCV_1, noc: NocId::Noc1, ..Default::default() },
    )
    .unwrap();
    for x in 0..3 {
        let next = dev.worker_core_from_logical_core(CoreCoord::new((x + 1) % 3, 0)).unwrap();
        p.set_runtime_args(prod, CoreCoord::new(x, 0), &[next.x, next.y]).unwrap();
    }
    match dev.enqueue_program(&p) {
        Ok(r) => Ok((r.cycles.0, r.kernels.iter().map(|k| (k.start.0, k.end.0, k.busy.0, k.blocked.0)).collect())),
        Err(e) => Err(e.to_string()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn lookahead_on_cb_counters_gives_the_exact_order_outcome(c in case()) {
        let exact = run(&c, false);
        prop_assert!(exact.is_ok(), "the generated programs finish in exact order: {exact:?}");
        prop_assert_eq!(run(&c, true), exact);
    }
}
