// tensim's adder kernel, in today's kernel API: two 4-byte reads into L1 through TensorAccessors (compile-time
// args from the host), the sum computed through core-local memory (L1 pointers), one write back.
// CT args: three TensorAccessorArgs (src0, src1, dst). RT args: src0, src1, dst DRAM addresses; src0, src1,
// dst L1 addresses.
#include <cstdint>

#include "api/core_local_mem.h"
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    uint32_t src0_dram = get_arg_val<uint32_t>(0);
    uint32_t src1_dram = get_arg_val<uint32_t>(1);
    uint32_t dst_dram = get_arg_val<uint32_t>(2);
    uint32_t src0_l1 = get_arg_val<uint32_t>(3);
    uint32_t src1_l1 = get_arg_val<uint32_t>(4);
    uint32_t dst_l1 = get_arg_val<uint32_t>(5);
    constexpr auto src0_args = TensorAccessorArgs<0>();
    constexpr auto src1_args = TensorAccessorArgs<src0_args.next_compile_time_args_offset()>();
    constexpr auto dst_args = TensorAccessorArgs<src1_args.next_compile_time_args_offset()>();
    const auto src0 = TensorAccessor(src0_args, src0_dram);
    const auto src1 = TensorAccessor(src1_args, src1_dram);
    const auto dst = TensorAccessor(dst_args, dst_dram);
    noc_async_read(src0.get_noc_addr(0), src0_l1, sizeof(uint32_t));
    noc_async_read(src1.get_noc_addr(0), src1_l1, sizeof(uint32_t));
    noc_async_read_barrier();
    CoreLocalMem<volatile uint32_t> a(src0_l1), b(src1_l1), c(dst_l1);
    c[0] = a[0] + b[0];
    noc_async_write(dst_l1, dst.get_noc_addr(0), sizeof(uint32_t));
    noc_async_write_barrier();
}
