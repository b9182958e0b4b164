//! Seed 004's worked examples, and TTNN's rules on the corners (padding, logical shards, illegal specs).

use super::*;
use crate::core_ranges::CoreCoord;

fn spec(shape: &str, dtype: &str, page: PageConfig, memory: MemoryConfig) -> TensorSpec {
    TensorSpec {
        shape: shape.parse().unwrap(),
        dtype: dtype.parse().unwrap(),
        page,
        memory,
        padded_shape: None,
        bank_alignment: 16,
    }
}

fn tile() -> PageConfig {
    PageConfig::Tile(TileShape::T32X32)
}

fn sharded(layout: TensorMemoryLayout, grid: &str, shape: [u64; 2], mode: ShardMode) -> MemoryConfig {
    MemoryConfig::Sharded {
        layout,
        buffer: BufferKind::L1,
        spec: ShardSpec {
            grid: grid.parse().unwrap(),
            shape,
            orientation: ShardOrientation::RowMajor,
            mode,
            physical_shape: None,
        },
    }
}

#[test]
fn row_major_and_tiled_pages_of_a_64x64_tensor() {
    // Figure 1: each row of a 64x64 row-major tensor is a page: 64 pages.
    let rm = spec("64x64", "bf16", PageConfig::RowMajor, MemoryConfig::Interleaved(BufferKind::Dram)).derive().unwrap();
    assert_eq!((rm.num_pages, rm.page_size, rm.alignment.clone()), (64, 128, vec![1]));
    // Figure 2: tiled, four 32x32 tiles.
    let t = spec("64x64", "bf16", tile(), MemoryConfig::Interleaved(BufferKind::Dram)).derive().unwrap();
    assert_eq!((t.num_pages, t.page_size, t.alignment.clone()), (4, 2048, vec![32, 32]));
    // bfloat8_b tiles are 1088 bytes.
    let b = spec("64x64", "bfp8", tile(), MemoryConfig::Interleaved(BufferKind::Dram)).derive().unwrap();
    assert_eq!(b.page_size, 1088);
    assert!(spec("64x64", "bfp8", PageConfig::RowMajor, MemoryConfig::Interleaved(BufferKind::Dram)).derive().is_err());
}

#[test]
fn outer_dimensions_collapse_into_rows() {
    // [1x4x6x8] is stored as a [24x8] buffer.
    let d = spec("1x4x6x8", "f32", PageConfig::RowMajor, MemoryConfig::Interleaved(BufferKind::L1)).derive().unwrap();
    assert_eq!(d.physical_shape, [24, 8]);
    assert_eq!(d.strides, vec![192, 48, 8, 1]);
    // Tiled, each of the last two dimensions pads to the tile: 1x4x32x32, a 128x32 buffer of 4 tiles.
    let t = spec("1x4x6x8", "f32", tile(), MemoryConfig::Interleaved(BufferKind::L1)).derive().unwrap();
    assert_eq!((t.padded_shape.to_string(), t.physical_shape, t.num_pages), ("1x4x32x32".into(), [128, 32], 4));
}

#[test]
fn block_sharding_as_seed_004_figure_4() {
    // 128x128 tiled (16 tiles), block sharded 64x64 on a 2x2 grid: core (0,0) holds pages 0, 1, 4, 5.
    let d = spec(
        "128x128",
        "bf16",
        tile(),
        sharded(TensorMemoryLayout::BlockSharded, "(0,0)-(1,1)", [64, 64], ShardMode::Physical),
    )
    .derive()
    .unwrap();
    let pages = d.pages();
    assert_eq!(pages[0], vec![Some(0), Some(1), Some(4), Some(5)]);
    assert_eq!(pages[1], vec![Some(2), Some(3), Some(6), Some(7)]);
    assert_eq!((d.num_shards, d.cores.len()), (Some(4), 4));
}

#[test]
fn row_major_shard_pages_are_shard_rows() {
    // Width sharding a 4x64 row-major tensor over two cores: pages are 32-element shard rows.
    let d = spec(
        "4x64",
        "u32",
        PageConfig::RowMajor,
        sharded(TensorMemoryLayout::WidthSharded, "(0,0)-(1,0)", [4, 32], ShardMode::Physical),
    )
    .derive()
    .unwrap();
    assert_eq!((d.page_shape, d.page_size, d.num_pages), ([1, 32], 128, 8));
    // Core 1 holds the right halves of the four rows: host pages 1, 3, 5, 7.
    assert_eq!(d.pages()[1], vec![Some(1), Some(3), Some(5), Some(7)]);
    assert_eq!(d.element_page(&[2, 40]), (5, 8));
}

