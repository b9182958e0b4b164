//! `tensim layout ttnn`: what TTNN derives from a tensor spec.

use super::{check_listing, check_picture, lerr, pair, pair_u32, picture_plan, write_picture};
use crate::error::{CliError, CliResult};
use crate::out::say;
use clap::Args;
use layout::core_ranges::{CoreCoord, CoreRangeSet};
use layout::placement::{DistributionStrategy, ShardOrientation, TensorMemoryLayout};
use layout::ttnn::{
    BufferKind, MemoryConfig, NdShardSpec, PageConfig, ShardMode, ShardSpec, TensorSpec, cores_from_count,
    virtual_grid_spec,
};
use layout::{Shape, TileShape};
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `tensim layout ttnn`.
#[derive(Args, Debug)]
pub struct TtnnArgs {
    /// The logical shape, e.g. 1x2x15x20.
    #[arg(allow_hyphen_values = true, long)]
    shape: String,
    /// Data type: bf16, f32, u8, u16, u32, i32, bfp8, bfp4.
    #[arg(allow_hyphen_values = true, long, default_value = "bf16")]
    dtype: String,
    /// Page layout: row_major or tile.
    #[arg(allow_hyphen_values = true, long, default_value = "row_major")]
    layout: String,
    /// Tile shape of --layout tile (32x32, 16x32, 8x32, 4x32, 2x32, 1x32, 32x16, 16x16, 8x16, 4x16, 2x16, 1x16).
    #[arg(allow_hyphen_values = true, long, value_name = "HxW", default_value = "32x32")]
    tile: String,
    /// Memory layout: interleaved, height, width, block or nd.
    #[arg(allow_hyphen_values = true, long, default_value = "interleaved")]
    memory: String,
    /// Buffer: l1 or dram (default: dram when interleaved, l1 when sharded).
    #[arg(allow_hyphen_values = true, long)]
    buffer: Option<String>,
    /// Shard shape in elements: HxW for height/width/block, any rank for nd.
    #[arg(allow_hyphen_values = true, long, value_name = "SHAPE")]
    shard: Option<String>,
    /// Physical shard shape of a logical-mode shard spec.
    #[arg(allow_hyphen_values = true, long, value_name = "HxW")]
    physical_shard: Option<String>,
    /// Shard mode: physical or logical (default: physical; logical when --physical-shard is given, as
    /// tt-metal's ShardSpec constructor with a physical shape does).
    #[arg(allow_hyphen_values = true, long)]
    shard_mode: Option<String>,
    /// Shard cores as tt-metal (x, y) ranges, e.g. "(0,0)-(7,6),(0,7)-(3,7)".
    #[arg(allow_hyphen_values = true, long, value_name = "RANGES")]
    cores: Option<String>,
    /// The first N cores of --grid-size (num_cores_to_corerangeset).
    #[arg(allow_negative_numbers = true, long, value_name = "N")]
    num_cores: Option<u32>,
    /// The grid --num-cores and --virtual-grid pick from, columns x rows (default 8x8).
    #[arg(allow_hyphen_values = true, long, value_name = "CxR")]
    grid_size: Option<String>,
    /// With --num-cores: fill columns first.
    #[arg(long)]
    col_wise: bool,
    /// Derive the shard from a virtual grid RxC the way tt-mlir does for TTNN layouts.
    #[arg(allow_hyphen_values = true, long, value_name = "RxC")]
    virtual_grid: Option<String>,
    /// Shard orientation: row_major or col_major.
    #[arg(allow_hyphen_values = true, long, default_value = "row_major")]
    orientation: String,
    /// N-D shard distribution: round_robin or grid_2d.
    #[arg(allow_hyphen_values = true, long, default_value = "round_robin")]
    strategy: String,
    /// An explicit padded shape.
    #[arg(allow_hyphen_values = true, long, value_name = "SHAPE")]
    padded_shape: Option<String>,
    /// Also list, per core, the host page index of every page slot (null: padding).
    #[arg(long)]
    pages: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Draw the tensor's pages over its cores or banks (SVG).
    #[arg(allow_hyphen_values = true, long, value_name = "FILE.svg")]
    svg: Option<PathBuf>,
}

