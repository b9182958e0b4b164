// tensim's C++ fabric matmul forwarder: once every writer of this chip has written its tiles of C (its
// semaphore counts them), read tiles start..start+n of C back from DRAM and write each through the fabric
// into the same tile of C on the chip `hops` away; the last tile carries an increment of that chip's
// receiver semaphore (a fused write + increment), so the receiver knows every tile has landed.
// Runtime args: C address, start, n, writers, own semaphore id, receiver x, y (NoC), receiver semaphore
// id, hops, then the fabric connection.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "tt_metal/fabric/hw/inc/edm_fabric/fabric_connection_manager.hpp"
#include "tt_metal/fabric/hw/inc/linear/api.h"
#include "tt_metal/fabric/hw/inc/packet_header_pool.h"

using namespace tt::tt_fabric;

void kernel_main() {
    size_t idx = 0;
    const uint32_t c_addr = get_arg_val<uint32_t>(idx++);
    const uint32_t start = get_arg_val<uint32_t>(idx++);
    const uint32_t n = get_arg_val<uint32_t>(idx++);
    const uint32_t writers = get_arg_val<uint32_t>(idx++);
    volatile tt_l1_ptr uint32_t* done = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore(get_arg_val<uint32_t>(idx++)));
    const uint32_t rx_x = get_arg_val<uint32_t>(idx++);
    const uint32_t rx_y = get_arg_val<uint32_t>(idx++);
    const uint32_t rx_sem = get_semaphore(get_arg_val<uint32_t>(idx++));
    const uint8_t hops = static_cast<uint8_t>(get_arg_val<uint32_t>(idx++));
    auto connection = WorkerToFabricEdmSender::build_from_args<ProgrammableCoreType::TENSIX>(idx);

    constexpr uint32_t cb = tt::CBIndex::c_0;
    const uint32_t tile_bytes = get_tile_size(cb);
    const InterleavedAddrGenFast<true> c = {.bank_base_address = c_addr, .page_size = tile_bytes, .data_format = get_dataformat(cb)};
    noc_semaphore_wait(done, writers);
    connection.open();
    volatile PACKET_HEADER_TYPE* header = PacketHeaderPool::allocate_header();
    cb_reserve_back(cb, 1);
    const uint32_t l1 = get_write_ptr(cb);
    for (uint32_t t = start; t < start + n; t++) {
        noc_async_read_tile(t, c, l1);
        noc_async_read_barrier();
        const uint64_t there = get_noc_addr(t, c);
        if (t + 1 < start + n) {
            linear::experimental::fabric_unicast_noc_unicast_write(&connection, header, l1, tile_bytes,
                                                                  NocUnicastCommandHeader{there}, hops);
        } else {
            linear::experimental::fabric_unicast_noc_fused_unicast_with_atomic_inc(
                &connection, header, l1, tile_bytes,
                NocUnicastAtomicIncFusedCommandHeader{there, get_noc_addr(rx_x, rx_y, rx_sem), 1}, hops);
        }
    }
    connection.close();
}
