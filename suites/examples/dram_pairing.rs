//! dm-tests.md §14's DRAM contention measurements on Wormhole B0 (see `suites::dm_bench::dram_pairing`):
//! one bank shared by 1, 12 and 48 tiles, then twelve tiles on the twelve banks paired carefully and at
//! random. Prints GB/s at 1 GHz and the share of the 12 × 24 GB/s peak.
//!
//! `cargo run --release -p kernels --example dram_pairing -- [write|read] [noc0|noc1] [SEEDS]`

use sim_device::prelude::*;
use suites::dm_bench::dram_pairing::{careful_tiles, run, shuffled};

fn line(what: &str, r: suites::dm_bench::dram_pairing::PairingResult) {
    let bp = if r.backpressure { "  (not modelled: wormhole back-pressure)" } else { "" };
    println!("{what}: {:.1} GB/s ({:.1}% of 288){bp}", r.bytes_per_cycle, r.bytes_per_cycle / 288.0 * 100.0);
}

fn main() -> std::process::ExitCode {
    match measure() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn measure() -> Result<(), DeviceError> {
    let args: Vec<String> = std::env::args().collect();
    let read = match args.get(1).map(String::as_str) {
        None | Some("write") => false,
        Some("read") => true,
        Some(o) => return Err(DeviceError::api(format!("dram_pairing: `{o}` is neither `write` nor `read`"))),
    };
    let noc = match args.get(2).map(String::as_str) {
        None | Some("noc0") => NocId::Noc0,
        Some("noc1") => NocId::Noc1,
        Some(o) => return Err(DeviceError::api(format!("dram_pairing: `{o}` is neither `noc0` nor `noc1`"))),
    };
    let seeds: u64 = match args.get(3) {
        None => 8,
        Some(s) => match s.parse() {
            Ok(n) if n <= 1000 => n,
            _ => return Err(DeviceError::api(format!("dram_pairing: SEEDS `{s}` is not a number in 0..=1000"))),
        },
    };
    let fresh = || Device::builtin(Arch::WormholeB0);
    for n in [1u32, 12, 48] {
        let tiles: Vec<CoreCoord> = (0..n).map(|i| CoreCoord::new(i % 8, i / 8)).collect();
        line(&format!("{n} tiles on bank 0"), run(fresh()?, read, noc, &tiles, &vec![0; n as usize])?);
    }
    let tiles = careful_tiles(&fresh()?, noc, read)?;
    let banks: Vec<u32> = (0..tiles.len() as u32).collect();
    line("12 banks, careful", run(fresh()?, read, noc, &tiles, &banks)?);
    for seed in 0..seeds {
        line(&format!("12 banks, random (seed {seed})"), run(fresh()?, read, noc, &tiles, &shuffled(&banks, seed))?);
    }
    Ok(())
}
