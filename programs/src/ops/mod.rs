//! Ops that move tensors between layouts — `interleaved_to_sharded`, `sharded_to_interleaved`, `reshard` —
//! an element-wise add on sharded L1 inputs, and TTNN's 2-D multicast matmul, each checked against the
//! host's copy of the data.

pub mod eltwise_sharded;
pub mod matmul_2d_mcast;
pub mod move_plan;
pub mod moves;
pub mod spec;

use crate::options::{ExampleOptions, OptionError, OptionProblem, Outcome, ProgramError};
use crate::rng::Rng;
use layout::placement::TensorMemoryLayout;
use layout::ttnn::{DataType, MemoryConfig, PageConfig, TensorSpec};
use sim_device::prelude::*;
use sim_device::tensor::quantize;
use spec::Placement;

/// The page kind of `--page` (`tile` by default, or `row_major`).
pub fn page_config(o: &ExampleOptions) -> Result<PageConfig, OptionError> {
    match o.page.as_deref() {
        None | Some("tile") => Ok(PageConfig::Tile(TileShape::T32X32)),
        Some("row_major") => Ok(PageConfig::RowMajor),
        Some(p) => Err(OptionError::value("page", p, "use tile or row_major")),
    }
}

/// The spec of a bf16 tensor of `shape` placed as `placement` on `dev`.
pub fn spec_for(
    dev: &Device,
    shape: &Shape,
    page: PageConfig,
    placement: &Placement,
) -> Result<TensorSpec, DeviceError> {
    let base = TensorSpec {
        shape: shape.clone(),
        dtype: DataType::Bf16,
        page,
        memory: MemoryConfig::Interleaved(placement.buffer),
        padded_shape: None,
        bank_alignment: 16,
    };
    let d = base.derive()?;
    // Shards are whole tiles, or any number of row-major elements.
    let granule = match page {
        PageConfig::Tile(t) => [t.height as u64, t.width as u64],
        PageConfig::RowMajor => [1, 1],
    };
    let memory = placement
        .memory_config(d.physical_shape, granule, dev.compute_with_storage_grid_size(), dev.num_dram_channels() as u32)
        .map_err(DeviceError::api)?;
    Ok(TensorSpec { memory, ..base })
}

fn parse_placement(option: &'static str, v: Option<&str>, default: &str) -> Result<Placement, OptionError> {
    v.unwrap_or(default).parse().map_err(|e: String| OptionError::follows(option, e))
}

fn parse_shape(o: &ExampleOptions, default: &str) -> Result<Shape, OptionError> {
    let shape_error = |e: String| OptionError { option: "shape", value: None, problem: OptionProblem::Value(e) };
    let s: Shape = o.shape.as_deref().unwrap_or(default).parse().map_err(|e| shape_error(format!("{e}")))?;
    if s.rank() == 0 {
        return Err(shape_error("at least one dimension".into()));
    }
    if let Some(i) = s.0.iter().position(|&d| d == 0) {
        return Err(OptionError::value("shape", &s, format!("extent {i} is 0; every extent must be at least 1")));
    }
    if s.volume() > 1 << 26 {
        return Err(OptionError::value(
            "shape",
            &s,
            format!("{} elements is over the 2^26 these ops take", s.volume()),
        ));
    }
    Ok(s)
}

/// Move a random tensor of `shape` from `from` to `to` and check every element arrived.
fn move_and_check(
    dev: &mut Device,
    o: &ExampleOptions,
    shape: &Shape,
    from: Placement,
    to: Placement,
) -> Result<Outcome, ProgramError> {
    let page = page_config(o)?;
    let src_spec = spec_for(dev, shape, page, &from)?;
    let dst_spec = spec_for(dev, shape, page, &to)?;
    let mut rng = Rng::new(o.seed);
    let n = shape.volume() as usize;
    let data: Vec<f32> = (0..n).map(|_| quantize(DataType::Bf16, rng.uniform(-4.0, 4.0))).collect();
    let src = Tensor::from_vec(data.clone(), src_spec)?.to_device(dev)?;
    let dst = Tensor::from_vec(vec![0.0; n], dst_spec)?.to_device(dev)?;
    let (report, strategy) = moves::move_tensor(dev, &src, &dst)?;
    let got = dst.to_host(dev)?.data;
    let wrong = got.iter().zip(&data).filter(|(a, b)| a.to_bits() != b.to_bits()).count();
    let passed = wrong == 0;
    let check = if passed {
        format!("all {n} elements moved from {from} to {to} bit-exactly")
    } else {
        format!("{wrong} of {n} elements differ after moving from {from} to {to}")
    };
    let bytes = src.derived.num_pages * src.derived.page_size;
    let metrics = vec![
        format!("how: {strategy}"),
        format!(
            "moved {bytes} bytes ({} pages of {} bytes) in {} cycles: {:.2} B/cycle",
            src.derived.num_pages,
            src.derived.page_size,
            report.cycles.0,
            bytes as f64 / report.cycles.0.max(1) as f64
        ),
    ];
    Ok(Outcome { passed, check, report, metrics })
}

/// `reshard`: any placement to any other (defaults: 512x512 bf16 tiles from 4x4 L1 blocks to 8x8 L1 blocks).
pub fn run_reshard(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let shape = parse_shape(o, "512x512")?;
    let from = parse_placement("from", o.from.as_deref(), "l1:block:4x4")?;
    let to = parse_placement("to", o.to.as_deref(), "l1:block:8x8")?;
    move_and_check(dev, o, &shape, from, to)
}

/// `interleaved_to_sharded` (defaults: 2048x512 bf16 tiles from DRAM to height shards on 64 cores).
pub fn run_interleaved_to_sharded(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let shape = parse_shape(o, "2048x512")?;
    let from = parse_placement("from", o.from.as_deref(), "dram:interleaved")?;
    let to = parse_placement("to", o.to.as_deref(), "l1:height:8x8")?;
    if from.layout != TensorMemoryLayout::Interleaved || to.layout == TensorMemoryLayout::Interleaved {
        return Err(DeviceError::api(format!(
            "interleaved_to_sharded moves an interleaved tensor to a sharded one, not {from} to {to} (use reshard)"
        ))
        .into());
    }
    move_and_check(dev, o, &shape, from, to)
}

/// `sharded_to_interleaved` (defaults: the reverse of `interleaved_to_sharded`).
pub fn run_sharded_to_interleaved(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let shape = parse_shape(o, "2048x512")?;
    let from = parse_placement("from", o.from.as_deref(), "l1:height:8x8")?;
    let to = parse_placement("to", o.to.as_deref(), "dram:interleaved")?;
    if from.layout == TensorMemoryLayout::Interleaved || to.layout != TensorMemoryLayout::Interleaved {
        return Err(DeviceError::api(format!(
            "sharded_to_interleaved moves a sharded tensor to an interleaved one, not {from} to {to} (use reshard)"
        ))
        .into());
    }
    move_and_check(dev, o, &shape, from, to)
}
