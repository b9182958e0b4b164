//! The compute engines as hardware: tile numerics as the FPU computes them (`math.rs`) and the SFPU's
//! functions (`sfpu_math.rs`), every cycle formula (`cost.rs`), a core's compute state shared by its three
//! TRISC threads (`state.rs`), tile products on a helper host thread (`offload.rs`) and decoded operand tiles
//! shared by cores (`shared.rs`).

pub(crate) mod cost;
pub mod math;
pub mod offload;
pub mod sfpu_math;
pub mod shared;
pub mod state;
