// Writer of tensim's softmax program: n tiles from c_16 to tiles start..start+n of an interleaved DRAM
// tensor through an InterleavedAddrGenFast (the address-generator era of its reader). Runtime args: dst
// address, n, start.
#include <cstdint>

void kernel_main() {
    uint32_t dst = get_arg_val<uint32_t>(0);
    uint32_t n = get_arg_val<uint32_t>(1);
    uint32_t start = get_arg_val<uint32_t>(2);
    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    const InterleavedAddrGenFast<true> out = {
        .bank_base_address = dst, .page_size = (uint32_t)get_tile_size(cb_out), .data_format = get_dataformat(cb_out)};
    for (uint32_t t = start; t < start + n; t++) {
        cb_wait_front(cb_out, 1);
        noc_async_write_tile(t, out, get_read_ptr(cb_out));
        noc_async_write_barrier();
        cb_pop_front(cb_out, 1);
    }
}
