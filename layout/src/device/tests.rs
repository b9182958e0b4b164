//! Every example of seed 003 as a test: the maps tensim builds from a mesh shape give the same table as the
//! document's maps; user maps (transposed, extra wide, extra tall, staircase) are accepted and placed; bad
//! views are refused naming the point.

use super::*;
use crate::metal::{MetalLayout, MetalLayoutSpec};
use crate::shape::Shape;

const G8: [u64; 2] = [8, 8];

fn map(s: &str) -> GridMap {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// The device built from a mesh agrees point by point with the seed's written map.
fn agrees(mesh: &[u64], chips: Option<Vec<u32>>, grid: &[u64], seed_map: &str) -> DeviceAttr {
    let d = DeviceAttr::from_mesh(G8, mesh, chips.clone()).unwrap();
    assert_eq!(d.worker_grid, grid, "mesh {mesh:?}");
    let seed = DeviceAttr::with_map(G8, grid.to_vec(), map(seed_map), mesh, chips).unwrap();
    assert_eq!(d.table(), seed.table(), "mesh {mesh:?}: {} vs {seed_map}", d.map);
    // The inverse map undoes the forward map everywhere, and agrees with the table.
    let inv = d.inverse.clone().unwrap();
    for (pt, p) in d.table() {
        let back: Vec<u64> =
            inv.eval(&[i64::from(p.device), p.y as i64, p.x as i64]).unwrap().into_iter().map(|v| v as u64).collect();
        assert_eq!(back, pt);
        assert_eq!(d.logical_at(p.device, p.y, p.x), Some(pt));
    }
    d
}

#[test]
fn single_chip() {
    let d = agrees(&[1], None, &[8, 8], "(d0, d1) -> (0, d0, d1)");
    assert_eq!(
        d.to_string(),
        "#tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [0]>"
    );
}

#[test]
fn data_parallel_over_batch() {
    let d = agrees(&[2, 1, 1], None, &[2, 8, 8], "(d0, d1, d2) -> (d0, d1, d2)");
    assert_eq!(d.locate(&[1, 3, 5]).unwrap(), Placement { device: 1, chip: 1, y: 3, x: 5 });
    // The seed's tensor: grid <2x2x4> spans both chips, a 2x4 block of cores on each.
    let layout = MetalLayout::new(&MetalLayoutSpec {
        shape: Shape::new(vec![16, 3, 64, 128]),
        grid: Shape::new(vec![2, 2, 4]),
        map: Some("(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3)".parse().unwrap()),
        ..Default::default()
    })
    .unwrap();
    let shards = d.place(&layout).unwrap();
    assert_eq!(shards.len(), 16);
    for chip in 0..2 {
        let cores: Vec<(u64, u64)> = shards.iter().filter(|s| s.1.chip == chip).map(|s| (s.1.y, s.1.x)).collect();
        assert_eq!(cores.len(), 8);
        assert!(cores.iter().all(|&(y, x)| y < 2 && x < 4), "{cores:?}");
    }
}

#[test]
fn data_parallel_over_2d() {
    let d = agrees(&[1, 2], None, &[8, 16], "(d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0, d1 mod 8)");
    assert_eq!(d.map.to_string(), "(d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)");
    assert_eq!(d.locate(&[3, 12]).unwrap(), Placement { device: 1, chip: 1, y: 3, x: 4 });
    // The seed's tensor: grid <4x16> spans the upper half of both chips.
    let layout = MetalLayout::new(&MetalLayoutSpec {
        shape: Shape::new(vec![256, 1024]),
        grid: Shape::new(vec![4, 16]),
        ..Default::default()
    })
    .unwrap();
    let shards = d.place(&layout).unwrap();
    assert!(shards.iter().all(|s| s.1.y < 4));
    assert_eq!(shards.iter().filter(|s| s.1.chip == 1).count(), 32);
}

#[test]
fn data_parallel_over_2d_and_batch() {
    let d = agrees(
        &[2, 1, 2],
        None,
        &[2, 8, 16],
        "(d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)",
    );
    assert_eq!(d.locate(&[1, 0, 9]).unwrap().chip, 3);
    assert_eq!(d.locate(&[1, 7, 7]).unwrap().chip, 2);
}

#[test]
fn pipeline_views_take_disjoint_chips() {
    let a = agrees(
        &[2, 1, 2],
        Some(vec![0, 1, 2, 3]),
        &[2, 8, 16],
        "(d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)",
    );
    let b = agrees(
        &[2, 2],
        Some(vec![4, 5, 6, 7]),
        &[16, 16],
        "(d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)",
    );
    assert_eq!(b.map.to_string(), "(d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)");
    let chips_a: std::collections::BTreeSet<u32> = a.table().iter().map(|t| t.1.chip).collect();
    let chips_b: std::collections::BTreeSet<u32> = b.table().iter().map(|t| t.1.chip).collect();
    assert_eq!(chips_a.into_iter().collect::<Vec<_>>(), vec![0, 1, 2, 3]);
    assert_eq!(chips_b.into_iter().collect::<Vec<_>>(), vec![4, 5, 6, 7]);
    assert_eq!(b.locate(&[9, 3]).unwrap(), Placement { device: 2, chip: 6, y: 1, x: 3 });
}

#[test]
fn reinterpreted_grids() {
    let t = DeviceAttr::with_map(G8, vec![8, 8], map("(d0, d1) -> (0, d1, d0)"), &[1], None).unwrap();
    assert_eq!(t.locate(&[2, 5]).unwrap(), Placement { device: 0, chip: 0, y: 5, x: 2 });
    let wide =
        DeviceAttr::with_map(G8, vec![1, 64], map("(d0, d1) -> (0, d0 * 8 + d1 floordiv 8, d1 mod 8)"), &[1], None)
            .unwrap();
    assert_eq!(wide.locate(&[0, 19]).unwrap(), Placement { device: 0, chip: 0, y: 2, x: 3 });
    let tall =
        DeviceAttr::with_map(G8, vec![64, 1], map("(d0, d1) -> (0, d1 * 8 + d0 floordiv 8, d0 mod 8)"), &[1], None)
            .unwrap();
    assert_eq!(tall.locate(&[19, 0]).unwrap(), Placement { device: 0, chip: 0, y: 2, x: 3 });
    let stairs = DeviceAttr::with_map(G8, vec![8, 8], map("(d0, d1) -> (0, d0, (d0 + d1) mod 8)"), &[1], None).unwrap();
    assert_eq!(stairs.locate(&[3, 6]).unwrap(), Placement { device: 0, chip: 0, y: 3, x: 1 });
    assert_eq!(stairs.logical_at(0, 3, 1), Some(vec![3, 6]));
    assert_eq!(stairs.map.to_string(), "(d0, d1) -> (0, d0, (d0 + d1) mod 8)");
    // Every core of the chip is used exactly once by each of them.
    for d in [&t, &wide, &tall, &stairs] {
        assert_eq!(d.table().len(), 64);
    }
}

#[test]
fn bad_views_are_refused() {
    let two_on_one =
        DeviceAttr::with_map(G8, vec![8, 8], map("(d0, d1) -> (0, d0, d1 floordiv 2)"), &[1], None).unwrap_err();
    assert!(two_on_one.to_string().contains("no other point uses"), "{two_on_one}");
    let outside = DeviceAttr::with_map(G8, vec![8, 9], map("(d0, d1) -> (0, d0, d1)"), &[2], None).unwrap_err();
    assert!(outside.to_string().contains("(0, 8)"), "{outside}");
    let rank = DeviceAttr::with_map(G8, vec![8, 8, 1], map("(d0, d1) -> (0, d0, d1)"), &[1], None).unwrap_err();
    assert!(rank.to_string().contains("rank"), "{rank}");
    let results = DeviceAttr::with_map(G8, vec![8, 8], map("(d0, d1) -> (d0, d1)"), &[1], None).unwrap_err();
    assert!(results.to_string().contains("three results"), "{results}");
    let chips = DeviceAttr::from_mesh(G8, &[2, 2], Some(vec![0, 1])).unwrap_err();
    assert!(chips.to_string().contains("mesh 2x2"), "{chips}");
    assert!(DeviceAttr::from_mesh(G8, &[0, 2], None).is_err());
    assert!(DeviceAttr::from_mesh([0, 8], &[1], None).is_err());
    assert!(DeviceAttr::from_mesh([8, 8], &[100000, 1000], None).is_err());
    for bad in ["(d0) -> (d0 floordiv 0)", "(d0) -> (d0 mod d0)", "(d0) -> (d0 * d0)", "(d0) -> (d0 floordiv -2)"] {
        assert!(bad.parse::<GridMap>().is_err(), "{bad}");
    }
}

#[test]
fn grid_maps_parse_and_print() {
    for (text, printed, at, want) in [
        (
            "(d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)",
            "(d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)",
            vec![3, 12],
            vec![1, 3, 4],
        ),
        (
            "affine_map<(a, b) -> (a ceildiv 4 - b, -a)>",
            "(d0, d1) -> (d0 ceildiv 4 - d1, -d0)",
            vec![5, 1],
            vec![1, -5],
        ),
        (
            "(d0) -> ((d0 - 3) mod 8, d0 floordiv 3 * 2)",
            "(d0) -> ((d0 - 3) mod 8, (d0 floordiv 3) * 2)",
            vec![1],
            vec![6, 0],
        ),
    ] {
        let m = map(text);
        assert_eq!(m.to_string(), printed);
        assert_eq!(m.eval(&at), Some(want), "{text}");
        assert_eq!(map(printed), m, "{printed} re-parses to the same map");
    }
}

#[test]
fn grid_map_values_beyond_64_bits_are_none_not_wrapped() {
    let m = map("(d0, d1) -> (0, d0 * 9223372036854775807 * 4, d1)");
    assert_eq!(m.eval(&[0, 3]), Some(vec![0, 0, 3]));
    assert_eq!(m.eval(&[1, 0]), None);
    let c = map("(d0) -> (d0 ceildiv 2, (d0 - 9223372036854775807) - 9, d0 mod 3)");
    assert_eq!(c.eval(&[20]), Some(vec![10, 20 - 9223372036854775807 - 9, 2]));
    assert_eq!(c.eval(&[-1]), None, "-1 - (2^63 - 1) - 9 leaves i64");
}
