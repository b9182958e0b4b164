//! The built-in descriptions equal what the parser makes of tt-metal's real files; tt-umd's files parse and
//! agree with them except for the documented differences; every real file works with every harvesting.

mod common;

use soc_descriptors::*;
use std::path::Path;

fn arch_of_file(p: &Path) -> Arch {
    let n = p.file_name().unwrap().to_string_lossy();
    if n.starts_with("wormhole") {
        Arch::WormholeB0
    } else if n.starts_with("blackhole") {
        Arch::Blackhole
    } else if n.starts_with("grayskull") {
        Arch::Grayskull
    } else {
        panic!("unknown chip in file name {n}")
    }
}

#[test]
fn builtin_soc_equals_tt_metal_files() {
    let Some(dir) = common::soc_dir() else { return };
    let files = common::yamls(&dir, "tt-metal/soc_descriptors");
    assert_eq!(files.len(), 3, "expected the three tt-metal SoC descriptors");
    for f in files {
        let parsed = SocDescriptor::load(&f).unwrap_or_else(|e| panic!("{e}"));
        let arch = arch_of_file(&f);
        assert_eq!(parsed.arch, arch);
        assert_eq!(parsed, builtin_soc(arch), "built-in {arch} differs from {}", f.display());
    }
}

#[test]
fn builtin_core_descriptor_equals_tt_metal_files() {
    let Some(dir) = common::soc_dir() else { return };
    for f in common::yamls(&dir, "tt-metal/core_descriptors") {
        let parsed = CoreDescriptor::load(&f).unwrap_or_else(|e| panic!("{e}"));
        let arch = arch_of_file(&f);
        if f.to_string_lossy().contains("eth_dispatch") {
            // The Ethernet-dispatch variant frees the Tensix dispatch row: N150 computes on 8x8 with 9 rows.
            let e = parsed.select("nebula_x1", None, 1).unwrap();
            assert_eq!(e.config.dispatch_core_type, DispatchCoreType::Ethernet);
            let chip = Chip::new(
                builtin_soc(arch),
                &parsed,
                &f.display().to_string(),
                ChipOptions { harvest_mask: 1, ..Default::default() },
            )
            .unwrap();
            assert_eq!(chip.compute_with_storage_grid_size(), GridSize::new(8, 8));
            assert!(chip.dispatch_cores().is_empty());
            assert_eq!(chip.dispatch_eth_cores().len(), 4);
            continue;
        }
        assert_eq!(
            parsed,
            builtin_core_descriptor(arch),
            "built-in core descriptor of {arch} differs from {}",
            f.display()
        );
    }
}

#[test]
fn umd_files_agree_with_builtin_except_documented_differences() {
    let Some(dir) = common::soc_dir() else { return };
    let files = common::yamls(&dir, "tt-umd/soc_descs");
    assert_eq!(files.len(), 4);
    for f in files {
        let umd = SocDescriptor::load(&f).unwrap_or_else(|e| panic!("{e}"));
        let b = builtin_soc(umd.arch);
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        assert_eq!(umd.grid, b.grid, "{name}");
        assert_eq!(umd.dram_channels, b.dram_channels, "{name}");
        assert_eq!(umd.eth, b.eth, "{name}");
        assert_eq!(umd.pcie, b.pcie, "{name}");
        assert_eq!(umd.arc, b.arc, "{name}");
        assert_eq!(umd.worker_l1_size, b.worker_l1_size, "{name}");
        assert_eq!(umd.features.unpacker_version, b.features.unpacker_version, "{name}");
        // No dram_views in tt-umd files: one bank per channel, through subchannel 0.
        assert_eq!(umd.dram_banks.len(), umd.dram_channels.len(), "{name}");
        for (c, kind) in umd.tiles() {
            let bk = b.tile(c);
            let ok = match (kind, bk) {
                (k, bk) if k == bk => true,
                // tt-umd names Blackhole's security and L2CPU tiles; tt-metal lists them as router-only.
                (TileKind::Security | TileKind::L2Cpu, TileKind::RouterOnly) => umd.arch == Arch::Blackhole,
                // The 1x1 test chip keeps one worker and lists the others as router-only.
                (TileKind::RouterOnly, TileKind::Tensix) => name == "wormhole_b0_1x1.yaml",
                _ => false,
            };
            assert!(ok, "{name}: tile {c} is {kind:?} but built-in {} says {bk:?}", b.arch);
        }
        match name.as_str() {
            "wormhole_b0_1x1.yaml" => assert_eq!(umd.workers, vec![Noc0Coord::new(1, 1)]),
            "blackhole_140_arch.yaml" => {
                // tt-umd: 4 GiB channels and 256 KiB Ethernet L1; tt-metal: 4 GiB - 16 MiB and 512 KiB.
                assert_eq!(umd.dram_channel_size, 4 << 30);
                assert_eq!(umd.eth_l1_size, 256 << 10);
                assert_eq!(umd.workers, b.workers);
            }
            _ => {
                assert_eq!(umd.workers, b.workers, "{name}");
                assert_eq!(umd.dram_channel_size, b.dram_channel_size, "{name}");
                assert_eq!(umd.eth_l1_size, b.eth_l1_size, "{name}");
            }
        }
    }
}

/// Every harvesting of every real SoC file gives a chip whose coordinate conversions are consistent.
#[test]
fn every_real_file_and_harvesting_gives_consistent_coordinates() {
    let Some(dir) = common::soc_dir() else { return };
    let mut files = common::yamls(&dir, "tt-metal/soc_descriptors");
    files.extend(common::yamls(&dir, "tt-umd/soc_descs"));
    for f in files {
        let soc = SocDescriptor::load(&f).unwrap();
        if soc.workers.len() == 1 {
            continue; // the 1x1 test chip has no product in tt-metal's core descriptors
        }
        let arch = soc.arch;
        let lines = match arch.harvest_axis() {
            HarvestAxis::Rows => soc.tensix_rows().len(),
            HarvestAxis::Columns => soc.tensix_columns().len(),
        } as u32;
        for mask in 0..(1u32 << lines) {
            let opts = ChipOptions { harvest_mask: mask, ..Default::default() };
            let Ok(chip) = Chip::new(soc.clone(), &builtin_core_descriptor(arch), "builtin", opts) else {
                assert!(arch.product_name(mask.count_ones()).is_none(), "{} mask {mask:#x} rejected", f.display());
                continue;
            };
            let g = chip.logical_grid();
            let mut seen = std::collections::HashSet::new();
            for (p, _) in soc.tiles() {
                let t = chip.noc0_to_translated(p);
                assert!(seen.insert(t), "{}: translated {t} used twice", f.display());
                assert_eq!(chip.translated_to_noc0(t), Some(p));
                assert_eq!(soc.noc1_to_noc0(soc.noc0_to_noc1(p)), p);
            }
            for y in 0..g.y {
                for x in 0..g.x {
                    let l = LogicalCoord::new(x, y);
                    let p = chip.logical_to_noc0(l).unwrap();
                    assert_eq!(soc.tile(p), TileKind::Tensix);
                    assert_eq!(chip.noc0_to_logical(p), Some(l));
                    let t = chip.worker_core_from_logical_core(l).unwrap();
                    assert_eq!(chip.translated_to_noc0(t), Some(p));
                }
            }
            assert!(chip.compute_grid().end.x < g.x && chip.compute_grid().end.y < g.y);
        }
    }
}
