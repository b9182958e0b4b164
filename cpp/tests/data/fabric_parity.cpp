// The fabric sender of sim-device's fabric test, in C++: multicast BYTES from L1 to the chips 1..range
// hops away, then increment semaphore 0 of the destination core on each. Runtime args: destination NoC x,
// y, the source (and destination) L1 address, the header's L1 address, start, range, then the connection.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "tt_metal/fabric/hw/inc/edm_fabric/fabric_connection_manager.hpp"
#include "tt_metal/fabric/hw/inc/linear/api.h"

using namespace tt::tt_fabric;

void kernel_main() {
    size_t idx = 0;
    const uint32_t x = get_arg_val<uint32_t>(idx++);
    const uint32_t y = get_arg_val<uint32_t>(idx++);
    const uint32_t src = get_arg_val<uint32_t>(idx++);
    const uint32_t hdr = get_arg_val<uint32_t>(idx++);
    const uint8_t start = static_cast<uint8_t>(get_arg_val<uint32_t>(idx++));
    const uint8_t range = static_cast<uint8_t>(get_arg_val<uint32_t>(idx++));
    auto connection = WorkerToFabricEdmSender::build_from_args<ProgrammableCoreType::TENSIX>(idx);
    connection.open();
    const uint64_t dst = get_noc_addr(x, y, src);
    const uint32_t sem = get_semaphore(0);
    const uint64_t sem_noc = get_noc_addr(x, y, sem);
    auto* header = reinterpret_cast<volatile PACKET_HEADER_TYPE*>(hdr);
    linear::experimental::fabric_multicast_noc_unicast_write(&connection, header, src, BYTES,
                                                            NocUnicastCommandHeader{dst}, start, range);
    linear::experimental::fabric_multicast_noc_unicast_atomic_inc(&connection, header,
                                                                 NocUnicastAtomicIncCommandHeader{sem_noc, 1}, start,
                                                                 range);
    connection.close();
}
