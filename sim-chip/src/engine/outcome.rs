//! Building a [`RunReport`] from a finished run's engine: every kernel's start, end, busy and blocked
//! cycles, zones, debug prints in simulated-time order, warnings, per-link/port/channel NoC and DRAM use,
//! and the Chrome trace when one was recorded.

use crate::engine::Engine;
use report::{DprintLine, DramUse, KernelRun, LinkUse, NocReport, PortUse, RunReport};
use sim_core::{Cycle, FiberId, TraceArg, Track};
use soc_descriptors::{Noc0Coord, NocId};

fn noc_report(e: &Engine) -> NocReport {
    let noc = &e.chip.noc;
    let topo = noc.topology();
    let g = topo.grid();
    let buffers = noc.buffer_counters();
    let buffer = |i: usize| buffers.as_ref().map_or((0, 0), |b| b[i]);
    let links = noc
        .links()
        .map(|(l, c)| {
            let (from, dir) = topo.link_info(l);
            let (hol_cycles, buffer_flit_cycles) = buffer(l.0 as usize);
            LinkUse {
                noc: dir.noc(),
                from: (from.x, from.y),
                dir,
                busy: c.busy,
                bytes: c.bytes,
                hol_cycles,
                buffer_flit_cycles,
            }
        })
        .collect();
    let (num_links, nius) = (topo.num_links(), g.count() * 2);
    let mut ports = Vec::new();
    for y in 0..g.y {
        for x in 0..g.x {
            for n in NocId::BOTH {
                for inject in [true, false] {
                    let c = noc.port(Noc0Coord::new(x, y), n, inject);
                    if c.uses > 0 {
                        let niu = topo.niu_index(Noc0Coord::new(x, y), n);
                        let (hol_cycles, buffer_flit_cycles) = buffer(num_links + niu + if inject { 0 } else { nius });
                        ports.push(PortUse {
                            noc: n,
                            tile: (x, y),
                            inject,
                            busy: c.busy,
                            bytes: c.bytes,
                            hol_cycles,
                            buffer_flit_cycles,
                        });
                    }
                }
            }
        }
    }
    let t = &e.chip.dram_timing;
    let k = t.gddr_per_channel();
    let dram = (0..t.num_gddr())
        .map(|i| DramUse {
            channel: i as u32 / k,
            sub: i as u32 % k,
            read_bytes: t.bytes(i).0,
            write_bytes: t.bytes(i).1,
            busy: t.busy(i),
        })
        .collect();
    NocReport {
        grid: (g.x, g.y),
        links,
        ports,
        dram,
        transfers: e.rec.records.clone().unwrap_or_default(),
        transfers_dropped: e.rec.records_dropped,
        last_arrival: e.rec.last_arrival,
        traffic: [noc.traffic(NocId::Noc0), noc.traffic(NocId::Noc1)],
        backpressure: noc.backpressure(),
        worker_tiles: e.chip.num_workers,
    }
}

