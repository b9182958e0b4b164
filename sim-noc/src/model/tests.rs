//! Tests of the NoC timing model: zero-load latencies, request and ack virtual channels, injection order,
//! saturation, multicast, and the minimum tile-to-tile latency the scheduler's lookahead rests on.

use super::*;
use crate::topology::Dir;

fn wh() -> NocModel {
    test_model()
}

const U: VcClass = VcClass::Unicast;

#[test]
fn nothing_reaches_another_tile_sooner_than_the_minimum_remote_latency() {
    // The scheduler's lookahead rests on this bound: try every kind of packet between every pair of
    // distinct tiles of a small grid, on both NoCs, with the NIUs and links already busy or not.
    let mut n = NocModel::new(
        GridSize::new(5, 4),
        NocParams {
            l1_write_latency: Cycles(3),
            l1_read_latency: Cycles(2),
            read_serve: Cycles(40),
            ..test_model().params
        },
    );
    let bound = n.min_remote_latency();
    assert_eq!(bound, Cycles(5 + 9 + 5 + 3));
    let tiles: Vec<Noc0Coord> = (0..4).flat_map(|y| (0..5).map(move |x| Noc0Coord::new(x, y))).collect();
    let mut t = 0u64;
    for noc in [NocId::Noc0, NocId::Noc1] {
        for &a in &tiles {
            for &b in tiles.iter().filter(|&&b| b != a) {
                t += 7;
                let ready = Cycle(t);
                for payload in [0, 32, 4096] {
                    let d = n.unicast(noc, a, b, payload, ready, U);
                    assert!(d.arrive + Cycles(3) >= ready + bound, "unicast {a:?}->{b:?}");
                }
                let r = n.request(noc, a, b, ready);
                assert!(r.arrive + Cycles(2) >= ready + bound, "request {a:?}->{b:?}");
                let r = n.served_request(noc, a, b, ready, Cycles(40));
                assert!(r.arrive + Cycles(2) >= ready + bound, "served request {a:?}->{b:?}");
                let rect = Rect { x0: a.x.min(b.x), x1: a.x.max(b.x), y0: a.y.min(b.y), y1: a.y.max(b.y) };
                let others: Vec<Noc0Coord> = tiles
                    .iter()
                    .copied()
                    .filter(|&c| c != a && (rect.x0..=rect.x1).contains(&c.x) && (rect.y0..=rect.y1).contains(&c.y))
                    .collect();
                for d in n.multicast(noc, a, rect, &others, 64, ready, Cycles::ZERO) {
                    assert!(d.arrive + Cycles(3) >= ready + bound, "multicast {a:?}->{rect:?}");
                }
            }
        }
    }
}

#[test]
fn a_multicast_that_includes_its_source_streams_at_the_loopback_rate() {
    let mut n =
        NocModel::new(GridSize::new(10, 12), NocParams { loopback_cycles_per_kflit: 1500, ..test_model().params });
    let src = Noc0Coord::new(1, 1);
    let rect = Rect { x0: 1, x1: 2, y0: 1, y1: 2 };
    let others = [Noc0Coord::new(2, 1), Noc0Coord::new(1, 2), Noc0Coord::new(2, 2)];
    // 2048 B: 64 data flits + 1 header; 65 at one per cycle, 97.5 -> 98 at 1.5.
    let d = n.multicast(NocId::Noc0, src, rect, &others, 2048, Cycle(0), Cycles::ZERO);
    assert_eq!(d[0].inject_end - d[0].inject_start, Cycles(65));
    let mut with_src = others.to_vec();
    with_src.insert(0, src);
    let d = n.multicast(NocId::Noc0, src, rect, &with_src, 2048, Cycle(1000), Cycles::ZERO);
    assert_eq!(d[0].inject_end - d[0].inject_start, Cycles(98));
    assert!(d[1].arrive - d[1].first_byte >= Cycles(98), "the flits leave at that rate, so they arrive at it");
}

#[test]
fn zero_load_unicast_latency_is_the_formula() {
    let mut n = wh();
    // (1,1) -> (2,2) on NoC0: 2 hops; 2048 B = 64 data flits + 1 header.
    let d = n.unicast(NocId::Noc0, Noc0Coord::new(1, 1), Noc0Coord::new(2, 2), 2048, Cycle(100), U);
    assert_eq!(d.inject_start, Cycle(100));
    assert_eq!(d.inject_end, Cycle(165));
    assert_eq!(d.arrive, Cycle(100 + 5 + 2 * 9 + 5 + 65));
    assert_eq!(d.first_byte, Cycle(100 + 5 + 2 * 9 + 5));
    assert_eq!(n.zero_load_latency(2, 2048), Cycles(5 + 18 + 5 + 65));
}

