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
            crate::out::note!("picture written to {}", p.display());
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

/// `32x32` → `[32, 32]`, each extent a 32-bit number (a tile, a core grid); a larger one is an error that
/// echoes it, never truncated.
pub(crate) fn pair_u32(flag: &str, s: &str) -> CliResult<[u32; 2]> {
    let [a, b] = pair(flag, s)?;
    match (u32::try_from(a), u32::try_from(b)) {
        (Ok(a), Ok(b)) => Ok([a, b]),
        _ => Err(CliError::User(format!("{flag} {s}: each extent must be at most {}", u32::MAX))),
    }
}

/// The most page slots `tensim layout` lists (`layout pages`, `layout ttnn --pages`) or draws: 2^24.
pub(crate) const MAX_LISTED_SLOTS: u64 = 1 << 24;

/// An error unless `slots` page slots can be listed.
pub(crate) fn check_listing(flag: &str, slots: u64) -> CliResult<()> {
    if slots > MAX_LISTED_SLOTS {
        return Err(CliError::User(format!(
            "{flag}: the layout has {slots} page slots; tensim lists at most {MAX_LISTED_SLOTS} (use a smaller tensor or larger pages)"
        )));
    }
    Ok(())
}

/// The most rectangles a `--svg` picture of `tensim layout` draws: 2^18 (an SVG of some 30 MB).
pub(crate) const MAX_PICTURE_CELLS: u64 = 1 << 18;

/// An error unless a picture of `cells` rectangles (pages, shards or slots) is to be drawn within
/// [`MAX_PICTURE_CELLS`]; checked before any output is written.
pub(crate) fn check_picture(svg: Option<&Path>, what: &str, cells: u64) -> CliResult<()> {
    match svg {
        Some(p) if cells > MAX_PICTURE_CELLS => Err(CliError::User(format!(
            "--svg {}: the picture would draw {cells} {what}; tensim draws at most {MAX_PICTURE_CELLS} (use a smaller tensor, grid or larger pages)",
            p.display()
        ))),
        _ => Ok(()),
    }
}

/// `32x32` → `[32, 32]`.
pub(crate) fn pair(flag: &str, s: &str) -> CliResult<[u64; 2]> {
    let shape: layout::Shape = s.parse().map_err(|e| lerr(flag, e))?;
    match shape.dims() {
        [a, b] if *a > 0 && *b > 0 => Ok([*a, *b]),
        _ => Err(CliError::User(format!("{flag} {s}: give two extents of at least 1, e.g. 32x32"))),
    }
}
