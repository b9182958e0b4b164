//! `tensim dm-bench`: run a data-movement suite (tt-metal's data_movement tests rebuilt on tensim), print
//! the table in tt-metal's layout, and with `--compare` match it against a measured table.

use crate::chip_args::ChipArgs;
use crate::cmd_run::open_device;
use clap::Args;
use kernels::dm_bench::{DEFAULT_COUNTS, Suite, compare, default_sizes, format_table, parse_table, run_sweep, suites};
use std::path::PathBuf;
use std::process::ExitCode;

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
    /// Grid of the one-to-all / all-to-all suites: RxC or full.
    #[arg(long, value_name = "RxC|full")]
    grid: Option<String>,
    /// Multicast: linked transactions.
    #[arg(long)]
    linked: bool,
    /// Multicast: the sender is also a destination.
    #[arg(long)]
    loopback: bool,
    /// Transaction sizes in bytes (default: one flit up to 64 KiB, doubling).
    #[arg(long, value_delimiter = ',', value_name = "S,S,…")]
    sizes: Option<Vec<u32>>,
    /// Numbers of transactions (default 1,4,16,64,256).
    #[arg(long, value_delimiter = ',', value_name = "N,N,…")]
    counts: Option<Vec<u32>>,
    /// A measured table (tt-metal's markdown layout) to compare with.
    #[arg(long, value_name = "MEASURED.md")]
    compare: Option<PathBuf>,
    /// Override a parameter (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// A YAML file of parameter overrides.
    #[arg(long, value_name = "FILE")]
    params: Option<PathBuf>,
}

/// Run `tensim dm-bench`.
pub fn run(a: &DmBenchArgs) -> Result<ExitCode, String> {
    if a.list {
        println!("data-movement suites (tensim dm-bench SUITE --arch A [options] [--compare MEASURED.md]):");
        for (name, opts, what) in suites() {
            println!("  {name:<22} {opts:<42} {what}");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let suite = Suite::parse(a.suite.as_deref().unwrap_or_default(), a.grid.as_deref(), a.linked, a.loopback)?;
    let measured = match &a.compare {
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| format!("{}: cannot read: {e}", p.display()))?;
            Some(parse_table(&text, &p.display().to_string())?)
        }
        None => None,
    };
    let mut dev = open_device(&a.chip, &a.set, &a.params)?;
    let sizes = a.sizes.clone().unwrap_or_else(|| default_sizes(dev.params().noc.flit_bytes));
    let counts = a.counts.clone().unwrap_or_else(|| DEFAULT_COUNTS.to_vec());
    if sizes.iter().chain(&counts).any(|v| *v == 0) {
        return Err("--sizes and --counts must be positive".into());
    }
    let wall = std::time::Instant::now();
    let rows = run_sweep(&mut dev, &suite, &sizes, &counts).map_err(|e| e.to_string())?;
    let secs = wall.elapsed().as_secs_f64();
    print!("{}", format_table(&format!("{} ({}, simulated)", suite.title(), dev.arch()), &rows));
    eprintln!("{} runs in {secs:.3} s wall", rows.len());
    if let Some(m) = measured {
        let c = compare(&rows, &m);
        if c.rows.is_empty() {
            return Err("no row of the measured table matches a simulated one (Kernel, Transaction Size, Number of Transactions)".into());
        }
        println!();
        print!("{}", c.report());
    }
    Ok(ExitCode::SUCCESS)
}
