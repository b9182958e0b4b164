// sfpu_ops writer: one tile per operation.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    constexpr uint32_t n = get_compile_time_arg_val(0);
    constexpr auto args = TensorAccessorArgs<1>();
    const auto out = TensorAccessor(args, get_arg_val<uint32_t>(0));
    for (uint32_t k = 0; k < n; k++) {
        cb_wait_front(tt::CBIndex::c_16, 1);
        noc_async_write_page(k, out, get_read_ptr(tt::CBIndex::c_16));
        noc_async_write_barrier();
        cb_pop_front(tt::CBIndex::c_16, 1);
    }
}
