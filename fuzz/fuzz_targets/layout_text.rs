//! Fuzz target: the text `tensim layout` and `tensim device` read — shapes, tt.metal_layout affine maps,
//! device grid maps, core ranges — parses into checked values or a named error, and whatever is accepted
//! works out its layout (extents, an element's place, TTNN pages) without a panic or a wrapped number.
#![no_main]
use layout::device::GridMap;
use layout::metal::{AffineMap, MetalLayout, MetalLayoutSpec};
use layout::ttnn::{BufferKind, DataType, MemoryConfig, PageConfig, TensorSpec};
use layout::{CoreRangeSet, Shape, TileShape};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // Line by line: tensor shape, grid, affine map, core ranges, grid map.
    let mut lines = text.lines();
    let (shape, grid, map, cores, grid_map) =
        (lines.next(), lines.next(), lines.next(), lines.next(), lines.next());
    let shape: Option<Shape> = shape.and_then(|s| s.parse().ok());
    let grid: Option<Shape> = grid.and_then(|s| s.parse().ok());
    let map: Option<AffineMap> = map.and_then(|s| s.parse().ok());
    let _ = cores.map(|s| s.parse::<CoreRangeSet>());
    if let Some(m) = grid_map.and_then(|s| s.parse::<GridMap>().ok()) {
        for v in [0i64, 1, 7, -3, i64::MAX, i64::MIN] {
            let _ = m.eval(&vec![v; m.num_dims]);
        }
    }
    let Some(shape) = shape else { return };
    if let Some(grid) = grid {
        let spec = MetalLayoutSpec { shape: shape.clone(), grid, map, ..MetalLayoutSpec::default() };
        if let Ok(l) = MetalLayout::new(&spec) {
            let _ = l.pretty();
            let last: Vec<u64> = shape.dims().iter().map(|d| d.saturating_sub(1)).collect();
            let _ = l.index(&last);
            let _ = l.locate(&last);
            let _ = l.locate(&vec![0; shape.rank()]);
        }
    }
    for page in [PageConfig::RowMajor, PageConfig::Tile(TileShape::new(32, 32).expect("a tile"))] {
        let spec = TensorSpec {
            shape: shape.clone(),
            dtype: DataType::Bf16,
            page,
            memory: MemoryConfig::Interleaved(BufferKind::Dram),
            padded_shape: None,
            bank_alignment: 32,
        };
        if let Ok(d) = spec.derive() {
            if d.num_pages <= 4096 {
                let _ = d.pages();
                let _ = d.picture(12);
            }
        }
    }
});
