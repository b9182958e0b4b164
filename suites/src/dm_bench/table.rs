//! The markdown table of tt-metal's data-movement results (Kernel, Run Host ID, Transaction Size (bytes),
//! Number of Transactions, Latency (cycles), Bandwidth (bytes/cycle)): writing, reading, and comparing a
//! simulated table with a measured one.

use sim_device::Cycles;
use std::fmt::Write;

/// One row.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// "Sender" or "Receiver".
    pub kernel: String,
    /// Run number.
    pub run_host_id: u32,
    /// Transaction size, bytes.
    pub size: u32,
    /// Number of transactions.
    pub count: u32,
    /// Zone length, cycles (a median over cores: may end in .5).
    pub latency: f64,
    /// Bytes moved per cycle.
    pub bandwidth: f64,
    /// Packets the run stalled beyond router buffering behind another destination's backlog, per worker
    /// core at an average moment (`0` for a measured row).
    pub stalled_per_tile: f64,
    /// A simulated row whose run stalled enough such packets to warn, which tensim does not model
    /// (wormhole back-pressure: its cycles are optimistic). Always `false` for a measured row.
    pub backpressure: bool,
    /// The simulated run's cycles, first core's launch to the last core's end (zero for a measured row).
    pub run_cycles: Cycles,
    /// Router inputs' cycles lost to head-of-line blocking (router-level NoC model; else and for a
    /// measured row 0).
    pub hol_cycles: u64,
}

/// A table in tt-metal's layout.
pub fn format_table(title: &str, rows: &[Row]) -> String {
    let mut s = format!("# {title}\n\n");
    s.push_str("| Kernel | Run Host ID | Transaction Size (bytes) | Number of Transactions | Latency (cycles) | Bandwidth (bytes/cycle) |\n");
    s.push_str("|---|---|---|---|---|---|\n");
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} |",
            r.kernel, r.run_host_id, r.size, r.count, r.latency, r.bandwidth
        );
    }
    s
}

/// The title of a table: its first `# ` heading.
pub fn table_title(text: &str) -> Option<String> {
    text.lines().map(str::trim).find_map(|l| l.strip_prefix("# ")).map(|t| t.trim().to_string())
}

/// Which tt-metal test a measured table is, from its title and file name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableId {
    /// The test with its grid and variants.
    pub suite: crate::dm_bench::Suite,
    /// Whether the file name says "with/without Loopback" (else the loopback is a guess to be checked).
    pub loopback_known: bool,
}

/// Recognise the test of a table titled `title` in a file named `file_name` (tt-metal's perf-plot names).
/// The grid labels of the titles are stale (dm-tests.md §0): unicast "4x4" ran on 5×5, "10x10" and "11x10"
/// on the full compute grid; other labels mean what they say. Tables without a label use the test's grid.
pub fn recognise(title: &str, file_name: &str) -> Option<TableId> {
    use crate::dm_bench::{Grid, Suite, SuiteKind as K};
    let t = title.to_ascii_lowercase();
    let f = file_name.to_ascii_lowercase();
    let loopback = if f.contains("without loopback") || t.contains("without loopback") {
        Some(false)
    } else if f.contains("with loopback") || t.contains("with loopback") {
        Some(true)
    } else {
        None
    };
    let kind = if t.starts_with("one to one") {
        K::OneToOne
    } else if t.starts_with("one from one") {
        K::OneFromOne
    } else if t.starts_with("loopback") {
        K::Loopback
    } else if t.starts_with("one to all") && t.contains("multicast") {
        K::OneToAllMulticast
    } else if t.starts_with("one to all") {
        K::OneToAllUnicast
    } else if t.starts_with("one from all") {
        K::OneFromAll
    } else if t.starts_with("all to all") {
        K::AllToAll
    } else if t.starts_with("all from all") {
        K::AllFromAll
    } else if t.starts_with("dram sharded") {
        K::DramSharded
    } else if t.starts_with("dram") {
        K::DramInterleaved
    } else if t.starts_with("core bidirectional") && t.contains("same kernel") {
        K::CoreBidirectionalSameKernel
    } else if t.starts_with("core bidirectional") {
        K::CoreBidirectional
    } else {
        return None;
    };
    let label = t
        .split_whitespace()
        .find(|w| w.split_once('x').is_some_and(|(a, b)| a.parse::<u32>().is_ok() && b.parse::<u32>().is_ok()));
    let grid = match (kind, label) {
        (_, Some("10x10" | "11x10")) => Grid::Full,
        (K::OneToAllUnicast, Some("4x4")) => Grid::Rc(5, 5),
        (_, Some(l)) => {
            let (a, b) = l.split_once('x').expect("checked");
            Grid::Rc(a.parse().ok()?, b.parse().ok()?)
        }
        (_, None) if t.contains("full grid") => Grid::Full,
        (K::AllToAll | K::AllFromAll, None) => Grid::Full,
        (K::OneFromAll, None) => Grid::Rc(4, 4),
        (_, None) => Grid::Rc(2, 2),
    };
    let one_to_all = matches!(kind, K::OneToAllUnicast | K::OneToAllMulticast);
    Some(TableId {
        suite: Suite {
            kind,
            grid,
            linked: kind == K::OneToAllMulticast && t.contains("linked"),
            loopback: one_to_all && loopback.unwrap_or(false),
            vcs: 1,
            noc: None,
            banks: None,
        },
        loopback_known: !one_to_all || loopback.is_some(),
    })
}

