//! `tensim dm-bench`: run a data-movement suite (tt-metal's data_movement tests rebuilt on tensim), print
//! the table in tt-metal's layout, and with `--compare` match it against a measured table — after checking
//! that the table is the same test and was measured on the same chip. Sweep points run in parallel, one
//! device each; the table is identical to a serial run.

use crate::chip_args::{ChipArgs, ParamArgs, setup, whole_u32};
use crate::error::{CliError, CliResult};
use crate::outputs::{self, OutputPlan};
use crate::say;
use crate::work::{self, Estimate};
use clap::Args;
use kernels::dm_bench::{
    DEFAULT_COUNTS, Row, Suite, compare, default_sizes, format_table, parse_table, recognise, run_sweep, suites,
    sweep_packets, table_title,
};
use sim_device::report::stats::stats_document;
use sim_device::{Arch, Device, DeviceError};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The largest transaction size a sweep takes, bytes (the suites' L1 buffers hold one transaction).
pub const MAX_SIZE_BYTES: u32 = 65536;
/// The largest number of transactions per point.
pub const MAX_COUNT: u32 = 1_000_000;

/// Options of `tensim dm-bench`.
#[derive(Args, Debug)]
pub struct DmBenchArgs {
    /// The suite (see --list).
    #[arg(required_unless_present = "list")]
    suite: Option<String>,
    /// List the suites and their options.
    #[arg(long)]
    list: bool,
    #[command(flatten)]
    chip: ChipArgs,
    #[command(flatten)]
    params: ParamArgs,
    /// Grid of the one-to-all / all-to-all suites: RxC or full (an error if it does not fit the chip).
    #[arg(long, value_name = "RxC|full")]
    grid: Option<String>,
    /// Multicast: linked transactions.
    #[arg(long)]
    linked: bool,
    /// Multicast: the sender is also a destination.
    #[arg(long)]
    loopback: bool,
    /// Transaction sizes in bytes, 1..=65536 (default: one flit up to 64 KiB, doubling).
    #[arg(long, value_delimiter = ',', value_name = "S,S,…", value_parser = whole_u32)]
    sizes: Option<Vec<u32>>,
    /// Numbers of transactions, 1..=1000000 (default 1,4,16,64,256).
    #[arg(long, value_delimiter = ',', value_name = "N,N,…", value_parser = whole_u32)]
    counts: Option<Vec<u32>>,
    /// A measured table (tt-metal's markdown layout) to compare with.
    #[arg(long, value_name = "MEASURED.md")]
    compare: Option<PathBuf>,
    /// Write machine-readable statistics (JSON; schema in the README).
    #[arg(long, value_name = "FILE.json")]
    stats: Option<PathBuf>,
    /// Run even when the work estimate is above the limits.
    #[arg(long)]
    allow_large: bool,
}

fn check_values(flag: &str, v: &[u32], max: u32) -> CliResult<()> {
    match v.iter().find(|x| **x == 0 || **x > max) {
        Some(bad) => Err(CliError::User(format!("{flag}: {bad} is out of range; use 1..={max}"))),
        None if v.is_empty() => Err(CliError::User(format!("{flag}: give at least one value"))),
        None => Ok(()),
    }
}

/// The chip a measured table was taken on, when its path says (tt-metal keeps them per arch folder).
fn arch_in_path(p: &Path) -> Option<Arch> {
    let s = p.to_string_lossy().to_ascii_lowercase();
    [("blackhole", Arch::Blackhole), ("wormhole", Arch::WormholeB0), ("grayskull", Arch::Grayskull)]
        .into_iter()
        .find(|(n, _)| s.contains(n))
        .map(|(_, a)| a)
}

/// Read `path` and check it is a table of `suite`'s test measured on `dev`'s chip.
fn measured_table(path: &Path, suite: &Suite, dev: &Device) -> CliResult<Vec<Row>> {
    let name = path.display().to_string();
    let text = soc_descriptors::input::read_text(path, "measured table")?;
    let rows = parse_table(&text, &name)?;
    let title = table_title(&text).unwrap_or_default();
    let file = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    match recognise(&title, &file) {
        None => {
            return Err(CliError::User(format!(
                "{name}: cannot tell which test the table `{title}` measured; its first `# ` line should be a \
                 tt-metal data-movement title such as `One to One Packet Sizes`"
            )));
        }
        Some(id) => {
            let mismatch = id.kind != suite.kind
                || (suite.kind == kernels::dm_bench::SuiteKind::OneToAllMulticast && id.linked != suite.linked)
                || id.loopback.is_some_and(|l| l != suite.loopback);
            if mismatch {
                return Err(CliError::User(format!(
                    "{name}: the table measured `{title}`{}, not the suite run here ({}); compare it with the matching suite",
                    id.loopback.map(|l| if l { " with loopback" } else { " without loopback" }).unwrap_or(""),
                    suite.title()
                )));
            }
        }
    }
    if let Some(a) = arch_in_path(path).filter(|a| *a != dev.arch()) {
        return Err(CliError::User(format!(
            "{name}: the table was measured on {a} but this run is on {}; pass --arch {}",
            dev.arch(),
            a.name()
        )));
    }
    let flit = dev.params().noc.flit_bytes;
    if let Some(r) = rows.iter().find(|r| r.size < flit && r.size % 32 == 0) {
        return Err(CliError::User(format!(
            "{name}: the table has {}-byte transactions, smaller than a {}-byte {} flit: it was measured on another \
             chip; pass the matching --arch",
            r.size,
            flit,
            dev.arch()
        )));
    }
    Ok(rows)
}

/// Run `tensim dm-bench`.
pub fn run(a: &DmBenchArgs) -> CliResult<ExitCode> {
    if a.list {
        say!("data-movement suites (tensim dm-bench SUITE --arch A [options] [--compare MEASURED.md]):");
        for (name, opts, what) in suites() {
            say!("  {name:<22} {opts:<42} {what}");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let suite = Suite::parse(a.suite.as_deref().unwrap_or_default(), a.grid.as_deref(), a.linked, a.loopback)?;
    let setup = setup(&a.chip, &a.params, Some(Arch::WormholeB0))?;
    let dev = setup.open()?;
    let sizes = a.sizes.clone().unwrap_or_else(|| default_sizes(dev.params().noc.flit_bytes));
    let counts = a.counts.clone().unwrap_or_else(|| DEFAULT_COUNTS.to_vec());
    check_values("--sizes", &sizes, MAX_SIZE_BYTES)?;
    check_values("--counts", &counts, MAX_COUNT)?;
    let measured = a.compare.as_deref().map(|p| measured_table(p, &suite, &dev)).transpose()?;
    let packets = sweep_packets(&dev, &suite, &sizes, &counts)?;
    work::check(Estimate { packets, ..Default::default() }, &format!("the {} sweep", suite.title()), a.allow_large)?;
    let mut plan = OutputPlan::new();
    let stats = a.stats.as_deref().map(|p| plan.add(p, outputs::STATS)).transpose()?;

    let points = (sizes.len() * counts.len()) as u64;
    let bar = crate::out::progress(points, "dm-bench");
    let wall = std::time::Instant::now();
    let open = || -> Result<Device, DeviceError> { setup.open() };
    let rows = run_sweep(&open, &suite, &sizes, &counts, &|| bar.inc(1))?;
    bar.finish_and_clear();
    let secs = wall.elapsed().as_secs_f64();
    crate::out::text(&format_table(&format!("{} ({}, simulated)", suite.title(), dev.arch()), &rows))?;
    crate::note!("{} runs ({packets} NoC packets) in {secs:.3} s wall", rows.len());
    let comparison = match &measured {
        Some(m) => {
            let c = compare(&rows, m);
            if c.rows.is_empty() {
                return Err(CliError::User(
                    "no row of the measured table matches a simulated one (Kernel, Transaction Size, Number of \
                     Transactions)"
                        .into(),
                ));
            }
            say!();
            crate::out::text(&c.report())?;
            Some(c)
        }
        None => None,
    };
    if let Some(id) = stats {
        let rows_json: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "kernel": r.kernel, "run_host_id": r.run_host_id, "size": r.size, "count": r.count,
                    "latency": r.latency, "bandwidth": r.bandwidth,
                })
            })
            .collect();
        let mut fields = vec![
            ("suite", suite.title().into()),
            ("arch", dev.arch().to_string().into()),
            ("rows", serde_json::Value::Array(rows_json)),
        ];
        if let Some(c) = &comparison {
            fields.push((
                "compare",
                serde_json::json!({"rows": c.rows.len(), "median_error": c.median, "worst_error": c.worst}),
            ));
        }
        plan.commit(vec![(id, stats_document("dm-bench", fields))])?;
    }
    Ok(ExitCode::SUCCESS)
}
