//! Reports of work over several chips: one Perfetto trace with a process per core of every chip (named
//! `chip N: …`), the Ethernet links' utilisation, and a picture of the mesh with each link direction
//! coloured by it.

use super::RunReport;
use serde_json::{Value, json};
use sim_core::Cycles;
use soc_descriptors::ClusterDescriptor;
use std::fmt::Write;

/// One chip's report in a multi-chip result, placed on the common timeline.
#[derive(Debug, Clone, Copy)]
pub struct ChipRun<'a> {
    /// The chip.
    pub chip_id: u32,
    /// Where the chip sits in the mesh (row, column).
    pub coord: (u32, u32),
    /// When the run started on the common timeline (the phases of a collective follow one another).
    pub offset: Cycles,
    /// The run.
    pub report: &'a RunReport,
}

/// Process ids of one chip's cores are `chip_id × PID_STRIDE + pid`.
pub const PID_STRIDE: u64 = 1000;

/// One Chrome/Perfetto trace of every part that recorded one: each core of each chip is a process named
/// `chip N: <core>`, each part shifted by its offset. Parts without a trace are skipped.
pub fn merged_trace(parts: &[ChipRun<'_>]) -> Result<String, String> {
    let mut events: Vec<Value> = Vec::new();
    for p in parts {
        let Some(json) = &p.report.trace_json else { continue };
        let doc: Value =
            serde_json::from_str(json).map_err(|e| format!("chip {}: trace not readable: {e}", p.chip_id))?;
        let Some(list) = doc.get("traceEvents").and_then(Value::as_array) else {
            return Err(format!("chip {}: trace without traceEvents", p.chip_id));
        };
        let shift = p.offset.0 as f64 / 1000.0; // ts is in µs; 1 ns on the timeline = 1 cycle
        for e in list {
            let mut e = e.clone();
            let pid = e.get("pid").and_then(Value::as_u64).unwrap_or(0);
            if pid >= PID_STRIDE {
                return Err(format!("chip {}: trace process id {pid} does not fit below {PID_STRIDE}", p.chip_id));
            }
            let new_pid = p.chip_id as u64 * PID_STRIDE + pid;
            e["pid"] = json!(new_pid);
            if let Some(ts) = e.get("ts").and_then(Value::as_f64) {
                e["ts"] = json!(ts + shift);
            }
            match e.get("name").and_then(Value::as_str) {
                Some("process_name") => {
                    let name = e["args"]["name"].as_str().unwrap_or("").to_string();
                    e["args"]["name"] = json!(format!("chip {} {:?}: {name}", p.chip_id, p.coord));
                }
                Some("process_sort_index") => e["args"]["sort_index"] = json!(new_pid),
                _ => {}
            }
            events.push(e);
        }
    }
    let doc = json!({
        "displayTimeUnit": "ns",
        "otherData": {"time_unit": "1 ns on this timeline = 1 AICLK cycle", "chips": parts.len()},
        "traceEvents": events,
    });
    serde_json::to_string(&doc).map_err(|e| e.to_string())
}

/// One direction of an Ethernet link over a multi-chip result: bytes sent and the share of the total time
/// its transmit side was busy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EthUtil {
    /// Sending chip.
    pub chip_id: u32,
    /// Its channel.
    pub channel: u32,
    /// Payload bytes sent.
    pub tx_bytes: u64,
    /// Busy cycles of the transmit side.
    pub busy: Cycles,
    /// `busy / total`.
    pub util: f64,
}

