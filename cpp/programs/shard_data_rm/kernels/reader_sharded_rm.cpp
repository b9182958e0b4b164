// Reader of tensim's shard_data_rm program: this core's shard (shard_height sticks of stick_size bytes,
// from stick start_id) of a row-major DRAM tensor into c_N (compile-time arg 0), one stick per NoC read at
// a stride of DRAM_ALIGNMENT bytes in L1 (past the CB's end, as the CB holds the sticks unpadded), then
// prints each stick's two bf16 values (today's format-string DPRINT). CT args: the CB, then the tensor's
// TensorAccessorArgs at offset 1.
// Runtime args: src address, stick size in bytes, shard height in sticks, first stick.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/debug/dprint.h"

void kernel_main() {
    uint32_t src = get_arg_val<uint32_t>(0);
    uint32_t stick_size = get_arg_val<uint32_t>(1);
    uint32_t shard_height = get_arg_val<uint32_t>(2);
    uint32_t start_id = get_arg_val<uint32_t>(3);
    constexpr uint32_t cb_id = get_compile_time_arg_val(0);
    constexpr auto args = TensorAccessorArgs<1>();
    const auto s = TensorAccessor(args, src, stick_size);
    const uint32_t stride = (stick_size + DRAM_ALIGNMENT - 1) / DRAM_ALIGNMENT * DRAM_ALIGNMENT;

    cb_reserve_back(cb_id, shard_height);
    uint32_t l1 = get_write_ptr(cb_id);
    for (uint32_t i = 0; i < shard_height; i++) {
        noc_async_read(get_noc_addr(start_id + i, s), l1 + i * stride, stick_size);
    }
    noc_async_read_barrier();
    cb_push_back(cb_id, shard_height);

    for (uint32_t i = 0; i < shard_height; i++) {
        volatile tt_l1_ptr uint16_t* stick = reinterpret_cast<volatile tt_l1_ptr uint16_t*>(l1 + i * stride);
        DPRINT("stick {}: {} {}\n", start_id + i, bf16_t{stick[0]}, bf16_t{stick[1]});
    }
}
