// Core 1, NCRISC, of tensim's NoC_tile_transfer program: reserve room in c_1, signal core 0, wait for the
// data signal, publish the tile. Runtime args: core 0's NoC x and y, the semaphore id.
#include <cstdint>

void kernel_main() {
    uint32_t x = get_arg_val<uint32_t>(0);
    uint32_t y = get_arg_val<uint32_t>(1);
    uint32_t sem_id = get_arg_val<uint32_t>(2);
    uint32_t sem_addr = get_semaphore(sem_id);
    volatile tt_l1_ptr uint32_t* sem = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(sem_addr);
    constexpr uint32_t cb_xfer = tt::CBIndex::c_1;
    cb_reserve_back(cb_xfer, 1);
    noc_semaphore_inc(get_noc_addr(x, y, sem_addr), 1);
    noc_async_atomic_barrier();
    noc_semaphore_wait(sem, 1);
    noc_semaphore_set(sem, 0);
    cb_push_back(cb_xfer, 1);
}
