//! Work estimates: before a command simulates, it says how much it is about to do; above these limits it
//! refuses (with the estimate and the flag that overrides the limit) instead of running for a long time.

use crate::error::{CliError, CliResult};

/// NoC packets above which a command asks for `--allow-large` (tens of seconds of simulation and more).
pub const MAX_PACKETS: u64 = 300_000_000;
/// Compute-engine tile operations above which a command asks for `--allow-large`.
pub const MAX_TILE_OPS: u64 = 20_000_000;
/// Simulated NoC bytes above which a command asks for `--allow-large`.
pub const MAX_NOC_BYTES: u64 = 200 << 30;

/// An estimate of a command's work.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Estimate {
    /// NoC packets.
    pub packets: u64,
    /// Tile operations of the compute engines.
    pub tile_ops: u64,
    /// Bytes over the NoC.
    pub noc_bytes: u64,
}

/// Refuse `e` when it is above a limit and `allow_large` is not given.
pub fn check(e: Estimate, what: &str, allow_large: bool) -> CliResult<()> {
    let over = e.packets > MAX_PACKETS || e.tile_ops > MAX_TILE_OPS || e.noc_bytes > MAX_NOC_BYTES;
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
        return Err(CliError::User(format!(
            "{what} is large: about {}; it could run for minutes. Pass --allow-large to run it anyway, or make it \
             smaller",
            parts.join(", ")
        )));
    }
    Ok(())
}