/// Every channel that sent something, summed over the parts, as a share of `total` cycles; by chip, then
/// channel.
pub fn eth_utilisation(parts: &[ChipRun<'_>], total: Cycles) -> Vec<EthUtil> {
    let mut out: Vec<EthUtil> = Vec::new();
    for p in parts {
        for e in p.report.eth.iter().filter(|e| e.tx_bytes > 0) {
            match out.iter_mut().find(|u| (u.chip_id, u.channel) == (p.chip_id, e.channel)) {
                Some(u) => {
                    u.tx_bytes += e.tx_bytes;
                    u.busy = Cycles(u.busy.0 + e.tx_busy.0);
                }
                None => out.push(EthUtil {
                    chip_id: p.chip_id,
                    channel: e.channel,
                    tx_bytes: e.tx_bytes,
                    busy: e.tx_busy,
                    util: 0.0,
                }),
            }
        }
    }
    for u in &mut out {
        u.util = u.busy.0 as f64 / total.0.max(1) as f64;
    }
    out.sort_by_key(|u| (u.chip_id, u.channel));
    out
}

/// The stats of a multi-chip result: each part's run (with its chip, mesh coordinate and offset) and the
/// Ethernet links' utilisation over `total`.
pub fn mesh_stats(parts: &[ChipRun<'_>], total: Cycles) -> (Value, Value) {
    let runs: Vec<Value> = parts
        .iter()
        .map(|p| {
            let mut s = p.report.stats();
            s["chip"] = json!(p.chip_id);
            s["mesh_coord"] = json!([p.coord.0, p.coord.1]);
            s["offset"] = json!(p.offset.0);
            s
        })
        .collect();
    let links: Vec<Value> = eth_utilisation(parts, total)
        .iter()
        .map(|u| json!({"chip": u.chip_id, "channel": u.channel, "tx_bytes": u.tx_bytes, "busy": u.busy.0, "util": u.util}))
        .collect();
    (Value::Array(runs), Value::Array(links))
}

/// Colour of a utilisation in 0..=1: grey when idle, then green → yellow → red.
fn colour(u: f64) -> String {
    if u <= 0.0 {
        return "#c8c8c8".into();
    }
    let u = u.clamp(0.0, 1.0);
    let (r, g) = if u < 0.5 {
        (46.0 + u / 0.5 * 194.0, 160.0 + u / 0.5 * 40.0)
    } else {
        (240.0, 200.0 - (u - 0.5) / 0.5 * 170.0)
    };
    format!("#{:02x}{:02x}28", r as u8, g as u8)
}

/// A picture of the chips of `parts` at their mesh coordinates with every Ethernet link between two of them
/// drawn as two arrows (one per direction), coloured and labelled by the utilisation of its sending side.
pub fn mesh_heatmap_svg(cd: &ClusterDescriptor, parts: &[ChipRun<'_>], total: Cycles, title: &str) -> String {
    let (cell, gap) = (110.0f64, 90.0f64);
    let pos = |c: (u32, u32)| (40.0 + c.1 as f64 * (cell + gap), 70.0 + c.0 as f64 * (cell + gap));
    let rows = parts.iter().map(|p| p.coord.0 + 1).max().unwrap_or(1) as f64;
    let cols = parts.iter().map(|p| p.coord.1 + 1).max().unwrap_or(1) as f64;
    let (w, h) = (80.0 + cols * (cell + gap), 110.0 + rows * (cell + gap));
    let util = eth_utilisation(parts, total);
    let mut chips: Vec<u32> = parts.iter().map(|p| p.chip_id).collect();
    chips.sort_unstable();
    chips.dedup();
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"monospace\">\n\
         <!-- tensim NoC heatmap: Ethernet links of a run over {} chips -->\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"40\" y=\"30\" font-size=\"15\">{title}</text>\n\
         <text x=\"40\" y=\"50\" font-size=\"11\">each arrow: one link direction, coloured by the share of {} cycles its sender was busy</text>\n",
        chips.len(),
        total.0
    );
    let at = |id: u32| parts.iter().find(|p| p.chip_id == id).map(|p| p.coord);
    for l in &cd.links {
        let (Some(ca), Some(cb)) = (at(l.a.chip), at(l.b.chip)) else { continue };
        for (from, to, fc, tc) in [(l.a, l.b, ca, cb), (l.b, l.a, cb, ca)] {
            let _ = to;
            let u = util.iter().find(|u| (u.chip_id, u.channel) == (from.chip, from.channel));
            let share = u.map_or(0.0, |u| u.util);
            let ((x0, y0), (x1, y1)) = (pos(fc), pos(tc));
            let (cx0, cy0, cx1, cy1) = (x0 + cell / 2.0, y0 + cell / 2.0, x1 + cell / 2.0, y1 + cell / 2.0);
            // Offset the two directions (and parallel links by channel) sideways.
            let (dx, dy) = (cx1 - cx0, cy1 - cy0);
            let len = (dx * dx + dy * dy).sqrt().max(1.0);
            let (nx, ny) = (-dy / len, dx / len);
            let off = 6.0 + 4.0 * (from.channel % 4) as f64;
            let (sx, sy, ex, ey) = (
                cx0 + dx * 0.3 + nx * off,
                cy0 + dy * 0.3 + ny * off,
                cx0 + dx * 0.7 + nx * off,
                cy0 + dy * 0.7 + ny * off,
            );
            let width = if u.is_some() { 4 } else { 1 };
            let _ = writeln!(
                s,
                "<line x1=\"{sx:.1}\" y1=\"{sy:.1}\" x2=\"{ex:.1}\" y2=\"{ey:.1}\" stroke=\"{}\" stroke-width=\"{width}\"><title>chip {} channel {} → chip {}: {:.1}% busy, {} B</title></line>",
                colour(share),
                from.chip,
                from.channel,
                to.chip,
                share * 100.0,
                u.map_or(0, |u| u.tx_bytes)
            );
            if u.is_some() {
                let _ = writeln!(
                    s,
                    "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\">{:.0}%</text>",
                    (sx + ex) / 2.0 + nx * 8.0,
                    (sy + ey) / 2.0 + ny * 8.0,
                    share * 100.0
                );
            }
        }
    }
    let mut drawn: Vec<u32> = Vec::new();
    for p in parts {
        if drawn.contains(&p.chip_id) {
            continue;
        }
        drawn.push(p.chip_id);
        let cycles: u64 = parts.iter().filter(|q| q.chip_id == p.chip_id).map(|q| q.report.cycles.0).sum();
        let busy = cycles as f64 / total.0.max(1) as f64;
        let (x, y) = pos(p.coord);
        let _ = writeln!(
            s,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" fill=\"#eef\" stroke=\"#333\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"13\">chip {}</text><text x=\"{}\" y=\"{}\" font-size=\"11\">({},{})</text>\
             <text x=\"{}\" y=\"{}\" font-size=\"10\">{} cycles ({:.0}%)</text>",
            x + 8.0,
            y + 24.0,
            p.chip_id,
            x + 8.0,
            y + 42.0,
            p.coord.0,
            p.coord.1,
            x + 8.0,
            y + 62.0,
            cycles,
            busy * 100.0
        );
    }
    s.push_str("</svg>\n");
    s
}
