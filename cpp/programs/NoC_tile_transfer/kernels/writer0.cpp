// Core 0, BRISC, of tensim's NoC_tile_transfer program, in today's object kernel API: once the tile is in c_0
// and core 1 has signalled room, write it into core 1's c_1 over the NoC, then increment core 1's semaphore.
// Runtime args: core 1's NoC x and y, the semaphore id.
#include <cstdint>

#include "api/dataflow/circular_buffer.h"
#include "api/dataflow/endpoints.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/noc_semaphore.h"

void kernel_main() {
    uint32_t x = get_arg_val<uint32_t>(0);
    uint32_t y = get_arg_val<uint32_t>(1);
    Semaphore<> sem(get_arg_val<uint32_t>(2));
    Noc noc;
    CircularBuffer cb_in(tt::CBIndex::c_0);
    CircularBuffer cb_xfer(tt::CBIndex::c_1);
    const uint32_t tile = cb_in.get_tile_size();
    cb_in.wait_front(1);
    sem.wait(1);
    // The same address on core 1: the CBs are laid out alike.
    const uint32_t dst_l1 = cb_xfer.get_read_ptr();
    noc.async_write(cb_in, UnicastEndpoint{}, tile, {}, {.noc_x = x, .noc_y = y, .addr = dst_l1});
    noc.async_write_barrier();
    sem.up(noc, x, y, 1);
    noc.async_atomic_barrier();
    sem.set(0);
    cb_in.pop_front(1);
}
