//! The regression suite: every example program on the built-in Wormhole B0 and Blackhole, and the
//! collectives on their systems, and the contended programs on the router-level NoC model, recorded as
//! simulated cycles, NoC flits per NoC, DRAM bytes and the busiest link's busy cycles, and compared with the
//! checked-in baseline (`benches/baseline/regression.csv`). Any drift fails; an intended change is accepted
//! by re-recording the baseline (`TENSIM_BLESS=1 cargo test -p benches --test regression`).

use programs::{ExampleOptions, list};
use sim_device::prelude::*;
use std::fmt::Write as _;

/// Path of the baseline, relative to the benches crate.
pub const BASELINE: &str = "baseline/regression.csv";

/// The CSV header.
pub const HEADER: &str = "program,arch,cycles,noc0_flits,noc1_flits,dram_bytes,peak_link_busy_cycles";

/// One program on one chip.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Example name.
    pub program: String,
    /// Chip.
    pub arch: String,
    /// Simulated cycles.
    pub cycles: u64,
    /// Flits injected on NoC 0.
    pub noc0_flits: u64,
    /// Flits injected on NoC 1.
    pub noc1_flits: u64,
    /// DRAM bytes read and written.
    pub dram_bytes: u64,
    /// Busy cycles of the busiest link.
    pub peak_link_busy: u64,
}

impl Row {
    fn key(&self) -> (&str, &str) {
        (&self.program, &self.arch)
    }

    fn values(&self) -> [(&'static str, u64); 5] {
        [
            ("cycles", self.cycles),
            ("noc0_flits", self.noc0_flits),
            ("noc1_flits", self.noc1_flits),
            ("dram_bytes", self.dram_bytes),
            ("peak_link_busy_cycles", self.peak_link_busy),
        ]
    }
}

/// Run the suite: every example with its default options on both chips, spread over the host's cores (each
/// run on its own device; the rows come back in the same order as a serial run, with the same numbers).
pub fn run_suite() -> Result<Vec<Row>, String> {
    use rayon::prelude::*;
    let jobs: Vec<(Arch, &programs::Example)> =
        [Arch::WormholeB0, Arch::Blackhole].into_iter().flat_map(|a| list().iter().map(move |e| (a, e))).collect();
    let mut rows: Vec<Row> = jobs
        .into_par_iter()
        .map(|(arch, ex)| {
            let mut dev = Device::builtin(arch).map_err(|e| e.to_string())?;
            program_row(&mut dev, ex, ex.name.to_string(), arch)
        })
        .collect::<Result<_, String>>()?;
    rows.extend(collectives()?);
    rows.extend(router_rows()?);
    Ok(rows)
}

/// Programs whose packets contend, on the router-level NoC models (`noc.model=router` and `packets`), named
/// `<program>@<model>`: they pin their cycles where they differ from the calendar model (reshard,
/// interleaved_to_sharded, matmul_2d_mcast) and their multicast trees (multicast).
fn router_rows() -> Result<Vec<Row>, String> {
    const PROGRAMS: [&str; 4] = ["multicast", "reshard", "interleaved_to_sharded", "matmul_2d_mcast"];
    let mut rows = Vec::new();
    for model in ["router", "packets"] {
        for arch in [Arch::WormholeB0, Arch::Blackhole] {
            for name in PROGRAMS {
                let ex = list().iter().find(|e| e.name == name).ok_or_else(|| format!("no program {name}"))?;
                let mut params = sim_device::Params::builtin(arch);
                params.set("regression bench", &format!("noc.model={model}")).map_err(|e| e.to_string())?;
                let spec = sim_device::ChipSpec::builtin(arch);
                let mut dev = Device::open_with_params(&spec, params).map_err(|e| e.to_string())?;
                rows.push(program_row(&mut dev, ex, format!("{name}@{model}"), arch)?);
            }
        }
    }
    Ok(rows)
}

/// Run example `ex` with its default options on `dev` and record it as row `program`.
fn program_row(dev: &mut Device, ex: &programs::Example, program: String, arch: Arch) -> Result<Row, String> {
    let out = (ex.run)(dev, &ExampleOptions::default()).map_err(|e| format!("{program} on {arch}: {e}"))?;
    if !out.passed {
        return Err(format!("{program} on {arch} failed its check: {}", out.check));
    }
    let r = &out.report;
    Ok(Row {
        program,
        arch: arch.to_string(),
        cycles: r.cycles.0,
        noc0_flits: r.noc.traffic[0].flits,
        noc1_flits: r.noc.traffic[1].flits,
        dram_bytes: r.noc.dram.iter().map(|d| d.read_bytes + d.write_bytes).sum(),
        peak_link_busy: r.noc.links.iter().map(|l| l.busy).max().unwrap_or(0),
    })
}

/// The collectives on their systems: all_gather on the T3000 8-chip ring and line and a p300 line;
/// reduce_scatter and all_reduce on the T3000 ring and a 1x4 line.
fn collectives() -> Result<Vec<Row>, String> {
    use programs::mesh::all_gather::{self, AllGather};
    use programs::mesh::all_reduce::{self, AllReduce};
    use programs::mesh::ccl::Topology;
    use programs::mesh::reduce_scatter::{self, ReduceScatter};
    use sim_device::mesh::{MeshDevice, MeshShape};
    let cases = [
        ("all_gather_ring8", "t3000", 8, Topology::Ring),
        ("all_gather_line8", "t3000", 8, Topology::Line),
        ("all_gather_line2", "p300", 2, Topology::Line),
        ("reduce_scatter_ring8", "t3000", 8, Topology::Ring),
        ("reduce_scatter_line4", "t3000", 4, Topology::Line),
        ("all_reduce_ring8", "t3000", 8, Topology::Ring),
        ("all_reduce_line4", "t3000", 4, Topology::Line),
    ];
    let mut rows = Vec::new();
    for (name, system, n, topology) in cases {
        let (cd, sys) = soc_descriptors::builtin_system(system).ok_or("built-in system")?;
        let arch = cd.arch().ok_or("one arch")?;
        let mut m = MeshDevice::open(&cd, &sys, MeshShape::new(1, n), None, &sim_device::Params::builtin(arch))
            .map_err(|e| e.to_string())?;
        let out = if name.starts_with("all_gather") {
            all_gather::run(&mut m, AllGather { shape: [1, 1, 32, 64], dim: 3, topology, links: 1 }, 0x7e5)
        } else if name.starts_with("reduce_scatter") {
            reduce_scatter::run(&mut m, ReduceScatter { shape: [1, 1, 32, 256], dim: 3, topology, links: 1 }, 0x7e5)
        } else {
            all_reduce::run(&mut m, AllReduce { shape: [1, 1, 32, 256], topology, links: 1 }, 0x7e5)
        }
        .map_err(|e| format!("{name}: {e}"))?;
        if !out.passed {
            return Err(format!("{name} failed its check: {}", out.check));
        }
        let d: Vec<_> = out.phases.iter().flat_map(|p| p.1.devices.iter()).collect();
        rows.push(Row {
            program: name.to_string(),
            arch: arch.to_string(),
            cycles: out.cycles().0,
            noc0_flits: d.iter().map(|x| x.2.noc.traffic[0].flits).sum(),
            noc1_flits: d.iter().map(|x| x.2.noc.traffic[1].flits).sum(),
            dram_bytes: d.iter().flat_map(|x| x.2.noc.dram.iter()).map(|u| u.read_bytes + u.write_bytes).sum(),
            peak_link_busy: d.iter().flat_map(|x| x.2.noc.links.iter()).map(|l| l.busy).max().unwrap_or(0),
        });
    }
    Ok(rows)
}

/// The rows as CSV (header first).
pub fn to_csv(rows: &[Row]) -> String {
    let mut s = format!("{HEADER}\n");
    for r in rows {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{}",
            r.program, r.arch, r.cycles, r.noc0_flits, r.noc1_flits, r.dram_bytes, r.peak_link_busy
        );
    }
    s
}