/// Read the rows of a table in tt-metal's layout; errors name the line.
pub fn parse_table(text: &str, file: &str) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    let mut header: Option<Vec<String>> = None;
    for (ln, line) in text.lines().enumerate() {
        let line = line.trim();
        if !line.starts_with('|') {
            continue;
        }
        let cells: Vec<String> = line.trim_matches('|').split('|').map(|c| c.trim().to_string()).collect();
        if cells.iter().all(|c| c.chars().all(|ch| ch == '-' || ch == ':')) {
            continue;
        }
        let Some(h) = &header else {
            header = Some(cells);
            continue;
        };
        let col = |name: &str| -> Result<&str, String> {
            let i =
                h.iter().position(|c| c == name).ok_or_else(|| format!("{file}: the table has no `{name}` column"))?;
            cells
                .get(i)
                .map(|c| c.as_str())
                .ok_or_else(|| format!("{file}:{}: row has fewer cells than the header", ln + 1))
        };
        let num = |name: &str| -> Result<f64, String> {
            let v = col(name)?;
            v.parse::<f64>().map_err(|_| format!("{file}:{}: `{name}` is `{v}`, not a number", ln + 1))
        };
        // A whole number in `min..=u32::MAX` (`64` or `64.0`; never truncated, never wrapped).
        let whole = |name: &str, min: u32| -> Result<u32, String> {
            let x = num(name)?;
            if x.is_finite() && x.fract() == 0.0 && x >= f64::from(min) && x <= f64::from(u32::MAX) {
                Ok(x as u32)
            } else {
                Err(format!(
                    "{file}:{}: `{name}` is `{}`; expected a whole number from {min} to {}",
                    ln + 1,
                    col(name)?,
                    u32::MAX
                ))
            }
        };
        // A finite number above `0` (`strict`) or at least `0`.
        let positive = |name: &str, strict: bool| -> Result<f64, String> {
            let x = num(name)?;
            if x.is_finite() && (x > 0.0 || (!strict && x == 0.0)) {
                Ok(x)
            } else {
                let want = if strict { "a finite number above 0" } else { "a finite number, 0 or more" };
                Err(format!("{file}:{}: `{name}` is `{}`; expected {want}", ln + 1, col(name)?))
            }
        };
        rows.push(Row {
            kernel: col("Kernel")?.to_string(),
            run_host_id: whole("Run Host ID", 0)?,
            size: whole("Transaction Size (bytes)", 1)?,
            count: whole("Number of Transactions", 1)?,
            latency: positive("Latency (cycles)", true)?,
            bandwidth: positive("Bandwidth (bytes/cycle)", false)?,
            stalled_per_tile: 0.0,
            hol_cycles: 0,
            backpressure: false,
            run_cycles: Cycles::ZERO,
        });
    }
    if rows.is_empty() {
        return Err(format!("{file}: no table rows found (expected tt-metal's data-movement table layout)"));
    }
    Ok(rows)
}

