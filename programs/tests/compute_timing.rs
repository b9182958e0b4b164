//! The pipelined timing of the compute kernel's three threads: a compute-bound matmul loop runs at its
//! slowest stage with the documented per-product costs, and a starved kernel shows its blocked time.

mod support;

use sim_device::prelude::*;
use std::sync::Arc;
use support::*;

/// A compute-bound pipeline: the reader pushes one tile pair once; compute then multiplies it `n` times,
/// packing each product into an output CB deep enough that the (slower) writer never holds it back.
fn matmul_loop(fid: MathFidelity, n: u32) -> RunReport {
    let (a, b) = inputs();
    let body: ComputeBody = Arc::new(move |c: &mut Compute| {
        c.mm_init(C0, C1, OUT, 0);
        c.cb_wait_front(C0, 1);
        c.cb_wait_front(C1, 1);
        for _ in 0..n {
            c.tile_regs_acquire();
            c.matmul_tiles(C0, C1, 0, 0, 0);
            c.tile_regs_commit();
            c.cb_reserve_back(OUT, 1);
            c.tile_regs_wait();
            c.pack_tile(0, OUT);
            c.tile_regs_release();
            c.cb_push_back(OUT, 1);
        }
        c.cb_pop_front(C0, 1);
        c.cb_pop_front(C1, 1);
    });
    let cfg = ComputeConfig { math_fidelity: fid, ..Default::default() };
    run_with(Arch::WormholeB0, &a, &b, n, cfg, body).unwrap().1
}

#[test]
fn compute_bound_cycles_follow_the_slowest_stage_and_fidelity_phases() {
    let params = sim_device::Params::builtin(Arch::WormholeB0);
    let cc = params.api.compute.clone();
    let api = params.api.clone();
    let n = 64u64;
    let run = |r: &RunReport, risc: Risc| r.kernels.iter().find(|k| k.risc == risc).unwrap().clone();
    let mut ends = Vec::new();
    for (fid, phases) in [(MathFidelity::LoFi, 1u64), (MathFidelity::HiFi2, 2), (MathFidelity::HiFi4, 4)] {
        let r = matmul_loop(fid, n as u32);
        // Per product: MATH issues the op (16 cycles per fidelity phase plus the per-tile issue) between two DST hand-offs; UNPACK
        // reads both tiles with the two unpackers; PACK reserves, writes 2 KiB at its L1 rate, and pushes.
        let overhead = (phases * cc.matmul_phase_overhead_millicycles).div_ceil(1000);
        let math_per =
            cc.math_base.0 + cc.matmul_per_phase.0 * phases + cc.matmul_per_tile.0 + overhead + 2 * cc.sync.0;
        let unpack_per = 2 * cc.unpack_base.0 + 4096u64.div_ceil(cc.unpack_ab_bytes_per_cycle);
        let pack_per = 2 * cc.sync.0
            + api.cb_poll.0
            + cc.pack_base.0
            + 2048u64.div_ceil(cc.pack_bytes_per_cycle)
            + api.cb_update.0;
        let math = run(&r, Risc::Trisc1).busy.0;
        assert!(
            math >= n * math_per && math <= n * math_per + 100,
            "{fid:?}: MATH busy {math}, expected ~{}",
            n * math_per
        );
        assert!(run(&r, Risc::Trisc0).busy.0 >= n * unpack_per, "{fid:?}: UNPACK busy");
        assert!(run(&r, Risc::Trisc2).busy.0 >= n * pack_per, "{fid:?}: PACK busy");
        // The three threads overlap: the compute kernel ends one slowest stage per product after its inputs
        // arrive, plus hand-off stalls (at most a few cycles per product) and the pipeline's fill and drain.
        let slowest = math_per.max(unpack_per).max(pack_per);
        let start = run(&r, Risc::Trisc0).start.0;
        let inputs_in = r.kernels.iter().find(|k| k.risc == Risc::Ncrisc).unwrap().end.0;
        let span = run(&r, Risc::Trisc2).end.0 - start.max(inputs_in);
        assert!(span >= n * slowest, "{fid:?}: {span} cycles beat the slowest stage ({slowest} per product)");
        assert!(span <= n * (slowest + 8) + 400, "{fid:?}: {span} cycles for {n} products of {slowest}");
        eprintln!("{fid:?}: span {span} for {n} products; stages math {math_per} unpack {unpack_per} pack {pack_per}");
        ends.push(span);
    }
    assert!(ends[2] > ends[0], "HiFi4 ({}) is slower than LoFi ({}) once MATH is the bottleneck", ends[2], ends[0]);
}

