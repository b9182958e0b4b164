// tile_ops reader: the scaler tile (1.0 in the first row of every face) and A's four tiles.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    constexpr auto args = TensorAccessorArgs<0>();
    const auto a = TensorAccessor(args, get_arg_val<uint32_t>(0), get_tile_size(tt::CBIndex::c_0));
    cb_reserve_back(tt::CBIndex::c_1, 1);
    volatile tt_l1_ptr uint16_t* s = reinterpret_cast<volatile tt_l1_ptr uint16_t*>(get_write_ptr(tt::CBIndex::c_1));
    for (uint32_t i = 0; i < 1024; i++) s[i] = (i % 256) < 16 ? 0x3f80 : 0;
    cb_push_back(tt::CBIndex::c_1, 1);
    cb_reserve_back(tt::CBIndex::c_0, 4);
    for (uint32_t t = 0; t < 4; t++) noc_async_read_page(t, a, get_write_ptr(tt::CBIndex::c_0) + t * get_tile_size(tt::CBIndex::c_0));
    noc_async_read_barrier();
    cb_push_back(tt::CBIndex::c_0, 4);
}
