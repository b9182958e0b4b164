// Reader of tensim's matmul_multi_core program, in today's kernel API: for each output tile start..start+n (row-major over
// Mt × Nt), the Kt tile pairs A(m, k) into c_0 and B(k, n) into c_1, through TensorAccessors whose args (page
// size included) the host appended. Runtime args: A address, B address, Mt, Kt, Nt, start, n.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

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
    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    const auto a = TensorAccessor(a_args, a_addr);
    const auto b = TensorAccessor(b_args, b_addr);
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
