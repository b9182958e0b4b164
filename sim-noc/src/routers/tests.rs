//! The router-level model against the calendar model where nothing contends, and its flow control where
//! things do.

use super::{Happened, RouterEvent, RouterNoc, RouterParams, Send, UNICAST_VC};
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
        vc_reserved_bytes: 32,
        port_shared_bytes: 1536,
        credit_delay: Cycles(7),
        blind_vc_arbitration: true,
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
    r.send(Send { noc, src, dests: &[dst], tree: None, payload, ready, vc: UNICAST_VC, paced: true, token });
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
