//! NoC_tile_transfer (tt-metal `programming_examples/NoC_tile_transfer`): core (0,0) reads a tile from DRAM
//! and writes it over the NoC into core (0,1)'s circular buffer once core (0,1) has signalled, through a
//! semaphore, that it has room; core (0,1) then writes the tile back to DRAM.

use crate::options::{ExampleOptions, Outcome, ProgramError};
use sim_device::prelude::*;

const CB_IN: CBIndex = CBIndex::c_0;
const CB_XFER: CBIndex = CBIndex::c_1;

/// Core 0, NCRISC: DRAM tile → c_0. RT args: input address, DRAM bank.
pub fn reader0(k: &mut Dataflow) {
    let src: u32 = k.get_arg_val(0);
    let bank: u32 = k.get_arg_val(1);
    let tile = k.get_tile_size(CB_IN);
    let a = k.get_noc_addr_from_bank_id::<true>(bank, src);
    k.cb_reserve_back(CB_IN, 1);
    let l1 = k.get_write_ptr(CB_IN);
    k.noc_async_read(a, l1, tile);
    k.noc_async_read_barrier();
    k.cb_push_back(CB_IN, 1);
}

/// Core 0, BRISC: wait for the tile and for core 1's "room" signal, write the tile into core 1's c_1, then
/// signal "data" on core 1's semaphore. RT args: core 1's NoC x, y; semaphore id.
pub fn writer0(k: &mut Dataflow) {
    let x: u32 = k.get_arg_val(0);
    let y: u32 = k.get_arg_val(1);
    let sem_id: u32 = k.get_arg_val(2);
    let sem = k.get_semaphore(sem_id);
    let tile = k.get_tile_size(CB_IN);
    k.cb_wait_front(CB_IN, 1);
    k.noc_semaphore_wait(sem, 1);
    let src = k.get_read_ptr(CB_IN);
    let dst_l1 = k.get_read_ptr(CB_XFER); // same address on core 1 (lock-step CBs)
    let dst = k.get_noc_addr(x, y, dst_l1);
    k.noc_async_write(src, dst, tile);
    k.noc_async_write_barrier();
    let remote_sem = k.get_noc_addr(x, y, sem);
    k.noc_semaphore_inc(remote_sem, 1);
    k.noc_async_atomic_barrier();
    k.noc_semaphore_set(sem, 0);
    k.cb_pop_front(CB_IN, 1);
}

/// Core 1, NCRISC: reserve room in c_1, tell core 0, wait for the data signal, publish the tile.
/// RT args: core 0's NoC x, y; semaphore id.
pub fn reader1(k: &mut Dataflow) {
    let x: u32 = k.get_arg_val(0);
    let y: u32 = k.get_arg_val(1);
    let sem_id: u32 = k.get_arg_val(2);
    let sem = k.get_semaphore(sem_id);
    k.cb_reserve_back(CB_XFER, 1);
    let remote_sem = k.get_noc_addr(x, y, sem);
    k.noc_semaphore_inc(remote_sem, 1);
    k.noc_async_atomic_barrier();
    k.noc_semaphore_wait(sem, 1);
    k.noc_semaphore_set(sem, 0);
    k.cb_push_back(CB_XFER, 1);
}

/// Core 1, BRISC: c_1 → DRAM. RT args: output address, DRAM bank.
pub fn writer1(k: &mut Dataflow) {
    let dst: u32 = k.get_arg_val(0);
    let bank: u32 = k.get_arg_val(1);
    let tile = k.get_tile_size(CB_XFER);
    k.cb_wait_front(CB_XFER, 1);
    let l1 = k.get_read_ptr(CB_XFER);
    let a = k.get_noc_addr_from_bank_id::<true>(bank, dst);
    k.noc_async_write(l1, a, tile);
    k.noc_async_write_barrier();
    k.cb_pop_front(CB_XFER, 1);
}

/// Run it: the host writes one `uint16_t` 14 into a one-tile buffer (tt-metal writes a single element and
/// lets the rest be whatever is there; tensim zero-fills it) and expects the tile back unchanged.
pub fn run(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let c0 = CoreCoord::new(0, 0);
    let c1 = CoreCoord::new(0, 1);
    let cores = CoreRangeSet::new(vec![CoreRange::single(c0), CoreRange::single(c1)])?;
    let tile = DataFormat::UInt16.tile_size() as u64;
    let cfg = InterleavedBufferConfig { size: tile, page_size: tile, buffer_type: BufferType::Dram };
    let input = dev.create_buffer(cfg)?;
    let output = dev.create_buffer(cfg)?;
    let value: u16 = o.size.map(|s| u16::try_from(s).unwrap_or(u16::MAX)).unwrap_or(14);
    dev.enqueue_write_buffer(&input, &[value])?;

    let mut p = Program::new();
    for cb in [CB_IN, CB_XFER] {
        p.create_circular_buffer(
            &cores,
            CircularBufferConfig::new(tile as u32, &[(cb, DataFormat::UInt16)]).set_page_size(cb, tile as u32),
        )?;
    }
    let sem = p.create_semaphore(&cores, 0)?;
    let x0 = dev.worker_core_from_logical_core(c0)?;
    let x1 = dev.worker_core_from_logical_core(c1)?;
    let r0 = p.create_kernel(
        Kernel::dataflow("NoC_tile_transfer/kernels/reader0.cpp", reader0),
        c0,
        DataMovementConfig::reader(vec![]),
    )?;
    let w0 = p.create_kernel(
        Kernel::dataflow("NoC_tile_transfer/kernels/writer0.cpp", writer0),
        c0,
        DataMovementConfig::writer(vec![]),
    )?;
    let r1 = p.create_kernel(
        Kernel::dataflow("NoC_tile_transfer/kernels/reader1.cpp", reader1),
        c1,
        DataMovementConfig::reader(vec![]),
    )?;
    let w1 = p.create_kernel(
        Kernel::dataflow("NoC_tile_transfer/kernels/writer1.cpp", writer1),
        c1,
        DataMovementConfig::writer(vec![]),
    )?;
    p.set_runtime_args(r0, c0, &[input.address(), 0])?;
    p.set_runtime_args(w0, c0, &[x1.x, x1.y, sem])?;
    p.set_runtime_args(r1, c1, &[x0.x, x0.y, sem])?;
    p.set_runtime_args(w1, c1, &[output.address(), 0])?;
    let report = dev.enqueue_program(&p)?;
    let got: Vec<u16> = dev.enqueue_read_buffer(&output)?;
    let passed = got[0] == value && got[1..].iter().all(|v| *v == 0);
    Ok(Outcome {
        passed,
        check: format!(
            "Result = {} : Expected = {value} (rest of the tile {})",
            got[0],
            if passed { "intact" } else { "corrupted" }
        ),
        report,
        metrics: Vec::new(),
    })
}
