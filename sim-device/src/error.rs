//! Errors of the host API and of runs: each names the core, kernel, address or key involved and what would
//! fix it.

use sim_chip::RunError;
use sim_params::ParamError;
use std::fmt;

/// Everything that can go wrong using the simulated device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeviceError {
    /// The chip description is wrong, or does not fit the parameters.
    Config(String),
    /// A parameter value is wrong.
    Param(ParamError),
    /// A host API call was used wrongly.
    Api(String),
    /// A layout, shard spec or core range is wrong.
    Layout(layout::LayoutError),
    /// A run failed: a kernel stopped, or the run deadlocked or passed the watchdog.
    Run(RunError),
    /// Errors of chips of a mesh run, by chip id (a deadlock across chips lists every blocked chip).
    OnChips(Vec<(u32, DeviceError)>),
}

impl DeviceError {
    /// A host API misuse.
    pub fn api(msg: impl Into<String>) -> DeviceError {
        DeviceError::Api(msg.into())
    }
}

impl From<RunError> for DeviceError {
    fn from(e: RunError) -> DeviceError {
        DeviceError::Run(e)
    }
}

impl From<layout::LayoutError> for DeviceError {
    fn from(e: layout::LayoutError) -> DeviceError {
        DeviceError::Layout(e)
    }
}

impl fmt::Display for DeviceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceError::Config(m) | DeviceError::Api(m) => f.write_str(m),
            DeviceError::Param(e) => write!(f, "{e}"),
            DeviceError::Layout(e) => write!(f, "{e}"),
            DeviceError::Run(e) => write!(f, "{e}"),
            DeviceError::OnChips(errors) => {
                for (i, (chip, e)) in errors.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(f, "chip {chip}: {}", e.to_string().trim_end())?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for DeviceError {}
