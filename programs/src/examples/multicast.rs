//! contributed/multicast (tt-metal `programming_examples/contributed/multicast`): core (0,0) reads a tile
//! from DRAM and multicasts it to cores (1,0)–(3,0) once all three have signalled readiness on its
//! semaphore; each receiver copies the tile from c_0 to c_16 with RISC word copies and writes it to DRAM.

use crate::options::{ExampleOptions, Outcome, ProgramError};
use crate::rng::Rng;
use sim_device::prelude::*;

const VALID: u32 = 1;
const INVALID: u32 = 0;
const CB_RECV: CBIndex = CBIndex::c_0;
const CB_OUT: CBIndex = CBIndex::c_16;

/// Sender (BRISC, NoC0). RT args: input DRAM address, rectangle start x, y, end x, y, num_dests,
/// sender semaphore id, receiver semaphore id.
pub fn coordinator(k: &mut Dataflow) {
    let src: u32 = k.get_arg_val(0);
    let (sx, sy, ex, ey): (u32, u32, u32, u32) =
        (k.get_arg_val(1), k.get_arg_val(2), k.get_arg_val(3), k.get_arg_val(4));
    let num_dests: u32 = k.get_arg_val(5);
    let sender_sem = k.get_semaphore(k.get_arg_val(6));
    let receiver_sem = k.get_semaphore(k.get_arg_val(7));
    let tile = k.get_tile_size(CB_RECV);
    k.cb_reserve_back(CB_RECV, 1);
    let l1 = k.get_write_ptr(CB_RECV);
    let a = k.get_noc_addr_from_bank_id::<true>(0, src);
    k.noc_async_read(a, l1, tile);
    k.noc_async_read_barrier();
    k.noc_semaphore_wait(sender_sem, num_dests);
    k.noc_semaphore_set(sender_sem, 0);
    let dst = k.get_noc_multicast_addr(sx, sy, ex, ey, l1);
    k.noc_async_write_multicast(l1, dst, tile, num_dests, false);
    k.noc_semaphore_set(receiver_sem, VALID);
    let sem_dst = k.get_noc_multicast_addr(sx, sy, ex, ey, receiver_sem);
    k.noc_semaphore_set_multicast(receiver_sem, sem_dst, num_dests, false);
    k.noc_async_write_barrier();
}

/// Receiver (BRISC, NoC0): signal readiness, wait for the tile, copy c_0 → c_16 word by word.
/// RT args: sender NoC x, y; sender semaphore id; receiver semaphore id.
pub fn inbound(k: &mut Dataflow) {
    let (x, y): (u32, u32) = (k.get_arg_val(0), k.get_arg_val(1));
    let sender_sem = k.get_semaphore(k.get_arg_val(2));
    let receiver_sem = k.get_semaphore(k.get_arg_val(3));
    let tile = k.get_tile_size(CB_RECV);
    k.cb_reserve_back(CB_RECV, 1);
    k.noc_semaphore_set(receiver_sem, INVALID);
    let remote = k.get_noc_addr(x, y, sender_sem);
    k.noc_semaphore_inc(remote, 1);
    k.noc_semaphore_wait(receiver_sem, VALID);
    k.cb_push_back(CB_RECV, 1);
    k.cb_wait_front(CB_RECV, 1);
    k.cb_reserve_back(CB_OUT, 1);
    let (src, dst) = (k.get_read_ptr(CB_RECV), k.get_write_ptr(CB_OUT));
    for w in 0..tile / 4 {
        let v = k.l1_read_u32(src + 4 * w);
        k.l1_write_u32(dst + 4 * w, v);
    }
    k.cb_push_back(CB_OUT, 1);
    k.cb_pop_front(CB_RECV, 1);
}

