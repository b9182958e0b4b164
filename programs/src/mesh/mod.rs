//! Programs over a mesh of chips.

pub mod all_gather;
pub mod all_reduce;
pub mod ccl;
pub mod matmul_dp;
pub mod reduce_scatter;