/// A simulated table matched against a measured one.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// (simulated, measured, relative latency error) of every matched row.
    pub rows: Vec<(Row, Row, f64)>,
    /// Median relative error.
    pub median: f64,
    /// Worst relative error.
    pub worst: f64,
}

impl Comparison {
    /// The table with the error of every row and the summary line
    /// `rows N, median error X%, worst error Y%`.
    pub fn report(&self) -> String {
        let mut s = String::from(
            "| Kernel | Transaction Size (bytes) | Number of Transactions | Simulated (cycles) | Measured (cycles) | Error |\n|---|---|---|---|---|---|\n",
        );
        for (a, b, e) in &self.rows {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {:+.1}%{} |",
                a.kernel,
                a.size,
                a.count,
                a.latency,
                b.latency,
                e * 100.0,
                if a.backpressure { " (back-pressure)" } else { "" }
            );
        }
        let _ = writeln!(
            s,
            "rows {}, median error {:.1}%, worst error {:.1}%",
            self.rows.len(),
            self.median * 100.0,
            self.worst * 100.0
        );
        if let Some(line) = self.backpressure_line() {
            let _ = writeln!(s, "{line}");
        }
        s
    }

    /// When some rows' runs stalled packets beyond router buffering: how many, and the errors of the
    /// others (`None` when no row did).
    pub fn backpressure_line(&self) -> Option<String> {
        let flagged = self.rows.iter().filter(|r| r.0.backpressure).count();
        if flagged == 0 {
            return None;
        }
        let mut errs: Vec<f64> = self.rows.iter().filter(|r| !r.0.backpressure).map(|r| r.2.abs()).collect();
        let median = programs::golden::median(&mut errs);
        Some(format!(
            "not modelled in {flagged} of these rows: wormhole back-pressure (marked); the other {} rows: median \
             error {:.1}%, worst error {:.1}%",
            errs.len(),
            median * 100.0,
            errs.last().copied().unwrap_or(0.0) * 100.0
        ))
    }
}

/// Match rows by (Kernel, Transaction Size, Number of Transactions); error = (simulated − measured) /
/// measured of the latency.
pub fn compare(sim: &[Row], measured: &[Row]) -> Comparison {
    let mut rows = Vec::new();
    for m in measured {
        if let Some(s) = sim.iter().find(|s| s.kernel == m.kernel && s.size == m.size && s.count == m.count) {
            let e = (s.latency - m.latency) / m.latency.max(1.0);
            rows.push((s.clone(), m.clone(), e));
        }
    }
    let mut errs: Vec<f64> = rows.iter().map(|r| r.2.abs()).collect();
    let median = programs::golden::median(&mut errs);
    Comparison { rows, median, worst: errs.last().copied().unwrap_or(0.0) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_round_trip_and_compare() {
        let rows = vec![
            Row {
                kernel: "Sender".into(),
                run_host_id: 0,
                size: 32,
                count: 1,
                latency: 300.0,
                bandwidth: 32.0 / 300.0,
                stalled_per_tile: 0.0,
                hol_cycles: 0,
                backpressure: false,
                run_cycles: Cycles::ZERO,
            },
            Row {
                kernel: "Sender".into(),
                run_host_id: 1,
                size: 64,
                count: 1,
                latency: 400.5,
                bandwidth: 0.16,
                stalled_per_tile: 0.0,
                hol_cycles: 0,
                backpressure: false,
                run_cycles: Cycles::ZERO,
            },
        ];
        let t = format_table("One to One Packet Sizes", &rows);
        let back = parse_table(&t, "t.md").unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back[1].latency, 400.5);
        let measured = vec![Row { latency: 200.25, ..rows[1].clone() }, Row { size: 99, ..rows[0].clone() }];
        let c = compare(&back, &measured);
        assert_eq!(c.rows.len(), 1);
        assert!((c.median - 1.0).abs() < 1e-12);
        assert!(c.report().ends_with("rows 1, median error 100.0%, worst error 100.0%\n"));
        assert!(parse_table("no table", "x.md").unwrap_err().contains("no table rows"));
        assert!(
            parse_table("| Kernel | Run Host ID |\n|---|---|\n| Sender | x |\n", "y.md")
                .unwrap_err()
                .contains("not a number")
        );
    }
}
