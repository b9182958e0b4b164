//! dm-tests.md §14's DRAM contention measurements (Wormhole B0), none of which tensim's parameters were
//! fitted to beyond one bank's sustained rate: a bank shared by many tiles, twelve tiles spread carefully
//! over the twelve banks (silicon 89.0–92.9% of the 288 GB/s peak on either NoC, reads and writes), and
//! the same tiles paired at random (silicon 19.6–65.9%), where tensim must collapse too and say that its
//! figure is not modelled.

use sim_device::prelude::*;
use suites::dm_bench::dram_pairing::{careful_tiles, run, shuffled};

fn wh() -> Device {
    Device::builtin(Arch::WormholeB0).unwrap()
}

const PEAK: f64 = 12.0 * 24.0;

#[test]
fn one_bank_shared_by_twelve_tiles_runs_at_its_sustained_rate() {
    // Silicon: reads 22.2–22.3 GB/s, static-VC writes 21.9–22.0, for 1, 12 or 48 tiles.
    let tiles: Vec<CoreCoord> = (0..12).map(|i| CoreCoord::new(i % 8, i / 8)).collect();
    for (read, noc) in [(false, NocId::Noc0), (true, NocId::Noc1)] {
        let r = run(wh(), read, noc, &tiles, &[0; 12]).unwrap();
        assert!((21.0..=22.8).contains(&r.bytes_per_cycle), "read {read}: {:.2} B/cycle", r.bytes_per_cycle);
        assert!(!r.backpressure);
    }
}

#[test]
fn twelve_banks_paired_carefully_reach_ninety_percent_of_peak() {
    for (read, noc) in [(false, NocId::Noc0), (false, NocId::Noc1), (true, NocId::Noc0), (true, NocId::Noc1)] {
        let tiles = careful_tiles(&wh(), noc, read).unwrap();
        assert_eq!(tiles.len(), 12);
        let banks: Vec<u32> = (0..12).collect();
        let r = run(wh(), read, noc, &tiles, &banks).unwrap();
        let share = r.bytes_per_cycle / PEAK;
        assert!((0.88..=0.93).contains(&share), "read {read} {noc:?}: {:.1}% of peak", share * 100.0);
        assert!(!r.backpressure, "read {read} {noc:?}: careful pairing flagged back-pressure");
    }
}

#[test]
fn random_pairings_collapse_and_say_so() {
    let tiles = careful_tiles(&wh(), NocId::Noc0, false).unwrap();
    let banks: Vec<u32> = (0..12).collect();
    for seed in 0..4 {
        let r = run(wh(), false, NocId::Noc0, &tiles, &shuffled(&banks, seed)).unwrap();
        let share = r.bytes_per_cycle / PEAK;
        assert!(share < 0.5, "seed {seed}: {:.1}% of peak, silicon 19.6% (NoC0 writes)", share * 100.0);
        assert!(r.backpressure, "seed {seed}: a collapsed run must carry the back-pressure warning");
    }
}
