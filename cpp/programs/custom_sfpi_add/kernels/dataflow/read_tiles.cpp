// Reader of tensim's custom_sfpi_add program, in today's kernel API: tiles start..start+n of two interleaved
// DRAM tensors into c_0 and c_1, one pair at a time, through TensorAccessors whose args (page size included)
// the host appended. Runtime args: src0 address, src1 address, n, start.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    uint32_t src0 = get_arg_val<uint32_t>(0);
    uint32_t src1 = get_arg_val<uint32_t>(1);
    uint32_t n = get_arg_val<uint32_t>(2);
    uint32_t start = get_arg_val<uint32_t>(3);
    constexpr uint32_t cb0 = tt::CBIndex::c_0;
    constexpr uint32_t cb1 = tt::CBIndex::c_1;
    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    const auto a = TensorAccessor(a_args, src0);
    const auto b = TensorAccessor(b_args, src1);
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