/// Parse a baseline; errors name the file, line and what is wrong.
pub fn parse_csv(text: &str, file: &str) -> Result<Vec<Row>, String> {
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, h)) if h.trim() == HEADER => {}
        other => {
            return Err(format!(
                "{file}:1: expected the header `{HEADER}`, found `{}`",
                other.map(|(_, h)| h).unwrap_or("")
            ));
        }
    }
    let mut rows = Vec::new();
    for (i, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        if f.len() != 7 {
            return Err(format!("{file}:{}: expected 7 comma-separated fields, found {}", i + 1, f.len()));
        }
        let num = |j: usize| -> Result<u64, String> {
            f[j].parse().map_err(|_| format!("{file}:{}: field {} `{}` is not a whole number", i + 1, j + 1, f[j]))
        };
        rows.push(Row {
            program: f[0].to_string(),
            arch: f[1].to_string(),
            cycles: num(2)?,
            noc0_flits: num(3)?,
            noc1_flits: num(4)?,
            dram_bytes: num(5)?,
            peak_link_busy: num(6)?,
        });
    }
    Ok(rows)
}

/// Every difference between the baseline and the current run, one line each (empty when they agree).
pub fn compare(baseline: &[Row], current: &[Row]) -> Vec<String> {
    let mut out = Vec::new();
    for c in current {
        match baseline.iter().find(|b| b.key() == c.key()) {
            None => out.push(format!("{} on {}: new program (not in the baseline)", c.program, c.arch)),
            Some(b) => {
                for ((name, was), (_, now)) in b.values().into_iter().zip(c.values()) {
                    if was != now {
                        let pct = if was == 0 { f64::INFINITY } else { (now as f64 - was as f64) / was as f64 * 100.0 };
                        out.push(format!("{} on {}: {name} {was} -> {now} ({pct:+.2}%)", c.program, c.arch));
                    }
                }
            }
        }
    }
    for b in baseline {
        if !current.iter().any(|c| c.key() == b.key()) {
            out.push(format!("{} on {}: in the baseline but no longer run", b.program, b.arch));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_round_trips_and_compare_reports_drift() {
        let rows = vec![Row {
            program: "p".into(),
            arch: "wormhole_b0".into(),
            cycles: 100,
            noc0_flits: 5,
            noc1_flits: 6,
            dram_bytes: 7,
            peak_link_busy: 8,
        }];
        let text = to_csv(&rows);
        assert_eq!(parse_csv(&text, "f").unwrap(), rows);
        let mut changed = rows.clone();
        changed[0].cycles = 110;
        let d = compare(&rows, &changed);
        assert_eq!(d, vec!["p on wormhole_b0: cycles 100 -> 110 (+10.00%)".to_string()]);
        assert!(compare(&rows, &rows).is_empty());
        assert!(parse_csv("nope\n", "f").unwrap_err().contains("f:1"));
        assert!(parse_csv(&format!("{HEADER}\na,b,1,2,x,4,5\n"), "f").unwrap_err().contains("f:2: field 5"));
    }
}
