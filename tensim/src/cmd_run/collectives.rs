//! `tensim run all_gather|reduce_scatter|all_reduce --system NAME [--devices N] [--topology line|ring]
//! [--shape A,B,H,W] [--dim D] [--workers N]`: a collective on a line of chips of a system, over the fabric. Prints PASS/FAIL against
//! the host reference, per-chip cycles, the Ethernet traffic and bandwidth of the busiest link, µs at the
//! chip clock, and the simulation's own speed.

use super::RunArgs;
use crate::error::{CliError, CliResult};
use crate::out::say;
use programs::mesh::all_gather::{self, AllGather};
use programs::mesh::all_reduce::{self, AllReduce};
use programs::mesh::ccl::{Topology, ccl_bandwidth};
use programs::mesh::reduce_scatter::{self, ReduceScatter};
use report::multi_chip::{eth_utilisation, merged_trace, mesh_heatmap_svg, mesh_stats};
use report::stats::stats_document;
use sim_device::mesh::{MeshDevice, MeshShape};
use std::process::ExitCode;

/// The collectives `tensim run` knows.
pub const COLLECTIVES: [(&str, &str); 3] = [
    ("all_gather", "gather every device's tensor along --dim on a line or ring of chips (fabric multicast)"),
    ("reduce_scatter", "sum the devices' tensors; device i keeps slice i along --dim (fabric, FPU adds)"),
    ("all_reduce", "sum the devices' tensors on every device (reduce_scatter, then all_gather)"),
];

fn parse_shape(s: &str) -> CliResult<[u32; 4]> {
    let parts: Vec<&str> = s.split([',', 'x']).collect();
    let bad = || CliError::User(format!("--shape {s}: give four whole numbers, e.g. 1,1,32,1024"));
    if parts.len() != 4 {
        return Err(bad());
    }
    let mut out = [0u32; 4];
    for (o, p) in out.iter_mut().zip(parts) {
        *o = p.trim().parse().map_err(|_| bad())?;
    }
    Ok(out)
}

/// A ring of `n` chips needs the last chip of the line tensim places them on linked to the first: say so
/// before anything runs, with the device counts whose rings do close on this system.
fn check_ring_closes(
    cd: &soc_descriptors::ClusterDescriptor,
    sys: &soc_descriptors::MeshEmbedding,
    n: u32,
) -> CliResult<()> {
    let line = |k: u32| {
        sim_device::mesh::place(sys, MeshShape::new(1, k), sim_device::mesh::MeshCoordinate::new(0, 0), &cd.source).ok()
    };
    let closes = |k: u32| -> bool {
        if k < 3 {
            return true;
        }
        let Some(ids) = line(k) else { return false };
        let (first, last) = (ids[0], ids[ids.len() - 1]);
        sim_device::mesh::eth_peers_of(cd, last)
            .map(|peers| peers.iter().flatten().any(|(chip, _)| *chip == first))
            .unwrap_or(false)
    };
    if closes(n) {
        return Ok(());
    }
    let ids = line(n).unwrap_or_default();
    let ok: Vec<String> = (3..=sys.chips.len() as u32).filter(|&k| closes(k)).map(|k| k.to_string()).collect();
    let alternatives = if ok.is_empty() {
        "no ring of 3 or more chips closes on this system; use --topology line".to_string()
    } else {
        format!("rings close here with --devices {}; or use --topology line", ok.join(", "))
    };
    Err(CliError::User(format!(
        "--topology ring with --devices {n}: the ring does not close on {}: its chips run {:?} in a line, and chip {} (the last) is not linked by Ethernet to chip {} (the first); {alternatives}",
        cd.source,
        ids,
        ids.last().copied().unwrap_or(0),
        ids.first().copied().unwrap_or(0)
    )))
}

