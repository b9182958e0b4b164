//! `tensim layout`: where a tensor's elements live, without running anything — tt-mlir's
//! `#tt.metal_layout` ([`metal`]), a TTNN tensor spec ([`ttnn`]) and tt-metal's N-D buffer distribution
//! ([`pages`]), as text or JSON, with a picture (`--svg`).

mod metal;
mod pages;
mod ttnn;

use crate::error::{CliError, CliResult};
use crate::outputs::{OutputKind, OutputPlan};
use clap::{Args, Subcommand};
use layout::LayoutError;
use std::path::Path;
use std::process::ExitCode;

/// Options of `tensim layout`.
#[derive(Args, Debug)]
pub struct LayoutArgs {
    #[command(subcommand)]
    what: What,
}

#[derive(Subcommand, Debug)]
enum What {
    /// tt-mlir's tensor layout attribute: collapse a tensor onto a grid, shard, tile, pad.
    Metal(metal::MetalArgs),
    /// A TTNN tensor spec: padded and physical shapes, pages, shards and which core holds which page.
    Ttnn(ttnn::TtnnArgs),
    /// tt-metal's N-D buffer distribution: shards of pages dealt round-robin to cores.
    Pages(pages::PagesArgs),
}

/// Run `tensim layout`.
pub fn run(a: &LayoutArgs) -> CliResult<ExitCode> {
    match &a.what {
        What::Metal(m) => metal::run(m),
        What::Ttnn(t) => ttnn::run(t),
        What::Pages(p) => pages::run(p),
    }
}

/// A layout picture.
pub const PICTURE: OutputKind = OutputKind { what: "layout picture", marker: layout::svg::MARKER };

/// Plan the `--svg` output first (so a bad path fails before any work) and return a writer for it.
fn picture_plan(svg: Option<&Path>) -> CliResult<Option<(OutputPlan, crate::outputs::OutputId)>> {
    match svg {
        None => Ok(None),
        Some(p) => {
            let mut plan = OutputPlan::new();
            let id = plan.add(p, PICTURE)?;
            Ok(Some((plan, id)))
        }
    }
}

fn write_picture(plan: Option<(OutputPlan, crate::outputs::OutputId)>, pic: impl FnOnce() -> String) -> CliResult<()> {
    if let Some((plan, id)) = plan {
        let paths = plan.commit(vec![(id, pic())])?;
        for p in paths {
            crate::note!("picture written to {}", p.display());
        }
    }
    Ok(())
}

pub(crate) fn lerr(flag: &str, e: LayoutError) -> CliError {
    CliError::User(format!("{flag}: {e}"))
}

/// `2,3,-1` → numbers.
pub(crate) fn int_list(flag: &str, s: &str) -> CliResult<Vec<i64>> {
    s.split(',')
        .map(|v| {
            v.trim()
                .parse::<i64>()
                .map_err(|_| CliError::User(format!("{flag} {s}: `{}` is not a whole number", v.trim())))
        })
        .collect()
}

/// `32x32` → `[32, 32]`.
pub(crate) fn pair(flag: &str, s: &str) -> CliResult<[u64; 2]> {
    let shape: layout::Shape = s.parse().map_err(|e| lerr(flag, e))?;
    match shape.dims() {
        [a, b] if *a > 0 && *b > 0 => Ok([*a, *b]),
        _ => Err(CliError::User(format!("{flag} {s}: give two extents of at least 1, e.g. 32x32"))),
    }
}
