// Receiver of tensim's contributed/multicast program (NCRISC): the tile in c_16 to tile `index` of the
// interleaved DRAM output. Runtime args: output address, tile index.
#include <cstdint>

void kernel_main() {
    uint32_t dst = get_arg_val<uint32_t>(0);
    uint32_t index = get_arg_val<uint32_t>(1);
    constexpr uint32_t cb = tt::CBIndex::c_16;
    const InterleavedAddrGenFast<true> out = {
        .bank_base_address = dst, .page_size = (uint32_t)get_tile_size(cb), .data_format = DataFormat::Float16_b};
    cb_wait_front(cb, 1);
    noc_async_write_tile(index, out, get_read_ptr(cb));
    noc_async_write_barrier();
    cb_pop_front(cb, 1);
}
