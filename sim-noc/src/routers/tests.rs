//! The router-level model against the calendar model where nothing contends, and its flow control where
//! things do.

use super::{Happened, Outgoing, RouterEvent, RouterNoc, RouterParams, UNICAST_VC};
use crate::model::{NocModel, VcClass, test_model};
use crate::params::NocParams;
use sim_core::{Cycle, Cycles};
use soc_descriptors::{GridSize, Noc0Coord, NocId};

/// Wormhole-like NoC parameters (injection and loopback slower than a flit per cycle).
pub(crate) fn noc_params() -> NocParams {
    NocParams {
        inject_cycles_per_kflit: 1022,
        loopback_cycles_per_kflit: 1071,
        loopback_turn: Cycles(27),
        vc_reserved_flits: 1,
        vc_cap_flits: 16,
        port_shared_flits: 48,
        credit_delay: Cycles(7),
        blind_vc_arbitration: true,
        blind_response_vcs: true,
        dynamic_response_vcs: true,
        ..test_model().params().clone()
    }
}

pub(crate) fn params() -> RouterParams {
    RouterParams::from_noc(&noc_params())
}

fn at(x: u32, y: u32) -> Noc0Coord {
    Noc0Coord::new(x, y)
}

fn unicast(r: &mut RouterNoc, noc: NocId, src: Noc0Coord, dst: Noc0Coord, payload: u32, ready: Cycle, token: u64) {
    send_on(r, noc, src, dst, payload, ready, UNICAST_VC, token);
}

/// A paced write of `payload` bytes from `src` to `dst` on VC `vc`, ready at `ready`.
#[allow(clippy::too_many_arguments)]
fn send_on(
    r: &mut RouterNoc,
    noc: NocId,
    src: Noc0Coord,
    dst: Noc0Coord,
    payload: u32,
    ready: Cycle,
    vc: u8,
    token: u64,
) {
    r.send(Outgoing { noc, src, dests: &[dst], tree: None, payload, ready, vc, paced: true, setup: 0, token });
}

/// Run to the end; per token: (started, departed, first byte, arrived) of destination 0.
fn run(r: &mut RouterNoc) -> std::collections::BTreeMap<u64, [Option<Cycle>; 4]> {
    let mut ev: Vec<RouterEvent> = Vec::new();
    r.advance(Cycle(10_000_000), &mut ev);
    let mut out = std::collections::BTreeMap::new();
    for e in ev {
        let slot: &mut [Option<Cycle>; 4] = out.entry(e.token).or_default();
        let i = match e.what {
            Happened::Started => 0,
            Happened::Departed => 1,
            Happened::FirstByte(_) => 2,
            Happened::Arrived(_) => 3,
        };
        slot[i] = Some(e.at);
    }
    out
}

#[test]
fn a_lone_packet_moves_when_the_calendar_model_says_on_every_route() {
    let grid = GridSize::new(5, 4);
    for noc in [NocId::Noc0, NocId::Noc1] {
        for s in 0..grid.count() as u32 {
            let mut r = RouterNoc::new(grid, params());
            let src = at(s % 5, s / 5);
            let mut want = Vec::new();
            for d in 0..grid.count() as u32 {
                let dst = at(d % 5, d / 5);
                for (j, payload) in [0u32, 64, 2048, 8192].into_iter().enumerate() {
                    let ready = Cycle((d as u64 * 4 + j as u64) * 1000);
                    let token = (d * 4 + j as u32) as u64;
                    unicast(&mut r, noc, src, dst, payload, ready, token);
                    let mut cal = NocModel::new(grid, noc_params());
                    want.push((token, cal.unicast(noc, src, dst, payload, ready, VcClass::Unicast)));
                }
            }
            let got = run(&mut r);
            for (token, w) in want {
                let g = got[&token];
                let what = format!("{noc:?} from {src:?}, packet {token}");
                assert_eq!(g[0], Some(w.inject_start), "start, {what}");
                assert_eq!(g[1], Some(w.inject_end), "departure, {what}");
                assert_eq!(g[2], Some(w.first_byte), "first byte, {what}");
                assert_eq!(g[3], Some(w.arrive), "arrival, {what}");
            }
        }
    }
}

