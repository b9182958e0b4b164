//! sim-tensix: one Tensix core — circular-buffer arithmetic (this module so far).

pub mod cb;

pub use cb::CbCounters;
