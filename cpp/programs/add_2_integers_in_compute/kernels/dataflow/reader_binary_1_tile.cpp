// Reader of tensim's add_2_integers_in_compute program: tiles start..start+n of two interleaved DRAM tensors into
// c_0 and c_1, one tile at a time. Runtime args: src0 address, src1 address, n, start.
#include <cstdint>

void kernel_main() {
    uint32_t src0 = get_arg_val<uint32_t>(0);
    uint32_t src1 = get_arg_val<uint32_t>(1);
    uint32_t n = get_arg_val<uint32_t>(2);
    uint32_t start = get_arg_val<uint32_t>(3);
    constexpr uint32_t cb0 = tt::CBIndex::c_0;
    constexpr uint32_t cb1 = tt::CBIndex::c_1;
    const InterleavedAddrGenFast<true> a = {
        .bank_base_address = src0, .page_size = (uint32_t)get_tile_size(cb0), .data_format = get_dataformat(cb0)};
    const InterleavedAddrGenFast<true> b = {
        .bank_base_address = src1, .page_size = (uint32_t)get_tile_size(cb1), .data_format = get_dataformat(cb1)};
    for (uint32_t t = start; t < start + n; t++) {
        cb_reserve_back(cb0, 1);
        cb_reserve_back(cb1, 1);
        uint32_t l1_a = get_write_ptr(cb0);
        uint32_t l1_b = get_write_ptr(cb1);
        noc_async_read_tile(t, a, l1_a);
        noc_async_read_tile(t, b, l1_b);
        noc_async_read_barrier();
        cb_push_back(cb0, 1);
        cb_push_back(cb1, 1);
    }
}
