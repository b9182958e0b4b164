//! `tensim layout pages`: tt-metal's N-D buffer distribution of a tensor over cores.

use super::{check_listing, check_picture, lerr, pair, picture_plan, write_picture};
use crate::error::{CliError, CliResult};
use crate::out::say;
use clap::Args;
use layout::core_ranges::CoreRangeSet;
use layout::placement::{BufferDistributionSpec, DistributionStrategy, ShardOrientation};
use layout::{Distribution, PageMapping, Shape};
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `tensim layout pages`.
#[derive(Args, Debug)]
pub struct PagesArgs {
    /// The tensor shape in elements, e.g. 5x2x64x96.
    #[arg(allow_hyphen_values = true, long)]
    tensor: String,
    /// The shard shape in elements (the tensor's rank), e.g. 5x2x32x32.
    #[arg(allow_hyphen_values = true, long)]
    shard: String,
    /// The page shape HxW over the last two dimensions, e.g. 32x32.
    #[arg(allow_hyphen_values = true, long, value_name = "HxW")]
    page: String,
    /// The cores, as tt-metal (x, y) ranges: "(0,0)-(3,3)".
    #[arg(allow_hyphen_values = true, long, value_name = "RANGES")]
    cores: String,
    /// The order shards go to cores: row_major or col_major.
    #[arg(allow_hyphen_values = true, long, default_value = "row_major")]
    orientation: String,
    /// Distribution: round_robin (tt-metal's default) or grid_2d.
    #[arg(allow_hyphen_values = true, long, default_value = "round_robin")]
    strategy: String,
    /// Bytes per element, possibly fractional as tt-metal's distribution tests declare block floats
    /// (bfp8_b 1.0625, bfp4_b 0.5625): page size = page elements x this, rounded up to a whole byte.
    #[arg(allow_hyphen_values = true, long, default_value = "2")]
    bytes_per_element: String,
    /// The page size in bytes, instead of --bytes-per-element.
    #[arg(allow_hyphen_values = true, long, value_name = "N", conflicts_with = "bytes_per_element")]
    page_bytes: Option<u64>,
    /// Alignment of pages in a bank, bytes (L1 16, DRAM 32 on Wormhole / 64 on Blackhole).
    #[arg(allow_hyphen_values = true, long, default_value_t = 16)]
    alignment: u64,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Draw every core's page slots (SVG).
    #[arg(allow_hyphen_values = true, long, value_name = "FILE.svg")]
    svg: Option<PathBuf>,
}

/// Run `tensim layout pages`.
pub fn run(a: &PagesArgs) -> CliResult<ExitCode> {
    let plan = picture_plan(a.svg.as_deref())?;
    let tensor: Shape = a.tensor.parse().map_err(|e| lerr("--tensor", e))?;
    let shard: Shape = a.shard.parse().map_err(|e| lerr("--shard", e))?;
    let page = pair("--page", &a.page)?;
    let cores: CoreRangeSet = a.cores.parse().map_err(|e| lerr("--cores", e))?;
    let orientation: ShardOrientation = a.orientation.parse().map_err(|e| lerr("--orientation", e))?;
    let strategy = match a.strategy.as_str() {
        "round_robin" => DistributionStrategy::RoundRobin1D,
        "grid_2d" => DistributionStrategy::Grid2D { cols: 0, rows: 0 },
        other => return Err(CliError::User(format!("--strategy {other}: use round_robin or grid_2d"))),
    };
    let page_elems = page[0].saturating_mul(page[1]);
    let page_bytes = match a.page_bytes {
        Some(0) => return Err(CliError::User("--page-bytes 0: a page holds at least one byte".into())),
        Some(n) if n > 1 << 32 => return Err(CliError::User(format!("--page-bytes {n}: at most 2^32"))),
        Some(n) => n,
        None => {
            let bpe: f64 =
                a.bytes_per_element.trim().parse().ok().filter(|v: &f64| v.is_finite()).ok_or_else(|| {
                    CliError::User(format!(
                        "--bytes-per-element {}: not a number (e.g. 2, or 1.0625 for bfp8_b)",
                        a.bytes_per_element
                    ))
                })?;
            if !(bpe > 0.0 && bpe <= 8.0) {
                return Err(CliError::User(format!(
                    "--bytes-per-element {}: use a number above 0 and at most 8 (e.g. 1.0625 for bfp8_b)",
                    a.bytes_per_element
                )));
            }
            (page_elems as f64 * bpe).ceil() as u64
        }
    };
    if a.alignment == 0 || !a.alignment.is_power_of_two() {
        return Err(CliError::User(format!("--alignment {}: use a power of two", a.alignment)));
    }
    let spec = BufferDistributionSpec::from_shard_spec(&tensor, &shard, page, &cores, orientation, strategy)
        .map_err(|e| CliError::User(e.to_string()))?;
    let dist = Distribution::Sharded(spec.distribution().clone());
    let slots = dist.total_slots();
    check_listing("layout pages", slots)?;
    check_picture(a.svg.as_deref(), "page slots", slots)?;
    let m = PageMapping::new(&dist, &spec.cores);
    let aligned = page_bytes.div_ceil(a.alignment) * a.alignment;
    let per_bank = dist.slots_per_bank() * aligned;
    if a.json {
        let cores: Vec<[u32; 2]> = m.all_cores.iter().map(|c| [c.x, c.y]).collect();
        let j = serde_json::json!({
            "all_cores": cores,
            "num_cores": m.num_cores,
            "num_dev_pages": m.num_dev_pages,
            "aligned_size": m.num_dev_pages * aligned,
            "aligned_size_per_bank": per_bank,
            "page_bytes": page_bytes,
            "core_host_page_indices": m.core_host_page_indices,
        });
        say!("{}", serde_json::to_string_pretty(&j).map_err(|e| e.to_string())?);
    } else {
        let d = spec.distribution();
        say!(
            "tensor {tensor} in pages of {}x{}: {} pages, shards of {} pages ({} shards)",
            page[0],
            page[1],
            d.tensor_pages(),
            d.shard_pages(),
            d.num_shards()
        );
        say!(
            "cores {} ({} with data); {} page slots per core, {} device pages",
            m.all_cores.len(),
            m.num_cores,
            dist.slots_per_bank(),
            m.num_dev_pages
        );
        say!(
            "page {page_bytes} bytes, aligned {aligned}; {} bytes per bank, {} bytes in all",
            per_bank,
            m.num_dev_pages * aligned
        );
        for (c, pages) in m.all_cores.iter().zip(&m.core_host_page_indices) {
            let list: Vec<String> = pages.iter().map(|p| p.map_or("-".to_string(), |v| v.to_string())).collect();
            say!("  ({},{}): {}", c.x, c.y, list.join(" "));
        }
    }
    write_picture(plan, || {
        let owners = m.all_cores.iter().map(|c| format!("({},{})", c.x, c.y)).collect();
        let title = format!(
            "{tensor} in {}x{} pages, shards {shard}: host page in each slot of each core, padding hatched",
            page[0], page[1]
        );
        layout::svg::render(&layout::svg::slots_picture(&title, owners, &m.core_host_page_indices))
    })?;
    Ok(ExitCode::SUCCESS)
}
