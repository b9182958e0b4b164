//! The registry of runnable example programs (`tensim run --list`), each a port of a tt-metal programming
//! example with its own reference check.

pub mod add_2_integers_in_riscv;
pub mod hello_world_datamovement;
pub mod loopback;
pub mod multicast;
pub mod noc_tile_transfer;

use sim_device::{Device, DeviceError, RunReport};

/// Options shared by the examples (each uses what applies to it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExampleOptions {
    /// Seed of the input data.
    pub seed: u64,
    /// Problem size override (tiles, elements…) where the example has one; `None` keeps its default.
    pub size: Option<u32>,
}

impl Default for ExampleOptions {
    fn default() -> Self {
        ExampleOptions { seed: 0x7e5, size: None }
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
