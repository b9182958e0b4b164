//! hello_world_datamovement_kernel (tt-metal `programming_examples/hello_world_datamovement_kernel`): the
//! same kernel on BRISC (NoC0) and NCRISC (NoC1) of core (0,0) prints the core's logical coordinates.

use crate::options::{ExampleOptions, Outcome, ProgramError};
use sim_device::prelude::*;

/// `void_dataflow_kernel`: print this core's logical coordinates.
pub fn void_dataflow_kernel(k: &mut Dataflow) {
    let (x, y) = (k.get_absolute_logical_x(), k.get_absolute_logical_y());
    k.dprint(format!("My logical coordinates are {x},{y}"));
}

/// Run it on core (0,0) (or on `size` × 1 cores) and check that every RISC printed its coordinates.
pub fn run(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let n = o.size.unwrap_or(1).max(1);
    let cores = CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(n - 1, 0));
    let mut p = Program::new();
    let name = "hello_world_datamovement_kernel/kernels/dataflow/void_dataflow_kernel.cpp";
    p.create_kernel(Kernel::dataflow(name, void_dataflow_kernel), cores, DataMovementConfig::default())?;
    p.create_kernel(
        Kernel::dataflow(name, void_dataflow_kernel),
        cores,
        DataMovementConfig { processor: DataMovementProcessor::RISCV_1, noc: NocId::Noc1, ..Default::default() },
    )?;
    let report = dev.enqueue_program(&p)?;
    let mut missing = Vec::new();
    for c in cores.iter() {
        for risc in ["BRISC", "NCRISC"] {
            let line = format!("({},{}) {risc}: My logical coordinates are {},{}", c.x, c.y, c.x, c.y);
            if !report.dprints.iter().any(|l| l.to_string() == line) {
                missing.push(line);
            }
        }
    }
    let passed = missing.is_empty();
    let check = if passed {
        format!("{} RISCs printed their coordinates", 2 * n)
    } else {
        format!("missing prints: {missing:?}")
    };
    Ok(Outcome { passed, check, report, metrics: Vec::new() })
}