fn spec_of(a: &TtnnArgs) -> CliResult<TensorSpec> {
    let shape: Shape = a.shape.parse().map_err(|e| lerr("--shape", e))?;
    let page = match a.layout.as_str() {
        "row_major" => PageConfig::RowMajor,
        "tile" => {
            let [h, w] = pair_u32("--tile", &a.tile)?;
            PageConfig::Tile(TileShape::new(h, w).map_err(|e| lerr("--tile", e))?)
        }
        other => return Err(CliError::User(format!("--layout {other}: use row_major or tile"))),
    };
    let kind = match a.memory.as_str() {
        "interleaved" => TensorMemoryLayout::Interleaved,
        "height" => TensorMemoryLayout::HeightSharded,
        "width" => TensorMemoryLayout::WidthSharded,
        "block" | "nd" => TensorMemoryLayout::BlockSharded,
        other => return Err(CliError::User(format!("--memory {other}: use interleaved, height, width, block or nd"))),
    };
    let sharded = kind != TensorMemoryLayout::Interleaved;
    let buffer = match a.buffer.as_deref() {
        Some(b) => b.parse::<BufferKind>().map_err(|e| lerr("--buffer", e))?,
        None if sharded => BufferKind::L1,
        None => BufferKind::Dram,
    };
    let orientation: ShardOrientation = a.orientation.parse().map_err(|e| lerr("--orientation", e))?;
    let mode: ShardMode = match a.shard_mode.as_deref() {
        Some(m) => m.parse().map_err(|e| lerr("--shard-mode", e))?,
        None if a.physical_shard.is_some() => ShardMode::Logical,
        None => ShardMode::Physical,
    };
    let grid_size = match &a.grid_size {
        Some(g) => {
            let [c, r] = pair_u32("--grid-size", g)?;
            CoreCoord::new(c, r)
        }
        None => CoreCoord::new(8, 8),
    };
    if !sharded {
        for (flag, given) in [
            ("--shard", a.shard.is_some()),
            ("--cores", a.cores.is_some()),
            ("--num-cores", a.num_cores.is_some()),
            ("--virtual-grid", a.virtual_grid.is_some()),
            ("--physical-shard", a.physical_shard.is_some()),
        ] {
            if given {
                return Err(CliError::User(format!(
                    "{flag} applies to sharded memory (--memory height|width|block|nd), not interleaved"
                )));
            }
        }
    }
    let bank_alignment = if buffer == BufferKind::Dram { 32 } else { 16 };
    let padded_shape = a.padded_shape.as_deref().map(str::parse).transpose().map_err(|e| lerr("--padded-shape", e))?;
    let base = TensorSpec {
        shape,
        dtype: a.dtype.parse().map_err(|e| lerr("--dtype", e))?,
        page,
        memory: MemoryConfig::Interleaved(buffer),
        padded_shape,
        bank_alignment,
    };
    if !sharded {
        return Ok(base);
    }
    let picks = [a.cores.is_some(), a.num_cores.is_some(), a.virtual_grid.is_some()].iter().filter(|&&b| b).count();
    if picks != 1 {
        return Err(CliError::User(
            "a sharded spec needs its cores: exactly one of --cores RANGES, --num-cores N (with --grid-size CxR) or --virtual-grid RxC".into(),
        ));
    }
    if let Some(vg) = &a.virtual_grid {
        if a.memory == "nd" {
            return Err(CliError::User(
                "--virtual-grid derives a 2-D shard spec; use --memory height|width|block".into(),
            ));
        }
        if a.shard.is_some() {
            return Err(CliError::User("--virtual-grid derives the shard; leave out --shard".into()));
        }
        let [r, c] = pair_u32("--virtual-grid", vg)?;
        let d = base.derive().map_err(|e| CliError::User(e.to_string()))?;
        let granule = match page {
            PageConfig::Tile(t) => [t.height as u64, t.width as u64],
            PageConfig::RowMajor => [1, 1],
        };
        let (layout, spec) = virtual_grid_spec(d.physical_shape, granule, r, c, grid_size, Some(kind))
            .map_err(|e| lerr("--virtual-grid", e))?;
        let spec = ShardSpec { orientation, ..spec };
        return Ok(TensorSpec { memory: MemoryConfig::Sharded { layout, buffer, spec }, ..base });
    }
    let grid: CoreRangeSet = match (&a.cores, a.num_cores) {
        (Some(c), _) => c.parse().map_err(|e| lerr("--cores", e))?,
        (None, Some(n)) => cores_from_count(n, grid_size, a.col_wise).map_err(|e| lerr("--num-cores", e))?,
        _ => unreachable!("checked above"),
    };
    let shard =
        a.shard.as_deref().ok_or_else(|| CliError::User("a sharded spec needs --shard (or --virtual-grid)".into()))?;
    if a.memory == "nd" {
        let strategy = match a.strategy.as_str() {
            "round_robin" => DistributionStrategy::RoundRobin1D,
            "grid_2d" => DistributionStrategy::Grid2D { cols: 0, rows: 0 },
            other => return Err(CliError::User(format!("--strategy {other}: use round_robin or grid_2d"))),
        };
        let shape: Shape = shard.parse().map_err(|e| lerr("--shard", e))?;
        return Ok(TensorSpec {
            memory: MemoryConfig::NdSharded { buffer, spec: NdShardSpec { shape, grid, orientation, strategy } },
            ..base
        });
    }
    let physical_shape = a.physical_shard.as_deref().map(|p| pair("--physical-shard", p)).transpose()?;
    if physical_shape.is_some() && mode != ShardMode::Logical {
        return Err(CliError::User(
            "--physical-shard applies to --shard-mode logical (the default when --physical-shard is given)".into(),
        ));
    }
    let spec = ShardSpec { grid, shape: pair("--shard", shard)?, orientation, mode, physical_shape };
    Ok(TensorSpec { memory: MemoryConfig::Sharded { layout: kind, buffer, spec }, ..base })
}

