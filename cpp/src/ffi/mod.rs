//! The one place tensim runs foreign code, in layers that import only downwards: `marshal` (strings,
//! slices, out-parameters), `arena` (the shared L1 memory file and the low address range), `l1_window`
//! (C++ kernels' raw L1 pointers), `supervise` (who runs: kernel, host, tensim; the watchdog), `fault`
//! (the signal handler, told what a fault means for L1 by the resolver `l1_window` registers), `context`
//! (the running kernel's context the ABI calls reach) and `loader` (libraries and their entry points,
//! handed the ABI tables by the caller).
#![allow(unsafe_code)]

mod arena;
mod context;
mod fault;
pub mod l1_window;
mod loader;
mod marshal;
mod supervise;

pub(crate) use context::{compute, dataflow, exit_jump, is_compute, mark_store, stop_from_hook};
pub(crate) use fault::install_fault_handler;
pub(crate) use loader::{Abi, HostLib, KernelLib, MainEnd};
pub(crate) use marshal::{c_str, c_string, read_slice, set_out, text, write_slice};
pub use supervise::check_timeout_setting;
pub(crate) use supervise::{BackToHost, Who, enter_tensim, set_program};