#[test]
fn a_starved_compute_kernel_shows_blocked_time_in_the_trace() {
    // eltwise_binary reads two tiles per product with a barrier each: compute waits on its input CBs.
    let ex = programs::find("eltwise_binary").unwrap();
    let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
    dev.set_tracing(true);
    let out = (ex.run)(&mut dev, &programs::ExampleOptions::default()).unwrap();
    assert!(out.passed);
    let unpack = out.report.kernels.iter().find(|k| k.risc == Risc::Trisc0).unwrap();
    assert!(unpack.blocked.0 > 3 * unpack.busy.0, "UNPACK blocked {} vs busy {}", unpack.blocked.0, unpack.busy.0);
    let trace = out.report.trace_json.unwrap();
    let v: serde_json::Value = serde_json::from_str(&trace).unwrap();
    let evs = v["traceEvents"].as_array().unwrap();
    let trisc0_tid = evs
        .iter()
        .find(|e| e["ph"] == "M" && e["name"] == "thread_name" && e["args"]["name"] == "TRISC0")
        .map(|e| e["tid"].clone())
        .expect("a TRISC0 track");
    let waits = evs
        .iter()
        .filter(|e| {
            e["ph"] == "X" && e["cat"] == "wait" && e["tid"] == trisc0_tid && e["name"] == "cb_wait_front(c_0, 1)"
        })
        .count();
    assert!(waits >= 32, "{waits} cb_wait_front slices on TRISC0");
}

/// A custom SFPU walk costs MATH `math_base + instructions × sfpu_cycles_per_instr × lanes / 1024`: here
/// 3 instructions (load, store, `dst_reg++`) per vector, every vector of a tile, on each arch's width.
#[test]
fn a_custom_sfpu_walk_costs_its_counted_instructions() {
    let (a, b) = inputs();
    for arch in [Arch::WormholeB0, Arch::Grayskull] {
        let cc = sim_device::Params::builtin(arch).api.compute.clone();
        let math_busy = |walk: bool| {
            let body: ComputeBody = Arc::new(move |c: &mut Compute| {
                c.tile_regs_acquire();
                if walk {
                    c.llk_math_eltwise_unary_sfpu_params(0, VectorMode::RC, |s| {
                        for _ in 0..s.vectors_per_face() {
                            let v = s.dst(0);
                            s.set_dst(0, v);
                            s.inc();
                        }
                    });
                }
                c.tile_regs_commit();
                c.tile_regs_wait();
                c.cb_reserve_back(OUT, 1);
                c.pack_tile(0, OUT);
                c.cb_push_back(OUT, 1);
                c.tile_regs_release();
            });
            let r = run_with(arch, &a, &b, 1, ComputeConfig::default(), body).unwrap().1;
            r.kernels.iter().find(|k| k.risc == Risc::Trisc1).unwrap().busy.0
        };
        let lanes = cc.sfpu_lanes as u64;
        let instructions = 3 * 1024 / lanes;
        let want = cc.math_base.0 + (instructions * cc.sfpu_per_instr.0 * lanes).div_ceil(1024);
        assert_eq!(math_busy(true) - math_busy(false), want, "{arch}");
    }
}

