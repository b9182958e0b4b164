//! The run as a tt-npe timeline (schema v1.0.0, ../shared/reference/formats/tt-npe_timeline_schema_v1.json),
//! which ttnn-visualizer's NoC view opens: every transfer with its route, and per 128-cycle timestep the
//! active transfers and each link's demand (the share of the link's one-flit-per-cycle bandwidth the
//! transfers crossing it ask for; above 100% means congestion).

use super::{NocReport, RunReport, TransferKind};
use serde_json::{Value, json};
use sim_noc::{LinkId, Rect, Topology};
use soc_descriptors::{Chip, GridSize, Noc0Coord, NocId};
use std::collections::BTreeMap;

/// Cycles per timestep (tt-npe's default).
pub const CYCLES_PER_TIMESTEP: u64 = 128;

fn route(topo: &Topology, t: &super::TransferRecord) -> Vec<LinkId> {
    let src = Noc0Coord::new(t.src.0, t.src.1);
    let mut out = Vec::new();
    match (t.kind, t.rect) {
        (TransferKind::Multicast, Some((x0, y0, x1, y1))) => {
            let tree = topo.broadcast_tree(t.noc, src, Rect { x0, x1, y0, y1 });
            out.extend(tree.iter().filter_map(|n| n.via));
        }
        _ => {
            if let Some(d) = t.dst.first() {
                topo.unicast_route(t.noc, src, Noc0Coord::new(d.0, d.1), &mut out);
            }
        }
    }
    out
}

fn link_json(topo: &Topology, l: LinkId) -> Value {
    let (from, dir) = topo.link_info(l);
    json!([0, from.y, from.x, dir.npe_name()])
}

