// eth_semaphores ERISC: wait for the worker on this core's Ethernet semaphore, double the block in place and
// add the second semaphore's value (7), then ring the worker's semaphore.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "ethernet/dataflow_api.h"

void kernel_main() {
    const uint32_t wx = get_arg_val<uint32_t>(0), wy = get_arg_val<uint32_t>(1);
    const uint32_t sem_go = get_arg_val<uint32_t>(2), sem_done = get_arg_val<uint32_t>(3);
    const uint32_t sem_seven = get_arg_val<uint32_t>(4), words = get_arg_val<uint32_t>(5);
    volatile tt_l1_ptr uint32_t* go =
        reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore<ProgrammableCoreType::ACTIVE_ETH>(sem_go));
    noc_semaphore_wait(go, 1);
    const uint32_t seven =
        *reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore<ProgrammableCoreType::ACTIVE_ETH>(sem_seven));
    volatile tt_l1_ptr uint32_t* p = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_arg_val<uint32_t>(6));
    for (uint32_t i = 0; i < words; i++) p[i] = 2 * p[i] + seven;
    noc_semaphore_inc(get_noc_addr(wx, wy, get_semaphore(sem_done)), 1);
    noc_async_atomic_barrier();
}
