// tensim's C++ ERISC sender: read a DRAM buffer into this Ethernet core's L1, hand-shake with the core at
// the other end of the link on channel 0, send the payload above the handshake words in chunks, then wait
// until the receiver has consumed it (its "done" comes back).
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "ethernet/dataflow_api.h"

void kernel_main() {
    constexpr auto src_args = TensorAccessorArgs<0>();
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t num_pages = get_arg_val<uint32_t>(1);
    const uint32_t page_size = get_arg_val<uint32_t>(2);
    const uint32_t bytes_per_send = get_arg_val<uint32_t>(3);
    const uint32_t base = ERISC_L1_UNRESERVED_BASE;
    // Channel 0 is for the handshake; the payload starts 64 bytes on (the DRAM read alignment of both arches).
    const uint32_t payload = base + 64;

    const auto src = TensorAccessor(src_args, src_addr, page_size);
    for (uint32_t i = 0; i < num_pages; i++) noc_async_read_page(i, src, payload + i * page_size);
    noc_async_read_barrier();

    eth_send_bytes(base, base, 16);
    eth_wait_for_receiver_done();
    eth_send_bytes(payload, payload, num_pages * page_size, bytes_per_send);
    eth_wait_for_receiver_done();
}
