// Reader of tensim's pad_multi_core: for each output stick (4 bytes: two bf16 of one row) of its range, a
// 64-byte slot of c_0 receives either the source stick (a 4-byte NoC read, for columns inside the source)
// or the pad value (an L1 store), a block of sticks at a time.
// CT args: 0 the CB, 1 source sticks per row, 2 output sticks per row, 3 the pad value (two bf16; read
// straight from kernel_compile_time_args), 4 stick bytes, 5 slot stride, 6 sticks per block, then the
// source's TensorAccessorArgs at 7. Runtime args: src address, first output stick, output sticks.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    uint32_t src = get_arg_val<uint32_t>(0);
    uint32_t first = get_arg_val<uint32_t>(1);
    uint32_t count = get_arg_val<uint32_t>(2);
    constexpr uint32_t cb = get_compile_time_arg_val(0);
    constexpr uint32_t src_row = get_compile_time_arg_val(1);
    constexpr uint32_t dst_row = get_compile_time_arg_val(2);
    constexpr uint32_t stick_bytes = get_compile_time_arg_val(4);
    constexpr uint32_t slot = get_compile_time_arg_val(5);
    constexpr uint32_t block = get_compile_time_arg_val(6);
    const uint32_t pad = kernel_compile_time_args[3];
    constexpr auto args = TensorAccessorArgs<7>();
    const auto s = TensorAccessor(args, src, stick_bytes);

    for (uint32_t b = 0; b < count; b += block) {
        cb_reserve_back(cb, block);
        uint32_t l1 = get_write_ptr(cb);
        for (uint32_t j = 0; j < block; j++) {
            uint32_t stick = first + b + j;
            uint32_t row = stick / dst_row, col = stick % dst_row;
            if (col < src_row) {
                noc_async_read(get_noc_addr(row * src_row + col, s), l1 + j * slot, stick_bytes);
            } else {
                *reinterpret_cast<volatile tt_l1_ptr uint32_t*>(l1 + j * slot) = pad;
            }
        }
        noc_async_read_barrier();
        cb_push_back(cb, block);
    }
}
