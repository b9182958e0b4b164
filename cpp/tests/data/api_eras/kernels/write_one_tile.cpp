// Writer of tensim's API-generations test: one tile from c_16 to page 0 of a DRAM buffer.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t dst = get_arg_val<uint32_t>(0);
    constexpr auto args = TensorAccessorArgs<0>();
    const auto out = TensorAccessor(args, dst);
    cb_wait_front(tt::CBIndex::c_16, 1);
    noc_async_write_page(0, out, get_read_ptr(tt::CBIndex::c_16));
    noc_async_write_barrier();
    cb_pop_front(tt::CBIndex::c_16, 1);
}