/// Receiver (NCRISC, NoC1): c_16 → DRAM tile `index`. RT args: output address, tile index.
pub fn outbound(k: &mut Dataflow) {
    let dst: u32 = k.get_arg_val(0);
    let index: u32 = k.get_arg_val(1);
    let tile = k.get_tile_size(CB_OUT);
    let out =
        InterleavedAddrGenFast::<true> { bank_base_address: dst, page_size: tile, data_format: DataFormat::Float16_b };
    k.cb_wait_front(CB_OUT, 1);
    let l1 = k.get_read_ptr(CB_OUT);
    k.noc_async_write_tile(index, &out, l1);
    k.noc_async_write_barrier();
    k.cb_pop_front(CB_OUT, 1);
}

/// The example's compute kernel does nothing (`void_compute_kernel`).
pub fn void_compute(_k: &mut Compute) {}

/// Run it and compare each receiver's tile with the input tile.
pub fn run(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let sender = CoreCoord::new(0, 0);
    let receivers = CoreRange::new(CoreCoord::new(1, 0), CoreCoord::new(3, 0));
    let all = CoreRange::new(sender, CoreCoord::new(3, 0));
    let num_dests = receivers.size() as u32;
    let tile = DataFormat::Float16_b.tile_size();
    let input = dev.create_buffer(InterleavedBufferConfig {
        size: tile as u64,
        page_size: tile as u64,
        buffer_type: BufferType::Dram,
    })?;
    let output = dev.create_buffer(InterleavedBufferConfig {
        size: (tile * num_dests) as u64,
        page_size: tile as u64,
        buffer_type: BufferType::Dram,
    })?;
    let mut rng = Rng::new(o.seed);
    let golden: Vec<bfloat16> = (0..1024).map(|_| bfloat16::from_f32(rng.uniform(-10.0, 10.0))).collect();
    dev.enqueue_write_buffer(&input, &golden)?;

    let mut p = Program::new();
    for cb in [CB_RECV, CB_OUT] {
        p.create_circular_buffer(
            all,
            CircularBufferConfig::new(tile, &[(cb, DataFormat::Float16_b)]).set_page_size(cb, tile),
        )?;
    }
    let sender_sem = p.create_semaphore(all, INVALID)?;
    let receiver_sem = p.create_semaphore(all, INVALID)?;
    let s = dev.worker_core_from_logical_core(sender)?;
    let r0 = dev.worker_core_from_logical_core(receivers.start)?;
    let r1 = dev.worker_core_from_logical_core(receivers.end)?;
    let coord = p.create_kernel(
        Kernel::dataflow("contributed/multicast/kernels/dataflow/coordinator_kernel.cpp", coordinator),
        sender,
        DataMovementConfig::default(),
    )?;
    let inb = p.create_kernel(
        Kernel::dataflow("contributed/multicast/kernels/dataflow/inbound_kernel.cpp", inbound),
        receivers,
        DataMovementConfig::default(),
    )?;
    let outb = p.create_kernel(
        Kernel::dataflow("contributed/multicast/kernels/dataflow/outbound_kernel.cpp", outbound),
        receivers,
        DataMovementConfig { processor: DataMovementProcessor::RISCV_1, noc: NocId::Noc1, ..Default::default() },
    )?;
    p.create_kernel(
        Kernel::compute("contributed/multicast/kernels/compute/void_compute_kernel.cpp", void_compute),
        all,
        ComputeConfig::default(),
    )?;
    p.set_runtime_args(coord, sender, &[input.address(), r0.x, r0.y, r1.x, r1.y, num_dests, sender_sem, receiver_sem])?;
    for (i, c) in receivers.iter().enumerate() {
        p.set_runtime_args(inb, c, &[s.x, s.y, sender_sem, receiver_sem])?;
        p.set_runtime_args(outb, c, &[output.address(), i as u32])?;
    }
    let report = dev.enqueue_program(&p)?;
    let got: Vec<bfloat16> = dev.enqueue_read_buffer(&output)?;
    let bad: Vec<usize> = (0..num_dests as usize).filter(|i| got[i * 1024..(i + 1) * 1024] != golden[..]).collect();
    let passed = bad.is_empty();
    let check = if passed {
        format!("all {num_dests} receivers hold the multicast tile")
    } else {
        format!("receivers {bad:?} hold a wrong tile")
    };
    Ok(Outcome { passed, check, report, metrics: Vec::new() })
}
