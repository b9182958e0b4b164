// Writer of tensim's pad_multi_core: the first 4 bytes of every 64-byte slot of c_0 become one output
// stick (a 4-byte page of the row-major output), a block at a time.
// CT args: 0 the CB, 1 stick bytes, 2 slot stride, 3 sticks per block, then the output's
// TensorAccessorArgs at 4. Runtime args: dst address, first output stick, output sticks.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    uint32_t dst = get_arg_val<uint32_t>(0);
    uint32_t first = get_arg_val<uint32_t>(1);
    uint32_t count = get_arg_val<uint32_t>(2);
    constexpr uint32_t cb = get_compile_time_arg_val(0);
    constexpr uint32_t stick_bytes = get_compile_time_arg_val(1);
    constexpr uint32_t slot = get_compile_time_arg_val(2);
    constexpr uint32_t block = get_compile_time_arg_val(3);
    constexpr auto args = TensorAccessorArgs<4>();
    const auto d = TensorAccessor(args, dst, stick_bytes);

    for (uint32_t b = 0; b < count; b += block) {
        cb_wait_front(cb, block);
        uint32_t l1 = get_read_ptr(cb);
        for (uint32_t j = 0; j < block; j++) noc_async_write(l1 + j * slot, get_noc_addr(first + b + j, d), stick_bytes);
        noc_async_write_barrier();
        cb_pop_front(cb, block);
    }
}
