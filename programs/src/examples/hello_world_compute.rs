//! hello_world_compute_kernel (tt-metal `programming_examples/hello_world_compute_kernel`): a compute kernel
//! on core (0,0) whose three TRISC threads each print a greeting (`DPRINT_UNPACK`, `DPRINT_MATH`,
//! `DPRINT_PACK`).

use crate::options::{ExampleOptions, Outcome, ProgramError};
use sim_device::prelude::*;

/// `void_compute_kernel`: each TRISC thread prints its own line.
pub fn void_compute_kernel(c: &mut Compute) {
    let line = match c.role() {
        ComputeRole::Unpack => "Hello, Master, I am running a void unpack kernel.",
        ComputeRole::Math => "Hello, Master, I am running a void math kernel.",
        ComputeRole::Pack => "Hello, Master, I am running a void pack kernel.",
    };
    c.dprint(line);
}

/// Run it on core (0,0) and check that each of the three threads printed its line.
pub fn run(dev: &mut Device, _o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let core = CoreCoord::new(0, 0);
    let mut p = Program::new();
    p.create_kernel(
        Kernel::compute("hello_world_compute_kernel/kernels/compute/void_compute_kernel.cpp", void_compute_kernel),
        core,
        ComputeConfig::default(),
    )?;
    let report = dev.enqueue_program(&p)?;
    let mut missing = Vec::new();
    for (risc, what) in [("TRISC0", "unpack"), ("TRISC1", "math"), ("TRISC2", "pack")] {
        let line = format!("(0,0) {risc}: Hello, Master, I am running a void {what} kernel.");
        if !report.dprints.iter().any(|l| l.to_string() == line) {
            missing.push(line);
        }
    }
    let passed = missing.is_empty();
    let check =
        if passed { "the three TRISC threads printed".to_string() } else { format!("missing prints: {missing:?}") };
    Ok(Outcome { passed, check, report, metrics: Vec::new() })
}
