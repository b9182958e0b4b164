//! `tensim run`: run a built-in example program, check it against its CPU reference, and print PASS/FAIL,
//! cycles (and µs at the arch clock), per core and RISC busy and blocked cycles; optionally write a Chrome
//! trace, a NoC heatmap, a tt-npe timeline, stats JSON and the allocator's memory reports. Every option is
//! checked (and every output path planned) before the simulation starts.

pub(crate) mod collectives;

use crate::chip_args::{ChipArgs, ParamArgs, parse_dispatch, setup, whole_u32, whole_u64};
use crate::error::{CliError, CliResult};
use crate::out::say;
use crate::outputs::{self, OutputId, OutputPlan};
use crate::work::{self, Estimate};
use clap::Args;
use programs::{ExampleOptions, find, list};
use report::stats::stats_document;
use sim_device::{Device, DispatchMode, MathFidelity, RunReport};
use soc_descriptors::Arch;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `tensim run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// The program to run (see --list).
    #[arg(required_unless_present = "list")]
    pub(crate) example: Option<String>,
    /// List the programs and the options each takes.
    #[arg(long)]
    list: bool,
    #[command(flatten)]
    pub(crate) chip: ChipArgs,
    #[command(flatten)]
    pub(crate) params: ParamArgs,
    /// How the program is launched (default fast): fast (command queues; every core starts at once) or slow
    /// (TT_METAL_SLOW_DISPATCH_MODE: the host starts the cores one after another).
    #[arg(long, value_parser = parse_dispatch, value_name = "fast|slow")]
    dispatch: Option<DispatchMode>,
    #[arg(long, allow_hyphen_values = true, value_name = "off|auto|always", value_parser = crate::chip_args::parse_router_check,
          long_help = crate::chip_args::ROUTER_CHECK_HELP, help = "Check runs that stall packets beyond the routers' buffers on the router-level NoC model: auto (default), always or off")]
    pub(crate) router_check: Option<crate::chip_args::RouterCheckLimit>,
    /// Write a Chrome/Perfetto trace of the run.
    #[arg(long, value_name = "FILE.json")]
    pub(crate) trace: Option<PathBuf>,
    /// Write a NoC link-utilisation heatmap (SVG).
    #[arg(long, value_name = "FILE.svg")]
    pub(crate) noc_heatmap: Option<PathBuf>,
    /// Write the run as a tt-npe timeline v1.0.0 (JSON, opens in ttnn-visualizer).
    #[arg(long, value_name = "FILE.json")]
    pub(crate) npe_timeline: Option<PathBuf>,
    /// Write machine-readable statistics (JSON; schema in the README).
    #[arg(long, value_name = "FILE.json")]
    pub(crate) stats: Option<PathBuf>,
    /// Write the allocator's memory reports (three CSV files) into this folder (created if missing).
    #[arg(long, value_name = "DIR")]
    pub(crate) memory_report: Option<PathBuf>,
    /// Seed of the input data.
    #[arg(allow_negative_numbers = true, long, default_value_t = 0x7e5, value_parser = whole_u64)]
    pub(crate) seed: u64,
    /// Problem size of the program (tiles, elements…; --list says what it means for each).
    #[arg(allow_negative_numbers = true, long, value_parser = whole_u32)]
    pub(crate) size: Option<u32>,
    /// Matmul M / softmax height, elements (a multiple of 32).
    #[arg(allow_negative_numbers = true, long, value_parser = whole_u32)]
    pub(crate) m: Option<u32>,
    /// Matmul N / softmax width, elements (a multiple of 32).
    #[arg(allow_negative_numbers = true, long, value_parser = whole_u32)]
    pub(crate) n: Option<u32>,
    /// Matmul K, elements (a multiple of 32).
    #[arg(allow_negative_numbers = true, long, value_parser = whole_u32)]
    pub(crate) k: Option<u32>,
    /// Math fidelity of the compute kernels: LoFi, HiFi2, HiFi3 or HiFi4.
    #[arg(long, value_parser = parse_fidelity)]
    pub(crate) fidelity: Option<MathFidelity>,
    /// Layout ops: where the input lives — MEMORY:KIND[:RxC[:row|col]], e.g. dram:interleaved,
    /// l1:height:8x1, l1:block:4x4:col.
    #[arg(allow_hyphen_values = true, long, value_name = "SPEC")]
    pub(crate) from: Option<String>,
    /// Layout ops: where the output goes (same syntax as --from).
    #[arg(allow_hyphen_values = true, long, value_name = "SPEC")]
    pub(crate) to: Option<String>,
    /// Layout ops: the tensor shape, e.g. 2x1024x512.
    #[arg(allow_hyphen_values = true, long, value_name = "SHAPE")]
    pub(crate) shape: Option<String>,
    /// Layout ops: tile (default) or row_major pages.
    #[arg(allow_hyphen_values = true, long, value_name = "PAGE")]
    pub(crate) page: Option<String>,
    /// Ops: the tensors' data type: bf16, bfp8_b or bfp4_b.
    #[arg(long, value_name = "DTYPE")]
    pub(crate) dtype: Option<String>,
    /// Matmuls: compare every output element with the CPU reference (full, the default), a deterministic
    /// sample of 64 output tiles (sample), or nothing (off: the run prints UNCHECKED, not PASS).
    #[arg(long, value_name = "full|sample|off", value_parser = parse_check)]
    pub(crate) check: Option<programs::CheckMode>,
    /// List every core's kernels in the summary (by default runs on more than 8 cores are summarised per
    /// kernel and RISC).
    #[arg(long)]
    per_core: bool,
    /// Run even when the work estimate is above the limits.
    #[arg(long)]
    pub(crate) allow_large: bool,
    /// Print the work estimate (simulated work and peak host memory) and stop without simulating.
    #[arg(long)]
    pub(crate) estimate: bool,
    /// Collectives: the system (a built-in name; default t3000).
    #[arg(long, value_name = "NAME", conflicts_with = "cluster")]
    pub(crate) system: Option<String>,
    /// Collectives: a cluster descriptor file instead of a built-in system.
    #[arg(long, value_name = "FILE")]
    pub(crate) cluster: Option<PathBuf>,
    /// Collectives: devices on the line (default: every chip of the system).
    #[arg(allow_negative_numbers = true, long, value_parser = whole_u32)]
    pub(crate) devices: Option<u32>,
    /// Collectives: line or ring.
    #[arg(long, value_name = "line|ring")]
    pub(crate) topology: Option<String>,
    /// Collectives: the gather dimension of the 4-D tensor.
    #[arg(allow_negative_numbers = true, long, value_parser = whole_u32)]
    pub(crate) dim: Option<u32>,
    /// Collectives: routing planes (Ethernet links between each pair of neighbours) used per direction, one
    /// worker (all_gather) or pair of direction cores (reduce_scatter) each, as ttnn's num_links (default 1;
    /// at most the links every hop has).
    #[arg(allow_negative_numbers = true, long, value_name = "N", value_parser = whole_u32)]
    pub(crate) links: Option<u32>,
    /// Collectives: host threads simulating chips, 1 to 256 (default: the processors idle at the start, at least 1; results do not depend on it).
    #[arg(allow_negative_numbers = true, long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub(crate) workers: Option<u32>,
}

impl RunArgs {
    /// The options a collective does not take are errors, not ignored.
    pub(crate) fn reject_for_collectives(&self, name: &str) -> CliResult<()> {
        let given: [(&str, bool); 16] = [
            ("--npe-timeline", self.npe_timeline.is_some()),
            ("--router-check", self.router_check.is_some()),
            ("--per-core", self.per_core),
            ("--dispatch", self.dispatch.is_some()),
            ("--memory-report", self.memory_report.is_some()),
            ("--size", self.size.is_some()),
            ("--m", self.m.is_some()),
            ("--n", self.n.is_some()),
            ("--k", self.k.is_some()),
            ("--fidelity", self.fidelity.is_some()),
            ("--from", self.from.is_some()),
            ("--to", self.to.is_some()),
            ("--page", self.page.is_some()),
            ("--dtype", self.dtype.is_some()),
            ("--check", self.check.is_some()),
            (
                "--arch/--soc/--harvest",
                self.chip.arch.is_some() || self.chip.soc.is_some() || self.chip.harvest.is_some(),
            ),
        ];
        if let Some((opt, _)) = given.iter().find(|g| g.1) {
            return Err(CliError::User(format!(
                "{opt} is not an option of `{name}` (it takes --system/--cluster, --devices, --topology, --shape, --dim, --links, --workers, --seed, --set/--params, --trace, --stats, --noc-heatmap)"
            )));
        }
        Ok(())
    }

    fn reject_collective_options(&self, name: &str) -> CliResult<()> {
        let given = [
            ("--system", self.system.is_some()),
            ("--cluster", self.cluster.is_some()),
            ("--devices", self.devices.is_some()),
            ("--topology", self.topology.is_some()),
            ("--dim", self.dim.is_some()),
            ("--links", self.links.is_some()),
            ("--workers", self.workers.is_some()),
        ];
        if let Some((opt, _)) = given.iter().find(|g| g.1) {
            return Err(CliError::User(format!(
                "{opt} is an option of the collectives (all_gather, reduce_scatter, all_reduce), not of `{name}`"
            )));
        }
        Ok(())
    }
}

fn parse_fidelity(s: &str) -> Result<MathFidelity, String> {
    match s.to_ascii_lowercase().as_str() {
        "lofi" => Ok(MathFidelity::LoFi),
        "hifi2" => Ok(MathFidelity::HiFi2),
        "hifi3" => Ok(MathFidelity::HiFi3),
        "hifi4" => Ok(MathFidelity::HiFi4),
        _ => Err(format!("`{s}` is not a math fidelity; use LoFi, HiFi2, HiFi3 or HiFi4")),
    }
}

/// The NoC outputs a command may write for one run, planned up front.
#[derive(Default)]
pub struct NocOutputs {
    heatmap: Option<OutputId>,
    timeline: Option<OutputId>,
}

impl NocOutputs {
    /// Plan `--noc-heatmap` and `--npe-timeline`.
    pub fn plan(plan: &mut OutputPlan, heatmap: &Option<PathBuf>, timeline: &Option<PathBuf>) -> CliResult<Self> {
        Ok(NocOutputs {
            heatmap: heatmap.as_deref().map(|p| plan.add(p, outputs::HEATMAP)).transpose()?,
            timeline: timeline.as_deref().map(|p| plan.add(p, outputs::TIMELINE)).transpose()?,
        })
    }

    /// Whether the run must keep per-packet records.
    pub fn needs_records(&self) -> bool {
        self.timeline.is_some()
    }

    /// Their contents for `r`.
    pub fn contents(&self, dev: &Device, r: &RunReport) -> Vec<(OutputId, String)> {
        let mut v = Vec::new();
        if let Some(id) = self.heatmap {
            v.push((id, report::heatmap::heatmap_svg(r, dev.chip())));
        }
        if let Some(id) = self.timeline {
            let noc = &dev.params().noc;
            v.push((id, report::npe::npe_timeline(r, dev.chip(), noc.flit_bytes, noc.inject_bytes_per_cycle())));
        }
        v
    }
}

const MEMORY_REPORTS: [&str; 3] = ["l1_usage_summary.csv", "memory_usage_summary.csv", "detailed_memory_usage.csv"];

/// Plan `--memory-report DIR`: the allocator's three CSV files in that folder.
pub fn plan_memory_reports(plan: &mut OutputPlan, dir: &Option<PathBuf>) -> CliResult<Option<Vec<OutputId>>> {
    dir.as_deref().map(|d| plan.add_in_dir(d, &MEMORY_REPORTS, outputs::MEMORY_REPORT)).transpose()
}

/// The memory reports of `dev` as it is now, for the outputs `plan_memory_reports` planned.
pub fn memory_report_contents(dev: &Device, ids: &[OutputId]) -> Vec<(OutputId, String)> {
    let reports = dev.memory_reports();
    let texts = [&reports.l1_usage_summary, &reports.memory_usage_summary, &reports.detailed_memory_usage];
    ids.iter().zip(texts).map(|(id, t)| (*id, format!("{}\n{t}", outputs::MEMORY_REPORT_MARKER))).collect()
}

/// Run `tensim run`.
pub fn run(a: &RunArgs) -> CliResult<ExitCode> {
    if a.list {
        say!("programs (tensim run NAME [options]):");
        for e in list() {
            say!("  {:<28} {}", e.name, e.about);
            say!("  {:<28}   options: {}", "", e.describe_options(&crate::error::FLAGS));
        }
        for (name, about) in collectives::COLLECTIVES {
            say!("  {name:<28} {about}");
            say!(
                "  {:<28}   options: --system/--cluster, --devices, --topology, --shape A,B,H,W, --dim, --workers, --seed, --trace, --stats, --noc-heatmap",
                ""
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let name = a.example.as_deref().unwrap_or_default();
    if collectives::COLLECTIVES.iter().any(|c| c.0 == name) {
        return collectives::run_collective(a);
    }
    a.reject_collective_options(name)?;
    let ex = find(name).ok_or_else(|| {
        let names: Vec<&str> = list().iter().map(|e| e.name).collect();
        format!("unknown program `{name}`; available: {}", names.join(", "))
    })?;
    let opts = ExampleOptions {
        seed: a.seed,
        size: a.size,
        m: a.m,
        n: a.n,
        k: a.k,
        fidelity: a.fidelity,
        from: a.from.clone(),
        to: a.to.clone(),
        shape: a.shape.clone(),
        page: a.page.clone(),
        dtype: a.dtype.clone(),
        check: a.check,
    };
    ex.check_options(&opts)?;
    let w = (ex.work)(&opts);
    let mut setup = setup(&a.chip, &a.params, Some(Arch::WormholeB0))?;
    let grid = setup.chip.soc().grid;
    let packets = w.noc_bytes.div_ceil(u64::from(setup.params.noc.max_burst_bytes.max(1)));
    let router_flit_moves = work::router_flit_moves(&setup.params.noc, grid, w.noc_bytes, packets);
    let estimate = Estimate {
        packets: 0,
        tile_ops: w.tile_ops,
        noc_bytes: w.noc_bytes,
        host_bytes: w.host_bytes,
        router_flit_moves,
    };
    if a.estimate {
        return work::print(estimate);
    }
    work::check(estimate, &format!("`{}` with these options", ex.name), a.allow_large)?;
    setup.dispatch = a.dispatch.unwrap_or(DispatchMode::Fast);

    // Every output is checked before the simulation.
    let mut plan = OutputPlan::new();
    let trace = a.trace.as_deref().map(|p| plan.add(p, outputs::TRACE)).transpose()?;
    let noc = NocOutputs::plan(&mut plan, &a.noc_heatmap, &a.npe_timeline)?;
    let stats = a.stats.as_deref().map(|p| plan.add(p, outputs::STATS)).transpose()?;
    let mem = plan_memory_reports(&mut plan, &a.memory_report)?;

    let mut dev = setup.open()?;
    dev.set_tracing(trace.is_some());
    dev.set_record_transfers(noc.needs_records());
    // A run whose payload alone, through its injection and ejection ports, is above the check's limit is
    // never checked: it need not keep a copy of the memories it starts from.
    let flit_bytes = u64::from(setup.params.noc.flit_bytes.max(1));
    let at_least = w.noc_bytes.div_ceil(flit_bytes).saturating_mul(2);
    dev.set_router_check(
        a.router_check.unwrap_or(crate::chip_args::RouterCheckLimit::AUTO).0.filter(|&l| at_least <= l),
    );
    let spinner = crate::out::spinner("simulating");
    if let Some(s) = spinner.clone() {
        dev.set_progress(Some(Box::new(move |t| s.set_message(format!("simulating: {} cycles", t.0)))));
    }
    let wall = std::time::Instant::now();
    let out = (ex.run)(&mut dev, &opts).map_err(CliError::from);
    if let Some(s) = spinner {
        s.finish_and_clear();
    }
    let out = out?;
    let wall = wall.elapsed();
    let r = &out.report;
    let verdict = match (out.passed, opts.check) {
        (_, Some(programs::CheckMode::Off)) => "UNCHECKED",
        (true, _) => "PASS",
        (false, _) => "FAIL",
    };
    say!("{verdict} {} on {} ({})", ex.name, dev.arch(), dev.soc_name());
    say!("check: {}", out.check);
    for m in &out.metrics {
        say!("{m}");
    }
    crate::out::text(&if a.per_core { r.summary_with(true, "") } else { r.summary(crate::out::PER_CORE_NOTE) })?;
    crate::dprint::DprintSettings::from_env()?.emit(0, &r.dprints)?;
    for w in &r.warnings {
        crate::out::note!("warning: {w}");
    }
    if let Some(report::RouterCheck::TooLarge { .. }) = r.router_check {
        crate::out::note!("note: `--router-check always` runs the router-level model's check whatever the run's size");
    }
    // The router-level check's time is its own (printed apart), not the simulation's.
    let check_secs = dev.router_check_secs();
    let secs = (wall.as_secs_f64() - check_secs).max(0.0);
    let checked = if check_secs > 0.0 {
        format!(", and {check_secs:.3} s for the router-level model's check")
    } else {
        String::new()
    };
    say!(
        "simulated {} cycles in {:.3} s wall{checked} ({:.2} M cycles/s; {} API calls, {} events, {} kernel resumptions)",
        r.cycles.0,
        secs,
        r.cycles.0 as f64 / secs.max(1e-9) / 1e6,
        r.api_calls,
        r.events,
        r.resumes
    );
    work::say_memory(estimate.host_bytes)?;

    let mut contents = noc.contents(&dev, r);
    if let (Some(id), Some(json)) = (trace, &r.trace_json) {
        contents.push((id, json.clone()));
    }
    if let Some(id) = stats {
        let doc = stats_document(
            "run",
            vec![
                ("program", ex.name.into()),
                ("arch", dev.arch().to_string().into()),
                ("passed", out.passed.into()),
                ("check", out.check.clone().into()),
                ("verdict", verdict.into()),
                ("cycles", r.cycles.0.into()),
                ("runs", serde_json::Value::Array(vec![r.stats()])),
            ],
        );
        contents.push((id, doc));
    }
    if let Some(ids) = mem {
        contents.extend(memory_report_contents(&dev, &ids));
    }
    for p in plan.commit(contents)? {
        say!("wrote {}", p.display());
    }
    Ok(if out.passed { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn parse_check(s: &str) -> Result<programs::CheckMode, String> {
    s.parse()
}
