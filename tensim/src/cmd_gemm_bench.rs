//! `tensim gemm-bench`: the GEMM TFLOPS benchmark's manually tuned matmuls (TTNN's 2-D multicast program on
//! the 8x8 grid), each timed as one op plus the launch of the next, as the benchmark's 100-op loop measures
//! it; with `--compare FILE.csv` each row is set against its measured time (trace-mode rows: the other rows
//! carry host dispatch time, which tensim does not model). Configurations run in parallel, one device each;
//! the output is the same with any number of workers.

use crate::chip_args::{ChipArgs, ParamArgs, setup_over, whole_u32};
use crate::error::{CliError, CliResult};
use crate::out::say;
use crate::outputs::{self, OutputPlan};
use crate::work::{self, Estimate};
use layout::ttnn::DataType;
use report::stats::stats_document;
use sim_device::{Arch, DeviceSetup};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use suites::gemm_bench::compare::{self, Measured};
use suites::gemm_bench::{Config, Filter, Timing, configs, time};

/// Options of `tensim gemm-bench`.
#[derive(clap::Args, Debug)]
pub struct GemmBenchArgs {
    /// List the configurations and exit.
    #[arg(long)]
    list: bool,
    #[command(flatten)]
    chip: ChipArgs,
    #[command(flatten)]
    params: ParamArgs,
    /// Only these configurations (ids of the benchmark table, e.g. M1,M7).
    #[arg(allow_hyphen_values = true, long, value_delimiter = ',', value_name = "ID,…")]
    ids: Vec<String>,
    /// Only this data type: bf16, bfp8_b or bfp4_b (with --compare: the CSV's types by default).
    #[arg(long, value_name = "DTYPE")]
    dtype: Option<String>,
    /// Only shapes whose largest dimension is at most this many elements.
    #[arg(allow_negative_numbers = true, long, value_parser = whole_u32, value_name = "N")]
    max_dim: Option<u32>,
    /// A measured CSV (the benchmark's report columns) to compare with.
    #[arg(long, value_name = "FILE.csv")]
    compare: Option<PathBuf>,
    /// Write machine-readable statistics (JSON; schema in the README).
    #[arg(long, value_name = "FILE.json")]
    stats: Option<PathBuf>,
    /// Host threads simulating configurations at once (default: the machine's cores).
    #[arg(allow_negative_numbers = true, long, value_parser = whole_u32, value_name = "N")]
    workers: Option<u32>,
    /// Run even when the work estimate is above the limits.
    #[arg(long)]
    allow_large: bool,
}

/// gemm-bench's own NoC model, under the user's `--set`/`--params`: the packet-level routers. With the
/// calendar model the rows whose in0 comes from DRAM run 15-25% fast (the routers' back-pressure on the
/// operand reads and multicasts); with the packet-level routers the whole bf16 table comes within 3.5%
/// median, 9.5% worst (README: GEMM benchmark).
const DEFAULT_NOC_MODEL: &str = "noc.model=packets";
const DEFAULT_ORIGIN: &str = "gemm-bench's default";

fn parse_dtype(s: &str) -> CliResult<DataType> {
    match s.to_ascii_lowercase().as_str() {
        "bf16" | "bfloat16" => Ok(DataType::Bf16),
        "bfp8_b" | "bfloat8_b" => Ok(DataType::Bfp8),
        "bfp4_b" | "bfloat4_b" => Ok(DataType::Bfp4),
        _ => Err(CliError::User(format!("--dtype {s}: use bf16, bfp8_b or bfp4_b"))),
    }
}

fn dtype_name(d: DataType) -> &'static str {
    match d {
        DataType::Bf16 => "bf16",
        DataType::Bfp8 => "bfp8_b",
        DataType::Bfp4 => "bfp4_b",
        _ => "?",
    }
}

/// The leading columns of a configuration's row: id, shape, data type, fidelity, in0 storage.
fn row_head(id: &str, mm: &programs::ops::matmul_2d_mcast::Matmul2d) -> String {
    format!(
        "{:<5} {:>6} {:>6} {:>6} {:<7} {:<6} {:<5}",
        id,
        mm.m,
        mm.k,
        mm.n,
        dtype_name(mm.dtype),
        format!("{:?}", mm.fidelity),
        if mm.in0_sharded { "L1" } else { "DRAM" }
    )
}

/// Calls of `matmul_block` the simulation makes (each covers a sub-block of products): its work unit.
fn block_calls(c: &Config) -> u64 {
    let p = &c.mm.program;
    c.mm.products_per_core() * 64 / (p.out_subblock_h * p.out_subblock_w) as u64
}

