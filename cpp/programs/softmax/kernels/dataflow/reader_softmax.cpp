// Reader of tensim's softmax program: the reduction scaler tile into c_2 (the scaler in the first row of
// every face, zeros elsewhere; written through an L1 pointer), then `rows` tile-rows of Wt tiles from
// tile `start`. Runtime args: src address, start tile, rows, Wt, scaler (f32 bits).
#include <cstdint>

void kernel_main() {
    uint32_t src = get_arg_val<uint32_t>(0);
    uint32_t start = get_arg_val<uint32_t>(1);
    uint32_t rows = get_arg_val<uint32_t>(2);
    uint32_t wt = get_arg_val<uint32_t>(3);
    uint32_t scaler_bits = get_arg_val<uint32_t>(4);
    constexpr uint32_t cb_in = tt::CBIndex::c_0;
    constexpr uint32_t cb_scaler = tt::CBIndex::c_2;

    cb_reserve_back(cb_scaler, 1);
    volatile tt_l1_ptr uint32_t* p = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_write_ptr(cb_scaler));
    uint32_t bf16 = scaler_bits >> 16;
    uint32_t word = bf16 | (bf16 << 16);
    for (uint32_t w = 0; w < 2048 / 4; w++) {
        // A face is 512 bytes; its first row is 16 bf16 values (8 words).
        p[w] = (w % 128) < 8 ? word : 0;
    }
    cb_push_back(cb_scaler, 1);

    const InterleavedAddrGenFast<true> in = {
        .bank_base_address = src, .page_size = (uint32_t)get_tile_size(cb_in), .data_format = DataFormat::Float16_b};
    for (uint32_t t = start; t < start + rows * wt; t++) {
        cb_reserve_back(cb_in, 1);
        noc_async_read_tile(t, in, get_write_ptr(cb_in));
        noc_async_read_barrier();
        cb_push_back(cb_in, 1);
    }
}
