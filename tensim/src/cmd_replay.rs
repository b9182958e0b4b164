//! `tensim replay`: replay a tt-metal NoC trace or a tt-npe workload (or a directory of them), printing the
//! predicted and measured runtimes, the error, and the NoC and DRAM statistics.

use crate::chip_args::ChipArgs;
use crate::cmd_run::open_device;
use clap::Args;
use kernels::replay::{Mode, parse_replay_input, replay};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of `tensim replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A trace or workload JSON file, or a directory of them (batch mode).
    path: PathBuf,
    #[command(flatten)]
    chip: ChipArgs,
    /// `kernels` (issue times from tensim's model) or `timestamps` (issue times from the trace).
    #[arg(long, default_value = "kernels")]
    mode: String,
    /// Override a parameter (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// A YAML file of parameter overrides.
    #[arg(long, value_name = "FILE")]
    params: Option<PathBuf>,
    /// Write a NoC link-utilisation heatmap (SVG) of a single replay.
    #[arg(long, value_name = "FILE.svg")]
    noc_heatmap: Option<PathBuf>,
    /// Write a single replay as a tt-npe timeline v1.0.0 (JSON).
    #[arg(long, value_name = "FILE.json")]
    npe_timeline: Option<PathBuf>,
}

struct One {
    name: String,
    events: usize,
    predicted: u64,
    measured: Option<u64>,
    summary: String,
    skipped: Vec<(String, usize)>,
}

fn replay_file(a: &ReplayArgs, mode: Mode, path: &Path) -> Result<One, String> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let input = parse_replay_input(&text, &name).map_err(|e| e.to_string())?;
    let mut dev = open_device(&a.chip, &a.set, &a.params)?;
    let r = replay(&mut dev, &input, mode, &name).map_err(|e| e.to_string())?;
    if !a.path.is_dir() {
        crate::cmd_run::write_noc_outputs(&dev, &r.report, &a.noc_heatmap, &a.npe_timeline)?;
    }
    Ok(One {
        name,
        events: r.events,
        predicted: r.predicted,
        measured: r.measured,
        summary: r.report.summary(),
        skipped: r.skipped,
    })
}

fn err_pct(p: u64, m: Option<u64>) -> Option<f64> {
    m.map(|m| (p as f64 - m as f64) / m.max(1) as f64 * 100.0)
}

/// Run `tensim replay`.
pub fn run(a: &ReplayArgs) -> Result<ExitCode, String> {
    let mode: Mode = a.mode.parse()?;
    if a.path.is_dir() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&a.path)
            .map_err(|e| format!("{}: cannot list: {e}", a.path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        if files.is_empty() {
            return Err(format!("{}: no .json traces in this directory", a.path.display()));
        }
        let wall = std::time::Instant::now();
        println!("| Trace | Events | Predicted (cycles) | Measured (cycles) | Error |");
        println!("|---|---|---|---|---|");
        let mut errs = Vec::new();
        for f in &files {
            let o = replay_file(a, mode, f)?;
            let e = err_pct(o.predicted, o.measured);
            let short = f.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or(o.name);
            println!(
                "| {short} | {} | {} | {} | {} |",
                o.events,
                o.predicted,
                o.measured.map(|m| m.to_string()).unwrap_or_else(|| "-".into()),
                e.map(|e| format!("{e:+.1}%")).unwrap_or_else(|| "-".into())
            );
            if let Some(e) = e {
                errs.push(e.abs());
            }
        }
        let median = kernels::golden::median(&mut errs);
        println!(
            "traces {}, median error {median:.1}%, worst error {:.1}%",
            errs.len(),
            errs.last().copied().unwrap_or(0.0)
        );
        eprintln!("{} traces replayed in {:.3} s wall ({} mode)", files.len(), wall.elapsed().as_secs_f64(), a.mode);
        return Ok(ExitCode::SUCCESS);
    }
    let o = replay_file(a, mode, &a.path)?;
    println!("{} ({} events, {} mode)", o.name, o.events, a.mode);
    println!("predicted: {} cycles", o.predicted);
    match o.measured {
        Some(m) => println!("measured:  {m} cycles\nerror:     {:+.1}%", err_pct(o.predicted, Some(m)).unwrap_or(0.0)),
        None => println!("measured:  (not in the input)"),
    }
    for (k, n) in &o.skipped {
        eprintln!("note: {n} `{k}` event(s) cannot be replayed and only cost their recording time");
    }
    print!("{}", o.summary);
    Ok(ExitCode::SUCCESS)
}
