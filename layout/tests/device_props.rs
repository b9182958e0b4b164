//! Property tests of device views: for any chip grid and mesh shape, the mesh-built view puts every logical
//! point on a distinct core of a chip of the view, uses every core of every chip, and its closed-form
//! inverse map undoes it; random grid-map text never panics.

use layout::device::{DeviceAttr, GridMap};
use proptest::prelude::*;
use std::collections::BTreeSet;

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn mesh_views_are_bijections(gy in 1u64..9, gx in 1u64..9, mesh in proptest::collection::vec(1u64..4, 1..4)) {
        let d = DeviceAttr::from_mesh([gy, gx], &mesh, None).unwrap();
        let chips: u64 = mesh.iter().product();
        let table = d.table();
        prop_assert_eq!(table.len() as u64, chips * gy * gx);
        let cores: BTreeSet<(u32, u64, u64)> = table.iter().map(|(_, p)| (p.device, p.y, p.x)).collect();
        prop_assert_eq!(cores.len(), table.len());
        let inv = d.inverse.clone().unwrap();
        for (pt, p) in &table {
            let back: Vec<u64> = inv.eval(&[i64::from(p.device), p.y as i64, p.x as i64]).unwrap().into_iter().map(|v| v as u64).collect();
            prop_assert_eq!(&back, pt);
        }
        // The printed map reads back to a map that prints and places the same.
        let reparsed: GridMap = d.map.to_string().parse().unwrap();
        prop_assert_eq!(reparsed.to_string(), d.map.to_string());
        let again = DeviceAttr::with_map([gy, gx], d.worker_grid.clone(), reparsed, &mesh, None).unwrap();
        prop_assert_eq!(again.table(), table);
    }

    #[test]
    fn grid_map_text_never_panics(text in "\\(d0(, d1)?\\) -> \\(([d01 +*()-]|floordiv|mod|ceildiv|[0-9]){0,30}(, [d01 +*()-]{0,8})?\\)") {
        if let Ok(m) = text.parse::<GridMap>() {
            let _ = DeviceAttr::with_map([4, 4], vec![4; m.num_dims], m, &[1], None);
        }
    }
}
