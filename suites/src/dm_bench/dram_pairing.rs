//! dm-tests.md §14's DRAM contention measurements on Wormhole B0, rebuilt: worker tiles each move 1 MiB
//! to or from one DRAM bank (as 128 × 8 KiB transactions and one barrier), either every tile on one bank,
//! or one tile per bank over all twelve banks, paired *carefully* (each tile just upstream of its bank's
//! worker endpoint along the NoC's row direction, so nothing moves vertically) or at random. Silicon's
//! figures (1 GHz, GB/s = bytes per cycle): one bank 22.2–22.3 reads, 21.9–22.0 static-VC writes, for 1,
//! 12 or 48 tiles; twelve banks paired carefully 256–268 (89–93% of 12 × 24), at random 19.6–65.9%
//! depending on direction and NoC. Which tiles silicon used is not documented, so the random pairings
//! here are seeded shuffles of the careful tiles.

use super::kernels::dram_mover;
use programs::rng::Rng;
use sim_device::prelude::*;
use soc_descriptors::Noc0Coord;

/// Bytes each tile moves.
pub const BYTES_PER_TILE: u32 = 1 << 20;
/// Bytes per transaction (Wormhole's largest packet).
const TRANSACTION_BYTES: u32 = 8192;

/// One measurement: the aggregate rate and whether the run stalled packets beyond router buffering.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairingResult {
    /// All tiles' bytes over the span from the first zone's start to the last zone's end.
    pub bytes_per_cycle: f64,
    /// The run's wormhole back-pressure warning (see `sim_noc::backpressure`).
    pub backpressure: bool,
}

/// Each DRAM bank's worker endpoint on `noc`, in NoC0 coordinates, by bank id.
pub fn bank_endpoints(dev: &Device, noc: NocId) -> Vec<Noc0Coord> {
    let soc = dev.chip().soc();
    soc.dram_banks
        .iter()
        .map(|b| soc.dram_channels[b.channel as usize].endpoints[b.worker_endpoint[noc.index()] as usize])
        .collect()
}

/// The careful tile of every bank: the worker just upstream of the bank's endpoint along the direction
/// the data moves (NoC0 runs east and south, NoC1 west and north; a read's data comes from the bank). A
/// bank whose row has no usable worker takes the nearest free one upstream in the same column.
pub fn careful_tiles(dev: &Device, noc: NocId, read: bool) -> Result<Vec<CoreCoord>, DeviceError> {
    let grid = dev.chip().soc().grid;
    let logical = dev.compute_with_storage_grid_size();
    let east_below = (noc == NocId::Noc1) != read;
    // The next column upstream (wrapping), tried until one has a free usable worker.
    let step = |x: u32| if east_below { (x + 1) % grid.x } else { (x + grid.x - 1) % grid.x };
    let mut tiles: Vec<CoreCoord> = Vec::new();
    for e in bank_endpoints(dev, noc) {
        let rows: Vec<u32> = if east_below {
            (e.y..grid.y).chain(0..e.y).collect()
        } else {
            (0..=e.y).rev().chain((e.y + 1..grid.y).rev()).collect()
        };
        let mut x = step(e.x);
        let found = loop {
            let hit = rows
                .iter()
                .filter_map(|&y| dev.chip().noc0_to_logical(Noc0Coord::new(x, y)))
                .map(|l| CoreCoord::new(l.x, l.y))
                .find(|c| c.x < logical.x && c.y < logical.y && !tiles.contains(c));
            if hit.is_some() || x == e.x {
                break hit;
            }
            x = step(x);
        };
        tiles.push(found.ok_or_else(|| DeviceError::api(format!("no free worker tile for the bank at {e}")))?);
    }
    Ok(tiles)
}

/// `banks` in a seeded random order (Fisher–Yates).
pub fn shuffled(banks: &[u32], seed: u64) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    let mut b = banks.to_vec();
    for i in (1..b.len()).rev() {
        let j = (rng.next_u32() as usize) % (i + 1);
        b.swap(i, j);
    }
    b
}

/// Run `tiles[i]` moving [`BYTES_PER_TILE`] to (or, `read`, from) bank `banks[i]` on `noc`, all at once, on
/// a fresh `dev`.
pub fn run(
    mut dev: Device,
    read: bool,
    noc: NocId,
    tiles: &[CoreCoord],
    banks: &[u32],
) -> Result<PairingResult, DeviceError> {
    let mut p = Program::new();
    let set = CoreRangeSet::new(tiles.iter().map(|&c| CoreRange::single(c)).collect())?;
    let cfg = DataMovementConfig { processor: DataMovementProcessor::RISCV_0, noc, ..Default::default() };
    let k = p.create_kernel(Kernel::dataflow("dm_bench/dram_mover", dram_mover), &set, cfg)?;
    let local = dev.mem().l1_unreserved_base;
    let n = BYTES_PER_TILE / TRANSACTION_BYTES;
    for (&c, &b) in tiles.iter().zip(banks) {
        p.set_runtime_args(k, c, &[b, n, TRANSACTION_BYTES, local, read as u32])?;
    }
    let r = dev.enqueue_program(&p)?;
    let start = r.zones.iter().map(|z| z.start.0).min().unwrap_or(0);
    let end = r.zones.iter().map(|z| z.end.0).max().unwrap_or(0);
    let bytes = tiles.len() as f64 * BYTES_PER_TILE as f64;
    Ok(PairingResult {
        bytes_per_cycle: bytes / (end - start).max(1) as f64,
        backpressure: r.noc.backpressure.significant(r.cycles.0, r.noc.worker_tiles),
    })
}
