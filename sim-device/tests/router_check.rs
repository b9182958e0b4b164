//! The router-level model's check of a run (`Device::set_router_check`): a run that stalls packets beyond
//! the routers' buffers runs again on `noc.model=router` from the memories it started from; the report
//! gains the check's cycles and nothing else of the run changes, and the device keeps what the first run
//! left, not what the check's run did.

use sim_device::prelude::*;
use sim_device::{Kernel, Params, RouterCheck};

const PAGE: u32 = 2048;
const PAGES_PER_CORE: u32 = 8;
const GRID: (u32, u32) = (8, 8);

fn device(model: &str) -> Device {
    let mut p = Params::builtin(Arch::WormholeB0);
    p.set("test", &format!("noc.model={model}")).unwrap();
    Device::open_with_params(&ChipSpec::builtin(Arch::WormholeB0), p).unwrap()
}

/// A DRAM buffer of every core's pages, byte `i` of it holding `i % 251`.
fn buffer(dev: &mut Device) -> Buffer {
    let pages = GRID.0 * GRID.1 * PAGES_PER_CORE;
    let b = dev
        .create_buffer(InterleavedBufferConfig {
            size: u64::from(pages * PAGE),
            page_size: u64::from(PAGE),
            buffer_type: BufferType::Dram,
        })
        .unwrap();
    let data: Vec<u8> = (0..pages * PAGE).map(|i| (i % 251) as u8).collect();
    dev.enqueue_write_buffer(&b, &data).unwrap();
    b
}

/// Every core of the grid adds 1 to each byte of its pages of `b`, in place: it reads all of them, then
/// changes and writes back one after another — 64 cores reading from and writing to the 12 DRAM banks at
/// once, which stalls packets beyond the routers' buffers.
fn increment(dev: &mut Device, b: &Buffer) -> RunReport {
    increment_on(dev, b, GRID)
}

/// [`increment`] on the cores of a `grid` from (0,0) (their pages first in the buffer).
fn increment_on(dev: &mut Device, b: &Buffer, grid: (u32, u32)) -> RunReport {
    let mut p = Program::new();
    let all = CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(grid.0 - 1, grid.1 - 1));
    p.create_circular_buffer(
        all,
        CircularBufferConfig::new(PAGES_PER_CORE * PAGE, &[(CBIndex::c_0, DataFormat::UInt8)])
            .set_page_size(CBIndex::c_0, PAGE),
    )
    .unwrap();
    let k = p
        .create_kernel(
            Kernel::dataflow("increment", |k: &mut Dataflow| {
                let (base, first): (u32, u32) = (k.get_arg_val(0), k.get_arg_val(1));
                let pages = InterleavedAddrGen::<true> { bank_base_address: base, page_size: PAGE };
                let l1 = k.get_write_ptr(CBIndex::c_0);
                for i in 0..PAGES_PER_CORE {
                    k.noc_async_read_page(first + i, &pages, l1 + i * PAGE, 0);
                }
                k.noc_async_read_barrier();
                for i in 0..PAGES_PER_CORE {
                    let at = l1 + i * PAGE;
                    let bytes: Vec<u8> = k.l1_read_bytes(at, PAGE).iter().map(|b| b.wrapping_add(1)).collect();
                    k.l1_write_bytes(at, &bytes);
                    k.noc_async_write_page(first + i, &pages, at, 0, 0);
                }
                k.noc_async_write_barrier();
            }),
            all,
            DataMovementConfig::default(),
        )
        .unwrap();
    for y in 0..grid.1 {
        for x in 0..grid.0 {
            let first = (y * grid.0 + x) * PAGES_PER_CORE;
            p.set_runtime_args(k, CoreCoord::new(x, y), &[b.address(), first]).unwrap();
        }
    }
    dev.enqueue_program(&p).unwrap()
}

/// Two increments on a fresh device with the check's `limit`: their reports and what the buffer holds.
fn twice(dev: &mut Device, limit: Option<u64>) -> (RunReport, RunReport, Vec<u8>) {
    dev.set_router_check(limit);
    let b = buffer(dev);
    let first = increment(dev, &b);
    let second = increment(dev, &b);
    (first, second, dev.enqueue_read_buffer::<u8>(&b).unwrap())
}

