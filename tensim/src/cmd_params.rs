//! `tensim params`: every timing and memory parameter of a chip — its value, unit, allowed range and where
//! the value comes from — after any `--set`/`--params` overrides, as text or JSON.

use crate::chip_args::ParamArgs;
use crate::error::{CliError, CliResult};
use crate::out::say;
use clap::Args;
use soc_descriptors::Arch;
use std::process::ExitCode;

/// Options of `tensim params`.
#[derive(Args, Debug)]
pub struct ParamsArgs {
    /// The chip: wormhole_b0, blackhole or grayskull.
    #[arg(long, value_parser = parse_arch, default_value = "wormhole_b0")]
    arch: Arch,
    #[command(flatten)]
    params: ParamArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

fn parse_arch(s: &str) -> Result<Arch, String> {
    Arch::from_cli_name(s).ok_or_else(|| format!("unknown arch `{s}`: use wormhole_b0, blackhole or grayskull"))
}

/// Run `tensim params`.
pub fn run(a: &ParamsArgs) -> CliResult<ExitCode> {
    let p = a.params.resolve(a.arch)?;
    let mut entries = p.entries();
    // L1 addresses must lie inside the chip's L1: the range the key's type allows is not the useful one.
    let soc = soc_descriptors::builtin::builtin_soc(a.arch);
    // Values every run on this chip would refuse are refused here too.
    sim_device::device::check_params_for_chip(&p, &soc, a.arch).map_err(|e| CliError::User(e.to_string()))?;
    for e in &mut entries {
        if e.unit != "L1 address" {
            continue;
        }
        let (l1, what) =
            if e.key.starts_with("eth.") { (soc.eth_l1_size, "Ethernet L1") } else { (soc.worker_l1_size, "L1") };
        if l1 > 0 {
            e.allowed = format!("0..={} (inside the built-in {}'s {l1}-byte {what})", l1 - 1, a.arch);
        }
    }
    if a.json {
        let list: Vec<serde_json::Value> = entries
            .iter()
            .map(|e| {
                let value = e.name.map_or(serde_json::json!(e.value), |n| serde_json::json!(n));
                serde_json::json!({"key": e.key, "value": value, "unit": e.unit, "allowed": e.allowed, "source": e.source})
            })
            .collect();
        say!("{}", serde_json::json!({"arch": a.arch.name(), "params": list}));
        return Ok(ExitCode::SUCCESS);
    }
    say!("{} parameters ({} keys; override with --set KEY=VALUE or --params FILE):", a.arch, entries.len());
    for e in entries {
        let value = e.name.map_or(e.value.to_string(), str::to_string);
        say!("{:<36} {:>14} {:<22} allowed {}", e.key, value, e.unit, e.allowed);
        say!("{:<36} source: {}", "", e.source);
    }
    Ok(ExitCode::SUCCESS)
}
