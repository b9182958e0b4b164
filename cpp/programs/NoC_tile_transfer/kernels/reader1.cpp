// Core 1, NCRISC, of tensim's NoC_tile_transfer program, in today's object kernel API: reserve room in c_1,
// signal core 0, wait for the data signal, publish the tile. Runtime args: core 0's NoC x and y, the
// semaphore id.
#include <cstdint>

#include "api/dataflow/circular_buffer.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/noc_semaphore.h"

void kernel_main() {
    uint32_t x = get_arg_val<uint32_t>(0);
    uint32_t y = get_arg_val<uint32_t>(1);
    Semaphore<> sem(get_arg_val<uint32_t>(2));
    Noc noc;
    CircularBuffer cb_xfer(tt::CBIndex::c_1);
    cb_xfer.reserve_back(1);
    sem.up(noc, x, y, 1);
    noc.async_atomic_barrier();
    sem.wait(1);
    sem.set(0);
    cb_xfer.push_back(1);
}
