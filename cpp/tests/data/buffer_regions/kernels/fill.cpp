// buffer_regions fill: page p of the buffer gets words p * 100000 + i, written from c_0 through an accessor.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t addr = get_arg_val<uint32_t>(0), pages = get_arg_val<uint32_t>(1);
    constexpr auto args = TensorAccessorArgs<0>();
    const auto out = TensorAccessor(args, addr, 1024);
    constexpr uint32_t cb = tt::CBIndex::c_0;
    for (uint32_t p = 0; p < pages; p++) {
        cb_reserve_back(cb, 1);
        volatile tt_l1_ptr uint32_t* w = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_write_ptr(cb));
        for (uint32_t i = 0; i < 256; i++) w[i] = p * 100000 + i;
        noc_async_write_page(p, out, get_write_ptr(cb));
        noc_async_write_barrier();
    }
}
