// Reader of tensim's reduce_max programs (single and multi-core): the scaler tile (the scaler in the first
// row of every face, written through an L1 pointer) into c_2, then `n` input tiles from tile `start` in
// row-major tile order into c_0. Runtime args: src address, start, n, scaler (bf16 bits in the low half).
#include <cstdint>

void kernel_main() {
    uint32_t src = get_arg_val<uint32_t>(0);
    uint32_t start = get_arg_val<uint32_t>(1);
    uint32_t n = get_arg_val<uint32_t>(2);
    uint32_t scaler = get_arg_val<uint32_t>(3) & 0xffff;
    constexpr uint32_t cb_in = tt::CBIndex::c_0;
    constexpr uint32_t cb_scaler = tt::CBIndex::c_2;

    cb_reserve_back(cb_scaler, 1);
    volatile tt_l1_ptr uint32_t* p = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_write_ptr(cb_scaler));
    for (uint32_t w = 0; w < 2048 / 4; w++) p[w] = (w % 128) < 8 ? (scaler | scaler << 16) : 0;
    cb_push_back(cb_scaler, 1);

    const InterleavedAddrGenFast<true> in = {
        .bank_base_address = src, .page_size = get_tile_size(cb_in), .data_format = DataFormat::Float16_b};
    for (uint32_t t = start; t < start + n; t++) {
        cb_reserve_back(cb_in, 1);
        noc_async_read_tile(t, in, get_write_ptr(cb_in));
        noc_async_read_barrier();
        cb_push_back(cb_in, 1);
    }
}
