// Reader of tensim's matmul_multi_core program: for each output tile start..start+n (row-major over Mt × Nt), the Kt tile
// pairs A(m, k) into c_0 and B(k, n) into c_1. Runtime args: A address, B address, Mt, Kt, Nt, start, n.
#include <cstdint>

void kernel_main() {
    uint32_t a_addr = get_arg_val<uint32_t>(0);
    uint32_t b_addr = get_arg_val<uint32_t>(1);
    [[maybe_unused]] uint32_t Mt = get_arg_val<uint32_t>(2);
    uint32_t Kt = get_arg_val<uint32_t>(3);
    uint32_t Nt = get_arg_val<uint32_t>(4);
    uint32_t start = get_arg_val<uint32_t>(5);
    uint32_t n = get_arg_val<uint32_t>(6);
    constexpr uint32_t cb_a = tt::CBIndex::c_0;
    constexpr uint32_t cb_b = tt::CBIndex::c_1;
    const uint32_t tile = get_tile_size(cb_a);
    const InterleavedAddrGenFast<true> a = {.bank_base_address = a_addr, .page_size = tile, .data_format = DataFormat::Float16_b};
    const InterleavedAddrGenFast<true> b = {.bank_base_address = b_addr, .page_size = tile, .data_format = DataFormat::Float16_b};
    for (uint32_t out = start; out < start + n; out++) {
        uint32_t m = out / Nt, nn = out % Nt;
        for (uint32_t k = 0; k < Kt; k++) {
            cb_reserve_back(cb_a, 1);
            noc_async_read_tile(m * Kt + k, a, get_write_ptr(cb_a));
            noc_async_read_barrier();
            cb_push_back(cb_a, 1);
            cb_reserve_back(cb_b, 1);
            noc_async_read_tile(k * Nt + nn, b, get_write_ptr(cb_b));
            noc_async_read_barrier();
            cb_push_back(cb_b, 1);
        }
    }
}