#[test]
fn a_read_request_is_not_queued_behind_data_but_takes_a_cycle_of_each_link() {
    let mut n = wh();
    let (me, peer) = (Noc0Coord::new(1, 1), Noc0Coord::new(3, 1));
    // `me` is busy sending 8 KiB (257 flits) to `peer` on the same NoC.
    let data = n.unicast(NocId::Noc0, me, peer, 8192, Cycle(0), U);
    assert_eq!(data.inject_end, Cycle(257));
    // Its read request to `peer` goes out at once and arrives after the zero-load latency of a
    // header-only packet (two hops), not after the data.
    let req = n.request(NocId::Noc0, me, peer, Cycle(10));
    assert_eq!(req.inject_start, Cycle(10));
    assert_eq!(req.arrive, Cycle(10 + 5 + 2 * 9 + 5 + 1));
    // Its flit still took one cycle of each link it crossed, and of both NIU ports.
    let busy: u64 = n.links().map(|(_, c)| c.busy).sum();
    assert_eq!(busy, 2 * 257 + 2, "two links carry the data, and each one cycle of the request");
    assert_eq!(n.port(me, NocId::Noc0, true).busy, 257 + 1);
    assert_eq!(n.port(peer, NocId::Noc0, false).busy, 257 + 1);
}

#[test]
fn one_niu_injects_packets_back_to_back_in_order() {
    let mut n = wh();
    let a = n.unicast(NocId::Noc0, Noc0Coord::new(1, 1), Noc0Coord::new(3, 1), 8192, Cycle(0), U);
    let b = n.unicast(NocId::Noc0, Noc0Coord::new(1, 1), Noc0Coord::new(3, 1), 4, Cycle(1), U);
    assert_eq!(b.inject_start, a.inject_end);
    assert!(b.arrive > a.arrive, "a small write after a big one still arrives after it");
    let c = n.unicast(NocId::Noc1, Noc0Coord::new(1, 1), Noc0Coord::new(3, 1), 4, Cycle(1), U);
    assert_eq!(c.inject_start, Cycle(1), "the other NoC's NIU is independent");
}

#[test]
fn one_flow_saturates_at_one_flit_per_cycle() {
    let mut n = wh();
    let mut last = Delivery { inject_start: Cycle(0), inject_end: Cycle(0), first_byte: Cycle(0), arrive: Cycle(0) };
    let packets = 100;
    for _ in 0..packets {
        last = n.unicast(NocId::Noc0, Noc0Coord::new(1, 1), Noc0Coord::new(4, 3), 8192, Cycle(0), U);
    }
    // 257 flits per packet, one per cycle, plus one zero-load latency for the last.
    assert_eq!(last.arrive, Cycle(99 * 257) + n.zero_load_latency(5, 8192));
}

#[test]
fn two_flows_sharing_a_link_each_get_half() {
    let mut n = wh();
    // (1,1)->(4,1) and (2,1)->(5,1) share links (2,1)E and (3,1)E; each source injects continuously.
    let (a_src, a_dst, b_src, b_dst) =
        (Noc0Coord::new(1, 1), Noc0Coord::new(4, 1), Noc0Coord::new(2, 1), Noc0Coord::new(5, 1));
    let (mut a_end, mut b_end) = (Cycle(0), Cycle(0));
    let packets = 200u64;
    let (mut ta, mut tb) = (Cycle(0), Cycle(0));
    for _ in 0..packets {
        // Each source issues its next packet when its previous one has been injected.
        let a = n.unicast(NocId::Noc0, a_src, a_dst, 8192, ta, U);
        let b = n.unicast(NocId::Noc0, b_src, b_dst, 8192, tb, U);
        ta = a.inject_end;
        tb = b.inject_end;
        a_end = a.arrive;
        b_end = b.arrive;
    }
    // Alone, each flow would take ~200 × 257 cycles; sharing, each gets half the link: ~2×.
    let alone = packets * 257;
    for end in [a_end, b_end] {
        let ratio = end.0 as f64 / alone as f64;
        assert!((1.9..2.1).contains(&ratio), "ratio {ratio}");
    }
    let shared = n.links().find(|(l, _)| n.topology().link_info(*l) == (Noc0Coord::new(3, 1), Dir::East)).unwrap().1;
    assert_eq!(shared.busy, 2 * packets * 257);
}

#[test]
fn an_ack_takes_one_cycle_of_each_link_it_crosses() {
    let mut n = wh();
    // The ack (3,1) -> (1,1) on NoC0 goes east around the ring: through (4,1)E at 5 + 1 × 9.
    let a = n.ack(NocId::Noc0, Noc0Coord::new(3, 1), Noc0Coord::new(1, 1), Cycle(0));
    assert_eq!(a, Cycle(5 + 8 * 9 + 5 + 1), "the ack itself is not delayed");
    // A packet from (4,1) reaching (4,1)E at 14 interleaves with the ack's flit: its head is not delayed,
    // but it holds the link one cycle longer, which the packet right behind it pays.
    let d = n.unicast(NocId::Noc0, Noc0Coord::new(4, 1), Noc0Coord::new(5, 1), 32, Cycle(9), U);
    assert_eq!(d.arrive, Cycle(9 + 5 + 9 + 5 + 2));
    let e = n.unicast(NocId::Noc0, Noc0Coord::new(4, 1), Noc0Coord::new(5, 1), 32, Cycle(9), U);
    assert_eq!(e.inject_start, Cycle(11));
    assert_eq!(e.arrive, Cycle(14 + 3 + 9 + 5 + 2), "behind the first packet and the ack's flit");
    let link = n.links().find(|(l, _)| n.topology().link_info(*l) == (Noc0Coord::new(4, 1), Dir::East)).unwrap();
    assert_eq!(link.1.busy, 1 + 2 + 2);
}

