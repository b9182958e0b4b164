//! The simulation runs under way in this process, counted so that a run knows whether the host has a core
//! to spare for its helper thread (parallel sweeps and multi-chip runs already use every core).

use std::sync::atomic::{AtomicUsize, Ordering};

/// Simulation runs under way in this process.
static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// One run, counted in [`RUNNING`] while it lives (a run's chip state holds it).
pub(crate) struct Running(());

impl Running {
    /// Count a run that starts now.
    pub(crate) fn enter() -> Running {
        RUNNING.fetch_add(1, Ordering::Relaxed);
        Running(())
    }

    /// Whether this run computes its tile products on a helper thread under `sim.math_thread` = `policy`:
    /// 0 never, 2 always, 1 when the host has a core to spare: at least two, and no other run in this
    /// process (parallel sweeps and multi-chip runs already use every core).
    pub(crate) fn math_thread(&self, policy: u32) -> bool {
        static HOST_CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        match policy {
            0 => false,
            2 => true,
            _ => {
                *HOST_CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get())) >= 2
                    && RUNNING.load(Ordering::Relaxed) == 1
            }
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.fetch_sub(1, Ordering::Relaxed);
    }
}
