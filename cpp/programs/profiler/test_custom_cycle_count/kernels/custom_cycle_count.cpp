// Data-movement kernel of tensim's profiler/test_custom_cycle_count: a zone around a loop of `loops` NoC
// reads of one 2 KiB page from a DRAM buffer into L1 (each behind a barrier), and the loop count and the
// bytes moved logged as timestamped data. Runtime args: DRAM address, L1 scratch address, loops.
#include <cstdint>

#include "tools/profiler/kernel_profiler.hpp"

void kernel_main() {
    uint32_t dram = get_arg_val<uint32_t>(0);
    uint32_t l1 = get_arg_val<uint32_t>(1);
    uint32_t loops = get_arg_val<uint32_t>(2);
    const InterleavedAddrGen<true> src = {.bank_base_address = dram, .page_size = 2048};
    DeviceTimestampedData("Number of loops", loops);
    {
        DeviceZoneScopedN("TEST-FULL");
        for (uint32_t i = 0; i < loops; i++) {
            noc_async_read(get_noc_addr(i % 8, src), l1, 2048);
            noc_async_read_barrier();
        }
    }
    DeviceTimestampedData("Bytes read", uint64_t{loops} * 2048);
}
