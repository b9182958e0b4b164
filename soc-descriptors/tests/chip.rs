//! Harvesting, product selection and coordinate conversions of the built-in chips, checked against
//! tt-metal's documented values.

use soc_descriptors::*;

#[test]
fn wormhole_unharvested_is_a_galaxy_8x10() {
    let chip = Chip::builtin(Arch::WormholeB0, ChipOptions::default()).unwrap();
    assert_eq!(chip.product(), "galaxy");
    assert_eq!(chip.logical_grid(), GridSize::new(8, 10));
    assert_eq!(chip.compute_with_storage_grid_size(), GridSize::new(8, 10));
    assert_eq!(chip.worker_core_from_logical_core(LogicalCoord::new(0, 0)), Some(TranslatedCoord::new(18, 18)));
    assert_eq!(chip.worker_core_from_logical_core(LogicalCoord::new(7, 9)), Some(TranslatedCoord::new(25, 27)));
    assert_eq!(chip.logical_to_noc0(LogicalCoord::new(4, 5)), Some(Noc0Coord::new(6, 7)));
    assert_eq!(chip.num_dram_banks(), 12);
}

#[test]
fn wormhole_n150_harvests_one_row_and_computes_on_8x8() {
    // Harvest the third Tensix row (NoC0 y = 3).
    let chip = Chip::builtin(Arch::WormholeB0, ChipOptions { harvest_mask: 0b100, ..Default::default() }).unwrap();
    assert_eq!(chip.product(), "nebula_x1");
    assert_eq!(chip.logical_grid(), GridSize::new(8, 9));
    assert_eq!(chip.compute_with_storage_grid_size(), GridSize::new(8, 8));
    assert_eq!(chip.harvested_lines(), &[3]);
    // Logical row 2 skips the harvested NoC0 row 3.
    assert_eq!(chip.logical_to_noc0(LogicalCoord::new(0, 2)), Some(Noc0Coord::new(1, 4)));
    assert_eq!(chip.dispatch_cores().len(), 8);
    assert!(chip.dispatch_cores().iter().all(|c| c.y == 8));
    // Translated rows stay contiguous: logical + (18, 18).
    assert_eq!(chip.worker_core_from_logical_core(LogicalCoord::new(3, 2)), Some(TranslatedCoord::new(21, 20)));
    assert_eq!(chip.noc0_to_logical(Noc0Coord::new(1, 3)), None);
}

#[test]
fn wormhole_dram_banks_resolve_like_tt_metal() {
    let chip = Chip::builtin(Arch::WormholeB0, ChipOptions::default()).unwrap();
    // Bank 0: channel 0, worker endpoint subchannel 2 on both NoCs -> NoC0 (0, 11).
    assert_eq!(chip.dram_bank_noc0(NocId::Noc0, 0), Noc0Coord::new(0, 11));
    assert_eq!(chip.dram_bank_noc_xy(NocId::Noc1, 0), TranslatedCoord::new(0, 11));
    // Bank 1: channel 0, subchannel 1 -> (0, 1), at offset 1 GiB.
    assert_eq!(chip.dram_bank_noc0(NocId::Noc0, 1), Noc0Coord::new(0, 1));
    assert_eq!(chip.soc().dram_banks[1].address_offset, 1 << 30);
    // DRAM keeps its physical coordinates on Wormhole.
    assert_eq!(chip.noc0_to_translated(Noc0Coord::new(5, 7)), TranslatedCoord::new(5, 7));
}

#[test]
fn blackhole_column_harvesting() {
    let chip = Chip::builtin(Arch::Blackhole, ChipOptions::default()).unwrap();
    assert_eq!(chip.logical_grid(), GridSize::new(14, 10));
    assert_eq!(chip.compute_with_storage_grid_size(), GridSize::new(13, 10));
    assert_eq!(chip.worker_core_from_logical_core(LogicalCoord::new(0, 0)), Some(TranslatedCoord::new(1, 2)));
    assert_eq!(chip.worker_core_from_logical_core(LogicalCoord::new(7, 0)), Some(TranslatedCoord::new(10, 2)));
    // Harvest two columns (NoC0 x = 1 and x = 10): 12x10 logical, 11x10 compute (the p150 grid).
    let chip = Chip::builtin(Arch::Blackhole, ChipOptions { harvest_mask: (1 << 0) | (1 << 7), ..Default::default() })
        .unwrap();
    assert_eq!(chip.product(), "2xharvested");
    assert_eq!(chip.logical_grid(), GridSize::new(12, 10));
    assert_eq!(chip.compute_with_storage_grid_size(), GridSize::new(11, 10));
    assert_eq!(chip.logical_to_noc0(LogicalCoord::new(0, 0)), Some(Noc0Coord::new(2, 2)));
    // Translated columns are renumbered contiguously from the first physical Tensix column.
    assert_eq!(chip.worker_core_from_logical_core(LogicalCoord::new(0, 0)), Some(TranslatedCoord::new(1, 2)));
    assert_eq!(chip.worker_core_from_logical_core(LogicalCoord::new(6, 0)), Some(TranslatedCoord::new(7, 2)));
    assert_eq!(chip.worker_core_from_logical_core(LogicalCoord::new(7, 0)), Some(TranslatedCoord::new(10, 2)));
    assert_eq!(chip.logical_to_noc0(LogicalCoord::new(6, 0)), Some(Noc0Coord::new(11, 2)));
    assert_eq!(chip.logical_to_noc0(LogicalCoord::new(7, 0)), Some(Noc0Coord::new(12, 2)));
}

#[test]
fn grayskull_storage_cores_and_no_translation() {
    let chip = Chip::builtin(Arch::Grayskull, ChipOptions::default()).unwrap();
    assert_eq!(chip.product(), "E150");
    assert_eq!(chip.compute_with_storage_grid_size(), GridSize::new(12, 9));
    assert_eq!(chip.storage_cores().len(), 10);
    assert_eq!(chip.storage_core_bank_size(), Some(512 * 1024));
    assert_eq!(chip.worker_core_from_logical_core(LogicalCoord::new(0, 0)), Some(TranslatedCoord::new(1, 1)));
    let e75 = Chip::builtin(Arch::Grayskull, ChipOptions { harvest_mask: 0b11, ..Default::default() }).unwrap();
    assert_eq!(e75.product(), "E75");
    assert_eq!(e75.compute_with_storage_grid_size(), GridSize::new(11, 8));
}

#[test]
fn bad_harvesting_is_a_clear_error() {
    let e = Chip::builtin(Arch::WormholeB0, ChipOptions { harvest_mask: 0b111, ..Default::default() }).unwrap_err();
    assert!(e.to_string().contains("no wormhole_b0 product has 3 harvested rows"), "{e}");
    let e = Chip::builtin(Arch::WormholeB0, ChipOptions { harvest_mask: 1 << 10, ..Default::default() }).unwrap_err();
    assert!(e.to_string().contains("do not exist"), "{e}");
    let e = Chip::builtin(Arch::Grayskull, ChipOptions { harvest_mask: 1, ..Default::default() }).unwrap_err();
    assert!(e.to_string().contains("no grayskull product has 1 harvested rows"), "{e}");
    let e = Chip::builtin(Arch::WormholeB0, ChipOptions { num_hw_cqs: 3, ..Default::default() }).unwrap_err();
    assert!(e.to_string().contains("3 command queue"), "{e}");
}
