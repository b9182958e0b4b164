//! Property tests of tt.metal_layout: for random shapes, grids, collapse intervals and tiles, every logical
//! element lands in exactly one (shard, position) that is not padding, the position traces back to the
//! element, and the shards hold exactly as many non-padding positions as the tensor has elements.

use layout::TileShape;
use layout::metal::{MetalLayout, MetalLayoutSpec};
use layout::shape::Shape;
use proptest::prelude::*;
use std::collections::HashSet;

fn spec() -> impl Strategy<Value = MetalLayoutSpec> {
    (prop::collection::vec(1u64..6, 2..5), any::<bool>(), 0usize..3).prop_flat_map(|(dims, tiled, iv)| {
        let rank = dims.len();
        // Collapse choices that leave a grid rank of at least 2.
        let collapse = match iv {
            0 => vec![(0, -1)],
            1 if rank >= 3 => vec![(1, -1)],
            _ => vec![(0, 1)],
        };
        let grid_rank = layout::metal::collapse_map(&Shape::new(dims.clone()), &collapse).unwrap().results.len();
        prop::collection::vec(1u64..4, grid_rank).prop_map(move |grid| MetalLayoutSpec {
            shape: Shape::new(dims.clone()),
            grid: Shape::new(grid),
            collapse: Some(collapse.clone()),
            tile: tiled.then(|| TileShape::new(2, 32).unwrap()),
            ..Default::default()
        })
    })
}

proptest! {
    #[test]
    fn elements_map_one_to_one_onto_non_padding(spec in spec()) {
        let l = MetalLayout::new(&spec).unwrap();
        let shape = spec.shape.clone();
        let mut seen = HashSet::new();
        let mut idx = vec![0u64; shape.rank()];
        for i in 0..shape.volume() {
            shape.unravel(i, &mut idx);
            let (g, w) = l.locate(&idx).unwrap();
            prop_assert!(!l.is_padding(&g, &w).unwrap(), "element {idx:?} at {g:?}/{w:?} reported as padding");
            prop_assert!(seen.insert((g.clone(), w.clone())), "two elements at {g:?}/{w:?}");
        }
        // Count the non-padding positions over every shard.
        let grid = l.grid.clone();
        let padded = Shape::new(l.padded_shard_shape());
        let mut real = 0u64;
        let (mut gc, mut wc) = (vec![0u64; grid.rank()], vec![0u64; grid.rank()]);
        for gi in 0..grid.volume() {
            grid.unravel(gi, &mut gc);
            for wi in 0..padded.volume() {
                padded.unravel(wi, &mut wc);
                if !l.is_padding(&gc, &wc).unwrap() {
                    prop_assert!(seen.contains(&(gc.clone(), wc.clone())));
                    real += 1;
                }
            }
        }
        prop_assert_eq!(real, shape.volume());
    }
}
