// Receiver of tensim's contributed/multicast program (BRISC): mark the receiver semaphore INVALID, signal
// readiness on the sender's semaphore, wait for VALID, then copy the tile from c_0 to c_16 word by word.
// Runtime args: sender NoC x, y, sender semaphore id, receiver semaphore id.
#include <cstdint>

void kernel_main() {
    uint32_t sender_x = get_arg_val<uint32_t>(0);
    uint32_t sender_y = get_arg_val<uint32_t>(1);
    uint32_t sender_sem = get_semaphore(get_arg_val<uint32_t>(2));
    uint32_t receiver_sem = get_semaphore(get_arg_val<uint32_t>(3));
    constexpr uint32_t cb_in = tt::CBIndex::c_0;
    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    const uint32_t tile = get_tile_size(cb_in);

    cb_reserve_back(cb_in, 1);
    auto* receiver = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(receiver_sem);
    noc_semaphore_set(receiver, 0);
    noc_semaphore_inc(get_noc_addr(sender_x, sender_y, sender_sem), 1);
    noc_semaphore_wait(receiver, 1);
    cb_push_back(cb_in, 1);

    cb_wait_front(cb_in, 1);
    cb_reserve_back(cb_out, 1);
    auto* src = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_read_ptr(cb_in));
    auto* dst = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_write_ptr(cb_out));
    for (uint32_t w = 0; w < tile / 4; w++) dst[w] = src[w];
    cb_push_back(cb_out, 1);
    cb_pop_front(cb_in, 1);
}
