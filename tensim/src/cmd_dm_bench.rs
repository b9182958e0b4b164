//! `tensim dm-bench`: run one of tt-metal's data-movement tests rebuilt on tensim and print its table in
//! tt-metal's layout; `--compare TABLE.md` recognises the test a measured table is from its title and file
//! name and compares row by row, `--compare DIR` does that for every table of a folder and ends with a
//! summary line per file and an overall one. Sweep points run in parallel, one device each; the tables are
//! identical to a serial run.

use crate::chip_args::{ChipArgs, ParamArgs, parse_dispatch, setup, whole_u32, whole_u64};
use crate::error::{CliError, CliResult};
use crate::out::say;
use crate::outputs::{self, OutputPlan};
use crate::work::{self, Estimate};
use clap::Args;
use report::stats::stats_document;
use sim_device::{Arch, Device, DeviceError, DeviceSetup, DispatchMode};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use suites::dm_bench::{
    Comparison, DEFAULT_COUNTS, Point, Row, Suite, SuiteArgs, compare, default_sizes, format_table, parse_table,
    points, recognise, run_points, suites, sweep_work, table_harvest, table_title,
};

/// The largest transaction size a sweep takes, bytes (the tests' L1 regions hold one transaction).
pub const MAX_SIZE_BYTES: u32 = 65536;
/// The largest number of transactions per point.
pub const MAX_COUNT: u32 = 1_000_000;