#[test]
fn one_flit_packets_and_multicasts_alone_move_as_the_calendar_model_says() {
    let grid = GridSize::new(10, 12);
    let r = RouterNoc::new(grid, params());
    let mut cal = NocModel::new(grid, noc_params());
    let (a, b) = (at(1, 1), at(7, 9));
    // A read request and an acknowledgement: one flit each, passing between other packets.
    for (k, noc) in [NocId::Noc0, NocId::Noc1].into_iter().enumerate() {
        let mut r = RouterNoc::new(grid, params());
        let ready = Cycle(1000);
        let to = [b];
        r.send(Outgoing {
            noc,
            src: a,
            dests: &to,
            tree: None,
            payload: 0,
            ready,
            vc: UNICAST_VC,
            paced: false,
            setup: 0,
            token: 0,
        });
        let ack_ready = Cycle(ready.0 + 500);
        let back = [a];
        let vc = super::RESPONSE_VC;
        r.send(Outgoing {
            noc,
            src: b,
            dests: &back,
            tree: None,
            payload: 0,
            ready: ack_ready,
            vc,
            paced: false,
            setup: 0,
            token: 1,
        });
        let want = cal.request(noc, a, b, ready);
        let got = run(&mut r);
        assert_eq!(
            got[&0],
            [Some(want.inject_start), Some(want.inject_end), Some(want.first_byte), Some(want.arrive)],
            "{k}"
        );
        assert_eq!(got[&1][3], Some(cal.ack(noc, b, a, ack_ready)), "{k}");
    }
    // Multicasts over rectangles, with and without the source inside.
    let rects = [(1, 1, 4, 4), (3, 2, 8, 9), (0, 0, 9, 11)];
    for (k, &(x0, y0, x1, y1)) in rects.iter().enumerate() {
        for noc in [NocId::Noc0, NocId::Noc1] {
            let rect = crate::topology::Rect { x0, x1, y0, y1 };
            let dests: Vec<Noc0Coord> =
                (y0..=y1).flat_map(|y| (x0..=x1).map(move |x| at(x, y))).filter(|&d| d != at(2, 2) || k == 0).collect();
            let ready = Cycle(100_000 * (k as u64 + 1) + 50_000 * noc.index() as u64);
            let tree = r.topo.broadcast_tree(noc, at(2, 2), rect);
            let mut r = RouterNoc::new(grid, params());
            let token = 99;
            r.send(Outgoing {
                noc,
                src: at(2, 2),
                dests: &dests,
                tree: Some(&tree),
                payload: 2048,
                ready,
                vc: super::MULTICAST_VC,
                paced: true,
                setup: 37 * k as u64,
                token,
            });
            let mut ev = Vec::new();
            r.advance(Cycle(10_000_000), &mut ev);
            let want = NocModel::new(grid, noc_params()).multicast(
                noc,
                at(2, 2),
                rect,
                &dests,
                2048,
                ready,
                sim_core::Cycles(37 * k as u64),
            );
            for (i, w) in want.iter().enumerate() {
                let find = |h: Happened| ev.iter().find(|e| e.what == h).map(|e| e.at);
                assert_eq!(find(Happened::FirstByte(i as u16)), Some(w.first_byte), "{noc:?} rect {k} dest {i}");
                assert_eq!(find(Happened::Arrived(i as u16)), Some(w.arrive), "{noc:?} rect {k} dest {i}");
            }
            assert_eq!(ev.iter().find(|e| e.what == Happened::Departed).map(|e| e.at), Some(want[0].inject_end));
            assert_eq!(ev.iter().find(|e| e.what == Happened::Started).map(|e| e.at), Some(want[0].inject_start));
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// Uncontended traffic: packets that never share a resource at the same time (each sent well after
    /// the last one arrived, from anywhere to anywhere) move exactly as the calendar model times them.
    #[test]
    fn uncontended_traffic_moves_as_the_calendar_model_says(
        packets in proptest::collection::vec((0u32..120, 0u32..120, 0u32..=8192, proptest::bool::ANY), 1..12)
    ) {
        let grid = GridSize::new(10, 12);
        let mut r = RouterNoc::new(grid, params());
        let mut cal = NocModel::new(grid, noc_params());
        let mut want = Vec::new();
        for (k, &(s, d, payload, noc1)) in packets.iter().enumerate() {
            let noc = if noc1 { NocId::Noc1 } else { NocId::Noc0 };
            let (src, dst) = (at(s % 10, s / 10), at(d % 10, d / 10));
            let ready = Cycle(20_000 * (k as u64 + 1));
            cal.set_now(ready);
            unicast(&mut r, noc, src, dst, payload, ready, k as u64);
            want.push(cal.unicast(noc, src, dst, payload, ready, VcClass::Unicast));
        }
        let got = run(&mut r);
        for (k, w) in want.into_iter().enumerate() {
            proptest::prop_assert_eq!(got[&(k as u64)], [Some(w.inject_start), Some(w.inject_end), Some(w.first_byte), Some(w.arrive)]);
        }
    }
}

/// The many-to-many pattern of tt-metal's all_to_all test on a `side`×`side` grid of a 10×12 chip: every
/// core writes `count` packets of `payload` bytes to every core, all in the same destination order, the
/// `i`-th write of a pair on VC `i % vcs`, cores started `stagger` cycles apart. Returns the median
/// time from a core's start to its last packet's arrival, the router counters, and every event the routers
/// reported (in order) with every channel's head-of-line cycles.
fn all_to_all(
    p: RouterParams,
    noc: NocId,
    vcs: u8,
    side: u32,
    payload: u32,
    count: u32,
    stagger: u64,
) -> (u64, super::RouterStats, (Vec<RouterEvent>, Vec<u64>)) {
    let mut r = RouterNoc::new(GridSize::new(10, 12), p);
    let cores: Vec<Noc0Coord> = (1..=side).flat_map(|y| (1..=side).map(move |x| at(x, y))).collect();
    let mut token = 0u64;
    let mut owner = Vec::new();
    for (rank, &src) in cores.iter().enumerate() {
        let start = Cycle(rank as u64 * stagger);
        for &dst in &cores {
            for i in 0..count {
                let to = [dst];
                r.send(Outgoing {
                    noc,
                    src,
                    dests: &to,
                    tree: None,
                    payload,
                    ready: start,
                    vc: (i % vcs as u32) as u8,
                    paced: true,
                    setup: 0,
                    token,
                });
                owner.push(rank);
                token += 1;
            }
        }
    }
    let mut ev = Vec::new();
    r.advance(Cycle(100_000_000), &mut ev);
    let mut last = vec![0u64; cores.len()];
    for e in ev.iter().filter(|e| matches!(e.what, Happened::Arrived(_))) {
        let c = owner[e.token as usize];
        last[c] = last[c].max(e.at.0 - c as u64 * stagger);
    }
    last.sort_unstable();
    let hol = r.ch.iter().map(|c| c.hol_cycles).collect();
    (last[last.len() / 2], r.stats(), (ev, hol))
}

#[test]
fn inputs_that_sleep_while_blocked_change_nothing() {
    // Skipping the inputs that would lose every cycle is a speed-up only: the same events in the same
    // order, the same counters and the same head-of-line cycles per channel, on patterns that block heads
    // of line on one VC, on four (inputs with several VCs never sleep), on responses and on either NoC.
    let cases = [
        (params(), NocId::Noc0, 1, 2048, 2),
        (params(), NocId::Noc1, 1, 4096, 1),
        (params(), NocId::Noc0, 4, 2048, 2),
        (RouterParams { dynamic_responses: false, ..params() }, NocId::Noc0, 1, 1024, 3),
        (RouterParams { blind_responses: false, ..params() }, NocId::Noc1, 1, 2048, 2),
        (RouterParams { credit_delay: 1, shared_flits: 8, ..params() }, NocId::Noc0, 2, 2048, 2),
        (RouterParams { fixed_priority: true, ..params() }, NocId::Noc0, 1, 2048, 2),
        (RouterParams { fixed_priority: true, ..params() }, NocId::Noc1, 2, 4096, 1),
    ];
    for (p, noc, vcs, payload, count) in cases {
        let on = all_to_all(p, noc, vcs, 6, payload, count, 500);
        let off = all_to_all(RouterParams { skip_blocked: false, ..p }, noc, vcs, 6, payload, count, 500);
        assert!(on.1.hol_cycles > 0, "the pattern blocks heads of line");
        assert!(on == off, "sleeping inputs changed the run ({noc:?}, {vcs} VCs, {payload} B x {count})");
    }
}

#[test]
fn many_to_many_traffic_slows_with_blind_vc_choice_and_differs_between_nocs() {
    // What noc-flow-control.md §2 describes, not fitted: picking a VC blind to whether it can move costs
    // bandwidth on many-to-many traffic, and the two NoCs differ on the same pattern.
    let base = all_to_all(params(), NocId::Noc0, 1, 6, 2048, 2, 2000);
    let aware = all_to_all(RouterParams { blind: false, ..params() }, NocId::Noc0, 1, 6, 2048, 2, 2000);
    let noc1 = all_to_all(params(), NocId::Noc1, 1, 6, 2048, 2, 2000);
    assert!(base.1.hol_cycles > 0, "the pattern blocks heads of line");
    assert!(aware.0 < base.0, "blind VC choice is slower: {} vs {}", base.0, aware.0);
    assert_ne!(noc1.0, base.0, "the NoCs differ on this pattern");
    // Deterministic: the same traffic gives the same times.
    assert_eq!(all_to_all(params(), NocId::Noc0, 1, 6, 2048, 2, 2000), base);
}

#[test]
fn a_port_buffer_shared_by_stalled_vcs_starves_the_others() {
    // Three VCs of one input stalled at their caps leave the others their one guaranteed flit per credit
    // round trip (LLD: "all other VCs will drop to 1/16th bandwidth"): a smaller shared part is slower.
    let roomy = all_to_all(RouterParams { shared_flits: 48, ..params() }, NocId::Noc0, 4, 6, 2048, 2, 2000);
    let tight = all_to_all(RouterParams { shared_flits: 8, ..params() }, NocId::Noc0, 4, 6, 2048, 2, 2000);
    assert!(tight.0 > roomy.0, "{} vs {}", tight.0, roomy.0);
}

#[test]
fn responses_share_a_link_on_both_buddy_vcs_where_static_packets_queue() {
    // Two 8 KiB packets whose routes share the links east of (2,1): on a static VC the second waits for
    // the first's tail; as responses (not static) the second takes the buddy VC and the two interleave.
    let run_two = |vc: u8, dynamic: bool| {
        let mut r = RouterNoc::new(GridSize::new(10, 12), RouterParams { dynamic_responses: dynamic, ..params() });
        for (token, (src, dst)) in [(at(1, 1), at(6, 1)), (at(2, 1), at(7, 1))].into_iter().enumerate() {
            send_on(&mut r, NocId::Noc0, src, dst, 8192, Cycle(0), vc, token as u64);
        }
        let got = run(&mut r);
        let (a, b) = (got[&0][3].unwrap().0, got[&1][3].unwrap().0);
        a.abs_diff(b)
    };
    assert!(run_two(UNICAST_VC, true) > 200, "static writes queue");
    assert!(run_two(super::RESPONSE_VC, false) > 200, "responses held on one VC queue too");
    assert!(run_two(super::RESPONSE_VC, true) < 50, "responses interleave on the buddy VCs");
}

#[test]
fn a_multicast_whose_rectangle_ends_in_tiles_that_take_no_copy_still_arrives() {
    // The last column of the rectangle holds no destination (tiles that are not workers, or the source
    // without loopback): the branches that lead only there are left out, not filled for ever.
    let grid = GridSize::new(10, 12);
    for noc in [NocId::Noc0, NocId::Noc1] {
        let mut r = RouterNoc::new(grid, params());
        let rect = crate::topology::Rect { x0: 1, x1: 8, y0: 1, y1: 4 };
        let dests: Vec<Noc0Coord> =
            (1..=4).flat_map(|y| (1..=7).map(move |x| at(x, y))).filter(|&d| d != at(1, 1)).collect();
        let tree = r.topo.broadcast_tree(noc, at(1, 1), rect);
        for k in 0..4 {
            r.send(Outgoing {
                noc,
                src: at(1, 1),
                dests: &dests,
                tree: Some(&tree),
                payload: 8192,
                ready: Cycle(0),
                vc: super::MULTICAST_VC,
                paced: true,
                setup: 0,
                token: k,
            });
        }
        let mut ev = Vec::new();
        r.advance(Cycle(1_000_000), &mut ev);
        assert!(r.stuck().is_none(), "{noc:?}: {:?}", r.stuck());
        let arrived = ev.iter().filter(|e| matches!(e.what, Happened::Arrived(_))).count();
        assert_eq!(arrived, 4 * dests.len(), "{noc:?}");
    }
}

#[test]
fn flits_that_cannot_move_are_reported_not_stepped_for_ever() {
    // A tree with no destination leaves its flits in the first router for good: after STUCK_CYCLES the
    // model says where, and asks for no more steps.
    let mut r = RouterNoc::new(GridSize::new(10, 12), params());
    let rect = crate::topology::Rect { x0: 3, x1: 4, y0: 3, y1: 4 };
    let tree = r.topo.broadcast_tree(NocId::Noc0, at(1, 1), rect);
    let o = Outgoing {
        noc: NocId::Noc0,
        src: at(1, 1),
        dests: &[],
        tree: Some(&tree),
        payload: 2048,
        ready: Cycle(0),
        vc: super::MULTICAST_VC,
        paced: true,
        setup: 0,
        token: 7,
    };
    r.send(o);
    let mut ev = Vec::new();
    r.advance(Cycle(super::STUCK_CYCLES - 1), &mut ev);
    assert!(r.stuck().is_none());
    r.advance(Cycle(super::STUCK_CYCLES + 100), &mut ev);
    let why = r.stuck().expect("stuck");
    assert!(why.contains("have not moved") && why.contains("packet 7"), "{why}");
    assert_eq!(r.next_activity(), None);
}

#[test]
fn hops_longer_than_the_deadlock_window_are_waited_for() {
    // With a 300,000-cycle hop a credit takes longer than STUCK_CYCLES to come back: a stream of flits on
    // one VC waits that long between moves, which is the what-if asked for, not a deadlock.
    let p = RouterParams { hop: 300_000, ..params() };
    let mut r = RouterNoc::new(GridSize::new(10, 12), p);
    unicast(&mut r, NocId::Noc0, at(1, 1), at(3, 1), 2048, Cycle(0), 1);
    let mut ev = Vec::new();
    r.advance(Cycle(50_000_000), &mut ev);
    assert!(r.stuck().is_none(), "{:?}", r.stuck());
    assert!(ev.iter().any(|e| matches!(e.what, Happened::Arrived(_))), "the packet arrived");
}

#[test]
fn an_niu_waiting_for_credits_still_sends_what_it_is_given() {
    // A multicast with no destination fills its first router and never moves again: its NIU's injection
    // port runs out of credits on the multicast VC for good, and the NIU sleeps. A response sent from that
    // NIU afterwards, on a VC with credits, still leaves at once (sending wakes the NIU).
    let mut r = RouterNoc::new(GridSize::new(10, 12), params());
    let rect = crate::topology::Rect { x0: 3, x1: 4, y0: 3, y1: 4 };
    let tree = r.topo.broadcast_tree(NocId::Noc0, at(1, 1), rect);
    r.send(Outgoing {
        noc: NocId::Noc0,
        src: at(1, 1),
        dests: &[],
        tree: Some(&tree),
        payload: 4096,
        ready: Cycle(0),
        vc: super::MULTICAST_VC,
        paced: true,
        setup: 0,
        token: 1,
    });
    let mut ev = Vec::new();
    r.advance(Cycle(1_000), &mut ev);
    assert!(r.nius[r.topo.niu_index(at(1, 1), NocId::Noc0)].asleep, "the NIU waits for credits");
    let t = Cycle(1_000);
    r.send(Outgoing {
        noc: NocId::Noc0,
        src: at(1, 1),
        dests: &[at(2, 1)],
        tree: None,
        payload: 64,
        ready: t,
        vc: super::RESPONSE_VC,
        paced: true,
        setup: 0,
        token: 2,
    });
    r.advance(Cycle(2_000), &mut ev);
    let arrived = ev.iter().find(|e| e.token == 2 && matches!(e.what, Happened::Arrived(_))).map(|e| e.at);
    assert!(arrived.is_some_and(|a| a.0 < t.0 + 100), "the response arrived at {arrived:?}");
}

#[test]
fn a_fixed_port_priority_lets_the_local_niu_pass_traffic_going_through() {
    // A (1,1) -> (4,1) passes router (2,1), whose NIU sends B (2,1) -> (4,1) at the same time on another VC:
    // both want the eastward link out of (2,1) every cycle. Round-robin alternates them, so both take
    // about twice as long as alone; a fixed priority gives the NIU every cycle it has a flit, so B arrives
    // as if alone and A only after B's tail.
    let arrivals = |fixed_priority: bool| {
        let mut r = RouterNoc::new(GridSize::new(10, 12), RouterParams { fixed_priority, ..params() });
        for (token, src, vc) in [(0u64, at(1, 1), 0u8), (1, at(2, 1), 1)] {
            send_on(&mut r, NocId::Noc0, src, at(4, 1), 8192, Cycle(0), vc, token);
        }
        let got = run(&mut r);
        (got[&0][3].expect("A arrives").0, got[&1][3].expect("B arrives").0)
    };
    let mut alone = RouterNoc::new(GridSize::new(10, 12), params());
    unicast(&mut alone, NocId::Noc0, at(2, 1), at(4, 1), 8192, Cycle(0), 7);
    let b_alone = run(&mut alone)[&7][3].expect("B arrives").0;
    let (a_rr, b_rr) = arrivals(false);
    let (a_fixed, b_fixed) = arrivals(true);
    assert!(a_rr.abs_diff(b_rr) < 40, "round-robin interleaves them: A {a_rr}, B {b_rr}");
    assert!(b_rr > b_alone + 200, "round-robin halves B's rate: {b_rr} vs {b_alone} alone");
    assert!(b_fixed <= b_alone + 20, "the NIU goes first: B {b_fixed} vs {b_alone} alone");
    assert!(a_fixed > b_fixed + 200, "A waits for B's tail: A {a_fixed}, B {b_fixed}");
}

#[test]
fn responses_converging_on_one_reader_lose_cycles_only_to_a_blind_pick_that_covers_them() {
    // Read data from 16 cores converging on one reader (One from All, All from All): with the blind pick
    // covering the response class, inputs holding flits of several response VCs lose cycles to blocked
    // ones; passed over instead, the reader's port stays busier and the data is in sooner.
    let last_arrival = |blind_responses: bool| {
        let mut r = RouterNoc::new(GridSize::new(10, 12), RouterParams { blind_responses, ..params() });
        let mut token = 0;
        for y in 1..=4 {
            for x in 1..=4 {
                for _ in 0..4 {
                    send_on(&mut r, NocId::Noc0, at(x, y), at(6, 6), 2048, Cycle(0), super::RESPONSE_VC, token);
                    token += 1;
                }
            }
        }
        let got = run(&mut r);
        assert_eq!(got.len(), 64, "every response arrives");
        (got.values().map(|t| t[3].expect("arrived").0).max().unwrap(), r.stats().hol_cycles)
    };
    let (blind, blind_hol) = last_arrival(true);
    let (passed_over, passed_over_hol) = last_arrival(false);
    assert!(passed_over < blind, "{passed_over} vs {blind}");
    assert!(passed_over_hol < blind_hol, "{passed_over_hol} vs {blind_hol} head-of-line cycles");
    // 64 packets of 65 flits through one ejection port take at least 4160 cycles.
    assert!(passed_over >= 4160, "{passed_over}");
}
