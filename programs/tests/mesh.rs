//! Programs over a mesh: the data-parallel matmul passes on n300 (1x2), T3000 (2x4) and p300, with
//! bit-identical cycles and data whether the chips are simulated on one host thread or two; one chip is the
//! 1x1 mesh and times exactly like the single-device program.

use programs::mesh::matmul_dp::{DpMatmul, run};
use sim_device::mesh::{MeshDevice, MeshShape};
use sim_device::prelude::*;
use sim_device::{Params, RunReport};

fn mesh(system: &str, rows: u32, cols: u32, workers: usize) -> MeshDevice {
    let (cd, sys) = soc_descriptors::builtin_system(system).unwrap();
    let mut m =
        MeshDevice::open(&cd, &sys, MeshShape::new(rows, cols), None, &Params::builtin(cd.arch().unwrap())).unwrap();
    m.set_workers(workers);
    m
}

fn cycles(r: &[(sim_device::mesh::MeshCoordinate, u32, RunReport)]) -> Vec<(u32, u64)> {
    r.iter().map(|d| (d.1, d.2.cycles.0)).collect()
}

#[test]
fn data_parallel_matmul_passes_on_every_listed_system() {
    let p = DpMatmul { batch: 8, m: 64, k: 128, n: 96 };
    for (system, rows, cols) in [("n300", 1, 2), ("t3000", 2, 4), ("p300", 1, 2)] {
        let mut m = mesh(system, rows, cols, 0);
        let out = run(&mut m, p, MathFidelity::HiFi4, 7).unwrap();
        assert!(out.passed, "{system}: {}", out.check);
        eprintln!("{system}: {} ({} cycles)", out.check, out.report.cycles.0);
        assert_eq!(out.report.devices.len(), (rows * cols) as usize);
        assert!(out.report.not_modelled.is_empty());
        assert_eq!(out.report.cycles, out.report.devices.iter().map(|d| d.2.cycles).max().unwrap());
    }
}

#[test]
fn chips_in_parallel_are_deterministic() {
    let p = DpMatmul { batch: 8, m: 64, k: 64, n: 64 };
    let one = run(&mut mesh("t3000", 2, 4, 1), p, MathFidelity::HiFi2, 3).unwrap();
    let two = run(&mut mesh("t3000", 2, 4, 2), p, MathFidelity::HiFi2, 3).unwrap();
    assert_eq!(cycles(&one.report.devices), cycles(&two.report.devices));
    assert_eq!(one.check, two.check);
    for (a, b) in one.report.devices.iter().zip(&two.report.devices) {
        assert_eq!(format!("{:?}", a.2.noc.traffic), format!("{:?}", b.2.noc.traffic));
        assert_eq!(a.2.events, b.2.events);
    }
}

#[test]
fn one_chip_is_the_unit_mesh() {
    let p = DpMatmul { batch: 2, m: 64, k: 64, n: 64 };
    let mut unit = MeshDevice::unit(Device::open(&ChipSpec::builtin(Arch::WormholeB0)).unwrap());
    let out = run(&mut unit, p, MathFidelity::HiFi4, 5).unwrap();
    assert!(out.passed, "{}", out.check);
    assert!(out.report.not_modelled.is_empty());
    let err = run(&mut mesh("n300", 1, 2, 0), DpMatmul { batch: 3, ..p }, MathFidelity::HiFi4, 5).unwrap_err();
    assert!(err.to_string().contains("divisible by 2"), "{err}");
}
