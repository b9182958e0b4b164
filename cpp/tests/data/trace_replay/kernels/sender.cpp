// tensim test kernel (core (0,0), BRISC): zero two DRAM pages through a locally zeroed CB page (the object
// NoC API's async_write_zeros), then increment the receivers' semaphore with one multicast increment.
// Runtime args: the buffer's address, the receivers' NoC rectangle (x0, y0, x1, y1), the semaphore id.
#include <cstdint>

#include "api/dataflow/circular_buffer.h"
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/noc_semaphore.h"

void kernel_main() {
    const uint32_t dst_addr = get_arg_val<uint32_t>(0);
    const uint32_t x0 = get_arg_val<uint32_t>(1), y0 = get_arg_val<uint32_t>(2);
    const uint32_t x1 = get_arg_val<uint32_t>(3), y1 = get_arg_val<uint32_t>(4);
    Semaphore<> sem(get_arg_val<uint32_t>(5));
    constexpr auto args = TensorAccessorArgs<0>();
    const auto pages = TensorAccessor(args, dst_addr, 2048);
    Noc noc;
    CircularBuffer zeros(tt::CBIndex::c_0);
    noc.async_write_zeros(zeros, 2048);
    noc.write_zeros_l1_barrier();
    for (uint32_t p = 0; p < 2; ++p) noc.async_write_zeros(pages, 2048, {.page_id = p}, zeros);
    noc.write_zeros_dram_barrier();
    sem.inc_multicast(noc, x0, y0, x1, y1, 1, 2);
    noc.async_atomic_barrier();
}
