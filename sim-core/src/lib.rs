//! sim-core: the hardware-agnostic heart of tensim — simulated time ([`Cycle`], [`Cycles`]).

pub mod time;

pub use time::{Cycle, Cycles};
