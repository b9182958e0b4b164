// Sender reader of tensim's reduce_max_mcast (core (0,0)): writes the scaler tile into its c_2 through an
// L1 pointer, waits until every receiver has reserved its c_2 (they increment the sender semaphore),
// multicasts the tile into the receivers' c_2 and then the VALID flag into their receiver semaphore, and
// reads its own tile-rows. Runtime args: src, start, n, scaler (bf16 bits), multicast rectangle (NoC x/y
// start, x/y end), receivers, sender semaphore id, receiver semaphore id.
#include <cstdint>

#include "reader_reduce_max_mcast.hpp"

void kernel_main() {
    uint32_t scaler = get_arg_val<uint32_t>(3) & 0xffff;
    uint32_t x0 = get_arg_val<uint32_t>(4), y0 = get_arg_val<uint32_t>(5);
    uint32_t x1 = get_arg_val<uint32_t>(6), y1 = get_arg_val<uint32_t>(7);
    uint32_t receivers = get_arg_val<uint32_t>(8);
    uint32_t sender_sem = get_semaphore(get_arg_val<uint32_t>(9));
    uint32_t receiver_sem = get_semaphore(get_arg_val<uint32_t>(10));
    constexpr uint32_t cb_scaler = tt::CBIndex::c_2;

    cb_reserve_back(cb_scaler, 1);
    uint32_t tile = get_write_ptr(cb_scaler);
    volatile tt_l1_ptr uint32_t* p = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(tile);
    for (uint32_t w = 0; w < 2048 / 4; w++) p[w] = (w % 128) < 8 ? (scaler | scaler << 16) : 0;

    volatile tt_l1_ptr uint32_t* ready = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(sender_sem);
    noc_semaphore_wait(ready, receivers);
    noc_semaphore_set(ready, 0);
    noc_async_write_multicast(tile, get_noc_multicast_addr(x0, y0, x1, y1, tile), get_tile_size(cb_scaler), receivers);
    volatile tt_l1_ptr uint32_t* valid = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(receiver_sem);
    noc_semaphore_set(valid, 1);
    noc_semaphore_set_multicast(receiver_sem, get_noc_multicast_addr(x0, y0, x1, y1, receiver_sem), receivers);
    noc_async_write_barrier();
    cb_push_back(cb_scaler, 1);
    read_rows();
}