/// The timeline JSON of a run. `flit_bytes` is the link width; `inject_bytes_per_cycle` the source rate.
pub fn npe_timeline(r: &RunReport, chip: &Chip, flit_bytes: u32, inject_bytes_per_cycle: f64) -> String {
    let g = chip.soc().grid;
    let topo = Topology::new(GridSize::new(g.x, g.y));
    let steps = r.cycles.0.div_ceil(CYCLES_PER_TIMESTEP).max(1);
    // Per (timestep, link): demanded bytes.
    let mut demand: BTreeMap<(u64, u32), f64> = BTreeMap::new();
    let mut active: Vec<Vec<usize>> = vec![Vec::new(); steps as usize];
    let mut transfers = Vec::with_capacity(r.noc.transfers.len());
    for (id, t) in r.noc.transfers.iter().enumerate() {
        let links = route(&topo, t);
        let (start, end) = (t.issue.0, t.done.0.max(t.issue.0 + 1));
        let rate = t.bytes as f64 / (end - start) as f64;
        for step in start / CYCLES_PER_TIMESTEP..=(end - 1) / CYCLES_PER_TIMESTEP {
            if step >= steps {
                break;
            }
            let (ws, we) = (step * CYCLES_PER_TIMESTEP, (step + 1) * CYCLES_PER_TIMESTEP);
            let overlap = end.min(we).saturating_sub(start.max(ws)) as f64;
            active[step as usize].push(id);
            for l in &links {
                *demand.entry((step, l.0)).or_default() += rate * overlap;
            }
        }
        let noc = match t.noc {
            NocId::Noc0 => "NOC_0",
            NocId::Noc1 => "NOC_1",
        };
        let src = json!([0, t.src.1, t.src.0]);
        let dst: Vec<Value> = t.dst.iter().map(|d| json!([0, d.1, d.0])).collect();
        transfers.push(json!({
            "transfer_id": id,
            "noc_event_type": t.kind.npe_name(),
            "total_bytes": t.bytes,
            "src": src,
            "dst": dst,
            "start_cycle": t.issue.0,
            "end_cycle": t.done.0,
            "route": [{
                "device_id": 0,
                "src": src,
                "dst": dst,
                "noc_type": noc,
                "injection_rate": inject_bytes_per_cycle,
                "start_cycle": t.issue.0,
                "end_cycle": t.done.0,
                "links": links.iter().map(|l| link_json(&topo, *l)).collect::<Vec<Value>>(),
            }],
        }));
    }
    let window_bytes = (flit_bytes as u64 * CYCLES_PER_TIMESTEP) as f64;
    let mut timesteps = Vec::with_capacity(steps as usize);
    let mut max_demand: [f64; 2] = [0.0; 2];
    let mut sum_demand: [(f64, u64); 2] = [(0.0, 0); 2];
    let mut it = demand.iter().peekable();
    for step in 0..steps {
        let mut entries = Vec::new();
        let (mut dsum, mut usum, mut n) = (0.0, 0.0, 0u64);
        while let Some(&(&(s, l), &bytes)) = it.peek() {
            if s != step {
                break;
            }
            let pct = bytes / window_bytes * 100.0;
            let (from, dir) = topo.link_info(LinkId(l));
            let k = dir.noc().index();
            max_demand[k] = max_demand[k].max(pct);
            sum_demand[k].0 += pct;
            sum_demand[k].1 += 1;
            dsum += pct;
            usum += pct.min(100.0);
            n += 1;
            entries.push(json!([0, from.y, from.x, dir.npe_name(), (pct * 100.0).round() / 100.0]));
            it.next();
        }
        let avg = |v: f64| if n == 0 { 0.0 } else { (v / n as f64 * 100.0).round() / 100.0 };
        timesteps.push(json!({
            "start_cycle": step * CYCLES_PER_TIMESTEP,
            "end_cycle": (step + 1) * CYCLES_PER_TIMESTEP,
            "active_transfers": active[step as usize],
            "avg_demand": avg(dsum),
            "avg_util": avg(usum),
            "link_demand": entries,
        }));
    }
    let pct = |v: f64| (v * 10000.0).round() / 100.0;
    let (avg0, _) = r.noc.link_util(NocId::Noc0, r.cycles);
    let (avg1, _) = r.noc.link_util(NocId::Noc1, r.cycles);
    let avg_d = |k: usize| {
        if sum_demand[k].1 == 0 { 0.0 } else { (sum_demand[k].0 / sum_demand[k].1 as f64 * 100.0).round() / 100.0 }
    };
    let dram_bytes: u64 = r.noc.dram.iter().map(|d| d.read_bytes + d.write_bytes).sum();
    let dram_busy: u64 = r.noc.dram.iter().map(|d| d.busy).sum();
    let dram_util = if r.noc.dram.is_empty() || r.cycles.0 == 0 {
        0.0
    } else {
        dram_busy as f64 / (r.cycles.0 as f64 * r.noc.dram.len() as f64)
    };
    let _ = dram_bytes;
    let all_busy: Vec<f64> =
        r.noc.links.iter().filter(|l| l.busy > 0).map(|l| NocReport::util(l.busy, r.cycles)).collect();
    let link_util = if all_busy.is_empty() { 0.0 } else { all_busy.iter().sum::<f64>() / all_busy.len() as f64 };
    let doc = json!({
        "common_info": {
            "version": "1.0.0",
            "cycles_per_timestep": CYCLES_PER_TIMESTEP,
            "congestion_model_name": "tensim",
            "mesh_device": "single chip",
            "arch": chip.arch().name(),
            "dram_bw_util": pct(dram_util),
            "link_util": pct(link_util),
            "link_demand": (avg_d(0) + avg_d(1)) / 2.0,
            "max_link_demand": max_demand[0].max(max_demand[1]),
            "noc": {
                "NOC_0": { "avg_link_demand": avg_d(0), "avg_link_util": pct(avg0), "max_link_demand": max_demand[0] },
                "NOC_1": { "avg_link_demand": avg_d(1), "avg_link_util": pct(avg1), "max_link_demand": max_demand[1] },
            },
        },
        "chips": { "0": [0, 0, 0, 0] },
        "noc_transfers": transfers,
        "timestep_data": timesteps,
    });
    serde_json::to_string(&doc).expect("JSON of plain values")
}
