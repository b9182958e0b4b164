// tensim's hello world for data types: reads the first page of a DRAM buffer from NoC coordinates (1, 0)
// — hard-coded, as the classic example does — into c_0 (reserving zero pages: only the write pointer is
// wanted) and prints the float it starts with. Runtime args: the DRAM address.
#include <cstdint>

#include "debug/dprint.h"

void kernel_main() {
    uint32_t dram_addr = get_arg_val<uint32_t>(0);
    constexpr uint32_t cb = tt::CB::c_in0;
    uint64_t src = get_noc_addr(1, 0, dram_addr);
    cb_reserve_back(cb, 0);
    uint32_t l1 = get_write_ptr(cb);
    noc_async_read(src, l1, get_tile_size(cb));
    noc_async_read_barrier();
    float* value = reinterpret_cast<float*>(l1);
    DPRINT << "Received float: " << F32(*value) << ENDL();
}
