//! The Tensix hardware model, below the kernel APIs: L1, circular buffers, one core's shared state, the
//! RISCs, and the compute engines' numerics (`compute/math.rs`), cycle formulas (`compute/cost.rs`) and
//! state (DST, source registers, the helper thread, shared decoded tiles). Nothing here imports the kernel
//! APIs (`dataflow/`, `compute/`, `kernel_ctx.rs`, `addrgen.rs`); they call into it.

pub mod cb;
pub mod compute;
pub mod core;
pub mod l1;
pub mod risc;
