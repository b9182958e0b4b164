//! Measured data the user points tensim at (NoC traces, data-movement tables, GEMM times): a path that does
//! not exist is named with where such data comes from, since it is not part of the repository.

use crate::error::{CliError, CliResult};
use std::path::Path;

/// Refuse `path` (the `what` given with `flag`) when it does not exist, saying where measured data lives.
pub fn must_exist(path: &Path, what: &str, flag: &str) -> CliResult<()> {
    if path.exists() || soc_descriptors::input::dangling_link(path).is_some() {
        return Ok(());
    }
    let shared = path.components().any(|c| c.as_os_str() == "shared" || c.as_os_str() == "calibration");
    let hint = if shared {
        "the silicon measurements (NoC traces in calibration/noc_traces, data-movement tables in calibration/dm/<arch>, \
         GEMM times in calibration/gemm_*.csv) are in the team's shared folder next to the repository (../shared), not in \
         the repository: give the path to your copy, or set TENSIM_CALIBRATION_DIR for the tests"
    } else {
        "give an existing file or folder"
    };
    Err(CliError::User(format!("{}: no such {what} ({flag}); {hint}", path.display())))
}
