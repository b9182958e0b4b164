// tensim's C++ ERISC receiver: answer the handshake, wait for the whole payload, write it from this
// Ethernet core's L1 into a DRAM buffer of its own chip, then tell the sender it is done.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "ethernet/dataflow_api.h"

void kernel_main() {
    constexpr auto dst_args = TensorAccessorArgs<0>();
    const uint32_t dst_addr = get_arg_val<uint32_t>(0);
    const uint32_t num_pages = get_arg_val<uint32_t>(1);
    const uint32_t page_size = get_arg_val<uint32_t>(2);
    const uint32_t payload = ERISC_L1_UNRESERVED_BASE + 64;

    eth_wait_for_bytes(16);
    eth_receiver_channel_done(0);
    eth_wait_for_bytes(num_pages * page_size);
    const auto dst = TensorAccessor(dst_args, dst_addr, page_size);
    for (uint32_t i = 0; i < num_pages; i++) noc_async_write_page(i, dst, payload + i * page_size);
    noc_async_write_barrier();
    eth_receiver_channel_done(0);
}
