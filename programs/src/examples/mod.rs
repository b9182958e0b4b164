//! The registry of runnable example programs (`tensim run --list`), each a port of a tt-metal programming
//! example with its own reference check.

pub mod add_2_integers_in_compute;
pub mod add_2_integers_in_riscv;
pub mod common;
pub mod custom_sfpi;
pub mod eltwise_binary;
pub mod eltwise_sfpu;
pub mod hello_world_compute;
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

pub use crate::options::{
    BASE_HOST_BYTES, CheckMode, Example, ExampleOptions, GRID_CORES, Outcome, SAMPLED_TILES, Takes, Work,
    grid_host_bytes,
};

const TILE: u64 = 2048;
/// Elements of a bf16 tile.
const TILE_ELEMS: u64 = 1024;

/// Host bytes per element of a bf16 element-wise program with `inputs` input tensors and one output, at
/// its check: each input's f32 host copy (4) and its DRAM copy (2); the output's DRAM copy (2), the bytes
/// read back (2, while they are decoded), their bf16 (2) and f32 (4) decodings, and the f32 reference (4).
fn eltwise_bytes_per_elem(inputs: u64) -> u64 {
    6 * inputs + 14
}

fn tiles_work(o: &ExampleOptions, default: u32, ops_per_tile: u64, bytes_per_tile: u64, inputs: u64) -> Work {
    let n = o.size.unwrap_or(default) as u64;
    Work {
        tile_ops: n * ops_per_tile,
        noc_bytes: n * bytes_per_tile,
        host_bytes: BASE_HOST_BYTES + n * TILE_ELEMS * eltwise_bytes_per_elem(inputs),
    }
}

fn tiny(_: &ExampleOptions) -> Work {
    Work { tile_ops: 1, noc_bytes: 4 * TILE, host_bytes: BASE_HOST_BYTES }
}

/// Work of a matmul whose inner loop reads both operand tiles for every tile product (`reuse` divides the
/// operand traffic of the blocked variants). Host memory, per element: A (m×k) and B (k×n) as f32 host
/// copies (4) and bf16 DRAM copies (2); C's DRAM copy (2), its f32 reference (4), the bytes read back (2)
/// and their f32 decoding (4, in A's memory when A is larger); five kernel threads on each core (one core,
/// or one per output tile up to the grid when `multi_core`).
fn matmul_work(o: &ExampleOptions, default: u32, reuse: u64, multi_core: bool) -> Work {
    let d = o.size.unwrap_or(default) as u64;
    let (m, n, k) = (o.m.map_or(d, |v| v as u64), o.n.map_or(d, |v| v as u64), o.k.map_or(d, |v| v as u64));
    let products = (m / 32).max(1) * (n / 32).max(1) * (k / 32).max(1);
    let (mk, kn, mn) = (m.saturating_mul(k), k.saturating_mul(n), m.saturating_mul(n));
    let host = 6 * mk + 6 * kn + 8 * mn + 4 * mn.max(mk);
    Work {
        tile_ops: products,
        noc_bytes: products * 2 * TILE / reuse.max(1) + (m * n / 1024) * TILE,
        host_bytes: BASE_HOST_BYTES + grid_host_bytes(if multi_core { mn / 1024 } else { 1 }, 5) + host,
    }
}

/// Softmax over an h × w tensor: the f32 input (4), its DRAM copy (2) and the tilized bytes written (2),
/// the output's DRAM copy (2), the bytes read back (2) and decoded (4), and the f32 reference (4).
fn softmax_work(o: &ExampleOptions) -> Work {
    let (h, w) = (o.m.unwrap_or(2048) as u64, o.n.unwrap_or(512) as u64);
    Work {
        tile_ops: h * w / 1024 * 12,
        noc_bytes: h * w * 4,
        host_bytes: BASE_HOST_BYTES + grid_host_bytes(h / 32, 5) + h * w * 20,
    }
}

/// Loopback of 32-bit words: the host data, the input and output DRAM copies, and the bytes read back
/// with their decoding: five times the data.
fn loopback_work(o: &ExampleOptions) -> Work {
    let n = o.size.unwrap_or(50) as u64;
    Work { tile_ops: 0, noc_bytes: n * 2 * TILE, host_bytes: BASE_HOST_BYTES + 5 * n * TILE }
}