/// One `matmul_block` of a 1 × 4 sub-block: UNPACK hands MATH the operand set once in0's tile and in1's first
/// tile are in, and the other three stream in behind the products. At HiFi4 (MATH slower than UNPACK) MATH
/// finishes less than the four products' time after UNPACK is done; at LoFi (UNPACK slower) the last
/// product still waits for the last tile.
#[test]
fn a_matmul_block_starts_on_its_first_pair_and_its_last_product_waits_for_the_last_tile() {
    let params = sim_device::Params::builtin(Arch::WormholeB0);
    let cc = params.api.compute.clone();
    let (a1, b1) = inputs();
    let (a, b) = (a1.repeat(4), b1.repeat(4));
    for (fid, phases) in [(MathFidelity::HiFi4, 4u64), (MathFidelity::LoFi, 1)] {
        let body: ComputeBody = Arc::new(move |c: &mut Compute| {
            c.mm_block_init(C0, C1, OUT, 0, 4, 1, 1);
            c.cb_wait_front(C0, 4);
            c.cb_wait_front(C1, 4);
            c.tile_regs_acquire();
            c.matmul_block(C0, C1, 0, 0, 0, 0, 4, 1, 1);
            c.tile_regs_commit();
            c.cb_reserve_back(OUT, 4);
            c.tile_regs_wait();
            for i in 0..4 {
                c.pack_tile(i, OUT);
            }
            c.tile_regs_release();
            c.cb_push_back(OUT, 4);
            c.cb_pop_front(C0, 4);
            c.cb_pop_front(C1, 4);
        });
        let cfg = ComputeConfig { math_fidelity: fid, ..Default::default() };
        let (out, r) = run_with(Arch::WormholeB0, &a, &b, 4, cfg, body).unwrap();
        // DST c = A[0] · B[c]: every tile of B is the same, so every output tile is A·B.
        let want = run_op(&a1, &b1, ComputeConfig { math_fidelity: fid, ..Default::default() }, |c| {
            c.mm_init(C0, C1, OUT, 0);
            c.matmul_tiles(C0, C1, 0, 0, 0);
        });
        for t in 0..4 {
            assert_eq!(out[t * 1024..(t + 1) * 1024], want[..], "{fid:?}: output tile {t}");
        }
        let k = |risc: Risc| r.kernels.iter().find(|k| k.risc == risc).unwrap().clone();
        let overhead = (phases * cc.matmul_phase_overhead_millicycles).div_ceil(1000);
        let per_product = cc.matmul_per_phase.0 * phases + cc.matmul_per_tile.0 + overhead;
        let (unpack_end, math_end) = (k(Risc::Trisc0).end.0, k(Risc::Trisc1).end.0);
        let head = 2 * cc.unpack_base.0 + 4096u64.div_ceil(cc.unpack_ab_bytes_per_cycle);
        let full = 5 * cc.unpack_base.0 + 10240u64.div_ceil(cc.unpack_ab_bytes_per_cycle);
        eprintln!(
            "{fid:?}: UNPACK ends {unpack_end}, MATH ends {math_end}, per product {per_product}, head {head}, set {full}"
        );
        // UNPACK ends a few cycles (its pops) after the set's last tile is in.
        if phases == 4 {
            // MATH started on the first pair: it ends four products after it, the rest of the set earlier.
            let after = (4 * per_product).saturating_sub(full - head);
            assert!(
                math_end <= unpack_end + after + 16,
                "{fid:?}: MATH ({math_end}) waited for the whole set before its four products (UNPACK ended {unpack_end})"
            );
            assert!(math_end + 32 >= unpack_end + after, "{fid:?}: MATH ({math_end}) started before the first pair");
        } else {
            // UNPACK is the slower stage: the last product follows the last tile, and no more.
            assert!(
                math_end + 16 >= unpack_end + per_product && math_end <= unpack_end + per_product + 16,
                "{fid:?}: MATH ends {math_end}, UNPACK {unpack_end}: not one product after the last tile"
            );
        }
    }
}
