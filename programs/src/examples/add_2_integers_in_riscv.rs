//! add_2_integers_in_riscv (tt-metal `programming_examples/add_2_integers_in_riscv`): a BRISC kernel reads
//! two 32-bit integers from DRAM into L1, adds them with the RISC itself, and writes the sum back.

use crate::options::{ExampleOptions, Outcome, ProgramError};
use sim_device::prelude::*;

/// The kernel `reader_writer_add_in_riscv` in today's API: three TensorAccessorArgs (src0, src1, dst) as
/// compile-time args. RT args: src0, src1, dst DRAM addresses; src0, src1, dst L1 addresses.
pub fn reader_writer_add_in_riscv(k: &mut Dataflow) {
    let src0_dram: u32 = k.get_arg_val(0);
    let src1_dram: u32 = k.get_arg_val(1);
    let dst_dram: u32 = k.get_arg_val(2);
    let src0_l1: u32 = k.get_arg_val(3);
    let src1_l1: u32 = k.get_arg_val(4);
    let dst_l1: u32 = k.get_arg_val(5);
    let src0_args = k.tensor_accessor_args(0);
    let src1_args = k.tensor_accessor_args(src0_args.next_compile_time_args_offset());
    let dst_args = k.tensor_accessor_args(src1_args.next_compile_time_args_offset());
    let src0 = TensorAccessor::new(src0_args, src0_dram, 0);
    let src1 = TensorAccessor::new(src1_args, src1_dram, 0);
    let dst = TensorAccessor::new(dst_args, dst_dram, 0);
    // Each address computed just before its read, as today's example writes it.
    let a = k.get_noc_addr_page(0, &src0, 0);
    k.noc_async_read(a, src0_l1, 4);
    let b = k.get_noc_addr_page(0, &src1, 0);
    k.noc_async_read(b, src1_l1, 4);
    k.noc_async_read_barrier();
    let sum = k.l1_read_u32(src0_l1).wrapping_add(k.l1_read_u32(src1_l1));
    k.l1_write_u32(dst_l1, sum);
    let d = k.get_noc_addr_page(0, &dst, 0);
    k.noc_async_write(dst_l1, d, 4);
    k.noc_async_write_barrier();
}

/// Run it with 14 + 7 (or `seed`-derived operands when `size` is given) and check the sum.
pub fn run(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let (a, b) = match o.size {
        None => (14u32, 7u32),
        Some(s) => (o.seed as u32 ^ s, s.wrapping_mul(2_654_435_761)),
    };
    let core = CoreCoord::new(0, 0);
    let dram = InterleavedBufferConfig { size: 4, page_size: 4, buffer_type: BufferType::Dram };
    let l1 = InterleavedBufferConfig { size: 4, page_size: 4, buffer_type: BufferType::L1 };
    let (s0, s1, d) = (dev.create_buffer(dram)?, dev.create_buffer(dram)?, dev.create_buffer(dram)?);
    let (l0, l1b, ld) = (dev.create_buffer(l1)?, dev.create_buffer(l1)?, dev.create_buffer(l1)?);
    dev.enqueue_write_buffer(&s0, &[a])?;
    dev.enqueue_write_buffer(&s1, &[b])?;
    let mut p = Program::new();
    let mut ct = tensor_accessor_args(&s0);
    ct.extend(tensor_accessor_args(&s1));
    ct.extend(tensor_accessor_args(&d));
    let k = p.create_kernel(
        Kernel::dataflow("add_2_integers_in_riscv/kernels/reader_writer_add_in_riscv.cpp", reader_writer_add_in_riscv),
        core,
        DataMovementConfig { compile_args: ct, ..Default::default() },
    )?;
    p.set_runtime_args(k, core, &[s0.address(), s1.address(), d.address(), l0.address(), l1b.address(), ld.address()])?;
    let report = dev.enqueue_program(&p)?;
    let got: Vec<u32> = dev.enqueue_read_buffer(&d)?;
    let want = a.wrapping_add(b);
    let passed = got[0] == want;
    Ok(Outcome { passed, check: format!("{a} + {b} = {} (expected {want})", got[0]), report, metrics: Vec::new() })
}
