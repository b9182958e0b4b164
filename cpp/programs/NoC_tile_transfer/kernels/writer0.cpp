// Core 0, BRISC, of tensim's NoC_tile_transfer program: once the tile is in c_0 and core 1 has signalled
// room, write it into core 1's c_1 over the NoC, then increment core 1's semaphore.
// Runtime args: core 1's NoC x and y, the semaphore id.
#include <cstdint>

void kernel_main() {
    uint32_t x = get_arg_val<uint32_t>(0);
    uint32_t y = get_arg_val<uint32_t>(1);
    uint32_t sem_id = get_arg_val<uint32_t>(2);
    uint32_t sem_addr = get_semaphore(sem_id);
    volatile tt_l1_ptr uint32_t* sem = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(sem_addr);
    constexpr uint32_t cb_in = tt::CBIndex::c_0;
    constexpr uint32_t cb_xfer = tt::CBIndex::c_1;
    const uint32_t tile = get_tile_size(cb_in);
    cb_wait_front(cb_in, 1);
    noc_semaphore_wait(sem, 1);
    uint32_t src = get_read_ptr(cb_in);
    uint32_t dst_l1 = get_read_ptr(cb_xfer);  // the same address on core 1: the CBs are laid out alike
    noc_async_write(src, get_noc_addr(x, y, dst_l1), tile);
    noc_async_write_barrier();
    noc_semaphore_inc(get_noc_addr(x, y, sem_addr), 1);
    noc_async_atomic_barrier();
    noc_semaphore_set(sem, 0);
    cb_pop_front(cb_in, 1);
}
