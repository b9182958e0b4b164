//! sim-core: the hardware-agnostic heart of tensim — simulated time ([`Cycle`], [`Cycles`]), the event
//! queue that orders everything by (cycle, tie-break), kernel threads as stackful coroutines ([`Fiber`])
//! with their local clocks ([`FiberClock`]), and the Chrome/Perfetto trace writer.
//!
//! Time and ordering contract (in full: docs/architecture-notes.md):
//! - every event and every kernel resumption has a key `(cycle, order)`; the queue hands them out in key
//!   order, so a run is a deterministic function of its inputs;
//! - hardware events at a cycle come before kernel resumptions at the same cycle; among kernels the fixed
//!   tie-break is the fiber id (core, then RISC);
//! - a kernel's local clock may run ahead of global time through time-only calls; before it touches shared
//!   state it synchronises ([`SyncView`]) so that every earlier event that could touch that state has
//!   happened — everything earlier, or for calls on its own core everything that can reach that core.

pub mod agenda;
pub mod as_of;
pub mod chrome_trace;
pub mod fiber;
pub mod host_threads;
pub mod queue;
pub mod resumptions;
pub mod simd;
pub mod time;

pub use agenda::{Agenda, Next, SyncView};
pub use as_of::{AsOfLog, OrderKey};
pub use chrome_trace::{TraceArg, TraceBuilder, Track};
pub use fiber::{Fiber, FiberClock, FiberFailure, FiberId, Step, Suspend, Yielder, abort};
pub use queue::{EventKey, EventQueue};
pub use time::{Cycle, Cycles};