#[test]
fn logical_shards_are_padded_one_by_one() {
    // 1x2x15x20: each 15x20 logical shard pads to its own 32x32 tile.
    let d = spec(
        "1x2x15x20",
        "bf16",
        tile(),
        sharded(TensorMemoryLayout::HeightSharded, "(0,0)-(1,0)", [15, 20], ShardMode::Logical),
    )
    .derive()
    .unwrap();
    assert_eq!(d.physical_shard_shape, Some(vec![32, 32]));
    assert_eq!(d.physical_shape, [64, 32]);
    assert_eq!((d.num_pages, d.num_shards), (2, Some(2)));
    // Element (0, 1, 3, 7): second shard, row 3: page 1.
    assert_eq!(d.element_page(&[0, 1, 3, 7]).0, 1);
    // The same tensor in physical mode needs tile-aligned shards.
    let e = spec(
        "1x2x15x20",
        "bf16",
        tile(),
        sharded(TensorMemoryLayout::HeightSharded, "(0,0)-(1,0)", [15, 20], ShardMode::Physical),
    )
    .derive()
    .unwrap_err()
    .to_string();
    assert!(e.contains("15x20") && e.contains("tile-aligned"), "{e}");
}

#[test]
fn padding_pages_are_marked() {
    // 40 rows, height shards of 32 rows over 2 cores: the second shard has 8 real rows of 32.
    let d = spec(
        "40x32",
        "bf16",
        tile(),
        sharded(TensorMemoryLayout::HeightSharded, "(0,0)-(1,0)", [32, 32], ShardMode::Physical),
    )
    .derive()
    .unwrap();
    assert_eq!(d.physical_shape, [64, 32]);
    assert_eq!(d.pages(), vec![vec![Some(0)], vec![Some(1)]]);
    // 3x2 shards of a 5x3-page tensor on 6 cores: the last column's shards are half padding.
    let d = spec(
        "160x96",
        "bf16",
        tile(),
        sharded(TensorMemoryLayout::BlockSharded, "(0,0)-(1,2)", [64, 64], ShardMode::Physical),
    )
    .derive()
    .unwrap();
    assert_eq!(d.physical_shape, [192, 128]);
    assert_eq!(d.pages()[1], vec![Some(2), None, Some(6), None]);
    assert_eq!(d.pages()[5], vec![Some(18), None, None, None], "row 5 and column 3 of pages hold no data");
}

#[test]
fn illegal_specs_name_the_numbers() {
    let e = spec(
        "64x64",
        "bf16",
        tile(),
        sharded(TensorMemoryLayout::HeightSharded, "(0,0)-(0,0)", [32, 64], ShardMode::Physical),
    )
    .derive()
    .unwrap_err()
    .to_string();
    assert!(e.contains("2 shards") && e.contains("(0,0)"), "{e}");
    let e = spec(
        "64x64",
        "bf16",
        tile(),
        sharded(TensorMemoryLayout::HeightSharded, "(0,0)-(1,0)", [32, 32], ShardMode::Physical),
    )
    .derive()
    .unwrap_err()
    .to_string();
    assert!(e.contains("whole rows") && e.contains("32"), "{e}");
    let e = spec("64x0", "bf16", tile(), MemoryConfig::Interleaved(BufferKind::L1)).derive().unwrap_err().to_string();
    assert!(e.contains("shape[1] = 0"), "{e}");
}

#[test]
fn nd_sharding_and_conversions() {
    let nd = NdShardSpec {
        shape: "1x2x32x32".parse().unwrap(),
        grid: "(0,0)-(3,0)".parse().unwrap(),
        orientation: ShardOrientation::RowMajor,
        strategy: DistributionStrategy::RoundRobin1D,
    };
    let d = spec("2x2x64x32", "bf16", tile(), MemoryConfig::NdSharded { buffer: BufferKind::L1, spec: nd.clone() })
        .derive()
        .unwrap();
    assert_eq!(d.num_shards, Some(4));
    // Shard (batch 0, rows 32..64) is shard 1: core 1 holds tiles 1 and 3 (channel 0 row 1, channel 1 row 1).
    assert_eq!(d.pages()[1], vec![Some(1), Some(3)]);
    // Not a contiguous row range of the collapsed shape: no 2-D equivalent.
    assert_eq!(nd_to_legacy(&"2x2x64x32".parse().unwrap(), &nd), None);
    let whole = NdShardSpec { shape: "1x2x64x32".parse().unwrap(), ..nd };
    let legacy = nd_to_legacy(&"2x2x64x32".parse().unwrap(), &whole).unwrap();
    assert_eq!(legacy.shape, [128, 32]);
    assert_eq!(legacy_to_nd(&legacy).shape, Shape::new(vec![128, 32]));
}

