// tensim's loopback kernel: read each tile from the input DRAM buffer into L1 scratch, then write it to the
// output buffer. CT args: two TensorAccessorArgs (their page size included); RT args: L1 scratch, input, output
// addresses, tiles.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    uint32_t l1_buffer_addr = get_arg_val<uint32_t>(0);
    uint32_t in_addr = get_arg_val<uint32_t>(1);
    uint32_t out_addr = get_arg_val<uint32_t>(2);
    uint32_t num_tiles = get_arg_val<uint32_t>(3);
    constexpr auto in_args = TensorAccessorArgs<0>();
    constexpr auto out_args = TensorAccessorArgs<in_args.next_compile_time_args_offset()>();
    const auto in = TensorAccessor(in_args, in_addr);
    const auto out = TensorAccessor(out_args, out_addr);
    for (uint32_t i = 0; i < num_tiles; i++) {
        noc_async_read_tile(i, in, l1_buffer_addr);
        noc_async_read_barrier();
        noc_async_write_tile(i, out, l1_buffer_addr);
        noc_async_write_barrier();
    }
}
