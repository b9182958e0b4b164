//! Speed bench of compute: the tile-math kernels on their own (tile matmuls per second at each fidelity),
//! and the compute examples end to end (setup, simulation, CPU reference check) with their simulated cycles
//! per wall second. Run: `cargo bench -p benches --bench compute`.

use benches::harness::measure;
use programs::{ExampleOptions, find};
use sim_device::prelude::*;
use sim_tensix::hw::compute::math;
use std::time::{Duration, Instant};

fn main() {
    // 1. Tile math: one 32x32x32 tile matmul into DST (bf16 DST rounding), per fidelity.
    let a: Box<math::Tile> =
        Box::new(std::array::from_fn(|i| bfloat16::from_f32((i % 97) as f32 / 31.0 - 1.5).to_f32()));
    let b: Box<math::Tile> =
        Box::new(std::array::from_fn(|i| bfloat16::from_f32((i % 89) as f32 / 29.0 - 1.5).to_f32()));
    for phases in [1u32, 4] {
        let mut dst: Box<math::Tile> = Box::new([0.0; 1024]);
        let reps = 1000;
        let m = measure(&format!("tile matmul x{reps}, {phases} phase(s)"), Duration::from_millis(500), || {
            for _ in 0..reps {
                math::matmul(&mut dst, &a, &b, phases, false);
            }
            dst[0]
        });
        let per_sec = reps as f64 / m.median.as_secs_f64();
        println!("{m}   {:.2} M tile matmuls/s ({:.1} G MAC/s)", per_sec / 1e6, per_sec * 32768.0 / 1e9);
    }

    // 2. Examples end to end.
    let runs: [(&str, ExampleOptions, usize); 5] = [
        ("eltwise_sfpu", ExampleOptions::default(), 5),
        ("softmax", ExampleOptions::default(), 5),
        ("matmul_multicore_reuse", ExampleOptions::default(), 5),
        (
            "matmul_multicore_reuse_mcast",
            ExampleOptions { m: Some(1024), n: Some(1024), k: Some(1024), ..Default::default() },
            3,
        ),
        (
            "matmul_multicore_reuse_mcast",
            ExampleOptions { m: Some(2048), n: Some(2048), k: Some(2048), ..Default::default() },
            1,
        ),
    ];
    for (name, opts, reps) in runs {
        let ex = find(name).expect("example exists");
        let mut best = f64::MAX;
        let mut last = None;
        for _ in 0..reps {
            let t = Instant::now();
            let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
            let out = (ex.run)(&mut dev, &opts).unwrap();
            best = best.min(t.elapsed().as_secs_f64());
            assert!(out.passed, "{name}: {}", out.check);
            last = Some(out);
        }
        let out = last.expect("reps > 0");
        let r = &out.report;
        let size = opts.m.map(|m| format!(" {m}^3")).unwrap_or_default();
        println!(
            "{name}{size}: {} simulated cycles in {best:.3} s wall ({:.2} M cycles/s; {} API calls, {:.1} M calls/s){}",
            r.cycles.0,
            r.cycles.0 as f64 / best / 1e6,
            r.api_calls,
            r.api_calls as f64 / best / 1e6,
            out.metrics.get(1).map(|m| format!("; {m}")).unwrap_or_default()
        );
    }
}
