//! Work estimates: before a command simulates, it says how much it is about to do — simulated work and
//! host memory — and above these limits it refuses (with the estimate and the flag that overrides the
//! limit) instead of running for a long time or swapping the machine.

use crate::error::{CliError, CliResult};
use soc_descriptors::GridSize;

/// NoC packets above which a command asks for `--allow-large` (tens of seconds of simulation and more).
pub const MAX_PACKETS: u64 = 300_000_000;
/// Compute-engine tile operations above which a command asks for `--allow-large`.
pub const MAX_TILE_OPS: u64 = 20_000_000;
/// Simulated NoC bytes above which a command asks for `--allow-large`.
pub const MAX_NOC_BYTES: u64 = 200 << 30;
/// Flit moves of the router-level NoC model (`noc.model=router`) above which a command asks for
/// `--allow-large`: it steps every flit through every buffer, 10-20 M moves per wall second on this
/// project's 2-core host (the full-grid Wormhole all_to_all point at 32 KiB per pair: ~50 M moves in 4.3 s;
/// the 4096³ multicast matmul: ~470 M estimated in 28 s), so this is about a minute.
pub const MAX_ROUTER_FLIT_MOVES: u64 = 1_000_000_000;

/// An estimate of a command's work.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Estimate {
    /// NoC packets.
    pub packets: u64,
    /// Tile operations of the compute engines.
    pub tile_ops: u64,
    /// Bytes over the NoC.
    pub noc_bytes: u64,
    /// Peak host memory, bytes (0: not estimated).
    pub host_bytes: u64,
    /// Flit moves of the router-level NoC model (0: another model, or not estimated).
    pub router_flit_moves: u64,
}

/// The flit moves the router-level NoC model makes to carry `bytes` of payload in `packets` packets on a
/// chip whose NoC grid is `grid` (0 under another model): every flit, headers included, through its
/// injection port, about half of each ring of the torus, and its ejection port.
pub fn router_flit_moves(noc: &sim_device::params::NocParams, grid: GridSize, bytes: u64, packets: u64) -> u64 {
    if noc.model != sim_device::params::NocModelKind::Router {
        return 0;
    }
    let flits = bytes.div_ceil(u64::from(noc.flit_bytes.max(1))).saturating_add(packets * u64::from(noc.header_flits));
    flits.saturating_mul(u64::from(grid.x + grid.y) / 2 + 2)
}

/// Host memory above which a run asks for `--allow-large` whatever the machine.
pub const MAX_HOST_BYTES: u64 = 4 << 30;

/// The host memory a run may take without `--allow-large`: 4 GiB, or a quarter of this machine's memory
/// if that is less, so a run never pushes the host into swap even beside other work. Also the total.
fn memory_limit_bytes() -> (u64, u64) {
    let total = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("MemTotal:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|k| k.parse::<u64>().ok()))
        })
        .map(|kib| kib * 1024)
        .unwrap_or(16 << 30);
    ((total / 4).min(MAX_HOST_BYTES), total)
}

fn gib(b: u64) -> String {
    format!("{:.1} GiB", b as f64 / (1u64 << 30) as f64)
}

/// Refuse `e` when it is above a limit and `allow_large` is not given.
pub fn check(e: Estimate, what: &str, allow_large: bool) -> CliResult<()> {
    let (mem_limit, mem_total) = memory_limit_bytes();
    if e.host_bytes > mem_limit && !allow_large {
        return Err(CliError::User(format!(
            "{what} would take about {} of host memory, above the {} a run may take on this machine ({} of memory: the lesser of 4 GiB and a quarter of it). Pass --allow-large to run it anyway, or make it smaller",
            gib(e.host_bytes),
            gib(mem_limit),
            gib(mem_total)
        )));
    }
    let over = e.packets > MAX_PACKETS
        || e.tile_ops > MAX_TILE_OPS
        || e.noc_bytes > MAX_NOC_BYTES
        || e.router_flit_moves > MAX_ROUTER_FLIT_MOVES;
    if over && !allow_large {
        let mut parts = Vec::new();
        if e.packets > 0 {
            parts.push(format!("{} NoC packets (limit {MAX_PACKETS})", e.packets));
        }
        if e.tile_ops > 0 {
            parts.push(format!("{} tile operations (limit {MAX_TILE_OPS})", e.tile_ops));
        }
        if e.noc_bytes > 0 {
            parts.push(format!("{} MiB over the NoC (limit {} MiB)", e.noc_bytes >> 20, MAX_NOC_BYTES >> 20));
        }
        if e.router_flit_moves > 0 {
            parts.push(format!(
                "{} flit moves on the router-level NoC model (limit {MAX_ROUTER_FLIT_MOVES}; it makes roughly 10-20 M a \
                 second, so about {} min; noc.model=calendar runs it far faster)",
                e.router_flit_moves,
                e.router_flit_moves.div_ceil(15_000_000 * 60)
            ));
        }
        return Err(CliError::User(format!(
            "{what} is large: about {}; it could run for minutes. Pass --allow-large to run it anyway, or make it \
             smaller",
            parts.join(", ")
        )));
    }
    Ok(())
}

/// `--estimate`: print `e` and stop.
pub fn print(e: Estimate) -> CliResult<std::process::ExitCode> {
    crate::out::say!(
        "estimate: {} tile operations, {} NoC packets, {} MiB over the NoC, peak host memory {} MiB{}",
        e.tile_ops,
        e.packets,
        e.noc_bytes >> 20,
        e.host_bytes >> 20,
        if e.router_flit_moves > 0 {
            format!(", {} flit moves on the router-level NoC model", e.router_flit_moves)
        } else {
            String::new()
        }
    );
    Ok(std::process::ExitCode::SUCCESS)
}

/// This process's peak resident memory so far, bytes (`VmHWM` of /proc/self/status; None where the system
/// does not say).
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.trim_start_matches("VmHWM:").trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kib * 1024)
}

/// The closing line on host memory: the peak the run reached beside the estimate it was admitted on.
pub fn say_memory(estimated_bytes: u64) -> CliResult<()> {
    if let Some(peak) = peak_rss_bytes() {
        crate::out::say!("host memory: peak {} MiB (estimated {} MiB)", peak >> 20, estimated_bytes >> 20);
    }
    Ok(())
}
