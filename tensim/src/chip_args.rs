//! Command-line options shared by the subcommands: which chip (`--arch` or `--soc`, `--core-desc`,
//! `--harvest`, …) and parameter overrides (`--set`, `--params`), resolved into a [`DeviceSetup`].

use clap::Args;
use sim_device::{ChipSpec, DeviceSetup, Params, SocSource};
use soc_descriptors::{Arch, DispatchAxis};
use std::path::PathBuf;

/// A whole number from 0 to `max`, with a message that says what was wrong (text, a sign, or too many digits).
fn whole_at_most(s: &str, max: u64) -> Result<u64, String> {
    let t = s.trim();
    match t.parse::<u64>() {
        Ok(v) if v <= max => Ok(v),
        Ok(_) => Err(format!("`{s}` is too large (at most {max})")),
        Err(_) if t.starts_with('-') => Err(format!("`{s}` is negative; give a whole number of 0 or more")),
        Err(_) if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => {
            Err(format!("`{s}` is too large (at most {max})"))
        }
        Err(_) => Err(format!("`{s}` is not a whole number")),
    }
}

/// A whole number for a `u32` option.
pub fn whole_u32(s: &str) -> Result<u32, String> {
    whole_at_most(s, u64::from(u32::MAX)).map(|v| v as u32)
}

/// A whole number for a `u64` option.
pub fn whole_u64(s: &str) -> Result<u64, String> {
    whole_at_most(s, u64::MAX)
}

/// `--dispatch fast|slow`.
pub fn parse_dispatch(s: &str) -> Result<sim_device::DispatchMode, String> {
    match s {
        "fast" => Ok(sim_device::DispatchMode::Fast),
        "slow" => Ok(sim_device::DispatchMode::Slow),
        _ => Err(format!("`{s}`: expected fast or slow")),
    }
}

/// `--router-check off|auto|always`: the flit-move limit of the router-level model's check of runs that
/// stall packets beyond the routers' buffers (`sim_device::Device::set_router_check`).
pub fn parse_router_check(s: &str) -> Result<RouterCheckLimit, String> {
    match s {
        "off" => Ok(RouterCheckLimit(None)),
        "auto" => Ok(RouterCheckLimit::AUTO),
        "always" => Ok(RouterCheckLimit(Some(u64::MAX))),
        _ => Err(format!("`{s}`: expected off, auto or always")),
    }
}

/// The flit-move limit of the router-level model's check (`None`: no check).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RouterCheckLimit(pub Option<u64>);

impl RouterCheckLimit {
    /// `auto`, the default.
    pub const AUTO: RouterCheckLimit = RouterCheckLimit(Some(sim_device::router_check::DEFAULT_LIMIT_FLIT_MOVES));
}

/// The help of `--router-check`.
pub const ROUTER_CHECK_HELP: &str = "When the run stalls packets beyond the routers' buffers (which the default \
NoC model does not model), run it again on the router-level NoC model (noc.model=router) and print its cycles \
where they differ by more than 5%: auto (the default) when the run moved at most 10 M flits over links and \
ports (about a second of the router model), always, or off";

/// Parameter overrides.
#[derive(Args, Debug, Clone)]
pub struct ParamArgs {
    /// Override a timing/memory parameter, e.g. --set noc.hop_cycles=9 (repeatable; `tensim params` lists
    /// them with their ranges).
    #[arg(allow_hyphen_values = true, long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// A YAML file of parameter overrides (`key: value` or `key: { value: V, source: "…" }`).
    #[arg(long, value_name = "FILE")]
    pub params: Option<PathBuf>,
}

impl ParamArgs {
    /// The parameters of `arch` with the overrides applied and checked.
    pub fn resolve(&self, arch: Arch) -> Result<Params, String> {
        self.resolve_over(arch, &[])
    }

    /// The parameters of `arch` with a command's own `defaults` (`(origin, KEY=VALUE)`) applied first, then
    /// the user's overrides (which win), checked.
    pub fn resolve_over(&self, arch: Arch, defaults: &[(&str, &str)]) -> Result<Params, String> {
        let mut p = Params::builtin(arch);
        for (origin, assignment) in defaults {
            p.set(origin, assignment).map_err(|e| e.to_string())?;
        }
        if let Some(f) = &self.params {
            p.apply_file(f).map_err(|e| e.to_string())?;
        }
        for s in &self.set {
            p.set("--set", s).map_err(|e| e.to_string())?;
        }
        let origin = if self.set.is_empty() { "--params" } else { "--set" };
        p.validate(origin).map_err(|e| e.to_string())?;
        Ok(p)
    }
}

