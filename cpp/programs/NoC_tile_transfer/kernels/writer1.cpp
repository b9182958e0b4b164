// Core 1, BRISC, of tensim's NoC_tile_transfer program: the tile in c_1 back to DRAM.
// Runtime args: output address, DRAM bank.
#include <cstdint>

void kernel_main() {
    uint32_t dst = get_arg_val<uint32_t>(0);
    uint32_t bank = get_arg_val<uint32_t>(1);
    constexpr uint32_t cb_xfer = tt::CBIndex::c_1;
    const uint32_t tile = get_tile_size(cb_xfer);
    cb_wait_front(cb_xfer, 1);
    uint32_t l1 = get_read_ptr(cb_xfer);
    noc_async_write(l1, get_noc_addr_from_bank_id<true>(bank, dst), tile);
    noc_async_write_barrier();
    cb_pop_front(cb_xfer, 1);
}
