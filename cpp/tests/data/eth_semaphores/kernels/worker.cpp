// eth_semaphores worker: fill a block, write it to the Ethernet core's L1, ring its semaphore, wait for the
// ERISC's answer on this core's semaphore, read the doubled block back and store it in DRAM.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t ex = get_arg_val<uint32_t>(0), ey = get_arg_val<uint32_t>(1);
    const uint32_t sem_go = get_arg_val<uint32_t>(2), sem_done = get_arg_val<uint32_t>(3);
    const uint32_t out_addr = get_arg_val<uint32_t>(4), words = get_arg_val<uint32_t>(5);
    constexpr auto args = TensorAccessorArgs<0>();
    const auto out = TensorAccessor(args, out_addr, words * 4);
    const uint32_t l1 = get_write_ptr(tt::CBIndex::c_0);
    volatile tt_l1_ptr uint32_t* p = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(l1);
    for (uint32_t i = 0; i < words; i++) p[i] = 0x1000 + i;
    const uint64_t eth_block = get_noc_addr(ex, ey, get_arg_val<uint32_t>(6));
    noc_async_write(l1, eth_block, words * 4);
    noc_async_write_barrier();
    noc_semaphore_inc(get_noc_addr(ex, ey, get_semaphore<ProgrammableCoreType::ACTIVE_ETH>(sem_go)), 1);
    volatile tt_l1_ptr uint32_t* done = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore(sem_done));
    noc_semaphore_wait(done, 1);
    noc_async_read(eth_block, l1, words * 4);
    noc_async_read_barrier();
    noc_async_write_page(0, out, l1);
    noc_async_write_barrier();
}
