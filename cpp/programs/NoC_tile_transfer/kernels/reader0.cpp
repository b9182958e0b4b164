// Core 0, NCRISC, of tensim's NoC_tile_transfer program, in today's object kernel API: one DRAM tile into c_0
// (a DRAM bank as the NoC side, the circular buffer as the local side).
// Runtime args: input address, DRAM bank.
#include <cstdint>

#include "api/dataflow/circular_buffer.h"
#include "api/dataflow/endpoints.h"
#include "api/dataflow/noc.h"

void kernel_main() {
    uint32_t src = get_arg_val<uint32_t>(0);
    uint32_t bank = get_arg_val<uint32_t>(1);
    Noc noc;
    CircularBuffer cb_in(tt::CBIndex::c_0);
    const uint32_t tile = cb_in.get_tile_size();
    cb_in.reserve_back(1);
    noc.async_read(AllocatorBank<AllocatorBankType::DRAM>{}, cb_in, tile, {.bank_id = bank, .addr = src}, {});
    noc.async_read_barrier();
    cb_in.push_back(1);
}
