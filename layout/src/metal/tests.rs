//! Every worked example of seed 000 ("Tensor Layout"), as written there.

use super::*;

fn layout(shape: &str, grid: &str, map: Option<&str>, tile: bool, dtype: &str) -> MetalLayout {
    MetalLayout::new(&MetalLayoutSpec {
        shape: shape.parse().unwrap(),
        grid: grid.parse().unwrap(),
        map: map.map(|m| m.parse().unwrap()),
        tile: tile.then_some(TileShape::T32X32),
        dtype: dtype.parse().unwrap(),
        ..Default::default()
    })
    .unwrap()
}

#[test]
fn the_walkthrough_on_one_core() {
    let l = layout("2x3x64x128", "1x1", None, false, "f32");
    assert_eq!(l.map.to_string(), "(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)");
    assert_eq!(l.memref(), "memref<384x128xf32, #tt.memory_space<l1>>");
    assert_eq!(l.index(&[1, 1, 6, 100]).unwrap(), vec![262, 100]);
    assert_eq!(
        l.pretty(),
        "tensor<2x3x64x128xf32,\n  #tt.metal_layout<\n    (d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3),\n    undef,\n    <1x1>,\n    memref<384x128xf32, #tt.memory_space<l1>>\n  >\n>"
    );
    assert_eq!(
        l.attr(),
        "#tt.metal_layout<(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3), undef, <1x1>, memref<384x128xf32, #tt.memory_space<l1>>>"
    );
}

#[test]
fn collapse_intervals() {
    let m = |shape: &str, iv: &[(i64, i64)]| collapse_map(&shape.parse().unwrap(), iv).unwrap().to_string();
    // 3D onto 2D, default [(0, -1)]: (d0 <> d1, d2).
    assert_eq!(m("2x3x4", &[(0, -1)]), "(d0, d1, d2) -> (d0 * 3 + d1, d2)");
    // 4D onto 3D with [(1, -1)]: (d0, d1 <> d2, d3).
    assert_eq!(m("2x3x4x5", &[(1, -1)]), "(d0, d1, d2, d3) -> (d0, d1 * 4 + d2, d3)");
    // 4D onto 3D with [(0, 2)]: (d0 <> d1, d2, d3).
    assert_eq!(m("2x3x4x5", &[(0, 2)]), "(d0, d1, d2, d3) -> (d0 * 3 + d1, d2, d3)");
    // 7D onto 4D with [(0, 3), (-3, -1)]: (d0 <> d1 <> d2, d3, d4 <> d5, d6).
    assert_eq!(
        m("2x3x4x5x6x7x8", &[(0, 3), (-3, -1)]),
        "(d0, d1, d2, d3, d4, d5, d6) -> (d0 * 12 + d1 * 4 + d2, d3, d4 * 7 + d5, d6)"
    );
    for bad in [&[(2, 1)][..], &[(0, 9)], &[(0, 2), (1, 3)], &[(-9, -1)]] {
        assert!(collapse_map(&"2x3x4x5".parse().unwrap(), bad).is_err(), "{bad:?}");
    }
}

#[test]
fn multi_core_examples() {
    let l = layout("2x3x64x128", "2x4", None, false, "f32");
    assert_eq!(l.memref(), "memref<192x32xf32, #tt.memory_space<l1>>");
    assert_eq!(l.physical_shape(), &[384, 128]);
    assert_eq!(l.device_shape(), vec![2, 4, 192, 32]);
    let l = layout("8x300", "1x2", Some("(d0, d1) -> (d0, d1)"), false, "f32");
    assert_eq!(l.memref(), "memref<8x150xf32, #tt.memory_space<l1>>");
    let l = layout("8x96x32", "2x1", Some("(d0, d1, d2) -> (d0 * 96 + d1, d2)"), false, "f32");
    assert_eq!(l.memref(), "memref<384x32xf32, #tt.memory_space<l1>>");
    let l = layout("8x96x32", "2x1x2", Some("(d0, d1, d2) -> (d0 * 96 + d1, d1, d2)"), false, "f32");
    assert_eq!(l.memref(), "memref<384x96x16xf32, #tt.memory_space<l1>>");
    let l = layout(
        "5x3x2x2x7x32x32",
        "3x2x2x2",
        Some("(d0, d1, d2, d3, d4, d5, d6) -> (d0 * 2688 + d1 * 896 + d2 * 448 + d3 * 224 + d4 * 32 + d5, d4, d5, d6)"),
        false,
        "f32",
    );
    assert_eq!(l.memref(), "memref<4480x4x16x16xf32, #tt.memory_space<l1>>");
}

#[test]
fn tilized() {
    let l = layout("3x64x128", "3x2", Some("(d0, d1, d2) -> (d0 * 64 + d1, d2)"), false, "f32");
    assert_eq!(l.memref(), "memref<64x64xf32, #tt.memory_space<l1>>");
    let t = layout("3x64x128", "3x2", Some("(d0, d1, d2) -> (d0 * 64 + d1, d2)"), true, "bfp8");
    assert_eq!(t.memref(), "memref<2x2x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>");
    // The tensor keeps its shape and element type.
    assert!(t.pretty().starts_with("tensor<3x64x128xf32,"));
}

