//! Synthetic workloads for the speed benches: programs built to stress one part of the simulator.

use sim_device::prelude::*;

/// The scheduler workload: on every core of a `cols × rows` grid a BRISC producer and an NCRISC consumer
/// pass `pages` pages through a 4-page CB; every `sem_every` pages the producer increments a semaphore on
/// the next core of its row (NoC atomic) and that core's consumer waits for its semaphore to reach the count.
pub fn cb_pingpong(dev: &Device, cols: u32, rows: u32, pages: u32, sem_every: u32) -> Result<Program, DeviceError> {
    let cores = CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(cols - 1, rows - 1));
    let mut p = Program::new();
    p.create_circular_buffer(
        cores,
        CircularBufferConfig::new(4 * 64, &[(CBIndex::c_0, DataFormat::UInt32)]).set_page_size(CBIndex::c_0, 64),
    )?;
    let sem = p.create_semaphore(cores, 0)?;
    let producer = p.create_kernel(
        Kernel::dataflow("bench/producer", |k: &mut Dataflow| {
            let pages: u32 = k.get_arg_val(0);
            let every: u32 = k.get_arg_val(1);
            let (nx, ny): (u32, u32) = (k.get_arg_val(2), k.get_arg_val(3));
            let sem = k.get_semaphore(k.get_arg_val(4));
            let remote = k.get_noc_addr(nx, ny, sem);
            for i in 0..pages {
                k.cb_reserve_back(CBIndex::c_0, 1);
                k.cb_push_back(CBIndex::c_0, 1);
                if (i + 1) % every == 0 {
                    k.noc_semaphore_inc(remote, 1);
                }
            }
            k.noc_async_atomic_barrier();
        }),
        cores,
        DataMovementConfig::default(),
    )?;
    let consumer = p.create_kernel(
        Kernel::dataflow("bench/consumer", |k: &mut Dataflow| {
            let pages: u32 = k.get_arg_val(0);
            let every: u32 = k.get_arg_val(1);
            let sem = k.get_semaphore(k.get_arg_val(2));
            for i in 0..pages {
                k.cb_wait_front(CBIndex::c_0, 1);
                k.cb_pop_front(CBIndex::c_0, 1);
                if (i + 1) % every == 0 {
                    k.noc_semaphore_wait_min(sem, (i + 1) / every);
                }
            }
        }),
        cores,
        DataMovementConfig { processor: DataMovementProcessor::RISCV_1, noc: NocId::Noc1, ..Default::default() },
    )?;
    for c in cores.iter() {
        let next = dev.worker_core_from_logical_core(CoreCoord::new((c.x + 1) % cols, c.y))?;
        p.set_runtime_args(producer, c, &[pages, sem_every, next.x, next.y, sem])?;
        p.set_runtime_args(consumer, c, &[pages, sem_every, sem])?;
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pingpong_runs_and_counts_calls() {
        let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
        let p = cb_pingpong(&dev, 2, 2, 64, 16).unwrap();
        let r = dev.enqueue_program(&p).unwrap();
        assert_eq!(r.kernels.len(), 8);
        // Each producer: 5 arg/sem calls + 64×2 CB calls + 4 incs + 1 barrier; each consumer: 3 + 128 + 4 waits.
        assert_eq!(r.api_calls, 4 * (7 + 128 + 4 + 1) + 4 * (4 + 128 + 4));
    }
}
