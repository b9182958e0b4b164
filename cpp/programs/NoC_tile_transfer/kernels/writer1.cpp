// Core 1, BRISC, of tensim's NoC_tile_transfer program, in today's object kernel API: the tile in c_1 back
// to DRAM. Runtime args: output address, DRAM bank.
#include <cstdint>

#include "api/dataflow/circular_buffer.h"
#include "api/dataflow/endpoints.h"
#include "api/dataflow/noc.h"

void kernel_main() {
    uint32_t dst = get_arg_val<uint32_t>(0);
    uint32_t bank = get_arg_val<uint32_t>(1);
    Noc noc;
    CircularBuffer cb_xfer(tt::CBIndex::c_1);
    const uint32_t tile = cb_xfer.get_tile_size();
    cb_xfer.wait_front(1);
    noc.async_write(cb_xfer, AllocatorBank<AllocatorBankType::DRAM>{}, tile, {}, {.bank_id = bank, .addr = dst});
    noc.async_write_barrier();
    cb_xfer.pop_front(1);
}
