//! sim-chip: one chip running a program. It takes a checked [`RunPlan`] (built by the host API's launch)
//! and the chip's [`ChipMemories`], builds the cores, the chip state with its NoC and DRAM timing models,
//! the engine and a fiber per kernel instance, and returns a [`ChipRun`]: run to the end, or in time
//! windows beside other chips (the mesh coordinator exchanges Ethernet packets between windows). A run
//! ends with a `RunReport` or a [`RunError`], and the memories go back to their owner either way.
//!
//! The engine's internals (chip state, scheduler, recorder) are private; the boundary to kernels is
//! `sim_tensix::KernelHost`, to timing models `sim_noc::{NocTiming, DramTiming}`.

mod engine;
pub mod fabric_config;
mod launch;
pub mod plan;
mod runs;

pub use engine::Progress;
pub use engine::eth_links::EthPacket;
pub use engine::event_loop::Pause;
pub use engine::run_error::{BlockedKernel, RunError};
pub use launch::{ChipRun, launch};
pub use plan::{
    ChipMemories, ComputeFn, DataflowFn, KernelBody, Links, PlannedCb, PlannedInstance, PlannedKernel,
    PlannedSemaphore, Recording, RunPlan,
};

/// One-way Ethernet latency of a chip with `params`, cycles (the longest window chips of a mesh may run
/// apart).
pub fn eth_latency(params: &sim_params::Params) -> sim_core::Cycles {
    engine::eth_links::EthTiming::new(params.eth.clone(), params.clock_mhz).latency
}
