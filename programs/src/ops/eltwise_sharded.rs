//! `eltwise_add_sharded`: c = a + b with a, b and c sharded alike in L1 (height or block sharding), as TTNN's
//! sharded binary op runs it — the three circular buffers alias the tensors' shards
//! (`set_globally_allocated_address`), the reader only publishes the input tiles already in place, the
//! compute kernel adds them into the output shard, and nothing touches DRAM or the NoC.

use super::{page_config, parse_placement, spec_for};
use crate::golden::check_close;
use crate::options::{ExampleOptions, OptionError, Outcome, ProgramError};
use crate::rng::Rng;
use layout::placement::TensorMemoryLayout;
use layout::ttnn::{DataType, MemoryConfig, PageConfig};
use sim_device::prelude::*;
use sim_device::tensor::quantize;

/// Reader: the shard's `n` tiles of a and b are already in their CBs; publish them.
pub fn publish_inputs(k: &mut Dataflow) {
    let n: u32 = k.get_arg_val(0);
    for cb in [CBIndex::c_0, CBIndex::c_1] {
        k.cb_reserve_back(cb, n);
        k.cb_push_back(cb, n);
    }
}

/// Writer: wait until the output shard is complete.
pub fn wait_output(k: &mut Dataflow) {
    let n: u32 = k.get_arg_val(0);
    k.cb_wait_front(CBIndex::c_2, n);
}

/// Compute: `n` tiles of c = a + b.
pub fn add_shard(c: &mut Compute) {
    let n: u32 = c.get_arg_val(0);
    c.binary_op_init_common(CBIndex::c_0, CBIndex::c_1, CBIndex::c_2);
    c.add_tiles_init(CBIndex::c_0, CBIndex::c_1, false);
    c.cb_reserve_back(CBIndex::c_2, n);
    for _ in 0..n {
        c.cb_wait_front(CBIndex::c_0, 1);
        c.cb_wait_front(CBIndex::c_1, 1);
        c.tile_regs_acquire();
        c.add_tiles(CBIndex::c_0, CBIndex::c_1, 0, 0, 0);
        c.tile_regs_commit();
        c.tile_regs_wait();
        c.pack_tile(0, CBIndex::c_2);
        c.tile_regs_release();
        c.cb_pop_front(CBIndex::c_0, 1);
        c.cb_pop_front(CBIndex::c_1, 1);
    }
    c.cb_push_back(CBIndex::c_2, n);
}

/// Run it: `--shape` (default 2048x512) bf16 tiles, sharded as `--to` (default `l1:height:8x8`; height or
/// block, in L1).
pub fn run(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let shape = super::parse_shape(o, "2048x512")?;
    let place = parse_placement("to", o.to.as_deref(), "l1:height:8x8")?;
    if place.buffer != layout::ttnn::BufferKind::L1
        || !matches!(place.layout, TensorMemoryLayout::HeightSharded | TensorMemoryLayout::BlockSharded)
    {
        return Err(
            DeviceError::api(format!("eltwise_add_sharded needs height or block shards in L1, not {place}")).into()
        );
    }
    if page_config(o)? != PageConfig::Tile(TileShape::T32X32) {
        return Err(OptionError::value(
            "page",
            o.page.as_deref().unwrap_or(""),
            "eltwise_add_sharded adds tiles; use tile",
        )
        .into());
    }
    let spec = spec_for(dev, &shape, PageConfig::Tile(TileShape::T32X32), &place)?;
    let n = shape.volume() as usize;
    let mut rng = Rng::new(o.seed);
    let a: Vec<f32> = (0..n).map(|_| quantize(DataType::Bf16, rng.uniform(-1.0, 1.0))).collect();
    let b: Vec<f32> = (0..n).map(|_| quantize(DataType::Bf16, rng.uniform(-1.0, 1.0))).collect();
    let ta = Tensor::from_vec(a.clone(), spec.clone())?.to_device(dev)?;
    let tb = Tensor::from_vec(b.clone(), spec.clone())?.to_device(dev)?;
    let tc = Tensor::from_vec(vec![0.0; n], spec.clone())?.to_device(dev)?;
    let MemoryConfig::Sharded { spec: shard, .. } = &spec.memory else { unreachable!("sharded") };
    let cores: Vec<CoreCoord> = ta.buffer.sharding().expect("sharded").cores.clone();
    let tiles_per_core = ta.buffer.aligned_size_per_bank() / ta.derived.aligned_page_size;
    let page = ta.derived.aligned_page_size as u32;
    let total = (tiles_per_core as u32) * page;
    let mut p = Program::new();
    for (cb, t) in [(CBIndex::c_0, &ta), (CBIndex::c_1, &tb), (CBIndex::c_2, &tc)] {
        p.create_circular_buffer(
            &shard.grid,
            CircularBufferConfig::new(total, &[(cb, DataFormat::Float16_b)])
                .set_page_size(cb, page)
                .set_globally_allocated_address(&t.buffer),
        )?;
    }
    let r = p.create_kernel(
        Kernel::dataflow("tensim/ops/eltwise_sharded/reader", publish_inputs),
        &shard.grid,
        DataMovementConfig::reader(vec![]),
    )?;
    let w = p.create_kernel(
        Kernel::dataflow("tensim/ops/eltwise_sharded/writer", wait_output),
        &shard.grid,
        DataMovementConfig::writer(vec![]),
    )?;
    let c = p.create_kernel(
        Kernel::compute("tensim/ops/eltwise_sharded/add", add_shard),
        &shard.grid,
        ComputeConfig::default(),
    )?;
    // Every core holds the same number of tile slots; a core whose shard is partly padding adds padding.
    for core in &cores {
        for k in [r, w, c] {
            p.set_runtime_args(k, *core, &[tiles_per_core as u32])?;
        }
    }
    let report = dev.enqueue_program(&p)?;
    let got = tc.to_host(dev)?.data;
    let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| quantize(DataType::Bf16, x + y)).collect();
    let (passed, check) = check_close("a + b (sharded)", &got, &want, 1e-2, 1e-2);
    let dram = report.noc.dram.iter().map(|d| d.read_bytes + d.write_bytes).sum::<u64>();
    let metrics = vec![format!("{} cores, {tiles_per_core} tiles each; DRAM bytes during the op: {dram}", cores.len())];
    Ok(Outcome { passed, check, report, metrics })
}
