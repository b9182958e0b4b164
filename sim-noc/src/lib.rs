//! sim-noc: the two NoCs of a Tenstorrent chip — 2-D torus topology and dimension-ordered routing.

pub mod topology;

pub use topology::{Dir, LinkId, Topology};
