// Reader of tensim's vecadd_multi_core program, in today's kernel API: this core's slice (tiles
// start..start+n) of two interleaved DRAM tensors, through TensorAccessors (their args at compile-time offset
// 0 and after it), into the CBs named by the named compile-time args cb_in0 and cb_in1.
// Runtime args: a address, b address, n, start.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    uint32_t a_addr = get_arg_val<uint32_t>(0);
    uint32_t b_addr = get_arg_val<uint32_t>(1);
    uint32_t n = get_arg_val<uint32_t>(2);
    uint32_t start = get_arg_val<uint32_t>(3);
    constexpr uint32_t cb_in0 = get_named_compile_time_arg_val("cb_in0");
    constexpr uint32_t cb_in1 = get_named_compile_time_arg_val("cb_in1");
    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    const auto a = TensorAccessor(a_args, a_addr);
    const auto b = TensorAccessor(b_args, b_addr);
    for (uint32_t t = start; t < start + n; t++) {
        cb_reserve_back(cb_in0, 1);
        cb_reserve_back(cb_in1, 1);
        uint32_t l1_a = get_write_ptr(cb_in0);
        uint32_t l1_b = get_write_ptr(cb_in1);
        noc_async_read_tile(t, a, l1_a);
        noc_async_read_tile(t, b, l1_b);
        noc_async_read_barrier();
        cb_push_back(cb_in0, 1);
        cb_push_back(cb_in1, 1);
    }
}
