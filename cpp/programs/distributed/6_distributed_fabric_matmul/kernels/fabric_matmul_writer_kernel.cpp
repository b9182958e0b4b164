// tensim's C++ fabric matmul writer: n output tiles from c_16 to tiles start..start+n of C in this chip's
// DRAM, then one increment of the forwarder's semaphore (on this chip) to say they are written.
// Runtime args: C address, n, start, forwarder x, y (NoC), forwarder semaphore id.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t dst = get_arg_val<uint32_t>(0);
    const uint32_t n = get_arg_val<uint32_t>(1);
    const uint32_t start = get_arg_val<uint32_t>(2);
    const uint32_t fwd_x = get_arg_val<uint32_t>(3);
    const uint32_t fwd_y = get_arg_val<uint32_t>(4);
    const uint32_t fwd_sem = get_semaphore(get_arg_val<uint32_t>(5));
    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    const InterleavedAddrGenFast<true> out = {
        .bank_base_address = dst, .page_size = (uint32_t)get_tile_size(cb_out), .data_format = get_dataformat(cb_out)};
    for (uint32_t t = start; t < start + n; t++) {
        cb_wait_front(cb_out, 1);
        noc_async_write_tile(t, out, get_read_ptr(cb_out));
        noc_async_write_barrier();
        cb_pop_front(cb_out, 1);
    }
    noc_semaphore_inc(get_noc_addr(fwd_x, fwd_y, fwd_sem), 1);
    noc_async_atomic_barrier();
}
