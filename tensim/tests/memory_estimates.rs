//! The host-memory estimate a run is admitted on holds: for every built-in program at a small and a
//! larger size, the peak resident memory the run reports is within 2× of its estimate, and
//! `--estimate` prints the same estimate without running.

use std::process::Command;

fn tensim(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tensim")).args(args).output().expect("run tensim");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// (peak MiB, estimated MiB) from the run's `host memory:` line.
fn memory_line(out: &str) -> Option<(u64, u64)> {
    let l = out.lines().find(|l| l.starts_with("host memory: peak "))?;
    let mut nums = l.split(|c: char| !c.is_ascii_digit()).filter(|s| !s.is_empty()).map(|s| s.parse().unwrap());
    Some((nums.next()?, nums.next()?))
}

/// Each program at two sizes; the larger one holds tens of MiB of data so the estimate's per-element
/// terms, not the fixed base, decide the comparison.
const RUNS: &[&str] = &[
    "loopback --size 64",
    "loopback --size 4096",
    "add_2_integers_in_riscv",
    "add_2_integers_in_compute",
    "eltwise_binary --size 64",
    "eltwise_binary --size 2048",
    "eltwise_sfpu --size 64",
    "eltwise_sfpu --size 2048",
    "sfpu_eltwise_chain --size 16",
    "sfpu_eltwise_chain --size 1024",
    "custom_sfpi_add --size 16",
    "custom_sfpi_add --size 1024",
    "vecadd_multi_core --size 64",
    "vecadd_multi_core --size 2048",
    "matmul_single_core --size 64",
    "matmul_single_core --m 256 --n 256 --k 256",
    "matmul_multi_core --size 128",
    "matmul_multi_core --m 2048 --n 1024 --k 64",
    "matmul_multicore_reuse --size 256",
    "matmul_multicore_reuse --m 1024 --n 1024 --k 128",
    "matmul_multicore_reuse_mcast --size 256",
    "matmul_multicore_reuse_mcast --m 1024 --n 1024 --k 256",
    "softmax --m 64 --n 64",
    "softmax --m 1024 --n 1024",
    "reshard --shape 256x256",
    "reshard --shape 1024x2048",
    "interleaved_to_sharded --shape 256x512",
    "interleaved_to_sharded --shape 2048x1024",
    "sharded_to_interleaved --shape 256x512",
    "sharded_to_interleaved --shape 2048x1024",
    "eltwise_add_sharded --shape 256x256",
    "eltwise_add_sharded --shape 2048x1024",
    "matmul_2d_mcast --size 256",
    "matmul_2d_mcast --m 1024 --n 1024 --k 256",
    "all_gather --shape 1,1,64,64",
    "all_gather --shape 1,1,512,1024",
    "reduce_scatter --shape 1,1,256,256",
    "reduce_scatter --shape 1,1,1024,1024",
    "all_reduce --shape 1,1,256,256",
    "all_reduce --shape 1,1,512,1024",
];

#[test]
fn peak_host_memory_is_within_twice_the_estimate() {
    let mut bad = Vec::new();
    let mut largest = 0;
    for run in RUNS {
        let args: Vec<&str> = std::iter::once("run").chain(run.split_whitespace()).collect();
        let (code, out, err) = tensim(&args);
        assert_eq!(code, 0, "tensim {run}: {err}");
        let Some((peak, est)) = memory_line(&out) else {
            // Only where /proc/self/status is missing.
            assert!(!std::path::Path::new("/proc/self/status").exists(), "tensim {run} printed no memory line:\n{out}");
            return;
        };
        largest = largest.max(peak);
        if peak > 2 * est || est > 2 * peak.max(1) {
            bad.push(format!("tensim run {run}: peak {peak} MiB, estimated {est} MiB"));
        }
    }
    assert!(largest >= 64, "the larger sizes should exercise the per-element terms (largest peak {largest} MiB)");
    assert!(bad.is_empty(), "estimates more than 2x off:\n{}", bad.join("\n"));
}

#[test]
fn estimate_prints_the_admitted_figure_without_running() {
    for run in ["eltwise_binary --size 2048", "all_gather --shape 1,1,512,1024"] {
        let mut args: Vec<&str> = std::iter::once("run").chain(run.split_whitespace()).collect();
        let (_, ran, _) = tensim(&args);
        args.push("--estimate");
        let (code, est, err) = tensim(&args);
        assert_eq!(code, 0, "{err}");
        assert!(!est.contains("PASS") && !est.contains("simulated"), "--estimate ran the program:\n{est}");
        let figure = est.split("peak host memory ").nth(1).and_then(|s| s.split(' ').next()).expect(&est);
        if let Some((_, admitted)) = memory_line(&ran) {
            assert_eq!(figure, admitted.to_string(), "{run}: --estimate says {est}, the run {ran}");
        }
    }
}
