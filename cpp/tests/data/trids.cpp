// Two reads with different transaction ids: 64 KiB from DRAM tagged 1, then 64 bytes of a neighbour core's
// L1 tagged 2. The barrier on id 2 returns once the short read has landed (its data is checked then), the
// barrier on id 1 once the long one has. Runtime args: peer NoC x, y, peer address, local address, the
// DRAM buffer's address (one 64 KiB page in bank 0).
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "tools/profiler/kernel_profiler.hpp"

void kernel_main() {
    const uint32_t x = get_arg_val<uint32_t>(0), y = get_arg_val<uint32_t>(1);
    const uint32_t peer = get_arg_val<uint32_t>(2), local = get_arg_val<uint32_t>(3);
    const uint32_t dram = get_arg_val<uint32_t>(4);
    noc_async_read_set_trid(1);
    noc_async_read(get_noc_addr_from_bank_id<true>(0, dram), local, 65536);
    noc_async_read_set_trid(2);
    noc_async_read(get_noc_addr(x, y, peer), local + 65536, 64);
    noc_async_read_barrier_with_trid(2);
    DeviceTimestampedData("short", 0);
    volatile tt_l1_ptr uint32_t* got = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(local + 65536);
    if (got[0] == 0xabc0 && got[15] == 0xabcf) DeviceTimestampedData("short_ok", 1);
    noc_async_read_barrier_with_trid(1);
    DeviceTimestampedData("long", 0);
}