#[test]
fn virtual_grids_as_tt_mlir_derives_them() {
    // A 1x64 virtual grid on an 8x8 chip is width sharding over all 64 cores.
    let (l, s) = virtual_grid_spec([32, 2048], [32, 32], 1, 64, CoreCoord::new(8, 8), None).unwrap();
    assert_eq!((l, s.shape, s.grid.num_cores()), (TensorMemoryLayout::WidthSharded, [32, 32], 64));
    let (l, s) = virtual_grid_spec([256, 256], [32, 32], 2, 4, CoreCoord::new(8, 8), None).unwrap();
    assert_eq!(
        (l, s.shape, s.grid.to_string()),
        (TensorMemoryLayout::BlockSharded, [128, 64], "(0,0)-(3,1)".to_string())
    );
    let c = cores_from_count(56, CoreCoord::new(8, 7), false).unwrap();
    assert_eq!(c.num_cores(), 56);
}

#[test]
fn strides_follow_the_logical_shape_and_the_alignment() {
    let t = spec("5x4x3x2", "bf16", tile(), MemoryConfig::Interleaved(BufferKind::Dram)).derive().unwrap();
    assert_eq!(t.strides, vec![384, 96, 32, 1]);
    let mut rm = spec("30x20x10", "bf16", PageConfig::RowMajor, MemoryConfig::Interleaved(BufferKind::Dram));
    rm.padded_shape = Some("30x32x32".parse().unwrap());
    let d = rm.derive().unwrap();
    assert_eq!((d.alignment.clone(), d.strides.clone()), (vec![32, 32], vec![640, 32, 1]));
    assert_eq!(super::alignment::aligned_strides(&[6], &[1]), vec![1]);
}

#[test]
fn logical_shards_pad_the_last_shard_only_to_the_alignment() {
    // TILE [1,1,60,60] BLOCK, logical shard 36x40, 32x32 tiles: physical shard 64x64, physical 96x96.
    let d = spec(
        "1x1x60x60",
        "bf16",
        tile(),
        sharded(TensorMemoryLayout::BlockSharded, "(0,0)-(1,1)", [36, 40], ShardMode::Logical),
    )
    .derive()
    .unwrap();
    assert_eq!((d.physical_shard_shape.clone(), d.physical_shape), (Some(vec![64, 64]), [96, 96]));
    // Row-major [1,2,5,1] HEIGHT with logical shard 3x1: physical [10,1].
    let r = spec(
        "1x2x5x1",
        "f32",
        PageConfig::RowMajor,
        sharded(TensorMemoryLayout::HeightSharded, "(0,0)-(3,0)", [3, 1], ShardMode::Logical),
    )
    .derive()
    .unwrap();
    assert_eq!(r.physical_shape, [10, 1]);
    // Every logical element lands on its own page slot and back.
    let mut seen = std::collections::BTreeSet::new();
    for i in 0..2 {
        for j in 0..5 {
            assert!(seen.insert(r.element_page(&[0, i, j, 0])), "({i},{j})");
        }
    }
}

#[test]
fn row_major_shards_align_to_the_shard_width() {
    let d = spec(
        "64x60",
        "bf16",
        PageConfig::RowMajor,
        sharded(TensorMemoryLayout::HeightSharded, "(0,0)-(1,0)", [32, 64], ShardMode::Physical),
    )
    .derive()
    .unwrap();
    assert_eq!(d.alignment, vec![64]);
    assert_eq!(d.padded_shape.to_string(), "64x64");
    let mut p = sharded(TensorMemoryLayout::HeightSharded, "(0,0)-(1,0)", [30, 60], ShardMode::Logical);
    if let MemoryConfig::Sharded { spec: s, .. } = &mut p {
        s.physical_shape = Some([32, 64]);
    }
    let e = spec("60x60", "bf16", PageConfig::RowMajor, p).derive().unwrap();
    assert_eq!(e.alignment, vec![32, 64]);
}

#[test]
fn rank_zero_tensors_are_one_element_or_one_tile() {
    let rm =
        spec("scalar", "bf16", PageConfig::RowMajor, MemoryConfig::Interleaved(BufferKind::Dram)).derive().unwrap();
    assert_eq!((rm.physical_shape, rm.strides.clone(), rm.num_pages), ([1, 1], vec![], 1));
    assert_eq!(rm.element_page(&[]), (0, 0));
    let t = spec("", "bf16", tile(), MemoryConfig::Interleaved(BufferKind::Dram)).derive().unwrap();
    assert_eq!((t.physical_shape, t.num_pages, t.page_size), ([32, 32], 1, 2048));
    assert_eq!(t.logical_shape.rank(), 0);
}
