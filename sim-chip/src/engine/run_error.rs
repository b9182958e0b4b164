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

/// Blocked kernels listed one per line before the rest are summed up: enough to see the chain of waits on a
/// large grid (the kernels that blocked first come first), few enough that the message stays readable.
pub const LISTED_BLOCKED: usize = 24;
/// Running kernels named in a watchdog message before the rest are counted.
pub const LISTED_RUNNING: usize = 8;

/// One line per blocked kernel: where it runs and what it waits for. Up to [`LISTED_BLOCKED`] are listed
/// as they come; past that, the ones that blocked first (where a chain of waits starts), then a count of
/// the others by kernel.
fn write_blocked(f: &mut fmt::Formatter<'_>, blocked: &[BlockedKernel]) -> fmt::Result {
    let mut order: Vec<&BlockedKernel> = blocked.iter().collect();
    if blocked.len() > LISTED_BLOCKED {
        order.sort_by_key(|b| b.since);
    }
    for b in order.iter().take(LISTED_BLOCKED) {
        writeln!(
            f,
            "  core ({},{}) [NoC0 ({},{})] {} `{}` since cycle {}: {}",
            b.core.0, b.core.1, b.noc0.0, b.noc0.1, b.risc, b.kernel, b.since.0, b.waiting_for
        )?;
    }
    if order.len() > LISTED_BLOCKED {
        let rest = &order[LISTED_BLOCKED..];
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for b in rest {
            match counts.iter_mut().find(|(k, _)| *k == b.kernel) {
                Some(c) => c.1 += 1,
                None => counts.push((&b.kernel, 1)),
            }
        }
        let by_kernel: Vec<String> = counts.iter().map(|(k, n)| format!("{n} × `{k}`")).collect();
        writeln!(f, "  … and {} more kernels that blocked later: {}", rest.len(), by_kernel.join(", "))?;
    }
    Ok(())
}

/// The running kernels of a watchdog message: all of them if few, else the first [`LISTED_RUNNING`] and a
/// count of the others.
fn running_list(running: &[String]) -> String {
    if running.len() <= LISTED_RUNNING {
        return running.join(", ");
    }
    format!("{}, … and {} more", running[..LISTED_RUNNING].join(", "), running.len() - LISTED_RUNNING)
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
                running_list(running)
            ),
        }
    }
}

impl std::error::Error for RunError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocked(n: usize) -> Vec<BlockedKernel> {
        (0..n)
            .map(|i| BlockedKernel {
                kernel: if i % 2 == 0 { "reader".into() } else { "writer".into() },
                core: (i as u32, 0),
                noc0: (i as u32 + 1, 1),
                risc: "BRISC".into(),
                waiting_for: "cb_wait_front(cb 0)".into(),
                // The last kernel blocked first.
                since: Cycle((n - i) as u64 * 10),
            })
            .collect()
    }

    #[test]
    fn a_few_blocked_kernels_are_all_listed_in_their_order() {
        let text = RunError::Deadlock { at: Cycle(100), blocked: blocked(3) }.to_string();
        assert_eq!(text.lines().count(), 4, "{text}");
        assert!(text.lines().nth(1).unwrap().starts_with("  core (0,0)"), "{text}");
        assert!(!text.contains("more kernels"), "{text}");
    }

    #[test]
    fn many_blocked_kernels_list_the_first_to_block_and_count_the_rest() {
        let n = LISTED_BLOCKED + 40;
        let text = RunError::Deadlock { at: Cycle(1000), blocked: blocked(n) }.to_string();
        assert_eq!(text.lines().count(), 1 + LISTED_BLOCKED + 1, "{text}");
        // The kernel that blocked first (the last one, at cycle 10) leads.
        let first = format!("  core ({},0)", n - 1);
        assert!(text.lines().nth(1).unwrap().starts_with(&first), "{text}");
        assert!(text.ends_with("… and 40 more kernels that blocked later: 20 × `writer`, 20 × `reader`\n"), "{text}");
    }

    #[test]
    fn a_watchdog_message_names_a_few_running_kernels_and_counts_the_rest() {
        let running: Vec<String> = (0..LISTED_RUNNING + 300).map(|i| format!("`k` on ({i},0) BRISC")).collect();
        let text = RunError::Livelock { at: Cycle(5), running }.to_string();
        assert!(text.contains("`k` on (7,0) BRISC, … and 300 more); a spin loop"), "{text}");
        assert!(!text.contains("(8,0)"), "{text}");
        let one = RunError::Livelock { at: Cycle(5), running: vec!["`k` on (0,0) BRISC".into()] }.to_string();
        assert!(one.contains("(`k` on (0,0) BRISC);"), "{one}");
    }
}
