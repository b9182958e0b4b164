// Core 0, NCRISC, of tensim's NoC_tile_transfer program: one DRAM tile into c_0.
// Runtime args: input address, DRAM bank.
#include <cstdint>

void kernel_main() {
    uint32_t src = get_arg_val<uint32_t>(0);
    uint32_t bank = get_arg_val<uint32_t>(1);
    constexpr uint32_t cb_in = tt::CBIndex::c_0;
    const uint32_t tile = get_tile_size(cb_in);
    uint64_t src_noc = get_noc_addr_from_bank_id<true>(bank, src);
    cb_reserve_back(cb_in, 1);
    noc_async_read(src_noc, get_write_ptr(cb_in), tile);
    noc_async_read_barrier();
    cb_push_back(cb_in, 1);
}
