//! `tensim layout metal`: a `#tt.metal_layout` from a shape, a grid and collapse intervals or a map.

use super::{check_picture, int_list, lerr, pair_u32, picture_plan, write_picture};
use crate::error::{CliError, CliResult};
use crate::out::say;
use clap::Args;
use layout::TileShape;
use layout::metal::{MetalLayout, MetalLayoutSpec};
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `tensim layout metal`.
#[derive(Args, Debug)]
pub struct MetalArgs {
    /// The logical tensor shape, e.g. 2x3x64x128.
    #[arg(allow_hyphen_values = true, long)]
    shape: String,
    /// The grid, e.g. 2x4 (any rank; a virtual grid may be larger than a chip).
    #[arg(allow_hyphen_values = true, long)]
    grid: String,
    /// A collapse interval START,END (left inclusive, right exclusive, negative from the end); repeat for
    /// several. Default 0,-1.
    #[arg(long, value_name = "START,END", allow_hyphen_values = true)]
    collapse: Vec<String>,
    /// An affine map in MLIR syntax instead of collapse intervals, e.g. "(d0, d1, d2) -> (d0 * 32 + d1, d2)".
    #[arg(allow_hyphen_values = true, long, value_name = "MAP")]
    map: Option<String>,
    /// Tile the shards with this tile shape (32x32, 16x32, 8x32, 4x32, 2x32, 1x32, 32x16, 16x16, 8x16, 4x16, 2x16, 1x16).
    #[arg(allow_hyphen_values = true, long, value_name = "HxW")]
    tile: Option<String>,
    /// Data type: f32, f16, bf16, bfp8, bfp4, bfp2, i32, u32, u16, u8 (block floats need --tile).
    #[arg(allow_hyphen_values = true, long, default_value = "f32")]
    dtype: String,
    /// Memory space: system, system_mmio, dram or l1.
    #[arg(allow_hyphen_values = true, long, default_value = "l1")]
    memspace: String,
    /// What padding holds: undef, zero, inf, neginf or nan.
    #[arg(allow_hyphen_values = true, long, default_value = "undef")]
    oob: String,
    /// A tensor element, e.g. 1,1,6,100: print its collapsed coordinate, shard and position.
    #[arg(allow_hyphen_values = true, long, value_name = "I,J,…")]
    index: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Draw the layout (SVG).
    #[arg(allow_hyphen_values = true, long, value_name = "FILE.svg")]
    svg: Option<PathBuf>,
}

/// Run `tensim layout metal`.
pub fn run(a: &MetalArgs) -> CliResult<ExitCode> {
    let plan = picture_plan(a.svg.as_deref())?;
    let collapse = if a.collapse.is_empty() {
        None
    } else {
        let mut v = Vec::new();
        for c in &a.collapse {
            match int_list("--collapse", c)?.as_slice() {
                [s, e] => v.push((*s, *e)),
                _ => return Err(CliError::User(format!("--collapse {c}: give START,END, e.g. 0,-1"))),
            }
        }
        Some(v)
    };
    let tile = match &a.tile {
        Some(t) => {
            let [h, w] = pair_u32("--tile", t)?;
            Some(TileShape::new(h, w).map_err(|e| lerr("--tile", e))?)
        }
        None => None,
    };
    let spec = MetalLayoutSpec {
        shape: a.shape.parse().map_err(|e| lerr("--shape", e))?,
        grid: a.grid.parse().map_err(|e| lerr("--grid", e))?,
        collapse,
        map: a.map.as_deref().map(str::parse).transpose().map_err(|e| lerr("--map", e))?,
        tile,
        dtype: a.dtype.parse().map_err(|e| lerr("--dtype", e))?,
        memspace: a.memspace.parse().map_err(|e| lerr("--memspace", e))?,
        oob: a.oob.parse().map_err(|e| lerr("--oob", e))?,
    };
    let l = MetalLayout::new(&spec).map_err(|e| CliError::User(e.to_string()))?;
    let index = match &a.index {
        Some(s) => {
            let v = int_list("--index", s)?;
            if let Some(neg) = v.iter().find(|&&x| x < 0) {
                return Err(CliError::User(format!("--index {s}: {neg} is negative")));
            }
            let v: Vec<u64> = v.iter().map(|&x| x as u64).collect();
            let c = l.index(&v).map_err(|e| lerr("--index", e))?;
            let (g, w) = l.locate(&v).map_err(|e| lerr("--index", e))?;
            Some((c, g, w))
        }
        None => None,
    };
    // The picture draws the shards of the last two grid dimensions.
    let g = l.grid.dims();
    check_picture(a.svg.as_deref(), "shards", g.iter().rev().take(2).fold(1u64, |n, &d| n.saturating_mul(d)))?;
    if a.json {
        let j = serde_json::json!({
            "affine_map": l.map.to_string(),
            "grid": l.grid.dims(),
            "shard_shape": l.memref_shape(),
            "memref": l.memref(),
            "physical_shape": l.physical_shape(),
            "device_shape": l.device_shape(),
            "padding": l.padding(),
            "index": index.as_ref().map(|(c, _, _)| c.clone()),
        });
        say!("{}", serde_json::to_string_pretty(&j).map_err(|e| e.to_string())?);
    } else {
        say!("{}", l.pretty());
        say!("affine map      {}", l.map);
        say!("physical shape  {} (the collapsed extents)", dims(l.physical_shape()));
        say!(
            "shard           {} elements{}",
            dims(l.scalar_shard_shape()),
            if l.tile.is_some() { format!(", {} tiles", dims(&l.memref_shape())) } else { String::new() }
        );
        say!("device shape    {} (grid, then shard)", dims(&l.device_shape()));
        say!(
            "padding         {} (elements in the last shard along each grid dimension, tile padding included)",
            dims(&l.padding())
        );
        if let Some((c, g, w)) = index {
            say!(
                "index           {} -> collapsed {}, shard {} at {}",
                a.index.as_deref().unwrap_or(""),
                dims(&c),
                dims(&g),
                dims(&w)
            );
        }
    }
    write_picture(plan, || layout::svg::render(&l.picture()))?;
    Ok(ExitCode::SUCCESS)
}

fn dims(v: &[u64]) -> String {
    let s: Vec<String> = v.iter().map(u64::to_string).collect();
    format!("[{}]", s.join(", "))
}
