// Sender of tensim's contributed/multicast program: read one tile from DRAM bank 0 into c_0, wait until
// every receiver signalled readiness on this core's sender semaphore, multicast the tile to the same
// address on the receivers, then multicast VALID to their receiver semaphores.
// Runtime args: input address, multicast rectangle start x, y, end x, y, destinations, sender semaphore
// id, receiver semaphore id.
#include <cstdint>

void kernel_main() {
    uint32_t src = get_arg_val<uint32_t>(0);
    uint32_t start_x = get_arg_val<uint32_t>(1);
    uint32_t start_y = get_arg_val<uint32_t>(2);
    uint32_t end_x = get_arg_val<uint32_t>(3);
    uint32_t end_y = get_arg_val<uint32_t>(4);
    uint32_t num_dests = get_arg_val<uint32_t>(5);
    uint32_t sender_sem = get_semaphore(get_arg_val<uint32_t>(6));
    uint32_t receiver_sem = get_semaphore(get_arg_val<uint32_t>(7));
    constexpr uint32_t cb = tt::CBIndex::c_0;
    const uint32_t tile = get_tile_size(cb);

    cb_reserve_back(cb, 1);
    uint32_t l1 = get_write_ptr(cb);
    noc_async_read(get_noc_addr_from_bank_id<true>(0, src), l1, tile);
    noc_async_read_barrier();

    auto* sender = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(sender_sem);
    auto* receiver = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(receiver_sem);
    noc_semaphore_wait(sender, num_dests);
    noc_semaphore_set(sender, 0);
    noc_async_write_multicast(l1, get_noc_multicast_addr(start_x, start_y, end_x, end_y, l1), tile, num_dests);
    noc_semaphore_set(receiver, 1);
    noc_semaphore_set_multicast(receiver_sem, get_noc_multicast_addr(start_x, start_y, end_x, end_y, receiver_sem),
                                num_dests);
    noc_async_write_barrier();
}