/// Work of a layout op: the tensor's bytes (bf16) over the NoC. Host memory, per element: the f32 data
/// (4), the source tensor's device copy (2) and the bytes encoded for it (2), the destination's zeros (4
/// while placed) and device copy (2), and the f32 read back (4) with its bytes (2): 18.
fn move_work(o: &ExampleOptions, default: &str) -> Work {
    let shape: Option<layout::Shape> = o.shape.as_deref().unwrap_or(default).parse().ok();
    let elems = shape.map_or(0, |s| s.volume());
    Work {
        tile_ops: 0,
        noc_bytes: elems.saturating_mul(2),
        host_bytes: BASE_HOST_BYTES + grid_host_bytes(GRID_CORES, 2) + elems.saturating_mul(18),
    }
}

const MOVE: &[Takes] = &[Takes::From, Takes::To, Takes::Shape, Takes::Page];

const SIZE_TILES: Takes = Takes::Size { meaning: "tiles", min: 1, max: 1 << 20 };
const MNK: &[Takes] = &[
    Takes::Size { meaning: "M = N = K, a multiple of 32", min: 32, max: 1 << 16 },
    Takes::M,
    Takes::N,
    Takes::K,
    Takes::Fidelity,
    Takes::Check,
];

/// Every example, in listing order.
pub fn list() -> &'static [Example] {
    &[
        Example {
            name: "loopback",
            about: "DRAM loopback: 50 tiles DRAM -> L1 -> DRAM on one core",
            takes: &[SIZE_TILES],
            work: |o| loopback_work(o),
            run: loopback::run,
        },
        Example {
            name: "add_2_integers_in_riscv",
            about: "two integers read from DRAM, added by the RISC in L1, written back",
            takes: &[Takes::Size {
                meaning: "the first operand (the second is derived from it)",
                min: 0,
                max: u32::MAX,
            }],
            work: tiny,
            run: add_2_integers_in_riscv::run,
        },
        Example {
            name: "add_2_integers_in_compute",
            about: "one tile of each operand added by the FPU, packed and written back",
            takes: &[],
            work: tiny,
            run: add_2_integers_in_compute::run,
        },
        Example {
            name: "eltwise_binary",
            about: "a + b over 64 bf16 tiles on one core (reader, FPU add, writer)",
            takes: &[SIZE_TILES],
            work: |o| tiles_work(o, 64, 3, 3 * TILE, 2),
            run: eltwise_binary::run,
        },
        Example {
            name: "eltwise_sfpu",
            about: "exp of 64 bf16 tiles on the SFPU of one core",
            takes: &[SIZE_TILES],
            work: |o| tiles_work(o, 64, 3, 2 * TILE, 1),
            run: eltwise_sfpu::run,
        },
        Example {
            name: "sfpu_eltwise_chain",
            about: "softplus = log(1 + exp(x)) as a chain of SFPU operations in DST",
            takes: &[SIZE_TILES],
            work: |o| tiles_work(o, 16, 6, 2 * TILE, 1),
            run: sfpu_eltwise_chain::run,
        },
        Example {
            name: "hello_world_compute",
            about: "a compute kernel whose UNPACK, MATH and PACK threads each print a line",
            takes: &[],
            work: tiny,
            run: hello_world_compute::run,
        },
        Example {
            name: "sfpu_custom_add",
            about: "seed 002: a + b via SrcA/SrcB -> DST and a custom SFPI function (llk_unpack_AB, datacopy A2D/B2D)",
            takes: &[SIZE_TILES],
            work: |o| tiles_work(o, 16, 4, 3 * TILE, 2),
            run: custom_sfpi::run_seed,
        },
        Example {
            name: "custom_sfpi_add",
            about: "a + b of 16 bf16 tiles by an SFPI face function over DST (vFloat, dst_reg)",
            takes: &[SIZE_TILES],
            work: |o| tiles_work(o, 16, 4, 3 * TILE, 2),
            run: custom_sfpi::run_add_example,
        },
        Example {
            name: "custom_sfpi_smoothstep",
            about: "smoothstep(0, 1, x) of 16 bf16 tiles by an SFPI face function with v_if predication",
            takes: &[SIZE_TILES],
            work: |o| tiles_work(o, 16, 4, 2 * TILE, 1),
            run: custom_sfpi::run_smoothstep,
        },
        Example {
            name: "vecadd_multi_core",
            about: "a + b over 640 bf16 tiles split across the compute grid",
            takes: &[SIZE_TILES],
            work: |o| {
                let w = tiles_work(o, 640, 3, 3 * TILE, 2);
                Work { host_bytes: w.host_bytes + grid_host_bytes(GRID_CORES, 5), ..w }
            },
            run: vecadd_multi_core::run,
        },
        Example {
            name: "matmul_single_core",
            about: "C = A·B (bf16, 640^3 by default; m, n, k to change it) on one core, one output tile at a time",
            takes: MNK,
            work: |o| matmul_work(o, 640, 1, false),
            run: matmul_single_core::run,
        },
        Example {
            name: "matmul_multi_core",
            about: "the single-core matmul with output tiles split over the compute grid",
            takes: MNK,
            work: |o| matmul_work(o, 640, 1, true),
            run: matmul_multi_core::run,
        },
        Example {
            name: "matmul_multicore_reuse",
            about: "blocked matmul, one output block per core, partial sums in a shared CB",
            takes: MNK,
            work: |o| matmul_work(o, 1024, 8, true),
            run: matmul_multicore_reuse::run,
        },
        Example {
            name: "matmul_multicore_reuse_mcast",
            about: "blocked matmul with A multicast along rows and B down columns (1024^3 by default)",
            takes: MNK,
            work: |o| matmul_work(o, 1024, 8, true),
            run: matmul_multicore_reuse_mcast::run,
        },
        Example {
            name: "softmax",
            about: "fused softmax over rows (exp, reduce, recip, broadcast multiply) on many cores",
            takes: &[Takes::M, Takes::N],
            work: softmax_work,
            run: softmax::run,
        },
        Example {
            name: "noc_tile_transfer",
            about: "a tile passed between two cores over the NoC with a semaphore handshake",
            takes: &[Takes::Size { meaning: "the 16-bit value passed along", min: 0, max: u16::MAX as u32 }],
            work: tiny,
            run: noc_tile_transfer::run,
        },
        Example {
            name: "multicast",
            about: "one sender multicasts a tile to three receivers (semaphore handshake), which write it to DRAM",
            takes: &[],
            work: tiny,
            run: multicast::run,
        },
        Example {
            name: "reshard",
            about: "a tensor from one placement to another (placements dram|l1:interleaved|height|width|block[:RxC[:col]]; default 512x512 from 4x4 to 8x8 L1 blocks)",
            takes: MOVE,
            work: |o| move_work(o, "512x512"),
            run: crate::ops::run_reshard,
        },
        Example {
            name: "interleaved_to_sharded",
            about: "an interleaved tensor into shards: each shard core reads its pages (default 2048x512 DRAM -> 64 height shards)",
            takes: MOVE,
            work: |o| move_work(o, "2048x512"),
            run: crate::ops::run_interleaved_to_sharded,
        },
        Example {
            name: "sharded_to_interleaved",
            about: "a sharded tensor back to interleaved pages: each shard core writes its pages (default 64 height shards -> DRAM)",
            takes: MOVE,
            work: |o| move_work(o, "2048x512"),
            run: crate::ops::run_sharded_to_interleaved,
        },
        Example {
            name: "eltwise_add_sharded",
            about: "c = a + b on height- or block-sharded L1 tensors, CBs on the shards, no DRAM traffic (default placement l1:height:8x8)",
            takes: &[Takes::To, Takes::Shape],
            work: |o| {
                // Two bf16 inputs and one output, sharded in L1, checked against an f32 reference.
                let w = move_work(o, "2048x512");
                let elems = w.noc_bytes / 2;
                Work {
                    tile_ops: elems / TILE_ELEMS,
                    noc_bytes: 0,
                    host_bytes: BASE_HOST_BYTES
                        + grid_host_bytes(GRID_CORES, 5)
                        + elems.saturating_mul(eltwise_bytes_per_elem(2)),
                }
            },
            run: crate::ops::eltwise_sharded::run,
        },
        Example {
            name: "matmul_2d_mcast",
            about: "TTNN's 2-D multicast matmul with the GEMM benchmark's config for the shape (default 512^3; in0 and output block-sharded in L1, or in DRAM; data type bf16|bfp8_b|bfp4_b)",
            takes: &[
                Takes::Size { meaning: "M = N = K, a multiple of 256", min: 256, max: 1 << 16 },
                Takes::M,
                Takes::N,
                Takes::K,
                Takes::Fidelity,
                Takes::To,
                Takes::Dtype,
                Takes::Check,
            ],
            work: |o| matmul_work(o, 512, 8, true),
            run: crate::ops::matmul_2d_mcast::run,
        },
        Example {
            name: "hello_world_datamovement",
            about: "each data-movement RISC prints its logical coordinates",
            takes: &[Takes::Size { meaning: "prints per RISC", min: 1, max: 10_000 }],
            work: tiny,
            run: hello_world_datamovement::run,
        },
    ]
}

/// The example named `name`.
pub fn find(name: &str) -> Option<&'static Example> {
    list().iter().find(|e| e.name == name)
}
