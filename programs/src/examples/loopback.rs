//! DRAM loopback (tt-metal `programming_examples/loopback`): one kernel on core (0,0) copies N tiles from
//! an input DRAM buffer to an output DRAM buffer through a one-tile L1 scratch buffer, one tile at a time.

use crate::options::{ExampleOptions, Outcome, ProgramError};
use crate::rng::Rng;
use sim_device::prelude::*;

/// The kernel `loopback_dram_copy`: CT args = two tensor-accessor descriptions; RT args = L1 scratch
/// address, input address, output address, number of tiles.
pub fn loopback_dram_copy(k: &mut Dataflow) {
    let l1_buffer_addr: u32 = k.get_arg_val(0);
    let in_addr: u32 = k.get_arg_val(1);
    let out_addr: u32 = k.get_arg_val(2);
    let num_tiles: u32 = k.get_arg_val(3);
    let tile_size = 2048;
    let in_args = k.tensor_accessor_args(0);
    let out_args = k.tensor_accessor_args(in_args.next_compile_time_args_offset());
    let input = TensorAccessor::new(in_args, in_addr, tile_size);
    let output = TensorAccessor::new(out_args, out_addr, tile_size);
    for i in 0..num_tiles {
        k.noc_async_read_tile(i, &input, l1_buffer_addr);
        k.noc_async_read_barrier();
        k.noc_async_write_tile(i, &output, l1_buffer_addr);
        k.noc_async_write_barrier();
    }
}

/// Run the example: copy `size` (default 50) tiles and compare byte for byte.
pub fn run(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let num_tiles = o.size.unwrap_or(50);
    let tile = 2048u64;
    let core = CoreCoord::new(0, 0);
    let l1 = dev.create_buffer(InterleavedBufferConfig { size: tile, page_size: tile, buffer_type: BufferType::L1 })?;
    let dram =
        InterleavedBufferConfig { size: tile * num_tiles as u64, page_size: tile, buffer_type: BufferType::Dram };
    let input = dev.create_buffer(dram)?;
    let output = dev.create_buffer(dram)?;
    let data = Rng::new(o.seed).u32s((tile * num_tiles as u64 / 4) as usize);
    dev.enqueue_write_buffer(&input, &data)?;

    let mut p = Program::new();
    let mut ct = tensor_accessor_args(&input);
    ct.extend(tensor_accessor_args(&output));
    let k = p.create_kernel(
        Kernel::dataflow("loopback/kernels/loopback_dram_copy.cpp", loopback_dram_copy),
        core,
        DataMovementConfig {
            processor: DataMovementProcessor::RISCV_0,
            noc: NocId::Noc0,
            compile_args: ct,
            ..Default::default()
        },
    )?;
    p.set_runtime_args(k, core, &[l1.address(), input.address(), output.address(), num_tiles])?;
    let report = dev.enqueue_program(&p)?;
    let got: Vec<u32> = dev.enqueue_read_buffer(&output)?;
    let passed = got == data;
    let check = if passed {
        format!("{num_tiles} tiles copied DRAM -> L1 -> DRAM, output identical to input")
    } else {
        let first = got.iter().zip(&data).position(|(a, b)| a != b).unwrap_or(0);
        format!("output differs from input, first at word {first}")
    };
    Ok(Outcome { passed, check, report, metrics: Vec::new() })
}
