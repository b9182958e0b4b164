// Sends a header that says it carries 64 bytes without sending the payload first: tensim names the misuse.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "tt_metal/fabric/hw/inc/edm_fabric/fabric_connection_manager.hpp"
#include "tt_metal/fabric/hw/inc/packet_header_pool.h"

using namespace tt::tt_fabric;

void kernel_main() {
    size_t idx = 0;
    auto connection = WorkerToFabricEdmSender::build_from_args<ProgrammableCoreType::TENSIX>(idx);
    connection.open();
    volatile PACKET_HEADER_TYPE* header = PacketHeaderPool::allocate_header();
    fabric_set_unicast_route<false>(header, 1);
    header->to_noc_unicast_write(NocUnicastCommandHeader{get_noc_addr(1, 1, 0x40000)}, 64);
    connection.wait_for_empty_write_slot();
    connection.send_payload_flush_blocking_from_address((uint32_t)header, sizeof(PACKET_HEADER_TYPE));
    connection.close();
}
