// tensim's C++ fabric_write_kernel: on the first device, read each page of a DRAM buffer into L1 and write
// it through the fabric into the same buffer's page on the device `hops` away (the NoC address is computed
// here: the buffer has the same address on every device), one packet per page with the low-level header
// calls; then increment the receiver's semaphore over the fabric with the linear API.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "tt_metal/fabric/hw/inc/edm_fabric/fabric_connection_manager.hpp"
#include "tt_metal/fabric/hw/inc/linear/api.h"
#include "tt_metal/fabric/hw/inc/packet_header_pool.h"
#include "tt_metal/fabric/hw/inc/tt_fabric_api.h"

using namespace tt::tt_fabric;

void kernel_main() {
    constexpr uint32_t cb = tt::CBIndex::c_0;
    constexpr auto src_args = TensorAccessorArgs<0>();
    constexpr auto dst_args = TensorAccessorArgs<src_args.next_compile_time_args_offset()>();
    size_t idx = 0;
    const uint32_t src_addr = get_arg_val<uint32_t>(idx++);
    const uint32_t dst_addr = get_arg_val<uint32_t>(idx++);
    const uint32_t num_pages = get_arg_val<uint32_t>(idx++);
    const uint32_t page_size = get_arg_val<uint32_t>(idx++);
    const uint32_t rx_x = get_arg_val<uint32_t>(idx++);
    const uint32_t rx_y = get_arg_val<uint32_t>(idx++);
    const uint32_t rx_sem = get_semaphore(get_arg_val<uint32_t>(idx++));
    const uint8_t hops = static_cast<uint8_t>(get_arg_val<uint32_t>(idx++));

    auto connection = WorkerToFabricEdmSender::build_from_args<ProgrammableCoreType::TENSIX>(idx);
    connection.open();
    volatile PACKET_HEADER_TYPE* data_header = PacketHeaderPool::allocate_header();
    volatile PACKET_HEADER_TYPE* sem_header = PacketHeaderPool::allocate_header();

    const auto src = TensorAccessor(src_args, src_addr, page_size);
    const auto dst = TensorAccessor(dst_args, dst_addr, page_size);
    cb_reserve_back(cb, 1);
    const uint32_t l1 = get_write_ptr(cb);
    fabric_set_unicast_route<false>(data_header, hops);
    for (uint32_t i = 0; i < num_pages; i++) {
        noc_async_read_page(i, src, l1);
        noc_async_read_barrier();
        data_header->to_noc_unicast_write(NocUnicastCommandHeader{dst.get_noc_addr(i)}, page_size);
        connection.wait_for_empty_write_slot();
        connection.send_payload_without_header_non_blocking_from_address(l1, page_size);
        // Returns once the page and header have left L1: the next read may overwrite them.
        connection.send_payload_flush_blocking_from_address((uint32_t)data_header, sizeof(PACKET_HEADER_TYPE));
    }
    // Packets on one route arrive in order, so the increment lands after every page.
    linear::experimental::fabric_unicast_noc_unicast_atomic_inc(
        &connection, sem_header, NocUnicastAtomicIncCommandHeader{get_noc_addr(rx_x, rx_y, rx_sem), 1}, hops);
    connection.close();
}
