//! Host write → device → host read is bit-exact for every layout: random shapes, data types, row-major or
//! tiled pages, interleaved or HEIGHT/WIDTH/BLOCK sharded (physical or logical shards) or N-D sharded, in
//! L1 or DRAM; and the pages land where `layout` says.

use proptest::prelude::*;
use sim_device::prelude::*;
use sim_device::tensor::quantize;

#[derive(Debug, Clone)]
enum Mem {
    Interleaved,
    Height,
    Width,
    Block,
    Nd,
}

fn case() -> impl Strategy<Value = (Vec<u64>, DataType, Option<TileShape>, Mem, bool, bool)> {
    (
        prop::collection::vec(1u64..4, 0..2),
        1u64..80,
        1u64..80,
        prop::sample::select(vec![
            DataType::Bf16,
            DataType::F32,
            DataType::U16,
            DataType::U32,
            DataType::I32,
            DataType::U8,
        ]),
        prop::option::of(prop::sample::select(TileShape::SUPPORTED.to_vec())),
        prop::sample::select(vec![Mem::Interleaved, Mem::Height, Mem::Width, Mem::Block, Mem::Nd]),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(outer, h, w, dt, tiled, mem, logical, dram)| {
            let mut shape = outer;
            shape.push(h);
            shape.push(w);
            (shape, dt, tiled, mem, logical, dram)
        })
}

/// A spec for the case, with shards that fit an 8x8 grid (`None` when the case has no legal spec). Tiles
/// are any shape the hardware has.
fn spec_of(
    shape: &[u64],
    dt: DataType,
    tile: Option<TileShape>,
    mem: &Mem,
    logical: bool,
    dram: bool,
) -> Option<TensorSpec> {
    let page = match tile {
        Some(t) => PageConfig::Tile(t),
        None => PageConfig::RowMajor,
    };
    let buffer = if dram { BufferKind::Dram } else { BufferKind::L1 };
    let rank = shape.len();
    let h2: u64 = shape[..rank - 1].iter().product();
    let w = shape[rank - 1];
    let (ah, aw) = tile.map_or((1, 1), |t| (t.height as u64, t.width as u64));
    let round = |v: u64, m: u64| v.div_ceil(m) * m;
    let (pad_h, pad_w) = (shape[..rank - 2].iter().product::<u64>() * round(shape[rank - 2], ah), round(w, aw));
    let mode = if logical { ShardMode::Logical } else { ShardMode::Physical };
    let (src_h, src_w) = if logical { (h2, w) } else { (pad_h, pad_w) };
    let grid = |n: u64| -> Option<CoreRangeSet> {
        if dram {
            (n <= 8).then(|| format!("(0,0)-({},0)", n - 1).parse().unwrap())
        } else {
            (n <= 56).then(|| num_cores_to_corerangeset(n as u32, CoreCoord::new(7, 8), true).unwrap())
        }
    };
    let sharded = |layout: TensorMemoryLayout, shard: [u64; 2]| -> Option<MemoryConfig> {
        let n = src_h.div_ceil(shard[0]) * src_w.div_ceil(shard[1]);
        Some(MemoryConfig::Sharded {
            layout,
            buffer,
            spec: ShardSpec {
                grid: grid(n)?,
                shape: shard,
                orientation: ShardOrientation::RowMajor,
                mode,
                physical_shape: None,
            },
        })
    };
    let step = |v: u64, a: u64| if logical { v.div_ceil(3).max(1) } else { round(v.div_ceil(3), a) };
    let memory = match mem {
        Mem::Interleaved => MemoryConfig::Interleaved(buffer),
        Mem::Height => sharded(TensorMemoryLayout::HeightSharded, [step(src_h, ah), src_w])?,
        Mem::Width => sharded(TensorMemoryLayout::WidthSharded, [src_h, step(src_w, aw)])?,
        Mem::Block => sharded(TensorMemoryLayout::BlockSharded, [step(src_h, ah), step(src_w, aw)])?,
        Mem::Nd => {
            let mut sh: Vec<u64> = shape.to_vec();
            // Sometimes larger than the tensor in the outer dimension: one shard there, padding slots.
            sh[0] = if logical { sh[0] + 1 } else { sh[0].div_ceil(2) };
            sh[rank - 1] = sh[rank - 1].div_ceil(2);
            MemoryConfig::NdSharded {
                buffer,
                spec: NdShardSpec {
                    shape: Shape::new(sh),
                    grid: grid(6)?,
                    orientation: ShardOrientation::ColMajor,
                    strategy: DistributionStrategy::RoundRobin1D,
                },
            }
        }
    };
    Some(TensorSpec {
        shape: Shape::new(shape.to_vec()),
        dtype: dt,
        page,
        memory,
        padded_shape: None,
        bank_alignment: 16,
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, ..ProptestConfig::default() })]

    #[test]
    fn write_then_read_is_bit_exact((shape, dt, tile, mem, logical, dram) in case(), arch_bh in any::<bool>()) {
        let Some(spec) = spec_of(&shape, dt, tile, &mem, logical, dram) else { return Ok(()) };
        if spec.derive().is_err() {
            return Ok(()); // an illegal spec (its error is tested in layout)
        }
        let arch = if arch_bh { Arch::Blackhole } else { Arch::WormholeB0 };
        let mut dev = Device::builtin(arch).unwrap();
        let n = spec.shape.volume() as usize;
        let data: Vec<f32> = (0..n).map(|i| quantize(dt, ((i * 37) % 251) as f32 - if dt == DataType::I32 { 100.0 } else { 0.0 })).collect();
        let t = Tensor::from_vec(data.clone(), spec).unwrap();
        let on = match t.to_device(&mut dev) {
            Ok(d) => d,
            Err(e) => {
                // Only memory exhaustion may refuse a legal spec.
                prop_assert!(e.to_string().contains("out of"), "{e}");
                return Ok(());
            }
        };
        let back = on.to_host(&mut dev).unwrap();
        prop_assert_eq!(back.data, data);
    }
}

#[test]
fn the_pages_of_a_block_sharded_tensor_are_on_their_cores() {
    let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
    let spec = TensorSpec {
        shape: "64x64".parse().unwrap(),
        dtype: DataType::F32,
        page: PageConfig::Tile(TileShape::T32X32),
        memory: MemoryConfig::Sharded {
            layout: TensorMemoryLayout::BlockSharded,
            buffer: BufferKind::L1,
            spec: ShardSpec {
                grid: "(2,3)-(3,4)".parse().unwrap(),
                shape: [32, 32],
                orientation: ShardOrientation::RowMajor,
                mode: ShardMode::Physical,
                physical_shape: None,
            },
        },
        padded_shape: None,
        bank_alignment: 16,
    };
    let data: Vec<f32> = (0..64 * 64).map(|i| i as f32).collect();
    let d = Tensor::from_vec(data, spec).unwrap().to_device(&mut dev).unwrap();
    // Tile (1, 0) — rows 32..63, columns 0..31 — is the third shard: core (2,4). Its first face's first
    // element is (32, 0) = 2048.
    let v: Vec<f32> = dev.read_from_device_l1(CoreCoord::new(2, 4), d.buffer.address(), 1).unwrap();
    assert_eq!(v, vec![2048.0]);
}
