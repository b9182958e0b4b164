// dram_shards worker: this bank's shard by bank id and address (slot after slot: row r, column c of the
// shard at slot r * per + c), then page by page through the sharded accessor (page r * row_pages + bank *
// per + c); count the words where the two differ, copy the pages to the interleaved output.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t in_addr = get_arg_val<uint32_t>(0), out_addr = get_arg_val<uint32_t>(1);
    const uint32_t diff_addr = get_arg_val<uint32_t>(2), bank = get_arg_val<uint32_t>(3);
    const uint32_t rows = get_arg_val<uint32_t>(4), per = get_arg_val<uint32_t>(5), banks = get_arg_val<uint32_t>(6);
    if (banks == 0) return;  // a core with no bank
    constexpr auto in_args = TensorAccessorArgs<0>();
    constexpr auto out_args = TensorAccessorArgs<in_args.next_compile_time_args_offset()>();
    constexpr auto d_args = TensorAccessorArgs<out_args.next_compile_time_args_offset()>();
    constexpr uint32_t page = 64;
    const auto in = TensorAccessor(in_args, in_addr, page);
    const auto out = TensorAccessor(out_args, out_addr, page);
    const auto diffs = TensorAccessor(d_args, diff_addr, 64);
    const uint32_t n = rows * per;
    const uint32_t a = get_write_ptr(tt::CBIndex::c_0), b = a + n * page;
    for (uint32_t s = 0; s < n; s++) {
        noc_async_read(get_noc_addr_from_bank_id<true>(bank, in_addr + s * page), a + s * page, page);
    }
    for (uint32_t s = 0; s < n; s++) {
        const uint32_t pid = (s / per) * (per * banks) + bank * per + s % per;
        noc_async_read_page(pid, in, b + s * page);
    }
    noc_async_read_barrier();
    for (uint32_t s = 0; s < n; s++) {
        const uint32_t pid = (s / per) * (per * banks) + bank * per + s % per;
        noc_async_write_page(pid, out, a + s * page);
    }
    noc_async_write_barrier();
    volatile tt_l1_ptr uint32_t* pa = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(a);
    volatile tt_l1_ptr uint32_t* pb = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(b);
    uint32_t differ = 0;
    for (uint32_t i = 0; i < n * 16; i++) differ += pa[i] != pb[i];
    pb[0] = differ;
    pb[1] = n;
    noc_async_write_page(bank, diffs, b);
    noc_async_write_barrier();
}
