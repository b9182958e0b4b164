//! `tensim run all_gather --system NAME [--devices N] [--topology line|ring] [--shape A,B,H,W] [--dim D]
//! [--workers N]`: a collective on a line of chips of a system, over the fabric. Prints PASS/FAIL against
//! the host reference, per-chip cycles, the Ethernet traffic and bandwidth of the busiest link, µs at the
//! chip clock, and the simulation's own speed.

use crate::cmd_run::RunArgs;
use crate::error::{CliError, CliResult};
use crate::say;
use kernels::mesh::all_gather::{AllGather, Topology, run};
use sim_device::mesh::{MeshDevice, MeshShape};
use std::process::ExitCode;

/// The collectives `tensim run` knows.
pub const COLLECTIVES: [(&str, &str); 1] =
    [("all_gather", "gather every device's tensor along --dim on a line or ring of chips (fabric multicast)")];

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
    let p = AllGather { shape, dim: a.dim.unwrap_or(3), topology };
    let mut mesh =
        MeshDevice::open(&cd, &sys, MeshShape::new(1, n), None, &params).map_err(|e| CliError::User(e.to_string()))?;
    mesh.set_workers(a.workers.unwrap_or(0) as usize);
    let bytes = shape.iter().map(|&v| v as u64).product::<u64>() * 2;
    crate::work::check(
        crate::work::Estimate { packets: 0, tile_ops: 0, noc_bytes: bytes * n as u64 * n as u64 },
        &format!("`{name}` of {bytes} bytes per device on {n} devices"),
        a.allow_large,
    )?;
    let spinner = crate::out::spinner("simulating chips");
    let wall = std::time::Instant::now();
    let out = run(&mut mesh, p, a.seed).map_err(|e| CliError::User(e.to_string()));
    if let Some(s) = spinner {
        s.finish_and_clear();
    }
    let out = out?;
    let secs = wall.elapsed().as_secs_f64();
    let r = &out.report;
    let mhz = r.devices.first().map_or(1000, |d| d.2.clock_mhz);
    say!(
        "{} {name} on {} ({} devices, {:?}, shape {:?} per device, dim {})",
        if out.passed { "PASS" } else { "FAIL" },
        cd.source,
        n,
        topology,
        shape,
        p.dim
    );
    say!("check: {}", out.check);
    say!("cycles: {} ({:.3} us at {mhz} MHz)", r.cycles.0, r.cycles.as_micros(mhz));
    for (c, id, d) in &r.devices {
        let tx: u64 = d.eth.iter().map(|e| e.tx_bytes).sum();
        say!("  device {c} (chip {id}): {} cycles, {} B sent over Ethernet", d.cycles.0, tx);
    }
    if let Some((chip, ch, b, gbs)) = out.busiest_link() {
        let line = params.eth.link_bytes_per_sec as f64 / 1e9;
        say!(
            "busiest link: chip {chip} channel {ch}, {b} B sent, {gbs:.2} GB/s over the run ({:.0}% of the {line} GB/s line rate)",
            gbs / line * 100.0
        );
    }
    for (_, id, d) in &r.devices {
        for w in &d.warnings {
            crate::note!("warning: chip {id}: {w}");
        }
    }
    for m in &r.not_modelled {
        say!("{m}");
    }
    say!("not modelled: scatter writes of several tiles per packet and more than one link or worker per direction");
    say!(
        "simulated {} cycles on {n} chips in {secs:.3} s wall ({:.2} M chip-cycles/s)",
        r.cycles.0,
        (r.cycles.0 * n as u64) as f64 / secs.max(1e-9) / 1e6
    );
    Ok(if out.passed { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
