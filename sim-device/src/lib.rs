//! sim-device: the simulated chip and its host API — so far, where the chip description comes from.

pub mod chip_spec;

pub use chip_spec::{ChipSpec, SocSource};
