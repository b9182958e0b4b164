//! The engine's multicast tags on L1 (see `ChipState::xfer_tags`): every destination of a multicast ends
//! with one tag over the bytes it wrote, which lets cores share what they decode from them; a unicast, a
//! timing-only run and the next launch leave none.

use crate::prelude::*;
use sim_tensix::CBIndex;

/// Core (0,0)'s BRISC runs `body` with a 2-tile CB c_0 on cores (0,0)-(3,0); returns the device after the
/// run.
fn run(timing_only: bool, body: fn(&mut Dataflow)) -> Device {
    let mut dev = Device::open(&ChipSpec::builtin(Arch::WormholeB0)).unwrap();
    dev.set_timing_only(timing_only);
    let mut p = Program::new();
    let cores = CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(3, 0));
    p.create_circular_buffer(
        cores,
        CircularBufferConfig::new(4096, &[(CBIndex::c_0, DataFormat::Float16_b)]).set_page_size(CBIndex::c_0, 2048),
    )
    .unwrap();
    p.create_kernel(Kernel::dataflow("tagger", body), CoreCoord::new(0, 0), DataMovementConfig::default()).unwrap();
    dev.enqueue_program(&p).unwrap();
    dev
}

/// The content tag over the first CB page of logical core (x, 0).
fn tag(dev: &Device, x: u32) -> Option<u64> {
    let i = dev.core_index(CoreCoord::new(x, 0), "test").unwrap();
    dev.l1[i].content_tag(cb_page(dev), 2048)
}

/// Where c_0's first page sits (the CB region's start: the only CB).
fn cb_page(dev: &Device) -> u64 {
    dev.params().mem.l1_unreserved_base as u64
}

/// Multicast the first page of c_0 to logical (1,0)-(3,0) (translated (19,18)-(21,18)).
fn multicast(k: &mut Dataflow) {
    let l1 = k.get_write_ptr(CBIndex::c_0);
    k.l1_write_bytes(l1, &[0x5a; 2048]);
    let dst = k.get_noc_multicast_addr(19, 18, 21, 18, l1);
    k.noc_async_write_multicast(l1, dst, 2048, 3, false);
    k.noc_async_write_barrier();
}

#[test]
fn a_multicast_tags_its_bytes_alike_on_every_destination_and_nothing_else_does() {
    let dev = run(false, multicast);
    let tags: Vec<Option<u64>> = (1..4).map(|x| tag(&dev, x)).collect();
    assert!(tags[0].is_some(), "{tags:?}");
    assert!(tags.iter().all(|t| *t == tags[0]), "one tag on every destination: {tags:?}");
    assert_eq!(tag(&dev, 0), None, "the sender wrote its own page");
    // A unicast carries no tag.
    let dev = run(false, |k| {
        let l1 = k.get_write_ptr(CBIndex::c_0);
        k.noc_async_write(l1, k.get_noc_addr(19, 18, l1), 2048);
        k.noc_async_write_barrier();
    });
    assert_eq!(tag(&dev, 1), None);
    // Without payloads nothing is tagged.
    assert_eq!(tag(&run(true, multicast), 1), None);
}

#[test]
fn a_launch_forgets_the_previous_runs_tags() {
    let mut dev = run(false, multicast);
    assert!(tag(&dev, 1).is_some());
    let mut p = Program::new();
    p.create_kernel(Kernel::dataflow("idle", |_| {}), CoreCoord::new(0, 0), DataMovementConfig::default()).unwrap();
    dev.enqueue_program(&p).unwrap();
    assert_eq!(tag(&dev, 1), None, "tags count from 1 again in the next run");
}
