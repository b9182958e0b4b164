//! `tensim replay`: replay a tt-metal NoC trace or a tt-npe workload (or a folder of them, in parallel, one
//! device each), printing the predicted and measured runtimes, the error, and the NoC and DRAM statistics.

use crate::chip_args::{ChipArgs, ParamArgs, setup};
use crate::cmd_run::NocOutputs;
use crate::error::{CliError, CliResult};
use crate::out::say;
use crate::outputs::{self, OutputPlan};
use clap::Args;
use rayon::prelude::*;
use report::stats::stats_document;
use sim_device::{Arch, DeviceSetup};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use suites::replay::{Mode, ReplayInput, ReplayResult, parse_replay_input, replay};

/// Options of `tensim replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A trace or workload JSON file, or a folder of them (batch mode).
    path: PathBuf,
    #[command(flatten)]
    chip: ChipArgs,
    #[command(flatten)]
    params: ParamArgs,
    /// `kernels` (issue times from tensim's model) or `timestamps` (issue times from the trace). Default
    /// kernels; tt-npe workloads carry no kernels and replay in timestamps mode only.
    #[arg(long)]
    mode: Option<Mode>,
    /// Write a NoC link-utilisation heatmap (SVG) of a single replay.
    #[arg(long, value_name = "FILE.svg")]
    noc_heatmap: Option<PathBuf>,
    /// Write a single replay as a tt-npe timeline v1.0.0 (JSON).
    #[arg(long, value_name = "FILE.json")]
    npe_timeline: Option<PathBuf>,
    /// Write machine-readable statistics (JSON; schema in the README).
    #[arg(long, value_name = "FILE.json")]
    stats: Option<PathBuf>,
}

fn load(path: &Path) -> CliResult<ReplayInput> {
    let name = path.display().to_string();
    let text = soc_descriptors::input::read_text(path, "NoC trace")?;
    Ok(parse_replay_input(&text, &name)?)
}

fn mode_for(input: &ReplayInput, asked: Option<Mode>, name: &str) -> CliResult<Mode> {
    match (input, asked) {
        (ReplayInput::Workload(_), Some(Mode::Kernels)) => Err(CliError::User(format!(
            "{name}: a tt-npe workload carries no kernels; it replays in timestamps mode only (drop --mode kernels)"
        ))),
        (ReplayInput::Workload(_), _) => Ok(Mode::Timestamps),
        (ReplayInput::Trace(_), m) => Ok(m.unwrap_or(Mode::Kernels)),
    }
}

fn replay_one(setup: &DeviceSetup, path: &Path, asked: Option<Mode>, records: bool) -> CliResult<ReplayResult> {
    let name = path.display().to_string();
    let input = load(path)?;
    let mode = mode_for(&input, asked, &name)?;
    let mut dev = setup.open()?;
    dev.set_record_transfers(records);
    Ok(replay(&mut dev, &input, mode, &name)?)
}

fn err_pct(r: &ReplayResult) -> Option<f64> {
    r.error().map(|e| e * 100.0)
}

fn result_json(name: &str, r: &ReplayResult) -> serde_json::Value {
    serde_json::json!({
        "trace": name, "events": r.events, "kernels": r.kernels, "predicted": r.predicted,
        "measured": r.measured, "error": r.error(), "run": r.report.stats(),
    })
}

/// Run `tensim replay`.
pub fn run(a: &ReplayArgs) -> CliResult<ExitCode> {
    crate::measured::must_exist(&a.path, "NoC trace or folder of traces", "replay PATH")?;
    let setup = setup(&a.chip, &a.params, Some(Arch::WormholeB0))?;
    let mut plan = OutputPlan::new();
    if a.path.is_dir() {
        for (flag, given) in [("--noc-heatmap", &a.noc_heatmap), ("--npe-timeline", &a.npe_timeline)] {
            if given.is_some() {
                return Err(CliError::User(format!(
                    "{flag} draws one replay; {} is a folder (give one trace file)",
                    a.path.display()
                )));
            }
        }
        let stats = a.stats.as_deref().map(|p| plan.add(p, outputs::STATS)).transpose()?;
        let mut files: Vec<PathBuf> = std::fs::read_dir(&a.path)
            .map_err(|e| format!("{}: cannot list: {}", a.path.display(), soc_descriptors::input::io_reason(&e)))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        if files.is_empty() {
            return Err(CliError::User(format!("{}: no .json traces in this folder", a.path.display())));
        }
        let wall = std::time::Instant::now();
        let bar = crate::out::progress(files.len() as u64, "replay");
        let results: Vec<CliResult<ReplayResult>> = files
            .par_iter()
            .map(|f| {
                let r = replay_one(&setup, f, a.mode, false);
                bar.inc(1);
                r
            })
            .collect();
        bar.finish_and_clear();
        let results: Vec<ReplayResult> = results.into_iter().collect::<CliResult<_>>()?;
        say!("| Trace | Events | Predicted (cycles) | Measured (cycles) | Error |");
        say!("|---|---|---|---|---|");
        let mut errs = Vec::new();
        for (f, r) in files.iter().zip(&results) {
            let short = f.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
            say!(
                "| {short} | {} | {} | {} | {} |",
                r.events,
                r.predicted,
                r.measured.map(|m| m.to_string()).unwrap_or_else(|| "-".into()),
                err_pct(r).map(|e| format!("{e:+.1}%")).unwrap_or_else(|| "-".into())
            );
            if let Some(e) = err_pct(r) {
                errs.push(e.abs());
            }
        }
        let median = programs::golden::median(&mut errs);
        say!(
            "traces {}, median error {median:.1}%, worst error {:.1}%",
            errs.len(),
            errs.last().copied().unwrap_or(0.0)
        );
        crate::out::note!("{} traces replayed in {:.3} s wall", files.len(), wall.elapsed().as_secs_f64());
        if let Some(id) = stats {
            let list = files.iter().zip(&results).map(|(f, r)| result_json(&f.display().to_string(), r)).collect();
            plan.commit(vec![(id, stats_document("replay", vec![("replays", serde_json::Value::Array(list))]))])?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let noc = NocOutputs::plan(&mut plan, &a.noc_heatmap, &a.npe_timeline)?;
    let stats = a.stats.as_deref().map(|p| plan.add(p, outputs::STATS)).transpose()?;
    let name = a.path.display().to_string();
    let r = replay_one(&setup, &a.path, a.mode, noc.needs_records())?;
    say!("{name} ({} events)", r.events);
    say!("predicted: {} cycles", r.predicted);
    match r.measured {
        Some(m) => say!("measured:  {m} cycles\nerror:     {:+.1}%", err_pct(&r).unwrap_or(0.0)),
        None => say!("measured:  (not in the input)"),
    }
    for (k, n) in &r.skipped {
        crate::out::note!("not modelled: {n} `{k}` event(s) cannot be replayed and only cost their recording time");
    }
    crate::out::text(&r.report.summary(crate::out::PER_CORE_NOTE))?;
    let dev = setup.open()?;
    let mut contents = noc.contents(&dev, &r.report);
    if let Some(id) = stats {
        contents.push((id, stats_document("replay", vec![("replays", serde_json::json!([result_json(&name, &r)]))])));
    }
    for p in plan.commit(contents)? {
        say!("wrote {}", p.display());
    }
    Ok(ExitCode::SUCCESS)
}