/// The report of a run that ended normally.
pub(crate) fn report(e: &Engine, program_id: u32, clock_mhz: u32) -> RunReport {
    let mut kernels = Vec::new();
    let mut end = e.sched.last_event;
    for m in &e.sched.fibers {
        let (s, t, blocked) = m.run.unwrap_or_default();
        end = end.max(t);
        let tile = e.chip.core_tile[m.core.0 as usize];
        kernels.push(KernelRun {
            kernel: m.kernel.to_string(),
            core: e.chip.logical(m.core),
            noc0: (tile.x, tile.y),
            risc: m.risc,
            start: s,
            end: t,
            busy: (t - s) - blocked,
            blocked,
        });
    }
    let dprints = dprint_lines(e);
    let trace_json = e.rec.trace.as_ref().map(|t| {
        let mut t = t.clone();
        t.set_other("clock_mhz", TraceArg::U(clock_mhz as u64));
        t.set_other("program_id", TraceArg::U(program_id as u64));
        t.set_other("cycles", TraceArg::U(end.0));
        for (i, m) in e.sched.fibers.iter().enumerate() {
            let l = e.chip.logical(m.core);
            let tile = e.chip.core_tile[m.core.0 as usize];
            t.name_process(m.core.0 + 1, format!("core ({},{}) [NoC0 ({},{})]", l.0, l.1, tile.x, tile.y));
            t.name_thread(m.core.0 + 1, m.risc.index() as u32, m.risc.name());
            if let Some((s, end, _)) = m.run {
                t.slice(
                    Track { pid: m.core.0 + 1, tid: m.risc.index() as u32 },
                    m.kernel.to_string(),
                    "kernel",
                    s,
                    end,
                    vec![("fiber".into(), TraceArg::U(i as u64))],
                );
            }
        }
        t.to_json()
    });
    // Kernels' warnings by kernel thread (the order kernels run in is not part of a result), then the
    // hardware's in the order they happened.
    let mut kernel_warnings = e.rec.kernel_warnings.clone();
    kernel_warnings.sort_by_key(|(f, _)| *f);
    let mut warnings: Vec<String> = kernel_warnings.into_iter().map(|(_, w)| w).collect();
    warnings.extend(e.rec.warnings.iter().cloned());
    let (bp, cycles, tiles) = (e.chip.noc.backpressure(), (end - Cycle::ZERO).0, e.chip.num_workers);
    if bp.significant(cycles, tiles)
        && let Some((at, link)) = bp.first
    {
        let stalled = bp.stalled_per_tile(cycles, tiles);
        let (from, dir) = e.chip.noc.topology().link_info(link);
        warnings.push(format!(
            "not modelled: wormhole back-pressure. {} packets waited behind another destination's backlog longer \
             than the routers behind them buffer ({stalled:.1} per worker core at an average moment; the first at \
             cycle {}, link {} from NoC0 tile ({},{}); up to {} cycles beyond the buffers). Silicon stalls the \
             links behind such a backlog and many-to-many traffic collapses (tt-metal's all-to-all tables: about \
             3.4 B/cycle per core); this model lets the other traffic pass, so these cycles are optimistic \
             (noc.model = router models the routers' buffers and arbitration, far more slowly)",
            bp.blocked_packets,
            at.0,
            dir.npe_name(),
            from.x,
            from.y,
            bp.max_excess.0
        ));
    }
    if e.chip.dram_timing.kind() != sim_noc::DramModelKind::Calendar {
        warnings.push(format!(
            "not calibrated: dram.model = {} serves every DRAM access as if its channel were idle: a lower \
             bound on these cycles; the calibrated model is dram.model = calendar",
            e.chip.dram_timing.kind().name()
        ));
    }
    if e.chip.noc.kind() == sim_noc::NocModelKind::Router {
        warnings.push(
            "noc.model = router: wormhole routers with VC-shared buffers and VC-first arbitration, stepped \
             cycle by cycle; it times a packet alone exactly as noc.model = calendar (whose fitted values it \
             uses), and differs only where packets contend (README: NoC models)"
                .to_string(),
        );
    } else if e.chip.noc.kind() == sim_noc::NocModelKind::Packets {
        warnings.push(
            "noc.model = packets: the router model timed packet by packet (wormhole VC ownership, buffers \
             behind a blocked head, the blind VC pick's cost); it times a packet alone exactly as noc.model = \
             router, and where packets contend it approximates the flit-level routers (README: NoC models)"
                .to_string(),
        );
    } else if e.chip.noc.kind() != sim_noc::NocModelKind::Calendar {
        warnings.push(format!(
            "not calibrated: noc.model = {} times every packet as if the NoC were empty (no queueing at ports, \
             links or serving NIUs): a lower bound on these cycles; the calibrated model is noc.model = calendar",
            e.chip.noc.kind().name()
        ));
    }
    if let Some(t) = e.rec.trace.as_ref().filter(|t| t.dropped() > 0) {
        warnings.push(format!(
            "not recorded: the trace keeps the first {} events; {} later ones are missing from it",
            sim_core::chrome_trace::MAX_TRACE_EVENTS,
            t.dropped()
        ));
    }
    if e.rec.records_dropped > 0 {
        warnings.push(format!(
            "not recorded: {} NoC packets beyond the first {} have no per-packet record (the tt-npe timeline \
             shows only the recorded ones; every total and counter still covers all of them)",
            e.rec.records_dropped,
            crate::engine::MAX_TRANSFER_RECORDS
        ));
    }
    // Zones and logged values in simulated-time order (then by core and RISC; a kernel's own in the order it
    // made them), whatever order the kernels ran in.
    let mut zones = e.rec.zones.clone();
    zones.sort_by_key(|z| (z.end, z.core.1, z.core.0, z.risc.index()));
    let mut timestamped_data = e.rec.timestamped_data.clone();
    timestamped_data.sort_by_key(|d| (d.at, d.core.1, d.core.0, d.risc.index()));
    RunReport {
        program_id,
        cycles: end - Cycle::ZERO,
        clock_mhz,
        kernels,
        zones,
        timestamped_data,
        dprints,
        warnings,
        noc: noc_report(e),
        events: e.sched.events,
        resumes: e.sched.resumes,
        api_calls: e.sched.api_calls,
        trace_json,
        router_check: None,
        eth: e
            .chip
            .eth
            .iter()
            .enumerate()
            .filter(|(_, p)| p.tx_bytes + p.rx_bytes > 0)
            .map(|(ch, p)| report::EthLinkUse {
                channel: ch as u32,
                noc0: (p.tile.x, p.tile.y),
                tx_bytes: p.tx_bytes,
                tx_packets: p.tx_packets,
                tx_busy: p.tx_busy,
                rx_bytes: p.rx_bytes,
            })
            .collect(),
    }
}