/// Bytes the NoC delivers in one run of `c`, and in how many packets (2 KiB tiles): in0 multicast along
/// each grid row, in1 along each column, the output written once (bfloat16 sizes: an estimate).
fn noc_traffic(c: &Config) -> (u64, u64) {
    let (m, k, n) = (u64::from(c.mm.m), u64::from(c.mm.k), u64::from(c.mm.n));
    let (gx, gy) = c.mm.program.grid;
    let bytes = 2 * (m * k * u64::from(gx) + k * n * u64::from(gy) + m * n);
    (bytes, bytes.div_ceil(2048))
}

/// Time `cfgs` on `workers` threads (largest first), results in `cfgs` order.
fn run_all(setup: &DeviceSetup, cfgs: &[Config], workers: usize) -> CliResult<Vec<Timing>> {
    let mut order: Vec<usize> = (0..cfgs.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(block_calls(&cfgs[i])));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Timing, String>>>> = Mutex::new(vec![None; cfgs.len()]);
    let bar = crate::out::progress(cfgs.len() as u64, "gemm-bench");
    std::thread::scope(|s| {
        for _ in 0..workers.max(1) {
            s.spawn(|| {
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&i) = order.get(n) else { break };
                    let r = setup
                        .open()
                        .and_then(|mut dev| time(&mut dev, &cfgs[i]))
                        .map_err(|e| format!("{}: {e}", cfgs[i].id));
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.into_iter().map(|r| r.unwrap_or_else(|| Err("not run".into())).map_err(CliError::User)).collect()
}

/// Run `tensim gemm-bench`.
pub fn run(a: &GemmBenchArgs) -> CliResult<ExitCode> {
    if a.workers == Some(0) {
        return Err(CliError::User("--workers 0: give at least 1 host thread".into()));
    }
    let measured: Option<Vec<Measured>> = match &a.compare {
        Some(p) => {
            crate::measured::must_exist(p, "measured GEMM csv", "--compare")?;
            let name = p.display().to_string();
            let text = soc_descriptors::input::read_text(p, "measured GEMM csv")?;
            Some(compare::parse(&name, &text).map_err(CliError::User)?)
        }
        None => None,
    };
    let dtype = a.dtype.as_deref().map(parse_dtype).transpose()?;
    let filter = Filter { ids: a.ids.clone(), dtype, max_dim: a.max_dim };
    let mut cfgs = configs(&filter)?;
    if let Some(m) = &measured {
        // Only the configurations the CSV measured.
        cfgs.retain(|c| {
            m.iter()
                .any(|r| r.shape == (c.mm.m, c.mm.k, c.mm.n) && r.dtype == c.mm.dtype && r.fidelity == c.mm.fidelity)
        });
    }
    if let Some(bad) = a.ids.iter().find(|i| !suites::gemm_bench::ROWS.iter().any(|r| r.0.eq_ignore_ascii_case(i))) {
        return Err(CliError::User(format!(
            "--ids {bad}: no such configuration (M1..M{})",
            suites::gemm_bench::ROWS.len()
        )));
    }
    if a.list {
        say!(
            "{:<5} {:>6} {:>6} {:>6} {:<7} {:<6} {:<5} {:>4} {:>7} {:>9} {:>8} {:>4}",
            "id",
            "m",
            "k",
            "n",
            "dtype",
            "fid",
            "in0",
            "ibw",
            "sub",
            "per_core",
            "out_blk",
            "nb"
        );
        for c in &cfgs {
            let p = &c.mm.program;
            say!(
                "{} {:>4} {:>7} {:>9} {:>8} {:>4}",
                row_head(c.id, &c.mm),
                p.in0_block_w,
                format!("{}x{}", p.out_subblock_h, p.out_subblock_w),
                format!("{}x{}", p.per_core_m, p.per_core_n),
                format!("{}x{}", p.out_block_h, p.out_block_w),
                c.mm.num_k_blocks()
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    if cfgs.is_empty() {
        return Err(CliError::User("no configuration matches the filters (see --list)".into()));
    }
    let setup = setup_over(&a.chip, &a.params, Some(Arch::WormholeB0), &[(DEFAULT_ORIGIN, DEFAULT_NOC_MODEL)])?;
    if setup.params.source("noc.model").is_some_and(|s| s.starts_with(DEFAULT_ORIGIN)) {
        say!(
            "noc.model = packets (gemm-bench's default: the rows that read an operand from DRAM are bound by the \
             routers' back-pressure, which the calendar model does not see; --set noc.model=calendar for it)"
        );
    }
    let arch = setup.open()?.arch();
    if measured.is_some() && arch != Arch::WormholeB0 {
        return Err(CliError::User(format!(
            "the GEMM benchmark was measured on a Wormhole n150 but this run is on {arch}; leave out --arch/--soc"
        )));
    }
    let calls: u64 = cfgs.iter().map(block_calls).sum();
    let grid = setup.chip.soc().grid;
    let router_flit_moves = cfgs
        .iter()
        .map(|c| {
            let (bytes, packets) = noc_traffic(c);
            work::router_flit_moves(&setup.params.noc, grid, bytes, packets)
        })
        .fold(0u64, u64::saturating_add);
    let estimate = Estimate { tile_ops: calls, router_flit_moves, ..Default::default() };
    work::check(estimate, "this gemm-bench run", a.allow_large)?;
    let mut plan = OutputPlan::new();
    let stats = a.stats.as_deref().map(|p| plan.add(p, outputs::STATS)).transpose()?;

    let workers =
        a.workers.map(|w| w as usize).unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let wall = std::time::Instant::now();
    let timings = run_all(&setup, &cfgs, workers)?;
    let wall = wall.elapsed().as_secs_f64();

    say!(
        "{:<5} {:>6} {:>6} {:>6} {:<7} {:<6} {:<5} {:>12} {:>10} {:>8} {:>6}{}",
        "id",
        "m",
        "k",
        "n",
        "dtype",
        "fid",
        "in0",
        "op cycles",
        "us/op",
        "TFLOP/s",
        "util",
        if measured.is_some() { format!(" {:>12} {:>8}", "measured us", "error") } else { String::new() }
    );
    let compared = measured.as_ref().map(|m| compare::compare(m, &timings));
    for t in &timings {
        let cmp = compared.as_ref().and_then(|c| c.iter().find(|r| r.id == t.id));
        say!(
            "{} {:>12} {:>10.1} {:>8.2} {:>5.1}%{}",
            row_head(t.id, &t.mm),
            t.op_cycles,
            t.time_ns() / 1000.0,
            t.tflops(),
            t.utilisation() * 100.0,
            match cmp {
                Some(c) => format!(" {:>12.1} {:>+7.1}%", c.measured.time_ns / 1000.0, c.error * 100.0),
                None if measured.is_some() => format!(" {:>12} {:>8}", "-", "-"),
                None => String::new(),
            }
        );
    }
    // Each note once, with the rows it came from.
    let mut notes: std::collections::BTreeMap<&str, Vec<String>> = std::collections::BTreeMap::new();
    for t in &timings {
        for n in &t.notes {
            notes.entry(n.as_str()).or_default().push(t.id.to_string());
        }
    }
    for (n, ids) in &notes {
        say!("note ({}): {n}", ids.join(", "));
    }
    say!(
        "times are one op plus dispatch.program_launch_cycles ({} cycles) for the launch of the next, at {} MHz",
        timings[0].launch_cycles,
        timings[0].clock_mhz
    );
    let simulated: u64 = timings.iter().map(|t| t.op_cycles).sum();
    say!(
        "simulated {} configurations, {} cycles, in {:.2} s wall ({:.2} M simulated cycles/s, {workers} workers)",
        timings.len(),
        simulated,
        wall,
        simulated as f64 / wall.max(1e-9) / 1e6
    );
    let mut summary = None;
    if let (Some(m), Some(c)) = (&measured, &compared) {
        let untimed = m.iter().filter(|r| !r.use_trace).count();
        if untimed > 0 {
            say!(
                "not modelled: host dispatch time; the {untimed} rows measured without a trace (use_trace=False) include it and are not compared"
            );
        }
        let (rows, median, worst) = compare::summary(c);
        say!("rows {rows}, median error {:.1}%, worst error {:.1}%", median * 100.0, worst * 100.0);
        summary = Some((rows, median, worst));
    }
    if let Some(id) = stats {
        let rows: Vec<serde_json::Value> = timings
            .iter()
            .map(|t| {
                let c = compared.as_ref().and_then(|c| c.iter().find(|r| r.id == t.id));
                serde_json::json!({
                    "id": t.id, "m": t.mm.m, "k": t.mm.k, "n": t.mm.n, "dtype": dtype_name(t.mm.dtype),
                    "fidelity": format!("{:?}", t.mm.fidelity), "in0_sharded": t.mm.in0_sharded,
                    "op_cycles": t.op_cycles, "time_ns": t.time_ns(), "tflops": t.tflops(),
                    "utilisation": t.utilisation(),
                    "measured_ns": c.map(|c| c.measured.time_ns), "error": c.map(|c| c.error),
                })
            })
            .collect();
        let mut fields = vec![
            ("noc_model", serde_json::Value::from(setup.params.noc.model.name())),
            ("rows", serde_json::Value::from(rows)),
        ];
        if let Some((rows, median, worst)) = summary {
            fields.push(("compare", serde_json::json!({"rows": rows, "median_error": median, "worst_error": worst})));
        }
        plan.commit(vec![(id, stats_document("gemm-bench", fields))])?;
    }
    Ok(ExitCode::SUCCESS)
}