/// A multicast's destinations all acknowledge; the sender's NIU takes the acks in one per cycle, so N acks
/// that would arrive together reach it over N cycles (issue 51).
#[test]
fn acks_reach_their_sender_one_per_cycle() {
    let mut n = wh();
    let to = Noc0Coord::new(1, 1);
    // Four acks from (3,1), as destinations at one distance send them for one multicast.
    let from = [Noc0Coord::new(3, 1), Noc0Coord::new(3, 1), Noc0Coord::new(3, 1), Noc0Coord::new(3, 1)];
    let at: Vec<Cycle> = from.iter().map(|&f| n.ack(NocId::Noc0, f, to, Cycle(0))).collect();
    let first = Cycle(5 + 8 * 9 + 5 + 1);
    assert_eq!(at, vec![first, Cycle(first.0 + 1), Cycle(first.0 + 2), Cycle(first.0 + 3)]);
    // Spaced out, they do not wait for each other.
    let later = n.ack(NocId::Noc0, from[0], to, Cycle(1000));
    assert_eq!(later, Cycle(1000 + first.0));
}

#[test]
fn a_flit_crossing_an_idle_link_costs_nothing_later() {
    let mut n = wh();
    let a = n.ack(NocId::Noc0, Noc0Coord::new(3, 1), Noc0Coord::new(1, 1), Cycle(0));
    assert_eq!(a, Cycle(5 + 8 * 9 + 5 + 1));
    // Long after the ack crossed (4,1)E at 14, two packets follow each other over it undisturbed.
    let d = n.unicast(NocId::Noc0, Noc0Coord::new(4, 1), Noc0Coord::new(5, 1), 32, Cycle(100), U);
    let e = n.unicast(NocId::Noc0, Noc0Coord::new(4, 1), Noc0Coord::new(5, 1), 32, Cycle(100), U);
    assert_eq!(d.arrive, Cycle(100 + 5 + 9 + 5 + 2));
    assert_eq!(e.arrive, Cycle(102 + 5 + 9 + 5 + 2));
}

#[test]
fn multicast_tree_covers_the_rectangle_and_nothing_else() {
    let n = wh();
    let rect = Rect { x0: 2, x1: 4, y0: 2, y1: 3 };
    let tree = n.multicast_tree(NocId::Noc0, Noc0Coord::new(1, 1), rect);
    let tiles: Vec<(u32, u32)> = tree.iter().map(|t| (t.tile.x, t.tile.y)).collect();
    // Approach east to column 2, trunk south to rows 2..3, branches east along each row.
    assert_eq!(tiles, vec![(1, 1), (2, 1), (2, 2), (2, 3), (3, 2), (4, 2), (3, 3), (4, 3)]);
    let covered: std::collections::BTreeSet<(u32, u32)> =
        tiles.iter().copied().filter(|&(x, y)| rect.contains(Noc0Coord::new(x, y))).collect();
    assert_eq!(covered.len(), 6);
    // NoC1 mirrors it: approach west to column 4, trunk north, branches west.
    let tree1 = n.multicast_tree(NocId::Noc1, Noc0Coord::new(6, 5), rect);
    let t1: Vec<(u32, u32)> = tree1.iter().map(|t| (t.tile.x, t.tile.y)).collect();
    assert_eq!(t1, vec![(6, 5), (5, 5), (4, 5), (4, 4), (4, 3), (4, 2), (3, 3), (2, 3), (3, 2), (2, 2)]);
}

#[test]
fn multicast_delivers_as_the_head_passes() {
    let mut n = wh();
    let rect = Rect { x0: 2, x1: 4, y0: 1, y1: 1 };
    let dests = [Noc0Coord::new(2, 1), Noc0Coord::new(3, 1), Noc0Coord::new(4, 1)];
    let d = n.multicast(NocId::Noc0, Noc0Coord::new(1, 1), rect, &dests, 32, Cycle(0), Cycles::ZERO);
    for (k, del) in d.iter().enumerate() {
        assert_eq!(del.arrive, Cycle(0) + n.zero_load_latency(k as u32 + 1, 32));
    }
    // Each tree link carried the packet once.
    let busy: u64 = n.links().map(|(_, c)| c.busy).sum();
    assert_eq!(busy, 3 * 2);
}
