//! The eltwise_binary program with C++ kernels (cpp/programs/eltwise_binary) against the same
//! program with the Rust ports of those kernels: the same output bits and the same cycles, per kernel,
//! on Wormhole B0 and Blackhole. Needs the host C++ compiler and says so loudly when there is none.

use programs::examples::common::{
    CB_IN0, CB_IN1, CB_OUT0, bf16_dram_buffer, create_bf16_cbs, reader_binary_accessor, writer_unary_accessor,
};
use programs::examples::eltwise_binary::tiles_add;
use sim_device::prelude::*;
use std::path::PathBuf;

fn program_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("programs/eltwise_binary/kernels")
}

fn need_compiler() {
    if let Err(e) = cpp::compile::compiler() {
        panic!("this test compiles C++ kernels and needs the host C++ compiler: {e}");
    }
}

/// Run a + b over `n` tiles with C++ or Rust kernels; the output bits and the report.
fn run(arch: Arch, n: u32, cpp: bool) -> (Vec<u16>, RunReport) {
    let mut dev = Device::builtin(arch).unwrap();
    let core = CoreCoord::new(0, 0);
    let (s0, s1, d) = (
        bf16_dram_buffer(&mut dev, n).unwrap(),
        bf16_dram_buffer(&mut dev, n).unwrap(),
        bf16_dram_buffer(&mut dev, n).unwrap(),
    );
    let len = n as usize * 1024;
    let a: Vec<u16> = (0..len).map(|i| bfloat16::from_f32((i % 97) as f32 / 50.0 - 1.0).to_bits()).collect();
    let b: Vec<u16> = (0..len).map(|i| bfloat16::from_f32((i % 89) as f32 / 40.0 - 1.0).to_bits()).collect();
    dev.enqueue_write_buffer(&s0, &a).unwrap();
    dev.enqueue_write_buffer(&s1, &b).unwrap();
    let mut p = Program::new();
    create_bf16_cbs(&mut p, core, &[(CB_IN0, 2), (CB_IN1, 2), (CB_OUT0, 2)]).unwrap();
    let dir = program_dir();
    let reader_args = [tensor_accessor_args(&s0), tensor_accessor_args(&s1)].concat();
    let writer_args = tensor_accessor_args(&d);
    let (r, w, c) = if cpp {
        (
            cpp::create_kernel(
                &mut p,
                &mut dev,
                dir.join("dataflow/read_tiles.cpp"),
                core,
                DataMovementConfig::reader(reader_args.clone()),
            )
            .unwrap(),
            cpp::create_kernel(
                &mut p,
                &mut dev,
                dir.join("dataflow/write_tile.cpp"),
                core,
                DataMovementConfig::writer(writer_args.clone()),
            )
            .unwrap(),
            cpp::create_kernel(&mut p, &mut dev, dir.join("compute/tiles_add.cpp"), core, ComputeConfig::default())
                .unwrap(),
        )
    } else {
        (
            p.create_kernel(
                Kernel::dataflow("read_tiles", reader_binary_accessor),
                core,
                DataMovementConfig::reader(reader_args),
            )
            .unwrap(),
            p.create_kernel(
                Kernel::dataflow("write_tile", writer_unary_accessor),
                core,
                DataMovementConfig::writer(writer_args),
            )
            .unwrap(),
            p.create_kernel(Kernel::compute("tiles_add", tiles_add), core, ComputeConfig::default()).unwrap(),
        )
    };
    p.set_runtime_args(r, core, &[s0.address(), s1.address(), n, 0]).unwrap();
    p.set_runtime_args(w, core, &[d.address(), n, 0]).unwrap();
    p.set_runtime_args(c, core, &[n]).unwrap();
    let report = dev.enqueue_program(&p).unwrap();
    let out: Vec<u16> = dev.enqueue_read_buffer(&d).unwrap();
    (out, report)
}

#[test]
fn cpp_kernels_match_their_rust_ports_bit_for_bit_and_cycle_for_cycle() {
    need_compiler();
    for arch in [Arch::WormholeB0, Arch::Blackhole] {
        let (want, rust) = run(arch, 16, false);
        let (got, cpp) = run(arch, 16, true);
        assert_eq!(got, want, "{arch:?}: the C++ program's output differs from the Rust port's");
        // a + b really happened (not a copy of an input).
        let (i, sum) = (500usize, bfloat16(want[500]).to_f32());
        assert!((sum - ((i % 97) as f32 / 50.0 - 1.0 + (i % 89) as f32 / 40.0 - 1.0)).abs() < 0.05, "{sum}");
        assert_eq!(cpp.cycles, rust.cycles, "{arch:?}: cycles differ");
        let busy =
            |r: &RunReport| r.kernels.iter().map(|k| (k.risc, k.start, k.end, k.busy, k.blocked)).collect::<Vec<_>>();
        assert_eq!(busy(&cpp), busy(&rust), "{arch:?}: per-kernel busy/blocked time differs");
    }
}