#[test]
fn a_run_that_stalls_packets_gets_the_router_models_cycles_and_keeps_its_own_results() {
    let (plain, plain2, plain_data) = twice(&mut device("calendar"), None);
    assert!(plain.noc.backpressure.blocked_packets > 0, "the test needs packets stalled beyond buffering");
    assert_eq!(plain.router_check, None);
    let (router, _, router_data) = twice(&mut device("router"), Some(u64::MAX));
    assert_eq!(router.router_check, None, "only the calendar model is checked");

    let (checked, checked2, checked_data) = twice(&mut device("calendar"), Some(u64::MAX));
    assert_eq!(checked.router_check, Some(RouterCheck::Ran { cycles: router.cycles }));
    // The check changes nothing else: the same cycles, kernels, NoC figures and data, and the second run
    // starts from what the first left (every byte incremented twice, not three or four times).
    let expect: Vec<u8> = (0..plain_data.len()).map(|i| ((i % 251) as u8).wrapping_add(2)).collect();
    for (name, data) in [("unchecked", &plain_data), ("checked", &checked_data), ("router", &router_data)] {
        let wrong = data.iter().zip(&expect).filter(|(a, b)| a != b).count();
        assert!(wrong == 0 && data.len() == expect.len(), "{name}: {wrong} bytes differ from two increments");
    }
    for (c, p) in [(&checked, &plain), (&checked2, &plain2)] {
        assert_eq!((c.cycles, &c.kernels, &c.noc, &c.dprints), (p.cycles, &p.kernels, &p.noc, &p.dprints));
    }
    // A difference beyond 5% is the run's back-pressure warning, with the router model's cycles.
    let change = router.cycles.0 as f64 / checked.cycles.0 as f64 - 1.0;
    let warning = checked.warnings.iter().find(|w| w.contains("router-level NoC model"));
    if change.abs() > sim_device::router_check::SHOWN_ABOVE {
        let w = warning.expect("a warning");
        assert!(w.contains(&format!("{} cycles ({:+.1}%", router.cycles.0, change * 100.0)), "{w}");
    } else {
        assert!(warning.is_none(), "{warning:?}");
    }
}

#[test]
fn a_run_above_the_limit_is_not_checked_and_says_how_large_it_was() {
    let (run, _, _) = twice(&mut device("calendar"), Some(1));
    let moves = sim_device::router_check::flit_moves(&run);
    assert!(moves > 1);
    assert_eq!(run.router_check, Some(RouterCheck::TooLarge { flit_moves: moves, limit: 1 }));
}

#[test]
fn a_run_without_stalls_is_not_checked() {
    let mut dev = device("calendar");
    dev.set_router_check(Some(u64::MAX));
    let b = dev
        .create_buffer(InterleavedBufferConfig {
            size: u64::from(PAGE),
            page_size: u64::from(PAGE),
            buffer_type: BufferType::Dram,
        })
        .unwrap();
    let mut p = Program::new();
    let core = CoreCoord::new(0, 0);
    p.create_circular_buffer(
        core,
        CircularBufferConfig::new(PAGE, &[(CBIndex::c_0, DataFormat::UInt8)]).set_page_size(CBIndex::c_0, PAGE),
    )
    .unwrap();
    let k = p
        .create_kernel(
            Kernel::dataflow("one_read", |k: &mut Dataflow| {
                let base: u32 = k.get_arg_val(0);
                let pages = InterleavedAddrGen::<true> { bank_base_address: base, page_size: PAGE };
                k.noc_async_read_page(0, &pages, k.get_write_ptr(CBIndex::c_0), 0);
                k.noc_async_read_barrier();
            }),
            core,
            DataMovementConfig::default(),
        )
        .unwrap();
    p.set_runtime_args(k, core, &[b.address()]).unwrap();
    let r = dev.enqueue_program(&p).unwrap();
    assert_eq!(r.noc.backpressure.blocked_packets, 0);
    assert_eq!(r.router_check, None);
}

#[test]
fn a_trace_of_stalled_packets_is_not_worth_a_check() {
    let mut dev = device("calendar");
    dev.set_router_check(Some(u64::MAX));
    let b = buffer(&mut dev);
    let r = increment_on(&mut dev, &b, (3, 1));
    let stalled = r.noc.backpressure.stalled_per_tile(r.cycles.0, r.noc.worker_tiles);
    eprintln!("{} packets stalled, {stalled} per tile", r.noc.backpressure.blocked_packets);
    assert!(r.noc.backpressure.blocked_packets > 0 && stalled < sim_device::router_check::MIN_STALLED_PER_TILE);
    assert_eq!(r.router_check, None);
}