/// The lines kernels printed: each RISC's print text split at its newlines, a line stamped with the cycle
/// of the print that completed it; text left without a newline at the end is a line of its own (tt-metal
/// flushes it when the device closes). In order of (cycle, fiber).
fn dprint_lines(e: &Engine) -> Vec<DprintLine> {
    let mut prints: Vec<&(Cycle, FiberId, String)> = e.rec.dprints.iter().collect();
    prints.sort_by_key(|(t, f, _)| (*t, *f));
    let mut pending: std::collections::HashMap<FiberId, String> = std::collections::HashMap::new();
    let mut lines: Vec<(Cycle, FiberId, String)> = Vec::new();
    let mut last: std::collections::HashMap<FiberId, Cycle> = std::collections::HashMap::new();
    for (at, f, text) in prints {
        let buf = pending.entry(*f).or_default();
        buf.push_str(text);
        while let Some(i) = buf.find('\n') {
            let line: String = buf.drain(..=i).collect();
            lines.push((*at, *f, line[..line.len() - 1].to_string()));
        }
        last.insert(*f, *at);
    }
    let mut rest: Vec<(FiberId, String)> = pending.into_iter().filter(|(_, t)| !t.is_empty()).collect();
    rest.sort_by_key(|(f, _)| *f);
    for (f, text) in rest {
        lines.push((last[&f], f, text));
    }
    lines.sort_by_key(|(t, f, _)| (*t, *f));
    lines
        .into_iter()
        .map(|(at, f, text)| {
            let m = &e.sched.fibers[f.0 as usize];
            let tile = e.chip.core_tile[m.core.0 as usize];
            let t = e.chip.chip.noc0_to_translated(tile);
            DprintLine { at, core: e.chip.logical(m.core), noc_xy: (t.x, t.y), risc: m.risc, text }
        })
        .collect()
}
