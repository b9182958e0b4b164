//! How a run fails: a kernel stops (an API error or a panic), every kernel blocks with nothing in flight
//! (a deadlock, with who waits on what), or the run passes the watchdog. The host API wraps these in
//! `DeviceError::Run`.

use sim_core::Cycle;
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

/// Why a run did not finish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// The run could not be set up (a kernel thread's stack could not be had).
    Setup(String),
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
    /// Flits sat in the NoC routers without moving (a stepped NoC model): the routers deadlocked.
    NocDeadlock {
        /// When the model noticed.
        at: Cycle,
        /// Where the flits are stuck.
        detail: String,
        /// The kernels blocked then, and what they wait for.
        blocked: Vec<BlockedKernel>,
    },
    /// The run exceeded the watchdog.
    Livelock {
        /// The limit reached (`sim.max_cycles`).
        at: Cycle,
        /// Kernels still running.
        running: Vec<String>,
    },
}

/// One line per blocked kernel: where it runs and what it waits for.
fn write_blocked(f: &mut fmt::Formatter<'_>, blocked: &[BlockedKernel]) -> fmt::Result {
    for b in blocked {
        writeln!(
            f,
            "  core ({},{}) [NoC0 ({},{})] {} `{}` since cycle {}: {}",
            b.core.0, b.core.1, b.noc0.0, b.noc0.1, b.risc, b.kernel, b.since.0, b.waiting_for
        )?;
    }
    Ok(())
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Setup(m) => f.write_str(m),
            RunError::Kernel { kernel, core, risc, message, panicked, at } => {
                let what = if *panicked { "panicked" } else { "failed" };
                write!(
                    f,
                    "kernel `{kernel}` on core ({},{}) {risc} {what} at cycle {}: {message}",
                    core.0, core.1, at.0
                )
            }
            RunError::Deadlock { at, blocked } => {
                writeln!(f, "deadlock at cycle {}: every kernel is blocked and no NoC transaction is in flight", at.0)?;
                write_blocked(f, blocked)
            }
            RunError::NocDeadlock { at, detail, blocked } => {
                writeln!(f, "the NoC routers deadlocked by cycle {}: {detail}", at.0)?;
                write_blocked(f, blocked)
            }
            RunError::Livelock { at, running } => write!(
                f,
                "the run passed the watchdog at cycle {} with kernels still running ({}); a spin loop that never \
                 blocks? raise the parameter sim.max_cycles if the program is just long",
                at.0,
                running.join(", ")
            ),
        }
    }
}

impl std::error::Error for RunError {}
