//! TTNN's 2-D multicast matmul end to end: every storage and data-type variant the GEMM benchmark uses
//! computes A·B (checked against a CPU reference), a timing-only run takes exactly the cycles of the run
//! with data, and runs are deterministic.

use layout::ttnn::DataType;
use programs::ops::matmul_2d_mcast::{self, Matmul2d};
use sim_device::prelude::*;

fn mm(shape: (u32, u32, u32), sharded: bool, div: u32, blocks: (u32, u32), dtype: DataType) -> Matmul2d {
    Matmul2d::benchmark(shape, sharded, div, blocks, dtype, MathFidelity::HiFi2).unwrap()
}

#[test]
fn every_variant_computes_the_product() {
    for (what, m) in [
        ("sharded bf16, shared partials", mm((512, 512, 512), true, 1, (1, 1), DataType::Bf16)),
        ("sharded, two K blocks per shard (gathered rows)", mm((512, 1024, 512), true, 2, (1, 1), DataType::Bf16)),
        ("DRAM, 2x2 output blocks", mm((1024, 512, 1024), false, 1, (2, 2), DataType::Bf16)),
        ("bfp8_b, separate partials", mm((512, 512, 1024), true, 1, (1, 1), DataType::Bfp8)),
        ("bfp4_b in DRAM", mm((512, 512, 512), false, 1, (1, 1), DataType::Bfp4)),
    ] {
        let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
        let o = matmul_2d_mcast::run_with(&mut dev, &m, 7).unwrap();
        assert!(o.passed, "{what}: {}", o.check);
    }
}

#[test]
fn timing_only_costs_the_same_cycles_and_runs_are_deterministic() {
    let m = mm((1024, 1024, 1024), false, 1, (2, 2), DataType::Bf16);
    let with_data = {
        let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
        matmul_2d_mcast::run_with(&mut dev, &m, 1).unwrap().report.cycles
    };
    let timed = |_: ()| {
        let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
        matmul_2d_mcast::time(&mut dev, &m).unwrap().cycles
    };
    assert_eq!(timed(()), with_data);
    assert_eq!(timed(()), timed(()));
}

#[test]
fn higher_fidelity_and_larger_shapes_take_longer() {
    let cycles = |m: Matmul2d| {
        let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
        matmul_2d_mcast::time(&mut dev, &m).unwrap().cycles.0
    };
    let lo = cycles(mm((1024, 1024, 1024), true, 1, (1, 1), DataType::Bf16));
    let mut hi = mm((1024, 1024, 1024), true, 1, (1, 1), DataType::Bf16);
    hi.fidelity = MathFidelity::HiFi4;
    assert!(cycles(hi) > lo);
    assert!(cycles(mm((1024, 2048, 1024), true, 1, (1, 1), DataType::Bf16)) > lo);
}
