// Writer of tensim's contributed/vecadd: `n` tiles of c_16 to the output through a TensorAccessor
// (compile-time args). Runtime args: c address, n.
#include <cstdint>

void kernel_main() {
    uint32_t c_addr = get_arg_val<uint32_t>(0);
    uint32_t n = get_arg_val<uint32_t>(1);
    constexpr uint32_t cb_c = tt::CBIndex::c_16;
    constexpr auto c_args = TensorAccessorArgs<0>();
    const auto c = TensorAccessor(c_args, c_addr, get_tile_size(cb_c));
    for (uint32_t t = 0; t < n; t++) {
        cb_wait_front(cb_c, 1);
        noc_async_write_tile(t, c, get_read_ptr(cb_c));
        noc_async_write_barrier();
        cb_pop_front(cb_c, 1);
    }
}
