//! Every real tt-umd cluster descriptor (current and legacy) loads; each built-in system equals the file it
//! mirrors (chips, arch, links, PCIe chips, boards, Ethernet coordinates and masks — not the per-unit Tensix
//! harvesting, which differs card by card); the mesh embeddings recovered from the files are the expected
//! shapes.

mod common;

use soc_descriptors::cluster::{BUILTIN_SYSTEMS, ClusterDescriptor, MeshOrigin, builtin_system};
use std::collections::BTreeSet;

fn cluster_dir() -> Option<std::path::PathBuf> {
    common::soc_dir().map(|d| d.join("cluster/cluster_descriptor_examples"))
}

#[test]
fn every_real_cluster_file_loads() {
    let Some(dir) = cluster_dir() else { return };
    let mut files = common::yamls(&dir, "");
    files.extend(common::yamls(&dir, "legacy_755bc34c"));
    assert!(files.len() >= 20, "expected tt-umd's example files, found {}", files.len());
    for f in files {
        let cd = ClusterDescriptor::load(&f).unwrap_or_else(|e| panic!("{e}"));
        assert!(!cd.chips.is_empty());
        for l in &cd.links {
            for end in [l.a, l.b] {
                let chip = cd.chip(end.chip).unwrap();
                assert!(cd.eth_core(chip, end.channel).is_some(), "{}: {end}", f.display());
            }
        }
    }
}

type Summary = (Vec<(u32, String, Option<[i64; 4]>, bool, String, u32)>, BTreeSet<(u32, u32, u32, u32)>);

fn summary(cd: &ClusterDescriptor, with_coords: bool) -> Summary {
    let chips = cd
        .chips
        .iter()
        .map(|c| {
            let board = c.board.map(|b| cd.boards[b].board_type.name().to_string()).unwrap_or_default();
            let coord = if with_coords { c.eth_coord } else { None };
            (c.id, c.arch.name().to_string(), coord, c.mmio.is_some(), board, c.harvesting.eth_mask)
        })
        .collect();
    let links = cd
        .links
        .iter()
        .map(|l| {
            let (a, b) = l.normalised();
            (a.chip, a.channel, b.chip, b.channel)
        })
        .collect();
    (chips, links)
}

#[test]
fn builtin_systems_equal_their_files() {
    let Some(dir) = cluster_dir() else { return };
    for (name, _, file) in BUILTIN_SYSTEMS {
        let (builtin, mesh) = builtin_system(name).unwrap();
        let real = ClusterDescriptor::load(&dir.join(file)).unwrap_or_else(|e| panic!("{e}"));
        let with_coords = real.chips.iter().all(|c| c.eth_coord.is_some());
        assert_eq!(summary(&builtin, with_coords), summary(&real, with_coords), "built-in {name} vs {file}");
        assert_eq!(mesh.chips.iter().copied().collect::<BTreeSet<_>>().len(), builtin.chips.len(), "{name}");
        // Neighbours on the built-in mesh are linked (the mesh is physical, not just a label).
        for r in 0..mesh.rows {
            for c in 0..mesh.cols {
                let me = mesh.chip_at(r, c).unwrap();
                for (rr, cc) in [(r + 1, c), (r, c + 1)] {
                    if let Some(other) = mesh.chip_at(rr, cc) {
                        assert!(!builtin.channels_between(me, other).is_empty(), "{name}: {me}-{other} unlinked");
                    }
                }
            }
        }
    }
}

#[test]
fn meshes_recovered_from_files() {
    let Some(dir) = cluster_dir() else { return };
    let expect = [
        ("wormhole_N150.yaml", 1, 1, MeshOrigin::EthCoords),
        ("wormhole_N300.yaml", 1, 2, MeshOrigin::EthCoords),
        ("t3k_cluster_desc.yaml", 2, 4, MeshOrigin::EthCoords),
        ("6u_cluster_desc.yaml", 8, 4, MeshOrigin::Grid),
        ("blackhole_P300_both_mmio.yaml", 1, 2, MeshOrigin::Line),
        ("blackhole_4xP150.yaml", 2, 2, MeshOrigin::Grid),
        ("blackhole_8xP150.yaml", 1, 8, MeshOrigin::Unplaced),
    ];
    for (file, rows, cols, origin) in expect {
        let cd = ClusterDescriptor::load(&dir.join(file)).unwrap();
        let m = cd.mesh();
        assert_eq!((m.rows, m.cols, m.origin), (rows, cols, origin), "{file}");
    }
    // The Galaxy's recovered mesh is the built-in one.
    let cd = ClusterDescriptor::load(&dir.join("6u_cluster_desc.yaml")).unwrap();
    assert_eq!(cd.mesh().chips, builtin_system("galaxy").unwrap().1.chips);
    let t3k = ClusterDescriptor::load(&dir.join("t3k_cluster_desc.yaml")).unwrap();
    assert_eq!(t3k.mesh().chips, builtin_system("t3000").unwrap().1.chips);
}
