//! `tensim device`: a device view over a system (seed 003, tt-mlir's device attribute): the logical worker
//! grid a mesh shape gives (or a user's map over a user's grid), its map to `(chip, y, x)` and back, and
//! where every logical point lives; optionally where a tt.metal_layout's shards land on the chips.

use crate::cmd_layout::{int_list, lerr, pair};
use crate::cmd_system::load_system;
use crate::error::{CliError, CliResult};
use crate::out::say;
use clap::Args;
use layout::device::{DeviceAttr, GridMap, Placement, fmt_shape};
use layout::metal::{MetalLayout, MetalLayoutSpec};
use soc_descriptors::{Chip, ChipOptions};
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `tensim device`.
#[derive(Args, Debug)]
pub struct DeviceArgs {
    /// A built-in system (tensim system --list); its chips' compute grids give the chip grid.
    #[arg(long, conflicts_with_all = ["cluster", "physical_grid"])]
    system: Option<String>,
    /// A tt-umd cluster descriptor instead of a built-in system.
    #[arg(long, value_name = "FILE", conflicts_with = "physical_grid")]
    cluster: Option<PathBuf>,
    /// A chip grid of ROWSxCOLS cores with no system behind it (seed 003's examples use 8x8).
    #[arg(allow_hyphen_values = true, long, value_name = "RxC")]
    physical_grid: Option<String>,
    /// The mesh shape, e.g. 2x1x2 (any rank).
    #[arg(long, default_value = "1")]
    mesh: String,
    /// The chips of the view in row-major mesh order, e.g. 4,5,6,7 (default: the system's chips in its
    /// mesh order; 0..volume-1 with --physical-grid).
    #[arg(allow_hyphen_values = true, long, value_name = "IDS")]
    chips: Option<String>,
    /// The logical worker grid: checked against the mesh's, or the grid a --map is over.
    #[arg(allow_hyphen_values = true, long, value_name = "SHAPE")]
    grid: Option<String>,
    /// A map from the logical grid to (device index, y, x), e.g. "(d0, d1) -> (0, d1, d0)".
    #[arg(allow_hyphen_values = true, long, value_name = "MAP", requires = "grid")]
    map: Option<String>,
    /// Place a tensor of this shape (with --tensor-grid) and list where its shards land.
    #[arg(allow_hyphen_values = true, long, value_name = "SHAPE", requires = "tensor_grid")]
    tensor: Option<String>,
    /// The tensor's tt.metal_layout grid (the device's rank).
    #[arg(allow_hyphen_values = true, long, value_name = "GRID", requires = "tensor")]
    tensor_grid: Option<String>,
    /// The tensor's tt.metal_layout map (default: collapse all but the last dimension).
    #[arg(allow_hyphen_values = true, long, value_name = "MAP", requires = "tensor")]
    tensor_map: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

fn shape(flag: &str, s: &str) -> CliResult<Vec<u64>> {
    let sh: layout::Shape = s.parse().map_err(|e| lerr(flag, e))?;
    sh.check_nonzero(flag.trim_start_matches('-')).map_err(|e| lerr(flag, e))?;
    Ok(sh.dims().to_vec())
}

/// The chip grid and the chips of the view.
fn chips_and_grid(a: &DeviceArgs, mesh: &[u64]) -> CliResult<([u64; 2], Option<Vec<u32>>)> {
    let ids = match &a.chips {
        Some(s) => {
            let v = int_list("--chips", s)?;
            let mut out = Vec::new();
            for x in v {
                let id =
                    u32::try_from(x).map_err(|_| CliError::User(format!("--chips {s}: `{x}` is not a chip id")))?;
                if out.contains(&id) {
                    return Err(CliError::User(format!("--chips {s}: chip {id} is listed twice")));
                }
                out.push(id);
            }
            Some(out)
        }
        None => None,
    };
    if let Some(g) = &a.physical_grid {
        let grid = pair("--physical-grid", g)?;
        if grid.iter().any(|&v| v > 256) {
            return Err(CliError::User(format!("--physical-grid {g}: a chip has at most 256x256 cores")));
        }
        return Ok((grid, ids));
    }
    if a.system.is_none() && a.cluster.is_none() {
        return Err(CliError::User("give --system NAME, --cluster FILE or --physical-grid RxC".into()));
    }
    let (cd, sys_mesh) = load_system(a.system.as_deref(), a.cluster.as_deref())?;
    let volume: u64 = mesh.iter().fold(1u64, |v, &d| v.saturating_mul(d));
    if ids.is_none() && volume > sys_mesh.chips.len() as u64 {
        let needs = if volume == u64::MAX { "more than 2^64".to_string() } else { volume.to_string() };
        return Err(CliError::User(format!(
            "--mesh {} needs {needs} chips; {} has {}",
            a.mesh,
            cd.source,
            sys_mesh.chips.len()
        )));
    }
    // By default the view takes the system's chips in its mesh order, so that neighbouring chips of a
    // mesh of the system's own shape are linked (tt-mlir numbers them 0..N-1 in its system descriptor).
    let ids = ids.or_else(|| Some(sys_mesh.chips[..volume as usize].to_vec()));
    let wanted: Vec<u32> = ids.clone().unwrap_or_default();
    let mut grid = [u64::MAX, u64::MAX];
    for id in &wanted {
        let Some(chip) = cd.chip(*id) else {
            return Err(CliError::User(format!(
                "--mesh {} needs chip {id}, which {} does not have ({} chips: {})",
                a.mesh,
                cd.source,
                cd.chips.len(),
                cd.chips.iter().map(|c| c.id.to_string()).collect::<Vec<_>>().join(", ")
            )));
        };
        let c =
            Chip::builtin(chip.arch, ChipOptions { harvest_mask: chip.harvesting.tensix_mask, ..Default::default() })?;
        let g = c.compute_with_storage_grid_size();
        // tt-mlir: the element-wise minimum of the chips' grids (harvesting can differ).
        grid = [grid[0].min(u64::from(g.y)), grid[1].min(u64::from(g.x))];
    }
    Ok((grid, ids))
}

fn point(p: &[u64]) -> String {
    format!("({})", p.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", "))
}

