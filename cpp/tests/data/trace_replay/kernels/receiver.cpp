// tensim test kernel (cores (1,0) and (2,0), NCRISC): wait for the sender's increment, fill a CB page with a
// pattern naming the page, and write it to that DRAM page. Runtime args: the buffer's address, the page,
// the semaphore id.
#include <cstdint>

#include "api/core_local_mem.h"
#include "api/dataflow/circular_buffer.h"
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/noc_semaphore.h"

void kernel_main() {
    const uint32_t dst_addr = get_arg_val<uint32_t>(0);
    const uint32_t page = get_arg_val<uint32_t>(1);
    Semaphore<> sem(get_arg_val<uint32_t>(2));
    sem.wait_min(1);
    CircularBuffer cb(tt::CBIndex::c_0);
    CoreLocalMem<uint32_t> mem(cb.get_read_ptr());
    for (uint32_t i = 0; i < 512; ++i) mem[i] = 0xA0000000u | (page << 16) | i;
    constexpr auto args = TensorAccessorArgs<0>();
    const auto pages = TensorAccessor(args, dst_addr, 2048);
    Noc noc;
    noc.async_write(cb, pages, 2048, {}, {.page_id = page});
    noc.async_write_barrier();
}
