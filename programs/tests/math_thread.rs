//! The helper thread that computes tile products (`sim.math_thread`) changes nothing: the same output
//! bits, cycles and report with it forced on as with it off, for the matmul paths (`matmul_tiles` with
//! reloaded partials, `matmul_block` in several data formats and fidelities) and for every example.

use layout::ttnn::DataType;
use programs::ExampleOptions;
use programs::ops::matmul_2d_mcast::{self, Matmul2d, Operands};
use programs::rng::Rng;
use sim_device::prelude::*;
use sim_device::{ChipSpec, Params};

fn device(arch: Arch, math_thread: u32) -> Device {
    let mut params = Params::builtin(arch);
    params.sim.math_thread = math_thread;
    Device::open_with_params(&ChipSpec::builtin(arch), params).unwrap()
}

/// The output's bits and the run's report of the 2-D multicast matmul `mm` on random inputs.
fn product(mm: &Matmul2d, math_thread: u32) -> (Vec<u32>, String) {
    let mut dev = device(Arch::WormholeB0, math_thread);
    let mut rng = Rng::new(11);
    let mut random = |r: u32, c: u32| (0..r * c).map(|_| rng.uniform(-1.0, 1.0)).collect::<Vec<f32>>();
    let (a, b) = (random(mm.m, mm.k), random(mm.k, mm.n));
    let in0 = Tensor::from_vec(a, matmul_2d_mcast::spec(&dev, mm, mm.m, mm.k, mm.in0_sharded).unwrap())
        .unwrap()
        .to_device(&mut dev)
        .unwrap();
    let in1 = Tensor::from_vec(b, matmul_2d_mcast::spec(&dev, mm, mm.k, mm.n, false).unwrap())
        .unwrap()
        .to_device(&mut dev)
        .unwrap();
    let out_spec = matmul_2d_mcast::spec(&dev, mm, mm.m, mm.n, mm.out_sharded).unwrap();
    let out = DeviceTensor::allocate(&mut dev, &out_spec).unwrap();
    let t = Operands { in0, in1, out };
    let prog = matmul_2d_mcast::program(&dev, mm, &t).unwrap();
    let mut report = dev.enqueue_program(&prog).unwrap();
    report.resumes = 0;
    let bits = t.out.to_host(&mut dev).unwrap().data.iter().map(|v| v.to_bits()).collect();
    (bits, format!("{report:?}"))
}

#[test]
fn matmul_blocks_give_the_same_bits_with_and_without_the_helper() {
    for (dtype, fidelity, sharded) in [
        (DataType::Bf16, MathFidelity::HiFi4, false),
        (DataType::Bf16, MathFidelity::LoFi, true),
        (DataType::Bfp8, MathFidelity::HiFi2, true),
    ] {
        let mut mm = Matmul2d::benchmark((512, 1024, 512), sharded, 2, (1, 1), dtype, fidelity).unwrap();
        mm.fidelity = fidelity;
        let (off, off_report) = product(&mm, 0);
        let (on, on_report) = product(&mm, 2);
        assert!(off.iter().any(|&b| b != 0), "{dtype} {fidelity:?}: an all-zero product tests nothing");
        assert!(off == on, "{dtype} {fidelity:?}: the helper thread changed the output");
        assert_eq!(off_report, on_report, "{dtype} {fidelity:?}: the helper thread changed the report");
    }
}

#[test]
fn every_example_is_the_same_with_and_without_the_helper() {
    for ex in programs::list() {
        let run = |math_thread| {
            let mut dev = device(Arch::WormholeB0, math_thread);
            let out = (ex.run)(&mut dev, &ExampleOptions::default()).unwrap();
            let mut r = out.report;
            r.resumes = 0;
            format!("{} {}\n{:?}", out.passed, out.check, r)
        };
        assert_eq!(run(0), run(2), "{}: the helper thread changed the result", ex.name);
    }
}