/// Run `tensim device`.
pub fn run(a: &DeviceArgs) -> CliResult<ExitCode> {
    let mesh = shape("--mesh", &a.mesh)?;
    let (chip_grid, ids) = chips_and_grid(a, &mesh)?;
    let d = match (&a.map, &a.grid) {
        (Some(m), Some(g)) => {
            let map: GridMap = m.parse().map_err(|e| lerr("--map", e))?;
            DeviceAttr::with_map(chip_grid, shape("--grid", g)?, map, &mesh, ids).map_err(|e| lerr("--map", e))?
        }
        (_, grid) => {
            let d = DeviceAttr::from_mesh(chip_grid, &mesh, ids).map_err(|e| lerr("--mesh", e))?;
            if let Some(g) = grid {
                let want = shape("--grid", g)?;
                if want != d.worker_grid {
                    return Err(CliError::User(format!(
                        "--grid {g}: mesh {} over {}x{} chips gives the worker grid {}; give --map to use another grid",
                        a.mesh,
                        chip_grid[0],
                        chip_grid[1],
                        fmt_shape(&d.worker_grid)
                    )));
                }
            }
            d
        }
    };
    let shards = match (&a.tensor, &a.tensor_grid) {
        (Some(t), Some(g)) => {
            let spec = MetalLayoutSpec {
                shape: t.parse().map_err(|e| lerr("--tensor", e))?,
                grid: g.parse().map_err(|e| lerr("--tensor-grid", e))?,
                map: a.tensor_map.as_deref().map(str::parse).transpose().map_err(|e| lerr("--tensor-map", e))?,
                ..Default::default()
            };
            let l = MetalLayout::new(&spec).map_err(|e| lerr("--tensor", e))?;
            let placed = d.place(&l).map_err(|e| lerr("--tensor-grid", e))?;
            Some((l, placed))
        }
        _ => None,
    };
    let table = d.table();
    if a.json {
        let rows: Vec<serde_json::Value> =
            table.iter().map(|(p, at)| serde_json::json!({"point": p, "at": [at.chip, at.y, at.x]})).collect();
        let mut j = serde_json::json!({
            "device": d.to_string(),
            "worker_grid": d.worker_grid,
            "affine_map": d.map.to_string(),
            "inverse_map": d.inverse.as_ref().map(|m| m.to_string()),
            "mesh_shape": d.mesh_shape,
            "chip_ids": d.chip_ids,
            "chip_grid": d.chip_grid,
            "table": rows,
        });
        if let Some((l, placed)) = &shards {
            j["tensor"] = serde_json::json!({
                "layout": l.pretty(),
                "shard_shape": l.scalar_shard_shape(),
                "shards": placed.iter().map(|(p, at)| serde_json::json!({"grid_point": p, "at": [at.chip, at.y, at.x]})).collect::<Vec<_>>(),
            });
        }
        say!("{}", serde_json::to_string_pretty(&j).map_err(|e| e.to_string())?);
        return Ok(ExitCode::SUCCESS);
    }
    say!("{d}");
    say!(
        "worker grid   {} over {} chips of {}x{} cores",
        fmt_shape(&d.worker_grid),
        d.chip_ids.len(),
        chip_grid[0],
        chip_grid[1]
    );
    say!("map           {} -> (device index, y, x); device index i is chip chip_ids[i]", d.map);
    match &d.inverse {
        Some(m) => say!("inverse map   (device index, y, x) = {m}"),
        None => say!(
            "inverse map   none in closed form for a user map; every core's logical point is in the table (--json)"
        ),
    }
    for (i, chip) in d.chip_ids.iter().enumerate() {
        let mine: Vec<&(Vec<u64>, Placement)> = table.iter().filter(|t| t.1.device == i as u32).collect();
        if mine.is_empty() {
            say!("chip {chip:>3}     no logical points");
            continue;
        }
        let lo: Vec<u64> = (0..d.worker_grid.len()).map(|k| mine.iter().map(|t| t.0[k]).min().unwrap_or(0)).collect();
        let hi: Vec<u64> = (0..d.worker_grid.len()).map(|k| mine.iter().map(|t| t.0[k]).max().unwrap_or(0)).collect();
        say!("chip {chip:>3}     {} logical points, from {} to {}", mine.len(), point(&lo), point(&hi));
    }
    if table.len() <= 64 {
        for (p, at) in &table {
            say!("  {} -> chip {} core (y {}, x {})", point(p), at.chip, at.y, at.x);
        }
    } else {
        say!("({} logical points; --json lists each with its [chip, y, x])", table.len());
    }
    if let Some((l, placed)) = &shards {
        say!();
        say!("tensor {}", l.pretty());
        say!("shard of {} elements on each of {} cores:", fmt_shape(l.scalar_shard_shape()), placed.len());
        for chip in &d.chip_ids {
            let cores: Vec<String> = placed
                .iter()
                .filter(|s| s.1.chip == *chip)
                .map(|(p, at)| format!("{}@({},{})", point(p), at.y, at.x))
                .collect();
            if !cores.is_empty() {
                say!("  chip {chip}: {} shards: {}", cores.len(), cores.join(" "));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