/// Peak host memory of a collective over `elems` bf16 elements per device on `n` devices: the process and
/// its chips, then per element — all_gather: each device's input in DRAM (2) and as the host's f32 (4), its
/// gathered output in DRAM (2n), and at the check one device's output read back (2n bytes, 4n f32) beside
/// the f32 expectation (4n): n(16 + 2n) in all; reduce_scatter: the inputs in DRAM (2n) and f32 (4n), the
/// f32 sum (4) and one device's slice read back (2): 6n + 6; all_reduce: the inputs and outputs in DRAM
/// (4n), the f32 inputs (4n), the sum (4) and one device's output read back (6): 8n + 10.
fn collective_host_bytes(name: &str, elems: u64, n: u64) -> u64 {
    let per_elem = match name {
        "all_gather" => n * (16 + 2 * n),
        "reduce_scatter" => 6 * n + 6,
        _ => 8 * n + 10,
    };
    programs::options::BASE_HOST_BYTES
        + n.saturating_sub(1) * programs::options::CHIP_HOST_BYTES
        + elems.saturating_mul(per_elem)
}

/// Run a collective (`a.example` is one of [`COLLECTIVES`]).
pub fn run_collective(a: &RunArgs) -> CliResult<ExitCode> {
    let name = a.example.as_deref().unwrap_or_default();
    a.reject_for_collectives(name)?;
    let system = a.system.as_deref().unwrap_or("t3000");
    let (cd, sys) = crate::cmd_system::load_system(Some(system), a.cluster.as_deref())?;
    let arch = cd.arch().ok_or_else(|| CliError::User(format!("{}: the chips are of different arches", cd.source)))?;
    let params = a.params.resolve(arch).map_err(CliError::User)?;
    let n = a.devices.unwrap_or(sys.chips.len() as u32);
    let topology = Topology::parse(a.topology.as_deref().unwrap_or("line")).map_err(CliError::User)?;
    let shape = match &a.shape {
        Some(s) => parse_shape(s)?,
        None => [1, 1, 32, 1024],
    };
    let dim = a.dim.unwrap_or(3);
    let links = a.links.unwrap_or(1);
    if links == 0 {
        return Err(CliError::User("--links 0: give at least 1 routing plane".into()));
    }
    if name == "all_reduce" && a.dim.is_some() {
        return Err(CliError::User(
            "--dim is not an option of `all_reduce` (it reduces the whole tensor and picks the first dimension the devices divide, as ttnn.all_reduce does)".into(),
        ));
    }
    if topology == Topology::Ring {
        check_ring_closes(&cd, &sys, n)?;
    }
    let bytes = shape.iter().map(|&v| v as u64).product::<u64>() * 2;
    // One fabric packet per tile per hop, and (reductions) one FPU add per tile a device receives.
    let (packets, noc_bytes) = (bytes / 2048 * n as u64 * n as u64, bytes * n as u64 * n as u64);
    let grid = soc_descriptors::builtin_soc(arch).grid;
    let estimate = crate::work::Estimate {
        packets,
        tile_ops: if name == "all_gather" { 0 } else { bytes / 2048 * n as u64 },
        noc_bytes,
        host_bytes: collective_host_bytes(name, bytes / 2, n as u64),
        router_flit_moves: crate::work::router_flit_moves(&params.noc, grid, noc_bytes, packets),
    };
    if a.estimate {
        return crate::work::print(estimate);
    }
    crate::work::check(estimate, &format!("`{name}` of {bytes} bytes per device on {n} devices"), a.allow_large)?;
    let mut mesh =
        MeshDevice::open(&cd, &sys, MeshShape::new(1, n), None, &params).map_err(|e| CliError::User(e.to_string()))?;
    mesh.set_workers(a.workers.unwrap_or(0) as usize);
    // tt-metal dispatches to a chip without PCIe through an Ethernet link from its PCIe neighbour and keeps
    // that link out of the fabric; tensim does not model dispatch over Ethernet, so it says so when the
    // links asked for include one.
    let tunnel_hop = {
        let ids = mesh.chip_ids().to_vec();
        let pcie = |id: u32| cd.chips.iter().any(|c| c.id == id && c.mmio.is_some());
        let hops = if topology == Topology::Ring { ids.len() } else { ids.len().saturating_sub(1) };
        (0..hops).map(|h| (ids[h], ids[(h + 1) % ids.len()])).find(|&(x, y)| pcie(x) != pcie(y))
    };
    // Every output is checked before the simulation.
    let mut plan = crate::outputs::OutputPlan::new();
    let trace = a.trace.as_deref().map(|p| plan.add(p, crate::outputs::TRACE)).transpose()?;
    let stats = a.stats.as_deref().map(|p| plan.add(p, crate::outputs::STATS)).transpose()?;
    let heatmap = a.noc_heatmap.as_deref().map(|p| plan.add(p, crate::outputs::HEATMAP)).transpose()?;
    mesh.set_tracing(trace.is_some());
    let spinner = crate::out::spinner("simulating chips");
    let wall = std::time::Instant::now();
    let out = match name {
        "reduce_scatter" => reduce_scatter::run(&mut mesh, ReduceScatter { shape, dim, topology, links }, a.seed),
        "all_reduce" => all_reduce::run(&mut mesh, AllReduce { shape, topology, links }, a.seed),
        _ => all_gather::run(&mut mesh, AllGather { shape, dim, topology, links }, a.seed),
    }
    .map_err(|e| CliError::User(e.to_string()));
    if let Some(s) = spinner {
        s.finish_and_clear();
    }
    let out = out?;
    let secs = wall.elapsed().as_secs_f64();
    let mhz = out.clock_mhz();
    let cycles = out.cycles();
    let dim_text = if name == "all_reduce" { String::new() } else { format!(", dim {dim}") };
    say!(
        "{} {name} on {} ({} devices, {:?}, shape {:?} per device{dim_text})",
        if out.passed { "PASS" } else { "FAIL" },
        cd.source,
        n,
        topology,
        shape,
    );
    say!("check: {}", out.check);
    say!("cycles: {} ({:.3} us at {mhz} MHz)", cycles.0, cycles.as_micros(mhz));
    let bw = ccl_bandwidth(name, out.input_bytes, n, cycles.as_micros(mhz));
    say!(
        "  of which {} cycles start the op{} before the first packet (fabric.op_launch_cycles and a start \
         handshake of one Ethernet round trip per hop; the per-device cycles below begin after it)",
        out.start.0,
        if out.phases.len() > 1 { "s" } else { "" }
    );
    if out.phases.len() > 1 {
        for (op, r) in &out.phases {
            say!("  {op}: {} cycles", r.cycles.0);
        }
    }
    if let Some(b) = bw {
        say!(
            "bandwidth: algbw {:.2} GB/s, busbw {:.2} GB/s ({} B {} over the op's time; busbw x{} as tt-metal's CCL reports)",
            b.algbw_gbs,
            b.busbw_gbs,
            b.size_bytes,
            if name == "all_gather" { "of one device's output" } else { "of one device's input" },
            if name == "all_reduce" { "2(n-1)/n" } else { "(n-1)/n" }
        );
    }
    for (c, id, cyc, tx) in out.devices() {
        say!("  device {c} (chip {id}): {cyc} cycles, {tx} B sent over Ethernet");
    }
    if let Some((chip, ch, b, gbs)) = out.busiest_link() {
        let line = params.eth.link_bytes_per_sec as f64 / 1e9;
        say!(
            "busiest link: chip {chip} channel {ch}, {b} B sent, {gbs:.2} GB/s over the run ({:.0}% of the {line} GB/s line rate)",
            gbs / line * 100.0
        );
    }
    // Each warning once, with the chips it applies to (in the order first seen).
    let mut seen: Vec<(&str, Vec<u32>)> = Vec::new();
    for (_, r) in &out.phases {
        for (_, id, d) in &r.devices {
            for w in &d.warnings {
                match seen.iter_mut().find(|(t, _)| *t == w.as_str()) {
                    Some((_, ids)) if !ids.contains(id) => ids.push(*id),
                    Some(_) => {}
                    None => seen.push((w.as_str(), vec![*id])),
                }
            }
        }
    }
    for (w, mut ids) in seen {
        ids.sort_unstable();
        let ids: Vec<String> = ids.iter().map(u32::to_string).collect();
        let chips = if ids.len() == 1 { "chip" } else { "chips" };
        crate::out::note!("warning: {chips} {}: {w}", ids.join(", "));
    }
    for m in out.not_modelled() {
        say!("{m}");
    }
    if let (true, Some((x, y))) = (links > 1, tunnel_hop) {
        say!(
            "not modelled: dispatch over Ethernet — on silicon one link between a PCIe chip and the chip without PCIe it \
             dispatches to (here chips {x} and {y}) carries the command tunnel, not the fabric, so that hop has one \
             link fewer than --links {links} uses here"
        );
    }
    say!(
        "not modelled: {}",
        match name {
            "reduce_scatter" => "more than one worker per link and direction",
            "all_reduce" => {
                "more than one worker per link and direction; all_gather's scatter writes of several tiles per fabric \
                 packet (it sends one tile per packet)"
            }
            _ => {
                "more than one worker per link and direction; scatter writes of several tiles per fabric packet (it \
                 sends one tile per packet)"
            }
        }
    );
    say!(
        "simulated {} cycles on {n} chips in {:.3} s of simulation ({:.2} M chip-cycles/s); {secs:.3} s wall with set-up and check",
        cycles.0,
        out.simulate_secs,
        (cycles.0 * n as u64) as f64 / out.simulate_secs.max(1e-9) / 1e6
    );
    crate::work::say_memory(estimate.host_bytes)?;
    let parts = out.chip_runs();
    let links = eth_utilisation(&parts, cycles);
    say!("ethernet links that sent (chip/channel: bytes, share of the run the sender was busy):");
    for l in &links {
        say!("  chip {} ch {:>2}: {:>10} B, {:>5.1}% busy", l.chip_id, l.channel, l.tx_bytes, l.util * 100.0);
    }
    let mut contents = Vec::new();
    if let Some(id) = trace {
        contents.push((id, merged_trace(&parts).map_err(|e| CliError::User(format!("--trace: {e}")))?));
    }
    if let Some(id) = stats {
        let (runs, links) = mesh_stats(&parts, cycles);
        let phases: Vec<serde_json::Value> =
            out.phases.iter().map(|(op, r)| serde_json::json!({"op": op, "cycles": r.cycles.0})).collect();
        let doc = stats_document(
            "run",
            vec![
                ("program", name.into()),
                ("arch", arch.to_string().into()),
                ("passed", out.passed.into()),
                ("check", out.check.clone().into()),
                ("system", cd.source.clone().into()),
                ("devices", n.into()),
                ("topology", format!("{topology:?}").to_lowercase().into()),
                ("shape", serde_json::json!(shape)),
                ("cycles", cycles.0.into()),
                ("us", cycles.as_micros(mhz).into()),
                (
                    "bandwidth",
                    bw.map_or(serde_json::Value::Null, |b| {
                        serde_json::json!({"size_bytes": b.size_bytes, "algbw_gbs": b.algbw_gbs, "busbw_gbs": b.busbw_gbs})
                    }),
                ),
                ("phases", serde_json::Value::Array(phases)),
                ("runs", runs),
                ("eth_links", links),
            ],
        );
        contents.push((id, doc));
    }
    if let Some(id) = heatmap {
        let title = format!("{name} on {} ({n} devices, {topology:?}), {} cycles", cd.source, cycles.0);
        contents.push((id, mesh_heatmap_svg(&cd, &parts, cycles, &title)));
    }
    for p in plan.commit(contents)? {
        say!("wrote {}", p.display());
    }
    Ok(if out.passed { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