/// Run `tensim layout ttnn`.
pub fn run(a: &TtnnArgs) -> CliResult<ExitCode> {
    let plan = picture_plan(a.svg.as_deref())?;
    let spec = spec_of(a)?;
    let d = spec.derive().map_err(|e| CliError::User(e.to_string()))?;
    check_picture(a.svg.as_deref(), "pages", d.num_pages)?;
    if a.pages {
        check_listing("--pages", d.distribution.total_slots())?;
    }
    let cores: Vec<[u32; 2]> = d.cores.iter().map(|c| [c.x, c.y]).collect();
    if a.json {
        let mut j = serde_json::json!({
            "padded_shape": d.padded_shape.dims(),
            "physical_shape": d.physical_shape,
            "alignment": d.alignment,
            "strides": d.strides,
            "page_size": d.page_size,
            "num_pages": d.num_pages,
            "logical_shard_shape": d.logical_shard_shape,
            "physical_shard_shape": d.physical_shard_shape,
            "num_shards": d.num_shards,
            "cores": cores,
        });
        if a.pages {
            j["pages"] = serde_json::json!(d.pages());
        }
        say!("{}", serde_json::to_string_pretty(&j).map_err(|e| e.to_string())?);
    } else {
        say!("{} {} {}, {} in {}", spec.shape, spec.dtype, spec.page, d.layout, d.buffer);
        say!("padded shape      {}", d.padded_shape);
        say!("physical shape    {}x{} (the 2-D buffer)", d.physical_shape[0], d.physical_shape[1]);
        say!("alignment         {:?}", d.alignment);
        say!("strides           {:?}", d.strides);
        say!(
            "pages             {} of {} bytes ({}x{} elements)",
            d.num_pages,
            d.page_size,
            d.page_shape[0],
            d.page_shape[1]
        );
        if let (Some(l), Some(p), Some(n)) = (&d.logical_shard_shape, &d.physical_shard_shape, d.num_shards) {
            say!("shards            {n}: logical {l:?}, physical {p:?}, on {} cores", d.cores.len());
            if a.pages {
                for (c, pages) in d.cores.iter().zip(d.pages()) {
                    let list: Vec<String> =
                        pages.iter().map(|p| p.map_or("-".to_string(), |v| v.to_string())).collect();
                    say!("  ({},{}): {}", c.x, c.y, list.join(" "));
                }
            }
        }
    }
    let banks = if d.buffer == BufferKind::Dram { 12 } else { 64 };
    write_picture(plan, || layout::svg::render(&d.picture(banks)))?;
    Ok(ExitCode::SUCCESS)
}
