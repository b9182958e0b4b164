//! kernels: tensim's kernel library and the CPU references its examples are checked against.

pub mod golden;
