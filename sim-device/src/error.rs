//! Errors of the host API and of runs: each names the core, kernel, address or key involved and what would
//! fix it.

use sim_core::Cycle;
use sim_params::ParamError;
use std::fmt;

/// A kernel blocked when a run deadlocked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockedKernel {
    /// Kernel name.
    pub kernel: String,
    /// Logical core.
    pub core: (u32, u32),
    /// NoC0 physical coordinate of the core.
    pub noc0: (u32, u32),
    /// RISC name.
    pub risc: String,
    /// What it waits for, with the current state.
    pub waiting_for: String,
    /// When it blocked.
    pub since: Cycle,
}

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
    /// A kernel stopped with an error (API misuse) or panicked.
    Kernel {
        /// Kernel name.
        kernel: String,
        /// Logical core.
        core: (u32, u32),
        /// RISC name.
        risc: String,
        /// What happened.
        message: String,
        /// Whether it was a panic in kernel code (else an API error).
        panicked: bool,
        /// When the kernel stopped.
        at: Cycle,
    },
    /// Every kernel is blocked and nothing is in flight.
    Deadlock {
        /// When the last kernel blocked.
        at: Cycle,
        /// Each blocked kernel and what it waits for.
        blocked: Vec<BlockedKernel>,
    },
    /// The run exceeded the watchdog.
    Livelock {
        /// The limit reached (`sim.max_cycles`).
        at: Cycle,
        /// Kernels still running.
        running: Vec<String>,
    },
    /// Errors of chips of a mesh run, by chip id (a deadlock across chips lists every blocked chip).
    OnChips(Vec<(u32, DeviceError)>),
}

impl DeviceError {
    /// A host API misuse.
    pub fn api(msg: impl Into<String>) -> DeviceError {
        DeviceError::Api(msg.into())
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
            DeviceError::Kernel { kernel, core, risc, message, panicked, at } => {
                let what = if *panicked { "panicked" } else { "failed" };
                write!(
                    f,
                    "kernel `{kernel}` on core ({},{}) {risc} {what} at cycle {}: {message}",
                    core.0, core.1, at.0
                )
            }
            DeviceError::Deadlock { at, blocked } => {
                writeln!(f, "deadlock at cycle {}: every kernel is blocked and no NoC transaction is in flight", at.0)?;
                for b in blocked {
                    writeln!(
                        f,
                        "  core ({},{}) [NoC0 ({},{})] {} `{}` since cycle {}: {}",
                        b.core.0, b.core.1, b.noc0.0, b.noc0.1, b.risc, b.kernel, b.since.0, b.waiting_for
                    )?;
                }
                Ok(())
            }
            DeviceError::Livelock { at, running } => write!(
                f,
                "the run passed the watchdog at cycle {} with kernels still running ({}); a spin loop that never \
                 blocks? raise --set sim.max_cycles=N if the program is just long",
                at.0,
                running.join(", ")
            ),
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