/// Options of `tensim dm-bench`.
#[derive(Args, Debug)]
pub struct DmBenchArgs {
    /// The suite (see --list); optional with --compare, which recognises the test from the table.
    suite: Option<String>,
    /// List the suites and their options.
    #[arg(long)]
    list: bool,
    #[command(flatten)]
    chip: ChipArgs,
    #[command(flatten)]
    params: ParamArgs,
    /// How each point is launched: slow (the default: tt-metal's data-movement tables are measured with
    /// TT_METAL_SLOW_DISPATCH_MODE=1, which starts the cores one after another) or fast (every core at once).
    #[arg(long, default_value = "slow", value_parser = parse_dispatch, value_name = "fast|slow")]
    dispatch: DispatchMode,
    /// Grid of the one-to-all / one-from-all / all-to-all suites: RxC or full (an error if it does not fit).
    #[arg(allow_hyphen_values = true, long, value_name = "RxC|full")]
    grid: Option<String>,
    /// Multicast: linked transactions.
    #[arg(long)]
    linked: bool,
    /// One-to-all: the master is also a destination.
    #[arg(long)]
    loopback: bool,
    /// All to all: the writes of each pair go round-robin over N VC numbers, 1..=4 (tt-metal's num_vcs; default 1).
    #[arg(allow_negative_numbers = true, long, value_name = "N", value_parser = whole_u32)]
    vcs: Option<u32>,
    /// All to all, all from all: the NoC the kernels use, 0 or 1 (default: the test's, NoC0 for writes, NoC1 for reads).
    #[arg(allow_negative_numbers = true, long, value_name = "0|1", value_parser = whole_u32)]
    noc: Option<u32>,
    /// DRAM sharded read: the DRAM banks the buffer is sharded over, 1..=the chip's (default: every bank).
    #[arg(allow_negative_numbers = true, long, value_name = "N", value_parser = whole_u32)]
    banks: Option<u32>,
    /// Bytes per transaction, 1..=65536 (default: one flit up to 64 KiB, doubling).
    #[arg(allow_negative_numbers = true, long, value_delimiter = ',', value_name = "S,S,…", value_parser = whole_u32)]
    sizes: Option<Vec<u32>>,
    /// Numbers of transactions (per peer), 1..=1000000 (default 1,4,16,64,256).
    #[arg(allow_negative_numbers = true, long, value_delimiter = ',', value_name = "N,N,…", value_parser = whole_u32)]
    counts: Option<Vec<u32>>,
    /// A measured table (tt-metal's markdown layout) or a folder of them to compare with.
    #[arg(long, value_name = "TABLE.md|DIR")]
    compare: Option<PathBuf>,
    /// With --compare: run and compare only the rows the table measured at CYCLES or fewer (how a slow NoC
    /// model gets through tables whose longest rows would take it hours).
    #[arg(allow_negative_numbers = true, long, value_name = "CYCLES", value_parser = whole_u64)]
    max_measured_cycles: Option<u64>,
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

/// A measured table: its rows and the test it is.
struct Measured {
    name: String,
    rows: Vec<Row>,
    suite: Suite,
}

/// Read `path`, recognise its test and check it was measured on `dev`'s chip.
fn measured_table(path: &Path, dev: &Device) -> CliResult<Measured> {
    let name = path.display().to_string();
    let text = soc_descriptors::input::read_text(path, "measured table")?;
    let rows = parse_table(&text, &name)?;
    let title = table_title(&text).unwrap_or_default();
    let file = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    let Some(id) = recognise(&title, &file) else {
        return Err(CliError::User(format!(
            "{name}: cannot tell which test the table `{title}` measured; its first `# ` line should be a tt-metal \
             data-movement title such as `One to One Packet Sizes`"
        )));
    };
    let mut suite = id.suite;
    if !id.loopback_known {
        // A one-to-all table that does not say: the unicast Size tells how many destinations there were.
        suite.loopback = false;
        let without = suite.peers(dev)?;
        suite.loopback = rows.first().is_some_and(|r| {
            let flit = dev.params().noc.flit_bytes;
            without > 0
                && r.size % flit == 0
                && r.size / flit > without
                && suite.kind == suites::dm_bench::SuiteKind::OneToAllUnicast
        });
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
    Ok(Measured { name, rows, suite })
}

/// The sweep that reproduces a measured table's rows: per-transaction sizes (Size ÷ peers) and counts.
fn sweep_of(m: &Measured, dev: &Device) -> CliResult<(Vec<u32>, Vec<u32>)> {
    let peers = m.suite.peers(dev)?;
    let mut sizes: Vec<u32> = Vec::new();
    let mut counts: Vec<u32> = Vec::new();
    for r in &m.rows {
        if r.size % peers != 0 {
            return Err(CliError::User(format!(
                "{}: row {} has Transaction Size {}, not a multiple of the {peers} peers of {}",
                m.name,
                r.run_host_id,
                r.size,
                m.suite.title()
            )));
        }
        let s = r.size / peers;
        if !sizes.contains(&s) {
            sizes.push(s);
        }
        if !counts.contains(&r.count) {
            counts.push(r.count);
        }
    }
    check_values(&format!("{}: sizes", m.name), &sizes, MAX_SIZE_BYTES)?;
    check_values(&format!("{}: counts", m.name), &counts, MAX_COUNT)?;
    Ok((sizes, counts))
}

/// The points of `sizes` × `counts` whose row in `m` was measured at `max` cycles or fewer (all of them
/// without `max`; possibly none).
fn measured_points(
    m: &Measured,
    dev: &Device,
    sizes: &[u32],
    counts: &[u32],
    max: Option<u64>,
) -> CliResult<Vec<Point>> {
    let all = points(sizes, counts);
    let Some(max) = max else { return Ok(all) };
    let peers = m.suite.peers(dev)?;
    let kept: Vec<_> = all
        .into_iter()
        .filter(|&(_, s, n)| {
            m.rows.iter().any(|r| {
                u64::from(r.size) == u64::from(s) * u64::from(peers) && r.count == n && r.latency <= max as f64
            })
        })
        .collect();
    Ok(kept)
}

/// The cycles of `m`'s shortest row.
fn shortest_row(m: &Measured) -> f64 {
    m.rows.iter().map(|r| r.latency).fold(f64::INFINITY, f64::min)
}

/// The device setup: the chip asked for, as the card tt-metal's tables were measured on unless `--harvest`
/// says otherwise (a Blackhole with two harvested Tensix columns: an 11x10 compute grid).
fn bench_setup(a: &DmBenchArgs) -> CliResult<DeviceSetup> {
    let mut chip = a.chip.clone();
    if chip.harvest.is_none() {
        let arch = match (&chip.soc, chip.arch) {
            (Some(_), _) => chip.spec(None)?.load()?.arch(),
            (None, a) => a.unwrap_or(Arch::WormholeB0),
        };
        chip.harvest = table_harvest(arch);
    }
    let mut s = setup(&chip, &a.params, Some(Arch::WormholeB0))?;
    s.dispatch = a.dispatch;
    Ok(s)
}

fn rows_json(rows: &[Row]) -> serde_json::Value {
    rows.iter()
        .map(|r| {
            serde_json::json!({
                "kernel": r.kernel, "run_host_id": r.run_host_id, "size": r.size, "count": r.count,
                "latency": r.latency, "bandwidth": r.bandwidth, "backpressure": r.backpressure,
                "stalled_per_tile": r.stalled_per_tile, "run_cycles": r.run_cycles.0, "hol_cycles": r.hol_cycles,
            })
        })
        .collect()
}

fn summary_json(c: &Comparison) -> serde_json::Value {
    let matched: Vec<serde_json::Value> = c
        .rows
        .iter()
        .map(|(sim, m, e)| {
            serde_json::json!({"kernel": sim.kernel, "size": sim.size, "count": sim.count,
                "simulated_cycles": sim.latency, "measured_cycles": m.latency, "error": e})
        })
        .collect();
    serde_json::json!({"rows": c.rows.len(), "median_error": c.median, "worst_error": c.worst, "matched": matched})
}

/// What `--max-measured-cycles` left out of a comparison (empty without it).
fn filtered(max: Option<u64>, compared: usize, measured: usize) -> String {
    match max {
        Some(max) => format!(" (only the rows measured at {max} cycles or fewer: {compared} of {measured})"),
        None => String::new(),
    }
}

/// Run `suite` over the points `pts` (see [`points`]) with a progress bar.
fn sweep(setup: &DeviceSetup, suite: &Suite, pts: &[Point], allow_large: bool) -> CliResult<(Vec<Row>, u64, f64)> {
    let dev = setup.open()?;
    let (packets, bytes) = sweep_work(&dev, suite, pts)?;
    let router_flit_moves = work::router_flit_moves(&dev.params().noc, dev.chip().soc().grid, bytes, packets);
    let estimate = Estimate { packets, router_flit_moves, ..Default::default() };
    work::check(estimate, &format!("the {} sweep", suite.title()), allow_large)?;
    let bar = crate::out::progress(pts.len() as u64, "dm-bench");
    let wall = std::time::Instant::now();
    let open = || -> Result<Device, DeviceError> { setup.open() };
    let rows = run_points(&open, suite, pts, &|| bar.inc(1))?;
    bar.finish_and_clear();
    Ok((rows, packets, wall.elapsed().as_secs_f64()))
}

/// Run `tensim dm-bench`.
pub fn run(a: &DmBenchArgs) -> CliResult<ExitCode> {
    if a.list {
        say!("data-movement suites (tensim dm-bench SUITE --arch A [options] [--compare TABLE.md|DIR]):");
        for (name, opts, what) in suites() {
            let opts: Vec<String> = opts
                .iter()
                .map(|(o, v)| if v.is_empty() { format!("[--{o}]") } else { format!("[--{o} {v}]") })
                .collect();
            let opts = opts.join(" ");
            say!("  {name:<30} {opts:<42} {what}");
        }
        return Ok(ExitCode::SUCCESS);
    }
    if a.max_measured_cycles.is_some() && a.compare.is_none() {
        return Err(CliError::User(
            "--max-measured-cycles chooses rows of a measured table: give it with --compare TABLE.md|DIR".into(),
        ));
    }
    if a.max_measured_cycles == Some(0) {
        return Err(CliError::User(
            "--max-measured-cycles: 0 keeps no row; give the longest measured row to run, in cycles".into(),
        ));
    }
    let setup = bench_setup(a)?;
    let dev = setup.open()?;
    let mut plan = OutputPlan::new();
    let stats = a.stats.as_deref().map(|p| plan.add(p, outputs::STATS)).transpose()?;
    if let Some(p) = a.compare.as_deref() {
        crate::measured::must_exist(p, "measured table or folder of tables", "--compare")?;
    }
    if let Some(dir) = a.compare.as_deref().filter(|p| p.is_dir()) {
        return compare_dir(a, &setup, &dev, dir, plan, stats);
    }
    let measured = a.compare.as_deref().map(|p| measured_table(p, &dev)).transpose()?;
    let suite = match (a.suite.as_deref(), &measured) {
        (Some(name), m) => {
            let args = SuiteArgs {
                grid: a.grid.as_deref(),
                linked: a.linked,
                loopback: a.loopback,
                vcs: a.vcs,
                noc: a.noc,
                banks: a.banks,
            };
            let s = Suite::parse(name, &args)?;
            if let Some(m) = m
                && m.suite != s
            {
                return Err(CliError::User(format!(
                    "{}: the table measured `{}`, not the suite run here (`{}`); leave out the suite name to run the table's own test",
                    m.name,
                    m.suite.title(),
                    s.title()
                )));
            }
            s
        }
        (None, Some(m)) => {
            if a.grid.is_some() || a.linked || a.loopback || a.vcs.is_some() || a.noc.is_some() || a.banks.is_some() {
                return Err(CliError::User(
                    "--grid, --linked, --loopback, --vcs, --noc and --banks choose a suite; with --compare and no suite name the table's own test is run".into(),
                ));
            }
            m.suite
        }
        (None, None) => return Err(CliError::User("name a suite (see --list) or give --compare TABLE.md|DIR".into())),
    };
    suite.check_fits(&dev)?;
    let (mut sizes, mut counts) = match &measured {
        Some(m) => sweep_of(m, &dev)?,
        None => (default_sizes(dev.params().noc.flit_bytes), DEFAULT_COUNTS.to_vec()),
    };
    if let Some(s) = &a.sizes {
        sizes = s.clone();
    }
    if let Some(c) = &a.counts {
        counts = c.clone();
    }
    check_values("--sizes", &sizes, MAX_SIZE_BYTES)?;
    check_values("--counts", &counts, MAX_COUNT)?;
    let pts = match &measured {
        Some(m) => {
            let pts = measured_points(m, &dev, &sizes, &counts, a.max_measured_cycles)?;
            if pts.is_empty() {
                return Err(CliError::User(format!(
                    "{}: no row was measured at {} cycles or fewer (the shortest took {}); raise --max-measured-cycles",
                    m.name,
                    a.max_measured_cycles.unwrap_or(0),
                    shortest_row(m)
                )));
            }
            pts
        }
        None => points(&sizes, &counts),
    };
    let (rows, packets, secs) = sweep(&setup, &suite, &pts, a.allow_large)?;
    crate::out::text(&format_table(&format!("{} ({}, simulated)", suite.title(), dev.arch()), &rows))?;
    // A point with two labels (Sender and Receiver) is one run, its rows adjacent: count it once.
    let (mut runs, mut run_cycles) = (0usize, 0u64);
    for (i, r) in rows.iter().enumerate() {
        if i == 0 || rows[i - 1].run_host_id != r.run_host_id {
            runs += 1;
            run_cycles = run_cycles.saturating_add(r.run_cycles.0);
        }
    }
    crate::out::note!(
        "{runs} runs ({packets} NoC packets, {run_cycles} simulated cycles) in {secs:.3} s wall ({:.1} M simulated cycles/s)",
        run_cycles as f64 / secs.max(1e-9) / 1e6
    );
    let marked: Vec<String> =
        rows.iter().filter(|r| r.backpressure).map(|r| format!("{} x {}", r.size, r.count)).collect();
    if !marked.is_empty() {
        say!(
            "not modelled: wormhole back-pressure in {} of {} rows (Transaction Size x Number of Transactions: {}): \
             their runs stalled packets behind other destinations' backlogs beyond router buffering, so their \
             cycles are optimistic (--set noc.model=router models the routers' buffers and arbitration, far more slowly)",
            marked.len(),
            rows.len(),
            marked.join(", ")
        );
    }
    if let Some(n) = suite.not_modelled(setup.params.noc.model.is_router_level()) {
        say!("{n}");
    }
    let comparison = match &measured {
        Some(m) => {
            let c = compare(&rows, &m.rows);
            if c.rows.is_empty() {
                return Err(CliError::User(
                    "no row of the measured table matches a simulated one (Kernel, Transaction Size, Number of Transactions)".into(),
                ));
            }
            say!();
            crate::out::text(&c.report())?;
            let note = filtered(a.max_measured_cycles, c.rows.len(), m.rows.len());
            if !note.is_empty() {
                say!("{}", note.trim_start());
            }
            Some(c)
        }
        None => None,
    };
    if let Some(id) = stats {
        let mut fields =
            vec![("suite", suite.title().into()), ("arch", dev.arch().to_string().into()), ("rows", rows_json(&rows))];
        if let Some(c) = &comparison {
            fields.push(("compare", summary_json(c)));
        }
        plan.commit(vec![(id, stats_document("dm-bench", fields))])?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `--compare DIR`: every table of the folder against its own test.
fn compare_dir(
    a: &DmBenchArgs,
    setup: &DeviceSetup,
    dev: &Device,
    dir: &Path,
    plan: OutputPlan,
    stats: Option<crate::outputs::OutputId>,
) -> CliResult<ExitCode> {
    if a.suite.is_some()
        || a.grid.is_some()
        || a.linked
        || a.loopback
        || a.vcs.is_some()
        || a.noc.is_some()
        || a.banks.is_some()
        || a.sizes.is_some()
        || a.counts.is_some()
    {
        return Err(CliError::User(
            "--compare DIR runs each table's own test: leave out the suite name, --grid, --linked, --loopback, --vcs, --noc, --banks, --sizes and --counts".into(),
        ));
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| CliError::User(format!("{}: {}", dir.display(), soc_descriptors::input::io_reason(&e))))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(CliError::User(format!("{}: no .md tables in the folder", dir.display())));
    }
    let mut all_errors = Vec::new();
    let mut per_file = Vec::new();
    for f in &files {
        let m = measured_table(f, dev)?;
        let (sizes, counts) = sweep_of(&m, dev)?;
        let file = f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let pts = measured_points(&m, dev, &sizes, &counts, a.max_measured_cycles)?;
        if pts.is_empty() {
            say!(
                "{file}: no row measured at {} cycles or fewer (the shortest took {}); skipped",
                a.max_measured_cycles.unwrap_or(0),
                shortest_row(&m)
            );
            continue;
        }
        let (rows, _, _) = sweep(setup, &m.suite, &pts, a.allow_large)?;
        let c = compare(&rows, &m.rows);
        say!(
            "{file}: rows {}, median error {:.1}%, worst error {:.1}%{}",
            c.rows.len(),
            c.median * 100.0,
            c.worst * 100.0,
            filtered(a.max_measured_cycles, c.rows.len(), m.rows.len())
        );
        if let Some(line) = c.backpressure_line() {
            say!("  {line}");
        }
        if let Some(n) = m.suite.not_modelled(setup.params.noc.model.is_router_level()) {
            say!("  {n}");
        }
        all_errors.extend(c.rows.iter().map(|r| r.2.abs()));
        per_file.push((file, m.suite, c));
    }
    if all_errors.is_empty() {
        return Err(CliError::User(format!(
            "{}: no table has a row measured at --max-measured-cycles or fewer; raise it",
            dir.display()
        )));
    }
    let mut errs = all_errors.clone();
    let median = programs::golden::median(&mut errs);
    let worst = errs.last().copied().unwrap_or(0.0);
    say!("overall: rows {}, median error {:.1}%, worst error {:.1}%", all_errors.len(), median * 100.0, worst * 100.0);
    if let Some(id) = stats {
        let files: Vec<serde_json::Value> = per_file
            .iter()
            .map(|(f, s, c)| {
                let mut v = summary_json(c);
                v["file"] = f.clone().into();
                v["suite"] = s.title().into();
                v
            })
            .collect();
        let fields = vec![
            ("arch", dev.arch().to_string().into()),
            ("files", serde_json::Value::Array(files)),
            ("compare", serde_json::json!({"rows": all_errors.len(), "median_error": median, "worst_error": worst})),
        ];
        plan.commit(vec![(id, stats_document("dm-bench", fields))])?;
    }
    Ok(ExitCode::SUCCESS)
}