/// The chip and parameters a command runs on, checked once.
pub fn setup(chip: &ChipArgs, params: &ParamArgs, default_arch: Option<Arch>) -> Result<DeviceSetup, String> {
    setup_over(chip, params, default_arch, &[])
}

/// [`setup`] with a command's own parameter `defaults` under the user's overrides (see
/// [`ParamArgs::resolve_over`]).
pub fn setup_over(
    chip: &ChipArgs,
    params: &ParamArgs,
    default_arch: Option<Arch>,
    defaults: &[(&str, &str)],
) -> Result<DeviceSetup, String> {
    let spec = chip.spec(default_arch)?;
    let loaded = spec.load().map_err(|e| e.to_string())?;
    let p = params.resolve_over(loaded.arch(), defaults)?;
    DeviceSetup::new(&spec, p).map_err(|e| e.to_string())
}

/// Which chip to use.
#[derive(Args, Debug, Clone)]
pub struct ChipArgs {
    /// A built-in chip description: wormhole_b0, blackhole or grayskull.
    #[arg(long, value_parser = parse_arch, conflicts_with = "soc")]
    pub arch: Option<Arch>,
    /// A SoC descriptor YAML file (tt-metal or tt-umd); relative names are also looked up under
    /// $TT_METAL_HOME/tt_metal/soc_descriptors/.
    #[arg(long, value_name = "FILE")]
    pub soc: Option<PathBuf>,
    /// A tt-metal core descriptor YAML file (default: next to --soc in tt-metal's layout, else built in).
    #[arg(long, value_name = "FILE")]
    pub core_desc: Option<PathBuf>,
    /// Harvested Tensix rows (WH, GS) or columns (BH): bit i removes the i-th row/column in NoC0 order.
    /// Decimal or 0x-hex. Default: the usual card — a Wormhole n150 (0x200: the last row), an unharvested
    /// Blackhole or Grayskull; 0 gives an unharvested Wormhole (galaxy).
    #[arg(allow_hyphen_values = true, long, value_name = "MASK", value_parser = parse_mask)]
    pub harvest: Option<u32>,
    /// Number of hardware command queues (selects the core-descriptor configuration).
    #[arg(allow_negative_numbers = true, long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=2))]
    pub num_hw_cqs: u32,
    /// Dispatch core axis for axis-keyed core descriptors (row or col).
    #[arg(long, value_name = "AXIS", value_parser = parse_axis)]
    pub dispatch_axis: Option<DispatchAxis>,
}

fn parse_arch(s: &str) -> Result<Arch, String> {
    Arch::from_cli_name(s).ok_or_else(|| format!("unknown arch `{s}`: use wormhole_b0, blackhole or grayskull"))
}

fn parse_mask(s: &str) -> Result<u32, String> {
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16),
        None => s.parse(),
    };
    r.map_err(|e| match e.kind() {
        std::num::IntErrorKind::PosOverflow => {
            format!("`{s}` is not a harvesting mask: it does not fit 32 bits (one bit per row or column)")
        }
        _ => format!("`{s}` is not a harvesting mask: give a decimal or 0x-hex number"),
    })
}

fn parse_axis(s: &str) -> Result<DispatchAxis, String> {
    DispatchAxis::parse(s).ok_or_else(|| format!("unknown dispatch axis `{s}`: use row or col"))
}

impl ChipArgs {
    /// The chip specification; `default_arch` applies when neither --arch nor --soc is given.
    pub fn spec(&self, default_arch: Option<Arch>) -> Result<ChipSpec, String> {
        let soc = match (&self.soc, self.arch, default_arch) {
            (Some(p), _, _) => SocSource::File(p.clone()),
            (None, Some(a), _) | (None, None, Some(a)) => SocSource::Builtin(a),
            (None, None, None) => return Err("choose a chip with --arch ARCH or --soc FILE".into()),
        };
        Ok(ChipSpec {
            soc,
            core_desc: self.core_desc.clone(),
            harvest: self.harvest,
            num_hw_cqs: self.num_hw_cqs,
            dispatch_axis: self.dispatch_axis,
        })
    }
}