#[test]
fn padding_of_a_non_divisible_grid_and_of_tiles() {
    let l = layout("53x63", "3x2", Some("(d0, d1) -> (d0, d1)"), false, "f32");
    assert_eq!(l.memref(), "memref<18x32xf32, #tt.memory_space<l1>>");
    // One scalar row of padding on the last row of cores, one column on the last column.
    assert_eq!(l.padding(), vec![1, 1]);
    assert!(l.is_padding(&[2, 0], &[17, 0]).unwrap());
    assert!(!l.is_padding(&[1, 0], &[17, 0]).unwrap());
    assert!(l.is_padding(&[0, 1], &[0, 31]).unwrap());
    let t = layout("53x63", "3x2", Some("(d0, d1) -> (d0, d1)"), true, "bfp8");
    assert_eq!(t.memref(), "memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>");
    // Every core has 14 rows of padding, the last row of cores 15.
    let pad_rows = |gy: u64| (0..32).filter(|&r| t.is_padding(&[gy, 0], &[r, 0]).unwrap()).count();
    assert_eq!((pad_rows(0), pad_rows(1), pad_rows(2)), (14, 14, 15));
    assert_eq!(t.padding(), vec![15, 1]);
}

#[test]
fn bumped_strides_leave_gaps_between_batches() {
    let tight = layout("2x8x32", "1x2", Some("(d0, d1, d2) -> (d0 * 8 + d1, d2)"), false, "f32");
    assert_eq!(tight.memref(), "memref<16x16xf32, #tt.memory_space<l1>>");
    let tight_tiled = layout("2x8x32", "1x2", Some("(d0, d1, d2) -> (d0 * 8 + d1, d2)"), true, "f32");
    assert_eq!(tight_tiled.memref(), "memref<1x1x!tt.tile<32 x 32, f32>, #tt.memory_space<l1>>");
    let bumped = layout("2x8x32", "1x2", Some("(d0, d1, d2) -> (d0 * 32 + d1, d2)"), true, "f32");
    // Batch 1 starts at row 32: a tile boundary; rows 8..32 are padding.
    assert_eq!(bumped.index(&[1, 0, 0]).unwrap(), vec![32, 0]);
    assert!(bumped.is_padding(&[0, 0], &[8, 0]).unwrap());
    assert!(!bumped.is_padding(&[0, 0], &[7, 0]).unwrap());
    assert!(!bumped.is_padding(&[0, 1], &[33, 15]).unwrap());
}

#[test]
fn memory_spaces_and_the_multi_device_grid() {
    let spec = MetalLayoutSpec {
        shape: "2x3x64x128".parse().unwrap(),
        grid: "2x2x4".parse().unwrap(),
        collapse: Some(vec![(1, -1)]),
        tile: Some(TileShape::T32X32),
        dtype: ElementType::BfpBf8,
        ..Default::default()
    };
    let l = MetalLayout::new(&spec).unwrap();
    assert_eq!(l.map.to_string(), "(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3)");
    assert_eq!(l.memref(), "memref<1x3x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>");
    for (m, s) in [("system", "system"), ("system_mmio", "mmio"), ("dram", "dram"), ("l1", "l1")] {
        let l = MetalLayout::new(&MetalLayoutSpec { memspace: m.parse().unwrap(), ..spec.clone() }).unwrap();
        assert!(l.memref().ends_with(&format!("#tt.memory_space<{s}>>")), "{}", l.memref());
    }
    // A virtual grid wider than a chip (width sharding 1x64 on an 8x8 device) is legal.
    let w = layout("32x2048", "1x64", None, false, "bf16");
    assert_eq!(w.memref(), "memref<32x32xbf16, #tt.memory_space<l1>>");
}

#[test]
fn bad_layouts_name_the_value() {
    let e = |spec: MetalLayoutSpec| MetalLayout::new(&spec).unwrap_err().to_string();
    let base =
        MetalLayoutSpec { shape: "2x3x64x128".parse().unwrap(), grid: "2x4".parse().unwrap(), ..Default::default() };
    let m = e(MetalLayoutSpec { map: Some("(d0, d1) -> (d0, d1)".parse().unwrap()), ..base.clone() });
    assert!(m.contains("2 inputs") && m.contains("rank 4"), "{m}");
    // A collapsed map with more results than the grid has dims (fewer are padded with leading zeros).
    let m = e(MetalLayoutSpec { grid: "8".parse().unwrap(), ..base.clone() });
    assert!(m.contains("2 results") && m.contains("grid 8"), "{m}");
    let m = e(MetalLayoutSpec { shape: "2x0x4".parse().unwrap(), ..base.clone() });
    assert!(m.contains("shape[1] = 0"), "{m}");
    let m = e(MetalLayoutSpec { dtype: ElementType::BfpBf8, ..base.clone() });
    assert!(m.contains("bfp_bf8") && m.contains("tile"), "{m}");
    let m = e(MetalLayoutSpec { collapse: Some(vec![(3, 1)]), ..base.clone() });
    assert!(m.contains("(3, 1)"), "{m}");
    let m = e(MetalLayoutSpec { map: Some("(a, b, c, d) -> (a - 1, d)".parse().unwrap()), ..base });
    assert!(m.contains("negative"), "{m}");
}

#[test]
fn low_rank_tensors_collapse_onto_larger_grids() {
    let lay = |shape: &str, grid: &str| layout(shape, grid, None, false, "f32");
    let one = lay("64", "1x2");
    assert_eq!((one.map.to_string(), one.physical_shape().to_vec()), ("(d0) -> (0, d0)".into(), vec![1, 64]));
    let three = lay("64", "1x1x2");
    assert_eq!(three.map.to_string(), "(d0) -> (0, 0, d0)");
    assert_eq!(three.physical_shape().to_vec(), vec![1, 1, 64]);
    let two = lay("4x64", "1x1x2");
    assert_eq!(two.map.to_string(), "(d0, d1) -> (0, d0, d1)");
    // An interval whose bounds meet once normalised is a no-op; a reversed one is still an error.
    assert!(collapse_map(&"8".parse().unwrap(), &[(0, -1)]).is_ok());
    assert!(collapse_map(&"8x8".parse().unwrap(), &[(1, 0)]).is_err());
}
