// col_stats reader: the float32 reduce scaler (first row of every face, the rest zero), then for each tile
// row the band's 32-float slice of each of its 32 rows, read at a byte offset into the row's page.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t addr = get_arg_val<uint32_t>(0), band = get_arg_val<uint32_t>(1);
    const uint32_t rows = get_arg_val<uint32_t>(2), scaler = get_arg_val<uint32_t>(3);
    constexpr auto args = TensorAccessorArgs<0>();
    const auto x = TensorAccessor(args, addr);
    constexpr uint32_t cb_in = tt::CBIndex::c_0, cb_scaler = tt::CBIndex::c_2;

    cb_reserve_back(cb_scaler, 1);
    volatile tt_l1_ptr uint32_t* p = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_write_ptr(cb_scaler));
    for (uint32_t i = 0; i < 1024; i++) p[i] = (i % 256) < 16 ? scaler : 0;
    cb_push_back(cb_scaler, 1);

    const uint32_t slice = 32 * sizeof(float);
    for (uint32_t r0 = 0; r0 < rows; r0 += 32) {
        cb_reserve_back(cb_in, 1);
        const uint32_t l1 = get_write_ptr(cb_in);
        for (uint32_t i = 0; i < 32; i++) {
            noc_async_read(x.get_noc_addr(r0 + i, band * slice), l1 + i * slice, slice);
        }
        noc_async_read_barrier();
        cb_push_back(cb_in, 1);
    }
}
