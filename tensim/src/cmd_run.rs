//! `tensim run`: run a built-in example program, check it against its CPU reference, and print PASS/FAIL,
//! cycles (and µs at the arch clock), per core and RISC busy and blocked cycles, and optionally write a
//! Chrome trace and the allocator's memory reports.

use crate::chip_args::ChipArgs;
use crate::outputs::write_output;
use clap::Args;
use kernels::{ExampleOptions, find, list};
use sim_device::{Device, MathFidelity, Params};
use soc_descriptors::Arch;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `tensim run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// The program to run (see --list).
    #[arg(required_unless_present = "list")]
    example: Option<String>,
    /// List the programs.
    #[arg(long)]
    list: bool,
    #[command(flatten)]
    chip: ChipArgs,
    /// Override a timing/memory parameter, e.g. --set noc.hop_cycles=9 (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// A YAML file of parameter overrides (`key: value`).
    #[arg(long, value_name = "FILE")]
    params: Option<PathBuf>,
    /// Write a Chrome/Perfetto trace of the run.
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,
    /// Write a NoC link-utilisation heatmap (SVG).
    #[arg(long, value_name = "FILE.svg")]
    noc_heatmap: Option<PathBuf>,
    /// Write the run as a tt-npe timeline v1.0.0 (JSON, opens in ttnn-visualizer).
    #[arg(long, value_name = "FILE.json")]
    npe_timeline: Option<PathBuf>,
    /// Write the allocator's memory reports (three CSV files) into this directory.
    #[arg(long, value_name = "DIR")]
    memory_report: Option<PathBuf>,
    /// Seed of the input data.
    #[arg(long, default_value_t = 0x7e5)]
    seed: u64,
    /// Problem size of the example (tiles, elements…), where it has one.
    #[arg(long)]
    size: Option<u32>,
    /// Matmul M, elements (a multiple of 32).
    #[arg(long)]
    m: Option<u32>,
    /// Matmul N, elements (a multiple of 32).
    #[arg(long)]
    n: Option<u32>,
    /// Matmul K, elements (a multiple of 32).
    #[arg(long)]
    k: Option<u32>,
    /// List every core's kernels in the summary (by default runs on more than 8 cores are summarised per
    /// kernel and RISC).
    #[arg(long)]
    per_core: bool,
    /// Math fidelity of the compute kernels: LoFi, HiFi2, HiFi3 or HiFi4.
    #[arg(long, value_parser = parse_fidelity)]
    fidelity: Option<MathFidelity>,
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

/// Build the device a run uses: chip options plus parameter overrides.
pub fn open_device(chip: &ChipArgs, set: &[String], params_file: &Option<PathBuf>) -> Result<Device, String> {
    let spec = chip.spec(Some(Arch::WormholeB0))?;
    let chip_desc = spec.load().map_err(|e| e.to_string())?;
    let mut params = Params::builtin(chip_desc.arch());
    if let Some(f) = params_file {
        params.apply_file(f).map_err(|e| e.to_string())?;
    }
    for s in set {
        params.set(s).map_err(|e| e.to_string())?;
    }
    Device::open_with_params(&spec, params).map_err(|e| e.to_string())
}

/// Write the NoC heatmap and tt-npe timeline of a run, when asked for.
pub fn write_noc_outputs(
    dev: &Device,
    r: &sim_device::RunReport,
    heatmap: &Option<PathBuf>,
    timeline: &Option<PathBuf>,
) -> Result<(), String> {
    if let Some(path) = heatmap {
        write_output(path, &dev.noc_heatmap_svg(r), "tensim NoC heatmap", "heatmap")?;
        println!("NoC heatmap: {}", path.display());
    }
    if let Some(path) = timeline {
        write_output(path, &dev.npe_timeline(r), "\"congestion_model_name\":\"tensim\"", "tt-npe timeline")?;
        println!("tt-npe timeline: {}", path.display());
    }
    Ok(())
}

/// Run `tensim run`.
pub fn run(a: &RunArgs) -> Result<ExitCode, String> {
    if a.list {
        println!("programs (tensim run NAME):");
        for e in list() {
            println!("  {:<28} {}", e.name, e.about);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let name = a.example.as_deref().unwrap_or_default();
    let ex = find(name).ok_or_else(|| {
        let names: Vec<&str> = list().iter().map(|e| e.name).collect();
        format!("unknown program `{name}`; available: {}", names.join(", "))
    })?;
    let mut dev = open_device(&a.chip, &a.set, &a.params)?;
    dev.set_tracing(a.trace.is_some());
    let opts = ExampleOptions { seed: a.seed, size: a.size, m: a.m, n: a.n, k: a.k, fidelity: a.fidelity };
    let wall = std::time::Instant::now();
    let out = (ex.run)(&mut dev, &opts).map_err(|e| e.to_string())?;
    let wall = wall.elapsed();
    let r = &out.report;
    println!("{} {} on {} ({})", if out.passed { "PASS" } else { "FAIL" }, ex.name, dev.arch(), dev.soc_name());
    println!("check: {}", out.check);
    for m in &out.metrics {
        println!("{m}");
    }
    print!("{}", if a.per_core { r.summary_with(true) } else { r.summary() });
    for line in &r.dprints {
        println!("DPRINT {line}");
    }
    for w in &r.warnings {
        eprintln!("warning: {w}");
    }
    let secs = wall.as_secs_f64();
    println!(
        "simulated {} cycles in {:.3} s wall ({:.2} M cycles/s; {} API calls, {} events, {} kernel resumptions)",
        r.cycles.0,
        secs,
        r.cycles.0 as f64 / secs.max(1e-9) / 1e6,
        r.api_calls,
        r.events,
        r.resumes
    );
    if let (Some(path), Some(json)) = (&a.trace, &r.trace_json) {
        write_output(path, json, "AICLK cycle", "trace")?;
        println!("trace: {} (open in ui.perfetto.dev)", path.display());
    }
    write_noc_outputs(&dev, r, &a.noc_heatmap, &a.npe_timeline)?;
    if let Some(dir) = &a.memory_report {
        let reports = dev.memory_reports();
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create directory: {e}", dir.display()))?;
        for (file, text, marker) in [
            ("l1_usage_summary.csv", &reports.l1_usage_summary, "Program ID,Circular Buffers End"),
            ("memory_usage_summary.csv", &reports.memory_usage_summary, "Buffer Type,Num Banks"),
            ("detailed_memory_usage.csv", &reports.detailed_memory_usage, "Buffer Type,Block,Address"),
        ] {
            write_output(&dir.join(file), text, marker, "memory report")?;
        }
        println!("memory reports: {}", dir.display());
    }
    Ok(if out.passed { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
