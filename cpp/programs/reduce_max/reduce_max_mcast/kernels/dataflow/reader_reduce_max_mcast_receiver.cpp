// Receiver reader of tensim's reduce_max_mcast: reserves c_2, tells the sender it is ready (increments the
// sender's semaphore), waits for the VALID flag the sender multicasts after the scaler tile, pushes the
// tile it received, and reads its own tile-rows. Runtime args: src, start, n, sender NoC x, y, sender
// semaphore id, receiver semaphore id.
#include <cstdint>

#include "reader_reduce_max_mcast.hpp"

void kernel_main() {
    uint32_t sender_x = get_arg_val<uint32_t>(3), sender_y = get_arg_val<uint32_t>(4);
    uint32_t sender_sem = get_semaphore(get_arg_val<uint32_t>(5));
    uint32_t receiver_sem = get_semaphore(get_arg_val<uint32_t>(6));
    constexpr uint32_t cb_scaler = tt::CBIndex::c_2;

    cb_reserve_back(cb_scaler, 1);
    volatile tt_l1_ptr uint32_t* valid = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(receiver_sem);
    noc_semaphore_set(valid, 0);
    noc_semaphore_inc(get_noc_addr(sender_x, sender_y, sender_sem), 1);
    noc_semaphore_wait(valid, 1);
    cb_push_back(cb_scaler, 1);
    read_rows();
}
