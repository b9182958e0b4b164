//! The registry of runnable example programs (`tensim run --list`), each a port of a tt-metal programming
//! example with its own reference check.

pub mod add_2_integers_in_compute;
pub mod add_2_integers_in_riscv;
pub mod common;
pub mod eltwise_binary;
pub mod eltwise_sfpu;
pub mod hello_world_datamovement;
pub mod loopback;
pub mod matmul_common;
pub mod matmul_multi_core;
pub mod matmul_multicore_reuse;
pub mod matmul_multicore_reuse_mcast;
pub mod matmul_single_core;
pub mod multicast;
pub mod noc_tile_transfer;
pub mod sfpu_eltwise_chain;
pub mod softmax;
pub mod vecadd_multi_core;

use sim_device::{Device, DeviceError, MathFidelity, RunReport};

/// Options shared by the examples (each uses what applies to it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExampleOptions {
    /// Seed of the input data.
    pub seed: u64,
    /// Problem size override (tiles, elements…) where the example has one; `None` keeps its default.
    pub size: Option<u32>,
    /// Matmul M (rows of the output), elements; a multiple of 32.
    pub m: Option<u32>,
    /// Matmul N (columns of the output), elements; a multiple of 32.
    pub n: Option<u32>,
    /// Matmul K (the inner dimension), elements; a multiple of 32.
    pub k: Option<u32>,
    /// Math fidelity of the compute kernels (each example has its own default).
    pub fidelity: Option<MathFidelity>,
}

impl Default for ExampleOptions {
    fn default() -> Self {
        ExampleOptions { seed: 0x7e5, size: None, m: None, n: None, k: None, fidelity: None }
    }
}

/// What an example run produced.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Whether the output matched the reference.
    pub passed: bool,
    /// One line on what was checked and how it went.
    pub check: String,
    /// The timing report of the (last) program run.
    pub report: RunReport,
    /// Further figures worth printing (achieved TFLOP/s of a matmul …).
    pub metrics: Vec<String>,
}

/// A runnable example.
pub struct Example {
    /// Name used on the command line.
    pub name: &'static str,
    /// One line on what it does.
    pub about: &'static str,
    /// Run it on `device`.
    pub run: fn(&mut Device, &ExampleOptions) -> Result<Outcome, DeviceError>,
}

/// Every example, in listing order.
pub fn list() -> &'static [Example] {
    &[
        Example {
            name: "loopback",
            about: "DRAM loopback: 50 tiles DRAM -> L1 -> DRAM on one core",
            run: loopback::run,
        },
        Example {
            name: "add_2_integers_in_riscv",
            about: "two integers read from DRAM, added by the RISC in L1, written back",
            run: add_2_integers_in_riscv::run,
        },
        Example {
            name: "add_2_integers_in_compute",
            about: "one tile of each operand added by the FPU, packed and written back",
            run: add_2_integers_in_compute::run,
        },
        Example {
            name: "eltwise_binary",
            about: "a + b over 64 bf16 tiles on one core (reader, FPU add, writer)",
            run: eltwise_binary::run,
        },
        Example { name: "eltwise_sfpu", about: "exp of 64 bf16 tiles on the SFPU of one core", run: eltwise_sfpu::run },
        Example {
            name: "sfpu_eltwise_chain",
            about: "softplus = log(1 + exp(x)) as a chain of SFPU operations in DST",
            run: sfpu_eltwise_chain::run,
        },
        Example {
            name: "vecadd_multi_core",
            about: "a + b over 640 bf16 tiles split across the compute grid",
            run: vecadd_multi_core::run,
        },
        Example {
            name: "matmul_single_core",
            about: "C = A·B (bf16, 640^3 by default; --m --n --k) on one core, one output tile at a time",
            run: matmul_single_core::run,
        },
        Example {
            name: "matmul_multi_core",
            about: "the single-core matmul with output tiles split over the compute grid",
            run: matmul_multi_core::run,
        },
        Example {
            name: "matmul_multicore_reuse",
            about: "blocked matmul, one output block per core, partial sums in a shared CB",
            run: matmul_multicore_reuse::run,
        },
        Example {
            name: "matmul_multicore_reuse_mcast",
            about: "blocked matmul with A multicast along rows and B down columns (1024^3 by default)",
            run: matmul_multicore_reuse_mcast::run,
        },
        Example {
            name: "softmax",
            about: "fused softmax over rows (exp, reduce, recip, broadcast multiply) on many cores",
            run: softmax::run,
        },
        Example {
            name: "noc_tile_transfer",
            about: "a tile passed between two cores over the NoC with a semaphore handshake",
            run: noc_tile_transfer::run,
        },
        Example {
            name: "multicast",
            about: "one sender multicasts a tile to three receivers (semaphore handshake), which write it to DRAM",
            run: multicast::run,
        },
        Example {
            name: "hello_world_datamovement",
            about: "each data-movement RISC prints its logical coordinates",
            run: hello_world_datamovement::run,
        },
    ]
}

/// The example named `name`.
pub fn find(name: &str) -> Option<&'static Example> {
    list().iter().find(|e| e.name == name)
}
